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
    let state = engine::replay(&record, end).map_err(|e| e.to_string())?;
    let finished = state.bag().is_empty() && state.is_over();
    Ok(ScoreReport::new(&state, record.turns.len(), finished))
}

/// Replay a file: one JSON record, or JSON Lines (one record per non-empty
/// line). Returns one report per record, or the first failure.
pub fn replay_file(path: &Path, end: bool) -> Result<Vec<ScoreReport>, ReplayFailure> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ReplayFailure {
        place: name.clone(),
        reason: format!("cannot read: {e}"),
    })?;
    // A whole-file JSON object first (pretty-printed records span lines).
    if let Ok(report) = replay_json(&text, end) {
        return Ok(vec![report]);
    }
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
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
