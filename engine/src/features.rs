//! Features as a union-find over tile segments.
//!
//! Every segment of a placed tile has an id, `slot * MAX_SEGMENTS + index`,
//! where `slot` is the tile's placement order. Segments joined across tile
//! edges share a root, and the root keeps what scoring needs: open edges,
//! distinct tiles, shields and meeples. "Is it complete" and "is it
//! occupied" are then one `find` away.

use crate::tiles::MAX_SEGMENTS;

/// Most tiles on the board: the start tile and the 71 others.
pub const MAX_TILES: usize = 72;
/// Number of segment ids.
pub const MAX_SEGMENT_IDS: usize = MAX_TILES * MAX_SEGMENTS;

/// A segment id: `slot * MAX_SEGMENTS + index`.
pub type SegmentId = u16;

/// The id of segment `index` of the tile in `slot`.
#[inline]
pub const fn segment_id(slot: usize, index: u8) -> SegmentId {
    (slot * MAX_SEGMENTS + index as usize) as SegmentId
}

/// Union-find with per-root counters. Fields use only `meeples`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Features {
    parent: [u16; MAX_SEGMENT_IDS],
    size: [u8; MAX_SEGMENT_IDS],
    /// Road ends or city edges not yet closed.
    open: [u8; MAX_SEGMENT_IDS],
    /// Distinct tiles.
    tiles: [u8; MAX_SEGMENT_IDS],
    shields: [u8; MAX_SEGMENT_IDS],
    meeples: [u8; MAX_SEGMENT_IDS],
    /// One bit per multi-piece tile (H, I, L, W, X) with a piece here, so a
    /// union that joins two pieces of one tile counts that tile once.
    pieces: [u16; MAX_SEGMENT_IDS],
}

impl Features {
    /// No segments yet.
    pub const fn new() -> Features {
        Features {
            parent: [0; MAX_SEGMENT_IDS],
            size: [0; MAX_SEGMENT_IDS],
            open: [0; MAX_SEGMENT_IDS],
            tiles: [0; MAX_SEGMENT_IDS],
            shields: [0; MAX_SEGMENT_IDS],
            meeples: [0; MAX_SEGMENT_IDS],
            pieces: [0; MAX_SEGMENT_IDS],
        }
    }

    /// Start segment `id` as a feature of its own, on one tile.
    #[inline]
    pub fn init(&mut self, id: SegmentId, open: u8, shield: bool, piece_bit: u16) {
        let i = id as usize;
        self.parent[i] = id;
        self.size[i] = 1;
        self.open[i] = open;
        self.tiles[i] = 1;
        self.shields[i] = shield as u8;
        self.meeples[i] = 0;
        self.pieces[i] = piece_bit;
    }

    /// The root of `id`'s feature, halving the path on the way.
    #[inline]
    pub fn find(&mut self, mut id: SegmentId) -> SegmentId {
        while self.parent[id as usize] != id {
            let grand = self.parent[self.parent[id as usize] as usize];
            self.parent[id as usize] = grand;
            id = grand;
        }
        id
    }

    /// The root of `id`'s feature, without touching the structure.
    #[inline]
    pub fn root(&self, mut id: SegmentId) -> SegmentId {
        while self.parent[id as usize] != id {
            id = self.parent[id as usize];
        }
        id
    }

    /// Join the features of `a` and `b` across one shared edge, closing
    /// that edge on both sides. Returns the new root.
    #[inline]
    pub fn join_edge(&mut self, a: SegmentId, b: SegmentId) -> SegmentId {
        let root = self.union(a, b);
        self.open[root as usize] -= 2;
        root
    }

    /// Join the features of `a` and `b` (fields: no counters but meeples).
    #[inline]
    pub fn union(&mut self, a: SegmentId, b: SegmentId) -> SegmentId {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return ra;
        }
        let (big, small) = if self.size[ra as usize] >= self.size[rb as usize] {
            (ra as usize, rb as usize)
        } else {
            (rb as usize, ra as usize)
        };
        self.parent[small] = big as u16;
        self.size[big] = self.size[big].saturating_add(self.size[small]);
        self.open[big] += self.open[small];
        let shared = (self.pieces[big] & self.pieces[small]).count_ones() as u8;
        self.tiles[big] = self.tiles[big] + self.tiles[small] - shared;
        self.pieces[big] |= self.pieces[small];
        self.shields[big] += self.shields[small];
        self.meeples[big] += self.meeples[small];
        big as SegmentId
    }

    /// Open edges (cities) or open ends (roads) of the feature with root `r`.
    #[inline]
    pub fn open(&self, r: SegmentId) -> u8 {
        self.open[r as usize]
    }

    /// Distinct tiles of the feature with root `r`.
    #[inline]
    pub fn tiles(&self, r: SegmentId) -> u8 {
        self.tiles[r as usize]
    }

    /// Shields of the feature with root `r`.
    #[inline]
    pub fn shields(&self, r: SegmentId) -> u8 {
        self.shields[r as usize]
    }

    /// Meeples on the feature with root `r`.
    #[inline]
    pub fn meeples(&self, r: SegmentId) -> u8 {
        self.meeples[r as usize]
    }

    /// Add (or with a negative `delta`, remove) meeples on root `r`.
    #[inline]
    pub fn add_meeples(&mut self, r: SegmentId, delta: i8) {
        let m = &mut self.meeples[r as usize];
        *m = m.wrapping_add_signed(delta);
    }
}

impl Default for Features {
    fn default() -> Features {
        Features::new()
    }
}
