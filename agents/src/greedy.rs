//! `greedy`: one-ply lookahead on the end-now score advantage.
//!
//! For every legal move the agent evaluates the position it makes as if
//! the game ended right then ([`crate::eval`], without copying the
//! position: one [`State::end_now`] scores all the moves of a position): each seat's points so far plus the final scoring of
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
//!
//! With The Gifts, opening a gift is valued by the best move after it
//! (two plies: open, then place; an opened gift no longer counts its 2
//! end-of-game points), Take 2 by the position after opening it (its
//! second tile is chance, not looked at), and Take 2's choice by the best
//! move with each tile. Hidden cards of other seats count 2 each whatever
//! they are, so the agent works on any determinization of its view.
//!
//! `greedy:eval=MODEL.json` values each action instead by a value model
//! fitted on self-play ([`crate::learn`]): the mover's predicted final
//! lead right after it (the exact lead when it ends the game).

use crate::eval::{advantage, advantage_after, end_now_scores};
use crate::learn::{self, ValueModel};
use crate::models;
use crate::spec::AgentKind;
use crate::{Agent, AgentError, Context, Decision, Lifecycle};
use engine::{Action, EndNow, Move, Phase, State};
use rand::Rng;
use std::sync::Arc;

/// The `greedy` agent in the spec registry (`eval=` optional).
pub const KIND: AgentKind = AgentKind {
    name: "greedy",
    params: &[models::EVAL_PARAM],
    build: |name, params| {
        let mut agent = GreedyAgent::new(name);
        agent.model = models::eval_param(params)?;
        let unsuited = models::eval_unsuited(agent.model.clone());
        Ok(crate::spec::Make::cloning(agent).unsuited(unsuited))
    },
};

/// The greedy agent.
#[derive(Clone, Debug)]
pub struct GreedyAgent {
    name: String,
    /// The value model of `eval=`, if any.
    model: Option<Arc<ValueModel>>,
}

impl GreedyAgent {
    /// A greedy agent reporting itself as `name`.
    pub fn new(name: String) -> GreedyAgent {
        GreedyAgent { name, model: None }
    }
}

/// The legal action of highest value by `model` ([`learn::action_value`]),
/// ties broken uniformly with `rng`.
pub fn model_action<R: Rng + ?Sized>(model: &ValueModel, state: &State, rng: &mut R) -> Action {
    // Values in thousandths of a point: equal up to rounding is a tie.
    let milli = |v: f64| (v * 1000.0).round().clamp(-1e9, 1e9) as i32;
    best_of(rng, |f| {
        state.for_each_action(|a| f(milli(learn::action_value(model, state, a)), a))
    })
    .expect("the seat has a legal action")
    .1
}

/// The value the greedy agent gives `mv` in `state`: the mover's end-now
/// score minus the best other seat's, right after the move.
pub fn move_value(state: &State, mv: Move) -> i32 {
    advantage_after(&mut state.end_now(), Action::Place(mv))
}

/// The legal move of highest [`move_value`], ties broken uniformly with
/// `rng`. The state must be in the place phase.
pub fn greedy_move<R: Rng + ?Sized>(state: &State, rng: &mut R) -> Move {
    // One end-now scoring of the position shared by all its moves.
    let mut end_now = state.end_now();
    best_of(rng, |f| {
        state.for_each_move(|m| f(advantage_after(&mut end_now, Action::Place(m)), m))
    })
    .expect("a placeable tile was drawn")
    .1
}

/// The value of `action` for the seat to play: as [`move_value`] for a
/// placement; for a gift opening or Take 2's choice, the value of the best
/// move after it (or, when a tile must first be drawn, of the position).
pub fn action_value(state: &State, action: Action) -> i32 {
    action_value_in(&mut state.end_now(), action)
}

/// [`action_value`] in the position of `end_now`, which scores its
/// placements (shared by the actions of one position).
pub fn action_value_in(end_now: &mut EndNow<'_>, action: Action) -> i32 {
    match action {
        Action::Place(_) => advantage_after(end_now, action),
        Action::Open(_) | Action::Keep(_) => {
            let state = end_now.state();
            let seat = state.to_play();
            let mut after = state.clone();
            after.play_action_unchecked(action);
            if matches!(after.phase(), Phase::Place(_) | Phase::PlaceHand) {
                let mut best = i32::MIN;
                let mut end_now = after.end_now();
                after.for_each_move(|m| {
                    best = best.max(advantage_after(&mut end_now, Action::Place(m)))
                });
                best
            } else {
                advantage(&end_now_scores(&after), state.players(), seat)
            }
        }
    }
}

/// The legal action of highest [`action_value`], ties broken uniformly.
pub fn greedy_action<R: Rng + ?Sized>(state: &State, rng: &mut R) -> Action {
    let mut end_now = state.end_now();
    best_of(rng, |f| {
        state.for_each_action(|a| f(action_value_in(&mut end_now, a), a))
    })
    .expect("the seat has a legal action")
    .1
}

/// The item of highest value among those `each` produces, ties broken by
/// reservoir sampling with `rng`.
fn best_of<T: Copy, R: Rng + ?Sized>(
    rng: &mut R,
    each: impl FnOnce(&mut dyn FnMut(i32, T)),
) -> Option<(i32, T)> {
    let mut best: Option<(i32, T)> = None;
    let mut ties = 0u32;
    each(&mut |v, item| match best {
        Some((b, _)) if v < b => {}
        Some((b, _)) if v == b => {
            ties += 1;
            if rng.gen_range(0..ties) == 0 {
                best = Some((v, item));
            }
        }
        _ => {
            best = Some((v, item));
            ties = 1;
        }
    });
    best
}

impl Agent for GreedyAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn decide(&mut self, cx: Context<'_>) -> Result<Decision, AgentError> {
        let state = cx.view.determinize(cx.rng);
        Ok(Decision::new(match &self.model {
            Some(model) => model_action(model, &state, cx.rng),
            None => greedy_action(&state, cx.rng),
        }))
    }
}

impl Lifecycle for GreedyAgent {}
