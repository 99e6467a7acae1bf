//! Tree reuse (`reuse=true`): what happened between two decisions of a
//! seat, as the path of tree keys from the root of the last search — the
//! seat's move, then for every turn since the tile drawn and the move
//! played, then the tile the seat has drawn now. The search keeps the
//! subtree at the end of that path ([`super::tree::Tree::reroot`]).
//!
//! The path is read from the [`History`] of the decision's
//! [`crate::Context`] (so only when the caller gives it) and checked by replaying it on the
//! position of the last search: it must give exactly the position of
//! the new decision, or nothing is kept.
//!
//! Only games where the seat sees everything but the tile order can be
//! followed: with The Gifts or a hand of tiles (RULES.md §8) the other
//! seats' cards and tiles are hidden, and the determinized tree's
//! branches on them cannot be matched to what happened; the tree is then
//! rebuilt at every decision.

use super::tree::Key;
use crate::history::History;
use crate::AgentRng;
use engine::{
    Action, Chance, ChanceOutcome, Drawn, Move, Placement, Pos, Rotation, Rules, SeatView, State,
    TurnRecord,
};
use rand::SeedableRng;

/// The position a search was run on and the move it chose.
#[derive(Clone, Debug)]
pub(super) struct LastSearch {
    /// The position (in these rules, the seat's view is the position).
    root: State,
    /// The action played.
    action: Action,
    /// The index of its turn in the game's history.
    turn: usize,
}

/// Whether a game under `rules` can be followed from one search to the
/// next: nothing but the tile order is hidden.
pub(super) fn followable(rules: &Rules) -> bool {
    !rules.gifts && rules.hand == 0
}

/// The position of `view`, where [`followable`] holds (no hidden
/// information to sample, so the generator is not used).
fn position(view: &SeatView<'_>) -> State {
    view.determinize(&mut AgentRng::seed_from_u64(0))
}

impl LastSearch {
    /// The search of `view`, in turn `history.len()` of the game, chose
    /// `action`; `None` when the game cannot be followed.
    pub(super) fn new(
        view: &SeatView<'_>,
        history: &History<'_>,
        action: Action,
    ) -> Option<LastSearch> {
        followable(&view.rules()).then(|| LastSearch {
            root: position(view),
            action,
            turn: history.len(),
        })
    }

    /// The keys from the root of that search to the decision of `view`,
    /// if the turns since can be followed and lead exactly to it.
    pub(super) fn path_to(&self, view: &SeatView<'_>, history: &History<'_>) -> Option<Vec<Key>> {
        if !followable(&view.rules()) || history.len() <= self.turn {
            return None;
        }
        let mut state = self.root.clone();
        state.try_action(self.action).ok()?;
        let mut keys = vec![Key::Act(self.action)];
        for i in self.turn + 1..history.len() {
            let turn = history.turn(i)?.turn;
            draw_tiles(&mut state, &turn, &mut keys)?;
            let action = placement(&state, &turn)?;
            state.try_action(action).ok()?;
            keys.push(Key::Act(action));
        }
        draw_tiles(&mut state, &history.current()?.turn, &mut keys)?;
        (state == position(view)).then_some(keys)
    }
}

/// Draw the tiles of `turn` on `state`: those set aside, then the one
/// placed, whose key is pushed.
fn draw_tiles(state: &mut State, turn: &TurnRecord, keys: &mut Vec<Key>) -> Option<()> {
    for &t in &turn.discarded {
        let outcome = state.apply_chance_outcome(Chance::Tile(t)).ok()?;
        if !matches!(outcome, ChanceOutcome::Tile(_, Drawn::SetAside)) {
            return None;
        }
    }
    let tile = turn.tile?;
    let outcome = state.apply_chance_outcome(Chance::Tile(tile)).ok()?;
    if !matches!(outcome, ChanceOutcome::Tile(_, Drawn::Placeable)) {
        return None;
    }
    keys.push(Key::Tile(tile));
    Some(())
}

/// The placement `turn` records, as an action on `state` (its tile drawn).
fn placement(state: &State, turn: &TurnRecord) -> Option<Action> {
    let rot = Rotation::new(turn.rot?)?;
    let meeple = match turn.meeple {
        Some(loc) => Some(state.meeple_segment(rot, loc).ok()?),
        None => None,
    };
    Some(Action::Place(Move {
        placement: Placement::new(Pos::new(turn.x?, turn.y?), rot),
        meeple,
    }))
}

#[cfg(test)]
mod tests {
    use super::super::config::tests::config;
    use super::super::MctsAgent;
    use crate::game::play_game;
    use crate::{from_spec, Agent, AgentError, Context, Decision, Lifecycle};
    use engine::Rules;
    use std::sync::{Arc, Mutex};

    /// For each search: the root visits kept ([`MctsAgent::kept_visits`])
    /// and those at its end.
    type Visits = Vec<(Option<u32>, u32)>;

    /// An `mcts` agent that notes, for every search, the root visits it
    /// started from and those it ended with.
    struct Probe {
        inner: MctsAgent,
        visits: Arc<Mutex<Visits>>,
    }

    impl Agent for Probe {
        fn name(&self) -> &str {
            self.inner.name()
        }

        fn decide(&mut self, cx: Context<'_>) -> Result<Decision, AgentError> {
            let decision = self.inner.decide(cx)?;
            let visits = decision.root_visits().unwrap_or_default();
            let end = visits.iter().map(|&(_, v)| v).sum();
            self.visits
                .lock()
                .unwrap()
                .push((self.inner.kept_visits(), end));
            Ok(decision)
        }
    }

    impl Lifecycle for Probe {}

    /// A game of `spec` (seat 0) against `greedy`: its record, and for
    /// each search of seat 0 the root visits kept and at the end.
    fn game(spec: &str, rules: Rules, deck: u64) -> (engine::Record, Visits) {
        let visits = Arc::new(Mutex::new(Vec::new()));
        let probe = Probe {
            inner: MctsAgent::new(spec.into(), config(spec)),
            visits: Arc::clone(&visits),
        };
        let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(probe), from_spec("greedy").unwrap()];
        let out = play_game(&mut agents, rules, deck, &[3, 4]);
        assert!(out.forfeit.is_none(), "{:?}", out.forfeit);
        let visits = visits.lock().unwrap().clone();
        (out.record, visits)
    }

    #[test]
    fn reuse_follows_every_move_and_keeps_the_subtree_it_finds() {
        // Narrow and deep, so that the tree often holds the draws and the
        // reply that came; threads=2 keeps a tree per thread.
        for (spec, fresh) in [
            ("mcts:iterations=300,widen=0.3,reuse=true", 300),
            ("mcts:iterations=300,widen=0.3,reuse=true,threads=2", 600),
        ] {
            let (_, visits) = game(spec, Rules::default(), 9);
            assert_eq!(visits[0].0, None, "the first search has nothing to keep");
            for &(kept, end) in &visits[1..] {
                let kept = kept.expect("every later move is followed");
                // A root with one legal move runs no iteration.
                assert!(end == kept || end == kept + fresh, "{spec}: {visits:?}");
            }
            assert!(visits.iter().any(|v| v.0 > Some(0)), "{spec}: {visits:?}");
        }
        // Without reuse each root holds the iterations of its search.
        let (_, visits) = game("mcts:iterations=100", Rules::default(), 7);
        assert!(visits
            .iter()
            .all(|&v| v.0.is_none() && (v.1 == 0 || v.1 == 100)));
    }

    #[test]
    fn reuse_plays_the_same_game_for_the_same_seeds() {
        let spec = "mcts:iterations=300,widen=0.3,reuse=true";
        let (a, visits) = game(spec, Rules::default(), 9);
        let (b, _) = game(spec, Rules::default(), 9);
        assert_eq!(a, b);
        assert!(visits.iter().any(|v| v.0 > Some(0)));
        // Reuse changes the search, so the game differs from one without.
        let (c, _) = game("mcts:iterations=300,widen=0.3", Rules::default(), 9);
        assert_ne!(a.turns, c.turns);
    }

    #[test]
    fn reuse_starts_afresh_where_other_seats_hold_hidden_cards() {
        let rules = Rules {
            gifts: true,
            ..Rules::default()
        };
        let (_, visits) = game("mcts:iterations=40,reuse=true", rules, 5);
        assert!(visits.iter().all(|&v| v.0.is_none()), "{visits:?}");
    }
}
