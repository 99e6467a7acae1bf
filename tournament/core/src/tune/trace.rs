//! `tuning.csv`: one row per SPSA iteration, appended (and flushed) as
//! each ends, so a killed run keeps every iteration it finished (a
//! partial last line is dropped on resume).
//!
//! Columns, for parameters `p1, p2, …` in the order of `--param`:
//! `iteration, a_k, c_k`, then per parameter `p` (θ at the start of the
//! iteration, a real number in the parameter's units), `p_plus` and
//! `p_minus` (the values played by `θ±`: rounded for an integer
//! parameter), then `plus_spec, minus_spec, games, plus_score,
//! minus_score, result` (see [`crate::tune::play`]). Numbers are written
//! in full precision (Rust's shortest round-trip form), so a resumed run
//! reads back exactly the θ it wrote.

use files::error::{Error, Result};
use std::io::Write;
use std::path::Path;

/// The file's name in a tuning folder.
pub const TUNING_CSV: &str = "tuning.csv";

/// One iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The iteration, from 0.
    pub iteration: u64,
    /// Its step size.
    pub a_k: f64,
    /// Its perturbation (share of each range).
    pub c_k: f64,
    /// θ at its start, per parameter, in the parameter's units.
    pub theta: Vec<f64>,
    /// The values `θ+` played.
    pub plus: Vec<f64>,
    /// The values `θ−` played.
    pub minus: Vec<f64>,
    /// The spec `θ+` played.
    pub plus_spec: String,
    /// The spec `θ−` played.
    pub minus_spec: String,
    /// Games each side played.
    pub games: u64,
    /// Points of `θ+`.
    pub plus_score: f64,
    /// Points of `θ−`.
    pub minus_score: f64,
    /// The estimate of `F(θ+) − F(θ−)` the update used.
    pub result: f64,
}

/// The header for parameters `names`.
pub fn header(names: &[String]) -> Vec<String> {
    let mut h: Vec<String> = ["iteration", "a_k", "c_k"].map(String::from).to_vec();
    for n in names {
        h.extend([n.clone(), format!("{n}_plus"), format!("{n}_minus")]);
    }
    h.extend(
        [
            "plus_spec",
            "minus_spec",
            "games",
            "plus_score",
            "minus_score",
            "result",
        ]
        .map(String::from),
    );
    h
}

impl Row {
    fn fields(&self) -> Vec<String> {
        let mut f = vec![
            self.iteration.to_string(),
            self.a_k.to_string(),
            self.c_k.to_string(),
        ];
        for i in 0..self.theta.len() {
            f.extend([
                self.theta[i].to_string(),
                self.plus[i].to_string(),
                self.minus[i].to_string(),
            ]);
        }
        f.extend([
            self.plus_spec.clone(),
            self.minus_spec.clone(),
            self.games.to_string(),
            self.plus_score.to_string(),
            self.minus_score.to_string(),
            self.result.to_string(),
        ]);
        f
    }

    fn parse(record: &csv::StringRecord, params: usize) -> Option<Row> {
        if record.len() != 3 + 3 * params + 6 {
            return None;
        }
        let num = |i: usize| record.get(i)?.parse::<f64>().ok();
        let int = |i: usize| record.get(i)?.parse::<u64>().ok();
        let mut theta = Vec::new();
        let mut plus = Vec::new();
        let mut minus = Vec::new();
        for p in 0..params {
            theta.push(num(3 + 3 * p)?);
            plus.push(num(4 + 3 * p)?);
            minus.push(num(5 + 3 * p)?);
        }
        let rest = 3 + 3 * params;
        Some(Row {
            iteration: int(0)?,
            a_k: num(1)?,
            c_k: num(2)?,
            theta,
            plus,
            minus,
            plus_spec: record.get(rest)?.to_string(),
            minus_spec: record.get(rest + 1)?.to_string(),
            games: int(rest + 2)?,
            plus_score: num(rest + 3)?,
            minus_score: num(rest + 4)?,
            result: num(rest + 5)?,
        })
    }
}

/// `fields` as one CSV line.
fn line(fields: &[String]) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(fields)
        .map_err(|e| Error::Internal(format!("csv: {e}")))?;
    w.into_inner()
        .map_err(|e| Error::Internal(format!("csv: {e}")))
}

/// The append-only writer of `tuning.csv`.
pub struct TraceWriter {
    file: std::fs::File,
    path: std::path::PathBuf,
}

impl TraceWriter {
    /// Write `tuning.csv` in `dir` anew: the header and `rows` (those a
    /// resumed run keeps), through a temporary file and a rename; then
    /// open it to append.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn create(dir: &Path, names: &[String], rows: &[Row]) -> Result<TraceWriter> {
        let path = dir.join(TUNING_CSV);
        let mut bytes = line(&header(names))?;
        for row in rows {
            bytes.extend(line(&row.fields())?);
        }
        files::atomic::write_atomic(&path, &bytes)?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(|e| Error::io("open", &path, e))?;
        Ok(TraceWriter { file, path })
    }

    /// Append `row` and flush it.
    ///
    /// # Errors
    /// The write fails.
    pub fn append(&mut self, row: &Row) -> Result<()> {
        let bytes = line(&row.fields())?;
        self.file
            .write_all(&bytes)
            .and_then(|()| self.file.flush())
            .map_err(|e| Error::io("write", &self.path, e))
    }
}

/// The complete rows of `tuning.csv` in `dir` for parameters `names`
/// (a partial last line, left by a kill, is dropped).
///
/// # Errors
/// The file cannot be read, its header is not the one of `names`, or a
/// complete row does not parse.
pub fn read(dir: &Path, names: &[String]) -> Result<Vec<Row>> {
    let path = dir.join(TUNING_CSV);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io("read", &path, e)),
    };
    let complete = files::lines::complete_lines(&text).join("\n");
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(complete.as_bytes());
    let mut rows = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| Error::content(&path, Some(i + 1), e))?;
        if i == 0 {
            if record.iter().ne(header(names).iter().map(String::as_str)) {
                return Err(Error::content(
                    &path,
                    Some(1),
                    "not the header of this run's parameters",
                ));
            }
            continue;
        }
        let row = Row::parse(&record, names.len())
            .ok_or_else(|| Error::content(&path, Some(i + 1), "not a row of tuning.csv"))?;
        rows.push(row);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(k: u64) -> Row {
        Row {
            iteration: k,
            a_k: 0.1 / 3.0,
            c_k: 0.1,
            theta: vec![0.7 + 1e-17, 4.25],
            plus: vec![0.8, 5.0],
            minus: vec![0.6, 4.0],
            plus_spec: "mcts:iterations=10,c=0.8,k=5".to_string(),
            minus_spec: "mcts:iterations=10,c=0.6,k=4".to_string(),
            games: 2,
            plus_score: 1.5,
            minus_score: 0.5,
            result: 0.5,
        }
    }

    #[test]
    fn rows_read_back_exactly_and_a_partial_line_is_dropped() {
        let dir = std::env::temp_dir().join(format!("tune-trace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let names = vec!["c".to_string(), "k".to_string()];
        let mut w = TraceWriter::create(&dir, &names, &[row(0)]).unwrap();
        w.append(&row(1)).unwrap();
        drop(w);
        let path = dir.join(TUNING_CSV);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(
            "iteration,a_k,c_k,c,c_plus,c_minus,k,k_plus,k_minus,plus_spec,minus_spec,games,plus_score,minus_score,result\n"
        ));
        std::fs::write(&path, format!("{text}2,0.1,0.1,0.7")).unwrap();
        assert_eq!(read(&dir, &names).unwrap(), vec![row(0), row(1)]);
        let e = read(&dir, &["c".to_string()]).unwrap_err();
        assert!(e.to_string().contains("header"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
