//! The interface between a search and a model of the game: given
//! positions as their seat to play sees them, a value for every seat and
//! a prior over the legal actions of each.
//!
//! The scale of the values is the outcome of a finished game
//! ([`outcome_value`]): the search's value of a game end, the network's
//! value target and what every evaluator answers.
//!
//! Positions come in batches so that a network evaluates many leaves in
//! one call; an evaluator must not depend on the batch it is given (the
//! same position gives the same answer alone or in a batch).

use engine::{Action, Seat, SeatView, State, MAX_PLAYERS};

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
    /// scale of [`outcome_value`] (the value of a
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

/// The value target of every seat from the final totals, in the order
/// given ([`outcome_value`] of each).
///
/// # Examples
/// ```
/// use agents::evaluator::outcome_values;
///
/// assert_eq!(outcome_values(&[30, 20]), vec![1.0, -1.0]);
/// assert_eq!(outcome_values(&[30, 30]), vec![0.0, 0.0]);
/// assert_eq!(outcome_values(&[30, 20, 10]), vec![1.0, 0.0, -1.0]);
/// assert_eq!(outcome_values(&[30, 30, 10]), vec![0.5, 0.5, -1.0]);
/// ```
pub fn outcome_values(totals: &[u32]) -> Vec<f32> {
    outcome_array(totals)[..totals.len()].to_vec()
}

/// [`outcome_value`] of every seat of `totals` (at most [`MAX_PLAYERS`]),
/// 0 past them, without allocating.
pub fn outcome_array(totals: &[u32]) -> [f32; MAX_PLAYERS] {
    let mut values = [0.0; MAX_PLAYERS];
    for (s, v) in values.iter_mut().enumerate().take(totals.len()) {
        *v = outcome_value(totals, s);
    }
    values
}

/// The value of the finished game to seat `seat`, given every seat's
/// final total: the mean, over the other seats, of 1 for each it finished
/// ahead of, 0 for each level with it and −1 for each ahead of it. With two
/// players the winner gets 1, the loser −1 and a tie 0; with more the
/// places count (three players: first 1, second 0, last −1), as they do in
/// a tournament's head-to-head comparisons (`pairwise.csv`). The scale of
/// [`Evaluation::values`], the training target of the value
/// head and the value of a finished game in `az`'s search
/// ([`terminal_values`]).
pub fn outcome_value(totals: &[u32], seat: usize) -> f32 {
    let others = totals.len().saturating_sub(1).max(1) as f32;
    let mine = totals[seat];
    let sum: f32 = totals
        .iter()
        .map(|&other| match mine.cmp(&other) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Less => -1.0,
            std::cmp::Ordering::Equal => 0.0,
        })
        .sum();
    sum / others
}

/// The value of a finished game for each seat, on the evaluator's scale
/// `[-1, 1]`: [`outcome_value`] of the final totals
/// (the mean of 1, 0 or −1 against each other seat: 1 for a sole winner
/// of two, 0 for each of two tied, with three players first 1, second 0,
/// last −1).
pub fn terminal_values(state: &State) -> [f64; MAX_PLAYERS] {
    assert!(state.is_over(), "the game is over");
    let players = state.players();
    let mut totals = [0u32; MAX_PLAYERS];
    for (s, total) in totals.iter_mut().enumerate().take(players) {
        *total = state.score(Seat(s as u8)).total();
    }
    outcome_array(&totals[..players]).map(f64::from)
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
