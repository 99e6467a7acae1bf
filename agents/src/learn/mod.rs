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

use crate::params::Params;
use crate::spec::SpecError;
use engine::{Action, Phase, State};
use std::path::Path;
use std::sync::Arc;

/// The `eval=` parameter shared by the agents that take a model.
pub const EVAL_PARAM: crate::params::Param = crate::params::Param::new(
    "eval",
    crate::params::Values::Text("a model file written by `carcassonne train`"),
    "none",
    "value positions by this model fitted on self-play (read once, shared)",
);

/// The model of an agent's `eval=FILE` parameter, if given, read and
/// checked (once per process: [`crate::models`]).
///
/// # Errors
/// The file cannot be read, is not a model, or was fitted on other
/// features than this build's.
pub fn eval_param(params: &Params<'_, '_>) -> Result<Option<Arc<ValueModel>>, SpecError> {
    params
        .text("eval")
        .map(|path| crate::models::value_model(Path::new(path)).map_err(SpecError))
        .transpose()
}

/// What makes agents whose `eval=` parameter gave `model` unsuited to a
/// game ([`crate::Factory::unsuited_to`]): why the model may predict
/// badly there, if it says; `None` without a model.
pub fn eval_unsuited(model: Option<Arc<ValueModel>>) -> Option<crate::spec::Unsuited> {
    let model = model?;
    Some(Arc::new(move |rules: &engine::Rules, players: usize| {
        let why = model.unsuited_to(rules, players)?;
        Some(format!("its eval= model is {why}"))
    }))
}

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
