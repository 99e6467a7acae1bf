//! The files of a results folder (documented column by column in
//! `results/README.md`): `games.csv`, `summary.csv`, `pairwise.csv`,
//! `run.json` and `records.jsonl`.
//!
//! Self-play runs also write `positions.csv` (its header
//! [`crate::results::schema::positions_columns`], its rows from
//! `crate::learning::positions`).
//!
//! `games.csv` and `records.jsonl` are appended game by game, in game
//! order, and flushed after every game, so an interrupted run keeps every
//! finished game. The other files are written whole, through a temporary
//! file and a rename, so they are never half-written.

use crate::results::schema::{
    GameRow, PairwiseRow, RunInfo, SummaryRow, GAMES_CSV, GAME_COLUMNS, PAIRWISE_COLUMNS,
    PAIRWISE_CSV, POSITIONS_CSV, RECORDS_JSONL, RUN_FORMAT, RUN_JSON, SUMMARY_CSV,
};
use files::error::{Error, Result};
use serde::Serialize;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// A failure to serialize our own types or write to memory.
fn internal(e: impl std::fmt::Display) -> Error {
    Error::Internal(e.to_string())
}

use files::atomic::write_atomic_via;
pub use files::atomic::{check_replaceable, write_atomic};

/// Serialize `rows` as CSV with a header (no rows: nothing at all; see
/// [`write_summaries`] for a header alone).
pub fn csv_bytes<T: Serialize>(rows: &[T]) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in rows {
        w.serialize(row).map_err(internal)?;
    }
    w.into_inner().map_err(internal)
}

/// Write `run.json`.
pub fn write_run_info(dir: &Path, info: &RunInfo) -> Result<()> {
    let mut text = serde_json::to_string_pretty(info).map_err(internal)?;
    text.push('\n');
    write_atomic(&dir.join(RUN_JSON), text.as_bytes())
}

/// Read `run.json`; an error names the folder as not a tournament.
pub fn read_run_info(dir: &Path) -> Result<RunInfo> {
    let path = dir.join(RUN_JSON);
    let text = std::fs::read_to_string(&path).map_err(|_| {
        Error::Folder(format!(
            "{} is not a tournament folder (no readable run.json)",
            dir.display()
        ))
    })?;
    let info: RunInfo = serde_json::from_str(&text).map_err(|e| {
        Error::Folder(format!(
            "{} is not a tournament folder (bad run.json: {e})",
            dir.display()
        ))
    })?;
    if info.format != RUN_FORMAT {
        return Err(Error::Folder(format!(
            "{} is not a tournament folder (run.json format {:?})",
            dir.display(),
            info.format
        )));
    }
    Ok(info)
}

/// Write `summary.csv` and `pairwise.csv`. A run in which no two agents
/// met (self-play, one agent) gets a `pairwise.csv` of its header alone.
pub fn write_summaries(dir: &Path, summary: &[SummaryRow], pairwise: &[PairwiseRow]) -> Result<()> {
    write_atomic(&dir.join(SUMMARY_CSV), &csv_bytes(summary)?)?;
    let pairwise = if pairwise.is_empty() {
        format!("{}\n", PAIRWISE_COLUMNS.join(",")).into_bytes()
    } else {
        csv_bytes(pairwise)?
    };
    write_atomic(&dir.join(PAIRWISE_CSV), &pairwise)
}

/// Appends games to `games.csv` (and `records.jsonl`, and for self-play
/// `positions.csv`), flushing after each.
pub struct GamesWriter {
    games: csv::Writer<File>,
    records: Option<BufWriter<File>>,
    positions: Option<BufWriter<File>>,
    games_path: PathBuf,
}

impl GamesWriter {
    /// Create (truncate) the files of `dir` and write the header.
    pub fn create(dir: &Path, records: bool) -> Result<GamesWriter> {
        let records = records.then(|| dir.join(RECORDS_JSONL));
        GamesWriter::create_files(&dir.join(GAMES_CSV), records.as_deref())
    }

    /// Rewrite the files of `dir` with exactly the games `rows` (and their
    /// `record_lines`), then continue appending. The kept games are written
    /// to temporary files that replace the old ones by a rename, so an
    /// interruption here loses nothing.
    pub fn resume(
        dir: &Path,
        rows: &[GameRow],
        record_lines: Option<&[String]>,
    ) -> Result<GamesWriter> {
        let games_path = dir.join(GAMES_CSV);
        let records_path = dir.join(RECORDS_JSONL);
        let tmp_games = dir.join("games.csv.tmp");
        let tmp_records = dir.join("records.jsonl.tmp");
        let written = Self::write_kept(dir, rows, record_lines, &tmp_games, &tmp_records);
        if written.is_err() {
            // Nothing half-done stays behind: the old files are untouched.
            let _ = std::fs::remove_file(&tmp_games);
            let _ = std::fs::remove_file(&tmp_records);
        }
        written?;
        let append = |path: &Path| {
            std::fs::OpenOptions::new()
                .append(true)
                .open(path)
                .map_err(|e| Error::io("open", path, e))
        };
        let records = match record_lines {
            Some(_) => Some(BufWriter::new(append(&records_path)?)),
            None => None,
        };
        Ok(GamesWriter {
            games: csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(append(&games_path)?),
            records,
            positions: None,
            games_path,
        })
    }

    /// Also write `positions.csv` (self-play): a new file with its
    /// header, or on resume (`kept`: the lines of the games kept) the
    /// kept lines written to a temporary file that replaces the old one,
    /// then appended to. Call it before the first [`GamesWriter::append`].
    pub fn with_positions(mut self, dir: &Path, kept: Option<&[String]>) -> Result<GamesWriter> {
        let path = dir.join(POSITIONS_CSV);
        let tmp = dir.join("positions.csv.tmp");
        let mut text = crate::results::schema::positions_columns().join(",");
        text.push('\n');
        for line in kept.unwrap_or_default() {
            text.push_str(line);
            text.push('\n');
        }
        write_atomic_via(&tmp, &path, text.as_bytes())?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(|e| Error::io("open", &path, e))?;
        self.positions = Some(BufWriter::new(file));
        Ok(self)
    }

    /// Append one game's positions.csv lines (call before its
    /// [`GamesWriter::append`], so positions.csv never holds fewer games
    /// than games.csv).
    pub fn append_positions(&mut self, lines: &str) -> Result<()> {
        if let Some(w) = &mut self.positions {
            w.write_all(lines.as_bytes())
                .and_then(|()| w.flush())
                .map_err(|e| Error::io("write", Path::new(POSITIONS_CSV), e))?;
        }
        Ok(())
    }

    /// Write the kept games to the temporary files and rename them over
    /// the old ones (records first).
    fn write_kept(
        dir: &Path,
        rows: &[GameRow],
        record_lines: Option<&[String]>,
        tmp_games: &Path,
        tmp_records: &Path,
    ) -> Result<()> {
        let games_path = dir.join(GAMES_CSV);
        let records_path = dir.join(RECORDS_JSONL);
        {
            let mut w = GamesWriter::create_files(tmp_games, record_lines.map(|_| tmp_records))?;
            for (i, game) in crate::results::summary::games(rows).enumerate() {
                let line = record_lines.and_then(|r| r.get(i)).map(String::as_str);
                w.append(game, line)?;
            }
        }
        let rename = |from: &Path, to: &Path| {
            std::fs::rename(from, to).map_err(|e| Error::io("write", to, e))
        };
        // Records first: records.jsonl never holds fewer games than
        // games.csv, and a resume keeps the games both hold.
        if record_lines.is_some() {
            rename(tmp_records, &records_path)?;
        }
        rename(tmp_games, &games_path)
    }

    fn create_files(games_path: &Path, records: Option<&Path>) -> Result<GamesWriter> {
        let file = File::create(games_path).map_err(|e| Error::io("create", games_path, e))?;
        let records = match records {
            Some(path) => {
                let f = File::create(path).map_err(|e| Error::io("create", path, e))?;
                Some(BufWriter::new(f))
            }
            None => None,
        };
        let mut games = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        games.write_record(GAME_COLUMNS).map_err(internal)?;
        let mut w = GamesWriter {
            games,
            records,
            positions: None,
            games_path: games_path.to_path_buf(),
        };
        w.flush()?;
        Ok(w)
    }

    /// Append one game: its record line first, then its rows.
    pub fn append(&mut self, rows: &[GameRow], record: Option<&str>) -> Result<()> {
        if let (Some(w), Some(line)) = (&mut self.records, record) {
            w.write_all(line.as_bytes())
                .and_then(|()| w.write_all(b"\n"))
                .and_then(|()| w.flush())
                .map_err(|e| Error::io("write", Path::new(RECORDS_JSONL), e))?;
        }
        for row in rows {
            self.games.serialize(row).map_err(internal)?;
        }
        self.flush()
    }

    fn flush(&mut self) -> Result<()> {
        self.games
            .flush()
            .map_err(|e| Error::io("write", &self.games_path, e))
    }
}

/// Read the complete rows of a results folder's games.csv: every game
/// [`for_each_game`] hands over, one after the other (only complete
/// lines: a partial last line, left by an interrupted write, is not
/// read).
///
/// # Errors
/// The file cannot be read, or a row does not parse (the line names the
/// folder).
pub fn read_games(dir: &Path) -> Result<Vec<GameRow>> {
    let mut rows = Vec::new();
    for_each_game(dir, |game, _| {
        rows.extend_from_slice(game);
        Ok(())
    })?;
    Ok(rows)
}

/// Stream the games of a results folder's games.csv: `each` is given the
/// rows of one game (consecutive rows with the same `game`) and the line
/// of its first row, game after game, in bounded memory (one game's rows
/// at a time, whatever the file's size). As [`read_games`], only complete
/// lines are read (a partial last line, left by an interrupted write, is
/// not); the last game handed over may have fewer rows than seats.
///
/// # Errors
/// The file cannot be read, a row does not parse (its line named), or
/// `each`'s error.
pub fn for_each_game(
    dir: &Path,
    mut each: impl FnMut(&[GameRow], usize) -> Result<()>,
) -> Result<()> {
    let path = dir.join(GAMES_CSV);
    let io = |e| Error::io("read", &path, e);
    let mut file = File::open(&path).map_err(io)?;
    let complete = complete_length(&mut file).map_err(io)?;
    let mut reader =
        csv::Reader::from_reader(std::io::BufReader::new(std::io::Read::take(file, complete)));
    let mut game: Vec<GameRow> = Vec::new();
    let mut first_line = 2;
    for (i, row) in reader.deserialize::<GameRow>().enumerate() {
        let line = i + 2;
        let row = row.map_err(|e| {
            Error::Folder(format!(
                "{}: games.csv line {line}: not a game row ({e})",
                dir.display()
            ))
        })?;
        if game.last().is_some_and(|last| last.game != row.game) {
            each(&game, first_line)?;
            game.clear();
        }
        if game.is_empty() {
            first_line = line;
        }
        game.push(row);
    }
    if !game.is_empty() {
        each(&game, first_line)?;
    }
    Ok(())
}

/// The length of `file` up to and with its last newline (0 without one),
/// the file's position back at its start.
fn complete_length(file: &mut File) -> std::io::Result<u64> {
    use std::io::{Read, Seek, SeekFrom};
    let len = file.metadata()?.len();
    let mut end = len;
    let mut chunk = vec![0u8; 64 * 1024];
    let complete = loop {
        if end == 0 {
            break 0;
        }
        let start = end.saturating_sub(chunk.len() as u64);
        let part = &mut chunk[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(part)?;
        if let Some(at) = part.iter().rposition(|&b| b == b'\n') {
            break start + at as u64 + 1;
        }
        end = start;
    };
    file.seek(SeekFrom::Start(0))?;
    Ok(complete)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::schema::Outcome;

    #[test]
    fn game_columns_match_the_row_fields() {
        let row = GameRow {
            game: 3,
            deck_seed: 4,
            seat: 1,
            agent: "mcts:iterations=5,c=0.7".to_string(),
            score: 10,
            road: 1,
            city: 2,
            monastery: 3,
            farm: 4,
            gifts: 0,
            rank: 1,
            result: Outcome::Draw,
            turns: 71,
            meeples_placed: 6,
            think_ms: 1.25,
            decisions: Some(9),
            forfeit: String::new(),
        };
        let text = String::from_utf8(csv_bytes(std::slice::from_ref(&row)).unwrap()).unwrap();
        let header = text.lines().next().unwrap();
        assert_eq!(header, GAME_COLUMNS.join(","));
        // A partial last line is ignored.
        let dir = std::env::temp_dir().join(format!("game-columns-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(GAMES_CSV), format!("{text}3,4,1,\"mcts")).unwrap();
        assert_eq!(read_games(&dir).unwrap(), vec![row]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The streaming reader hands over the games [`read_games`] reads,
    /// with the line of each game's first row, and leaves a partial last
    /// line out too.
    #[test]
    fn games_stream_game_by_game_as_read_games_reads_them() {
        let dir = std::env::temp_dir().join(format!("stream-games-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let row = |game: u64, seat: usize, score: u32| GameRow {
            game,
            deck_seed: 7 + game,
            seat,
            agent: format!("agent{seat}"),
            score,
            road: 0,
            city: 0,
            monastery: 0,
            farm: 0,
            gifts: 0,
            rank: 1,
            result: Outcome::Win,
            turns: 71,
            meeples_placed: 0,
            think_ms: 0.0,
            decisions: None,
            forfeit: String::new(),
        };
        let rows: Vec<GameRow> = (0..5)
            .flat_map(|g| [row(g, 0, 10), row(g, 1, 20)])
            .collect();
        let text = String::from_utf8(csv_bytes(&rows).unwrap()).unwrap();
        for tail in ["", "5,12,0,\"agent0\",3"] {
            std::fs::write(dir.join(GAMES_CSV), format!("{text}{tail}")).unwrap();
            let mut seen: Vec<(Vec<GameRow>, usize)> = Vec::new();
            for_each_game(&dir, |game, line| {
                seen.push((game.to_vec(), line));
                Ok(())
            })
            .unwrap();
            let read = read_games(&dir).unwrap();
            let expected: Vec<(Vec<GameRow>, usize)> = crate::results::summary::games(&read)
                .enumerate()
                .map(|(g, game)| (game.to_vec(), 2 + 2 * g))
                .collect();
            assert_eq!(seen, expected);
            assert_eq!(seen.len(), 5);
        }
        std::fs::write(dir.join(GAMES_CSV), format!("{text}1,2,x\n")).unwrap();
        let e = for_each_game(&dir, |_, _| Ok(())).unwrap_err().to_string();
        assert!(e.contains("line 12") && !e.contains('\n'), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn pairwise_columns_match_the_row_fields_and_no_pairs_is_a_header() {
        let row = PairwiseRow {
            agent: "a".to_string(),
            opponent: "b".to_string(),
            games: 2,
            wins: 1,
            draws: 0,
            losses: 1,
            win_rate: 0.5,
            win_rate_ci_low: 0.1,
            win_rate_ci_high: 0.9,
            paired_ci_low: 0.0,
            paired_ci_high: 1.0,
            mean_score_diff: 0.0,
            mean_score_diff_se: 1.0,
        };
        let text = String::from_utf8(csv_bytes(&[row]).unwrap()).unwrap();
        assert_eq!(text.lines().next().unwrap(), PAIRWISE_COLUMNS.join(","));
        let dir = std::env::temp_dir().join(format!("pairwise-header-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        write_summaries(&dir, &[], &[]).unwrap();
        let written = std::fs::read_to_string(dir.join(PAIRWISE_CSV)).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(written, format!("{}\n", PAIRWISE_COLUMNS.join(",")));
    }
}
