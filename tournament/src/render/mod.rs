//! `carcassonne render`: the board of a game record as SVG or PNG.
//!
//! - [`history`]: the record replayed into one frame per turn.
//! - [`tile`]: one tile from the engine's tile tables; [`meeple`]: meeples.
//! - [`board`]: tiles and meeples in their cells, highlights, coordinates.
//! - [`legend`]: seats, agents, scores by category, gifts, the last turn.
//! - [`png`]: SVG to PNG through resvg; [`palette`]: the colours.

pub mod board;
pub mod history;
pub mod legend;
pub mod meeple;
pub mod palette;
pub mod png;
pub mod tile;

use engine::Record;
use history::History;
use std::path::{Path, PathBuf};

/// PNG pixels per tile unless asked otherwise (a tile is 100 SVG units).
pub const TILE_PIXELS: u32 = 75;

/// `text` with the XML special characters escaped.
pub fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Read record number `game` (1-based, JSON Lines) or the only record of
/// a file.
pub fn load_record(path: &Path, game: Option<usize>) -> Result<Record, String> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    // One record, possibly spread over many lines, is record 1.
    if matches!(game, None | Some(1)) {
        if let Ok(record) = serde_json::from_str::<Record>(&text) {
            return Ok(record);
        }
    }
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    let want = game.unwrap_or(1);
    let &(line, json) = lines
        .get(want.wrapping_sub(1))
        .ok_or_else(|| format!("{name}: no record {want} (the file holds {})", lines.len()))?;
    serde_json::from_str(json).map_err(|e| format!("{name}:{}: bad record: {e}", line + 1))
}

/// The picture of frame `n`: the board with the legend on its right.
pub fn picture(history: &History, n: usize) -> String {
    let (board, extent) = board::still(history, n);
    let (legend, legend_height) = legend::legend(history, n);
    let width = extent.width() + legend::WIDTH + 20.0;
    let height = extent.height().max(legend_height + 20.0);
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}"><rect width="{width}" height="{height}" fill="white"/>{board}<g transform="translate({},20)">{legend}</g></svg>"#,
        extent.width() + 10.0
    )
}

/// Write `svg` to `out` as SVG or PNG (`tile_pixels` pixels per tile),
/// by its extension.
pub fn write_picture(svg: &str, out: &Path, tile_pixels: u32) -> Result<(), String> {
    let bytes = match out.extension().and_then(|e| e.to_str()) {
        Some("svg") => svg.as_bytes().to_vec(),
        Some("png") => png::png(svg, tile_pixels as f32 / tile::SIZE as f32)?,
        _ => {
            return Err(format!(
                "--out {}: give a file ending in .svg or .png",
                out.display()
            ))
        }
    };
    crate::output::write_atomic(out, &bytes).map_err(|e| e.to_string())
}

/// The frame `turn` names, checked against the record's length (default:
/// the end).
pub fn frame_index(history: &History, turn: Option<usize>) -> Result<usize, String> {
    match turn {
        None => Ok(history.turns()),
        Some(n) if n <= history.turns() => Ok(n),
        Some(n) => Err(format!(
            "--turn {n}: the record has only {} turns",
            history.turns()
        )),
    }
}

/// `carcassonne render`: returns the file written.
pub fn render(
    record: &Path,
    game: Option<usize>,
    turn: Option<usize>,
    out: Option<PathBuf>,
    tile_pixels: Option<u32>,
) -> Result<PathBuf, String> {
    let tile_pixels = tile_pixels.unwrap_or(TILE_PIXELS);
    if !(10..=1000).contains(&tile_pixels) {
        return Err(format!("--tile-pixels {tile_pixels}: give 10 to 1000"));
    }
    let out = out.unwrap_or_else(|| record.with_extension("svg"));
    let ext = out.extension().and_then(|e| e.to_str());
    if !matches!(ext, Some("svg" | "png")) {
        return Err(format!(
            "--out {}: give a file ending in .svg or .png",
            out.display()
        ));
    }
    let history = History::new(&load_record(record, game)?)
        .map_err(|e| format!("{}: {e}", record.display()))?;
    let n = frame_index(&history, turn)?;
    write_picture(&picture(&history, n), &out, tile_pixels)?;
    Ok(out)
}

#[cfg(test)]
mod tests;
