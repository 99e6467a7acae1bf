//! Seeded random games with The Gifts, 2–6 seats: cards and meeples are
//! conserved at every step, and every game's record replays to its scores.

use engine::random_action;
use engine::{replay, RecordBuilder, Rules, Seat, State};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Play one random game with gifts, checking every step; return it.
fn play(seed: u64, players: usize, farmers: bool) -> (State, engine::Record) {
    let rules = Rules {
        farmers,
        gifts: true,
        ..Rules::STANDARD
    };
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut state = State::new(rules, players, Seat(0));
    let mut builder = RecordBuilder::new(players, rules);
    let mut last_totals = vec![0u32; players];
    loop {
        if state.is_chance() {
            let outcome = state.apply_chance(&mut rng);
            builder.chance(&state, outcome);
        } else if let Some(action) = random_action(&state, &mut rng) {
            let seat = state.to_play();
            assert_eq!(state.check_action(action), Ok(()), "generated {action:?}");
            state.play_action_unchecked(action);
            builder.action(seat, &state, action);
        } else {
            break;
        }
        testkit::assert_conserved(&state);
        for (s, last) in last_totals.iter_mut().enumerate() {
            let total = state.score(Seat(s as u8)).total();
            assert!(total >= *last, "scores never decrease");
            *last = total;
        }
    }
    let record = builder.finish(&state);
    (state, record)
}

#[test]
fn random_gift_games_conserve_cards_and_replay_to_their_scores() {
    let mut opened_any = 0;
    for seed in 0..1500u64 {
        let players = 2 + (seed % 5) as usize;
        let (state, record) = play(seed, players, seed % 7 != 0);
        assert!(state.is_over());
        opened_any += record
            .turns
            .iter()
            .filter(|t| t.gift_open.is_some())
            .count();
        let replayed =
            replay(&record, false).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{record:?}"));
        for s in 0..players {
            let seat = Seat(s as u8);
            assert_eq!(replayed.score(seat), state.score(seat), "seed {seed}");
        }
    }
    assert!(opened_any > 1000, "gifts are opened in random games");
}
