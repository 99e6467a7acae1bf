//! The files of a results folder (documented column by column in
//! `results/README.md`): `games.csv`, `summary.csv`, `pairwise.csv`,
//! `run.json` and `records.jsonl`.
//!
//! `games.csv` and `records.jsonl` are appended game by game, in game
//! order, and flushed after every game, so an interrupted run keeps every
//! finished game. The other files are written whole, through a temporary
//! file and a rename, so they are never half-written.

use crate::config::Settings;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The format tag of `run.json`.
pub const RUN_FORMAT: &str = "carcassonne-tournament/1";
/// File names inside a results folder.
pub const GAMES_CSV: &str = "games.csv";
/// Per-agent summary.
pub const SUMMARY_CSV: &str = "summary.csv";
/// Per ordered pair of agents.
pub const PAIRWISE_CSV: &str = "pairwise.csv";
/// Configuration and provenance.
pub const RUN_JSON: &str = "run.json";
/// Game records, one JSON object per line.
pub const RECORDS_JSONL: &str = "records.jsonl";

/// How a seat's game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Alone in first place.
    Win,
    /// First place shared.
    Draw,
    /// Anything else, and any forfeit.
    Loss,
}

/// One row of `games.csv`: one seat of one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// Game index over the whole tournament (0-based).
    pub game: u64,
    /// Seed of the tile draws.
    pub deck_seed: u64,
    /// Seat, 0-based; seat 0 plays first.
    pub seat: usize,
    /// Agent label.
    pub agent: String,
    /// Total points.
    pub score: u32,
    /// Points from roads.
    pub road: u16,
    /// Points from cities.
    pub city: u16,
    /// Points from monasteries.
    pub monastery: u16,
    /// Points from farms.
    pub farm: u16,
    /// Points from gifts.
    pub gifts: u16,
    /// 1 = first; ties share a rank; a forfeiting seat is last.
    pub rank: usize,
    /// win, draw or loss.
    pub result: Outcome,
    /// Turns in the game (all seats).
    pub turns: usize,
    /// Meeples this seat placed.
    pub meeples_placed: u32,
    /// Milliseconds this seat spent choosing moves (not reproducible).
    pub think_ms: f64,
    /// Why this seat forfeited; empty if it did not.
    pub forfeit: String,
}

/// One row of `summary.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// Agent label.
    pub agent: String,
    /// Seats played (games × seats taken in them).
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Draws (shared first place).
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// (wins + draws / 2) / games.
    pub win_rate: f64,
    /// Wilson 95% interval, lower end.
    pub win_rate_ci_low: f64,
    /// Wilson 95% interval, upper end.
    pub win_rate_ci_high: f64,
    /// Mean total score.
    pub mean_score: f64,
    /// Its standard error.
    pub mean_score_se: f64,
    /// Bradley–Terry Elo, mean 0 over the agents.
    pub elo: f64,
    /// 95% interval, lower end.
    pub elo_ci_low: f64,
    /// 95% interval, upper end.
    pub elo_ci_high: f64,
}

/// One row of `pairwise.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairwiseRow {
    /// Agent label.
    pub agent: String,
    /// Opponent label.
    pub opponent: String,
    /// Games in which they met (each pair of their seats counts once).
    pub games: u64,
    /// Games the agent finished ahead.
    pub wins: u64,
    /// Games they finished level.
    pub draws: u64,
    /// Games the opponent finished ahead.
    pub losses: u64,
    /// (wins + draws / 2) / games.
    pub win_rate: f64,
    /// Wilson 95% interval, lower end.
    pub win_rate_ci_low: f64,
    /// Wilson 95% interval, upper end.
    pub win_rate_ci_high: f64,
    /// Mean of agent's score − opponent's score.
    pub mean_score_diff: f64,
    /// Its standard error.
    pub mean_score_diff_se: f64,
}

/// The SPRT outcome written to `run.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtResult {
    /// `"H0"`, `"H1"` or `"none"` (ran out of games first).
    pub decision: String,
    /// Log-likelihood ratio at the end.
    pub llr: f64,
    /// Lower stopping bound.
    pub lower: f64,
    /// Upper stopping bound.
    pub upper: f64,
    /// Games played when it stopped.
    pub games: u64,
    /// First agent's wins against the second.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// First agent's losses.
    pub losses: u64,
}

/// The plan of a run, derived from its settings (for readers of run.json).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// Agent labels (spec, `#k` on repeats), indexed as in `pairings`.
    pub agents: Vec<String>,
    /// The agents of each pairing.
    pub pairings: Vec<Vec<String>>,
    /// Games per pairing after rounding up to whole seat rotations.
    pub games_per_pairing: u64,
    /// Decks (tile orders) per pairing.
    pub decks_per_pairing: u64,
    /// Games of the whole tournament.
    pub games_total: u64,
    /// Games of this run (its shard).
    pub games_planned: u64,
    /// How game indices map to pairings, decks and seats.
    pub game_order: String,
    /// How seeds are derived.
    pub seeds: String,
}

/// `run.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// Always [`RUN_FORMAT`].
    pub format: String,
    /// Everything that determines the results.
    pub settings: Settings,
    /// What the settings imply.
    pub plan: Plan,
    /// `"running"` (also left by an interrupted run), `"finished"` or
    /// `"sprt"` (stopped by the SPRT).
    pub status: String,
    /// Games written to games.csv.
    pub games_finished: u64,
    /// The git commit of the source tree, or "unknown".
    pub code_revision: String,
    /// Crate versions.
    pub versions: std::collections::BTreeMap<String, String>,
    /// The command line that started the run.
    pub command: Vec<String>,
    /// Worker threads of the last invocation.
    pub threads: usize,
    /// UTC start time (RFC 3339).
    pub start_time: String,
    /// UTC end time, once finished.
    pub end_time: Option<String>,
    /// UTC times at which the run was resumed.
    #[serde(default)]
    pub resumed_at: Vec<String>,
    /// Wall-clock seconds of the last invocation.
    pub elapsed_s: Option<f64>,
    /// SPRT outcome, with --sprt.
    pub sprt: Option<SprtResult>,
    /// Shard folders this folder was merged from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<String>,
}

/// Write `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Serialize `rows` as CSV with a header.
pub fn csv_bytes<T: Serialize>(rows: &[T]) -> Result<Vec<u8>, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in rows {
        w.serialize(row).map_err(|e| e.to_string())?;
    }
    w.into_inner().map_err(|e| e.to_string())
}

/// Write `run.json`.
pub fn write_run_info(dir: &Path, info: &RunInfo) -> Result<(), String> {
    let mut text = serde_json::to_string_pretty(info).map_err(|e| e.to_string())?;
    text.push('\n');
    write_atomic(&dir.join(RUN_JSON), text.as_bytes())
}

/// Read `run.json`; an error names the folder as not a tournament.
pub fn read_run_info(dir: &Path) -> Result<RunInfo, String> {
    let path = dir.join(RUN_JSON);
    let text = std::fs::read_to_string(&path).map_err(|_| {
        format!(
            "{} is not a tournament folder (no readable run.json)",
            dir.display()
        )
    })?;
    let info: RunInfo = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{} is not a tournament folder (bad run.json: {e})",
            dir.display()
        )
    })?;
    if info.format != RUN_FORMAT {
        return Err(format!(
            "{} is not a tournament folder (run.json format {:?})",
            dir.display(),
            info.format
        ));
    }
    Ok(info)
}

/// Write `summary.csv` and `pairwise.csv`.
pub fn write_summaries(
    dir: &Path,
    summary: &[SummaryRow],
    pairwise: &[PairwiseRow],
) -> Result<(), String> {
    write_atomic(&dir.join(SUMMARY_CSV), &csv_bytes(summary)?)?;
    write_atomic(&dir.join(PAIRWISE_CSV), &csv_bytes(pairwise)?)
}

/// Appends games to `games.csv` (and `records.jsonl`), flushing after each.
pub struct GamesWriter {
    games: csv::Writer<File>,
    records: Option<BufWriter<File>>,
    games_path: PathBuf,
}

impl GamesWriter {
    /// Create (truncate) the files of `dir` and write the header.
    pub fn create(dir: &Path, records: bool) -> Result<GamesWriter, String> {
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
    ) -> Result<GamesWriter, String> {
        let games_path = dir.join(GAMES_CSV);
        let records_path = dir.join(RECORDS_JSONL);
        let tmp_games = dir.join("games.csv.tmp");
        let tmp_records = dir.join("records.jsonl.tmp");
        {
            let mut w =
                GamesWriter::create_files(&tmp_games, record_lines.map(|_| tmp_records.as_path()))?;
            for (i, game) in crate::summary::games(rows).enumerate() {
                let line = record_lines.and_then(|r| r.get(i)).map(String::as_str);
                w.append(game, line)?;
            }
        }
        let rename = |from: &Path, to: &Path| {
            std::fs::rename(from, to).map_err(|e| format!("cannot write {}: {e}", to.display()))
        };
        // Records first: records.jsonl never holds fewer games than
        // games.csv, and a resume keeps the games both hold.
        if record_lines.is_some() {
            rename(&tmp_records, &records_path)?;
        }
        rename(&tmp_games, &games_path)?;
        let append = |path: &Path| {
            std::fs::OpenOptions::new()
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open {}: {e}", path.display()))
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
            games_path,
        })
    }

    fn create_files(games_path: &Path, records: Option<&Path>) -> Result<GamesWriter, String> {
        let file = File::create(games_path)
            .map_err(|e| format!("cannot create {}: {e}", games_path.display()))?;
        let records = match records {
            Some(path) => {
                let f = File::create(path)
                    .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
                Some(BufWriter::new(f))
            }
            None => None,
        };
        let mut games = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        games
            .write_record(GAME_COLUMNS)
            .map_err(|e| e.to_string())?;
        let mut w = GamesWriter {
            games,
            records,
            games_path: games_path.to_path_buf(),
        };
        w.flush()?;
        Ok(w)
    }

    /// Append one game: its record line first, then its rows.
    pub fn append(&mut self, rows: &[GameRow], record: Option<&str>) -> Result<(), String> {
        if let (Some(w), Some(line)) = (&mut self.records, record) {
            w.write_all(line.as_bytes())
                .and_then(|()| w.write_all(b"\n"))
                .and_then(|()| w.flush())
                .map_err(|e| format!("cannot write records.jsonl: {e}"))?;
        }
        for row in rows {
            self.games.serialize(row).map_err(|e| e.to_string())?;
        }
        self.flush()
    }

    fn flush(&mut self) -> Result<(), String> {
        self.games
            .flush()
            .map_err(|e| format!("cannot write {}: {e}", self.games_path.display()))
    }
}

/// The columns of `games.csv`, in order (the fields of [`GameRow`]).
pub const GAME_COLUMNS: [&str; 16] = [
    "game",
    "deck_seed",
    "seat",
    "agent",
    "score",
    "road",
    "city",
    "monastery",
    "farm",
    "gifts",
    "rank",
    "result",
    "turns",
    "meeples_placed",
    "think_ms",
    "forfeit",
];

/// Parse `games.csv` text that may end in a partial line (an interrupted
/// write): only complete lines are read.
pub fn parse_games(text: &str) -> Result<Vec<GameRow>, String> {
    let complete = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    let mut reader = csv::Reader::from_reader(complete.as_bytes());
    reader
        .deserialize()
        .enumerate()
        .map(|(i, row)| row.map_err(|e| format!("games.csv row {}: {e}", i + 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
            forfeit: String::new(),
        };
        let text = String::from_utf8(csv_bytes(std::slice::from_ref(&row)).unwrap()).unwrap();
        let header = text.lines().next().unwrap();
        assert_eq!(header, GAME_COLUMNS.join(","));
        // A partial last line is ignored.
        let partial = format!("{text}3,4,1,\"mcts");
        assert_eq!(parse_games(&partial).unwrap(), vec![row]);
    }
}
