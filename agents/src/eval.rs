//! Position evaluation shared by the agents: the *end-now* scores.
//!
//! The end-now score of a seat is what it would have if the game ended at
//! this point: the points it has scored so far plus the final scoring
//! (RULES.md §4) of every meeple still on the board — incomplete roads,
//! cities and monasteries, and fields when farmers are on. A meeple on a
//! growing feature is therefore worth what that feature is worth today.
//!
//! The engine computes it without changing or copying the state
//! ([`State::end_now_scores`], [`State::end_now_scores_after`]); this
//! module turns it into score totals and advantages.

use engine::{Action, Move, PerSeat, Score, Seat, State, MAX_PLAYERS};

/// Score totals per seat (seats past the table's player count are 0).
pub type Scores = [i32; MAX_PLAYERS];

/// The end-now score of every seat, without changing `state`. For a
/// finished game these are the final scores.
pub fn end_now_scores(state: &State) -> Scores {
    totals(&state.end_now_scores(), state.players())
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
