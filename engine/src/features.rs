//! Features as a union-find over tile segments.
//!
//! Every segment of a placed tile has an id, `slot * MAX_SEGMENTS + index`,
//! where `slot` is the tile's placement order. Segments joined across tile
//! edges share a root, and the root keeps what scoring needs: open edges,
//! distinct tiles, shields and meeples. "Is it complete" and "is it
//! occupied" are then one `root` away.
//!
//! Every segment points straight at its root (one-step roots): a union
//! relabels the members of the smaller feature, found through a circular
//! list of each feature's members, so finding a root is one load. A
//! feature has at most 72 × 9 segments and each segment is relabelled at
//! most log₂ of that many times, so a game's unions stay linear.

use crate::geom::Rotation;
use crate::tiles::{FeatureKind, Tile, MAX_SEGMENTS};

/// Most tiles on the board: the start tile and the 71 others.
///
/// # Examples
/// ```
/// use engine::{Tile, MAX_TILES};
///
/// let tiles: usize = Tile::ALL.iter().map(|t| t.def().count as usize).sum();
/// assert_eq!(tiles, MAX_TILES);
/// ```
pub const MAX_TILES: usize = 72;
/// Number of segment ids.
///
/// # Examples
/// ```
/// use engine::{segment_id, MAX_SEGMENTS, MAX_SEGMENT_IDS, MAX_TILES};
///
/// assert!((segment_id(MAX_TILES - 1, MAX_SEGMENTS as u8 - 1) as usize) < MAX_SEGMENT_IDS);
/// ```
pub const MAX_SEGMENT_IDS: usize = MAX_TILES * MAX_SEGMENTS;

/// A segment id: `slot * MAX_SEGMENTS + index`.
///
/// # Examples
/// ```
/// use engine::{segment_id, SegmentId, MAX_SEGMENTS};
///
/// let id: SegmentId = segment_id(2, 3);
/// assert_eq!((id as usize / MAX_SEGMENTS, id as usize % MAX_SEGMENTS), (2, 3));
/// ```
pub type SegmentId = u16;

/// The id of segment `index` of the tile in `slot`.
///
/// # Examples
/// ```
/// use engine::{segment_id, Rules, Seat, State};
///
/// let state = State::new(Rules::default(), 2, Seat(0));
/// let city = segment_id(0, 0); // the start tile's city
/// assert_eq!(state.features().open(state.features().root(city)), 1);
/// ```
#[inline]
pub const fn segment_id(slot: usize, index: u8) -> SegmentId {
    (slot * MAX_SEGMENTS + index as usize) as SegmentId
}

/// What scoring needs of a feature, kept at its root: the multi-piece
/// tiles it has a piece of and four byte counters (open edges, tiles,
/// shields, meeples) side by side, so a union adds them as one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Counters {
    /// One bit per multi-piece tile (H, I, L, W, X) with a piece here, so a
    /// union that joins two pieces of one tile counts that tile once.
    pub pieces: u16,
    /// `[open, tiles, shields, meeples]`: road ends or city edges not yet
    /// closed, distinct tiles, shields (cities), meeples on the feature.
    bytes: [u8; 4],
}

const OPEN: usize = 0;
const TILES: usize = 1;
const SHIELDS: usize = 2;
const MEEPLES: usize = 3;

impl Counters {
    /// A feature of one segment on one tile.
    #[inline]
    pub(crate) const fn one(open: u8, shield: bool, piece_bit: u16) -> Counters {
        Counters {
            pieces: piece_bit,
            bytes: [open, 1, shield as u8, 0],
        }
    }

    /// Road ends or city edges not yet closed.
    #[inline]
    pub(crate) const fn open(self) -> u8 {
        self.bytes[OPEN]
    }

    /// Distinct tiles.
    #[inline]
    pub(crate) const fn tiles(self) -> u8 {
        self.bytes[TILES]
    }

    /// Shields (cities).
    #[inline]
    pub(crate) const fn shields(self) -> u8 {
        self.bytes[SHIELDS]
    }

    /// Meeples on the feature.
    #[inline]
    pub(crate) const fn meeples(self) -> u8 {
        self.bytes[MEEPLES]
    }

    /// Close `n` open edges (joined across, or against the table's border).
    #[inline]
    pub(crate) fn close(&mut self, n: u8) {
        self.bytes[OPEN] -= n;
    }

    /// The counters of the union of two distinct features.
    #[inline]
    pub(crate) fn joined(self, other: Counters) -> Counters {
        // Two pieces of one tile meet only on the five multi-piece kinds:
        // skip the (software) popcount otherwise.
        let both = self.pieces & other.pieces;
        let shared = if both == 0 { 0 } else { both.count_ones() };
        // The byte counters added as one word, the shared tiles taken off
        // theirs: every sum fits its byte (the counters' own range), so no
        // carry crosses into the next.
        debug_assert!(
            (self.bytes.iter().zip(other.bytes)).all(|(a, b)| a.checked_add(b).is_some()),
            "a counter overflows its byte: {self:?} + {other:?}"
        );
        let sum = u32::from_le_bytes(self.bytes) + u32::from_le_bytes(other.bytes)
            - (shared << (8 * TILES));
        Counters {
            pieces: self.pieces | other.pieces,
            bytes: sum.to_le_bytes(),
        }
    }
}

/// The counters each segment of a tile kind starts with (`pieces`: all
/// ones on the roads and cities of a multi-piece kind, to be masked with
/// the tile's piece bit; none on the others).
struct TileInit {
    counters: [Counters; MAX_SEGMENTS],
}

/// [`TILE_INIT`] as a constant ([`Features::START`] is built from it).
const TILE_INIT_TABLE: [TileInit; Tile::COUNT] = {
    const EMPTY: TileInit = TileInit {
        counters: [NO_COUNTERS; MAX_SEGMENTS],
    };
    let mut out = [EMPTY; Tile::COUNT];
    let mut t = 0;
    while t < Tile::COUNT {
        let segments = Tile::ALL[t].def().segments;
        let pieces = if Tile::ALL[t].oriented(Rotation::ALL[0]).multi_piece {
            !0
        } else {
            0
        };
        let mut i = 0;
        while i < segments.len() {
            let seg = &segments[i];
            out[t].counters[i] = match seg.kind {
                FeatureKind::Road | FeatureKind::City => {
                    Counters::one(seg.open, seg.shield, pieces)
                }
                _ => Counters::one(0, false, 0),
            };
            i += 1;
        }
        t += 1;
    }
    out
};

static TILE_INIT: [TileInit; Tile::COUNT] = TILE_INIT_TABLE;

/// The counters of an id past a tile's last segment (never read).
const NO_COUNTERS: Counters = Counters {
    pieces: 0,
    bytes: [0; 4],
};

/// The board's roads, cities, monasteries and fields: a union-find over
/// tile segments whose roots count open edges, tiles, shields and
/// meeples (fields count only meeples).
///
/// Read it through [`crate::State::features`]: the state changes it as tiles
/// and meeples are placed; callers cannot.
///
/// # Examples
/// ```
/// use engine::{segment_id, Chance, Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// state.apply_chance_outcome(Chance::Tile(Tile::E)).unwrap(); // a city on one edge
/// state.try_action(state.parse_action("E (0, 1) r2").unwrap()).unwrap();
/// let f = state.features();
/// let root = f.root(segment_id(0, 0)); // the start tile's city, now closed
/// assert_eq!(root, f.root(segment_id(1, 0)));
/// assert_eq!((f.open(root), f.tiles(root), f.shields(root), f.meeples(root)), (0, 2, 0, 0));
/// assert!(state.is_complete(segment_id(0, 0)));
/// ```
///
/// One union-find node per segment id, in three arrays (so a union or an
/// initialisation touches only the fields it needs): the root of its
/// feature, the next member of the feature (a circular list) and, valid
/// at roots, the counters of the feature.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Features {
    root: [u16; MAX_SEGMENT_IDS],
    next: [u16; MAX_SEGMENT_IDS],
    c: [Counters; MAX_SEGMENT_IDS],
}

impl Features {
    /// No segments yet.
    pub(crate) const fn new() -> Features {
        Features {
            root: [0; MAX_SEGMENT_IDS],
            next: [0; MAX_SEGMENT_IDS],
            c: [NO_COUNTERS; MAX_SEGMENT_IDS],
        }
    }

    /// The segments of the start tile in slot 0, each a feature of its own
    /// (what `State::put_tile` makes of the first tile), as a constant
    /// `State::new` copies.
    pub(crate) const START: Features = {
        let mut f = Features::new();
        // As `init_tile` writes them: every id of the slot, those past
        // the tile's segments included.
        let counters = &TILE_INIT_TABLE[crate::tiles::Tile::START as usize].counters;
        let mut i = 0;
        while i < MAX_SEGMENTS {
            f.root[i] = i as u16;
            f.next[i] = i as u16;
            f.c[i] = Counters {
                pieces: 0,
                ..counters[i]
            };
            i += 1;
        }
        f
    };

    /// Start segment `id` as a feature of its own, on one tile.
    #[cfg(test)]
    pub(crate) fn init(&mut self, id: SegmentId, open: u8, shield: bool, piece_bit: u16) {
        self.root[id as usize] = id;
        self.next[id as usize] = id;
        self.c[id as usize] = Counters::one(open, shield, piece_bit);
    }

    /// The entries of the first `tiles` tile slots of `source` copied
    /// into `self` (the rest left as they are: [`Features::new`]'s in
    /// both, for slots neither has placed a tile in).
    #[inline]
    pub(crate) fn clone_tiles_from(&mut self, source: &Features, tiles: usize) {
        let ids = (tiles * MAX_SEGMENTS).min(MAX_SEGMENT_IDS);
        self.root[..ids].copy_from_slice(&source.root[..ids]);
        self.next[..ids].copy_from_slice(&source.next[..ids]);
        self.c[..ids].copy_from_slice(&source.c[..ids]);
    }

    /// Whether the entries of tile slots `tiles..` are [`Features::new`]'s
    /// (what [`Features::clone_tiles_from`] relies on).
    #[cfg(test)]
    pub(crate) fn blank_from(&self, tiles: usize) -> bool {
        let (ids, blank) = ((tiles * MAX_SEGMENTS).min(MAX_SEGMENT_IDS), Features::new());
        self.root[ids..] == blank.root[ids..]
            && self.next[ids..] == blank.next[ids..]
            && self.c[ids..] == blank.c[ids..]
    }

    /// Start every segment of `tile`, placed in `slot`, as a feature of
    /// its own on one tile (roads and cities of a multi-piece tile carry
    /// `piece_bit`): one copy per segment id of the slot from a table per
    /// kind, ids past the tile's segments included (no branch on the
    /// kind's segment count).
    #[inline]
    pub(crate) fn init_tile(&mut self, slot: usize, tile: Tile, piece_bit: u16) {
        let t = &TILE_INIT[tile as usize];
        let base = slot * MAX_SEGMENTS;
        let ids = std::array::from_fn::<u16, MAX_SEGMENTS, _>(|i| (base + i) as u16);
        self.root[base..base + MAX_SEGMENTS].copy_from_slice(&ids);
        self.next[base..base + MAX_SEGMENTS].copy_from_slice(&ids);
        let c = &mut self.c[base..base + MAX_SEGMENTS];
        c.copy_from_slice(&t.counters);
        // Only a multi-piece kind has a piece bit (and pieces in its table).
        if piece_bit != 0 {
            for c in c {
                c.pieces &= piece_bit;
            }
        }
    }

    /// The root of `id`'s feature (the same as [`Features::root`]; kept for
    /// the callers that held a mutable union-find).
    #[inline]
    pub(crate) fn find(&mut self, id: SegmentId) -> SegmentId {
        self.root(id)
    }

    /// The root of `id`'s feature: one load.
    ///
    /// # Examples
    /// ```
    /// use engine::{segment_id, Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// let road = segment_id(0, 1);
    /// assert_eq!(state.features().root(road), road); // alone on the start tile
    /// ```
    #[inline]
    pub fn root(&self, id: SegmentId) -> SegmentId {
        self.root[id as usize]
    }

    /// Calls `f` for every segment of the feature with root `r`.
    #[inline]
    pub(crate) fn for_each_member(&self, r: SegmentId, mut f: impl FnMut(SegmentId)) {
        let mut m = r;
        loop {
            f(m);
            m = self.next[m as usize];
            if m == r {
                return;
            }
        }
    }

    /// Join the features of `a` and `b` across one shared edge, closing
    /// that edge on both sides. Returns the new root.
    #[inline]
    pub(crate) fn join_edge(&mut self, a: SegmentId, b: SegmentId) -> SegmentId {
        let root = self.union(a, b);
        self.c[root as usize].close(2);
        root
    }

    /// Close one open edge of the feature of `id` against the table's
    /// border (`table_closes`).
    #[inline]
    pub(crate) fn close_edge(&mut self, id: SegmentId) {
        let root = self.find(id);
        self.c[root as usize].close(1);
    }

    /// Join the features of `a` and `b` (fields: no counters but meeples):
    /// the members of the feature on fewer tiles (a stand-in for fewer
    /// segments that costs no bytes) are relabelled to the other's root
    /// and the two member lists spliced into one.
    #[inline(always)]
    pub(crate) fn union(&mut self, a: SegmentId, b: SegmentId) -> SegmentId {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra == rb {
            return ra;
        }
        let (ca, cb) = (self.c[ra as usize], self.c[rb as usize]);
        let (big, small) = if ca.tiles() >= cb.tiles() {
            (ra, rb)
        } else {
            (rb, ra)
        };
        let mut m = small;
        loop {
            self.root[m as usize] = big;
            m = self.next[m as usize];
            if m == small {
                break;
            }
        }
        self.next.swap(big as usize, small as usize);
        self.c[big as usize] = ca.joined(cb);
        big
    }

    /// The counters of the feature with root `r`.
    #[inline]
    pub(crate) fn counters(&self, r: SegmentId) -> Counters {
        self.c[r as usize]
    }

    /// Open edges (cities) or open ends (roads) of the feature with root `r`.
    ///
    /// # Examples
    /// ```
    /// use engine::{segment_id, Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.features().open(segment_id(0, 1)), 2); // the road's two ends
    /// ```
    #[inline]
    pub fn open(&self, r: SegmentId) -> u8 {
        self.c[r as usize].open()
    }

    /// Distinct tiles of the feature with root `r`.
    ///
    /// # Examples
    /// ```
    /// use engine::{segment_id, Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.features().tiles(segment_id(0, 0)), 1);
    /// ```
    #[inline]
    pub fn tiles(&self, r: SegmentId) -> u8 {
        self.c[r as usize].tiles()
    }

    /// Shields of the feature with root `r`.
    ///
    /// # Examples
    /// ```
    /// use engine::{segment_id, Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.features().shields(segment_id(0, 0)), 0); // D's city has none
    /// ```
    #[inline]
    pub fn shields(&self, r: SegmentId) -> u8 {
        self.c[r as usize].shields()
    }

    /// Meeples on the feature with root `r`.
    ///
    /// # Examples
    /// ```
    /// use engine::{segment_id, Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// state.try_action(state.parse_action("U (1, 0) r1 E").unwrap()).unwrap(); // a highwayman
    /// let f = state.features();
    /// assert_eq!(f.meeples(f.root(segment_id(0, 1))), 1); // the start tile's road is his
    /// ```
    #[inline]
    pub fn meeples(&self, r: SegmentId) -> u8 {
        self.c[r as usize].meeples()
    }

    /// Add (or with a negative `delta`, remove) meeples on root `r`.
    #[inline]
    pub(crate) fn add_meeples(&mut self, r: SegmentId, delta: i8) {
        let m = &mut self.c[r as usize].bytes[MEEPLES];
        *m = m.wrapping_add_signed(delta);
    }
}

impl Default for Features {
    fn default() -> Features {
        Features::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Every segment points at its root and the member lists hold exactly
    /// the members, after random unions (checked against plain labels).
    #[test]
    fn one_step_roots_match_naive_labels() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        for _ in 0..50 {
            let n: u16 = rng.gen_range(2..200);
            let mut f = Features::new();
            let mut label: Vec<u16> = (0..n).collect();
            for id in 0..n {
                f.init(id, 1, false, 0);
            }
            for _ in 0..rng.gen_range(0..2 * n) {
                let (a, b) = (rng.gen_range(0..n), rng.gen_range(0..n));
                let (la, lb) = (label[a as usize], label[b as usize]);
                f.union(a, b);
                for l in &mut label {
                    if *l == lb {
                        *l = la;
                    }
                }
            }
            for a in 0..n {
                let root = f.root(a);
                assert_eq!(f.root(root), root);
                let mut members = vec![];
                let mut m = root;
                loop {
                    members.push(m);
                    m = f.next[m as usize];
                    if m == root {
                        break;
                    }
                }
                members.sort_unstable();
                let naive: Vec<u16> = (0..n)
                    .filter(|&b| label[b as usize] == label[a as usize])
                    .collect();
                assert_eq!(members, naive);
                assert_eq!(f.open(root) as usize, naive.len());
            }
        }
    }
}
