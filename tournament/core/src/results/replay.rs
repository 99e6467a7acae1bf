//! `carcassonne replay`: check records and print their score reports.

use engine::{Record, Seat, State};
use serde::Serialize;
use std::fmt;
use std::path::Path;

/// One seat's line of a score report.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SeatScore {
    /// All points.
    pub total: u32,
    /// Roads.
    pub road: u16,
    /// Cities.
    pub city: u16,
    /// Monasteries.
    pub monastery: u16,
    /// Farms.
    pub farm: u16,
    /// Unopened gifts.
    pub gifts: u16,
}

/// The JSON report printed for each replayed record (docs/RECORD-FORMAT.md).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ScoreReport {
    /// One entry per seat, in seat order.
    pub scores: Vec<SeatScore>,
    /// Turns in the record.
    pub turns: usize,
    /// Every tile was drawn, or none left can be drawn under the rules
    /// (the game is finished).
    pub finished: bool,
}

impl ScoreReport {
    /// The report of a replayed state.
    pub fn new(state: &State, turns: usize, finished: bool) -> ScoreReport {
        let scores = (0..state.players())
            .map(|s| {
                let sc = state.score(Seat(s as u8));
                SeatScore {
                    total: sc.total(),
                    road: sc.road,
                    city: sc.city,
                    monastery: sc.monastery,
                    farm: sc.farm,
                    gifts: sc.gifts,
                }
            })
            .collect();
        ScoreReport {
            scores,
            turns,
            finished,
        }
    }
}

/// A record that could not be read or replayed: where, and why.
#[derive(Debug)]
pub struct ReplayFailure {
    /// `FILE` or `FILE:LINE` for JSON Lines.
    pub place: String,
    /// The one-line reason.
    pub reason: String,
}

impl fmt::Display for ReplayFailure {
    /// One line, as [`files::error::Error`]'s: control characters quoted
    /// from the record are escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        files::error::write_one_line(f, &format!("{}: {}", self.place, self.reason))
    }
}

/// Replay one record given as JSON text. A parse error names its line and
/// column within `text`.
pub fn replay_json(text: &str, end: bool) -> Result<ScoreReport, String> {
    let record: Record = serde_json::from_str(text).map_err(|e| format!("bad record: {e}"))?;
    replay_record(&record, end)
}

/// Replay a parsed record.
fn replay_record(record: &Record, end: bool) -> Result<ScoreReport, String> {
    let state = engine::replay(record, end).map_err(|e| e.to_string())?;
    let finished = state.tiles_exhausted() && state.is_over();
    Ok(ScoreReport::new(&state, record.turns.len(), finished))
}

/// One record's text inside a file: where it starts (1-based line and
/// column) and the text.
struct Span<'a> {
    line: usize,
    column: usize,
    text: &'a str,
}

impl Span<'_> {
    /// Parse and replay the record; a failure is placed at
    /// `FILE:LINE:COLUMN` for parse errors (the position in the file, not
    /// in the record) and at `FILE:LINE` (where the record starts) for
    /// illegal turns.
    fn replay(&self, name: &str, end: bool) -> Result<ScoreReport, ReplayFailure> {
        let record: Record = serde_json::from_str(self.text).map_err(|e| {
            let (line, column) = if e.line() <= 1 {
                (self.line, self.column + e.column().saturating_sub(1))
            } else {
                (self.line + e.line() - 1, e.column())
            };
            ReplayFailure {
                place: format!("{name}:{line}:{column}"),
                reason: format!("bad record: {}", without_position(&e)),
            }
        })?;
        replay_record(&record, end).map_err(|reason| ReplayFailure {
            place: format!("{name}:{}", self.line),
            reason,
        })
    }
}

/// A serde_json error's message without its " at line L column C".
fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) if e.line() > 0 => text[..i].to_string(),
        _ => text,
    }
}

/// 1-based line and column of byte `offset` in `text`.
fn position(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, column)
}

/// Split a file into its records: a stream of JSON values (one record,
/// pretty-printed or not, or JSON Lines). When the stream is not valid
/// JSON, JSON Lines are split at line ends so every good line is still
/// replayed; a single record gets the syntax error at its real position.
fn spans(text: &str) -> Vec<Span<'_>> {
    let mut out = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<serde::de::IgnoredAny>();
    let mut start = 0;
    loop {
        match stream.next() {
            None => return out,
            Some(Ok(_)) => {
                let end = stream.byte_offset();
                let skipped = text[start..end].len() - text[start..end].trim_start().len();
                let (line, column) = position(text, start + skipped);
                out.push(Span {
                    line,
                    column,
                    text: &text[start + skipped..end],
                });
                start = end;
            }
            Some(Err(_)) => break,
        }
    }
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    let first_is_whole = lines
        .first()
        .is_some_and(|(_, l)| serde_json::from_str::<serde::de::IgnoredAny>(l).is_ok());
    if lines.len() > 1 && first_is_whole {
        lines
            .into_iter()
            .map(|(i, l)| Span {
                line: i + 1,
                column: 1,
                text: l,
            })
            .collect()
    } else {
        // One record (perhaps after good ones) with a syntax error: parse
        // it from where the last good value ended, so the error's position
        // is found and reported in file terms.
        let skipped = text[start..].len() - text[start..].trim_start().len();
        let (line, column) = position(text, start + skipped);
        out.push(Span {
            line,
            column,
            text: &text[start + skipped..],
        });
        out
    }
}

/// Replay a file: one JSON record (possibly spread over many lines), or
/// JSON Lines (one record per non-empty line). Returns one result per
/// record, in file order: its report, or where and why it failed. A file
/// that cannot be read, or holds no record, is one failure.
pub fn replay_file(path: &Path, end: bool) -> Vec<Result<ScoreReport, ReplayFailure>> {
    let name = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            return vec![Err(ReplayFailure {
                place: name,
                reason: format!("cannot read: {e}"),
            })]
        }
    };
    let spans = spans(&text);
    if spans.is_empty() {
        return vec![Err(ReplayFailure {
            place: name,
            reason: "no record in the file".to_string(),
        })];
    }
    spans.iter().map(|span| span.replay(&name, end)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("replay-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn an_illegal_pretty_printed_record_names_its_turn_not_a_parse_error() {
        let path = write(
            "pretty.json",
            "{\n  \"players\": 2,\n  \"turns\": [\n    {\"player\": 0, \"tile\": \"U\", \"x\": 5, \"y\": 5, \"rot\": 0}\n  ]\n}\n",
        );
        let err = first_error(&path);
        assert!(
            err.ends_with(
                "pretty.json:1: turn 1: cell (5, 5) has no neighbouring tile along an edge"
            ),
            "{err}"
        );
    }

    #[test]
    fn json_lines_name_the_failing_line() {
        let good =
            r#"{"players": 2, "turns": [{"player": 0, "tile": "U", "x": 1, "y": 0, "rot": 1}]}"#;
        let bad = concat!(
            r#"{"players": 2, "turns": [{"player": 0, "tile": "U", "x": 1, "y": 0, "rot": 1},"#,
            r#" {"player": 0, "tile": "U", "x": 2, "y": 0, "rot": 1}]}"#
        );
        let path = write("lines.jsonl", &format!("{good}\n\n{bad}\n"));
        let err = first_error(&path);
        assert!(
            err.contains("lines.jsonl:3: turn 2: player 0 played"),
            "{err}"
        );
        let path = write("ok.jsonl", &format!("{good}\n{good}\n"));
        let results = replay_file(&path, true);
        assert_eq!(results.len(), 2);
        assert!(results.iter().all(Result::is_ok));
    }

    fn first_error(path: &Path) -> String {
        replay_file(path, false)
            .into_iter()
            .find_map(Result::err)
            .expect("a failure")
            .to_string()
    }

    /// Issue 8: a pretty-printed record with `"rot": 256` on line 7 was
    /// reported at ":1: … line 1 column 1".
    #[test]
    fn a_parse_error_in_a_pretty_printed_record_names_its_real_line_and_column() {
        let text = concat!(
            "{\n",
            "  \"players\": 2,\n",
            "  \"turns\": [\n",
            "    {\n",
            "      \"player\": 0,\n",
            "      \"tile\": \"U\",\n",
            "      \"rot\": 256\n",
            "    }\n",
            "  ]\n",
            "}\n"
        );
        let path = write("rot.json", text);
        let err = first_error(&path);
        assert!(
            err.contains("rot.json:7:16: bad record: invalid value: integer `256`"),
            "{err}"
        );
        // A syntax error: a missing comma after line 5.
        let path = write("syntax.json", &text.replace("0,\n", "0\n"));
        let err = first_error(&path);
        assert!(
            err.contains("syntax.json:6:7: bad record: expected `,` or `}`"),
            "{err}"
        );
        // In JSON Lines, the column is within the line.
        let good = r#"{"players": 2, "turns": []}"#;
        let path = write(
            "cols.jsonl",
            &format!("{good}\n{{\"players\": 2, \"turns\": 7}}\n"),
        );
        let err = first_error(&path);
        assert!(
            err.contains("cols.jsonl:2:25: bad record: invalid type: integer `7`"),
            "{err}"
        );
    }

    #[test]
    fn a_record_quoting_a_line_break_fails_on_one_line() {
        // serde names an unknown key as sent: a key holding an escaped
        // line break printed the failure on two lines.
        let path = write(
            "key.json",
            r#"{"players": 2, "rules": {"far\nmers": true}, "turns": []}"#,
        );
        let err = first_error(&path);
        assert!(
            err.contains("bad record: unknown field `far\\nmers`"),
            "{err}"
        );
        assert!(!err.contains('\n'), "{err}");
    }

    /// Issue 8: one bad line among good ones suppressed every report.
    #[test]
    fn every_good_record_is_reported_beside_the_bad_ones() {
        let good =
            r#"{"players": 2, "turns": [{"player": 0, "tile": "U", "x": 1, "y": 0, "rot": 1}]}"#;
        let text = format!("{good}\n{{\"players\": 2, \"tur\n{good}\n{good}\n");
        let path = write("mixed.jsonl", &text);
        let results = replay_file(&path, false);
        assert_eq!(results.len(), 4);
        assert!(results[0].is_ok() && results[2].is_ok() && results[3].is_ok());
        let err = results[1].as_ref().unwrap_err().to_string();
        assert!(err.contains("mixed.jsonl:2:"), "{err}");
    }
}
