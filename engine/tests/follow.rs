//! A seat that follows a game from its turn records — other seats'
//! received gift cards hidden — sees exactly the real game: at every one
//! of its decisions, its copy (completed turns through `follow_turn`, the
//! turn in progress through `apply_turn_start`) gives the same legal
//! actions and the same determinizations as the real position.

use engine::{
    apply_turn_start, follow_turn, random_action, RecordBuilder, Rules, Seat, State, TurnRecord,
};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// The turn as `viewer` is told it, and whether its gift was hidden.
fn masked(turn: &TurnRecord, viewer: Seat) -> (TurnRecord, bool) {
    let mut turn = turn.clone();
    let hidden = turn.player != viewer.0 && turn.gift_received.take().is_some();
    (turn, hidden)
}

fn actions(state: &State, seat: Seat) -> Vec<engine::Action> {
    let mut out = Vec::new();
    state.view(seat).for_each_action(|a| out.push(a));
    out
}

/// Play a random game; at every decision compare the deciding seat's copy
/// with the real position. Returns the number of decisions checked.
fn check_game(seed: u64, players: usize) -> usize {
    let rules = Rules {
        farmers: true,
        gifts: true,
        ..Rules::STANDARD
    };
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut state = State::new(rules, players, Seat(0));
    let mut builder = RecordBuilder::new(players, rules);
    let mut copies: Vec<State> = (0..players).map(|_| state.clone()).collect();
    let mut followed = vec![0usize; players];
    let mut checked = 0;
    while !state.is_over() {
        if state.is_chance() {
            let outcome = state.apply_chance(&mut rng);
            builder.chance(&state, outcome);
            continue;
        }
        let seat = state.to_play();
        let copy = &mut copies[seat.index()];
        for turn in &builder.turns()[followed[seat.index()]..] {
            let (turn, hidden) = masked(turn, seat);
            follow_turn(copy, seat, &turn, hidden).unwrap();
        }
        followed[seat.index()] = builder.turns().len();
        let mut position = copy.clone();
        let current = builder.current_turn().expect("a turn in progress");
        apply_turn_start(&mut position, &current).unwrap();
        assert_eq!(position.phase(), state.phase(), "seed {seed}");
        assert_eq!(
            actions(&position, seat),
            actions(&state, seat),
            "seed {seed}"
        );
        let sample = |s: &State| {
            let mut r = Pcg64Mcg::seed_from_u64(checked as u64);
            s.view(seat).determinize(&mut r)
        };
        assert!(
            sample(&position) == sample(&state),
            "seed {seed}: determinization"
        );
        checked += 1;
        let action = random_action(&state, &mut rng).unwrap();
        state.try_action(action).unwrap();
        builder.action(seat, &state, action);
    }
    checked
}

#[test]
fn a_seat_following_turn_records_sees_the_real_game() {
    let mut decisions = 0;
    for seed in 0..12 {
        decisions += check_game(seed, 2 + (seed as usize % 4));
    }
    assert!(decisions > 800, "{decisions}");
}
