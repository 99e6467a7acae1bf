//! The 24 tile kinds of the base game (RULES.md §6) as constant data, with
//! every rotation and the "does it fit" table computed at compile time.
//!
//! A tile is a list of *segments* (a road, city, monastery or field piece),
//! each with the edges or field ports it reaches. Segment indices are fixed
//! per kind and do not change with rotation; only the edges and ports they
//! reach rotate.

use crate::geom::{Location, Port, Rotation, Side};
use std::fmt;
use std::str::FromStr;

/// What a tile edge shows; neighbours must show the same thing.
///
/// # Examples
/// ```
/// use engine::{Edge, Side, Tile};
///
/// let d = Tile::START.def(); // city north, road west–east
/// assert_eq!(d.edges[Side::N.index()], Edge::City);
/// assert_eq!(d.edges[Side::E.index()], Edge::Road);
/// assert_eq!(d.edges[Side::S.index()], Edge::Field);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Edge {
    /// A city wall opening.
    City = 1,
    /// A road.
    Road = 2,
    /// Field only.
    Field = 3,
}

/// The kind of a feature (and of the segments it is made of).
///
/// # Examples
/// ```
/// use engine::{FeatureKind, Tile};
///
/// let kinds: Vec<FeatureKind> = Tile::A.def().segments.iter().map(|s| s.kind).collect();
/// assert_eq!(kinds, [FeatureKind::Monastery, FeatureKind::Road, FeatureKind::Field]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FeatureKind {
    /// A road (highwaymen).
    Road,
    /// A city (knights).
    City,
    /// A monastery (monks).
    Monastery,
    /// A field (farmers).
    Field,
}

/// One segment of a tile in canonical orientation.
///
/// # Examples
/// ```
/// use engine::{FeatureKind, Tile};
///
/// let city = &Tile::C.def().segments[0]; // the four-sided city
/// assert_eq!(city.kind, FeatureKind::City);
/// assert_eq!((city.edges, city.open), (0b1111, 4));
/// assert!(city.shield);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SegmentDef {
    /// What the segment is.
    pub kind: FeatureKind,
    /// Bit `s` set when the segment reaches the middle of side `s` (roads
    /// and cities).
    pub edges: u8,
    /// Bit `p` set when the field touches port `p` (fields).
    pub ports: u8,
    /// A shield (coat of arms) in this city segment.
    pub shield: bool,
    /// Open ends of a road or open edges of a city: the edges it reaches.
    pub open: u8,
    /// For fields: bit `i` set when the field borders city segment `i`.
    pub touches: u8,
}

/// Most segments on one tile (tile X: four roads and four fields).
///
/// # Examples
/// ```
/// use engine::{Tile, MAX_SEGMENTS};
///
/// assert_eq!(Tile::ALL.iter().map(|t| t.segment_count()).max(), Some(MAX_SEGMENTS));
/// ```
pub const MAX_SEGMENTS: usize = 8;

/// The constant description of a tile kind.
///
/// # Examples
/// ```
/// use engine::Tile;
///
/// let total: u32 = Tile::ALL.iter().map(|t| t.def().count as u32).sum();
/// assert_eq!(total, 72);
/// assert_eq!(Tile::X.def().segments.len(), 8);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct TileDef {
    /// Copies in the game, the start tile included.
    pub count: u8,
    /// The edges N, E, S, W in canonical orientation.
    pub edges: [Edge; 4],
    /// Segments, at most [`MAX_SEGMENTS`].
    pub segments: &'static [SegmentDef],
}

/// One of the 24 tile kinds, A–X.
///
/// # Examples
/// ```
/// use engine::{Edge, Rotation, Side, Tile};
///
/// let u: Tile = "U".parse().unwrap();
/// assert_eq!(u.def().count, 8);
/// // Everything a renderer needs, per rotation: edges and segment locations.
/// let turned = u.oriented(Rotation::new(1).unwrap());
/// assert_eq!(turned.edges[Side::E.index()], Edge::Road);
/// assert_eq!(u.segment_count(), 3); // a road and two fields
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Tile {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
    I,
    J,
    K,
    L,
    M,
    N,
    O,
    P,
    Q,
    R,
    S,
    T,
    U,
    V,
    W,
    X,
}

impl Tile {
    /// Number of tile kinds.
    ///
    /// # Examples
    /// ```
    /// use engine::Tile;
    ///
    /// assert_eq!(Tile::ALL.len(), Tile::COUNT);
    /// ```
    pub const COUNT: usize = 24;
    /// Every kind, A to X.
    ///
    /// # Examples
    /// ```
    /// use engine::Tile;
    ///
    /// let letters: String = Tile::ALL.iter().map(|t| t.letter()).collect();
    /// assert_eq!(letters, "ABCDEFGHIJKLMNOPQRSTUVWX");
    /// ```
    pub const ALL: [Tile; 24] = [
        Tile::A,
        Tile::B,
        Tile::C,
        Tile::D,
        Tile::E,
        Tile::F,
        Tile::G,
        Tile::H,
        Tile::I,
        Tile::J,
        Tile::K,
        Tile::L,
        Tile::M,
        Tile::N,
        Tile::O,
        Tile::P,
        Tile::Q,
        Tile::R,
        Tile::S,
        Tile::T,
        Tile::U,
        Tile::V,
        Tile::W,
        Tile::X,
    ];
    /// The start tile's kind.
    ///
    /// # Examples
    /// ```
    /// use engine::{Pos, Rules, Seat, State, Tile};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.board().at(Pos::ORIGIN).unwrap().tile, Tile::START);
    /// ```
    pub const START: Tile = Tile::D;

    /// The kind with index 0–23.
    ///
    /// # Panics
    /// If `i` is not below [`Tile::COUNT`].
    ///
    /// # Examples
    /// ```
    /// use engine::Tile;
    ///
    /// assert_eq!(Tile::from_index(3), Tile::D);
    /// assert!(Tile::ALL.iter().all(|t| Tile::from_index(t.index()) == *t));
    /// ```
    #[inline]
    pub const fn from_index(i: usize) -> Tile {
        Tile::ALL[i]
    }

    /// Index 0–23.
    ///
    /// # Examples
    /// ```
    /// use engine::Tile;
    ///
    /// assert_eq!(Tile::X.index(), 23);
    /// ```
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter of this kind.
    ///
    /// # Examples
    /// ```
    /// use engine::Tile;
    ///
    /// assert_eq!(Tile::V.letter(), 'V');
    /// assert_eq!(Tile::V.to_string(), "V");
    /// ```
    pub const fn letter(self) -> char {
        (b'A' + self as u8) as char
    }

    /// The constant description.
    ///
    /// # Examples
    /// ```
    /// use engine::{Edge, Tile};
    ///
    /// assert_eq!(Tile::U.def().count, 8);
    /// assert_eq!(Tile::U.def().edges, [Edge::Road, Edge::Field, Edge::Road, Edge::Field]);
    /// ```
    #[inline]
    pub const fn def(self) -> &'static TileDef {
        &TILE_DEFS[self as usize]
    }

    /// The tile's geometry in rotation `rot`, in board orientation.
    ///
    /// # Examples
    /// ```
    /// use engine::{Edge, Location, Rotation, Side, Tile};
    ///
    /// let u = Tile::U.oriented(Rotation::new(1).unwrap()); // the road now runs west–east
    /// assert_eq!(u.edges[Side::W.index()], Edge::Road);
    /// assert_eq!(u.canonical[0], Location::Edge(Side::E));
    /// ```
    #[inline]
    pub const fn oriented(self, rot: Rotation) -> &'static Oriented {
        &ORIENTED[self as usize][rot.quarter_turns() as usize]
    }

    /// Number of segments.
    ///
    /// # Examples
    /// ```
    /// use engine::Tile;
    ///
    /// assert_eq!((Tile::B.segment_count(), Tile::X.segment_count()), (2, 8));
    /// ```
    #[inline]
    pub const fn segment_count(self) -> usize {
        self.def().segments.len()
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A tile name that is not a letter A–X.
///
/// # Examples
/// ```
/// use engine::Tile;
///
/// let err = "Y".parse::<Tile>().unwrap_err();
/// assert_eq!(err.0, "Y");
/// assert_eq!(err.to_string(), "unknown tile \"Y\" (expected a letter A to X)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTileError(pub String);

impl fmt::Display for ParseTileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown tile {:?} (expected a letter A to X)", self.0)
    }
}

impl std::error::Error for ParseTileError {}

impl FromStr for Tile {
    type Err = ParseTileError;

    fn from_str(s: &str) -> Result<Tile, ParseTileError> {
        match s.as_bytes() {
            [c @ b'A'..=b'X'] => Ok(Tile::from_index((c - b'A') as usize)),
            _ => Err(ParseTileError(s.to_string())),
        }
    }
}

// ---------------------------------------------------------------------------
// The tile table (RULES.md §6).

const N: u8 = 1 << 0;
const E: u8 = 1 << 1;
const S: u8 = 1 << 2;
const W: u8 = 1 << 3;

const NNW: u8 = 1 << 0;
const NNE: u8 = 1 << 1;
const ENE: u8 = 1 << 2;
const ESE: u8 = 1 << 3;
const SSE: u8 = 1 << 4;
const SSW: u8 = 1 << 5;
const WSW: u8 = 1 << 6;
const WNW: u8 = 1 << 7;
const ALL_PORTS: u8 = 0xff;

const fn road(edges: u8) -> SegmentDef {
    SegmentDef {
        kind: FeatureKind::Road,
        edges,
        ports: 0,
        shield: false,
        open: edges.count_ones() as u8,
        touches: 0,
    }
}

const fn city(edges: u8, shield: bool) -> SegmentDef {
    SegmentDef {
        kind: FeatureKind::City,
        edges,
        ports: 0,
        shield,
        open: edges.count_ones() as u8,
        touches: 0,
    }
}

const MONASTERY: SegmentDef = SegmentDef {
    kind: FeatureKind::Monastery,
    edges: 0,
    ports: 0,
    shield: false,
    open: 0,
    touches: 0,
};

/// A field touching `ports`, bordering the city segments whose indices are
/// the bits of `touches`.
const fn field(ports: u8, touches: u8) -> SegmentDef {
    SegmentDef {
        kind: FeatureKind::Field,
        edges: 0,
        ports,
        shield: false,
        open: 0,
        touches,
    }
}

use Edge::{City as Ci, Field as Fi, Road as Ro};

const fn def(count: u8, edges: [Edge; 4], segments: &'static [SegmentDef]) -> TileDef {
    TileDef {
        count,
        edges,
        segments,
    }
}

/// The 24 kinds. In `field(ports, touches)`, `touches` names city segments
/// by index in the same list (bit 0 = segment 0).
const TILE_DEFS: [TileDef; 24] = [
    // A: monastery; road S ends at it; one field.
    def(
        2,
        [Fi, Fi, Ro, Fi],
        &[MONASTERY, road(S), field(ALL_PORTS, 0)],
    ),
    // B: monastery; one field.
    def(4, [Fi, Fi, Fi, Fi], &[MONASTERY, field(ALL_PORTS, 0)]),
    // C: city on all four edges with a shield.
    def(1, [Ci, Ci, Ci, Ci], &[city(N | E | S | W, true)]),
    // D: city N; road W–E; field north of the road touches the city.
    def(
        4,
        [Ci, Ro, Fi, Ro],
        &[
            city(N, false),
            road(W | E),
            field(WNW | ENE, 0b1),
            field(ESE | SSE | SSW | WSW, 0),
        ],
    ),
    // E: city N; one field touching it.
    def(
        5,
        [Ci, Fi, Fi, Fi],
        &[
            city(N, false),
            field(ENE | ESE | SSE | SSW | WSW | WNW, 0b1),
        ],
    ),
    // F: city W–E with a shield; fields north and south touch it.
    def(
        2,
        [Fi, Ci, Fi, Ci],
        &[
            city(E | W, true),
            field(NNW | NNE, 0b1),
            field(SSE | SSW, 0b1),
        ],
    ),
    // G: city N–S; fields east and west touch it.
    def(
        1,
        [Ci, Fi, Ci, Fi],
        &[
            city(N | S, false),
            field(ENE | ESE, 0b1),
            field(WSW | WNW, 0b1),
        ],
    ),
    // H: two separate cities E and W; one field touching both.
    def(
        3,
        [Fi, Ci, Fi, Ci],
        &[
            city(E, false),
            city(W, false),
            field(NNW | NNE | SSE | SSW, 0b11),
        ],
    ),
    // I: two separate cities E and S; one field touching both.
    def(
        2,
        [Fi, Ci, Ci, Fi],
        &[
            city(E, false),
            city(S, false),
            field(NNW | NNE | WSW | WNW, 0b11),
        ],
    ),
    // J: city N; road E–S.
    def(
        3,
        [Ci, Ro, Ro, Fi],
        &[
            city(N, false),
            road(E | S),
            field(ESE | SSE, 0),
            field(ENE | SSW | WSW | WNW, 0b1),
        ],
    ),
    // K: city N; road S–W.
    def(
        3,
        [Ci, Fi, Ro, Ro],
        &[
            city(N, false),
            road(S | W),
            field(SSW | WSW, 0),
            field(ENE | ESE | SSE | WNW, 0b1),
        ],
    ),
    // L: city N; three roads ending at a village.
    def(
        3,
        [Ci, Ro, Ro, Ro],
        &[
            city(N, false),
            road(E),
            road(S),
            road(W),
            field(WNW | ENE, 0b1),
            field(ESE | SSE, 0),
            field(SSW | WSW, 0),
        ],
    ),
    // M: city N–W with a shield.
    def(
        2,
        [Ci, Fi, Fi, Ci],
        &[city(N | W, true), field(ENE | ESE | SSE | SSW, 0b1)],
    ),
    // N: city N–W.
    def(
        3,
        [Ci, Fi, Fi, Ci],
        &[city(N | W, false), field(ENE | ESE | SSE | SSW, 0b1)],
    ),
    // O: city N–W with a shield; road E–S.
    def(
        2,
        [Ci, Ro, Ro, Ci],
        &[
            city(N | W, true),
            road(E | S),
            field(ESE | SSE, 0),
            field(ENE | SSW, 0b1),
        ],
    ),
    // P: city N–W; road E–S.
    def(
        3,
        [Ci, Ro, Ro, Ci],
        &[
            city(N | W, false),
            road(E | S),
            field(ESE | SSE, 0),
            field(ENE | SSW, 0b1),
        ],
    ),
    // Q: city N–E–W with a shield.
    def(
        1,
        [Ci, Ci, Fi, Ci],
        &[city(N | E | W, true), field(SSE | SSW, 0b1)],
    ),
    // R: city N–E–W.
    def(
        3,
        [Ci, Ci, Fi, Ci],
        &[city(N | E | W, false), field(SSE | SSW, 0b1)],
    ),
    // S: city N–E–W with a shield; road S ends at the city.
    def(
        2,
        [Ci, Ci, Ro, Ci],
        &[
            city(N | E | W, true),
            road(S),
            field(SSW, 0b1),
            field(SSE, 0b1),
        ],
    ),
    // T: city N–E–W; road S ends at the city.
    def(
        1,
        [Ci, Ci, Ro, Ci],
        &[
            city(N | E | W, false),
            road(S),
            field(SSW, 0b1),
            field(SSE, 0b1),
        ],
    ),
    // U: straight road N–S.
    def(
        8,
        [Ro, Fi, Ro, Fi],
        &[
            road(N | S),
            field(NNE | ENE | ESE | SSE, 0),
            field(SSW | WSW | WNW | NNW, 0),
        ],
    ),
    // V: road S–W (curve).
    def(
        9,
        [Fi, Fi, Ro, Ro],
        &[
            road(S | W),
            field(SSW | WSW, 0),
            field(WNW | NNW | NNE | ENE | ESE | SSE, 0),
        ],
    ),
    // W: three roads E, S, W ending at a village.
    def(
        4,
        [Fi, Ro, Ro, Ro],
        &[
            road(E),
            road(S),
            road(W),
            field(WNW | NNW | NNE | ENE, 0),
            field(ESE | SSE, 0),
            field(SSW | WSW, 0),
        ],
    ),
    // X: four roads ending at a village.
    def(
        1,
        [Ro, Ro, Ro, Ro],
        &[
            road(N),
            road(E),
            road(S),
            road(W),
            field(NNE | ENE, 0),
            field(ESE | SSE, 0),
            field(SSW | WSW, 0),
            field(WNW | NNW, 0),
        ],
    ),
];

// ---------------------------------------------------------------------------
// Rotated geometry.

/// "No segment here."
///
/// # Examples
/// ```
/// use engine::{Rotation, Tile, NO_SEGMENT};
///
/// let b = Tile::B.oriented(Rotation::default()); // a monastery in a field
/// assert_eq!(b.edge_segment, [NO_SEGMENT; 4]);
/// assert_ne!(b.monastery, NO_SEGMENT);
/// ```
pub const NO_SEGMENT: u8 = u8::MAX;

/// A tile kind in one rotation, in board orientation.
///
/// # Examples
/// ```
/// use engine::{Edge, Location, Port, Rotation, Side, Tile, NO_SEGMENT};
///
/// let d = Tile::D.oriented(Rotation::new(2).unwrap()); // the start tile upside down
/// assert_eq!(d.edges, [Edge::Field, Edge::Road, Edge::City, Edge::Road]);
/// assert_eq!(d.edge_segment[Side::S.index()], 0); // the city
/// assert_eq!(d.port_segment[Port::Nnw.index()], 3); // the field away from the city
/// assert_eq!(d.monastery, NO_SEGMENT);
/// assert_eq!(d.canonical[0], Location::Edge(Side::S));
/// assert!(!d.multi_piece);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Oriented {
    /// Edge shown on each side N, E, S, W.
    pub edges: [Edge; 4],
    /// Road or city segment reaching each side, or [`NO_SEGMENT`].
    pub edge_segment: [u8; 4],
    /// Field segment touching each port, or [`NO_SEGMENT`].
    pub port_segment: [u8; 8],
    /// The monastery segment, or [`NO_SEGMENT`].
    pub monastery: u8,
    /// Canonical location name of each segment (RULES.md §7).
    pub canonical: [Location; MAX_SEGMENTS],
    /// The tile holds two or more separate road segments (L, W, X) or two
    /// or more separate city segments (H, I). A feature that later joins
    /// two of them must still count the tile once.
    pub multi_piece: bool,
}

const fn rotate_edge_bits(bits: u8, rot: usize) -> u8 {
    ((bits << rot) | (bits >> (4 - rot))) & 0xf
}

const fn rotate_port_bits(bits: u8, rot: usize) -> u8 {
    if rot == 0 {
        bits
    } else {
        bits.rotate_left(2 * rot as u32)
    }
}

const fn orient(def: &TileDef, rot: usize) -> Oriented {
    let mut o = Oriented {
        edges: [Edge::Field; 4],
        edge_segment: [NO_SEGMENT; 4],
        port_segment: [NO_SEGMENT; 8],
        monastery: NO_SEGMENT,
        canonical: [Location::Monastery; MAX_SEGMENTS],
        multi_piece: false,
    };
    let mut side = 0;
    while side < 4 {
        o.edges[(side + rot) & 3] = def.edges[side];
        side += 1;
    }
    let mut roads = 0;
    let mut cities = 0;
    let mut i = 0;
    while i < def.segments.len() {
        let seg = &def.segments[i];
        match seg.kind {
            FeatureKind::Road | FeatureKind::City => {
                if matches!(seg.kind, FeatureKind::Road) {
                    roads += 1;
                } else {
                    cities += 1;
                }
                let bits = rotate_edge_bits(seg.edges, rot);
                let first = bits.trailing_zeros() as usize;
                o.canonical[i] = Location::Edge(Side::from_index(first));
                let mut s = 0;
                while s < 4 {
                    if bits & (1 << s) != 0 {
                        o.edge_segment[s] = i as u8;
                    }
                    s += 1;
                }
            }
            FeatureKind::Monastery => {
                o.monastery = i as u8;
                o.canonical[i] = Location::Monastery;
            }
            FeatureKind::Field => {
                let bits = rotate_port_bits(seg.ports, rot);
                let first = bits.trailing_zeros() as usize;
                o.canonical[i] = Location::Field(Port::from_index(first));
                let mut p = 0;
                while p < 8 {
                    if bits & (1 << p) != 0 {
                        o.port_segment[p] = i as u8;
                    }
                    p += 1;
                }
            }
        }
        i += 1;
    }
    o.multi_piece = roads > 1 || cities > 1;
    o
}

const fn build_oriented() -> [[Oriented; 4]; 24] {
    let blank = orient(&TILE_DEFS[0], 0);
    let mut out = [[blank; 4]; 24];
    let mut t = 0;
    while t < 24 {
        let mut r = 0;
        while r < 4 {
            out[t][r] = orient(&TILE_DEFS[t], r);
            r += 1;
        }
        t += 1;
    }
    out
}

static ORIENTED: [[Oriented; 4]; 24] = build_oriented();

// A city edge has no field port; a road or field edge has a field on both
// of its ports (`State::put_tile` joins across a side by its edge alone).
const _: () = {
    let all = build_oriented();
    let mut t = 0;
    while t < 24 {
        let mut r = 0;
        while r < 4 {
            let o = &all[t][r];
            let mut s = 0;
            while s < 4 {
                let ports = [o.port_segment[2 * s], o.port_segment[2 * s + 1]];
                let city = matches!(o.edges[s], Edge::City);
                assert!(city == (ports[0] == NO_SEGMENT) && city == (ports[1] == NO_SEGMENT));
                assert!((o.edge_segment[s] != NO_SEGMENT) == !matches!(o.edges[s], Edge::Field));
                s += 1;
            }
            r += 1;
        }
        t += 1;
    }
};

/// What an empty cell's neighbours demand: two bits per side (bits `2s`,
/// `2s+1` for side `s`), 0 = no neighbour, else the [`Edge`] the tile
/// placed here must show on that side.
///
/// # Examples
/// ```
/// use engine::{Edge, Pos, Rules, Seat, Side, State};
///
/// let state = State::new(Rules::default(), 2, Seat(0));
/// // North of the start tile, the new tile must show a city on its south side.
/// let demand = state.board().demand_at(Pos::new(0, 1));
/// assert_eq!(demand, (Edge::City as u8) << (2 * Side::S.index()));
/// ```
pub type Demand = u8;

/// The fit-table entry of tile kind `t` for `demand`: the fitting
/// rotations in bits 0–3, their number in bits 4–6.
const fn fit_entry(t: usize, demand: usize) -> u8 {
    let mut mask = 0u8;
    let mut r = 0;
    while r < 4 {
        let o = orient(&TILE_DEFS[t], r);
        let mut ok = true;
        let mut s = 0;
        while s < 4 {
            let want = (demand >> (2 * s)) & 3;
            if want != 0 && want != o.edges[s] as usize {
                ok = false;
            }
            s += 1;
        }
        if ok {
            mask |= 1 << r;
        }
        r += 1;
    }
    mask | ((mask.count_ones() as u8) << 4)
}

const fn build_fits() -> [[u8; 256]; 24] {
    let mut out = [[0u8; 256]; 24];
    let mut t = 0;
    while t < 24 {
        let mut demand = 0;
        while demand < 256 {
            out[t][demand] = fit_entry(t, demand);
            demand += 1;
        }
        t += 1;
    }
    out
}

/// Per demand, the number of fitting rotations of each tile kind: what an
/// open cell with that demand adds to each kind's placements.
pub(crate) const fn fit_counts_for(demand: usize) -> [u8; 24] {
    let mut out = [0u8; 24];
    let mut t = 0;
    while t < 24 {
        out[t] = fit_entry(t, demand) >> 4;
        t += 1;
    }
    out
}

const fn build_fit_counts() -> [[u16; 24]; 256] {
    let mut out = [[0u16; 24]; 256];
    let mut demand = 0;
    while demand < 256 {
        let counts = fit_counts_for(demand);
        let mut t = 0;
        while t < 24 {
            out[demand][t] = counts[t] as u16;
            t += 1;
        }
        demand += 1;
    }
    out
}

/// [`fit_counts_for`] for every demand (the fit table transposed), as
/// `u16` so adding a row to the per-kind totals is plain vector adds.
static FIT_COUNTS: [[u16; 24]; 256] = build_fit_counts();

/// The number of fitting rotations of each tile kind (by index) at an open
/// cell with `demand`.
#[inline]
pub(crate) fn fit_counts(demand: Demand) -> &'static [u16; 24] {
    &FIT_COUNTS[demand as usize]
}

/// Per tile kind and demand: the fitting rotations in the low four bits,
/// their number in the high four (the engine targets plain x86-64, which
/// has no popcount instruction).
static FITS: [[u8; 256]; 24] = build_fits();

/// The rotations (bit `r` for rotation `r`) in which `tile` meets every
/// neighbour's demand.
///
/// # Examples
/// ```
/// use engine::{fitting_rotations, Edge, Side, Tile};
///
/// let city_south = (Edge::City as u8) << (2 * Side::S.index());
/// assert_eq!(fitting_rotations(Tile::E, city_south), 0b0100); // E's city turned south
/// assert_eq!(fitting_rotations(Tile::B, city_south), 0); // B has no city
/// assert_eq!(fitting_rotations(Tile::B, 0), 0b1111); // no demand: every rotation
/// ```
#[inline]
pub fn fitting_rotations(tile: Tile, demand: Demand) -> u8 {
    FITS[tile as usize][demand as usize] & 0xf
}

/// Per tile kind, its road and city segments (bit `i` for segment `i`).
static ROADS_AND_CITIES: [u16; 24] = {
    let mut out = [0u16; 24];
    let mut t = 0;
    while t < 24 {
        let segments = TILE_DEFS[t].segments;
        let mut i = 0;
        while i < segments.len() {
            if matches!(segments[i].kind, FeatureKind::Road | FeatureKind::City) {
                out[t] |= 1 << i;
            }
            i += 1;
        }
        t += 1;
    }
    out
};

/// The road and city segments of `tile` (bit `i` for segment `i`).
#[inline]
pub(crate) fn roads_and_cities(tile: Tile) -> u16 {
    ROADS_AND_CITIES[tile as usize]
}

/// Per tile kind, the segments a meeple may take: `[0]` without farmers
/// (roads, cities and monasteries), `[1]` with them (every segment).
static MEEPLE_SEGMENTS: [[u8; 2]; 24] = {
    let mut out = [[0u8; 2]; 24];
    let mut t = 0;
    while t < 24 {
        let segments = TILE_DEFS[t].segments;
        let mut i = 0;
        while i < segments.len() {
            if !matches!(segments[i].kind, FeatureKind::Field) {
                out[t][0] |= 1 << i;
            }
            out[t][1] |= 1 << i;
            i += 1;
        }
        t += 1;
    }
    out
};

/// The segments of `tile` a meeple may take (bit `i` for segment `i`):
/// all of them with `farmers`, else all but the fields.
#[inline]
pub(crate) fn meeple_segments(tile: Tile, farmers: bool) -> u8 {
    MEEPLE_SEGMENTS[tile as usize][usize::from(farmers)]
}

/// Per tile kind and demand: the number of fitting rotations (the high
/// half of [`FITS`] on its own, so a walk over cells adds bytes as they are).
static FIT_NUMBERS: [[u8; 256]; 24] = {
    let mut out = [[0u8; 256]; 24];
    let mut t = 0;
    while t < 24 {
        let mut demand = 0;
        while demand < 256 {
            out[t][demand] = FITS[t][demand] >> 4;
            demand += 1;
        }
        t += 1;
    }
    out
};

/// The number of fitting rotations of `tile` for each demand.
#[inline]
pub(crate) fn fit_number_row(tile: Tile) -> &'static [u8; 256] {
    &FIT_NUMBERS[tile as usize]
}

/// The row of the fit table for `tile`: entry `d` holds the fitting
/// rotations for demand `d` in bits 0–3 and their count in bits 4–6.
#[inline]
pub(crate) fn fit_row(tile: Tile) -> &'static [u8; 256] {
    &FITS[tile as usize]
}

/// The location of `tile` in rotation `rot` resolved to a segment index, if
/// the tile has such a segment.
///
/// # Examples
/// ```
/// use engine::{segment_at, Location, Port, Rotation, Side, Tile};
///
/// let r0 = Rotation::default();
/// assert_eq!(segment_at(Tile::D, r0, Location::Edge(Side::N)), Some(0)); // the city
/// assert_eq!(segment_at(Tile::D, r0, Location::Field(Port::Wnw)), Some(2));
/// assert_eq!(segment_at(Tile::D, r0, Location::Monastery), None);
/// ```
pub fn segment_at(tile: Tile, rot: Rotation, loc: Location) -> Option<u8> {
    let o = tile.oriented(rot);
    let seg = match loc {
        Location::Edge(side) => o.edge_segment[side.index()],
        Location::Monastery => o.monastery,
        Location::Field(port) => o.port_segment[port.index()],
    };
    (seg != NO_SEGMENT).then_some(seg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_72_tiles_6_monasteries_and_10_shields() {
        let total: u32 = Tile::ALL.iter().map(|t| t.def().count as u32).sum();
        assert_eq!(total, 72);
        let count_where = |pred: &dyn Fn(&SegmentDef) -> bool| -> u32 {
            Tile::ALL
                .iter()
                .map(|t| {
                    t.def().segments.iter().filter(|s| pred(s)).count() as u32
                        * t.def().count as u32
                })
                .sum()
        };
        assert_eq!(count_where(&|s| s.kind == FeatureKind::Monastery), 6);
        assert_eq!(count_where(&|s| s.shield), 10);
    }

    #[test]
    fn segments_agree_with_the_edges_they_reach() {
        for t in Tile::ALL {
            let d = t.def();
            assert!(d.segments.len() <= MAX_SEGMENTS);
            let mut ports = 0u8;
            for (i, seg) in d.segments.iter().enumerate() {
                for s in 0..4 {
                    if seg.edges & (1 << s) != 0 {
                        let want = if seg.kind == FeatureKind::Road {
                            Edge::Road
                        } else {
                            Edge::City
                        };
                        assert_eq!(d.edges[s], want, "tile {t} segment {i}");
                    }
                }
                assert_eq!(ports & seg.ports, 0, "tile {t}: a port in two fields");
                ports |= seg.ports;
                for c in 0..8 {
                    if seg.touches & (1 << c) != 0 {
                        assert_eq!(d.segments[c].kind, FeatureKind::City, "tile {t}");
                    }
                }
            }
            // Fields lie along field edges and on both sides of a road; a
            // city edge has no field port.
            for s in 0..4 {
                let ports_here = (ports >> (2 * s)) & 3;
                let want = if d.edges[s] == Edge::City { 0 } else { 3 };
                assert_eq!(ports_here, want, "tile {t} side {s}");
            }
        }
    }

    #[test]
    fn rotation_moves_the_city_of_e_around() {
        let r = |n| Rotation::new(n).unwrap();
        assert_eq!(Tile::E.oriented(r(0)).edges[0], Edge::City);
        assert_eq!(Tile::E.oriented(r(1)).edges[1], Edge::City);
        assert_eq!(Tile::E.oriented(r(2)).edges[2], Edge::City);
        assert_eq!(Tile::E.oriented(r(3)).edges[3], Edge::City);
        // U in rotation 1: road W–E; its canonical field NNE.. becomes the
        // southern field named ESE, the other the northern one named NNW.
        let u = Tile::U.oriented(r(1));
        assert_eq!(u.canonical[0], Location::Edge(Side::E));
        assert_eq!(u.canonical[1], Location::Field(Port::Ese));
        assert_eq!(u.canonical[2], Location::Field(Port::Nnw));
        assert_eq!(segment_at(Tile::U, r(1), "NNE".parse().unwrap()), Some(2));
        assert_eq!(segment_at(Tile::U, r(1), Location::Monastery), None);
    }

    #[test]
    fn fits_table_checks_every_demanded_side() {
        // Demand city on the south side (neighbour to the south shows city).
        let demand = (Edge::City as u8) << (2 * Side::S.index());
        assert_eq!(fitting_rotations(Tile::E, demand), 0b0100);
        assert_eq!(fitting_rotations(Tile::B, demand), 0);
        assert_eq!(fitting_rotations(Tile::C, demand), 0b1111);
        assert_eq!(fitting_rotations(Tile::B, 0), 0b1111);
    }

    #[test]
    fn tiles_parse_from_letters() {
        for t in Tile::ALL {
            assert_eq!(t.to_string().parse::<Tile>(), Ok(t));
        }
        assert!("Y".parse::<Tile>().is_err());
        assert!("AB".parse::<Tile>().is_err());
    }
}
