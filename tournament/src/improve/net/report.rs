//! What an `improve --net` run shows: `generations.csv`, its page
//! (`report.html`, the Elo against generation 0 by generation) and the
//! terminal table.

use super::{GENERATIONS_CSV, SETTINGS_FILE};
use files::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use tournament::results::output::{csv_bytes, write_atomic};
use tournament::run::lock::FolderLock;

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
    /// Games of the promotion match.
    pub match_games: u64,
    /// The candidate's score in it (wins + draws / 2, per game).
    pub score: Option<f64>,
    /// `H0`, `H1` or `none` (empty for generation 0).
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
    /// promotion matches (standard errors added in quadrature).
    pub elo_vs_gen0: f64,
    /// Its 95% interval, low end.
    pub elo_vs_gen0_low: f64,
    /// High end.
    pub elo_vs_gen0_high: f64,
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

/// Write `generations.csv` and the run's report.
pub(super) fn write_generations(dir: &Path, rows: &[NetGenerationRow]) -> Result<()> {
    write_atomic(&dir.join(GENERATIONS_CSV), &csv_bytes(rows)?)?;
    write_atomic(&dir.join(REPORT_HTML), report_page(dir, rows)?.as_bytes())
}

/// Whether `dir` holds an `improve --net` run.
pub fn is_run(dir: &Path) -> bool {
    dir.join(SETTINGS_FILE).is_file()
}

/// `carcassonne report DIR` of an `improve --net` run: its page, from
/// `generations.csv`, to `out` (default `DIR/report.html`; written into
/// the folder under its lock).
///
/// # Errors
/// generations.csv cannot be read, the folder is in use, or the page
/// cannot be written.
pub fn report(dir: &Path, out: Option<PathBuf>) -> Result<PathBuf> {
    let _lock = match &out {
        None => Some(FolderLock::acquire(dir)?),
        Some(_) => None,
    };
    let file = dir.join(GENERATIONS_CSV);
    let mut reader = csv::Reader::from_path(&file)
        .map_err(|e| Error::Folder(format!("{}: {e}", file.display())))?;
    let rows = reader
        .deserialize()
        .collect::<std::result::Result<Vec<NetGenerationRow>, _>>()
        .map_err(|e| Error::Folder(format!("{}: {e}", file.display())))?;
    let out = out.unwrap_or_else(|| dir.join(REPORT_HTML));
    tournament::results::output::check_replaceable(&out)?;
    write_atomic(&out, report_page(dir, &rows)?.as_bytes())?;
    Ok(out)
}

/// The report's file name in a run folder.
pub const REPORT_HTML: &str = "report.html";

/// The report of a run: Elo against generation 0 by generation, and
/// `generations.csv` as a table.
///
/// # Errors
/// The chart cannot be drawn.
pub fn report_page(dir: &Path, rows: &[NetGenerationRow]) -> Result<String> {
    use pictures::render::xml_escape;
    use pictures::report::charts::{generations, ratings_by_cpu, GenerationPoint, RatingPoint};
    let points: Vec<GenerationPoint> = rows
        .iter()
        .map(|r| GenerationPoint {
            generation: r.generation,
            elo: r.elo_vs_gen0,
            low: r.elo_vs_gen0_low,
            high: r.elo_vs_gen0_high,
            promoted: r.promoted,
        })
        .collect();
    let mut cpu_hours = 0.0;
    let rated: Vec<RatingPoint> = rows
        .iter()
        .filter_map(|r| {
            cpu_hours += r.cpu_s / 3600.0;
            Some(RatingPoint {
                cpu_hours,
                rating: r.rating?,
                low: r.rating_low.or(r.rating)?,
                high: r.rating_high.or(r.rating)?,
                promoted: r.promoted,
            })
        })
        .collect();
    let rating_section = if rated.is_empty() {
        String::new()
    } else {
        format!(
            "<h2>Rating against the fixed anchors</h2><figure>{}<figcaption>Each generation's network on one \
             Bradley–Terry ladder fitted over every gauntlet and promotion game (the first anchor at 0; \
             95% intervals from a bootstrap over deck groups), against the CPU-hours spent to reach it \
             (filled: promoted). Direct scores against each anchor: gauntlet.csv.</figcaption></figure>",
            ratings_by_cpu(&rated)?
        )
    };
    let csv = String::from_utf8(csv_bytes(rows)?).map_err(|e| Error::Internal(e.to_string()))?;
    let mut table = String::from("<table>");
    for (i, line) in csv.lines().enumerate() {
        let tag = if i == 0 { "th" } else { "td" };
        table.push_str("<tr>");
        for cell in line.split(',') {
            table.push_str(&format!("<{tag}>{}</{tag}>", xml_escape(cell)));
        }
        table.push_str("</tr>");
    }
    table.push_str("</table>");
    let settings = std::fs::read_to_string(dir.join(SETTINGS_FILE)).unwrap_or_default();
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>improve --net</title>\
         <style>body {{ font-family: sans-serif; margin: 1.5em auto; max-width: 1000px; }} \
         table {{ border-collapse: collapse; font-size: 0.8em; }} th, td {{ padding: 0.2em 0.4em; border-bottom: 1px solid #ddd; }} \
         svg {{ max-width: 100%; height: auto; }} pre {{ font-size: 0.8em; background: #f7f7f7; padding: 0.5em; }}</style></head>\n\
         <body><h1>improve --net: {}</h1>{rating_section}\
         <h2>Elo against generation 0</h2><figure>{}<figcaption>Each candidate's Elo against generation 0 with its 95% interval, \
         chained through the promotion matches (filled: promoted; the grey line is the best network). \
         Matches are against the best network of their time, so the chain adds their uncertainties \
         and overstates the climb: the rating above is the measure of progress.</figcaption></figure>\
         <h2>Generations</h2>{table}<p>Columns: docs/neural.md.</p><h2>Settings</h2><pre>{}</pre></body></html>\n",
        xml_escape(&dir.display().to_string()),
        generations(&points)?,
        xml_escape(&settings),
    ))
}

/// `generations.csv` as a table for the terminal.
pub fn table(rows: &[NetGenerationRow]) -> String {
    let opt = |x: Option<f64>, d: usize| x.map_or("-".to_string(), |x| format!("{x:.d$}"));
    let mut s = format!(
        "{:>3} {:>6} {:>8} {:>7} {:>7} {:>6} {:>6} {:>5} {:>7} {:>22} {:>8} {:>4} {:>8}\n",
        "gen",
        "games",
        "examples",
        "policy",
        "value",
        "match",
        "score",
        "sprt",
        "llr",
        "elo/gen0 [95%]",
        "promoted",
        "best",
        "cpu_s"
    );
    for r in rows {
        s.push_str(&format!(
            "{:>3} {:>6} {:>8} {:>7} {:>7} {:>6} {:>6} {:>5} {:>7} {:>7.1} [{:>5.1}, {:>5.1}] {:>8} {:>4} {:>8.1}\n",
            r.generation,
            r.games,
            r.examples,
            opt(r.heldout_policy_loss.or(r.policy_loss), 3),
            opt(r.heldout_value_loss.or(r.value_loss), 3),
            r.match_games,
            opt(r.score, 3),
            if r.sprt.is_empty() { "-" } else { &r.sprt },
            opt(r.llr, 2),
            r.elo_vs_gen0,
            r.elo_vs_gen0_low,
            r.elo_vs_gen0_high,
            r.promoted,
            r.best,
            r.cpu_s
        ));
    }
    s
}
