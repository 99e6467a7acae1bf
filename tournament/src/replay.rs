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

/// The JSON report printed for each replayed record (GAME-RECORD.md).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ScoreReport {
    /// One entry per seat, in seat order.
    pub scores: Vec<SeatScore>,
    /// Turns in the record.
    pub turns: usize,
    /// All tiles were drawn (the game is finished).
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
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.reason)
    }
}

/// Replay one record given as JSON text.
pub fn replay_json(text: &str, end: bool) -> Result<ScoreReport, String> {
    let record: Record = serde_json::from_str(text).map_err(|e| format!("bad record: {e}"))?;
    replay_record(&record, end)
}

/// Replay a parsed record.
fn replay_record(record: &Record, end: bool) -> Result<ScoreReport, String> {
    let state = engine::replay(record, end).map_err(|e| e.to_string())?;
    let finished = state.bag().is_empty() && state.is_over();
    Ok(ScoreReport::new(&state, record.turns.len(), finished))
}

/// Replay a file: one JSON record (possibly spread over many lines), or
/// JSON Lines (one record per non-empty line). Returns one report per
/// record, or the first failure with the line it is on.
pub fn replay_file(path: &Path, end: bool) -> Result<Vec<ScoreReport>, ReplayFailure> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ReplayFailure {
        place: name.clone(),
        reason: format!("cannot read: {e}"),
    })?;
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    // The whole file as one record: a pretty-printed record spans lines.
    if let Ok(record) = serde_json::from_str::<Record>(&text) {
        return replay_record(&record, end)
            .map(|r| vec![r])
            .map_err(|reason| ReplayFailure {
                place: name,
                reason,
            });
    }
    if lines.len() <= 1 {
        return replay_json(&text, end)
            .map(|r| vec![r])
            .map_err(|reason| ReplayFailure {
                place: name,
                reason,
            });
    }
    lines
        .into_iter()
        .map(|(i, line)| {
            replay_json(line, end).map_err(|reason| ReplayFailure {
                place: format!("{name}:{}", i + 1),
                reason,
            })
        })
        .collect()
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
        let err = replay_file(&path, false).unwrap_err().to_string();
        assert!(
            err.ends_with("turn 1: cell (5, 5) has no neighbouring tile along an edge"),
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
        let err = replay_file(&path, false).unwrap_err().to_string();
        assert!(
            err.contains("lines.jsonl:3: turn 2: player 0 played"),
            "{err}"
        );
        let path = write("ok.jsonl", &format!("{good}\n{good}\n"));
        assert_eq!(replay_file(&path, true).unwrap().len(), 2);
    }
}
