//! Checks: why a placement or a move is illegal, naming what is wrong.

use super::State;
use crate::geom::{Location, Rotation, Side};
use crate::moves::{IllegalMove, Move, Placement};
use crate::tiles::{segment_at, FeatureKind, Tile};
use crate::turn::Phase;

impl State {
    /// Why `placement` of the drawn tile is illegal, if it is.
    pub fn check_placement(&self, placement: Placement) -> Result<Tile, IllegalMove> {
        let tile = match self.phase {
            Phase::Place(t) => t,
            Phase::Draw => return Err(IllegalMove::NoTileDrawn),
            Phase::Over => return Err(IllegalMove::GameOver),
            other => return Err(IllegalMove::WrongPhase(other)),
        };
        let pos = placement.pos;
        if self.board.slot_at(pos).is_some() {
            return Err(IllegalMove::Occupied(pos));
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
            if !self.rules.farmers && tile.def().segments[seg as usize].kind == FeatureKind::Field {
                return Err(IllegalMove::FarmersOff);
            }
            if self.free_segments(mv.placement) & (1 << seg) == 0 {
                return Err(IllegalMove::FeatureOccupied(loc));
            }
        }
        Ok(())
    }

    /// Resolve a meeple location on the drawn tile in rotation `rot`.
    pub fn meeple_segment(&self, rot: Rotation, loc: Location) -> Result<u8, IllegalMove> {
        let tile = self.drawn_tile().ok_or(IllegalMove::NoTileDrawn)?;
        segment_at(tile, rot, loc).ok_or(IllegalMove::NoSuchSegment(tile, loc))
    }
}
