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
use files::error::{Error, Result};
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

/// Read game `game` of a JSON Lines file (numbered from 0, as the `game`
/// column of games.csv: line `game + 1` of records.jsonl, blank lines
/// not counted), or the only record of a file (game 0).
///
/// # Errors
/// The file cannot be read, holds no game `game`, or that line is not
/// a record (the error names the file and line).
pub fn load_record(path: &Path, game: Option<usize>) -> Result<Record> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io("read", path, e))?;
    // One record, possibly spread over many lines, is game 0.
    if matches!(game, None | Some(0)) {
        if let Ok(record) = serde_json::from_str::<Record>(&text) {
            return Ok(record);
        }
    }
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    let want = game.unwrap_or(0);
    let &(line, json) = lines.get(want).ok_or_else(|| {
        let what = match lines.len() {
            0 => format!("no game {want} (the file holds no record)"),
            n => format!(
                "no game {want} (the file holds games 0 to {}, numbered from 0)",
                n - 1
            ),
        };
        Error::content(path, None, what)
    })?;
    serde_json::from_str(json)
        .map_err(|e| Error::content(path, Some(line + 1), format!("bad record: {e}")))
}

/// Read record `game` of the file `path` (see [`load_record`]) and replay
/// it into its frames.
///
/// # Errors
/// As [`load_record`], and a turn that does not replay (named with the
/// file).
pub fn load_history(path: &Path, game: Option<usize>) -> Result<History> {
    History::new(&load_record(path, game)?).map_err(|e| Error::content(path, None, e))
}

/// `--out` must end in one of `extensions`.
pub(crate) fn check_out_extension(out: &Path, extensions: &[&str]) -> Result<()> {
    let ext = out.extension().and_then(|e| e.to_str()).unwrap_or("");
    if extensions.contains(&ext) {
        return Ok(());
    }
    let names: Vec<String> = extensions.iter().map(|e| format!(".{e}")).collect();
    Err(Error::Invalid(format!(
        "--out {}: give a file ending in {}",
        out.display(),
        names.join(" or ")
    )))
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
///
/// # Errors
/// `out` ends in neither `.svg` nor `.png`, or cannot be written.
pub fn write_picture(svg: &str, out: &Path, tile_pixels: u32) -> Result<()> {
    check_out_extension(out, &["svg", "png"])?;
    let bytes = match out.extension().and_then(|e| e.to_str()) {
        Some("png") => png::png(svg, tile_pixels as f32 / tile::SIZE as f32)?,
        _ => svg.as_bytes().to_vec(),
    };
    files::atomic::write_atomic(out, &bytes)
}

/// The frame `turn` names, checked against the record's length (default:
/// the end).
///
/// # Errors
/// `turn` is past the record's last turn.
pub fn frame_index(history: &History, turn: Option<usize>) -> Result<usize> {
    match turn {
        None => Ok(history.turns()),
        Some(n) if n <= history.turns() => Ok(n),
        Some(n) => Err(Error::Invalid(format!(
            "--turn {n}: the record has only {} turns",
            history.turns()
        ))),
    }
}

/// `carcassonne render`: returns the file written.
///
/// # Errors
/// Bad options (`--tile-pixels`, `--out`, `--turn`), a record that cannot
/// be read or replayed, or a picture that cannot be written; nothing is
/// written then.
pub fn render(
    record: &Path,
    game: Option<usize>,
    turn: Option<usize>,
    out: Option<PathBuf>,
    tile_pixels: Option<u32>,
) -> Result<PathBuf> {
    let tile_pixels = tile_pixels.unwrap_or(TILE_PIXELS);
    if !(10..=1000).contains(&tile_pixels) {
        return Err(Error::Invalid(format!(
            "--tile-pixels {tile_pixels}: give 10 to 1000"
        )));
    }
    let out = out.unwrap_or_else(|| record.with_extension("svg"));
    check_out_extension(&out, &["svg", "png"])?;
    let history = load_history(record, game)?;
    let n = frame_index(&history, turn)?;
    write_picture(&picture(&history, n), &out, tile_pixels)?;
    Ok(out)
}

#[cfg(test)]
mod load_tests;
#[cfg(test)]
mod tests;
