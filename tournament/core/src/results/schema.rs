//! The data a results folder holds, as types: the rows of `games.csv`,
//! `summary.csv` and `pairwise.csv`, and `run.json` (settings, plan,
//! status, SPRT outcome). Every column is documented in
//! `results/README.md`.
//!
//! Only types live here: [`crate::results::output`] writes and reads them,
//! [`crate::results::summary`] computes the summary rows, [`crate::run::config`] checks
//! the settings.

use crate::stats::{Pentanomial, SprtDecision, SprtModel};
use engine::Rules;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The SPRT hypotheses: H0 elo ≤ `elo0` against H1 elo ≥ `elo1`, first
/// agent against the second.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtSettings {
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// Everything that determines a tournament's results (written to run.json).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Used in the default folder name.
    pub name: String,
    /// Agent specs, in order.
    pub agents: Vec<String>,
    /// Seats per game.
    pub players: usize,
    /// Games per pairing as requested (see the plan for the rounded value).
    pub games_per_pairing: u64,
    /// Master seed.
    pub seed: u64,
    /// Rules options.
    pub rules: Rules,
    /// Write records.jsonl.
    pub records: bool,
    /// The shard this run plays.
    pub shard: Option<Shard>,
    /// Stop when the SPRT decides.
    pub sprt: Option<SprtSettings>,
    /// A tournament or a self-play run (run.json's `"selfplay": true`,
    /// absent for a tournament).
    #[serde(
        rename = "selfplay",
        default,
        skip_serializing_if = "RunKind::is_tournament",
        with = "run_kind_as_bool"
    )]
    pub kind: RunKind,
    /// `--secret-decks`: the deck seeds come from a key drawn from the
    /// operating system, not from `seed` (run.json's `deck_key` once the
    /// run ends).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub secret_decks: bool,
}

/// What a run plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RunKind {
    /// Agents against each other (`carcassonne tournament`): at least two
    /// agents, every pairing, each deck under every seat rotation.
    #[default]
    Tournament,
    /// One agent in every seat (`carcassonne selfplay`): a new deck for
    /// every game, positions.csv and training examples written.
    Selfplay,
}

impl RunKind {
    /// Whether this is a tournament.
    pub fn is_tournament(&self) -> bool {
        *self == RunKind::Tournament
    }

    /// Whether this is a self-play run.
    pub fn is_selfplay(&self) -> bool {
        *self == RunKind::Selfplay
    }

    /// The subcommand that makes such a run.
    pub fn command(self) -> &'static str {
        match self {
            RunKind::Tournament => "tournament",
            RunKind::Selfplay => "selfplay",
        }
    }

    /// The command line's option naming its agents.
    pub fn agents_option(self) -> &'static str {
        match self {
            RunKind::Tournament => "--agents",
            RunKind::Selfplay => "--agent",
        }
    }
}

/// run.json keeps the kind as the boolean `selfplay` it always had.
mod run_kind_as_bool {
    use super::RunKind;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(kind: &RunKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(kind.is_selfplay())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<RunKind, D::Error> {
        Ok(match bool::deserialize(d)? {
            true => RunKind::Selfplay,
            false => RunKind::Tournament,
        })
    }
}

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
/// The deck key of a running `--secret-decks` run (owner-only file).
pub const DECK_KEY_FILE: &str = ".deck-key";
/// Self-play decisions with features and targets, one per line.
pub const POSITIONS_CSV: &str = "positions.csv";

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
    /// Decisions this seat made that were played (its actions in the
    /// record); empty in folders written before the column existed.
    #[serde(default)]
    pub decisions: Option<u32>,
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
    /// Seats it forfeited (games.csv's `forfeit`; reasons in the report).
    #[serde(default)]
    pub forfeits: u64,
    /// Mean milliseconds per decision: its `think_ms` over its
    /// `decisions` (not reproducible); empty without decisions.
    #[serde(default)]
    pub ms_per_decision: Option<f64>,
}

/// The header of `pairwise.csv`: the fields of [`PairwiseRow`], in order
/// (written even when no two agents met, e.g. a self-play run's one agent,
/// so the file is always a table a CSV reader takes).
pub const PAIRWISE_COLUMNS: [&str; 13] = [
    "agent",
    "opponent",
    "games",
    "wins",
    "draws",
    "losses",
    "win_rate",
    "win_rate_ci_low",
    "win_rate_ci_high",
    "paired_ci_low",
    "paired_ci_high",
    "mean_score_diff",
    "mean_score_diff_se",
];

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
    /// The win rate measured over decks: 95% interval, lower end (see
    /// `results/README.md`; for 2 players the pentanomial interval).
    pub paired_ci_low: f64,
    /// Upper end of that interval.
    pub paired_ci_high: f64,
    /// Mean of agent's score − opponent's score.
    pub mean_score_diff: f64,
    /// Its standard error.
    pub mean_score_diff_se: f64,
}

/// One point of the SPRT's log-likelihood ratio over a run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LlrPoint {
    /// Games played when it was computed.
    pub games: u64,
    /// The log-likelihood ratio then.
    pub llr: f64,
}

/// The SPRT outcome written to `run.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtResult {
    /// `"H0"`, `"H1"` or `"none"` (ran out of games first).
    pub decision: SprtDecision,
    /// The observations counted: `"pentanomial"` (game pairs, the two
    /// games of one deck) or `"trinomial"` (single games).
    #[serde(default = "default_model")]
    pub model: SprtModel,
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
    /// Game pairs by the first agent's half-points in them (0 to 4).
    #[serde(default)]
    pub pentanomial: Pentanomial,
    /// The LLR after every `trace_every` pairs (games for the trinomial
    /// model), and at the end.
    #[serde(default)]
    pub trace: Vec<LlrPoint>,
    /// Observations between points of `trace`.
    #[serde(default)]
    pub trace_every: u64,
}

fn default_model() -> SprtModel {
    SprtModel::Trinomial
}

/// Where a run stands (`run.json`'s `status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunStatus {
    /// Playing, or killed while playing (a crash or `kill -9`).
    Running,
    /// Stopped by Ctrl-C (SIGINT) or SIGTERM after writing every complete
    /// game; `--resume` continues it.
    Interrupted,
    /// Every planned game played.
    Finished,
    /// Stopped early because the SPRT decided.
    Sprt,
}

impl fmt::Display for RunStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RunStatus::Running => "running",
            RunStatus::Interrupted => "interrupted",
            RunStatus::Finished => "finished",
            RunStatus::Sprt => "sprt",
        })
    }
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
    /// See [`RunStatus`].
    pub status: RunStatus,
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
    /// The deck key of a `--secret-decks` run (64 hex digits), written
    /// when the run ends; until then it is kept in the folder's private
    /// [`DECK_KEY_FILE`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck_key: Option<String>,
    /// Shard folders this folder was merged from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<String>,
}

/// The columns of `games.csv`, in order (the fields of [`GameRow`]).
pub const GAME_COLUMNS: [&str; 17] = [
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
    "decisions",
    "forfeit",
];

/// positions.csv: the columns before the features.
pub const ID_COLUMNS: &[&str] = &["game", "deck_seed", "step", "turn", "seat", "players"];
/// positions.csv: the columns after the features.
pub const TAIL_COLUMNS: &[&str] = &[
    "action",
    "action_id",
    "root_visits",
    "final_lead",
    "result",
    "rank",
];

/// The header of positions.csv (a self-play run's positions,
/// `crate::learning::positions`).
pub fn positions_columns() -> Vec<&'static str> {
    ID_COLUMNS
        .iter()
        .chain(agents::learn::FEATURES)
        .chain(TAIL_COLUMNS)
        .copied()
        .collect()
}

/// positions.csv: the index of the first feature column.
pub const FIRST_FEATURE: usize = 6;

/// Play shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// K, from 1 to `count`.
    pub index: u64,
    /// N, at least 1.
    pub count: u64,
}

/// A shard that is not `K/N` with 1 ≤ K ≤ N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardError;

impl std::fmt::Display for ShardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("expected K/N with 1 <= K <= N, e.g. 1/4")
    }
}

impl std::error::Error for ShardError {}

impl std::str::FromStr for Shard {
    type Err = ShardError;

    /// Parse `K/N` with 1 ≤ K ≤ N.
    fn from_str(text: &str) -> std::result::Result<Shard, ShardError> {
        let (k, n) = text.split_once('/').ok_or(ShardError)?;
        let index: u64 = k.trim().parse().map_err(|_| ShardError)?;
        let count: u64 = n.trim().parse().map_err(|_| ShardError)?;
        if index == 0 || count == 0 || index > count {
            return Err(ShardError);
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// Whether game `game` belongs to this shard.
    pub fn contains(&self, game: u64) -> bool {
        game % self.count == self.index - 1
    }
}
