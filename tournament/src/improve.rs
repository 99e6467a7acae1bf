//! What the command line adds to the improvement loops of the run core
//! ([`tournament::improve`]): a progress bar and a report for each
//! tournament a step plays ([`crate::run_report`]), the trainings' sizes
//! on stderr, an `improve --net` run's page (`report.html`, the Elo
//! against generation 0 by generation, redrawn after each generation and
//! by `carcassonne report DIR`), and the tables printed at the end.

use files::error::{Error, Result};
use std::path::{Path, PathBuf};
use tournament::improve::linear::GenerationRow;
use tournament::improve::net::{read_generations, NetGenerationRow, REPORT_HTML, SETTINGS_FILE};
use tournament::improve::Hooks;
use tournament::results::output::{csv_bytes, write_atomic};
use tournament::run::config::TournamentConfig;
use tournament::run::lock::FolderLock;
use tournament::run::tournament::RunReport;

/// The command line's hooks.
pub struct Cli;

impl Hooks for Cli {
    fn run(&self, config: &TournamentConfig) -> Result<RunReport> {
        crate::run_report::run(config)
    }

    fn warn(&self, text: &str) {
        files::stdio::warn(text);
    }

    fn generations_written(&self, dir: &Path, rows: &[NetGenerationRow]) -> Result<()> {
        write_atomic(&dir.join(REPORT_HTML), report_page(dir, rows)?.as_bytes())
    }
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
    let rows = read_generations(dir)?;
    let out = out.unwrap_or_else(|| dir.join(REPORT_HTML));
    tournament::results::output::check_replaceable(&out)?;
    write_atomic(&out, report_page(dir, &rows)?.as_bytes())?;
    Ok(out)
}

/// The report of a run: Elo against generation 0 by generation, and
/// `generations.csv` as a table.
///
/// # Errors
/// The chart cannot be drawn.
pub fn report_page(dir: &Path, rows: &[NetGenerationRow]) -> Result<String> {
    use pictures::render::xml_escape;
    use pictures::report::charts::{generations, ratings_by_cpu, GenerationPoint, RatingPoint};
    // A run without promotion matches (--no-gate) chains no Elo.
    let points: Vec<GenerationPoint> = rows
        .iter()
        .filter_map(|r| {
            Some(GenerationPoint {
                generation: r.generation,
                elo: r.elo_vs_gen0?,
                low: r.elo_vs_gen0_low?,
                high: r.elo_vs_gen0_high?,
                promoted: r.promoted,
            })
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
    let chained_section = if points.len() < 2 {
        String::new()
    } else {
        format!(
            "<h2>Elo against generation 0</h2><figure>{}<figcaption>Each candidate's Elo against generation 0 with its 95% interval, \
             chained through the promotion matches (filled: promoted; the grey line is the best network). \
             Matches are against the best network of their time, so the chain adds their uncertainties \
             and overstates the climb: the rating above is the measure of progress.</figcaption></figure>",
            generations(&points)?
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
         <body><h1>improve --net: {}</h1>{rating_section}{chained_section}\
         <h2>Generations</h2>{table}<p>Columns: docs/neural.md.</p><h2>Settings</h2><pre>{}</pre></body></html>\n",
        xml_escape(&dir.display().to_string()),
        xml_escape(&settings),
    ))
}

/// `generations.csv` of an `improve --net` run as a table for the
/// terminal: the rating on the fixed anchors is the measure of progress
/// (`-` without a gauntlet); the promotion match and the Elo chained
/// through the promotions follow (`-` without a match: `--no-gate`).
pub fn net_table(rows: &[NetGenerationRow]) -> String {
    let opt = |x: Option<f64>, d: usize| x.map_or("-".to_string(), |x| format!("{x:.d$}"));
    let interval = |x: Option<f64>, low: Option<f64>, high: Option<f64>| match (x, low, high) {
        (Some(x), Some(low), Some(high)) => format!("{x:.0} [{low:.0}, {high:.0}]"),
        _ => "-".to_string(),
    };
    let mut s = format!(
        "{:>3} {:>6} {:>8} {:>7} {:>7} {:>20} {:>6} {:>6} {:>7} {:>7} {:>20} {:>8} {:>4} {:>8}\n",
        "gen",
        "games",
        "examples",
        "policy",
        "value",
        "rating [95%]",
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
            "{:>3} {:>6} {:>8} {:>7} {:>7} {:>20} {:>6} {:>6} {:>7} {:>7} {:>20} {:>8} {:>4} {:>8.1}\n",
            r.generation,
            r.games,
            r.examples,
            opt(r.heldout_policy_loss.or(r.policy_loss), 3),
            opt(r.heldout_value_loss.or(r.value_loss), 3),
            interval(r.rating, r.rating_low, r.rating_high),
            r.match_games,
            opt(r.score, 3),
            if r.sprt.is_empty() { "-" } else { &r.sprt },
            opt(r.llr, 2),
            interval(r.elo_vs_gen0, r.elo_vs_gen0_low, r.elo_vs_gen0_high),
            r.promoted,
            r.best,
            r.cpu_s
        ));
    }
    s
}

/// `generations.csv` of a linear `improve` run as a table for the
/// terminal.
pub fn linear_table(rows: &[GenerationRow]) -> String {
    let mut s = format!(
        "{:>3} {:>9} {:>8} {:>7} {:>6} {:>7} {:>5} {:>8} {:>24} {}\n",
        "gen",
        "positions",
        "rmse",
        "winner",
        "games",
        "score",
        "sprt",
        "elo/best",
        "elo/gen0 [95%]",
        "promoted"
    );
    for r in rows {
        s.push_str(&format!(
            "{:>3} {:>9} {:>8.3} {:>7.3} {:>6} {:>7.3} {:>5} {:>8.1} {:>7.1} [{:>6.1}, {:>6.1}] {}\n",
            r.generation,
            r.data_positions,
            r.heldout_rmse,
            r.heldout_winner_accuracy,
            r.match_games,
            r.match_score,
            r.sprt,
            r.elo_vs_best,
            r.elo_vs_gen0,
            r.elo_vs_gen0_low,
            r.elo_vs_gen0_high,
            r.promoted
        ));
    }
    s
}
