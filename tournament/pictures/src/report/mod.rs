//! `carcassonne report`: one self-contained HTML page for a results
//! folder — the summary table, the pairwise win-rate heat map, Elo with
//! error bars, score distributions, points by category, win rate by seat,
//! the seat advantage and the deck's share of the variance
//! (`carcassonne analyze` of its own games, with a chart), the SPRT
//! trace when there is one, and the run's settings. Also written
//! as `report.html` at the end of every tournament.
//!
//! - [`data`]: reading the folder's CSV files and run.json.
//! - [`charts`]: the charts (plotters' SVG backend).

pub mod charts;
pub mod data;

use crate::render::xml_escape;
use data::{Results, Table};
use files::error::{Error, Result};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use tournament::metrics::{DeckRow, SeatRow};

/// The report's file name inside a results folder.
pub const REPORT_HTML: &str = "report.html";

pub(crate) const STYLE: &str = "
body { font-family: 'DejaVu Sans', Arial, sans-serif; margin: 1.5em auto; max-width: 1000px; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
th, td { padding: 0.2em 0.5em; border-bottom: 1px solid #e4e4e4; }
th { background: #f3f3f3; text-align: left; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 0.5em 0; break-inside: avoid; } figcaption { font-size: 0.85em; color: #555; }
svg { max-width: 100%; height: auto; }
pre { font-size: 0.75em; background: #f7f7f7; padding: 0.6em; overflow: auto; white-space: pre-wrap; }
@media print { body { margin: 0; max-width: none; } h2 { break-after: avoid; } table, figure { break-inside: avoid; } }
";

/// A column name as the report shows it: `win_rate_ci_low` reads
/// "Win rate, 95% low", `mean_score_se` "Mean score, s.e.".
pub(crate) fn human_header(name: &str) -> String {
    let (stem, tail) = if let Some(stem) = name.strip_suffix("_ci_low") {
        (stem, ", 95% low")
    } else if let Some(stem) = name.strip_suffix("_ci_high") {
        (stem, ", 95% high")
    } else if let Some(stem) = name.strip_suffix("_se") {
        (stem, ", s.e.")
    } else {
        (name, "")
    };
    let stem = match stem {
        "elo" => "Elo".to_string(),
        "paired" => "Win rate over decks".to_string(),
        "diff" => "Difference".to_string(),
        other => {
            let words = other.replace('_', " ").replace("diff", "difference");
            let mut chars = words.chars();
            match chars.next() {
                Some(c) => c.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        }
    };
    format!("{stem}{tail}")
}

/// A cell as the report shows it: win rates (and their intervals) as
/// percentages, as the terminal prints them; anything else as written.
pub(crate) fn display_cell(header: &str, cell: &str) -> String {
    if header.starts_with("win_rate") || header.starts_with("paired_ci") {
        if let Ok(x) = cell.parse::<f64>() {
            return format!("{:.1}%", 100.0 * x);
        }
    }
    cell.to_string()
}

pub(crate) fn html_table(table: &Table) -> String {
    let mut out = String::from("<table><tr>");
    for h in &table.header {
        let _ = write!(out, "<th>{}</th>", xml_escape(&human_header(h)));
    }
    out.push_str("</tr>");
    for row in &table.rows {
        out.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            let header = table.header.get(i).map_or("", String::as_str);
            let cell = display_cell(header, cell);
            let number = cell.trim_end_matches('%').parse::<f64>().is_ok();
            let class = if number { " class=\"num\"" } else { "" };
            let _ = write!(out, "<td{class}>{}</td>", xml_escape(&cell));
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
    out
}

pub(crate) fn figure(svg: &str, caption: &str) -> String {
    format!("<figure>{svg}<figcaption>{caption}</figcaption></figure>")
}

/// Wins, draws, losses and win rate of each agent in each seat.
fn seat_table(results: &Results, names: &[String]) -> Table {
    let players = results.players();
    let mut header = vec!["agent".to_string()];
    header.extend((0..players).map(|s| format!("seat {s}")));
    let rows = names
        .iter()
        .map(|name| {
            let mut row = vec![name.clone()];
            for seat in 0..players {
                let mut count = BTreeMap::new();
                for r in results
                    .seats
                    .iter()
                    .filter(|r| &r.agent == name && r.seat == seat)
                {
                    *count.entry(r.result.as_str()).or_insert(0u64) += 1;
                }
                let (w, d, l) = (
                    count.get("win").copied().unwrap_or(0),
                    count.get("draw").copied().unwrap_or(0),
                    count.get("loss").copied().unwrap_or(0),
                );
                let n = w + d + l;
                row.push(if n == 0 {
                    "—".to_string()
                } else {
                    format!(
                        "{:.1}% ({w}/{d}/{l})",
                        100.0 * (w as f64 + d as f64 / 2.0) / n as f64
                    )
                });
            }
            row
        })
        .collect();
    Table { header, rows }
}

/// What the games say about the game itself (`carcassonne analyze`): each
/// seat's share of the wins with its interval, and the deck's share of
/// the variance of the points and of the margins.
/// The table of seats.csv's rows: each seat's share of the wins with its
/// interval, the fair share, (with `mean_score`) the mean score, and the
/// margin over the table. The tournament report and `analyze.html` both
/// show it.
pub(crate) fn seats_table<'a>(
    seats: impl IntoIterator<Item = &'a SeatRow>,
    mean_score: bool,
) -> Table {
    let percent = |x: f64| format!("{:.1}%", 100.0 * x);
    let rows = seats
        .into_iter()
        .map(|r| {
            let mut row = vec![
                format!("seat {}", r.seat),
                format!(
                    "{} [{}, {}]",
                    percent(r.win_share),
                    percent(r.win_share_low),
                    percent(r.win_share_high)
                ),
                percent(r.fair_share),
            ];
            if mean_score {
                row.push(format!("{:.1}", r.mean_score));
            }
            row.push(format!("{:+.2} ± {:.2}", r.mean_margin, r.mean_margin_se));
            row
        })
        .collect();
    let mut header = vec!["seat", "share of the wins [95%]", "fair share"];
    if mean_score {
        header.push("mean score");
    }
    header.push("margin over the table");
    Table {
        header: header.into_iter().map(String::from).collect(),
        rows,
    }
}

fn game_section(seats: &[SeatRow], decks: &[DeckRow]) -> Result<String> {
    let percent = |x: f64| format!("{:.1}%", 100.0 * x);
    let table = seats_table(seats, false);
    let mut html = String::from("<h2>Seat advantage and the deck's share</h2>");
    html.push_str(&html_table(&table));
    let shares: Vec<String> = decks
        .iter()
        .map(|d| {
            let what = d.what();
            match (d.share, d.share_low, d.share_high) {
                (Some(x), Some(lo), Some(hi)) => format!(
                    "of {what}: <b>{}</b> [{}, {}] ({} groups)",
                    percent(x),
                    percent(lo),
                    percent(hi),
                    d.groups
                ),
                _ => format!("of {what}: not measurable (no deck played twice)"),
            }
        })
        .collect();
    html.push_str(&format!(
        "<p>The share of the wins counts a shared first place split; the margin is the seat's score minus the other seats' mean. The deck's share of the variance {} — the agents held fixed (<code>carcassonne analyze</code>, results/README.md).</p>",
        shares.join("; ")
    ));
    let (names, bars) = crate::analysis::deck_bars(&decks.iter().collect::<Vec<_>>());
    html.push_str(&figure(
        &charts::share_bars(
            &names,
            &bars,
            None,
            "the deck's share of the variance (95% bootstrap interval)",
        )?,
        "The deck's share of each measure's variance, the agents held fixed; no bar: no deck played twice.",
    ));
    Ok(html)
}

/// Forfeits per agent with their reasons by kind (games.csv's `forfeit`);
/// None when no seat forfeited.
fn forfeit_table(results: &Results, names: &[String]) -> Option<Table> {
    let forfeits = tournament::results::summary::forfeits(
        names,
        results
            .seats
            .iter()
            .map(|s| (s.agent.as_str(), s.forfeit.as_str())),
    );
    if forfeits.is_empty() {
        return None;
    }
    let header = [
        "agent",
        "seats",
        "forfeits",
        "reason",
        "count",
        "first such reason",
    ];
    let mut rows = Vec::new();
    for a in &forfeits {
        for (i, (kind, n, example)) in a.reasons.iter().enumerate() {
            let first = i == 0;
            rows.push(vec![
                if first {
                    a.agent.clone()
                } else {
                    String::new()
                },
                if first {
                    a.seats.to_string()
                } else {
                    String::new()
                },
                if first {
                    a.forfeits.to_string()
                } else {
                    String::new()
                },
                kind.clone(),
                n.to_string(),
                example.clone(),
            ]);
        }
    }
    Some(Table {
        header: header.iter().map(|h| h.to_string()).collect(),
        rows,
    })
}

/// An SPRT's log-likelihood ratio after each game, and its bounds.
struct SprtTrace {
    llr: Vec<(u64, f64)>,
    bounds: (f64, f64),
}

/// The SPRT's log-likelihood ratio as the run recorded it in run.json
/// (`sprt.trace`, one point per `trace_every` pairs or games, and the end),
/// and its stopping bounds; `None` without `--sprt`.
fn sprt_trace(results: &Results) -> Option<SprtTrace> {
    let sprt = results.run.get("sprt").filter(|v| !v.is_null())?;
    let get = |k: &str| sprt.get(k).and_then(Value::as_f64);
    let bounds = (get("lower")?, get("upper")?);
    let mut llr: Vec<(u64, f64)> = vec![(0, 0.0)];
    if let Some(Value::Array(points)) = sprt.get("trace") {
        llr.extend(
            points
                .iter()
                .filter_map(|p| Some((p.get("games")?.as_u64()?, p.get("llr")?.as_f64()?))),
        );
    }
    Some(SprtTrace { llr, bounds })
}

/// The settings and provenance of run.json as a two-column table.
fn settings_table(run: &Value) -> Table {
    let mut rows = Vec::new();
    let mut add = |key: &str, value: Option<&Value>| {
        if let Some(v) = value.filter(|v| !v.is_null()) {
            let text = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            rows.push(vec![key.to_string(), text]);
        }
    };
    if let Some(Value::Object(settings)) = run.get("settings") {
        for (k, v) in settings {
            add(k, Some(v));
        }
    }
    for key in [
        "games_per_pairing",
        "decks_per_pairing",
        "games_total",
        "games_planned",
    ] {
        add(&format!("plan.{key}"), run.pointer(&format!("/plan/{key}")));
    }
    for key in [
        "status",
        "games_finished",
        "code_revision",
        "command",
        "threads",
        "start_time",
        "end_time",
        "elapsed_s",
        "sprt",
    ] {
        add(key, run.get(key));
    }
    Table {
        header: vec!["setting".to_string(), "value".to_string()],
        rows,
    }
}

/// The report page of `results`.
///
/// # Errors
/// A chart cannot be drawn ([`files::error::Error::Internal`]).
pub fn page(results: &Results) -> Result<String> {
    let names: Vec<String> = results.agents.iter().map(|a| a.agent.clone()).collect();
    let name = results
        .run
        .pointer("/settings/name")
        .and_then(Value::as_str)
        .unwrap_or("tournament");
    let status = results
        .run
        .get("status")
        .and_then(Value::as_str)
        .unwrap_or("unknown");
    let games = results
        .seats
        .iter()
        .map(|s| s.game)
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let title = format!("Tournament report: {name}");
    let mut body = format!(
        "<h1>{}</h1><p>{games} games of {} players, status <b>{}</b>.</p>",
        xml_escape(&title),
        results.players(),
        xml_escape(status)
    );
    body.push_str("<h2>Summary</h2>");
    body.push_str(&html_table(&results.summary_table));
    body.push_str("<p>Intervals are 95%: Wilson for win rates, Bradley–Terry for Elo (ratings average 0). See results/README.md for every column.</p>");
    if let Some(table) = forfeit_table(results, &names) {
        body.push_str("<h2>Forfeits</h2>");
        body.push_str("<p><b>Some seats were forfeited</b> (lost by a timeout, a crash, an illegal move…): the reasons by kind, as docs/PROTOCOL.md names them.</p>");
        body.push_str(&html_table(&table));
    }
    let elo: Vec<(f64, f64, f64)> = results
        .agents
        .iter()
        .map(|a| (a.elo, a.elo_ci_low, a.elo_ci_high))
        .collect();
    body.push_str("<h2>Elo</h2>");
    body.push_str(&figure(
        &charts::elo(&names, &elo)?,
        "Bradley–Terry Elo with 95% intervals.",
    ));
    body.push_str("<h2>Pairwise win rates</h2>");
    body.push_str(&figure(&charts::heat_map(&names, &results.pairings)?, "Each cell: the row agent's win rate against the column agent (draws count half) over the games they met in."));
    body.push_str(&html_table(&results.pairwise_table));
    body.push_str("<h2>Score distributions</h2>");
    body.push_str(&figure(
        &charts::scores(&names, &results.seats)?,
        "Total score per game and seat.",
    ));
    body.push_str("<h2>Points by category</h2>");
    body.push_str(&figure(
        &charts::categories(&names, &results.seats)?,
        "Mean points per game from roads, cities, monasteries, farms and unopened gifts.",
    ));
    body.push_str("<h2>Win rate by seat</h2>");
    body.push_str(&figure(&charts::seats(&results.seats, results.players())?, "All agents together: seat 0 plays first. Seat rotation gives every agent every seat equally often, so a seat's advantage does not favour an agent."));
    body.push_str(&html_table(&seat_table(results, &names)));
    body.push_str("<p>Cells: win rate (wins/draws/losses) of the agent in that seat.</p>");
    if let Some((seats, decks)) = &results.game {
        body.push_str(&game_section(seats, decks)?);
    }
    if let Some(SprtTrace { llr: trace, bounds }) = sprt_trace(results) {
        body.push_str("<h2>SPRT</h2>");
        body.push_str(&figure(
            &charts::sprt(&trace, bounds)?,
            &format!("Log-likelihood ratio of the first agent against the second after each game; it stops at the bounds {:.3} and {:.3}.", bounds.0, bounds.1),
        ));
    }
    body.push_str("<h2>Settings</h2>");
    body.push_str(&html_table(&settings_table(&results.run)));
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head>\n<body>\n{body}\n</body></html>\n",
        xml_escape(&title)
    ))
}

/// The files of a results folder that `report --out` never replaces.
const DATA_FILES: &[&str] = &[
    tournament::results::schema::GAMES_CSV,
    tournament::results::schema::SUMMARY_CSV,
    tournament::results::schema::PAIRWISE_CSV,
    tournament::results::schema::RUN_JSON,
    tournament::results::schema::RECORDS_JSONL,
    tournament::results::schema::POSITIONS_CSV,
    tournament::run::lock::LOCK_FILE,
    "improve.json",
    "generations.csv",
];

/// Write the report of the results folder `dir` to `out` (default:
/// `dir/report.html`); returns the file written. A report written into
/// the folder takes its lock ([`tournament::run::lock`]): a run still writing it is
/// not disturbed.
///
/// # Errors
/// The folder's files cannot be read or are not a tournament's, the
/// folder is in use, `out` is not a regular file or is one of a results
/// folder's data files, or the page cannot be written; nothing is
/// written then.
pub fn report(dir: &Path, out: Option<PathBuf>) -> Result<PathBuf> {
    let into_dir = match &out {
        None => true,
        Some(out) => {
            let parent = out.parent().filter(|p| !p.as_os_str().is_empty());
            let parent = parent.unwrap_or(Path::new("."));
            match (parent.canonicalize(), dir.canonicalize()) {
                (Ok(a), Ok(b)) => a == b,
                _ => false,
            }
        }
    };
    // Only a results folder is locked (a lock file is left in it).
    let _lock = if into_dir && dir.join(tournament::results::schema::RUN_JSON).is_file() {
        Some(tournament::run::lock::FolderLock::acquire(dir)?)
    } else {
        None
    };
    write_report(dir, out)
}

/// [`report`] without taking the folder's lock: for a run that holds it.
///
/// # Errors
/// As [`report`]'s.
pub fn write_report(dir: &Path, out: Option<PathBuf>) -> Result<PathBuf> {
    let out = out.unwrap_or_else(|| dir.join(REPORT_HTML));
    let name = out.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let parent = out.parent().filter(|p| !p.as_os_str().is_empty());
    let in_results_folder = parent
        .unwrap_or(Path::new("."))
        .join(tournament::results::schema::RUN_JSON)
        .exists();
    if DATA_FILES.contains(&name) && in_results_folder {
        return Err(Error::Invalid(format!(
            "--out {}: a data file of a results folder; give another file (e.g. report.html)",
            out.display()
        )));
    }
    files::atomic::check_replaceable(&out)?;
    let html = page(&Results::read(dir)?)?;
    files::atomic::write_atomic(&out, html.as_bytes())?;
    Ok(out)
}

#[cfg(test)]
mod tests;
