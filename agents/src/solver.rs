//! `solver`: exact expectimax over the tiles left, for the last turns.
//!
//! Spec: `solver:tiles=1`. When the bag holds at most `tiles` tiles at a
//! decision (so this move and at most `tiles` more remain; with a hand,
//! the tiles of the bag and of the hands but the one placed now), the agent
//! searches the whole rest of the game: every legal action at decisions,
//! every tile kind left at draws weighted by its count (an unplaceable
//! tile is set aside and the draw repeated, as the engine does), and with
//! The Gifts every card kind of the gift deck. Each seat picks the action
//! that maximises its own expected final *advantage* — its score minus
//! the best other seat's (max-n; with two seats, the score difference).
//! Ties go to the first action generated. Earlier in the game it plays as
//! `greedy`.
//!
//! The search runs on one [`SeatView::determinize`](engine::SeatView::determinize) of the view: in the
//! base game that is the position itself (exact); with The Gifts the other
//! seats' hidden cards and the deck order are one sample, so the value is
//! exact for that sample only.
//!
//! The cost is about `M^(tiles+1)` positions for `M` legal moves a turn
//! (hundreds with farmers), so `tiles` is small: 1 takes a few thousand
//! to tens of thousands of positions, 2 up to millions.
//!
//! The `mcts` and `ismcts` agents use [`solve`] for their last turns with
//! `solver_tiles=N`.

use crate::greedy::greedy_action;
use crate::spec::params::{self, Param};
use crate::spec::AgentKind;
use crate::{Agent, AgentError, Context, Decision, Lifecycle};
use engine::{Action, Phase, State, MAX_PLAYERS};

/// Each seat's expected final advantage.
pub type Values = [f64; MAX_PLAYERS];

/// The `solver` agent in the spec registry.
pub const KIND: AgentKind = AgentKind {
    name: "solver",
    params: PARAMS,
    build: |name, params| {
        let tiles = params.req("tiles")?;
        Ok(crate::spec::Make::cloning(SolverAgent { name, tiles }))
    },
};

/// The parameters of the `solver` spec.
pub const PARAMS: &[Param] = &[Param::new(
    "tiles",
    TILES,
    "1",
    "solve exactly once the bag holds at most this many tiles (greedy before)",
)];

/// The largest `tiles` accepted: beyond it a solve takes hours.
pub const MAX_TILES: u32 = 3;

/// The values of `tiles` (and of `mcts`'s `solver_tiles`): `0..=`[`MAX_TILES`].
pub const TILES: params::Values = params::Values::Int {
    min: 0,
    max: Some(MAX_TILES as u64),
};

/// The endgame solver agent.
#[derive(Clone, Debug)]
pub struct SolverAgent {
    name: String,
    tiles: u32,
}

impl Agent for SolverAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn decide(&mut self, cx: Context<'_>) -> Result<Decision, AgentError> {
        let state = cx.view.determinize(cx.rng);
        Ok(Decision::new(if in_reach(&state, self.tiles) {
            solve(&state).1
        } else {
            greedy_action(&state, cx.rng)
        }))
    }
}

impl Lifecycle for SolverAgent {}

/// Whether the rest of the game from the decision in `state` is within
/// `tiles` tiles (and `tiles` is not 0): the tiles of the bag and, with a
/// hand (RULES.md §8), of every hand but the one placed now.
pub fn in_reach(state: &State, tiles: u32) -> bool {
    let held: usize = (0..state.players())
        .map(|s| state.tiles_held(engine::Seat(s as u8)))
        .sum();
    let left = usize::from(state.bag().total()) + held.saturating_sub(1);
    tiles > 0 && left <= tiles as usize
}

/// The expectimax values of a decision of the seat to play and its best
/// action (the first generated among equals).
///
/// # Panics
///
/// If `state` is not at a decision.
pub fn solve(state: &State) -> (Values, Action) {
    let seat = state.to_play().index();
    let mut best: Option<(Values, Action)> = None;
    let mut child = state.clone();
    state.for_each_action(|a| {
        child.clone_from(state);
        child.play_action_unchecked(a);
        let v = value(&child);
        if best.is_none_or(|(b, _)| v[seat] > b[seat]) {
            best = Some((v, a));
        }
    });
    best.expect("a decision has a legal action")
}

/// The expectimax values of any position.
pub fn value(state: &State) -> Values {
    match state.phase() {
        Phase::Over => final_advantages(state),
        Phase::Place(_) | Phase::Choose(..) | Phase::PlaceHand => solve(state).0,
        Phase::Draw | Phase::DrawSecond(_) | Phase::DrawGift | Phase::DrawHand => {
            let mut out = [0.0; MAX_PLAYERS];
            for (chance, p) in state.chance_outcomes() {
                let mut child = state.clone();
                child
                    .apply_chance_outcome(chance)
                    .expect("a possible outcome");
                add_scaled(&mut out, &value(&child), p);
            }
            out
        }
    }
}

/// `out += p · v`.
fn add_scaled(out: &mut Values, v: &Values, p: f64) {
    for (o, x) in out.iter_mut().zip(v) {
        *o += p * x;
    }
}

/// Each seat's final score minus the best other seat's.
pub fn final_advantages(state: &State) -> Values {
    let players = state.players();
    let scores: Vec<f64> = (0..players)
        .map(|s| f64::from(state.score(engine::Seat(s as u8)).total()))
        .collect();
    let mut out = [0.0; MAX_PLAYERS];
    for (s, o) in out.iter_mut().enumerate().take(players) {
        let best_other = (0..players)
            .filter(|&t| t != s)
            .map(|t| scores[t])
            .fold(f64::NEG_INFINITY, f64::max);
        *o = scores[s] - best_other;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::greedy::move_value;
    use crate::test_support::random_play_until;
    use engine::{Chance, MoveList, Rules, Seat};

    /// A position of random play at the decision where the bag holds
    /// `left` tiles.
    fn endgame(players: usize, rules: Rules, left: u8, seed: u64) -> State {
        random_play_until(players, rules, seed, |s| s.bag().total() <= left)
    }

    /// Expectimax by brute force, along another route: moves from
    /// `legal_moves`, draws over every tile *instance* in the bag (equally
    /// likely), leaves from the score fields.
    fn brute_force(state: &State) -> Values {
        let players = state.players();
        match state.phase() {
            Phase::Over => {
                let total = |s: usize| {
                    let sc = state.score(Seat(s as u8));
                    [sc.road, sc.city, sc.monastery, sc.farm, sc.gifts]
                        .into_iter()
                        .map(f64::from)
                        .sum::<f64>()
                };
                let mut out = [0.0; MAX_PLAYERS];
                for (s, o) in out.iter_mut().enumerate().take(players) {
                    let other = (0..players).filter(|&t| t != s).map(total);
                    *o = total(s) - other.fold(f64::MIN, f64::max);
                }
                out
            }
            Phase::Draw => {
                let mut instances = Vec::new();
                for (tile, count) in state.bag().iter() {
                    instances.extend(std::iter::repeat_n(tile, count.into()));
                }
                let mut out = [0.0; MAX_PLAYERS];
                for &tile in &instances {
                    let mut child = state.clone();
                    child.apply_chance_outcome(Chance::Tile(tile)).unwrap();
                    let v = brute_force(&child);
                    for s in 0..players {
                        out[s] += v[s] / instances.len() as f64;
                    }
                }
                out
            }
            Phase::Place(_) => {
                let mut list = MoveList::new();
                state.legal_moves(&mut list);
                let seat = state.to_play().index();
                let mut best = [f64::MIN; MAX_PLAYERS];
                for &mv in list.iter() {
                    let mut child = state.clone();
                    child.try_action(Action::Place(mv)).unwrap();
                    let v = brute_force(&child);
                    if v[seat] > best[seat] {
                        best = v;
                    }
                }
                best
            }
            other => unreachable!("base game: {other:?}"),
        }
    }

    fn close(a: &Values, b: &Values) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9)
    }

    #[test]
    fn the_last_move_is_the_best_by_final_scores() {
        for seed in 0..6 {
            let state = endgame(2 + seed as usize % 3, Rules::default(), 0, seed);
            let (v, action) = solve(&state);
            let mut best = i32::MIN;
            state.for_each_move(|m| best = best.max(move_value(&state, m)));
            let Action::Place(mv) = action else {
                panic!("base game")
            };
            assert_eq!(move_value(&state, mv), best);
            assert_eq!(v[state.to_play().index()], f64::from(best));
        }
    }

    #[test]
    fn solver_values_match_brute_force_on_small_endgames() {
        let farmers_off = Rules {
            farmers: false,
            gifts: false,
            ..Rules::STANDARD
        };
        for (players, left, seed) in [(2, 1, 1), (3, 1, 2), (2, 1, 3), (2, 2, 4)] {
            let state = endgame(players, farmers_off, left, seed);
            assert_eq!(state.bag().total(), left);
            let solved = value(&state);
            let brute = brute_force(&state);
            assert!(close(&solved, &brute), "{solved:?} vs {brute:?}");
        }
    }

    #[test]
    fn tiles_out_of_range_are_refused() {
        let e = crate::from_spec("solver:tiles=4").err().unwrap();
        assert!(e.to_string().contains("0..3"), "{e}");
    }
}
