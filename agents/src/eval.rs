//! Position evaluation shared by the agents: the *end-now* scores.
//!
//! The end-now score of a seat is what it would have if the game ended at
//! this point: the points it has scored so far plus the final scoring
//! (RULES.md §4) of every meeple still on the board — incomplete roads,
//! cities and monasteries, and fields when farmers are on. A meeple on a
//! growing feature is therefore worth what that feature is worth today.
//!
//! The engine computes it without changing or copying the state
//! ([`State::end_now_scores`], [`State::end_now_scores_after`], and
//! [`State::end_now`] for many actions of one position); this module
//! turns it into score totals and advantages.

use engine::{Action, EndNow, Move, PerSeat, Score, Seat, State, MAX_PLAYERS};

/// Score totals per seat (seats past the table's player count are 0).
pub type Scores = [i32; MAX_PLAYERS];

/// The end-now score of every seat, without changing `state`. For a
/// finished game these are the final scores.
pub fn end_now_scores(state: &State) -> Scores {
    totals(&state.end_now_scores(), state.players())
}

/// [`end_now_scores`] with fields listed in `fields` (see
/// [`engine::FieldCache`]).
pub fn end_now_scores_in(state: &State, fields: &mut engine::FieldCache) -> Scores {
    totals(&state.end_now_scores_in(fields), state.players())
}

/// The end-now scores right after `action` is played (points it scores
/// included; an opened gift no longer counts 2). It must be legal.
pub fn end_now_scores_after_action(state: &State, action: Action) -> Scores {
    totals(&state.end_now_scores_after(action), state.players())
}

/// The end-now scores right after `mv` is played (points the move scores
/// included). `mv` must be legal in `state`.
pub fn end_now_scores_after(state: &State, mv: Move) -> Scores {
    end_now_scores_after_action(state, Action::Place(mv))
}

/// The end-now advantage ([`advantage`]) of the seat to play right
/// after `action`, scored through `end_now`, the position's shared
/// end-now scores. `action` must be legal.
pub fn advantage_after(end_now: &mut EndNow<'_>, action: Action) -> i32 {
    let state = end_now.state();
    let (players, seat) = (state.players(), state.to_play());
    advantage(&totals(&end_now.after(action), players), players, seat)
}

/// What `action` changes in the end-now advantage of the seat to play:
/// [`advantage_after`] less [`advantage_now`], from each seat's gain
/// ([`EndNow::gain`]). With two seats it is the seat's gain less the
/// other's, which values only the held features the action changes
/// (cheapest with [`State::end_now_lazy`]); with more, the position's
/// scores tell which other seat leads before and after.
pub fn advantage_gain(end_now: &mut EndNow<'_>, action: Action) -> i32 {
    let state = end_now.state();
    let (players, seat) = (state.players(), state.to_play());
    let gain = end_now.gain(action);
    if players == 2 {
        return gain[seat.index()] - gain[1 - seat.index()];
    }
    let now = totals(&end_now.valued_scores(), players);
    let mut after = now;
    for (a, g) in after.iter_mut().zip(&gain).take(players) {
        *a += g;
    }
    advantage(&after, players, seat) - advantage(&now, players, seat)
}

/// The end-now advantage of the seat to play in `end_now`'s position.
pub fn advantage_now(end_now: &EndNow<'_>) -> i32 {
    let state = end_now.state();
    let players = state.players();
    advantage(
        &totals(&end_now.scores(), players),
        players,
        state.to_play(),
    )
}

/// The totals of the first `players` seats' scores.
fn totals(scores: &PerSeat<Score>, players: usize) -> Scores {
    let mut out = [0; MAX_PLAYERS];
    for (v, score) in out.iter_mut().zip(&scores.0[..players]) {
        *v = score.total() as i32;
    }
    out
}

/// `seat`'s score minus the best score among the other seats.
pub fn advantage(scores: &Scores, players: usize, seat: Seat) -> i32 {
    let best_other = (0..players)
        .filter(|&o| o != seat.index())
        .map(|o| scores[o])
        .max()
        .expect("at least two seats");
    scores[seat.index()] - best_other
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::random_play_until;
    use engine::Rules;

    /// The gain path gives what scoring the position after each action
    /// and the position itself does, with 2 to 4 seats, with and without
    /// The Gifts.
    #[test]
    fn advantage_gain_is_the_change_of_the_advantage() {
        let mut checked = 0;
        for seed in 0..24u64 {
            let players = 2 + (seed % 3) as usize;
            let rules = Rules {
                gifts: seed % 2 == 1,
                ..Rules::default()
            };
            for turns in [5, 20, 40, 60] {
                let state = random_play_until(players, rules, seed, |s| {
                    s.turns() >= turns || s.bag().total() < 4
                });
                let mut lazy = state.end_now_lazy();
                let mut full = state.end_now();
                state.for_each_action(|a| {
                    let expected = advantage_after(&mut full, a) - advantage_now(&full);
                    assert_eq!(advantage_gain(&mut lazy, a), expected, "seed {seed}, {a:?}");
                    checked += 1;
                });
            }
        }
        assert!(checked > 2000, "{checked}");
    }
}
