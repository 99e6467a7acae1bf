//! `ratings.html`: a rating ladder ([`tournament::ratings::Ladder`]) as
//! one self-contained page — the ladder with its interval bars, the
//! table of `ratings.csv`, the head-to-head matrix as a heat map, and the
//! folders it was fitted on. Reuses the report's style and charts.

use crate::render::xml_escape;
use crate::report::charts;
use crate::report::data::{Pairing, Table};
use crate::report::{figure, html_table, STYLE};
use files::error::Result;
use std::fmt::Write as _;
use tournament::ratings::output::LadderInfo;
use tournament::ratings::Ladder;
use tournament::stats::{wilson_interval, Z95};

/// The ladder's rows as the page's table shows them.
fn ratings_table(ladder: &Ladder) -> Table {
    let header = [
        "rank",
        "agent",
        "rating",
        "95% low",
        "95% high",
        "games",
        "score",
        "opponents",
    ];
    let number = |x: Option<f64>| x.map_or("—".to_string(), |x| format!("{x:.1}"));
    let rows = ladder
        .ranked()
        .iter()
        .enumerate()
        .map(|(i, r)| {
            vec![
                if r.rating.is_some() {
                    (i + 1).to_string()
                } else {
                    "—".to_string()
                },
                r.agent.clone(),
                r.rating
                    .map_or("unconnected".to_string(), |x| format!("{x:.1}")),
                number(r.low),
                number(r.high),
                r.games.to_string(),
                format!("{:.1}%", 100.0 * r.score),
                r.opponents.to_string(),
            ]
        })
        .collect();
    Table {
        header: header.iter().map(|h| h.to_string()).collect(),
        rows,
    }
}

/// The page of `ladder`, fitted as `info` says.
///
/// # Errors
/// A chart cannot be drawn ([`files::error::Error::Internal`]).
pub fn page(ladder: &Ladder, info: &LadderInfo) -> Result<String> {
    let rated: Vec<_> = ladder
        .ranked()
        .into_iter()
        .filter(|r| r.rating.is_some())
        .collect();
    let names: Vec<String> = rated.iter().map(|r| r.agent.clone()).collect();
    let bars: Vec<(f64, f64, f64)> = rated
        .iter()
        .map(|r| {
            let x = r.rating.unwrap_or(0.0);
            (x, r.low.unwrap_or(x), r.high.unwrap_or(x))
        })
        .collect();
    let all: Vec<String> = ladder.ranked().iter().map(|r| r.agent.clone()).collect();
    let pairings: Vec<Pairing> = ladder
        .head_to_head
        .iter()
        .map(|h| {
            let n = h.games as f64;
            let (low, high) = wilson_interval(h.score * n, n, Z95);
            Pairing {
                agent: h.agent.clone(),
                opponent: h.opponent.clone(),
                games: h.games,
                win_rate: h.score,
                win_rate_ci_low: low,
                win_rate_ci_high: high,
            }
        })
        .collect();
    let title = "Rating ladder";
    let mut body = format!(
        "<h1>{title}</h1><p>{} agents from {} results folders ({} deck groups); anchor <b>{}</b> = {}.</p>",
        ladder.ratings.len(),
        info.folders.len(),
        ladder.decks,
        xml_escape(&ladder.anchor.agent),
        ladder.anchor.elo
    );
    body.push_str("<h2>Ladder</h2>");
    body.push_str(&figure(
        &charts::elo(&names, &bars)?,
        &format!(
            "Bradley–Terry Elo relative to the anchor, with 95% intervals from {} bootstrap resamples of whole deck groups (seed {}). Agents with no chain of games to the anchor are not drawn.",
            ladder.bootstrap, ladder.seed
        ),
    ));
    body.push_str(&html_table(&ratings_table(ladder)));
    body.push_str("<p>Score: points per comparison (a win 1, a draw ½) over every pair of seats the agent shared with another agent. Games: games it played. See results/README.md, “Ratings”.</p>");
    body.push_str("<h2>Head to head</h2>");
    body.push_str(&figure(
        &charts::heat_map(&all, &pairings)?,
        "Each cell: the row agent's score against the column agent over their comparisons. The Wilson interval treats comparisons as independent; games of one deck are not, so it is too narrow when the deck decides.",
    ));
    body.push_str("<h2>Folders</h2><ul>");
    for f in &info.folders {
        let _ = write!(body, "<li>{}</li>", xml_escape(&f.display().to_string()));
    }
    body.push_str("</ul>");
    let _ = write!(
        body,
        "<p>Fitted {}{}.</p>",
        xml_escape(&info.fitted_at),
        if info.allow_revisions {
            "; folders of different code revisions allowed"
        } else {
            ""
        }
    );
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title><style>{STYLE}</style></head>\n<body>\n{body}\n</body></html>\n"
    ))
}
