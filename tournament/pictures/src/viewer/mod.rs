//! `carcassonne view`: one self-contained HTML file that steps through a
//! game turn by turn — the board, the scores over time, and each turn's
//! move and score changes — with buttons, a slider and the arrow keys.
//!
//! The page holds the whole board once: every tile, meeple and highlight
//! is tagged with the frames it shows in (see [`crate::render::board`]),
//! and a short script shows the ones of the current turn. No network, no
//! external scripts.

mod analysis;
mod scores;

pub use analysis::Analysis;

use crate::render::board::{coordinates, items, Extent};
use crate::render::history::History;
use crate::render::{check_out_extension, load_history, palette, xml_escape};
use files::error::Result;
use serde_json::json;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The viewer's style (the web app shares it).
pub const STYLE: &str = include_str!("viewer.css");
const SCRIPT: &str = include_str!("viewer.js");

/// The SVG of every item of the game, each tagged with its frames (and
/// an analysis' candidate placements, which the board then holds too).
fn board_svg(history: &History, analysis: Option<&Analysis>) -> String {
    let cells = history.tiles.iter().map(|p| p.pos);
    let extent = Extent::of(cells.chain(analysis.into_iter().flat_map(Analysis::cells)));
    let (w, h) = (extent.width(), extent.height());
    let mut out = format!(r#"<svg id="board" viewBox="0 0 {w} {h}" width="{w}" height="{h}">"#);
    for item in items(history, &extent) {
        let _ = write!(
            out,
            r#"<g class="{}" data-from="{}" data-to="{}">{}</g>"#,
            if item.now { "now" } else { "item" },
            item.from,
            item.to,
            item.svg
        );
    }
    out.push_str(&coordinates(&extent));
    if let Some(a) = analysis {
        out.push_str(&a.svg(&extent));
    }
    out.push_str("</svg>");
    out
}

/// What the page shows beside the board for each frame, as JSON.
fn frames_json(history: &History) -> serde_json::Value {
    let frames: Vec<serde_json::Value> = history
        .frames
        .iter()
        .enumerate()
        .map(|(n, frame)| {
            let before = &history.frames[n.saturating_sub(1)];
            let seats: Vec<serde_json::Value> = frame
                .scores
                .iter()
                .enumerate()
                .map(|(s, sc)| {
                    json!({
                        "total": sc.total(),
                        "delta": sc.total() as i64 - before.scores[s].total() as i64,
                        "road": sc.road, "city": sc.city, "monastery": sc.monastery,
                        "farm": sc.farm, "gifts": sc.gifts,
                        "supply": frame.supply[s], "hand": frame.hands[s],
                    })
                })
                .collect();
            let player = n
                .checked_sub(1)
                .map(|i| history.record.turns[i].player as i64)
                .unwrap_or(-1);
            json!({
                "player": player,
                "over": frame.over,
                "move": history.describe_turn(n),
                "seats": seats,
            })
        })
        .collect();
    json!({
        "names": (0..history.record.players).map(|s| history.seat_name(s)).collect::<Vec<_>>(),
        "colours": (0..history.record.players).map(palette::seat).collect::<Vec<_>>(),
        "gifts": history.record.rules.gifts,
        "frames": frames,
    })
}

/// The viewer page of a game.
///
/// # Errors
/// The score chart cannot be drawn ([`files::error::Error::Internal`]).
pub fn page(history: &History) -> Result<String> {
    page_with(history, None)
}

/// The analysis panel's style.
const ANALYSIS_STYLE: &str =
    "#analysis .evalbar { height: 1.2em; border: 1px solid #888; margin: 0.3em 0; }
#analysis .evalfill { height: 100%; }
#analysis table.top { border-collapse: collapse; font-size: 0.85em; }
#analysis table.top td, #analysis table.top th { padding: 0.1em 0.4em; text-align: left; }
#analysis table.top tr[data-i] { cursor: pointer; }
#analysis table.top tr.played { font-weight: bold; }
#analysis table.top tr.picked { background: #ffd6f5; }
#analysis .verdict.mistake { color: #b35c00; }
#analysis .verdict.blunder { color: #c00; font-weight: bold; }
#analysis .note { font-size: 0.8em; color: #555; }
#analysis circle.mark { cursor: pointer; stroke: #000; }
#evalchart { width: 100%; height: auto; border: 1px solid #ddd; }
#board g.cand .cand-box { stroke: #333; }
#board g.cand.picked .cand-box { stroke: #e0007a; stroke-width: 9; }
#board g.cand.picked use { opacity: 1; }";

/// The viewer page of a game with `analysis`'s panel (if any).
///
/// # Errors
/// The score chart cannot be drawn ([`files::error::Error::Internal`]).
pub fn page_with(history: &History, analysis: Option<&Analysis>) -> Result<String> {
    let title = match history.record.seed {
        Some(seed) => format!("Carcassonne game, seed {seed}"),
        None => "Carcassonne game".to_string(),
    };
    let chart = scores::chart(history)?;
    // `</` cannot end the script early: JSON escapes no slashes itself.
    let data = frames_json(history).to_string().replace("</", "<\\/");
    let (panel, analysis_script, analysis_style) = match analysis {
        Some(a) => (
            r#"<div id="analysis"></div>"#,
            format!(
                "<script>const ANALYSIS = {};</script>\n<script>{}</script>",
                a.data().to_string().replace("</", "<\\/"),
                analysis::SCRIPT
            ),
            ANALYSIS_STYLE,
        ),
        None => ("", String::new(), ""),
    };
    Ok(format!(
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>{STYLE}{analysis_style}</style></head>
<body>
<h1>{title}</h1>
<div id="controls">
<button id="first" title="first turn (Home)">|◀</button>
<button id="prev" title="previous turn (←)">◀</button>
<button id="play" title="play / pause (space)">play</button>
<button id="next" title="next turn (→)">▶</button>
<button id="last" title="last turn (End)">▶|</button>
<input id="slider" type="range" min="0" max="{turns}" value="{turns}">
<span id="turn"></span>
</div>
<div id="main">
<div id="board-box">{board}</div>
<div id="side">
<div id="move"></div>
<table id="seats"></table>
{panel}
<h2>Scores over time</h2>
{chart}
<h2>Turns</h2>
<ol id="turns" start="0"></ol>
</div>
</div>
<script>const GAME = {data};</script>
<script>{SCRIPT}</script>
{analysis_script}
</body></html>
"#,
        title = xml_escape(&title),
        turns = history.turns(),
        board = board_svg(history, analysis),
    ))
}

/// `carcassonne view`: returns the file written.
///
/// # Errors
/// `--out` not ending in `.html`, a record that cannot be read or
/// replayed, or a page that cannot be written; nothing is written then.
pub fn view(record: &Path, game: Option<usize>, out: Option<PathBuf>) -> Result<PathBuf> {
    view_with(record, game, out, None)
}

/// `carcassonne view --analysis FILE`: the page with the panel of the
/// analysis in `analysis` (`analyze-game`'s JSON of this game).
///
/// # Errors
/// As [`view`], and an analysis that cannot be read or is of another
/// game.
pub fn view_with(
    record: &Path,
    game: Option<usize>,
    out: Option<PathBuf>,
    analysis: Option<&Path>,
) -> Result<PathBuf> {
    let out = out.unwrap_or_else(|| record.with_extension("html"));
    check_out_extension(&out, &["html"])?;
    let history = load_history(record, game)?;
    let analysis = match analysis {
        Some(path) => Some(Analysis::load(path, &history)?),
        None => None,
    };
    files::atomic::write_atomic(&out, page_with(&history, analysis.as_ref())?.as_bytes())?;
    Ok(out)
}

#[cfg(test)]
mod tests;
