//! Position evaluation shared by the agents: the *end-now* scores.
//!
//! The end-now score of a seat is what it would have if the game ended at
//! this point: the points it has scored so far plus the final scoring
//! (RULES.md §4) of every meeple still on the board — incomplete roads,
//! cities and monasteries, and fields when farmers are on. A meeple on a
//! growing feature is therefore worth what that feature is worth today.
//!
//! It is computed with the public engine API: clone the state and call
//! [`State::finish`]. (An engine helper that scores a position without
//! cloning the 16 KB grid would make this several times cheaper.)

use engine::{Action, Move, Seat, State, MAX_PLAYERS};

/// Score totals per seat (seats past the table's player count are 0).
pub type Scores = [i32; MAX_PLAYERS];

/// The end-now score of every seat: the state's scores after final
/// scoring, without changing `state`. For a finished game these are the
/// final scores.
pub fn end_now_scores(state: &State) -> Scores {
    if state.is_over() {
        return totals(state);
    }
    let mut s = state.clone();
    s.finish();
    totals(&s)
}

/// The end-now scores right after `action` is played (points it scores
/// included; an opened gift no longer counts 2). It must be legal.
pub fn end_now_scores_after_action(state: &State, action: Action) -> Scores {
    let mut s = state.clone();
    s.play_action_unchecked(action);
    s.finish();
    totals(&s)
}

/// The end-now scores right after `mv` is played (points the move scores
/// included). `mv` must be legal in `state`.
pub fn end_now_scores_after(state: &State, mv: Move) -> Scores {
    let mut s = state.clone();
    s.play_unchecked(mv);
    // `finish` does nothing if the move ended the game (it finished it).
    s.finish();
    totals(&s)
}

/// The score totals of `state` as they stand.
pub fn totals(state: &State) -> Scores {
    let mut out = [0; MAX_PLAYERS];
    for (s, v) in out.iter_mut().enumerate().take(state.players()) {
        *v = state.score(Seat(s as u8)).total() as i32;
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
