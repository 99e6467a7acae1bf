//! The board: tiles in their cells (north up), meeples on their locations,
//! the last placed tile and its meeple highlighted, coordinates on the
//! margin.
//!
//! Everything drawn is an [`Item`] that is present from one frame to
//! another, so the same drawing serves a still picture (the items present
//! at one frame) and the game viewer (every item, tagged with its frames,
//! shown or hidden by the page's script).

use super::history::History;
use super::meeple::meeple_svg;
use super::palette;
use super::tile::{location_point, tile_svg, SIZE};
use engine::Pos;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Room for the coordinates around the board, in SVG units.
pub const MARGIN: f64 = 40.0;

/// The cells a picture spans.
#[derive(Clone, Copy, Debug)]
pub struct Extent {
    min_x: i32,
    max_x: i32,
    min_y: i32,
    max_y: i32,
}

impl Extent {
    /// The smallest extent holding `cells`.
    pub fn of(cells: impl Iterator<Item = Pos>) -> Extent {
        let mut e = Extent {
            min_x: 0,
            max_x: 0,
            min_y: 0,
            max_y: 0,
        };
        for p in cells {
            e.min_x = e.min_x.min(p.x as i32);
            e.max_x = e.max_x.max(p.x as i32);
            e.min_y = e.min_y.min(p.y as i32);
            e.max_y = e.max_y.max(p.y as i32);
        }
        e
    }

    /// Width of the board with its margins.
    pub fn width(&self) -> f64 {
        (self.max_x - self.min_x + 1) as f64 * SIZE + 2.0 * MARGIN
    }

    /// Height of the board with its margins.
    pub fn height(&self) -> f64 {
        (self.max_y - self.min_y + 1) as f64 * SIZE + 2.0 * MARGIN
    }

    /// The top-left corner of `pos`'s cell.
    pub fn corner(&self, pos: Pos) -> (f64, f64) {
        (
            MARGIN + (pos.x as i32 - self.min_x) as f64 * SIZE,
            MARGIN + (self.max_y - pos.y as i32) as f64 * SIZE,
        )
    }
}

/// Something drawn on the board from frame `from` until before frame `to`.
#[derive(Clone, Debug)]
pub struct Item {
    /// First frame it shows in.
    pub from: usize,
    /// First frame it no longer shows in.
    pub to: usize,
    /// A highlight: shown only in frame `from`.
    pub now: bool,
    /// Its SVG.
    pub svg: String,
}

impl Item {
    /// Shown in frame `n`.
    pub fn shows_in(&self, n: usize) -> bool {
        if self.now {
            n == self.from
        } else {
            self.from <= n && n < self.to
        }
    }
}

/// Every tile, meeple and highlight of the game, placed in `extent`.
pub fn items(history: &History, extent: &Extent) -> Vec<Item> {
    let end = history.frames.len();
    let mut out = Vec::new();
    let mut placed_in = vec![0; history.tiles.len()];
    for (slot, when) in placed_in.iter_mut().enumerate() {
        *when = history
            .frames
            .iter()
            .position(|f| f.tiles > slot)
            .unwrap_or(end);
    }
    for (slot, placed) in history.tiles.iter().enumerate() {
        let (x, y) = extent.corner(placed.pos);
        out.push(Item {
            from: placed_in[slot],
            to: end,
            now: false,
            svg: format!(
                r#"<g transform="translate({x},{y})">{}</g>"#,
                tile_svg(placed.tile, placed.rot)
            ),
        });
        if slot == 0 {
            continue;
        }
        out.push(Item {
            from: placed_in[slot],
            to: end,
            now: true,
            svg: format!(
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="6"/>"#,
                x + 3.0,
                y + 3.0,
                SIZE - 6.0,
                SIZE - 6.0,
                palette::HIGHLIGHT
            ),
        });
    }
    // Meeples: each run of frames in which the same meeple stands on the
    // same place is one item.
    let mut open: BTreeMap<super::history::MeepleSpot, usize> = BTreeMap::new();
    let mut runs = Vec::new();
    for (n, frame) in history.frames.iter().enumerate() {
        open.retain(|spot, from| {
            let stays = frame.meeples.contains(spot);
            if !stays {
                runs.push((*spot, *from, n));
            }
            stays
        });
        for spot in &frame.meeples {
            open.entry(*spot).or_insert(n);
        }
    }
    runs.extend(open.into_iter().map(|(spot, from)| (spot, from, end)));
    for (spot, from, to) in runs {
        let placed = history.tiles[spot.slot];
        let (x, y) = extent.corner(placed.pos);
        let (dx, dy) = location_point(spot.location);
        let fresh = history.placed_by(from) == Some(spot.slot);
        out.push(Item {
            from,
            to,
            now: false,
            svg: meeple_svg(spot.seat, x + dx, y + dy, spot.lying),
        });
        if fresh {
            out.push(Item {
                from,
                to,
                now: true,
                svg: format!(
                    r#"<circle cx="{:.1}" cy="{:.1}" r="20" fill="none" stroke="{}" stroke-width="3"/>"#,
                    x + dx,
                    y + dy,
                    palette::HIGHLIGHT
                ),
            });
        }
    }
    out
}

/// The coordinates around a board of `extent`.
pub fn coordinates(extent: &Extent) -> String {
    let mut out = String::from(
        r##"<g font-family="DejaVu Sans, Arial, sans-serif" font-size="20" fill="#333" text-anchor="middle">"##,
    );
    let (w, h) = (extent.width(), extent.height());
    for x in extent.min_x..=extent.max_x {
        let (cx, _) = extent.corner(Pos::new(x as i8, 0));
        let cx = cx + SIZE / 2.0;
        let _ = write!(
            out,
            r#"<text x="{cx}" y="{}">{x}</text><text x="{cx}" y="{}">{x}</text>"#,
            MARGIN - 12.0,
            h - 12.0
        );
    }
    for y in extent.min_y..=extent.max_y {
        let (_, cy) = extent.corner(Pos::new(0, y as i8));
        let cy = cy + SIZE / 2.0 + 7.0;
        let _ = write!(
            out,
            r#"<text x="{}" y="{cy}">{y}</text><text x="{}" y="{cy}">{y}</text>"#,
            MARGIN / 2.0,
            w - MARGIN / 2.0
        );
    }
    out.push_str("</g>");
    out
}

/// The board after frame `n` alone: its tiles, meeples and highlights,
/// with coordinates, as an SVG group sized by the returned extent.
pub fn still(history: &History, n: usize) -> (String, Extent) {
    let frame = &history.frames[n];
    let extent = Extent::of(history.tiles[..frame.tiles].iter().map(|p| p.pos));
    let mut out = String::new();
    for item in items(history, &extent) {
        if item.shows_in(n) {
            out.push_str(&item.svg);
        }
    }
    out.push_str(&coordinates(&extent));
    (out, extent)
}
