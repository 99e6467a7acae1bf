//! Time budgets for searching agents, read from an injectable clock.
//!
//! A search asks its [`Budget`] before every iteration whether it may run
//! one more; an iteration is short (tens of microseconds to a millisecond),
//! so a per-move time is kept to within one iteration. The clock is a
//! trait so that tests drive a search with a [`TickClock`], which moves on
//! a fixed step at every reading, and can check how often it is read
//! without timing anything.

use engine::SeatView;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A monotonic clock: the time since some fixed origin.
pub trait Clock: Send + Sync + fmt::Debug {
    /// The time now, since the clock's origin.
    fn now(&self) -> Duration;
}

/// The machine's monotonic clock.
#[derive(Clone, Copy, Debug)]
pub struct WallClock {
    origin: Instant,
}

impl WallClock {
    /// A wall clock starting at zero now.
    pub fn new() -> WallClock {
        WallClock {
            origin: Instant::now(),
        }
    }

    /// A shared wall clock, the default of every agent.
    pub fn shared() -> Arc<dyn Clock> {
        Arc::new(WallClock::new())
    }
}

impl Default for WallClock {
    fn default() -> WallClock {
        WallClock::new()
    }
}

impl Clock for WallClock {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }
}

/// A clock for tests: every reading returns the previous one plus `step`.
#[derive(Debug)]
pub struct TickClock {
    step: Duration,
    readings: AtomicU64,
}

impl TickClock {
    /// A clock at zero that moves on by `step` at each reading.
    pub fn new(step: Duration) -> TickClock {
        TickClock {
            step,
            readings: AtomicU64::new(0),
        }
    }

    /// How many times it was read.
    pub fn readings(&self) -> u64 {
        self.readings.load(Ordering::Relaxed)
    }
}

impl Clock for TickClock {
    fn now(&self) -> Duration {
        let n = self.readings.fetch_add(1, Ordering::Relaxed);
        self.step * u32::try_from(n).unwrap_or(u32::MAX)
    }
}

/// How long one search may run: a number of iterations, or until a time
/// on a clock (then the iteration count is ignored), or a number of
/// iterations cut at a time the caller imposes.
#[derive(Clone, Debug)]
pub enum Budget {
    /// Exactly this many iterations (reproducible).
    Iterations(u32),
    /// Iterations until `clock` reads `deadline` or later (at least one).
    Until {
        /// The clock to read.
        clock: Arc<dyn Clock>,
        /// When to stop.
        deadline: Duration,
    },
    /// At most `iterations`, and none after the first once `clock` reads
    /// `deadline` or later (the caller's limit on a search counted in
    /// iterations).
    IterationsUntil {
        /// The most iterations.
        iterations: u32,
        /// The clock to read.
        clock: Arc<dyn Clock>,
        /// When to stop at the latest.
        deadline: Duration,
    },
}

impl Budget {
    /// The budget of a search starting at `start` on `clock`, of an agent
    /// whose own limits allow `own` (its time per move, see
    /// [`move_time`]) or else `iterations`, asked to decide within
    /// `time_left` ([`crate::Context::time_left`]): whichever ends first.
    /// Without a time limit the search counts iterations (reproducible).
    pub fn of_search(
        clock: &Arc<dyn Clock>,
        start: Duration,
        own: Option<Duration>,
        iterations: u32,
        time_left: Option<Duration>,
    ) -> Budget {
        match (own, time_left) {
            (None, None) => Budget::Iterations(iterations),
            (Some(t), limit) => Budget::Until {
                clock: Arc::clone(clock),
                deadline: start + limit.map_or(t, |l| t.min(l)),
            },
            (None, Some(l)) => Budget::IterationsUntil {
                iterations,
                clock: Arc::clone(clock),
                deadline: start + l,
            },
        }
    }

    /// Whether the search may start another iteration after `done`.
    pub fn allows(&self, done: u32) -> bool {
        match self {
            Budget::Iterations(n) => done < *n,
            Budget::Until { clock, deadline } => done == 0 || clock.now() < *deadline,
            Budget::IterationsUntil {
                iterations,
                clock,
                deadline,
            } => done < *iterations && (done == 0 || clock.now() < *deadline),
        }
    }
}

/// The time one move may take under a per-move limit and a per-game
/// limit: the per-move limit, or the game time left shared evenly over the
/// seat's turns still to come (this one included), whichever is smaller.
/// `None` when neither limit is set.
pub fn move_time(
    per_move: Option<Duration>,
    game_left: Option<Duration>,
    tiles_left: usize,
    players: usize,
) -> Option<Duration> {
    let own_turns = (tiles_left + 1).div_ceil(players.max(1)).max(1);
    let share = game_left.map(|g| g / u32::try_from(own_turns).unwrap_or(u32::MAX));
    match (per_move, share) {
        (Some(m), Some(s)) => Some(m.min(s)),
        (m, s) => m.or(s),
    }
}

/// A searching agent's budgets per move (`iterations=`, `time_ms=`,
/// `game_ms=`), as `mcts`, `ismcts` and `az` declare them
/// ([`crate::spec::params::budget`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Iterations per move, unless a time budget is set.
    pub iterations: u32,
    /// Wall-clock milliseconds per move.
    pub time_ms: Option<u64>,
    /// Wall-clock milliseconds per game.
    pub game_ms: Option<u64>,
}

/// A searching agent's clock and the time its moves of this game have
/// taken (what `game_ms=` shares out): each search's [`Budget`] comes from
/// here, and what the move took is charged back.
#[derive(Clone, Debug)]
pub struct SearchClock {
    clock: Arc<dyn Clock>,
    game_spent: Duration,
}

impl SearchClock {
    /// Reading `clock`, nothing spent yet.
    pub fn new(clock: Arc<dyn Clock>) -> SearchClock {
        SearchClock {
            clock,
            game_spent: Duration::ZERO,
        }
    }

    /// Reading the wall clock.
    pub fn wall() -> SearchClock {
        SearchClock::new(WallClock::shared())
    }

    /// The time now.
    pub fn now(&self) -> Duration {
        self.clock.now()
    }

    /// The budget of a search of `view` under `limits`, starting at
    /// `start`: the time per move ([`move_time`]) if `time_ms` or
    /// `game_ms` is set, else the iterations; cut at `time_left` after
    /// `start` if the caller imposes it.
    pub fn budget(
        &self,
        limits: Limits,
        view: &SeatView<'_>,
        start: Duration,
        time_left: Option<Duration>,
    ) -> Budget {
        let game_left = limits
            .game_ms
            .map(|g| Duration::from_millis(g).saturating_sub(self.game_spent));
        let own = move_time(
            limits.time_ms.map(Duration::from_millis),
            game_left,
            usize::from(view.bag().total()),
            view.players(),
        );
        Budget::of_search(&self.clock, start, own, limits.iterations, time_left)
    }

    /// A budget of `iterations` from now, cut at `time_left` (a search
    /// outside the per-move limits, e.g. a fast search of playout cap
    /// randomisation).
    pub fn iterations(&self, iterations: u32, time_left: Option<Duration>) -> Budget {
        Budget::of_search(&self.clock, self.now(), None, iterations, time_left)
    }

    /// Charge the game with the time since `start` (a move's search).
    pub fn charge(&mut self, start: Duration) {
        self.game_spent += self.now().saturating_sub(start);
    }

    /// The time charged this game.
    pub fn game_spent(&self) -> Duration {
        self.game_spent
    }

    /// A new game: nothing spent.
    pub fn new_game(&mut self) {
        self.game_spent = Duration::ZERO;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tick_clock_moves_on_at_every_reading() {
        let clock = TickClock::new(Duration::from_millis(2));
        assert_eq!(clock.now(), Duration::ZERO);
        assert_eq!(clock.now(), Duration::from_millis(2));
        assert_eq!(clock.readings(), 2);
    }

    #[test]
    fn a_time_budget_runs_until_its_deadline_and_at_least_once() {
        let clock: Arc<dyn Clock> = Arc::new(TickClock::new(Duration::from_millis(1)));
        let budget = Budget::Until {
            clock,
            deadline: Duration::from_millis(5),
        };
        let mut done = 0;
        while budget.allows(done) {
            done += 1;
        }
        // Readings 0..4 ms allow an iteration; the first is free.
        assert_eq!(done, 6);
        assert!(Budget::Iterations(3).allows(2) && !Budget::Iterations(3).allows(3));
    }

    #[test]
    fn a_callers_time_limit_cuts_the_agents_own_budget() {
        let ms = Duration::from_millis;
        let clock: Arc<dyn Clock> = Arc::new(TickClock::new(ms(1)));
        let run = |budget: Budget| {
            let mut done = 0;
            while budget.allows(done) {
                done += 1;
            }
            done
        };
        let start = clock.now(); // 0 ms
                                 // No limit anywhere: the iterations, without reading the clock.
        assert!(matches!(
            Budget::of_search(&clock, start, None, 40, None),
            Budget::Iterations(40)
        ));
        // The caller's 5 ms end 40 iterations after 5 (the first is free,
        // the readings at 1..4 ms allow one each) ...
        assert_eq!(
            run(Budget::of_search(&clock, start, None, 40, Some(ms(5)))),
            5
        );
        // ... but not 3 iterations, which end first.
        let start = clock.now();
        assert_eq!(
            run(Budget::of_search(&clock, start, None, 3, Some(ms(50)))),
            3
        );
        // The agent's own 100 ms are cut to the caller's 4.
        let start = clock.now();
        match Budget::of_search(&clock, start, Some(ms(100)), 40, Some(ms(4))) {
            Budget::Until { deadline, .. } => assert_eq!(deadline, start + ms(4)),
            other => panic!("{other:?}"),
        }
        // The agent's own 2 ms stay when the caller allows more.
        match Budget::of_search(&clock, start, Some(ms(2)), 40, Some(ms(4))) {
            Budget::Until { deadline, .. } => assert_eq!(deadline, start + ms(2)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_game_budget_is_shared_over_the_seats_turns_left() {
        let s = Duration::from_secs;
        // 2 seats, 9 tiles left after this one: 5 own turns (this one too).
        assert_eq!(move_time(None, Some(s(10)), 9, 2), Some(s(2)));
        assert_eq!(move_time(Some(s(1)), Some(s(10)), 9, 2), Some(s(1)));
        assert_eq!(move_time(Some(s(3)), None, 9, 2), Some(s(3)));
        assert_eq!(move_time(None, Some(s(10)), 0, 4), Some(s(10)));
        assert_eq!(move_time(None, None, 5, 2), None);
    }
}
