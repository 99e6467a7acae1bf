//! What an `improve --net` run writes of its generations:
//! `generations.csv` (a front end draws the run's page from it,
//! [`crate::improve::Hooks::generations_written`]).

use super::{GENERATIONS_CSV, SETTINGS_FILE};
use crate::improve::Hooks;
use crate::results::output::{csv_bytes, write_atomic};
use files::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One row of `generations.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetGenerationRow {
    /// 0 for the initial network.
    pub generation: u64,
    /// Self-play games of this generation (0 for generation 0).
    pub games: u64,
    /// Examples (searched positions) those games gave (generation 0: the
    /// bootstrap data's).
    pub examples: u64,
    /// Examples of the window the network was trained on.
    pub train_examples: u64,
    /// Policy cross-entropy on the training positions after the last
    /// epoch (empty without training).
    pub policy_loss: Option<f64>,
    /// Value loss on them.
    pub value_loss: Option<f64>,
    /// Policy cross-entropy on the held-out games.
    pub heldout_policy_loss: Option<f64>,
    /// Value loss on them.
    pub heldout_value_loss: Option<f64>,
    /// Top-1 agreement with the search on them.
    pub heldout_top1: Option<f64>,
    /// Games of the promotion match (0 without one: generation 0, and
    /// every generation of a run with `--no-gate`).
    pub match_games: u64,
    /// The candidate's score in it (wins + draws / 2, per game).
    pub score: Option<f64>,
    /// `H0`, `H1` or `none`; `ungated` in a run without promotion
    /// matches (`--no-gate`: every candidate is promoted); empty for
    /// generation 0.
    pub sprt: String,
    /// The SPRT's log-likelihood ratio at the end.
    pub llr: Option<f64>,
    /// Elo of the candidate against the best network.
    pub elo: Option<f64>,
    /// Its 95% interval, low end.
    pub elo_low: Option<f64>,
    /// High end.
    pub elo_high: Option<f64>,
    /// Elo of the candidate against generation 0, chained through the
    /// promotion matches (standard errors added in quadrature); empty in
    /// a run without promotion matches (`--no-gate`).
    pub elo_vs_gen0: Option<f64>,
    /// Its 95% interval, low end.
    pub elo_vs_gen0_low: Option<f64>,
    /// High end.
    pub elo_vs_gen0_high: Option<f64>,
    /// The network's rating on the joint ladder of every gauntlet and
    /// promotion game so far (Elo, the first anchor at 0; refitted after
    /// every generation, so earlier rows move a little as data come in;
    /// empty without a gauntlet or when not connected to the anchor).
    pub rating: Option<f64>,
    /// Its 95% interval (bootstrap over deck groups), low end.
    pub rating_low: Option<f64>,
    /// High end.
    pub rating_high: Option<f64>,
    /// The candidate became the best network.
    pub promoted: bool,
    /// The best network's generation after this one.
    pub best: u64,
    /// CPU seconds of this process spent on the generation's steps
    /// (all threads; a step's part lost to a kill is not counted).
    pub cpu_s: f64,
    /// Wall-clock seconds of the same.
    pub wall_s: f64,
}

/// Write `generations.csv`, then tell `hooks` (the command line writes
/// the run's report).
pub(super) fn write_generations(
    dir: &Path,
    rows: &[NetGenerationRow],
    hooks: &dyn Hooks,
) -> Result<()> {
    write_atomic(&dir.join(GENERATIONS_CSV), &csv_bytes(rows)?)?;
    hooks.generations_written(dir, rows)
}

/// Whether `dir` holds an `improve --net` run.
pub fn is_run(dir: &Path) -> bool {
    dir.join(SETTINGS_FILE).is_file()
}

/// The rows of the run's `generations.csv`.
///
/// # Errors
/// The file cannot be read or parsed.
pub fn read_generations(dir: &Path) -> Result<Vec<NetGenerationRow>> {
    let file = dir.join(GENERATIONS_CSV);
    let mut reader = csv::Reader::from_path(&file)
        .map_err(|e| Error::Folder(format!("{}: {e}", file.display())))?;
    reader
        .deserialize()
        .collect::<std::result::Result<Vec<NetGenerationRow>, _>>()
        .map_err(|e| Error::Folder(format!("{}: {e}", file.display())))
}

/// The report's file name in a run folder.
pub const REPORT_HTML: &str = "report.html";
