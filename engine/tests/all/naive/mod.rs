//! A deliberately simple reference implementation of the Carcassonne rules
//! (RULES.md §1–4, 6 and 7; *The Gifts* are not modelled), used only by tests
//! to cross-check the fast engine (differential testing).
//!
//! It was written from RULES.md alone, without looking at the engine, and
//! favours obviousness over speed:
//!
//! - the board is a `HashMap<(x, y), PlacedTile>`;
//! - every tile kind in every rotation is a list of segments (road, city,
//!   field, monastery) expressed in board orientation;
//! - a feature is found, whenever it is needed, by a flood fill over
//!   `(tile position, segment index)` nodes — no union-find, no counters kept
//!   between moves;
//! - nothing is cached between calls except the constant tile table.
//!
//! Conventions (RULES.md §6–7): x grows east, y grows north; rotation `r` is
//! `r` quarter turns clockwise; edges are `N E S W` (indices 0..4), field
//! ports are `NNW NNE ENE ESE SSE SSW WSW WNW` (indices 0..8). Rotating a tile
//! by `r` moves edge `e` to `(e + r) % 4` and port `p` to `(p + 2r) % 8`.
#![allow(dead_code)]

mod bridge;

use std::collections::BTreeSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// A small, fast, deterministic hasher for the integer keys used here (the
/// multiply-rotate step of FxHash); std's SipHash dominated the run time.
#[derive(Default)]
struct IntHasher(u64);

impl Hasher for IntHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_i32(&mut self, v: i32) {
        self.write_u64(u64::from(v as u32));
    }

    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
}

type HashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<IntHasher>>;
type HashSet<K> = std::collections::HashSet<K, BuildHasherDefault<IntHasher>>;

/// A board coordinate `(x, y)`.
type Pos = (i32, i32);
/// One segment of one placed tile: `(position, segment index on that tile)`.
type Node = (Pos, usize);

/// Meeples each player starts with.
const MEEPLES_PER_PLAYER: u32 = 7;

/// Score categories, indices into the `[u32; 4]` score arrays.
const ROAD: usize = 0;
const CITY: usize = 1;
const MONASTERY: usize = 2;
const FARM: usize = 3;

/// Edge names, index = edge (0 N, 1 E, 2 S, 3 W).
const EDGE_NAMES: [&str; 4] = ["N", "E", "S", "W"];
/// Port names, index = port; port `p` lies on edge `p / 2`.
const PORT_NAMES: [&str; 8] = ["NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"];
/// Step to the neighbour across each edge (y grows to the north).
const DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
/// The port of the neighbouring tile that faces port `p`:
/// NNW–SSW, NNE–SSE, ENE–WNW, ESE–WSW.
const FACING_PORT: [usize; 8] = [5, 4, 7, 6, 1, 0, 3, 2];

/// The 24 tile kinds transcribed from RULES.md §6, in canonical orientation:
/// letter, count (D includes the start tile), edges N E S W (C city, R road,
/// F field), and the segments separated by `;`. A city or road segment lists
/// the edges it reaches (a road ending at a village, city or monastery lists
/// one edge); a field lists its ports and, after `touches`, one edge of each
/// city segment of the same tile it borders.
const TILE_TABLE: [(char, u32, &str, &str); 24] = [
    (
        'A',
        2,
        "FFRF",
        "monastery; road S; field NNW NNE ENE ESE SSE SSW WSW WNW",
    ),
    (
        'B',
        4,
        "FFFF",
        "monastery; field NNW NNE ENE ESE SSE SSW WSW WNW",
    ),
    ('C', 1, "CCCC", "city N E S W shield"),
    (
        'D',
        4,
        "CRFR",
        "city N; road W E; field WNW ENE touches N; field ESE SSE SSW WSW",
    ),
    ('E', 5, "CFFF", "city N; field ENE ESE SSE SSW WSW WNW touches N"),
    (
        'F',
        2,
        "FCFC",
        "city W E shield; field NNW NNE touches E; field SSE SSW touches E",
    ),
    (
        'G',
        1,
        "CFCF",
        "city N S; field ENE ESE touches N; field WSW WNW touches N",
    ),
    (
        'H',
        3,
        "FCFC",
        "city E; city W; field NNW NNE SSE SSW touches E W",
    ),
    (
        'I',
        2,
        "FCCF",
        "city E; city S; field NNW NNE WSW WNW touches E S",
    ),
    (
        'J',
        3,
        "CRRF",
        "city N; road E S; field ESE SSE; field ENE SSW WSW WNW touches N",
    ),
    (
        'K',
        3,
        "CFRR",
        "city N; road S W; field SSW WSW; field ENE ESE SSE WNW touches N",
    ),
    (
        'L',
        3,
        "CRRR",
        "city N; road E; road S; road W; field WNW ENE touches N; field ESE SSE; field SSW WSW",
    ),
    (
        'M',
        2,
        "CFFC",
        "city N W shield; field ENE ESE SSE SSW touches N",
    ),
    ('N', 3, "CFFC", "city N W; field ENE ESE SSE SSW touches N"),
    (
        'O',
        2,
        "CRRC",
        "city N W shield; road E S; field ESE SSE; field ENE SSW touches N",
    ),
    (
        'P',
        3,
        "CRRC",
        "city N W; road E S; field ESE SSE; field ENE SSW touches N",
    ),
    ('Q', 1, "CCFC", "city N E W shield; field SSE SSW touches N"),
    ('R', 3, "CCFC", "city N E W; field SSE SSW touches N"),
    (
        'S',
        2,
        "CCRC",
        "city N E W shield; road S; field SSW touches N; field SSE touches N",
    ),
    (
        'T',
        1,
        "CCRC",
        "city N E W; road S; field SSW touches N; field SSE touches N",
    ),
    (
        'U',
        8,
        "RFRF",
        "road N S; field NNE ENE ESE SSE; field SSW WSW WNW NNW",
    ),
    (
        'V',
        9,
        "FFRR",
        "road S W; field SSW WSW; field WNW NNW NNE ENE ESE SSE",
    ),
    (
        'W',
        4,
        "FRRR",
        "road E; road S; road W; field WNW NNW NNE ENE; field ESE SSE; field SSW WSW",
    ),
    (
        'X',
        1,
        "RRRR",
        "road N; road E; road S; road W; field NNE ENE; field ESE SSE; field SSW WSW; field WNW NNW",
    ),
];

/// Tile letters with their counts, in order A..X (72 in total; D includes
/// the start tile).
pub fn tile_counts() -> Vec<(char, u32)> {
    TILE_TABLE.iter().map(|&(c, n, _, _)| (c, n)).collect()
}

/// What a segment (or an edge) is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    City,
    Road,
    Field,
    Monastery,
}

/// One segment of a tile in a given orientation.
#[derive(Clone, Debug)]
struct Segment {
    kind: Kind,
    /// Edges reached (roads and cities only), board orientation.
    edges: Vec<usize>,
    /// Ports covered (fields only), board orientation.
    ports: Vec<usize>,
    /// A shield drawn in this (city) segment.
    shield: bool,
    /// Indices of the city segments of the same tile this field touches.
    touches: Vec<usize>,
}

impl Segment {
    /// Canonical location name (RULES.md §7).
    fn name(&self) -> String {
        match self.kind {
            Kind::Monastery => "C".to_string(),
            Kind::Field => PORT_NAMES[*self.ports.iter().min().unwrap()].to_string(),
            Kind::Road | Kind::City => EDGE_NAMES[*self.edges.iter().min().unwrap()].to_string(),
        }
    }

    /// Whether `name` is one of this segment's names.
    fn has_name(&self, name: &str) -> bool {
        match self.kind {
            Kind::Monastery => name == "C",
            Kind::Field => self.ports.iter().any(|&p| PORT_NAMES[p] == name),
            Kind::Road | Kind::City => self.edges.iter().any(|&e| EDGE_NAMES[e] == name),
        }
    }
}

/// A tile kind in one rotation, everything in board orientation.
#[derive(Debug)]
struct Face {
    letter: char,
    rot: u8,
    /// Kind of each edge N E S W (City, Road or Field).
    edges: [Kind; 4],
    segments: Vec<Segment>,
}

/// Parses one tile-table row in canonical orientation, checking it for
/// internal consistency (panics on a transcription error).
fn parse_tile(letter: char, edge_spec: &str, seg_spec: &str) -> Face {
    let edge_index = |w: &str| EDGE_NAMES.iter().position(|&n| n == w);
    let port_index = |w: &str| PORT_NAMES.iter().position(|&n| n == w);
    let edges: Vec<Kind> = edge_spec
        .chars()
        .map(|c| match c {
            'C' => Kind::City,
            'R' => Kind::Road,
            'F' => Kind::Field,
            _ => panic!("tile {letter}: bad edge letter {c}"),
        })
        .collect();
    assert_eq!(edges.len(), 4, "tile {letter}: four edges");

    let mut segments = Vec::new();
    // For each field, the edges named after `touches`, resolved below.
    let mut touch_edges: Vec<Vec<usize>> = Vec::new();
    for part in seg_spec.split(';') {
        let words: Vec<&str> = part.split_whitespace().collect();
        let kind = match words[0] {
            "monastery" => Kind::Monastery,
            "road" => Kind::Road,
            "city" => Kind::City,
            "field" => Kind::Field,
            w => panic!("tile {letter}: bad segment kind {w}"),
        };
        let mut seg = Segment {
            kind,
            edges: Vec::new(),
            ports: Vec::new(),
            shield: false,
            touches: Vec::new(),
        };
        let mut touches = Vec::new();
        let mut after_touches = false;
        for &w in &words[1..] {
            if w == "shield" {
                assert_eq!(kind, Kind::City, "tile {letter}: shield on a non-city");
                seg.shield = true;
            } else if w == "touches" {
                assert_eq!(kind, Kind::Field, "tile {letter}: touches on a non-field");
                after_touches = true;
            } else if after_touches {
                touches.push(edge_index(w).expect("touches names an edge"));
            } else if kind == Kind::Field {
                seg.ports.push(port_index(w).expect("field names ports"));
            } else {
                seg.edges
                    .push(edge_index(w).expect("road/city names edges"));
            }
        }
        segments.push(seg);
        touch_edges.push(touches);
    }
    for (i, touches) in touch_edges.into_iter().enumerate() {
        for e in touches {
            let city = segments
                .iter()
                .position(|s| s.kind == Kind::City && s.edges.contains(&e))
                .unwrap_or_else(|| panic!("tile {letter}: touches a missing city"));
            segments[i].touches.push(city);
        }
    }

    // Consistency: every city/road edge belongs to exactly one segment of
    // that kind; every port of a road or field edge to exactly one field, and
    // no port of a city edge to any.
    for (e, &k) in edges.iter().enumerate() {
        for kind in [Kind::City, Kind::Road] {
            let n = segments
                .iter()
                .filter(|s| s.kind == kind && s.edges.contains(&e))
                .count();
            assert_eq!(n, usize::from(k == kind), "tile {letter}: edge {e}");
        }
        for p in [2 * e, 2 * e + 1] {
            let n = segments.iter().filter(|s| s.ports.contains(&p)).count();
            assert_eq!(n, usize::from(k != Kind::City), "tile {letter}: port {p}");
        }
    }
    let monasteries = segments
        .iter()
        .filter(|s| s.kind == Kind::Monastery)
        .count();
    assert!(monasteries <= 1, "tile {letter}: one monastery at most");

    Face {
        letter,
        rot: 0,
        edges: [edges[0], edges[1], edges[2], edges[3]],
        segments,
    }
}

/// The same face turned `rot` quarter turns clockwise.
fn rotate(face: &Face, rot: u8) -> Face {
    let r = usize::from(rot);
    let mut edges = face.edges;
    for e in 0..4 {
        edges[(e + r) % 4] = face.edges[e];
    }
    let segments = face
        .segments
        .iter()
        .map(|s| Segment {
            kind: s.kind,
            edges: s.edges.iter().map(|&e| (e + r) % 4).collect(),
            ports: s.ports.iter().map(|&p| (p + 2 * r) % 8).collect(),
            shield: s.shield,
            touches: s.touches.clone(),
        })
        .collect();
    Face {
        letter: face.letter,
        rot,
        edges,
        segments,
    }
}

/// All 24 tile kinds in all four rotations, built once.
fn faces() -> &'static Vec<[Face; 4]> {
    static FACES: OnceLock<Vec<[Face; 4]>> = OnceLock::new();
    FACES.get_or_init(|| {
        TILE_TABLE
            .iter()
            .map(|&(letter, _, edge_spec, seg_spec)| {
                let base = parse_tile(letter, edge_spec, seg_spec);
                [
                    rotate(&base, 0),
                    rotate(&base, 1),
                    rotate(&base, 2),
                    rotate(&base, 3),
                ]
            })
            .collect()
    })
}

/// The face of tile `letter` turned by `rot`, if both are valid.
fn face(letter: char, rot: u8) -> Option<&'static Face> {
    if !letter.is_ascii_uppercase() || letter > 'X' || rot > 3 {
        return None;
    }
    let index = (letter as u8 - b'A') as usize;
    Some(&faces()[index][usize::from(rot)])
}

/// A tile on the board, with the meeple (owner seat) on each of its segments.
#[derive(Clone, Debug)]
struct PlacedTile {
    face: &'static Face,
    meeples: Vec<Option<usize>>,
}

impl PlacedTile {
    fn new(face: &'static Face) -> PlacedTile {
        PlacedTile {
            face,
            meeples: vec![None; face.segments.len()],
        }
    }
}

/// The table of RULES.md §8: cells with |x| <= half_width and
/// |y| <= half_height; with `closes`, its edge acts like a placed tile for
/// closing roads and cities and for surrounding monasteries.
#[derive(Clone, Copy, Debug)]
struct Table {
    half_width: i32,
    half_height: i32,
    closes: bool,
}

impl Table {
    fn holds(&self, pos: Pos) -> bool {
        pos.0.abs() <= self.half_width && pos.1.abs() <= self.half_height
    }
}

/// The board, optionally with one extra (hypothetical) tile laid on top.
struct View<'a> {
    board: &'a HashMap<Pos, PlacedTile>,
    extra: Option<(Pos, &'a PlacedTile)>,
    table: Option<Table>,
}

impl View<'_> {
    fn get(&self, pos: Pos) -> Option<&PlacedTile> {
        match self.extra {
            Some((p, t)) if p == pos => Some(t),
            _ => self.board.get(&pos),
        }
    }

    fn segment(&self, node: Node) -> &Segment {
        &self
            .get(node.0)
            .expect("node on a placed tile")
            .face
            .segments[node.1]
    }

    fn meeple(&self, node: Node) -> Option<usize> {
        self.get(node.0).expect("node on a placed tile").meeples[node.1]
    }

    /// Whether `pos` is beyond a closing table edge.
    fn beyond_closing_edge(&self, pos: Pos) -> bool {
        matches!(self.table, Some(t) if t.closes && !t.holds(pos))
    }

    /// How many of the 8 surrounding cells hold a tile (cells beyond a
    /// closing table edge count as tiles).
    fn neighbours(&self, pos: Pos) -> u32 {
        let mut n = 0;
        for dx in -1..=1 {
            for dy in -1..=1 {
                let q = (pos.0 + dx, pos.1 + dy);
                if (dx, dy) != (0, 0) && (self.get(q).is_some() || self.beyond_closing_edge(q)) {
                    n += 1;
                }
            }
        }
        n
    }

    /// The whole road, city or field that `start` belongs to, by flood fill.
    fn explore(&self, start: Node) -> Feature {
        let kind = self.segment(start).kind;
        assert_ne!(
            kind,
            Kind::Monastery,
            "a monastery is not a connected feature"
        );
        let mut seen: HashSet<Node> = HashSet::default();
        let mut stack = vec![start];
        seen.insert(start);
        let mut tiles: HashSet<Pos> = HashSet::default();
        let mut shields = 0;
        let mut open = false;
        while let Some(node) = stack.pop() {
            let (pos, _) = node;
            let seg = self.segment(node);
            tiles.insert(pos);
            shields += u32::from(seg.shield);
            // Roads and cities continue across edges, fields across ports:
            // (edge crossed, edge or port of the neighbour that faces it).
            let links = seg
                .edges
                .iter()
                .map(|&e| (e, (e + 2) % 4))
                .chain(seg.ports.iter().map(|&p| (p / 2, FACING_PORT[p])));
            for (edge, facing) in links {
                let npos = (pos.0 + DIRS[edge].0, pos.1 + DIRS[edge].1);
                let Some(neighbour) = self.get(npos) else {
                    if !self.beyond_closing_edge(npos) {
                        open = true;
                    }
                    continue;
                };
                let j = neighbour
                    .face
                    .segments
                    .iter()
                    .position(|s| {
                        s.kind == kind
                            && if kind == Kind::Field {
                                s.ports.contains(&facing)
                            } else {
                                s.edges.contains(&facing)
                            }
                    })
                    .expect("matching edges continue the feature");
                if seen.insert((npos, j)) {
                    stack.push((npos, j));
                }
            }
        }
        let mut nodes: Vec<Node> = seen.into_iter().collect();
        nodes.sort();
        Feature {
            kind,
            nodes,
            tiles: tiles.len() as u32,
            shields,
            open,
        }
    }

    /// Whether the feature of `node` (a monastery: the node itself) holds a
    /// meeple.
    fn occupied(&self, node: Node) -> bool {
        if self.segment(node).kind == Kind::Monastery {
            return self.meeple(node).is_some();
        }
        self.explore(node)
            .nodes
            .iter()
            .any(|&n| self.meeple(n).is_some())
    }

    /// Meeples per seat on the given nodes.
    fn count_meeples(&self, nodes: &[Node], players: usize) -> Vec<u32> {
        let mut counts = vec![0; players];
        for &n in nodes {
            if let Some(p) = self.meeple(n) {
                counts[p] += 1;
            }
        }
        counts
    }
}

/// A connected road, city or field.
#[derive(Debug)]
struct Feature {
    kind: Kind,
    /// Every segment of the feature, sorted.
    nodes: Vec<Node>,
    /// Distinct tiles.
    tiles: u32,
    /// Shields on its segments.
    shields: u32,
    /// Some edge (or port) of it has no neighbouring tile.
    open: bool,
}

/// Why a tile may not be placed somewhere.
#[derive(Clone, Copy, Debug)]
enum FitProblem {
    /// The cell already holds a tile.
    Occupied,
    /// No tile shares an edge with the cell.
    NoNeighbour,
    /// The cell is not on the table.
    OffTable,
    /// The tile's edge on this side (0 N .. 3 W) differs from its neighbour's.
    Mismatch(usize),
}

/// The seats with the most meeples, if anyone has a meeple at all.
fn majority(counts: &[u32]) -> Vec<usize> {
    let best = counts.iter().copied().max().unwrap_or(0);
    if best == 0 {
        return Vec::new();
    }
    (0..counts.len()).filter(|&p| counts[p] == best).collect()
}

/// Finds the segment of `face` called `name` (any of its names).
fn segment_named(face: &Face, name: &str) -> Option<usize> {
    face.segments.iter().position(|s| s.has_name(name))
}

/// A game under the rules of RULES.md (no Gifts), kept as simply as possible.
#[derive(Clone, Debug)]
pub struct NaiveGame {
    players: usize,
    farmers: bool,
    table: Option<Table>,
    board: HashMap<Pos, PlacedTile>,
    supply: Vec<u32>,
    scores: Vec<[u32; 4]>,
}

impl NaiveGame {
    /// New game: start tile placed, `players` seats with 7 meeples each, all
    /// scores 0.
    pub fn new(players: usize, farmers: bool) -> NaiveGame {
        let mut board = HashMap::default();
        board.insert((0, 0), PlacedTile::new(face('D', 0).unwrap()));
        NaiveGame {
            players,
            farmers,
            table: None,
            board,
            supply: vec![MEEPLES_PER_PLAYER; players],
            scores: vec![[0; 4]; players],
        }
    }

    /// The same new game on a `width` x `height` table centred on the
    /// start tile, whose edge closes features when `closes`.
    pub fn on_table(mut self, width: i32, height: i32, closes: bool) -> NaiveGame {
        self.table = Some(Table {
            half_width: (width - 1) / 2,
            half_height: (height - 1) / 2,
            closes,
        });
        self
    }

    /// The same new game with tile `letter` instead of D as the start
    /// tile (rotation 0 at the origin).
    pub fn with_start(mut self, letter: char) -> NaiveGame {
        let face = face(letter, 0).expect("a tile letter");
        self.board.insert((0, 0), PlacedTile::new(face));
        self
    }

    fn view(&self) -> View<'_> {
        View {
            board: &self.board,
            extra: None,
            table: self.table,
        }
    }

    /// Why `face` may not go at `pos`, if it may not (RULES.md §2 step 1).
    fn fit_problem(&self, face: &Face, pos: Pos) -> Option<FitProblem> {
        if self.board.contains_key(&pos) {
            return Some(FitProblem::Occupied);
        }
        if matches!(self.table, Some(t) if !t.holds(pos)) {
            return Some(FitProblem::OffTable);
        }
        let mut neighbours = 0;
        for (e, d) in DIRS.iter().enumerate() {
            if let Some(t) = self.board.get(&(pos.0 + d.0, pos.1 + d.1)) {
                neighbours += 1;
                if t.face.edges[(e + 2) % 4] != face.edges[e] {
                    return Some(FitProblem::Mismatch(e));
                }
            }
        }
        if neighbours == 0 {
            return Some(FitProblem::NoNeighbour);
        }
        None
    }

    /// Every legal (x, y, rot) for tile letter `tile` ('A'..='X'), sorted
    /// ascending, all four rotations considered separately even when the
    /// tile is symmetric.
    pub fn legal_placements(&self, tile: char) -> Vec<(i32, i32, u8)> {
        assert!(face(tile, 0).is_some(), "unknown tile letter {tile:?}");
        let mut cells: BTreeSet<Pos> = BTreeSet::new();
        for &(x, y) in self.board.keys() {
            for d in DIRS {
                let cell = (x + d.0, y + d.1);
                if !self.board.contains_key(&cell) {
                    cells.insert(cell);
                }
            }
        }
        let mut out = Vec::new();
        for (x, y) in cells {
            for rot in 0..4 {
                if self.fit_problem(face(tile, rot).unwrap(), (x, y)).is_none() {
                    out.push((x, y, rot));
                }
            }
        }
        out.sort();
        out
    }

    /// Canonical names of the locations where the placing seat could put a
    /// meeple if `tile` were placed at (x, y, rot): every segment of the tile
    /// whose whole connected feature (after placement) holds no meeple;
    /// fields only when farmers are on. Sorted. Ignores the seat's supply.
    /// Empty when the placement is not legal or the tile letter or rotation
    /// is invalid.
    pub fn free_locations(&self, tile: char, x: i32, y: i32, rot: u8) -> Vec<String> {
        let Some(face) = face(tile, rot) else {
            return Vec::new();
        };
        if self.fit_problem(face, (x, y)).is_some() {
            return Vec::new();
        }
        let placed = PlacedTile::new(face);
        let view = View {
            board: &self.board,
            extra: Some(((x, y), &placed)),
            table: self.table,
        };
        let mut out: Vec<String> = face
            .segments
            .iter()
            .enumerate()
            .filter(|(_, s)| s.kind != Kind::Field || self.farmers)
            .filter(|&(i, _)| !view.occupied(((x, y), i)))
            .map(|(_, s)| s.name())
            .collect();
        out.sort();
        out
    }

    /// Play one turn: place the tile (must be legal, else Err with a
    /// reason), optionally a meeple of `player` at `meeple` (any name of a
    /// segment; Err if not on the tile, feature occupied, no meeple left, or
    /// a field with farmers off), then score every road, city and monastery
    /// completed by this placement (majority, ties all score, meeples return
    /// to supply — including a meeple placed this turn on a feature its own
    /// tile completes). On Err the game is unchanged.
    pub fn place(
        &mut self,
        player: usize,
        tile: char,
        x: i32,
        y: i32,
        rot: u8,
        meeple: Option<&str>,
    ) -> Result<(), String> {
        if player >= self.players {
            return Err(format!(
                "no seat {player} in a {}-player game",
                self.players
            ));
        }
        let face = face(tile, rot).ok_or_else(|| format!("bad tile {tile:?} or rotation {rot}"))?;
        let pos = (x, y);
        match self.fit_problem(face, pos) {
            None => {}
            Some(FitProblem::Occupied) => return Err(format!("cell ({x}, {y}) is occupied")),
            Some(FitProblem::NoNeighbour) => {
                return Err(format!("({x}, {y}) has no edge neighbour"))
            }
            Some(FitProblem::OffTable) => return Err(format!("({x}, {y}) is off the table")),
            Some(FitProblem::Mismatch(e)) => {
                return Err(format!(
                    "edge mismatch on the {} side of ({x}, {y})",
                    EDGE_NAMES[e]
                ))
            }
        }

        // Step 2: the meeple, checked against the board with the tile on it.
        let mut placed = PlacedTile::new(face);
        if let Some(name) = meeple {
            let seg = segment_named(face, name)
                .ok_or_else(|| format!("tile {tile} rot {rot} has no location {name:?}"))?;
            if face.segments[seg].kind == Kind::Field && !self.farmers {
                return Err("farmers are off: no meeple on a field".to_string());
            }
            if self.supply[player] == 0 {
                return Err(format!("seat {player} has no meeple left"));
            }
            let view = View {
                board: &self.board,
                extra: Some((pos, &placed)),
                table: self.table,
            };
            if view.occupied((pos, seg)) {
                return Err(format!("the feature at {name} is already occupied"));
            }
            placed.meeples[seg] = Some(player);
            self.supply[player] -= 1;
        }
        self.board.insert(pos, placed);

        // Step 3: score what this placement completed. First collect, then
        // apply, so every completion is judged on the same board.
        let mut events: Vec<(usize, u32, Vec<Node>)> = Vec::new();
        {
            let view = self.view();
            let mut done: HashSet<Node> = HashSet::default();
            for (i, seg) in face.segments.iter().enumerate() {
                if !matches!(seg.kind, Kind::Road | Kind::City) || done.contains(&(pos, i)) {
                    continue;
                }
                let f = view.explore((pos, i));
                done.extend(f.nodes.iter().copied());
                if f.open {
                    continue;
                }
                if f.kind == Kind::Road {
                    events.push((ROAD, f.tiles, f.nodes));
                } else {
                    events.push((CITY, 2 * f.tiles + 2 * f.shields, f.nodes));
                }
            }
            for dx in -1..=1 {
                for dy in -1..=1 {
                    let q = (x + dx, y + dy);
                    let Some(t) = view.get(q) else { continue };
                    for (i, seg) in t.face.segments.iter().enumerate() {
                        if seg.kind == Kind::Monastery && view.neighbours(q) == 8 {
                            events.push((MONASTERY, 9, vec![(q, i)]));
                        }
                    }
                }
            }
        }
        for (category, points, nodes) in events {
            let counts = self.view().count_meeples(&nodes, self.players);
            for p in majority(&counts) {
                self.scores[p][category] += points;
            }
            for (q, i) in nodes {
                let t = self.board.get_mut(&q).unwrap();
                if let Some(owner) = t.meeples[i].take() {
                    self.supply[owner] += 1;
                }
            }
        }
        Ok(())
    }

    /// Scores so far as [road, city, monastery, farm] per seat.
    pub fn scores(&self) -> Vec<[u32; 4]> {
        self.scores.clone()
    }

    /// Scores if the game ended now: current scores plus final scoring of
    /// every meeple on the board (incomplete road 1/tile, incomplete city
    /// 1/tile + 1/shield, incomplete monastery 1 + neighbours present, farms
    /// 3 per completed city touching the field to the farmer majority when
    /// farmers are on). Does not modify the game.
    pub fn final_scores(&self) -> Vec<[u32; 4]> {
        let view = self.view();
        let mut scores = self.scores.clone();
        let mut done: HashSet<Node> = HashSet::default();
        // City node -> (city id, complete), filled lazily for farms.
        let mut cities: HashMap<Node, (usize, bool)> = HashMap::default();
        let mut next_city = 0;

        let mut positions: Vec<Pos> = self.board.keys().copied().collect();
        positions.sort();
        for pos in positions {
            let t = &self.board[&pos];
            for (i, seg) in t.face.segments.iter().enumerate() {
                let node = (pos, i);
                if t.meeples[i].is_none() || done.contains(&node) {
                    continue;
                }
                let (category, points, nodes) = match seg.kind {
                    Kind::Monastery => (MONASTERY, 1 + view.neighbours(pos), vec![node]),
                    Kind::Road | Kind::City => {
                        let f = view.explore(node);
                        assert!(f.open, "a completed feature still holds a meeple");
                        let points = if f.kind == Kind::Road {
                            f.tiles
                        } else {
                            f.tiles + f.shields
                        };
                        let category = if f.kind == Kind::Road { ROAD } else { CITY };
                        (category, points, f.nodes)
                    }
                    Kind::Field => {
                        let f = view.explore(node);
                        let mut completed: BTreeSet<usize> = BTreeSet::new();
                        for &(q, j) in &f.nodes {
                            for &c in &view.segment((q, j)).touches {
                                let city_node = (q, c);
                                if !cities.contains_key(&city_node) {
                                    let city = view.explore(city_node);
                                    for &n in &city.nodes {
                                        cities.insert(n, (next_city, !city.open));
                                    }
                                    next_city += 1;
                                }
                                let (id, complete) = cities[&city_node];
                                if complete {
                                    completed.insert(id);
                                }
                            }
                        }
                        (FARM, 3 * completed.len() as u32, f.nodes)
                    }
                };
                let counts = view.count_meeples(&nodes, self.players);
                for p in majority(&counts) {
                    scores[p][category] += points;
                }
                done.extend(nodes);
            }
        }
        scores
    }

    /// Meeples in supply for `player`.
    pub fn supply(&self, player: usize) -> u32 {
        self.supply[player]
    }

    /// Number of meeples on the board per seat.
    pub fn meeples_on_board(&self, player: usize) -> u32 {
        self.board
            .values()
            .flat_map(|t| t.meeples.iter())
            .filter(|&&m| m == Some(player))
            .count() as u32
    }
}
