//! `analyze.html`: the tables of `carcassonne analyze`
//! ([`tournament::metrics`]) as one self-contained page — for each player
//! count and rules, each seat's share of the wins with its interval and
//! the fair share, the deck's share of the variance of each measure with
//! its interval, and the points by category of each agent; and the
//! length of the games of every group. Reuses the report's style and
//! charts.

use crate::render::xml_escape;
use crate::report::charts::{self, Share};
use crate::report::data::Table;
use crate::report::{figure, html_table, seats_table, STYLE};
use files::error::Result;
use std::fmt::Write as _;
use std::path::PathBuf;
use tournament::metrics::{AgentRow, DeckRow, LengthRow, SeatRow};

/// The page's file name beside the CSV files of `analyze --out`.
pub const ANALYZE_HTML: &str = "analyze.html";

/// What `carcassonne analyze` measured: its four tables and the folders
/// it read.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// `seats.csv`'s rows.
    pub seats: Vec<SeatRow>,
    /// `decks.csv`'s.
    pub decks: Vec<DeckRow>,
    /// `length.csv`'s: one per group (player count and rules).
    pub lengths: Vec<LengthRow>,
    /// `agents.csv`'s.
    pub agents: Vec<AgentRow>,
    /// The folders read.
    pub folders: Vec<PathBuf>,
    /// The seed of the decks' bootstrap.
    pub seed: u64,
}

/// A group's name: `2 players, standard rules`.
fn group_name(players: usize, rules: &str) -> String {
    format!("{players} players, {rules} rules")
}

/// A measure's name short enough for a chart's row label.
fn short_measure(d: &DeckRow) -> String {
    match d.measure.as_str() {
        "total" => "total points",
        "margin" => "margin of two agents",
        "first_seat" => "first seat's margin",
        other => other,
    }
    .to_string()
}

/// The row labels and bars of the deck's shares: each measure's share
/// with its interval, `None` when not measurable.
pub(crate) fn deck_bars(decks: &[&DeckRow]) -> (Vec<String>, Vec<Share>) {
    let names = decks.iter().map(|d| short_measure(d)).collect();
    let shares = decks
        .iter()
        .map(|d| match (d.share, d.share_low, d.share_high) {
            (Some(x), Some(lo), Some(hi)) => Some((x, lo, hi)),
            (Some(x), _, _) => Some((x, x, x)),
            _ => None,
        })
        .collect();
    (names, shares)
}

/// A share as a percentage, `—` when not measured.
fn percent(x: Option<f64>) -> String {
    x.map_or("—".to_string(), |x| format!("{:.1}%", 100.0 * x))
}

/// The section of one group: its seats, the deck's shares and its
/// agents' points by category.
fn group_section(a: &Analysis, length: &LengthRow) -> Result<String> {
    let (players, rules) = (length.players, length.rules.as_str());
    let of = |r_players: usize, r_rules: &str| r_players == players && r_rules == rules;
    let seats: Vec<&SeatRow> = a.seats.iter().filter(|r| of(r.players, &r.rules)).collect();
    let decks: Vec<&DeckRow> = a.decks.iter().filter(|r| of(r.players, &r.rules)).collect();
    let agents: Vec<&AgentRow> = a
        .agents
        .iter()
        .filter(|r| of(r.players, &r.rules))
        .collect();
    let mut html = format!(
        "<h2>{}</h2><p>{} games ({} left out: a seat forfeited); {:.1} turns on average.</p>",
        xml_escape(&group_name(players, rules)),
        length.games,
        length.forfeited,
        length.turns_mean
    );
    let names: Vec<String> = seats.iter().map(|r| format!("seat {}", r.seat)).collect();
    let shares: Vec<Share> = seats
        .iter()
        .map(|r| Some((r.win_share, r.win_share_low, r.win_share_high)))
        .collect();
    html.push_str(&figure(
        &charts::share_bars(
            &names,
            &shares,
            Some(1.0 / players.max(1) as f64),
            "share of the wins (95% Wilson interval); dashed: the fair share, 1 / players",
        )?,
        "Each seat's share of the wins (a shared first place split among the tied seats); seat 0 plays first.",
    ));
    html.push_str(&html_table(&seats_table(seats.iter().copied(), true)));
    let (names, shares) = deck_bars(&decks);
    let measured: Vec<String> = decks
        .iter()
        .map(|d| {
            format!(
                "{}: {} [{}, {}] ({} groups, {} values)",
                d.what(),
                percent(d.share),
                percent(d.share_low),
                percent(d.share_high),
                d.groups,
                d.values
            )
        })
        .collect();
    html.push_str(&figure(
        &charts::share_bars(
            &names,
            &shares,
            None,
            &format!(
                "the deck's share of the variance (95% interval: {} resamples of whole groups, seed {})",
                tournament::metrics::BOOTSTRAP,
                a.seed
            ),
        )?,
        &xml_escape(&format!(
            "The share of each measure's variance that lies between decks, the agents held fixed (no bar: no deck played twice) — {}.",
            measured.join("; ")
        )),
    ));
    let names: Vec<String> = agents.iter().map(|r| r.agent.clone()).collect();
    let means: Vec<[f64; 5]> = agents
        .iter()
        .map(|r| [r.road, r.city, r.monastery, r.farm, r.gifts])
        .collect();
    html.push_str(&figure(
        &charts::category_bars(&names, &means)?,
        "Mean points per game of each agent from roads, cities, monasteries, farms and unopened gifts.",
    ));
    let rows = agents
        .iter()
        .map(|r| {
            let mut row = vec![
                r.agent.clone(),
                r.seats.to_string(),
                format!("{:.1}", r.score),
            ];
            row.extend(
                [
                    r.road,
                    r.city,
                    r.monastery,
                    r.farm,
                    r.gifts,
                    r.meeples_placed,
                ]
                .map(|x| format!("{x:.1}")),
            );
            row
        })
        .collect();
    html.push_str(&html_table(&Table {
        header: [
            "agent",
            "seats",
            "score",
            "road",
            "city",
            "monastery",
            "farm",
            "gifts",
            "meeples placed",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    }));
    Ok(html)
}

/// The page of `analysis`.
///
/// # Errors
/// A chart cannot be drawn ([`files::error::Error::Internal`]).
pub fn page(analysis: &Analysis) -> Result<String> {
    let title = "What the games say about the game";
    let mut body = format!(
        "<h1>{title}</h1><p>{} games of {} results folders in {} groups (player count and rules, never pooled): <code>carcassonne analyze</code>, whose columns and formulas results/README.md describes.</p>",
        analysis.lengths.iter().map(|l| l.games).sum::<u64>(),
        analysis.folders.len(),
        analysis.lengths.len()
    );
    body.push_str("<h2>Game length</h2>");
    let names: Vec<String> = analysis
        .lengths
        .iter()
        .map(|l| format!("{} players, {}", l.players, l.rules))
        .collect();
    let turns: Vec<(f64, f64, f64, f64)> = analysis
        .lengths
        .iter()
        .map(|l| {
            (
                l.turns_mean,
                l.turns_sd,
                l.turns_min as f64,
                l.turns_max as f64,
            )
        })
        .collect();
    body.push_str(&figure(
        &charts::length(&names, &turns)?,
        "Turns per game (all seats) of each group.",
    ));
    for length in &analysis.lengths {
        body.push_str(&group_section(analysis, length)?);
    }
    body.push_str("<h2>Folders</h2><ul>");
    for f in &analysis.folders {
        let _ = write!(body, "<li>{}</li>", xml_escape(&f.display().to_string()));
    }
    body.push_str("</ul>");
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title><style>{STYLE}</style></head>\n<body>\n{body}\n</body></html>\n"
    ))
}

#[cfg(test)]
mod tests;
