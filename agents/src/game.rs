//! Playing one game between agents.
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
use engine::{Action, Move, Phase, Record, RecordBuilder, Rules, Score, Seat, State};
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
    let players = agents.len();
    assert_eq!(agent_seeds.len(), players, "one seed per agent");
    let mut deck = deck_rng(deck_seed);
    let mut gift_deck = gift_rng(deck_seed);
    let mut rngs: Vec<AgentRng> = agent_seeds
        .iter()
        .map(|&s| AgentRng::seed_from_u64(s))
        .collect();
    for (s, agent) in agents.iter_mut().enumerate() {
        agent.reset();
        agent.new_game(&GameStart {
            rules,
            players,
            seat: Seat(s as u8),
            first: Seat(0),
            seed: agent_seeds[s],
        });
    }
    let mut state = State::new(rules, players, Seat(0));
    let mut record = RecordBuilder::new(players, rules);
    record.record_mut().seed = Some(deck_seed);
    record.record_mut().agents = agents.iter().map(|a| a.name().to_string()).collect();
    let mut meeples_placed = vec![0u32; players];
    let mut think_time = vec![Duration::ZERO; players];
    let mut decisions = vec![0u32; players];
    let mut forfeit = None;
    while !state.is_over() {
        if state.is_chance() {
            // Tiles and gift cards come from generators of their own.
            let outcome = if state.phase() == Phase::DrawGift {
                state.apply_chance(&mut gift_deck)
            } else {
                state.apply_chance(&mut deck)
            };
            record.chance(&state, outcome);
            watch(record.record_mut());
            continue;
        }
        let seat = state.to_play();
        let s = seat.index();
        let view = state.view(seat);
        let start = Instant::now();
        let history = History::new(&record, seat);
        let chosen = catch_unwind(AssertUnwindSafe(|| {
            agents[s].decide(Context::new(&view, &mut rngs[s]).with_history(history))
        }));
        think_time[s] += start.elapsed();
        let action = match chosen {
            Ok(Ok(decision)) => decision.action,
            Ok(Err(e)) => {
                forfeit = Some(Forfeit {
                    seat,
                    reason: e.to_string(),
                });
                break;
            }
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".to_string());
                forfeit = Some(Forfeit {
                    seat,
                    reason: format!("panicked: {msg}"),
                });
                break;
            }
        };
        if let Err(e) = state.try_action(action) {
            // A refused action leaves the state as it was.
            forfeit = Some(Forfeit {
                seat,
                reason: format!("illegal move {}: {e}", state.describe(action)),
            });
            break;
        }
        if let Action::Place(Move {
            meeple: Some(_), ..
        }) = action
        {
            meeples_placed[s] += 1;
        }
        decisions[s] += 1;
        record.action(seat, &state, action);
        watch(record.record_mut());
    }
    let scores: Vec<Score> = (0..players).map(|s| state.score(Seat(s as u8))).collect();
    let end = GameEnd {
        scores: &scores,
        forfeit: forfeit.as_ref(),
    };
    record.close_turn();
    for (s, agent) in agents.iter_mut().enumerate() {
        agent.game_over(&History::new(&record, Seat(s as u8)), &end);
    }
    let mut record = record.finish(&state);
    if forfeit.is_some() {
        record.final_scores = None;
    }
    GameOutcome {
        scores,
        turns: state.turns(),
        meeples_placed,
        think_time,
        decisions,
        forfeit,
        record,
    }
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
    fn an_illegal_move_forfeits_the_game_with_its_reason() {
        let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(Faulty), from_spec("random").unwrap()];
        let out = play_game(&mut agents, Rules::default(), 3, &[1, 2]);
        let forfeit = out.forfeit.expect("the faulty agent forfeits");
        assert_eq!(forfeit.seat, Seat(0));
        assert!(forfeit.reason.contains("segment 200"), "{}", forfeit.reason);
        assert!(out.record.final_scores.is_none());
    }
}
