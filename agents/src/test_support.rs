//! Positions for the crate's unit tests.

use crate::AgentRng;
use engine::random_action;
use engine::{Rules, Seat, State};
use rand::SeedableRng;

/// A game of `players` seats under `rules`, played at random (deck and
/// moves from `seed`) until `stop` holds at a decision of the seat to play.
pub(crate) fn random_play_until(
    players: usize,
    rules: Rules,
    seed: u64,
    stop: impl Fn(&State) -> bool,
) -> State {
    let mut rng = AgentRng::seed_from_u64(seed);
    let mut state = State::new(rules, players, Seat(0));
    loop {
        assert!(!state.is_over(), "the game ended before the position");
        if state.is_chance() {
            state.apply_chance(&mut rng);
        } else if stop(&state) {
            return state;
        } else {
            let a = random_action(&state, &mut rng).expect("a decision");
            state.play_action_unchecked(a);
        }
    }
}

/// The decisions of a whole game of `players` seats under `rules`,
/// played at random (deck and moves from `seed`), one in `every` (from
/// the first), with the last decision of the game always included.
pub(crate) fn random_decisions(
    players: usize,
    rules: Rules,
    seed: u64,
    every: usize,
) -> Vec<State> {
    let mut rng = AgentRng::seed_from_u64(seed);
    let mut state = State::new(rules, players, Seat(0));
    let mut out = Vec::new();
    let mut last = None;
    let mut k = 0;
    while !state.is_over() {
        if state.is_chance() {
            state.apply_chance(&mut rng);
            continue;
        }
        if k % every.max(1) == 0 {
            out.push(state.clone());
            last = None;
        } else {
            last = Some(state.clone());
        }
        k += 1;
        let a = random_action(&state, &mut rng).expect("a decision");
        state.play_action_unchecked(a);
    }
    out.extend(last);
    out
}
