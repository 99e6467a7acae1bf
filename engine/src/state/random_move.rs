//! A uniformly random move, played ([`crate::play_random_move`]): the move [`crate::random_move`]
//! picks, found and played in one pass, so the segments free for its
//! meeple are read off the board after the tile is put rather than worked
//! out beforehand (the random playout's hot path).

use super::State;
use crate::features::segment_id;
use crate::moves::{Move, Placement};
use crate::playout::random_meeple;
use crate::sampling::Sampler;
use crate::tiles::{meeple_segments, Tile, MAX_SEGMENTS};
use crate::turn::Phase;
use rand::Rng;

impl State {
    /// [`crate::play_random_move`] with its choices drawn by `S`, compiled
    /// into its caller (the random playout's loop: no call and no saving
    /// of registers per move).
    #[inline(always)]
    pub(crate) fn play_random_move_drawn<S: Sampler, R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
    ) -> Option<Move> {
        let n = self.placement_count();
        if n == 0 {
            return None;
        }
        let k = S::index(rng, n);
        // The drawn tile's placement without a second look at the phase.
        let (placement, slot, touched, tile) = if let Phase::Place(tile) = self.phase {
            let (pos, rot) = self.board.nth_fit(tile, k)?;
            let (slot, touched) = self.put_tile(tile, rot, pos);
            (Placement::new(pos, rot), slot, touched, tile)
        } else {
            let placement = self.nth_placement(k)?;
            let (slot, touched) = self.put_placement(placement);
            (placement, slot, touched, self.board.placed(slot).tile)
        };
        let meeple = random_meeple::<S, R>(self.free_segments_placed(slot, tile), rng);
        self.finish_move(slot, touched, meeple);
        Some(Move { placement, meeple })
    }

    /// [`State::free_segments`] of the tile just put in `slot`, before its
    /// meeple and scoring: the segments whose feature holds no meeple
    /// (fields only with farmers; none when the seat has no meeple left).
    /// The joins are made, so this reads each segment's root.
    #[inline(always)]
    fn free_segments_placed(&self, slot: usize, tile: Tile) -> u8 {
        if self.supply[self.to_play] == 0 {
            return 0;
        }
        // Every id of the slot is a segment or a singleton with no meeple
        // (`Features::init_tile`), so all eight are read without a branch.
        let mut occupied = 0u8;
        for i in 0..MAX_SEGMENTS as u8 {
            let root = self.features.root(segment_id(slot, i));
            occupied |= u8::from(self.features.meeples(root) > 0) << i;
        }
        meeple_segments(tile, self.rules().farmers) & !occupied
    }
}
