//! Agents for the Carcassonne engine: one small [`Agent`] trait (one
//! decision method, [`Agent::decide`], given a [`Context`] and answering a
//! [`Decision`]) and the agents built from spec strings such as
//! `mcts:iterations=2000,c=0.7`.
//!
//! - [`action_features`]: one row of numbers per legal action (versioned),
//!   for learners that score actions.
//! - [`spec`]: the agents' vocabulary — a spec string's parts, why one
//!   describes no agent, parameters declared and read the same way for
//!   all (below every agent).
//! - [`registry`]: every agent this build knows, and the checked
//!   [`Factory`] a spec string becomes (above every agent).
//! - [`random`]: uniform over the legal moves.
//! - [`greedy`]: one-ply lookahead on the end-now score advantage.
//! - [`mcts`]: UCT search with sampled tile draws and greedy rollouts.
//! - [`clock`]: time budgets per move and per game, on an injectable clock.
//! - [`ismcts`]: information-set MCTS over the seat's view.
//! - [`solver`]: exact expectimax over the last tiles.
//! - [`star25`]: expectimax with Star2.5 pruning over the tile draws.
//! - [`eval`]: the end-now evaluation the greedy and MCTS agents share.
//! - [`capped`]: reading the files of models and training within a size
//!   cap, from regular files only (never a FIFO or a device).
//! - [`models`]: the files of `eval=` and `net=`, read once per process.
//! - [`learn`]: position features and value models fitted on self-play
//!   (`eval=` of `greedy`, `mcts` and `ismcts`).
//! - [`evaluator`]: the interface between a search and a model of values
//!   and priors, and the value scale of a finished game (a leaf both
//!   [`az`] and [`neural`] use).
//! - [`az`]: PUCT search guided by an [`evaluator::Evaluator`].
//! - `neural` (the default feature `neural`): the policy and value
//!   network of `az` (encoding, weights, training examples, training).
//! - [`game`]: plays one game between agents, with separate randomness
//!   for the tile draws and for each agent, and returns its record.
//! - [`history`]: the game's start and turns as a seat may see them, for
//!   agents that follow the game themselves (external bots).
//! - [`observed`]: an agent that plays as another and tells an observer
//!   of each decision (self-play recorders, timers).

pub mod action_features;
pub mod az;
pub mod capped;
pub mod clock;
pub mod eval;
pub mod evaluator;
pub mod game;
pub mod greedy;
pub mod history;
pub mod ismcts;
pub mod learn;
pub mod mcts;
pub mod models;
#[cfg(feature = "neural")]
pub mod neural;
pub mod observed;
pub mod random;
pub mod registry;
pub mod solver;
pub mod spec;
pub mod star25;
#[cfg(test)]
mod test_support;

use engine::{Action, SeatView};
use history::{GameEnd, GameStart, History};
use std::fmt;
use std::time::Duration;

/// The random generator every agent gets: one per seat and game, seeded
/// by the caller, separate from the tile draws.
pub type AgentRng = rand_pcg::Pcg64Mcg;

/// A player. It sees only its seat's view and draws randomness only from
/// the generator it is given, so the same seed gives the same move.
///
/// One decision method, [`Agent::decide`]; what the game tells the agent
/// besides (a game begins, it is over) comes through its [`Lifecycle`].
/// What an agent's files were fitted on is a question for its
/// [`Factory`] ([`Factory::unsuited_to`]).
///
/// ```
/// use agents::{Agent, AgentError, AgentRng, Context, Decision, Lifecycle};
/// use engine::{Rules, Seat, State};
/// use rand::SeedableRng;
///
/// /// The first legal action, always.
/// struct First;
///
/// impl Lifecycle for First {}
///
/// impl Agent for First {
///     fn name(&self) -> &str {
///         "first"
///     }
///
///     fn decide(&mut self, cx: Context<'_>) -> Result<Decision, AgentError> {
///         let mut first = None;
///         cx.view.for_each_action(|a| {
///             first.get_or_insert(a);
///         });
///         Ok(Decision::new(first.expect("the seat is to play")))
///     }
/// }
///
/// let mut rng = AgentRng::seed_from_u64(1);
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// state.apply_chance(&mut rng); // the first tile drawn
/// let view = state.view(Seat(0));
/// let decision = First.decide(Context::new(&view, &mut rng)).unwrap();
/// assert_eq!(state.check_action(decision.action), Ok(()));
/// assert!(decision.search.is_none());
/// ```
pub trait Agent: Lifecycle + Send {
    /// The agent's spec string, e.g. `mcts:iterations=2000,c=0.7`.
    fn name(&self) -> &str;

    /// Choose a legal action for the seat of `cx.view`, which is to play:
    /// in `Phase::Place` a placement (with its meeple) or, with The Gifts,
    /// a gift to open first; in `Phase::Choose` (after Take 2) the tile to
    /// keep. A search agent says what its search found
    /// ([`Decision::search`]).
    ///
    /// # Errors
    ///
    /// The agent gives up the game instead ([`AgentError`]): an external
    /// bot that timed out or broke the protocol, or an agent that follows
    /// the game and was given no history. The game runner records that
    /// as a forfeit with the error's text.
    fn decide(&mut self, cx: Context<'_>) -> Result<Decision, AgentError>;
}

/// A boxed agent is an agent (so a wrapper such as [`Observed`] can hold
/// one).
impl<A: Agent + ?Sized> Agent for Box<A> {
    fn name(&self) -> &str {
        (**self).name()
    }

    fn decide(&mut self, cx: Context<'_>) -> Result<Decision, AgentError> {
        (**self).decide(cx)
    }
}

/// Forwards to the boxed value.
impl<L: Lifecycle + ?Sized> Lifecycle for Box<L> {
    fn reset(&mut self) {
        (**self).reset();
    }

    fn new_game(&mut self, start: &GameStart) {
        (**self).new_game(start);
    }

    fn game_over(&mut self, history: &History<'_>, end: &GameEnd<'_>) {
        (**self).game_over(history, end);
    }
}

/// What the game tells an agent besides asking it for decisions. Every
/// method does nothing by default; agents that keep something between
/// decisions (search trees, time used, an external process) listen.
pub trait Lifecycle {
    /// Forget anything kept from an earlier game.
    fn reset(&mut self) {}

    /// A game begins (after [`Lifecycle::reset`]).
    fn new_game(&mut self, _start: &GameStart) {}

    /// The game is over (or stopped at a forfeit); `history` holds every
    /// turn.
    fn game_over(&mut self, _history: &History<'_>, _end: &GameEnd<'_>) {}
}

/// One decision to make: what the seat sees, the game so far, the
/// generator to draw from and the time the caller allows.
#[derive(Debug)]
#[non_exhaustive]
pub struct Context<'a> {
    /// The deciding seat's view; that seat is to play.
    pub view: &'a SeatView<'a>,
    /// The turns played so far as the seat saw them, when the caller
    /// follows a game (the runner always does); `None` for a position on
    /// its own. Agents that follow the game (external bots, `reuse=true`)
    /// need it.
    pub history: Option<History<'a>>,
    /// The agent's generator for this game.
    pub rng: &'a mut AgentRng,
    /// The longest this decision may take, from when it is asked, if the
    /// caller imposes a limit. Search agents stop by then, on top of their
    /// own budget (their iterations or `time_ms`, whichever ends first);
    /// the others are fast anyway.
    pub time_left: Option<Duration>,
    /// Search only these of the legal actions at the root, when the
    /// caller asks (an analysis valuing a move the agent would not have
    /// looked at); `None`: all of them. `mcts` and `ismcts` honour it;
    /// other agents may ignore it. Actions that are not legal are left
    /// out; if none is left, all are searched.
    pub only: Option<&'a [Action]>,
}

impl<'a> Context<'a> {
    /// The decision of `view`'s seat, drawing from `rng`, with no
    /// history and no time limit.
    pub fn new(view: &'a SeatView<'a>, rng: &'a mut AgentRng) -> Context<'a> {
        Context {
            view,
            history: None,
            rng,
            time_left: None,
            only: None,
        }
    }

    /// The same decision in a game whose turns so far are `history`.
    pub fn with_history(self, history: History<'a>) -> Context<'a> {
        Context {
            history: Some(history),
            ..self
        }
    }

    /// The same decision, searching only `actions` at the root
    /// ([`Context::only`]).
    pub fn with_only(self, actions: &'a [Action]) -> Context<'a> {
        Context {
            only: Some(actions),
            ..self
        }
    }

    /// The same decision to be taken within `time_left`.
    pub fn with_time_left(self, time_left: Duration) -> Context<'a> {
        Context {
            time_left: Some(time_left),
            ..self
        }
    }
}

/// An agent's answer: the action, and what its search found if it
/// searched.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The action to play.
    pub action: Action,
    /// The search behind it; `None` for agents that do not search, or
    /// did not this time (a forced move, the endgame solver).
    pub search: Option<SearchStats>,
}

impl Decision {
    /// `action`, chosen without a search.
    pub fn new(action: Action) -> Decision {
        Decision {
            action,
            search: None,
        }
    }

    /// `action`, chosen by a search that found `stats`.
    pub fn searched(action: Action, stats: SearchStats) -> Decision {
        Decision {
            action,
            search: Some(stats),
        }
    }

    /// The visits of each action at the root of the search (self-play
    /// data records them), if there was one.
    pub fn root_visits(&self) -> Option<&[(Action, u32)]> {
        self.search.as_ref().map(|s| s.root_visits.as_slice())
    }
}

impl From<Action> for Decision {
    fn from(action: Action) -> Decision {
        Decision::new(action)
    }
}

/// What a search found at its root.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchStats {
    /// Each action the search tried at the root, with its visits (summed
    /// over threads), in the search's order.
    pub root_visits: Vec<(Action, u32)>,
    /// Iterations run (over all threads).
    pub iterations: u32,
    /// The mean value of the chosen action for the deciding seat, on the
    /// agent's own scale (`mcts`: its reward in 0..=1; `az`: the
    /// network's value in -1..=1).
    pub value: f64,
    /// A policy over [`SearchStats::root_visits`]' actions (in their
    /// order, summing to 1) to learn from instead of the visit shares:
    /// `az:root=gumbel`'s improved policy. `None`: the visit shares.
    pub policy: Option<Vec<f32>>,
    /// A full search, whose policy self-play records as a training
    /// example; `false` for the fast searches of playout cap
    /// randomisation (`az:cap_full=`), which are played, not recorded.
    pub full: bool,
    /// The search's value of the position for the deciding seat on the
    /// scale of a finished game's value (`[-1, 1]`,
    /// [`evaluator::outcome_value`]), if the agent's values are on that
    /// scale (`az` without `lead=`: the mean of the values its root's
    /// visits found; `None` for `mcts`, whose rewards are on another,
    /// and for `az` with `lead=`, whose values blend in the lead): self-play
    /// records it as a value target (`train-net --search-value`).
    pub root_value: Option<f64>,
    /// What the search found of each action of
    /// [`SearchStats::root_visits`], in their order (empty when the agent
    /// does not say): analyses read it.
    pub root_values: Vec<RootValue>,
}

impl SearchStats {
    /// The actions of the root with their visits and values, in the
    /// search's order (values `None` where the agent gives none).
    pub fn root(&self) -> impl Iterator<Item = (Action, u32, Option<&RootValue>)> + '_ {
        self.root_visits
            .iter()
            .enumerate()
            .map(|(i, &(a, v))| (a, v, self.root_values.get(i)))
    }
}

/// What a search found of one action at its root.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RootValue {
    /// The mean value of the action for the deciding seat, on the agent's
    /// own scale (as [`SearchStats::value`]); 0 if it was not visited.
    pub value: f64,
    /// The prior the search gave the action (`az`: the network's), if it
    /// has one.
    pub prior: Option<f32>,
    /// The mean lead in points of the deciding seat over the best other
    /// seat where the search valued the positions after the action
    /// (`mcts`: at the end of each rollout, by the end-now scores or the
    /// `eval=` model's predicted final lead; the final lead with
    /// `depth=all`), if the agent measures it.
    pub lead: Option<f64>,
    /// The share of those valuations in which the deciding seat led (½
    /// for a tie): its chance of winning as the search sees it (a true
    /// win rate with `depth=all`), if the agent measures it.
    pub win: Option<f64>,
    /// Each seat's mean end-now score (RULES.md: the game scored as if it
    /// ended there) at those valuations, in seat order (seats past the
    /// game's count 0): the expected final scores as the search sees
    /// them (the true final scores with `depth=all`), if the agent
    /// measures them.
    pub scores: Option<[f64; engine::MAX_PLAYERS]>,
}

/// Why an agent gives up the game instead of choosing an action.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AgentError {
    /// The agent follows the game and was asked without its history
    /// ([`Context::history`]).
    NeedsHistory,
    /// The player behind the agent failed: an external bot that timed
    /// out, exited or broke the protocol, or a Python agent that raised.
    /// The reason, as the game's forfeit reports it.
    Failed(String),
}

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentError::NeedsHistory => {
                f.write_str("asked to decide without the game's history, which it follows")
            }
            AgentError::Failed(reason) => f.write_str(reason),
        }
    }
}

impl std::error::Error for AgentError {}

pub use observed::{Observed, Observer};
pub use registry::{from_spec, Factory};
pub use spec::SpecError;
