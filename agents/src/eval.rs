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
/// [`advantage_after`] less [`advantage_now`]. With two seats it is the
/// seat's gain less the other's ([`EndNow::gain`]), which values only
/// the held features the action changes (cheapest with
/// [`State::end_now_lazy`]).
pub fn advantage_gain(end_now: &mut EndNow<'_>, action: Action) -> i32 {
    let state = end_now.state();
    let (players, seat) = (state.players(), state.to_play());
    if players == 2 {
        let gain = end_now.gain(action);
        gain[seat.index()] - gain[1 - seat.index()]
    } else {
        advantage_after(end_now, action) - advantage_now(end_now)
    }
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
