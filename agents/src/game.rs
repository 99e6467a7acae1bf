//! Playing one game between agents: [`play_game`], and the step-wise
//! [`Driver`] every game here is played with.
//!
//! The tile draws come from their own generator, seeded by `deck_seed`;
//! every bag holds the same tiles whatever is played, so one deck seed
//! gives the same tile order in every game that uses it (paired decks) —
//! with The Gifts, until a Take 2 draws a tile early and returns one.
//! Gift cards come from a second stream of the same seed.
//! Each seat's agent gets its own generator. An agent that panics,
//! returns an illegal move or gives up ([`crate::AgentError`]) forfeits:
//! the game stops there and the reason is kept.

use crate::history::{GameEnd, GameStart, History};
use crate::{Agent, AgentRng, Context};
use engine::{
    Action, Chance, ChanceOutcome, IllegalMove, Move, Phase, Record, RecordBuilder, Rules, Score,
    Seat, State,
};
use rand::SeedableRng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// The generator of the tile draws for a deck seed.
pub fn deck_rng(deck_seed: u64) -> rand_pcg::Pcg64 {
    rand_pcg::Pcg64::seed_from_u64(deck_seed)
}

/// The generator of the gift draws (The Gifts) for a deck seed: a separate
/// stream of the same seed.
pub fn gift_rng(deck_seed: u64) -> rand_pcg::Pcg64 {
    rand_pcg::Pcg64::new(deck_seed as u128, 0x6769_6674) // "gift"
}

/// A seat that lost by breaking the rules or crashing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// The seat that forfeited.
    pub seat: Seat,
    /// What it did.
    pub reason: String,
}

/// Everything one game produced.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// Final score of each seat (after final scoring; for a forfeited game,
    /// the scores when it stopped).
    pub scores: Vec<Score>,
    /// Turns played.
    pub turns: usize,
    /// Meeples each seat placed.
    pub meeples_placed: Vec<u32>,
    /// Time each seat spent choosing moves.
    pub think_time: Vec<Duration>,
    /// Decisions each seat made that were played: its actions in the
    /// record (a placement, a gift opened, a tile kept after Take 2).
    pub decisions: Vec<u32>,
    /// Set when a seat forfeited.
    pub forfeit: Option<Forfeit>,
    /// The replayable record.
    pub record: Record,
}

/// What a [`Driver`] does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A chance event was resolved from the deck seed's generators: a
    /// tile (or a gift card) drawn and recorded.
    Chance(ChanceOutcome),
    /// This seat is to decide: [`Driver::decide`] asks its agent, or
    /// [`Driver::play`] takes a move from elsewhere (a person).
    Ask(Seat),
    /// The game is over, or stopped at a forfeit: [`Driver::finish`].
    Over,
}

/// One game played step by step, as every game here is played: the
/// state, its record, the tile and gift generators of its deck seed, each
/// seat's generator, and what each seat did. [`play_game_watched`] drives
/// one between agents; the web app drives one with a person in a seat;
/// Python's `Game` is one with chance left to its caller.
///
/// ```
/// use agents::game::{Driver, Step};
/// use engine::{Rules, Seat};
///
/// let mut agents = [agents::from_spec("random").unwrap(), agents::from_spec("greedy").unwrap()];
/// let mut game = Driver::new(Rules::default(), 2, 7, &[1, 2]);
/// for (s, agent) in agents.iter_mut().enumerate() {
///     game.start(Seat(s as u8), agent.as_mut());
/// }
/// loop {
///     match game.step() {
///         Step::Chance(_) => {}
///         Step::Ask(seat) => {
///             if let Some(action) = game.decide(agents[seat.index()].as_mut()) {
///                 game.play_or_forfeit(action);
///             }
///         }
///         Step::Over => break,
///     }
/// }
/// let outcome = game.finish(|seat, history, end| agents[seat.index()].game_over(history, end));
/// assert!(outcome.forfeit.is_none() && outcome.record.final_scores.is_some());
/// ```
#[derive(Clone, Debug)]
pub struct Driver {
    state: State,
    record: RecordBuilder,
    deck: rand_pcg::Pcg64,
    gift_deck: rand_pcg::Pcg64,
    agent_seeds: Vec<u64>,
    rngs: Vec<AgentRng>,
    meeples_placed: Vec<u32>,
    think_time: Vec<Duration>,
    decisions: Vec<u32>,
    forfeit: Option<Forfeit>,
}

impl Driver {
    /// A new game of `players` seats under `rules`, seat 0 first: tiles
    /// from [`deck_rng`]`(deck_seed)`, gift cards from
    /// [`gift_rng`]`(deck_seed)`, seat `s`'s agent from a generator seeded
    /// with `agent_seeds[s]`. The record names the deck seed.
    ///
    /// # Panics
    /// When `agent_seeds` has not one seed per seat.
    pub fn new(rules: Rules, players: usize, deck_seed: u64, agent_seeds: &[u64]) -> Driver {
        assert_eq!(agent_seeds.len(), players, "one seed per agent");
        let mut driver = Driver::from_state(State::new(rules, players, Seat(0)), deck_seed);
        driver.record.record_mut().seed = Some(deck_seed);
        driver.rngs = agent_seeds
            .iter()
            .map(|&s| AgentRng::seed_from_u64(s))
            .collect();
        driver.agent_seeds = agent_seeds.to_vec();
        driver
    }

    /// A game that goes on from `state` (its record starts there, without
    /// a seed), its draws from `deck_seed`'s generators; seat `s`'s agent
    /// generator is seeded with `s`.
    pub fn from_state(state: State, deck_seed: u64) -> Driver {
        let players = state.players();
        let agent_seeds: Vec<u64> = (0..players as u64).collect();
        Driver {
            record: RecordBuilder::new(players, state.rules()),
            state,
            deck: deck_rng(deck_seed),
            gift_deck: gift_rng(deck_seed),
            rngs: agent_seeds
                .iter()
                .map(|&s| AgentRng::seed_from_u64(s))
                .collect(),
            agent_seeds,
            meeples_placed: vec![0; players],
            think_time: vec![Duration::ZERO; players],
            decisions: vec![0; players],
            forfeit: None,
        }
    }

    /// The game as it stands (for a seat's view, or its score).
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The record so far, to fill in its header (agents' names, seed).
    pub fn record_mut(&mut self) -> &mut Record {
        self.record.record_mut()
    }

    /// The record so far (with final scores once the game is over),
    /// leaving the game as it is.
    pub fn record_so_far(&self) -> Record {
        self.record.clone().finish(&self.state)
    }

    /// The forfeit that stopped the game, if one did.
    pub fn forfeit(&self) -> Option<&Forfeit> {
        self.forfeit.as_ref()
    }

    /// Tell `agent`, which plays `seat`, that this game starts (after a
    /// reset).
    pub fn start(&self, seat: Seat, agent: &mut dyn Agent) {
        agent.reset();
        agent.new_game(&GameStart {
            rules: self.state.rules(),
            players: self.state.players(),
            seat,
            first: Seat(0),
            seed: self.agent_seeds[seat.index()],
        });
    }

    /// The next step: resolve one due chance event ([`Driver::draw`]),
    /// or name the seat to decide, or say the game is over.
    pub fn step(&mut self) -> Step {
        if self.forfeit.is_some() || self.state.is_over() {
            return Step::Over;
        }
        match self.draw() {
            Some(outcome) => Step::Chance(outcome),
            None => Step::Ask(self.state.to_play()),
        }
    }

    /// Resolve the due chance event from the deck seed's generators —
    /// tiles from one, gift cards from the other, so gift draws do not
    /// shift the tile order — and record it; `None` when none is due.
    pub fn draw(&mut self) -> Option<ChanceOutcome> {
        if !self.state.is_chance() {
            return None;
        }
        let outcome = if self.state.phase() == Phase::DrawGift {
            self.state.apply_chance(&mut self.gift_deck)
        } else {
            self.state.apply_chance(&mut self.deck)
        };
        self.record.chance(&self.state, outcome);
        Some(outcome)
    }

    /// Resolve the due chance event with `chance` (a tile or gift card
    /// chosen by the caller) and record it.
    ///
    /// # Errors
    /// No such event is due, or that tile or card is not in the bag.
    pub fn apply_chance(&mut self, chance: Chance) -> Result<ChanceOutcome, IllegalMove> {
        let outcome = self.state.apply_chance_outcome(chance)?;
        self.record.chance(&self.state, outcome);
        Ok(outcome)
    }

    /// Ask `agent` for the move of the seat to play, from that seat's view
    /// and history with its own generator, timing it. `None` when it
    /// gave up ([`crate::AgentError`]) or panicked: it forfeits then, and
    /// the game is over. The move is not played ([`Driver::play_or_forfeit`]).
    pub fn decide(&mut self, agent: &mut dyn Agent) -> Option<Action> {
        let seat = self.state.to_play();
        let s = seat.index();
        let view = self.state.view(seat);
        let start = Instant::now();
        let history = History::new(&self.record, seat);
        let rng = &mut self.rngs[s];
        let chosen = catch_unwind(AssertUnwindSafe(|| {
            agent.decide(Context::new(&view, rng).with_history(history))
        }));
        self.think_time[s] += start.elapsed();
        let reason = match chosen {
            Ok(Ok(decision)) => return Some(decision.action),
            Ok(Err(e)) => e.to_string(),
            Err(panic) => format!("panicked: {}", panic_message(&*panic)),
        };
        self.forfeit = Some(Forfeit { seat, reason });
        None
    }

    /// Play `action` for the seat to play and record it.
    ///
    /// # Errors
    /// It is not legal now (the game is unchanged).
    pub fn play(&mut self, action: Action) -> Result<(), IllegalMove> {
        let seat = self.state.to_play();
        self.state.try_action(action)?;
        if let Action::Place(Move {
            meeple: Some(_), ..
        }) = action
        {
            self.meeples_placed[seat.index()] += 1;
        }
        self.decisions[seat.index()] += 1;
        self.record.action(seat, &self.state, action);
        Ok(())
    }

    /// [`Driver::play`] an agent's move; an illegal one forfeits the game
    /// for its seat. Returns whether it was played.
    pub fn play_or_forfeit(&mut self, action: Action) -> bool {
        match self.play(action) {
            Ok(()) => true,
            Err(e) => {
                self.forfeit = Some(Forfeit {
                    seat: self.state.to_play(),
                    reason: format!("illegal move {}: {e}", self.state.describe(action)),
                });
                false
            }
        }
    }

    /// End the game (once [`Driver::step`] says [`Step::Over`]): close
    /// the record, tell each seat's agent through `tell` (its seat, its
    /// history, the end), and return what the game produced. A forfeited
    /// game's record has no final scores. The driver keeps the final
    /// state ([`Driver::state`]).
    pub fn finish(
        &mut self,
        mut tell: impl FnMut(Seat, &History<'_>, &GameEnd<'_>),
    ) -> GameOutcome {
        let players = self.state.players();
        let scores: Vec<Score> = (0..players)
            .map(|s| self.state.score(Seat(s as u8)))
            .collect();
        let end = GameEnd {
            scores: &scores,
            forfeit: self.forfeit.as_ref(),
        };
        let mut record = self.record.clone();
        record.close_turn();
        for s in 0..players {
            let seat = Seat(s as u8);
            tell(seat, &History::new(&record, seat), &end);
        }
        let mut record = record.finish(&self.state);
        if self.forfeit.is_some() {
            record.final_scores = None;
        }
        GameOutcome {
            scores,
            turns: self.state.turns(),
            meeples_placed: self.meeples_placed.clone(),
            think_time: self.think_time.clone(),
            decisions: self.decisions.clone(),
            forfeit: self.forfeit.clone(),
            record,
        }
    }
}

/// The text of a caught panic.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// Play one game: `agents[s]` plays seat `s`, seat 0 starts, tiles drawn
/// from `deck_seed`, agent `s` uses a generator seeded with
/// `agent_seeds[s]`. Gift cards (The Gifts) come from a generator of their
/// own, also seeded from `deck_seed`, so gift draws do not shift the tile
/// order.
pub fn play_game(
    agents: &mut [Box<dyn Agent>],
    rules: Rules,
    deck_seed: u64,
    agent_seeds: &[u64],
) -> GameOutcome {
    play_game_watched(agents, rules, deck_seed, agent_seeds, &mut |_| {})
}

/// [`play_game`], calling `watch` with the record so far after every
/// action and chance outcome (e.g. to print the game as it is played).
pub fn play_game_watched(
    agents: &mut [Box<dyn Agent>],
    rules: Rules,
    deck_seed: u64,
    agent_seeds: &[u64],
    watch: &mut dyn FnMut(&Record),
) -> GameOutcome {
    let mut game = Driver::new(rules, agents.len(), deck_seed, agent_seeds);
    for (s, agent) in agents.iter_mut().enumerate() {
        game.start(Seat(s as u8), agent.as_mut());
    }
    game.record_mut().agents = agents.iter().map(|a| a.name().to_string()).collect();
    loop {
        match game.step() {
            Step::Chance(_) => {}
            Step::Ask(seat) => {
                let Some(action) = game.decide(agents[seat.index()].as_mut()) else {
                    break;
                };
                if !game.play_or_forfeit(action) {
                    break;
                }
            }
            Step::Over => break,
        }
        watch(game.record_mut());
    }
    game.finish(|seat, history, end| agents[seat.index()].game_over(history, end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{from_spec, AgentError, Decision, Lifecycle};

    #[test]
    fn a_game_between_random_agents_replays_to_its_scores() {
        let mut agents = vec![from_spec("random").unwrap(), from_spec("random").unwrap()];
        let out = play_game(&mut agents, Rules::default(), 5, &[1, 2]);
        assert!(out.forfeit.is_none());
        let state = engine::replay(&out.record, false).unwrap();
        assert!(state.is_over());
        for (s, score) in out.scores.iter().enumerate() {
            assert_eq!(state.score(Seat(s as u8)), *score);
        }
    }

    #[test]
    fn the_same_seeds_give_the_same_game() {
        let play = || {
            let mut agents = vec![from_spec("random").unwrap(), from_spec("random").unwrap()];
            play_game(&mut agents, Rules::default(), 9, &[3, 4]).record
        };
        assert_eq!(play(), play());
    }

    /// An agent that names a meeple segment its tile does not have.
    struct Faulty;

    impl Agent for Faulty {
        fn name(&self) -> &str {
            "faulty"
        }

        fn decide(&mut self, cx: Context<'_>) -> Result<Decision, AgentError> {
            let placement = cx.view.nth_placement(0).expect("a placement");
            Ok(Decision::new(Action::Place(Move {
                placement,
                meeple: Some(200),
            })))
        }
    }

    impl Lifecycle for Faulty {}

    /// An agent that gives up at its first decision, and notes what the
    /// game told it.
    struct Quitter(std::sync::Arc<std::sync::Mutex<Vec<&'static str>>>);

    impl Agent for Quitter {
        fn name(&self) -> &str {
            "quitter"
        }

        fn decide(&mut self, cx: Context<'_>) -> Result<Decision, AgentError> {
            assert!(cx.history.is_some(), "the runner gives the history");
            Err(AgentError::Failed("timed out after 10 ms".into()))
        }
    }

    impl Lifecycle for Quitter {
        fn reset(&mut self) {
            self.0.lock().unwrap().push("reset");
        }

        fn new_game(&mut self, _start: &GameStart) {
            self.0.lock().unwrap().push("new_game");
        }

        fn game_over(&mut self, _history: &History<'_>, end: &GameEnd<'_>) {
            assert!(end.forfeit.is_some());
            self.0.lock().unwrap().push("game_over");
        }
    }

    #[test]
    fn an_agent_error_forfeits_with_its_text_and_the_lifecycle_is_told() {
        let heard = std::sync::Arc::default();
        let quitter = Quitter(std::sync::Arc::clone(&heard));
        let mut agents: Vec<Box<dyn Agent>> = vec![from_spec("random").unwrap(), Box::new(quitter)];
        let out = play_game(&mut agents, Rules::default(), 3, &[1, 2]);
        let forfeit = out.forfeit.expect("the quitter forfeits");
        assert_eq!(forfeit.seat, Seat(1));
        assert_eq!(forfeit.reason, "timed out after 10 ms");
        assert_eq!(out.decisions, vec![1, 0]);
        assert_eq!(*heard.lock().unwrap(), ["reset", "new_game", "game_over"]);
    }

    #[test]
    fn a_move_refused_from_outside_changes_nothing_and_forfeits_nobody() {
        let mut game = Driver::new(Rules::default(), 2, 3, &[1, 2]);
        assert!(matches!(game.step(), Step::Chance(_)));
        let Step::Ask(seat) = game.step() else {
            panic!("seat 0 is to place the first tile drawn");
        };
        let before = game.state().clone();
        let placement = game.state().view(seat).nth_placement(0).unwrap();
        let bad = Action::Place(Move {
            placement,
            meeple: Some(200),
        });
        assert!(game.play(bad).is_err());
        assert_eq!(*game.state(), before);
        assert!(game.forfeit().is_none());
        assert_eq!(game.step(), Step::Ask(seat));
        // The same move from an agent forfeits, and the game is over.
        assert!(!game.play_or_forfeit(bad));
        assert_eq!(game.forfeit().map(|f| f.seat), Some(seat));
        assert_eq!(game.step(), Step::Over);
        let outcome = game.finish(|_, _, end| assert!(end.forfeit.is_some()));
        assert!(outcome.record.final_scores.is_none());
    }

    #[test]
    fn an_illegal_move_forfeits_the_game_with_its_reason() {
        let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(Faulty), from_spec("random").unwrap()];
        let out = play_game(&mut agents, Rules::default(), 3, &[1, 2]);
        let forfeit = out.forfeit.expect("the faulty agent forfeits");
        assert_eq!(forfeit.seat, Seat(0));
        assert!(forfeit.reason.contains("segment 200"), "{}", forfeit.reason);
        assert!(out.record.final_scores.is_none());
    }
}
