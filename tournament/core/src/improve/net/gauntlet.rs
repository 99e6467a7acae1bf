//! The gauntlet of an `improve --net` run: every generation's network —
//! promoted or not, generation 0 included — plays each fixed anchor
//! (`--anchors`), and every later generation the run's own generation
//! `--anchor-generation` (default 1), on the same paired decks at the
//! run's fixed search budget. Its direct scores (`gauntlet.csv`) measure progress without
//! chaining one promotion match onto the next, and one joint rating fit
//! over every gauntlet and promotion game ([`joint_ladder`],
//! [`crate::ratings`]) puts every generation on one scale anchored
//! on the first anchor.

use super::gen_dir;
use super::settings::NetSettings;
use crate::improve::steps::{r4, tournament_step, Hints, StepOptions};
use crate::improve::Hooks;
use crate::results::output::{csv_bytes, write_atomic};
use crate::results::schema::PairwiseRow;
use files::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One row per generation and anchor.
pub const GAUNTLET_CSV: &str = "gauntlet.csv";

/// One row of `gauntlet.csv`: a generation's direct result against one
/// anchor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GauntletRow {
    /// The generation whose network played.
    pub generation: u64,
    /// The anchor's spec.
    pub anchor: String,
    /// Games played.
    pub games: u64,
    /// The network's score (wins + draws / 2, per game).
    pub score: f64,
    /// Its 95% interval over the game pairs (paired decks), low end.
    pub score_low: f64,
    /// High end.
    pub score_high: f64,
}

/// `DIR/gen-K/gauntlet/anchor-I`.
pub fn gauntlet_dir(dir: &Path, k: u64, i: usize) -> PathBuf {
    gen_dir(dir, k).join("gauntlet").join(format!("anchor-{i}"))
}

/// Play (or continue, or reuse) generation `k`'s gauntlet and return its
/// rows, one per anchor (the matches played by `hooks`).
///
/// # Errors
/// A match fails or is interrupted, or its results cannot be read.
pub fn play(
    settings: &NetSettings,
    dir: &Path,
    k: u64,
    steps: StepOptions,
    hints: &Hints,
    hooks: &dyn Hooks,
) -> Result<Vec<GauntletRow>> {
    let net = settings.spec_net(dir, k);
    let mut rows = Vec::new();
    for (i, anchor) in settings.gauntlet_opponents(dir, k) {
        let step = settings.gauntlet_args(&net, &anchor, i);
        let player = step.agents[0].clone();
        let folder = gauntlet_dir(dir, k, i);
        tournament_step(&folder, step, steps, hints, hooks)?;
        let row = pairwise_row(&folder, &player)?;
        rows.push(GauntletRow {
            generation: k,
            anchor,
            games: row.games,
            score: r4(row.win_rate),
            score_low: r4(row.paired_ci_low),
            score_high: r4(row.paired_ci_high),
        });
    }
    Ok(rows)
}

/// The pairwise row of `agent` against its opponent in `folder`.
fn pairwise_row(folder: &Path, agent: &str) -> Result<PairwiseRow> {
    let path = folder.join(crate::results::schema::PAIRWISE_CSV);
    let mut reader = csv::Reader::from_path(&path)
        .map_err(|e| Error::content(&path, None, format!("cannot read: {e}")))?;
    for row in reader.deserialize::<PairwiseRow>() {
        let row = row.map_err(|e| Error::content(&path, None, e))?;
        if row.agent == agent {
            return Ok(row);
        }
    }
    Err(Error::content(&path, None, format!("no row of {agent}")))
}

/// Resamples of the joint ladder's bootstrap over deck groups.
pub const BOOTSTRAP: usize = 200;

/// The joint ladder of generations `0..=k`: a Bradley–Terry fit over
/// every gauntlet and promotion game played so far, the first anchor at
/// rating 0, intervals from a bootstrap over deck groups (seeded by the
/// run's seed). `None` without a gauntlet. Folders of one run may have
/// been played by builds of different revisions (a run resumed after an
/// update): they are pooled.
///
/// # Errors
/// A folder cannot be read, or the fit fails.
pub fn joint_ladder(
    settings: &NetSettings,
    dir: &Path,
    k: u64,
) -> Result<Option<crate::ratings::Ladder>> {
    let Some(anchor) = settings.anchors.first() else {
        return Ok(None);
    };
    let mut folders = Vec::new();
    for g in 0..=k {
        let played = |f: &Path| f.join(crate::results::schema::RUN_JSON).is_file();
        let promotion = gen_dir(dir, g).join("match");
        if played(&promotion) {
            folders.push(promotion);
        }
        folders.extend(
            settings
                .gauntlet_opponents(dir, g)
                .into_iter()
                .map(|(i, _)| gauntlet_dir(dir, g, i))
                .filter(|f| played(f)),
        );
    }
    let pool = crate::ratings::load_games(&folders, true)?;
    let ladder = crate::ratings::fit(
        &pool,
        Some((anchor.as_str(), 0.0)),
        BOOTSTRAP,
        settings.seed,
    )?;
    Ok(Some(ladder))
}

/// Write `gauntlet.csv`.
pub fn write(dir: &Path, rows: &[GauntletRow]) -> Result<()> {
    write_atomic(&dir.join(GAUNTLET_CSV), &csv_bytes(rows)?)
}
