//! `random`: a uniformly random legal move.
//!
//! The placement is uniform over the legal (cell, rotation) pairs; the
//! meeple is placed with probability `meeple` (default: uniform over
//! "none" and the free segments, as in `carcassonne bench`), on a free
//! segment chosen uniformly. With The Gifts it opens a gift with
//! probability 1/2 when it may (uniformly over cards and targets), and
//! after Take 2 keeps either tile with probability 1/2.

use crate::spec::params::{Param, Params, Values};
use crate::spec::{AgentKind, SpecError};
use crate::{Agent, AgentError, AgentRng, Context, Decision, Lifecycle};
use engine::{Action, Move, Phase, SeatView};
use rand::Rng;

/// The `random` agent in the spec registry.
pub const KIND: AgentKind = AgentKind {
    name: "random",
    params: PARAMS,
    build: |name, params| {
        Ok(crate::spec::Make::cloning(RandomAgent::from_params(
            name, params,
        )?))
    },
};

/// The parameters of the `random` spec.
pub const PARAMS: &[Param] = &[Param::new(
    "meeple",
    Values::Probability,
    "none",
    "chance of a meeple when one can go (none: uniform over none and the free segments)",
)];

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

    /// The agent of a `random:...` spec.
    ///
    /// # Errors
    ///
    /// A `meeple` that is not a probability.
    pub fn from_params(name: String, params: &Params<'_, '_>) -> Result<RandomAgent, SpecError> {
        let meeple = params.get("meeple")?;
        Ok(RandomAgent::new(name, meeple))
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn decide(&mut self, cx: Context<'_>) -> Result<Decision, AgentError> {
        Ok(Decision::new(self.choose(cx.view, cx.rng)))
    }
}

impl Lifecycle for RandomAgent {}

impl RandomAgent {
    /// The action of `view`, drawn from `rng`.
    fn choose(&self, view: &SeatView<'_>, rng: &mut AgentRng) -> Action {
        let Some(p) = self.meeple else {
            return view.random_action(rng).expect("the seat is to play");
        };
        if !matches!(view.phase(), Phase::Place(_) | Phase::PlaceHand) {
            return view.random_action(rng).expect("the seat is to play");
        }
        // Gifts as in the uniform policy: open one with probability 1/2.
        if view.may_open_gift() && rng.gen_bool(0.5) {
            if let Some(open) = view.random_gift_open(rng) {
                return Action::Open(open);
            }
        }
        let n = view.placement_count();
        let placement = view
            .nth_placement(rng.gen_range(0..n))
            .expect("a placeable tile was drawn");
        let free = view.free_segments(placement);
        let meeple = (free != 0 && rng.gen_bool(p)).then(|| {
            let mut f = free;
            for _ in 0..rng.gen_range(0..free.count_ones()) {
                f &= f - 1;
            }
            f.trailing_zeros() as u8
        });
        Action::Place(Move { placement, meeple })
    }
}
