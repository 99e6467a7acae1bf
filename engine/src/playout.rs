//! Uniformly random play: the reference playout of `carcassonne bench` and
//! the default rollout of search agents.
//!
//! A random move picks the placement uniformly over the legal (cell,
//! rotation) pairs, then the meeple uniformly over "none" and the free
//! segments of the placed tile.

use crate::moves::Move;
use crate::state::{Phase, State};
use rand::Rng;

/// A uniformly random legal move, or `None` outside [`Phase::Place`].
#[inline]
pub fn random_move<R: Rng + ?Sized>(state: &State, rng: &mut R) -> Option<Move> {
    let n = state.placement_count();
    if n == 0 {
        return None;
    }
    let placement = state.nth_placement(rng.gen_range(0..n))?;
    let free = state.free_segments(placement);
    let k = rng.gen_range(0..=free.count_ones());
    let meeple = (k > 0).then(|| {
        let mut f = free;
        for _ in 1..k {
            f &= f - 1;
        }
        f.trailing_zeros() as u8
    });
    Some(Move { placement, meeple })
}

/// Play `state` to the end with random draws and random moves, all from
/// `rng`.
pub fn random_playout<R: Rng + ?Sized>(state: &mut State, rng: &mut R) {
    loop {
        match state.phase() {
            Phase::Draw => {
                state.draw_random(rng);
            }
            Phase::Place(_) => {
                let mv = random_move(state, rng).expect("a drawn tile is placeable");
                state.play_unchecked(mv);
            }
            Phase::Over => return,
        }
    }
}
