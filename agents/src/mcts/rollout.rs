//! Rollouts and leaf evaluation of the `mcts` search: a few turns of cheap
//! play with random draws, then the end-now scores turned into rewards.

use super::config::{MctsConfig, Reward, Rollout};
use crate::eval::advantage_gain;
use engine::{Action, EndNow, FieldCache, Move, Phase, Seat, State, MAX_PLAYERS};
use rand::Rng;

/// The value of `state` to each seat: its end-now score (`end_now`, as
/// [`crate::eval::end_now_scores_in`] gives them) plus `cfg.meeple` per meeple in
/// supply, times the fraction of tiles left in the bag.
pub(crate) fn evaluate(
    cfg: &MctsConfig,
    state: &State,
    end_now: &crate::eval::Scores,
) -> [f64; MAX_PLAYERS] {
    let mut scores = [0.0; MAX_PLAYERS];
    let left = if state.is_over() {
        0.0
    } else {
        cfg.meeple * state.bag().total() as f64 / 71.0
    };
    for (s, v) in scores.iter_mut().enumerate().take(state.players()) {
        *v = end_now[s] as f64 + left * state.supply(Seat(s as u8)) as f64;
    }
    scores
}

/// The lead of each seat over the best other for `scores`.
pub(crate) fn leads(scores: &[f64; MAX_PLAYERS], players: usize) -> [f64; MAX_PLAYERS] {
    let mut out = [0.0; MAX_PLAYERS];
    for (s, r) in out.iter_mut().enumerate().take(players) {
        let best_other = (0..players)
            .filter(|&o| o != s)
            .map(|o| scores[o])
            .fold(f64::NEG_INFINITY, f64::max);
        *r = scores[s] - best_other;
    }
    out
}

/// The reward of each seat for `scores`.
#[cfg(test)]
pub(crate) fn rewards(
    cfg: &MctsConfig,
    scores: &[f64; MAX_PLAYERS],
    players: usize,
) -> [f64; MAX_PLAYERS] {
    let mut out = leads(scores, players);
    for r in out.iter_mut().take(players) {
        *r = reward(cfg, *r);
    }
    out
}

/// The reward of a seat `lead` points ahead of the best other seat.
pub(crate) fn reward(cfg: &MctsConfig, lead: f64) -> f64 {
    match cfg.reward {
        Reward::Win => {
            if lead > 0.0 {
                1.0
            } else if lead == 0.0 {
                0.5
            } else {
                0.0
            }
        }
        Reward::Score => 0.5 + 0.5 * (lead / cfg.scale).tanh(),
    }
}

/// Play `cfg.depth` turns (or to the end) of `state` with random draws and
/// the rollout policy (fields listed in `fields`, see [`FieldCache`]).
pub(crate) fn rollout<R: Rng + ?Sized>(
    cfg: &MctsConfig,
    state: &mut State,
    rng: &mut R,
    fields: &mut FieldCache,
) {
    let mut turns = 0u32;
    loop {
        match state.phase() {
            Phase::Over => return,
            Phase::Draw | Phase::DrawHand => {
                if cfg.depth.is_some_and(|d| turns >= d) {
                    return;
                }
                state.apply_chance(rng);
            }
            Phase::DrawSecond(_) | Phase::DrawGift => {
                state.apply_chance(rng);
            }
            Phase::Choose(a, b) => {
                let keep = if rng.gen_bool(0.5) { a } else { b };
                state.play_action_unchecked(Action::Keep(keep));
            }
            Phase::Place(_) | Phase::PlaceHand => {
                let played = match cfg.rollout {
                    Rollout::Random => engine::play_random_move(state, rng),
                    Rollout::Greedy => sampled_greedy_move_in(state, cfg.k, rng, fields)
                        .inspect(|&mv| state.play_action_unchecked(Action::Place(mv))),
                };
                played.expect("a drawn tile is placeable");
                turns += 1;
            }
        }
    }
}

/// A one-ply value of `action` for the seat to play in the position of
/// `end_now` (shared by the actions of one position): the change it makes
/// in the seat's end-now advantage. It orders the actions of a position
/// as the advantage right after them does ([`crate::greedy::move_value`]
/// for a placement), which it differs from by the position's advantage.
pub(crate) fn quick_value(end_now: &mut EndNow<'_>, action: Action) -> i32 {
    advantage_gain(end_now, action)
}

/// The best of `k` uniformly random legal moves by the greedy evaluation
/// (the first sampled among equals); `None` outside the place phase.
pub fn sampled_greedy_move<R: Rng + ?Sized>(state: &State, k: u32, rng: &mut R) -> Option<Move> {
    if k == 0 || state.placement_count() == 0 {
        return None;
    }
    // Built in place (moving an `EndNow` copies it).
    let mut end_now = state.end_now_lazy();
    best_sampled(&mut end_now, k, rng)
}

/// [`sampled_greedy_move`] with fields listed in `fields` (see
/// [`FieldCache`]).
pub(crate) fn sampled_greedy_move_in<R: Rng + ?Sized>(
    state: &State,
    k: u32,
    rng: &mut R,
    fields: &mut FieldCache,
) -> Option<Move> {
    if k == 0 || state.placement_count() == 0 {
        return None;
    }
    let mut end_now = state.end_now_lazy_in(fields);
    best_sampled(&mut end_now, k, rng)
}

/// The best of `k` (≥ 1) uniformly random legal moves of the position of
/// `end_now` by [`quick_value`] (the first drawn among equals).
#[inline]
fn best_sampled<R: Rng + ?Sized>(end_now: &mut EndNow<'_>, k: u32, rng: &mut R) -> Option<Move> {
    // Each move drawn through `end_now`, which prepares its placement for
    // the value that follows (the meeple's free segments read off it).
    let first = end_now.random_move(rng)?;
    let mut best = (quick_value(end_now, Action::Place(first)), first);
    for _ in 1..k {
        let mv = end_now.random_move(rng)?;
        let v = quick_value(end_now, Action::Place(mv));
        if v > best.0 {
            best = (v, mv);
        }
    }
    Some(best.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::config::tests::config;

    #[test]
    fn rewards_rank_each_seat_against_the_best_other() {
        let win = config("mcts:reward=win");
        let scores = [10.0, 20.0, 20.0, 5.0, 0.0, 0.0];
        assert_eq!(rewards(&win, &scores, 4)[..4], [0.0, 0.5, 0.5, 0.0]);
        let score = config("mcts:reward=score,scale=10");
        let r = rewards(&score, &[30.0, 20.0, 0.0, 0.0, 0.0, 0.0], 2);
        assert!((r[0] - (0.5 + 0.5 * 1f64.tanh())).abs() < 1e-12);
        assert!((r[0] + r[1] - 1.0).abs() < 1e-12);
    }
}
