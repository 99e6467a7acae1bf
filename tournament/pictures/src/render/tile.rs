//! One tile drawn from the engine's tile tables: which edges each city and
//! road segment reaches, which ports each field touches, shields and the
//! monastery, all read from [`Tile::def`] and [`Tile::oriented`] — there is
//! no second copy of the 24 tiles here.
//!
//! A tile is a square of [`SIZE`] units with north up, drawn at the origin;
//! the board translates it to its cell.

use super::palette;
use engine::FeatureKind;
use engine::{Location, Port, Rotation, Side, Tile};
use std::fmt::Write as _;

/// Side of a tile in SVG units.
pub const SIZE: f64 = 100.0;
const CENTRE: (f64, f64) = (SIZE / 2.0, SIZE / 2.0);

/// The four corners clockwise from north-west: side `s` runs from corner
/// `s` to corner `s + 1`.
const CORNERS: [(f64, f64); 4] = [(0.0, 0.0), (SIZE, 0.0), (SIZE, SIZE), (0.0, SIZE)];

/// The middle of `side`'s edge.
pub fn edge_middle(side: Side) -> (f64, f64) {
    match side {
        Side::N => (SIZE / 2.0, 0.0),
        Side::E => (SIZE, SIZE / 2.0),
        Side::S => (SIZE / 2.0, SIZE),
        Side::W => (0.0, SIZE / 2.0),
    }
}

/// `point` moved `by` units towards the tile's centre along its side's
/// inward normal.
pub fn inset(side: Side, point: (f64, f64), by: f64) -> (f64, f64) {
    let (dx, dy) = side.delta();
    // Board y grows north, SVG y grows south.
    (point.0 - by * dx as f64, point.1 + by * dy as f64)
}

/// Where a meeple on `loc` is drawn (and where tests look for it): edges
/// a little inside their middle, the monastery in the centre, a port a
/// quarter along its edge and inside it.
pub fn location_point(loc: Location) -> (f64, f64) {
    match loc {
        Location::Edge(side) => inset(side, edge_middle(side), 16.0),
        Location::Monastery => CENTRE,
        Location::Field(port) => port_point(port),
    }
}

/// A point of the field touching `port`.
pub fn port_point(port: Port) -> (f64, f64) {
    let side = port.side();
    // Ports run clockwise: the first half of N is its west half.
    let first = port.index() % 2 == 0;
    let (a, b) = (CORNERS[side.index()], CORNERS[(side.index() + 1) % 4]);
    let t = if first { 0.25 } else { 0.75 };
    let on_edge = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
    inset(side, on_edge, 12.0)
}

fn side_bits(edges: u8, rot: Rotation) -> [bool; 4] {
    let mut out = [false; 4];
    for side in Side::ALL {
        if edges & (1 << side.index()) != 0 {
            out[side.rotated(rot).index()] = true;
        }
    }
    out
}

fn towards(from: (f64, f64), to: (f64, f64), by: f64) -> (f64, f64) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    (from.0 + dx / len * by, from.1 + dy / len * by)
}

/// The city reaching the sides marked in `city`, as a filled outline and
/// its walls (the curved borders towards the fields). `small` draws a
/// one-edge city shallower, for tiles with two separate cities.
fn city_paths(city: [bool; 4], small: bool) -> (String, String) {
    if city.iter().all(|&c| c) {
        return (format!("M0,0H{SIZE}V{SIZE}H0Z"), String::new());
    }
    let start = (0..4).find(|&s| city[s] && !city[(s + 3) % 4]).unwrap_or(0);
    let (x, y) = CORNERS[start];
    let mut fill = format!("M{x},{y}");
    let mut walls = String::new();
    let mut s = start;
    let mut walked = 0;
    while walked < 4 {
        if city[s] {
            let (x, y) = CORNERS[(s + 1) % 4];
            let _ = write!(fill, "L{x},{y}");
            s = (s + 1) % 4;
            walked += 1;
            continue;
        }
        let run = (0..4 - walked).take_while(|k| !city[(s + k) % 4]).count();
        let from = CORNERS[s];
        let to = CORNERS[(s + run) % 4];
        let control = match run {
            1 => inset(Side::from_index(s), edge_middle(Side::from_index(s)), 65.0),
            2 => towards(CENTRE, CORNERS[(s + 1) % 4], -15.0),
            _ => {
                let city_side = Side::from_index((s + run) % 4);
                let depth = if small { 50.0 } else { 60.0 };
                inset(city_side, edge_middle(city_side), depth)
            }
        };
        let (cx, cy) = control;
        let (tx, ty) = to;
        let _ = write!(fill, "Q{cx:.1},{cy:.1} {tx},{ty}");
        let _ = write!(walls, "M{},{}Q{cx:.1},{cy:.1} {tx},{ty}", from.0, from.1);
        s = (s + run) % 4;
        walked += run;
    }
    fill.push('Z');
    (fill, walls)
}

/// Where a city's shield goes: between its edges, drawn towards the centre.
fn shield_point(city: [bool; 4]) -> (f64, f64) {
    let middles: Vec<(f64, f64)> = (0..4)
        .filter(|&s| city[s])
        .map(|s| edge_middle(Side::from_index(s)))
        .collect();
    let n = middles.len().max(1) as f64;
    let avg = (
        middles.iter().map(|p| p.0).sum::<f64>() / n,
        middles.iter().map(|p| p.1).sum::<f64>() / n,
    );
    (
        avg.0 + (CENTRE.0 - avg.0) * 0.3,
        avg.1 + (CENTRE.1 - avg.1) * 0.3,
    )
}

/// The SVG of `tile` in rotation `rot`, a square from (0, 0) to
/// ([`SIZE`], [`SIZE`]) with north up.
pub fn tile_svg(tile: Tile, rot: Rotation) -> String {
    let def = tile.def();
    let mut out = format!(
        r#"<rect width="{SIZE}" height="{SIZE}" fill="{}"/>"#,
        palette::FIELD
    );
    let roads: Vec<[bool; 4]> = def
        .segments
        .iter()
        .filter(|s| s.kind == FeatureKind::Road)
        .map(|s| side_bits(s.edges, rot))
        .collect();
    for (width, colour) in [(13.0, palette::ROAD_EDGE), (9.0, palette::ROAD)] {
        for road in &roads {
            let ends: Vec<(f64, f64)> = (0..4)
                .filter(|&s| road[s])
                .map(|s| edge_middle(Side::from_index(s)))
                .collect();
            let d = match ends.as_slice() {
                [a, b] => format!("M{},{}Q{},{} {},{}", a.0, a.1, CENTRE.0, CENTRE.1, b.0, b.1),
                [a] => format!("M{},{}L{},{}", a.0, a.1, CENTRE.0, CENTRE.1),
                _ => continue,
            };
            let _ = write!(
                out,
                r#"<path d="{d}" fill="none" stroke="{colour}" stroke-width="{width}"/>"#
            );
        }
    }
    let cities: Vec<(&engine::SegmentDef, [bool; 4])> = def
        .segments
        .iter()
        .filter(|s| s.kind == FeatureKind::City)
        .map(|s| (s, side_bits(s.edges, rot)))
        .collect();
    for (segment, sides) in &cities {
        let (fill, walls) = city_paths(*sides, cities.len() > 1);
        let _ = write!(out, r#"<path d="{fill}" fill="{}"/>"#, palette::CITY);
        if !walls.is_empty() {
            let _ = write!(
                out,
                r#"<path d="{walls}" fill="none" stroke="{}" stroke-width="3"/>"#,
                palette::WALL
            );
        }
        if segment.shield {
            let (x, y) = shield_point(*sides);
            let _ = write!(
                out,
                r#"<path transform="translate({x:.1},{y:.1})" d="M-7,-8H7V0Q7,6 0,9Q-7,6 -7,0Z" fill="{}" stroke="white" stroke-width="1.5"/>"#,
                palette::SHIELD
            );
        }
    }
    if roads.len() > 1 {
        let _ = write!(
            out,
            r#"<rect x="43" y="43" width="14" height="14" fill="{}" stroke="{}" stroke-width="1.5"/>"#,
            palette::VILLAGE,
            palette::ROAD_EDGE
        );
    }
    if def
        .segments
        .iter()
        .any(|s| s.kind == FeatureKind::Monastery)
    {
        let _ = write!(
            out,
            r#"<path d="M36,66V44L50,32L64,44V66Z" fill="{}" stroke="{}" stroke-width="2"/><rect x="46" y="55" width="8" height="11" fill="{}"/>"#,
            palette::MONASTERY,
            palette::WALL,
            palette::WALL
        );
    }
    let _ = write!(
        out,
        r#"<rect width="{SIZE}" height="{SIZE}" fill="none" stroke="black" stroke-opacity="0.2" stroke-width="1"/>"#
    );
    out
}
