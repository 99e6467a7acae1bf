//! A results folder read back from its files: `summary.csv`,
//! `pairwise.csv` and `games.csv` by column name (so added columns do
//! not break the report) and `run.json` as plain JSON.

use files::error::{Error, Result};
use serde::Deserialize;
use std::path::Path;
use tournament::metrics::{self, DeckRow, SeatRow};
use tournament::results::schema::{GAMES_CSV, PAIRWISE_CSV, RUN_JSON, SUMMARY_CSV};

/// A CSV file as text cells: its header and rows, shown as they are.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// Column names.
    pub header: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<String>>,
}

/// The columns of `summary.csv` the charts use.
#[derive(Clone, Debug, Deserialize)]
pub struct AgentSummary {
    /// Agent label.
    pub agent: String,
    /// Bradley–Terry Elo and its interval.
    pub elo: f64,
    /// Lower end.
    pub elo_ci_low: f64,
    /// Upper end.
    pub elo_ci_high: f64,
}

/// The columns of `pairwise.csv` the heat map uses.
#[derive(Clone, Debug, Deserialize)]
pub struct Pairing {
    /// Agent label.
    pub agent: String,
    /// Opponent label.
    pub opponent: String,
    /// Comparisons between them.
    pub games: u64,
    /// Agent's win rate against the opponent, and its interval.
    pub win_rate: f64,
    /// Lower end.
    pub win_rate_ci_low: f64,
    /// Upper end.
    pub win_rate_ci_high: f64,
}

/// The columns of `games.csv` the charts use: one seat of one game.
#[derive(Clone, Debug, Deserialize)]
pub struct SeatResult {
    /// Game index.
    pub game: u64,
    /// Seat, 0 first.
    pub seat: usize,
    /// Agent label.
    pub agent: String,
    /// Total points.
    pub score: f64,
    /// Points by category.
    pub road: f64,
    /// Cities.
    pub city: f64,
    /// Monasteries.
    pub monastery: f64,
    /// Farms.
    pub farm: f64,
    /// Unopened gifts.
    pub gifts: f64,
    /// win, draw or loss.
    pub result: String,
    /// Why the seat forfeited; empty if it did not.
    #[serde(default)]
    pub forfeit: String,
}

/// Everything the report shows.
#[derive(Clone, Debug)]
pub struct Results {
    /// summary.csv as text.
    pub summary_table: Table,
    /// pairwise.csv as text.
    pub pairwise_table: Table,
    /// summary.csv rows.
    pub agents: Vec<AgentSummary>,
    /// pairwise.csv rows.
    pub pairings: Vec<Pairing>,
    /// games.csv rows.
    pub seats: Vec<SeatResult>,
    /// run.json.
    pub run: serde_json::Value,
    /// What its games say about the game (`carcassonne analyze` of this
    /// folder): each seat's share of the wins, and the deck's share of the
    /// variance of the points and of the margins. `None` when the folder's
    /// run.json is of a form the run core no longer reads (an old
    /// folder): the report then leaves the section out.
    pub game: Option<(Vec<SeatRow>, Vec<DeckRow>)>,
}

fn open(dir: &Path, name: &str) -> Result<csv::Reader<std::fs::File>> {
    let path = dir.join(name);
    let file = std::fs::File::open(&path).map_err(|e| Error::io("read", &path, e))?;
    Ok(csv::Reader::from_reader(file))
}

/// A CSV error of `path`, with its line when it has one.
fn bad_csv(path: &Path, e: &csv::Error) -> Error {
    let line = e.position().map(|p| p.line() as usize);
    let what = match e.kind() {
        // The position is in the error's text already: say only what.
        csv::ErrorKind::Deserialize { err, .. } => err.to_string(),
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("{len} fields, but the header has {expected_len}"),
        _ => e.to_string(),
    };
    Error::content(path, line, what)
}

fn table(dir: &Path, name: &str) -> Result<Table> {
    let path = dir.join(name);
    let mut reader = open(dir, name)?;
    let bad = |e: csv::Error| bad_csv(&path, &e);
    let header = reader
        .headers()
        .map_err(bad)?
        .iter()
        .map(String::from)
        .collect();
    let rows = reader
        .records()
        .map(|r| r.map(|r| r.iter().map(String::from).collect()))
        .collect::<std::result::Result<_, _>>()
        .map_err(bad)?;
    Ok(Table { header, rows })
}

/// Each row's numbers by column name, to check that they are finite.
trait Numbers {
    fn numbers(&self) -> Vec<(&'static str, f64)>;
}

impl Numbers for AgentSummary {
    fn numbers(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("elo", self.elo),
            ("elo_ci_low", self.elo_ci_low),
            ("elo_ci_high", self.elo_ci_high),
        ]
    }
}

impl Numbers for Pairing {
    fn numbers(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("win_rate", self.win_rate),
            ("win_rate_ci_low", self.win_rate_ci_low),
            ("win_rate_ci_high", self.win_rate_ci_high),
        ]
    }
}

impl Numbers for SeatResult {
    fn numbers(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("score", self.score),
            ("road", self.road),
            ("city", self.city),
            ("monastery", self.monastery),
            ("farm", self.farm),
            ("gifts", self.gifts),
        ]
    }
}

/// The largest magnitude of a number the report charts: far above any
/// score or rating, far below where sums and ranges overflow.
pub const MAX_NUMBER: f64 = 1e15;

/// The rows of `name` in `dir`, every number finite and at most
/// [`MAX_NUMBER`] in magnitude (an `inf` or `NaN`, or a sum that
/// overflows to one, would make a chart's axis endless).
fn finite_rows<T: serde::de::DeserializeOwned + Numbers>(dir: &Path, name: &str) -> Result<Vec<T>> {
    let path = dir.join(name);
    let mut reader = open(dir, name)?;
    let mut out = Vec::new();
    for row in reader.deserialize::<T>() {
        let row = row.map_err(|e| bad_csv(&path, &e))?;
        let bad = |v: &f64| !(v.is_finite() && v.abs() <= MAX_NUMBER);
        if let Some((column, v)) = row.numbers().into_iter().find(|(_, v)| bad(v)) {
            // Line of the row: the header is line 1.
            return Err(Error::content(
                &path,
                Some(out.len() + 2),
                format!("{column} is {v:e}, not a finite number of at most {MAX_NUMBER:e}"),
            ));
        }
        out.push(row);
    }
    Ok(out)
}

/// The seats and decks of `carcassonne analyze` for the one folder `dir`
/// (its bootstrap seeded with 1, as the command's default).
fn game_metrics(dir: &Path) -> Result<(Vec<SeatRow>, Vec<DeckRow>)> {
    let groups = metrics::load(&[dir.to_path_buf()])?;
    let seats = groups.iter().flat_map(metrics::seats).collect();
    let decks = groups.iter().flat_map(|g| metrics::decks(g, 1)).collect();
    Ok((seats, decks))
}

impl Results {
    /// Read the results folder `dir`.
    ///
    /// # Errors
    /// A file that cannot be read, or whose content is not what the
    /// report needs (named with its line when the fault is on one).
    pub fn read(dir: &Path) -> Result<Results> {
        let run_path = dir.join(RUN_JSON);
        let run_text =
            std::fs::read_to_string(&run_path).map_err(|e| Error::io("read", &run_path, e))?;
        let run = serde_json::from_str(&run_text)
            .map_err(|e| Error::content(&run_path, Some(e.line()), format!("bad JSON: {e}")))?;
        Ok(Results {
            summary_table: table(dir, SUMMARY_CSV)?,
            pairwise_table: table(dir, PAIRWISE_CSV)?,
            agents: finite_rows(dir, SUMMARY_CSV)?,
            pairings: finite_rows(dir, PAIRWISE_CSV)?,
            seats: finite_rows(dir, GAMES_CSV)?,
            run,
            game: game_metrics(dir).ok(),
        })
    }

    /// Seats per game.
    pub fn players(&self) -> usize {
        self.seats.iter().map(|s| s.seat + 1).max().unwrap_or(0)
    }
}
