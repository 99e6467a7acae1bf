//! A placement's changes to the features, over a state it leaves alone:
//! the groups the new tile's segments and the features they join make,
//! with the counters the union-find would have after `State::put_tile`,
//! and the tiles around it whose surrounded count rises.

use super::super::State;
use crate::board::{Bounds, AROUND, NO_SLOT};
use crate::features::{segment_id, Counters, SegmentId};
use crate::geom::{Pos, Rotation, Side};
use crate::tiles::{Edge, FeatureKind, Oriented, Tile, MAX_SEGMENTS, NO_SEGMENT};

/// A feature as the overlay sees it: a union-find root of the state, or
/// `GROUP | node` for a group the placement makes.
pub(super) type Key = u16;
/// Marks a group key (segment ids stay below `MAX_TILES * MAX_SEGMENTS`).
pub(super) const GROUP: Key = 0x8000;

/// Most neighbouring features one tile joins: one per edge and per port.
pub(super) const MAX_JOINED: usize = 12;
/// Overlay union-find nodes: the new tile's segments, then joined roots.
pub(super) const NODES: usize = MAX_SEGMENTS + MAX_JOINED;

/// A placement's changes to the features, over a state it leaves alone.
pub(super) struct Overlay {
    /// The new tile.
    pub(super) tile: Tile,
    /// Union-find over the new tile's segments (nodes `0..MAX_SEGMENTS`)
    /// and the neighbouring roots they join (`MAX_SEGMENTS..`), flattened
    /// once built: every node in use points at its group's root, which is
    /// always a segment of the new tile.
    pub(super) parent: [u8; NODES],
    pub(super) counters: [Counters; NODES],
    /// The state's roots joined, node `MAX_SEGMENTS + k` for `roots[k]`.
    pub(super) roots: [SegmentId; MAX_JOINED],
    pub(super) joined: usize,
    /// Bit `root % 64` of each root joined: most features of the state
    /// are found unjoined without a look at `roots`.
    pub(super) bloom: u64,
    /// Slots of the placed tiles among the eight cells around the new
    /// tile: each gains one surrounding tile.
    pub(super) around: [u8; 8],
    pub(super) around_len: usize,
    /// With `table_closes`, the cells around the new tile off the table:
    /// they surround it as tiles would (as `Board::place` counts them).
    pub(super) off_table: u8,
}

impl Overlay {
    /// No placement: every feature as the state has it.
    pub(super) const NONE: Overlay = Overlay {
        tile: Tile::START,
        parent: [0; NODES],
        counters: [Counters::one(0, false, 0); NODES],
        roots: [0; MAX_JOINED],
        joined: 0,
        bloom: 0,
        around: [0; 8],
        around_len: 0,
        off_table: 0,
    };

    /// The changes of putting `tile` at `pos` turned by `rot` (a legal
    /// placement in `state`).
    pub(super) fn new(state: &State, tile: Tile, rot: Rotation, pos: Pos) -> Overlay {
        let mut ov = Overlay {
            tile,
            ..Overlay::NONE
        };
        let o = tile.oriented(rot);
        let piece_bit = if o.multi_piece {
            1u16 << state.pieces_used
        } else {
            0
        };
        for (i, seg) in tile.def().segments.iter().enumerate() {
            ov.parent[i] = i as u8;
            ov.counters[i] = match seg.kind {
                FeatureKind::Road | FeatureKind::City => {
                    Counters::one(seg.open, seg.shield, piece_bit)
                }
                _ => Counters::one(0, false, 0),
            };
        }
        let around = state.board.around_slots(pos);
        for side in Side::ALL {
            let nslot = around[2 * side.index()];
            if nslot == NO_SLOT {
                continue;
            }
            let nslot = nslot as usize;
            let n = state.board.placed(nslot);
            let no = n.tile.oriented(n.rot);
            let (s, opp) = (side.index(), side.opposite().index());
            if matches!(o.edges[s], Edge::Road | Edge::City) {
                let theirs = segment_id(nslot, no.edge_segment[opp]);
                let root = ov.join(state, o.edge_segment[s], theirs);
                ov.counters[root].close(2);
            }
            // The two ports of a side often join the same two fields:
            // join them once.
            let mut last = (NO_SEGMENT, 0);
            for port in side.ports() {
                let mine = o.port_segment[port.index()];
                let theirs = no.port_segment[port.facing().index()];
                if mine != NO_SEGMENT && (mine, theirs) != last {
                    ov.join(state, mine, segment_id(nslot, theirs));
                    last = (mine, theirs);
                }
            }
        }
        // Flatten the nodes in use (the new tile's segments, the joined
        // roots): every one then points at its group's root.
        for node in (0..tile.segment_count()).chain(MAX_SEGMENTS..MAX_SEGMENTS + ov.joined) {
            ov.parent[node] = ov.find(node) as u8;
        }
        for s in around {
            if s != NO_SLOT {
                ov.around[ov.around_len] = s;
                ov.around_len += 1;
            }
        }
        if state.rules.table_closes() {
            ov.close_at_the_border(o, pos, &around, state.rules.bounds());
        }
        ov
    }

    /// With `table_closes`: close the new tile's road and city edges that
    /// face the table's border (as `State::put_tile` closes them, after
    /// the joins) and count the cells around it off the table.
    #[cold]
    #[inline(never)]
    fn close_at_the_border(&mut self, o: &Oriented, pos: Pos, around: &[u8; 8], bounds: Bounds) {
        for side in Side::ALL {
            let s = side.index();
            if around[2 * s] == NO_SLOT
                && o.edges[s] != Edge::Field
                && !bounds.contains(pos.step(side))
            {
                let root = self.find(o.edge_segment[s] as usize);
                self.counters[root].close(1);
            }
        }
        for (k, &s) in around.iter().enumerate() {
            let (dx, dy) = AROUND[k];
            let at = Pos::new(pos.x.wrapping_add(dx), pos.y.wrapping_add(dy));
            self.off_table += u8::from(s == NO_SLOT && !bounds.contains(at));
        }
    }

    /// The new tile's own surrounded count.
    #[inline]
    pub(super) fn own_surrounded(&self) -> u8 {
        self.around_len as u8 + self.off_table
    }

    pub(super) fn find(&self, mut node: usize) -> usize {
        while self.parent[node] as usize != node {
            node = self.parent[node] as usize;
        }
        node
    }

    /// Join new segment `mine` with the feature of the state's segment
    /// `theirs`; returns the group's root node.
    pub(super) fn join(&mut self, state: &State, mine: u8, theirs: SegmentId) -> usize {
        let root = state.features.root(theirs);
        let k = match self.roots[..self.joined].iter().position(|&r| r == root) {
            Some(k) => k,
            None => {
                let k = self.joined;
                self.roots[k] = root;
                self.bloom |= 1 << (root % 64);
                self.parent[MAX_SEGMENTS + k] = (MAX_SEGMENTS + k) as u8;
                self.counters[MAX_SEGMENTS + k] = state.features.counters(root);
                self.joined += 1;
                k
            }
        };
        let (a, b) = (self.find(mine as usize), self.find(MAX_SEGMENTS + k));
        if a != b {
            // `a` holds a new segment: group roots stay new segments.
            self.parent[b] = a as u8;
            self.counters[a] = self.counters[a].joined(self.counters[b]);
        }
        a
    }

    /// The feature, after the placement, of the state's feature `root`.
    #[inline]
    pub(super) fn map_root(&self, root: SegmentId) -> Key {
        if self.bloom & (1 << (root % 64)) == 0 {
            return root;
        }
        match self.roots[..self.joined].iter().position(|&r| r == root) {
            Some(k) => GROUP | self.parent[MAX_SEGMENTS + k] as Key,
            None => root,
        }
    }

    pub(super) fn counters(&self, state: &State, key: Key) -> Counters {
        if key & GROUP != 0 {
            self.counters[(key & !GROUP) as usize]
        } else {
            state.features.counters(key)
        }
    }

    /// Surrounding tiles of the tile whose monastery is `key`.
    pub(super) fn surrounded(&self, state: &State, key: Key) -> u8 {
        if key & GROUP != 0 {
            return self.own_surrounded();
        }
        let slot = key as usize / MAX_SEGMENTS;
        state.board.placed(slot).surrounded + self.gains(slot) as u8
    }

    /// The tile in `slot` gains a surrounding tile.
    pub(super) fn gains(&self, slot: usize) -> bool {
        self.around[..self.around_len].contains(&(slot as u8))
    }

    /// The placement completes a city (which then touches fields it did
    /// not touch as a completed city before).
    pub(super) fn completes_city(&self) -> bool {
        (0..self.joined).any(|k| {
            let node = self.parent[MAX_SEGMENTS + k] as usize;
            self.counters[node].open() == 0
                && self.tile.def().segments[node].kind == FeatureKind::City
        })
    }

    /// The feature `key` (of `kind`) is complete: a closed road or city, a
    /// surrounded monastery.
    pub(super) fn is_complete(&self, state: &State, key: Key, kind: FeatureKind) -> bool {
        match kind {
            FeatureKind::Road | FeatureKind::City => self.counters(state, key).open() == 0,
            FeatureKind::Monastery => self.surrounded(state, key) == 8,
            FeatureKind::Field => false,
        }
    }

    /// Points of road, city or monastery `key`: as scored on completion if
    /// it is complete, else as in the final scoring.
    pub(super) fn value(&self, state: &State, key: Key, kind: FeatureKind) -> u16 {
        let c = self.counters(state, key);
        match kind {
            FeatureKind::Road => c.tiles() as u16,
            FeatureKind::City => {
                let base = c.tiles() as u16 + c.shields() as u16;
                if c.open() == 0 {
                    2 * base
                } else {
                    base
                }
            }
            FeatureKind::Monastery => match self.surrounded(state, key) {
                8 => 9,
                s => 1 + s as u16,
            },
            FeatureKind::Field => unreachable!("fields are valued by their cities"),
        }
    }
}
