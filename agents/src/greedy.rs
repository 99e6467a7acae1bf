//! `greedy`: one-ply lookahead on the end-now score advantage.
//!
//! For every legal move the agent plays it on a copy of the position and
//! evaluates the result as if the game ended right then
//! ([`crate::eval`]): each seat's points so far plus the final scoring of
//! every meeple still on the board (incomplete roads 1 per tile, cities 1
//! per tile and shield, monasteries 1 + neighbours, fields 3 per completed
//! city touching them when farmers are on). The value of a move is the
//! mover's end-now score minus the **best** end-now score among the other
//! seats (with two seats: the score difference). So a meeple on a feature
//! that is still growing is worth what the feature is worth today, points
//! a move gives an opponent count against it, and completing a feature
//! counts double for cities as in play.
//!
//! The agent takes the move of highest value; equal values are broken
//! uniformly at random with the agent's generator. It has no parameters.
//! It looks no further than the move (no tile draws), so it never reads
//! anything but the position its seat sees.

use crate::eval::{advantage, end_now_scores_after};
use crate::{Agent, AgentRng};
use engine::{Move, SeatView, State};
use rand::Rng;

/// The greedy agent.
#[derive(Clone, Debug)]
pub struct GreedyAgent {
    name: String,
}

impl GreedyAgent {
    /// A greedy agent reporting itself as `name`.
    pub fn new(name: String) -> GreedyAgent {
        GreedyAgent { name }
    }
}

/// The value the greedy agent gives `mv` in `state`: the mover's end-now
/// score minus the best other seat's, right after the move.
pub fn move_value(state: &State, mv: Move) -> i32 {
    let seat = state.to_play();
    advantage(&end_now_scores_after(state, mv), state.players(), seat)
}

/// The best move by [`move_value`] in `state` (which must be in the place
/// phase), ties broken uniformly with `rng`.
pub fn greedy_move<R: Rng + ?Sized>(state: &State, rng: &mut R) -> Move {
    let mut best: Option<(i32, Move)> = None;
    let mut ties = 0u32;
    state.for_each_move(|mv| {
        let v = move_value(state, mv);
        match best {
            Some((b, _)) if v < b => {}
            Some((b, _)) if v == b => {
                // Reservoir sampling: the k-th equal move replaces the
                // kept one with probability 1/k.
                ties += 1;
                if rng.gen_range(0..ties) == 0 {
                    best = Some((v, mv));
                }
            }
            _ => {
                best = Some((v, mv));
                ties = 1;
            }
        }
    });
    best.expect("a placeable tile was drawn").1
}

impl Agent for GreedyAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn select(&mut self, view: &SeatView<'_>, rng: &mut AgentRng) -> Move {
        greedy_move(view.state(), rng)
    }
}
