//! Agents for the Carcassonne engine: one small [`Agent`] trait and the
//! agents built from spec strings such as `mcts:iterations=2000,c=0.7`.
//!
//! - [`action_features`]: one row of numbers per legal action (versioned),
//!   for learners that score actions.
//! - [`spec`]: parsing spec strings into agents, with clear errors.
//! - [`params`]: reading an agent's parameters, the same way for all.
//! - [`random`]: uniform over the legal moves.
//! - [`greedy`]: one-ply lookahead on the end-now score advantage.
//! - [`mcts`]: UCT search with sampled tile draws and greedy rollouts.
//! - [`clock`]: time budgets per move and per game, on an injectable clock.
//! - [`ismcts`]: information-set MCTS over the seat's view.
//! - [`solver`]: exact expectimax over the last tiles.
//! - [`star25`]: expectimax with Star2.5 pruning over the tile draws.
//! - [`eval`]: the end-now evaluation the greedy and MCTS agents share.
//! - [`models`]: the files of `eval=` and `net=`, read once per process.
//! - [`learn`]: position features and value models fitted on self-play
//!   (`eval=` of `greedy`, `mcts` and `ismcts`).
//! - [`az`]: PUCT search guided by a model of values and priors
//!   ([`az::Evaluator`]).
//! - [`neural`]: the policy and value network of `az` (encoding,
//!   weights, training examples, training).
//! - [`game`]: plays one game between agents, with separate randomness
//!   for the tile draws and for each agent, and returns its record.
//! - [`history`]: the game's start and turns as a seat may see them, for
//!   agents that follow the game themselves (external bots).

pub mod action_features;
pub mod az;
pub mod clock;
pub mod eval;
pub mod game;
pub mod greedy;
pub mod history;
pub mod ismcts;
pub mod learn;
pub mod mcts;
pub mod models;
pub mod neural;
pub mod params;
pub mod random;
pub mod solver;
pub mod spec;
pub mod star25;
#[cfg(test)]
mod test_support;

use engine::{Action, SeatView};
use history::{GameEnd, GameStart, History};

/// The random generator every agent gets: one per seat and game, seeded
/// by the caller, separate from the tile draws.
pub type AgentRng = rand_pcg::Pcg64Mcg;

/// A player. It sees only its seat's view and draws randomness only from
/// the generator it is given, so the same seed gives the same move.
pub trait Agent: Send {
    /// The agent's spec string, e.g. `mcts:iterations=2000,c=0.7`.
    fn name(&self) -> &str;

    /// Choose a legal action for the seat of `view`, which is to play: in
    /// `Phase::Place` a placement (with its meeple) or, with The Gifts, a
    /// gift to open first; in `Phase::Choose` (after Take 2) the tile to
    /// keep.
    fn select(&mut self, view: &SeatView<'_>, rng: &mut AgentRng) -> Action;

    /// Forget anything kept from an earlier game.
    fn reset(&mut self) {}

    /// A game begins (after [`Agent::reset`]). The default does nothing.
    fn new_game(&mut self, _start: &GameStart) {}

    /// Choose an action as [`Agent::select`] does, also given the turns
    /// played so far; an `Err` forfeits the game with that reason (an
    /// external bot that times out or breaks the protocol). The default
    /// calls [`Agent::select`].
    fn decide(
        &mut self,
        view: &SeatView<'_>,
        _history: &History<'_>,
        rng: &mut AgentRng,
    ) -> Result<Action, String> {
        Ok(self.select(view, rng))
    }

    /// The game is over (or stopped at a forfeit); `history` holds every
    /// turn. The default does nothing.
    fn game_over(&mut self, _history: &History<'_>, _end: &GameEnd<'_>) {}

    /// For search agents: the visits of each action at the root of the
    /// search behind the last [`Agent::select`] (self-play data records
    /// them); `None` for agents that do not search or did not this time.
    fn root_visits(&self) -> Option<Vec<(Action, u32)>> {
        None
    }

    /// Why the agent may play badly in games of `players` seats under
    /// `rules` — its value model (`eval=`) was fitted on other games —
    /// or `None` when nothing is known against it. The command line
    /// prints it as a warning before a tournament.
    fn unsuited_to(&self, _rules: &engine::Rules, _players: usize) -> Option<String> {
        None
    }
}

pub use spec::{from_spec, Factory, SpecError};
