//! Move generation: the legal placements of the drawn tile, the
//! segments free for a meeple, and the legal moves.

use super::State;
use crate::features::{segment_id, SegmentId};
use crate::geom::{Rotation, Side};
use crate::moves::{Move, MoveList, Placement};
use crate::tiles::{FeatureKind, Tile, NO_SEGMENT};
use crate::turn::Phase;

impl State {
    /// The drawn tile, if the phase is [`Phase::Place`].
    #[inline]
    pub fn drawn_tile(&self) -> Option<Tile> {
        match self.phase {
            Phase::Place(t) => Some(t),
            _ => None,
        }
    }

    /// Calls `f` for every legal placement of the drawn tile (nothing
    /// outside [`Phase::Place`]). Symmetric rotations are listed
    /// separately: this enumerates (cell, rotation) pairs.
    #[inline]
    pub fn for_each_placement(&self, mut f: impl FnMut(Placement)) {
        if let Some(tile) = self.drawn_tile() {
            self.board.for_each_fit(tile, |pos, mut mask| {
                while mask != 0 {
                    let r = mask.trailing_zeros() as u8;
                    mask &= mask - 1;
                    f(Placement {
                        pos,
                        rot: Rotation::new(r).expect("rotation bit"),
                    });
                }
            });
        }
    }

    /// Number of legal placements of the drawn tile.
    #[inline]
    pub fn placement_count(&self) -> usize {
        match self.phase {
            Phase::Place(_) => self.placements as usize,
            _ => 0,
        }
    }

    /// The `k`-th legal placement in [`State::for_each_placement`] order.
    #[inline]
    pub fn nth_placement(&self, k: usize) -> Option<Placement> {
        let (pos, rot) = self.board.nth_fit(self.drawn_tile()?, k)?;
        Some(Placement { pos, rot })
    }

    /// The segments (bit `i` = segment `i`) of the drawn tile on which the
    /// seat to play may put a meeple if it makes `placement`: features that
    /// would hold no meeple after placing, fields only with farmers, and
    /// nothing when the seat's supply is empty. `placement` must be legal.
    pub fn free_segments(&self, placement: Placement) -> u8 {
        let Some(tile) = self.drawn_tile() else {
            return 0;
        };
        if self.supply[self.to_play] == 0 {
            return 0;
        }
        let o = tile.oriented(placement.rot);
        let mut free: u8 = (1u16 << tile.segment_count()) as u8;
        free = free.wrapping_sub(1);
        if !self.rules().farmers {
            for (i, seg) in tile.def().segments.iter().enumerate() {
                if seg.kind == FeatureKind::Field {
                    free &= !(1 << i);
                }
            }
        }
        // Neighbouring features the new segments would join, as (root,
        // new segment) pairs. Two segments of the new tile touching one
        // neighbouring feature become one feature, so occupancy spreads
        // through shared roots (fields can join this way; roads and cities
        // of one tile never share a neighbour's feature without touching
        // it directly).
        let mut pairs = [(0 as SegmentId, 0u8); 12];
        let mut n = 0;
        let mut occupied = 0u8;
        let mut touch = |root: SegmentId, mine: u8, meeples: u8| {
            if meeples > 0 {
                occupied |= 1 << mine;
            }
            pairs[n] = (root, 1 << mine);
            n += 1;
        };
        for side in Side::ALL {
            let Some(slot) = self.board.slot_at(placement.pos.step(side)) else {
                continue;
            };
            let nb = self.board.placed(slot);
            let no = nb.tile.oriented(nb.rot);
            let s = side.index();
            if o.edge_segment[s] != NO_SEGMENT {
                let theirs = segment_id(slot, no.edge_segment[side.opposite().index()]);
                let root = self.features.root(theirs);
                touch(root, o.edge_segment[s], self.features.meeples(root));
            }
            for port in side.ports() {
                let mine = o.port_segment[port.index()];
                if mine != NO_SEGMENT {
                    let theirs = segment_id(slot, no.port_segment[port.facing().index()]);
                    let root = self.features.root(theirs);
                    touch(root, mine, self.features.meeples(root));
                }
            }
        }
        // Spread occupancy to every new segment sharing a neighbouring
        // feature with an occupied one (nothing to do when none is).
        while occupied != 0 {
            let before = occupied;
            for &(root, mask) in &pairs[..n] {
                if mask & occupied != 0 {
                    for &(other, m) in &pairs[..n] {
                        if other == root {
                            occupied |= m;
                        }
                    }
                }
            }
            if occupied == before {
                break;
            }
        }
        free & !occupied
    }

    /// Calls `f` for every legal move: each placement without a meeple and
    /// with a meeple on each free segment.
    pub fn for_each_move(&self, mut f: impl FnMut(Move)) {
        self.for_each_placement(|p| {
            let m = Move {
                placement: p,
                meeple: None,
            };
            f(m);
            let mut free = self.free_segments(p);
            while free != 0 {
                let s = free.trailing_zeros() as u8;
                free &= free - 1;
                f(m.with_meeple(s));
            }
        });
    }

    /// Fill `list` with every legal move (cleared first).
    pub fn legal_moves(&self, list: &mut MoveList) {
        list.clear();
        self.for_each_move(|m| list.push(m));
    }
}
