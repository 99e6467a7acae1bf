//! A ladder folder: `ratings.csv`, `headtohead.csv`, `ladder.json` (what
//! it was fitted on, so `--update` can refit it with more folders) and,
//! from the caller, `ratings.html`. Every file is written whole through
//! a temporary file and a rename while the folder is locked;
//! `ladder.json` is written last, so a folder that has one is complete.
//! Columns are documented in `results/README.md`.

use super::fit::{Anchor, Ladder};
use crate::results::output::csv_bytes;
use crate::run::lock::FolderLock;
use files::atomic::write_atomic;
use files::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The ratings, one row per agent.
pub const RATINGS_CSV: &str = "ratings.csv";
/// The results of every ordered pair of agents that met.
pub const HEADTOHEAD_CSV: &str = "headtohead.csv";
/// What the ladder was fitted on.
pub const LADDER_JSON: &str = "ladder.json";
/// The HTML page of the ladder.
pub const RATINGS_HTML: &str = "ratings.html";
/// The format tag of `ladder.json`.
pub const LADDER_FORMAT: &str = "carcassonne-ladder/1";

/// `ladder.json`: everything a refit needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderInfo {
    /// Always [`LADDER_FORMAT`].
    pub format: String,
    /// The results folders, canonical paths, in the order given.
    pub folders: Vec<PathBuf>,
    /// The anchor (the default one written out).
    pub anchor: Anchor,
    /// Bootstrap resamples.
    pub bootstrap: usize,
    /// The bootstrap's seed.
    pub seed: u64,
    /// Folders of different code revisions may be pooled.
    pub allow_revisions: bool,
    /// Agents rated.
    pub agents: usize,
    /// Deck groups in the pool.
    pub decks: usize,
    /// UTC time of the fit (RFC 3339).
    pub fitted_at: String,
}

/// One row of `ratings.csv`.
#[derive(Serialize)]
struct RatingRow<'a> {
    agent: &'a str,
    rating: Option<f64>,
    low: Option<f64>,
    high: Option<f64>,
    games: u64,
    score: f64,
    opponents: usize,
}

/// One row of `headtohead.csv`.
#[derive(Serialize)]
struct HeadToHeadRow<'a> {
    agent: &'a str,
    opponent: &'a str,
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    score: f64,
}

/// Round to `digits` decimals, without "-0".
fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f + 0.0
}

/// `ratings.csv` (best first, agents without a rating last).
pub fn ratings_csv(ladder: &Ladder) -> Result<Vec<u8>> {
    let r1 = |x: Option<f64>| x.map(|x| round(x, 1));
    let rows: Vec<RatingRow> = ladder
        .ranked()
        .into_iter()
        .map(|r| RatingRow {
            agent: &r.agent,
            rating: r1(r.rating),
            low: r1(r.low),
            high: r1(r.high),
            games: r.games,
            score: round(r.score, 4),
            opponents: r.opponents,
        })
        .collect();
    csv_bytes(&rows)
}

/// `headtohead.csv`.
pub fn headtohead_csv(ladder: &Ladder) -> Result<Vec<u8>> {
    let rows: Vec<HeadToHeadRow> = ladder
        .head_to_head
        .iter()
        .map(|h| HeadToHeadRow {
            agent: &h.agent,
            opponent: &h.opponent,
            games: h.games,
            wins: h.wins,
            draws: h.draws,
            losses: h.losses,
            score: round(h.score, 4),
        })
        .collect();
    csv_bytes(&rows)
}

/// Read `dir/ladder.json`.
///
/// # Errors
/// It is missing or is not a ladder's (one line naming the folder).
pub fn read_ladder_info(dir: &Path) -> Result<LadderInfo> {
    let path = dir.join(LADDER_JSON);
    let text = std::fs::read_to_string(&path).map_err(|_| {
        Error::Folder(format!(
            "{} is not a ladder folder (no readable {LADDER_JSON})",
            dir.display()
        ))
    })?;
    let info: LadderInfo = serde_json::from_str(&text).map_err(|e| {
        Error::Folder(format!(
            "{} is not a ladder folder (bad {LADDER_JSON}: {e})",
            dir.display()
        ))
    })?;
    if info.format != LADDER_FORMAT {
        return Err(Error::Folder(format!(
            "{} is not a ladder folder ({LADDER_JSON} format {:?})",
            dir.display(),
            info.format
        )));
    }
    Ok(info)
}

/// Write the ladder's files into `dir`, whose lock `lock` the caller
/// holds: ratings.csv, headtohead.csv, `html` as ratings.html (if
/// given), then ladder.json.
///
/// # Errors
/// A file cannot be written (each is whole or absent; ladder.json is
/// only written when the others are).
pub fn write_ladder(
    lock: &FolderLock,
    info: &LadderInfo,
    ladder: &Ladder,
    html: Option<&str>,
) -> Result<()> {
    let dir = lock.dir();
    write_atomic(&dir.join(RATINGS_CSV), &ratings_csv(ladder)?)?;
    write_atomic(&dir.join(HEADTOHEAD_CSV), &headtohead_csv(ladder)?)?;
    if let Some(html) = html {
        write_atomic(&dir.join(RATINGS_HTML), html.as_bytes())?;
    }
    let mut json =
        serde_json::to_string_pretty(info).map_err(|e| Error::Internal(e.to_string()))?;
    json.push('\n');
    write_atomic(&dir.join(LADDER_JSON), json.as_bytes())
}
