//! `positions.csv` of a self-play run: one row per decision, with the
//! deciding seat's features ([`agents::learn::features`]), the action
//! played, the search's root visits, and the targets known at the end.
//!
//! Every seat's agent is observed by a [`Recorder`] that extracts the
//! features from the very [`SeatView`] the agent is given, so a row can
//! hold nothing the seat could not see. The columns are documented in
//! `results/README.md`.

pub use crate::results::schema::{positions_columns as columns, FIRST_FEATURE};
use crate::results::schema::{GameRow, POSITIONS_CSV};
use agents::capped::Cap;
use agents::learn::{extract, FeatureVector};
use agents::{Decision as Answer, Observer};
use engine::{Action, SeatView};
use files::error::{Error, Result};
use files::lines::complete_lines;
use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// One decision as the recorder saw it.
#[derive(Clone, Debug)]
pub struct Decision {
    /// Turns played before it.
    pub turn: usize,
    /// The deciding seat.
    pub seat: usize,
    /// The seat's features.
    pub features: FeatureVector,
    /// The action in record notation.
    pub action: String,
    /// Its id ([`Action::to_index`]).
    pub action_id: Option<u32>,
    /// Visits per root action of the search, if the agent searched.
    pub visits: Option<Vec<(Action, u32)>>,
}

/// The decisions of one game, shared by its seats' recorders.
pub type Log = Arc<Mutex<Vec<Decision>>>;

/// Logs each decision of the agent it observes (wrap the agent in an
/// [`agents::Observed`] with it).
pub struct Recorder {
    log: Log,
}

impl Recorder {
    /// Log to `log`.
    pub fn new(log: Log) -> Recorder {
        Recorder { log }
    }
}

impl Observer for Recorder {
    /// Log the decision `answer` taken in `view`, with the seat's
    /// features in that view.
    fn decided(&mut self, view: &SeatView<'_>, answer: &Answer) {
        let action = answer.action;
        let decision = Decision {
            turn: view.turns(),
            seat: view.seat().index(),
            features: extract(view),
            action: view.describe(action),
            action_id: action.to_index(),
            visits: answer.root_visits().map(<[_]>::to_vec),
        };
        self.log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(decision);
    }
}

/// `id:visits` of each root action, most visited first (ties: lower id),
/// space-separated; actions without an id are left out.
fn visits_column(visits: &[(Action, u32)]) -> String {
    let mut v: Vec<(u32, u32)> = visits
        .iter()
        .filter_map(|&(a, n)| Some((a.to_index()?, n)))
        .collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v.iter()
        .map(|(id, n)| format!("{id}:{n}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The positions.csv lines (no header) of a game with `rows` (its
/// games.csv rows, in seat order) and `decisions`.
pub fn lines(rows: &[GameRow], decisions: &[Decision]) -> String {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    let best_other = |seat: usize| {
        rows.iter()
            .filter(|r| r.seat != seat)
            .map(|r| i64::from(r.score))
            .max()
            .unwrap_or(0)
    };
    for (step, d) in decisions.iter().enumerate() {
        let row = &rows[d.seat];
        let mut record: Vec<String> = vec![
            row.game.to_string(),
            row.deck_seed.to_string(),
            step.to_string(),
            d.turn.to_string(),
            d.seat.to_string(),
            rows.len().to_string(),
        ];
        record.extend(d.features.iter().map(|x| format_number(*x)));
        record.push(d.action.clone());
        record.push(d.action_id.map_or(String::new(), |i| i.to_string()));
        record.push(d.visits.as_deref().map_or(String::new(), visits_column));
        record.push((i64::from(row.score) - best_other(d.seat)).to_string());
        record.push(
            serde_json::to_value(row.result)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
        );
        record.push(row.rank.to_string());
        w.write_record(&record).expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("CSV of UTF-8 text")
}

/// A feature value as written: integers without a fraction, others with
/// at most 6 decimals (the same text on every platform).
fn format_number(x: f64) -> String {
    let rounded = (x * 1e6).round() / 1e6;
    if rounded == rounded.trunc() && rounded.abs() < 1e15 {
        format!("{}", rounded as i64)
    } else {
        format!("{rounded}")
    }
}

/// The text of the positions.csv `path`: a regular file within
/// [`Cap::POSITIONS`], lines within [`agents::capped::LINE_CAP`].
fn read_capped(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let (file, _) = agents::capped::open(path, Cap::POSITIONS)?;
    let mut text = String::new();
    agents::capped::LineCapped::new(file).read_to_string(&mut text)?;
    Ok(text)
}

/// The game index of a positions.csv line (its first field).
pub fn game_of(line: &str) -> Option<u64> {
    line.split(',').next()?.parse().ok()
}

/// The complete positions.csv lines of `dir` that belong to the games of
/// `rows` (the games kept on resume or merge), header excluded.
///
/// # Errors
/// The file is missing or unreadable, or its header is not this build's
/// (it was written with other feature columns).
pub fn load(dir: &Path, rows: &[GameRow]) -> Result<Vec<String>> {
    let path = dir.join(POSITIONS_CSV);
    let text = read_capped(&path).map_err(|e| Error::io("read", &path, e))?;
    let lines = complete_lines(&text);
    let header = columns().join(",");
    if lines.first() != Some(&header) {
        return Err(Error::Folder(format!(
            "{}: not the positions.csv header of this build (other feature columns?)",
            path.display()
        )));
    }
    let kept: HashSet<u64> = rows.iter().map(|r| r.game).collect();
    Ok(lines
        .into_iter()
        .skip(1)
        .filter(|l| game_of(l).is_some_and(|g| kept.contains(&g)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::schema::{ID_COLUMNS, TAIL_COLUMNS};
    use agents::learn::FEATURES;
    use engine::Tile;

    #[test]
    fn the_header_lists_ids_features_and_targets() {
        let c = columns();
        assert_eq!(c[FIRST_FEATURE], FEATURES[0]);
        assert_eq!(
            c.len(),
            ID_COLUMNS.len() + FEATURES.len() + TAIL_COLUMNS.len()
        );
        assert_eq!(c.last(), Some(&"rank"));
    }

    #[test]
    fn visits_are_listed_most_visited_first() {
        let v = [
            (Action::Keep(Tile::A), 3),
            (Action::Keep(Tile::B), 9),
            (Action::Keep(Tile::C), 3),
        ];
        assert_eq!(visits_column(&v), "7:9 6:3 8:3");
        assert_eq!(format_number(2.0), "2");
        assert_eq!(format_number(0.1234567), "0.123457");
        assert_eq!(game_of("12,99,0"), Some(12));
    }
}
