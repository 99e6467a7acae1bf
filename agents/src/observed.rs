//! An agent that plays as another and tells an [`Observer`] of each of
//! its decisions: self-play data recorders and timers wrap the agent that
//! plays instead of rewriting its forwarding.
//!
//! ```
//! use agents::observed::{Observed, Observer};
//! use agents::{from_spec, Agent, AgentRng, Context, Decision};
//! use engine::{Action, Rules, Seat, SeatView, State};
//! use rand::SeedableRng;
//!
//! /// The actions played, in order.
//! struct Played(Vec<Action>);
//!
//! impl Observer for Played {
//!     fn decided(&mut self, _view: &SeatView<'_>, decision: &Decision) {
//!         self.0.push(decision.action);
//!     }
//! }
//!
//! let mut agent = Observed::new(from_spec("random").unwrap(), Played(Vec::new()));
//! let mut rng = AgentRng::seed_from_u64(1);
//! let mut state = State::new(Rules::default(), 2, Seat(0));
//! state.apply_chance(&mut rng);
//! let view = state.view(Seat(0));
//! let decision = agent.decide(Context::new(&view, &mut rng)).unwrap();
//! assert_eq!(agent.observer().0, [decision.action]);
//! assert_eq!(agent.name(), "random");
//! ```

use crate::history::{GameEnd, GameStart, History};
use crate::{Agent, AgentError, Context, Decision, Lifecycle};
use engine::SeatView;

/// What an [`Observed`] agent tells of the decisions of the agent it
/// wraps.
pub trait Observer: Send {
    /// The agent is about to decide in `view` (a timer starts its clock).
    fn before(&mut self, _view: &SeatView<'_>) {}

    /// The agent chose `decision` in `view`. Not called when it gave up
    /// the game instead ([`AgentError`]).
    fn decided(&mut self, view: &SeatView<'_>, decision: &Decision);
}

/// An agent that plays as `A` (name, decisions and [`Lifecycle`] all
/// forwarded) and tells its observer `O` of each decision.
#[derive(Debug)]
pub struct Observed<A, O> {
    inner: A,
    observer: O,
}

impl<A, O> Observed<A, O> {
    /// Play as `inner`, telling `observer`.
    pub fn new(inner: A, observer: O) -> Observed<A, O> {
        Observed { inner, observer }
    }

    /// The observer.
    pub fn observer(&self) -> &O {
        &self.observer
    }
}

impl<A: Agent, O: Observer> Agent for Observed<A, O> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn decide(&mut self, cx: Context<'_>) -> Result<Decision, AgentError> {
        let view = cx.view;
        self.observer.before(view);
        let decision = self.inner.decide(cx)?;
        self.observer.decided(view, &decision);
        Ok(decision)
    }
}

impl<A: Lifecycle, O> Lifecycle for Observed<A, O> {
    fn reset(&mut self) {
        self.inner.reset();
    }

    fn new_game(&mut self, start: &GameStart) {
        self.inner.new_game(start);
    }

    fn game_over(&mut self, history: &History<'_>, end: &GameEnd<'_>) {
        self.inner.game_over(history, end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::play_game;
    use engine::{Record, Rules};
    use std::sync::{Arc, Mutex};

    /// What the inner agent and the observer were told, in order.
    type Calls = Arc<Mutex<Vec<String>>>;

    /// The first legal action; logs its lifecycle.
    struct First(Calls);

    impl Lifecycle for First {
        fn reset(&mut self) {
            self.0.lock().unwrap().push("reset".into());
        }

        fn new_game(&mut self, _start: &GameStart) {
            self.0.lock().unwrap().push("new_game".into());
        }

        fn game_over(&mut self, history: &History<'_>, _end: &GameEnd<'_>) {
            let turns = history.len();
            self.0.lock().unwrap().push(format!("game_over {turns}"));
        }
    }

    impl Agent for First {
        fn name(&self) -> &str {
            "first"
        }

        fn decide(&mut self, cx: Context<'_>) -> Result<Decision, AgentError> {
            let mut first = None;
            cx.view.for_each_action(|a| {
                first.get_or_insert(a);
            });
            self.0.lock().unwrap().push("decide".into());
            Ok(Decision::new(first.expect("the seat is to play")))
        }
    }

    /// Logs `before` and `decided` with the action.
    struct Log(Calls);

    impl Observer for Log {
        fn before(&mut self, view: &SeatView<'_>) {
            let seat = view.seat().index();
            self.0.lock().unwrap().push(format!("before {seat}"));
        }

        fn decided(&mut self, view: &SeatView<'_>, decision: &Decision) {
            let seat = view.seat().index();
            let action = view.describe(decision.action);
            self.0
                .lock()
                .unwrap()
                .push(format!("decided {seat} {action}"));
        }
    }

    /// The calls of one game of `First` against itself, seat 0 wrapped
    /// or not.
    fn game(observed: bool) -> (Vec<String>, Record) {
        let calls = Calls::default();
        let first: Box<dyn Agent> = Box::new(First(calls.clone()));
        let seat0: Box<dyn Agent> = if observed {
            Box::new(Observed::new(first, Log(calls.clone())))
        } else {
            first
        };
        let mut seats = vec![seat0, Box::new(First(Calls::default())) as Box<dyn Agent>];
        let out = play_game(&mut seats, Rules::default(), 7, &[1, 2]);
        assert_eq!(seats[0].name(), "first");
        let calls = calls.lock().unwrap().clone();
        (calls, out.record)
    }

    #[test]
    fn an_observed_agent_plays_as_its_inner_agent_and_is_observed() {
        let (plain, plain_record) = game(false);
        let (observed, record) = game(true);
        assert_eq!(record, plain_record, "the same game");
        // The inner agent hears everything it heard unwrapped...
        let inner: Vec<&String> = observed
            .iter()
            .filter(|c| !c.starts_with("before") && !c.starts_with("decided"))
            .collect();
        assert_eq!(inner, plain.iter().collect::<Vec<_>>());
        assert_eq!(&plain[..2], ["reset", "new_game"]);
        assert!(plain.last().unwrap().starts_with("game_over"));
        // ... and the observer is told around each decision.
        let decisions = plain.iter().filter(|c| *c == "decide").count();
        assert!(decisions > 10, "{plain:?}");
        for (i, call) in observed.iter().enumerate() {
            if call == "decide" {
                assert_eq!(observed[i - 1], "before 0");
                assert!(observed[i + 1].starts_with("decided 0 "), "{observed:?}");
            }
        }
        let told = observed.iter().filter(|c| c.starts_with("decided")).count();
        assert_eq!(told, decisions);
    }
}
