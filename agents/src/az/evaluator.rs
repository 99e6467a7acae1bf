//! The interface between a search and a model of the game: given
//! positions as their seat to play sees them, a value for every seat and
//! a prior over the legal actions of each.
//!
//! Positions come in batches so that a network evaluates many leaves in
//! one call; an evaluator must not depend on the batch it is given (the
//! same position gives the same answer alone or in a batch).

use engine::{Action, SeatView};

/// One position to evaluate: what the seat to play sees, and its legal
/// actions in the order the caller keeps them.
#[derive(Clone, Copy)]
pub struct EvalRequest<'a> {
    /// The view of the seat that is to play.
    pub view: SeatView<'a>,
    /// The legal actions to give priors to (none may be illegal).
    pub actions: &'a [Action],
}

/// What an evaluator says of one position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evaluation {
    /// For every seat of the game, in seat order (`players` long), the
    /// expected outcome of the game for that seat in `[-1, 1]`, on the
    /// scale of [`crate::neural::data::outcome_value`] (the value of a
    /// finished game): higher is better for that seat.
    pub values: Vec<f32>,
    /// One prior probability per requested action, in the same order,
    /// each in `[0, 1]`, summing to 1 (an empty list when there are no
    /// actions).
    pub priors: Vec<f32>,
}

/// A model the search asks for values and priors.
pub trait Evaluator: Send + Sync {
    /// Evaluate every position of `batch`, in order: the answer has one
    /// [`Evaluation`] per request.
    fn evaluate(&self, batch: &[EvalRequest<'_>]) -> Vec<Evaluation>;
}

/// The evaluator that knows nothing: every seat's value 0 and a uniform
/// prior over the legal actions. With it the search is plain PUCT with
/// uninformed leaves (a baseline, and the model of the tests).
#[derive(Clone, Copy, Debug, Default)]
pub struct Uniform;

impl Evaluator for Uniform {
    fn evaluate(&self, batch: &[EvalRequest<'_>]) -> Vec<Evaluation> {
        batch
            .iter()
            .map(|request| {
                let n = request.actions.len();
                Evaluation {
                    values: vec![0.0; request.view.players()],
                    priors: vec![1.0 / n as f32; n],
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Rules, Seat, State};

    #[test]
    fn uniform_gives_every_legal_action_the_same_prior_and_every_seat_zero() {
        let mut state = State::new(Rules::default(), 3, Seat(0));
        let mut rng = <rand_pcg::Pcg64Mcg as rand::SeedableRng>::seed_from_u64(1);
        while state.is_chance() {
            state.apply_chance(&mut rng);
        }
        let actions = state.legal_actions();
        let view = state.view(state.to_play());
        let out = Uniform.evaluate(&[EvalRequest {
            view,
            actions: &actions,
        }]);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].values, vec![0.0; 3]);
        assert_eq!(out[0].priors.len(), actions.len());
        let sum: f32 = out[0].priors.iter().sum();
        assert!((sum - 1.0).abs() < 1e-4, "priors sum to {sum}");
    }
}
