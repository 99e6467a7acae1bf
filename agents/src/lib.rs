//! Agents for the Carcassonne engine: one small [`Agent`] trait and the
//! agents built from spec strings such as `mcts:iterations=2000,c=0.7`.
//!
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
//! - [`game`]: plays one game between agents, with separate randomness
//!   for the tile draws and for each agent, and returns its record.

pub mod clock;
pub mod eval;
pub mod game;
pub mod greedy;
pub mod ismcts;
pub mod mcts;
pub mod params;
pub mod random;
pub mod solver;
pub mod spec;
pub mod star25;
#[cfg(test)]
mod test_support;

use engine::{Action, SeatView};

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
}

pub use spec::{from_spec, SpecError};
