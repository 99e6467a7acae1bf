//! Learning from self-play: the position features, linear value models
//! fitted to self-play outcomes, and how agents use them (`eval=`).
//!
//! - [`features`]: a seat's view as [`FEATURE_COUNT`] numbers.
//! - [`model`]: the model file and its predictions.
//! - [`ridge`]: fitting a model (ridge regression).

pub mod features;
pub mod model;
pub mod ridge;

pub use features::{extract, FeatureVector, FEATURES, FEATURE_COUNT};
pub use model::{FittedOn, LoadError, ModelError, ValueModel};

use engine::{Action, Phase, State};

/// The model's value of `action` for the seat to play in `state`: its
/// predicted final lead right after the action; for a gift opening or
/// Take 2's choice that leaves the seat to place a tile, after the best
/// placement that follows.
pub fn action_value(model: &ValueModel, state: &State, action: Action) -> f64 {
    let seat = state.to_play();
    let mut after = state.clone();
    after.play_action_unchecked(action);
    if !matches!(action, Action::Place(_)) && matches!(after.phase(), Phase::Place(_)) {
        let mut best = f64::NEG_INFINITY;
        after.for_each_action(|a| {
            if let Action::Place(_) = a {
                best = best.max(action_value(model, &after, a));
            }
        });
        if best.is_finite() {
            return best;
        }
    }
    model.lead(&after, seat)
}
