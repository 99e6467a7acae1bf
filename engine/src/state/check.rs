//! Checks: why a placement or a move is illegal, naming what is wrong.

use super::State;
use crate::geom::{Location, Rotation, Side};
use crate::moves::{IllegalMove, Move, Placement};
use crate::tiles::{segment_at, FeatureKind, Tile};
use crate::turn::Phase;

impl State {
    /// Why `placement` of the drawn tile is illegal, if it is.
    ///
    /// # Errors
    /// The [`IllegalMove`]: no tile drawn, the cell occupied or without a
    /// neighbour, or an edge that does not match.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// use engine::{IllegalMove, Placement, Pos, Rotation};
    /// let p = Placement::new(Pos::ORIGIN, Rotation::default());
    /// assert_eq!(state.check_placement(p), Err(IllegalMove::Occupied(Pos::ORIGIN)));
    /// ```
    pub fn check_placement(&self, placement: Placement) -> Result<Tile, IllegalMove> {
        let tile = match self.phase {
            Phase::Place(_) | Phase::PlaceHand => self
                .placing_tile(placement.slot)
                .ok_or(IllegalMove::EmptySlot(placement.slot))?,
            Phase::Draw => return Err(IllegalMove::NoTileDrawn),
            Phase::Over => return Err(IllegalMove::GameOver),
            other => return Err(IllegalMove::WrongPhase(other)),
        };
        let pos = placement.pos;
        if self.board.slot_at(pos).is_some() {
            return Err(IllegalMove::Occupied(pos));
        }
        if !self.on_table(pos) {
            return Err(IllegalMove::OffTable(pos));
        }
        if !self.board.is_open(pos) {
            return Err(IllegalMove::NoNeighbour(pos));
        }
        let edges = tile.oriented(placement.rot).edges;
        for side in Side::ALL {
            if let Some(n) = self.board.at(pos.step(side)) {
                let theirs = n.tile.oriented(n.rot).edges[side.opposite().index()];
                if theirs != edges[side.index()] {
                    return Err(IllegalMove::EdgeMismatch(pos, side));
                }
            }
        }
        Ok(tile)
    }

    /// Why `mv` is illegal, if it is.
    ///
    /// # Errors
    /// As [`State::check_placement`], and for the meeple: a segment the tile does
    /// not have, an empty supply, a field with farmers off, an occupied feature.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// use engine::{Move, Pos, Rotation};
    /// let mv = Move::place(Pos::new(1, 0), Rotation::new(1).unwrap());
    /// assert_eq!(state.check(mv), Ok(()));
    /// assert!(state.check(mv.with_meeple(7)).is_err()); // U has 3 segments
    /// ```
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        let tile = self.check_placement(mv.placement)?;
        if let Some(seg) = mv.meeple {
            if seg as usize >= tile.segment_count() {
                return Err(IllegalMove::BadSegment(tile, seg));
            }
            let loc = tile.oriented(mv.placement.rot).canonical[seg as usize];
            if self.supply[self.to_play] == 0 {
                return Err(IllegalMove::NoMeepleLeft);
            }
            if !self.rules().farmers && tile.def().segments[seg as usize].kind == FeatureKind::Field
            {
                return Err(IllegalMove::FarmersOff);
            }
            if self.free_segments(mv.placement) & (1 << seg) == 0 {
                return Err(IllegalMove::FeatureOccupied(loc));
            }
        }
        Ok(())
    }

    /// Resolve a meeple location on the drawn tile in rotation `rot`.
    ///
    /// # Errors
    /// [`IllegalMove::NoTileDrawn`] outside [`crate::Phase::Place`],
    /// [`IllegalMove::NoSuchSegment`] if the tile has nothing at `loc`.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// use engine::{Location, Rotation};
    /// let rot = Rotation::new(1).unwrap();
    /// let nnw = state.meeple_segment(rot, "NNW".parse().unwrap()).unwrap();
    /// assert_eq!(state.meeple_segment(rot, "NNE".parse().unwrap()), Ok(nnw)); // one field
    /// assert!(state.meeple_segment(rot, Location::Monastery).is_err());
    /// ```
    pub fn meeple_segment(&self, rot: Rotation, loc: Location) -> Result<u8, IllegalMove> {
        let tile = self.drawn_tile().ok_or(IllegalMove::NoTileDrawn)?;
        segment_at(tile, rot, loc).ok_or(IllegalMove::NoSuchSegment(tile, loc))
    }
}
