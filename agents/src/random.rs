//! `random`: a uniformly random legal move.
//!
//! The placement is uniform over the legal (cell, rotation) pairs; the
//! meeple is placed with probability `meeple` (default: uniform over
//! "none" and the free segments, as in `carcassonne bench`), on a free
//! segment chosen uniformly.

use crate::{Agent, AgentRng};
use engine::playout::random_move;
use engine::{Move, SeatView};
use rand::Rng;

/// The random agent.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    name: String,
    meeple: Option<f64>,
}

impl RandomAgent {
    /// Uniform over placements, then over {none} ∪ free segments; with
    /// `meeple = Some(p)`, a meeple with probability `p` when one can go.
    pub fn new(name: String, meeple: Option<f64>) -> RandomAgent {
        RandomAgent { name, meeple }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn select(&mut self, view: &SeatView<'_>, rng: &mut AgentRng) -> Move {
        let state = view.state();
        let Some(p) = self.meeple else {
            return random_move(state, rng).expect("a placeable tile was drawn");
        };
        let n = state.placement_count();
        let placement = state
            .nth_placement(rng.gen_range(0..n))
            .expect("a placeable tile was drawn");
        let free = state.free_segments(placement);
        let meeple = (free != 0 && rng.gen_bool(p)).then(|| {
            let mut f = free;
            for _ in 0..rng.gen_range(0..free.count_ones()) {
                f &= f - 1;
            }
            f.trailing_zeros() as u8
        });
        Move { placement, meeple }
    }
}
