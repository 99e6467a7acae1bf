//! Move generation: the legal placements of the drawn tile, the
//! segments free for a meeple, and the legal moves.

use super::State;
use crate::board::NO_SLOT;
use crate::features::{segment_id, SegmentId};
use crate::geom::{Rotation, Side};
use crate::moves::{Move, MoveList, Placement};
use crate::tiles::{Edge, FeatureKind, Tile};
use crate::turn::Phase;

impl State {
    /// The drawn tile, if the phase is [`Phase::Place`].
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.drawn_tile(), None);
    /// state.apply_chance_outcome(Chance::Tile(Tile::K)).unwrap();
    /// assert_eq!(state.drawn_tile(), Some(Tile::K));
    /// ```
    #[inline]
    pub fn drawn_tile(&self) -> Option<Tile> {
        match self.phase {
            Phase::Place(t) => Some(t),
            _ => None,
        }
    }

    /// The tile a placement from hand slot `slot` puts down: the drawn
    /// tile (slot 0) in [`Phase::Place`], a tile of the seat's hand in
    /// [`Phase::PlaceHand`].
    #[inline]
    pub fn placing_tile(&self, slot: u8) -> Option<Tile> {
        match self.phase {
            Phase::Place(t) if slot == 0 => Some(t),
            Phase::PlaceHand => self.held(self.to_play).get(slot),
            _ => None,
        }
    }

    /// Calls `f` for every legal placement of the drawn tile, or with a
    /// hand of every tile of the hand (each kind once, at its first slot;
    /// nothing outside [`Phase::Place`] and [`Phase::PlaceHand`]).
    /// Symmetric rotations are listed separately: this enumerates (slot,
    /// cell, rotation) triples.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Pos, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let mut east = Vec::new();
    /// state.for_each_placement(|p| if p.pos == Pos::new(1, 0) { east.push(p.rot.quarter_turns()) });
    /// assert_eq!(east, [1, 3]); // both ways round, listed apart
    /// ```
    #[inline]
    #[allow(clippy::missing_panics_doc)] // its `expect` is on a set bit of a 4-bit mask
    pub fn for_each_placement(&self, mut f: impl FnMut(Placement)) {
        let mut each = |slot: u8, tile: Tile| {
            self.board.for_each_fit(tile, |pos, mut mask| {
                while mask != 0 {
                    let r = mask.trailing_zeros() as u8;
                    mask &= mask - 1;
                    let rot = Rotation::new(r).expect("rotation bit");
                    f(Placement { pos, rot, slot });
                }
            });
        };
        match self.phase {
            Phase::Place(tile) => each(0, tile),
            Phase::PlaceHand => {
                for (slot, tile) in self.held(self.to_play).distinct_slots() {
                    each(slot, tile);
                }
            }
            _ => {}
        }
    }

    /// Number of legal placements ([`State::for_each_placement`]).
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.placement_count(), 0); // nothing drawn
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// assert_eq!(state.placement_count(), 6);
    /// ```
    #[inline]
    pub fn placement_count(&self) -> usize {
        match self.phase {
            Phase::Place(_) | Phase::PlaceHand => self.placements as usize,
            _ => 0,
        }
    }

    /// The `k`-th legal placement in [`State::for_each_placement`] order.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let mut all = Vec::new();
    /// state.for_each_placement(|p| all.push(p));
    /// assert_eq!(state.nth_placement(2), Some(all[2]));
    /// assert_eq!(state.nth_placement(all.len()), None);
    /// ```
    #[inline]
    pub fn nth_placement(&self, mut k: usize) -> Option<Placement> {
        if let Some(tile) = self.drawn_tile() {
            let (pos, rot) = self.board.nth_fit(tile, k)?;
            return Some(Placement::new(pos, rot));
        }
        if self.phase != Phase::PlaceHand {
            return None;
        }
        for (slot, tile) in self.held(self.to_play).distinct_slots() {
            let n = self.board.fit_count(tile);
            if k < n {
                let (pos, rot) = self.board.nth_fit(tile, k)?;
                return Some(Placement { pos, rot, slot });
            }
            k -= n;
        }
        None
    }

    /// The segments (bit `i` = segment `i`) of the drawn tile on which the
    /// seat to play may put a meeple if it makes `placement`: features that
    /// would hold no meeple after placing, fields only with farmers, and
    /// nothing when the seat's supply is empty. `placement` must be legal.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Move, Pos, Rotation, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let east = Move::place(Pos::new(1, 0), Rotation::new(1).unwrap()).placement;
    /// assert_eq!(state.free_segments(east), 0b111); // the road and both fields
    /// state.try_action(state.parse_action("U (1, 0) r1 E").unwrap()).unwrap(); // a highwayman
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let further = Move::place(Pos::new(2, 0), Rotation::new(1).unwrap()).placement;
    /// assert_eq!(state.free_segments(further), 0b110); // the road is taken
    /// ```
    #[inline]
    pub fn free_segments(&self, placement: Placement) -> u8 {
        let Some(tile) = self.placing_tile(placement.slot) else {
            return 0;
        };
        // Inlined up to here: late in a game most seats have no meeple
        // left, and this answer costs no call.
        if self.supply[self.to_play] == 0 {
            return 0;
        }
        self.free_segments_of(tile, placement)
    }

    /// [`State::free_segments`] for the seat to play, which has a meeple.
    fn free_segments_of(&self, tile: Tile, placement: Placement) -> u8 {
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
        // Two arrays rather than one of pairs: fewer moves per entry.
        let mut roots = [0 as SegmentId; 12];
        let mut masks = [0u8; 12];
        let mut n = 0;
        let mut occupied = 0u8;
        let mut touch = |root: SegmentId, mine: u8, meeples: u8| {
            let bit = 1 << mine;
            if meeples > 0 {
                occupied |= bit;
            }
            roots[n] = root;
            masks[n] = bit;
            n += 1;
        };
        let sides = self.board.side_slots(placement.pos);
        for side in Side::ALL {
            let slot = sides[side.index()];
            if slot == NO_SLOT {
                continue;
            }
            let slot = slot as usize;
            let nb = self.board.placed(slot);
            let no = nb.tile.oriented(nb.rot);
            let s = side.index();
            // By the edge (one branch each): a city edge has no field
            // port, a road or field edge a field on both ports (tiles.rs
            // checks this of every tile).
            if o.edges[s] != Edge::Field {
                let theirs = segment_id(slot, no.edge_segment[side.opposite().index()]);
                let root = self.features.root(theirs);
                touch(root, o.edge_segment[s], self.features.meeples(root));
            }
            if o.edges[s] != Edge::City {
                for port in side.ports() {
                    let mine = o.port_segment[port.index()];
                    let theirs = segment_id(slot, no.port_segment[port.facing().index()]);
                    let root = self.features.root(theirs);
                    touch(root, mine, self.features.meeples(root));
                }
            }
        }
        // Spread occupancy to every new segment sharing a neighbouring
        // feature with an occupied one (nothing to do when none is).
        let (roots, masks) = (&roots[..n], &masks[..n]);
        while occupied != 0 {
            let before = occupied;
            for (&root, &mask) in roots.iter().zip(masks) {
                if mask & occupied != 0 {
                    for (&other, &m) in roots.iter().zip(masks) {
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
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let mut with_meeple = 0;
    /// state.for_each_move(|m| with_meeple += m.meeple.is_some() as usize);
    /// assert_eq!(with_meeple, 6 * 3); // six placements, three free segments each
    /// ```
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
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, MoveList, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let mut moves = MoveList::new();
    /// state.legal_moves(&mut moves);
    /// assert_eq!(moves.len(), 6 * 4); // each placement bare or with one of three meeples
    /// assert!(moves.iter().all(|&m| state.check(m).is_ok()));
    /// ```
    pub fn legal_moves(&self, list: &mut MoveList) {
        list.clear();
        self.for_each_move(|m| list.push(m));
    }
}
