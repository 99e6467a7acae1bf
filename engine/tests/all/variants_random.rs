//! Seeded random games over every combination of the variants the engine
//! plays (RULES.md §8: `start_in_bag`, `unplaceable`, `hole_bonus`,
//! `final_incomplete`, `table`, `table_closes`) with and without The Gifts
//! and farmers: the invariants of the base game hold at every step
//! (meeples and gift cards conserved, no score category ever drops), every
//! game ends by its rules, and its record replays to the same position
//! and scores.

use engine::{random_action, replay, Phase, Record, RecordBuilder, Rules, Seat, State, Table};
use engine::{Score, Unplaceable};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use testkit::StateExt;

/// The tables tried: none, and small ones that fill up (closing or not).
const TABLES: [Option<(u8, u8, bool)>; 5] = [
    None,
    Some((3, 3, false)),
    Some((5, 5, true)),
    Some((7, 3, false)),
    Some((9, 7, true)),
];

/// Every combination: bit 0 gifts, 1 hole_bonus, 2 final_incomplete off,
/// 3 start_in_bag, 4 unplaceable return; times each table.
fn combinations() -> impl Iterator<Item = Rules> {
    (0..32u32).flat_map(|bits| {
        TABLES.iter().map(move |table| {
            let on = |b: u32| bits & (1 << b) != 0;
            let rules = Rules {
                gifts: on(0),
                hole_bonus: on(1),
                final_incomplete: !on(2),
                start_in_bag: on(3),
                unplaceable: if on(4) {
                    Unplaceable::Return
                } else {
                    Unplaceable::Aside
                },
                table: table.map(|(width, height, _)| Table { width, height }),
                table_closes: table.is_some_and(|t| t.2),
                ..Rules::STANDARD
            };
            rules.validate().unwrap();
            rules
        })
    })
}

fn parts(s: Score) -> [u16; 5] {
    [s.road, s.city, s.monastery, s.farm, s.gifts]
}

/// What one game showed, for the coverage checks.
#[derive(Default)]
struct Seen {
    returned_draws: usize,
    take2_returns: usize,
    ended_with_tiles_left: usize,
}

/// Play one random game under `rules`, checking every step, and replay
/// its record.
fn play(rules: Rules, seed: u64, seen: &mut Seen) {
    let players = 2 + (seed % 5) as usize;
    let rules = Rules {
        farmers: seed % 3 != 2,
        ..rules
    };
    let ctx = format!("seed {seed}, {players} players, rules {rules}");
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut state = State::new(rules, players, Seat((seed % players as u64) as u8));
    let mut builder = RecordBuilder::new(players, rules);
    let mut last: Vec<[u16; 5]> = vec![[0; 5]; players];
    let mut steps = 0;
    while !state.is_over() {
        steps += 1;
        assert!(steps < 100_000, "{ctx}: the game does not end");
        if state.is_chance() {
            let bag = *state.bag();
            let outcome = state.apply_chance(&mut rng);
            if let engine::ChanceOutcome::Tile(t, engine::Drawn::Returned) = outcome {
                // A draw put back leaves the bag as it was; a tile of a
                // hand put back adds one.
                let back = state.bag().count(t) - bag.count(t);
                assert!(back <= u8::from(rules.hand > 0), "{ctx}: {t} returned");
                assert_eq!(state.bag().total() - bag.total(), back, "{ctx}");
                seen.returned_draws += 1;
            }
            builder.chance(&state, outcome);
        } else {
            let seat = state.to_play();
            let action = random_action(&state, &mut rng).expect("a decision");
            assert_eq!(state.check_action(action), Ok(()), "{ctx}: {action:?}");
            state.play_action_unchecked(action);
            builder.action(seat, &state, action);
        }
        testkit::assert_conserved(&state);
        for (s, last) in last.iter_mut().enumerate() {
            let now = parts(state.score(Seat(s as u8)));
            for (n, l) in now.iter().zip(last.iter()) {
                assert!(n >= l, "{ctx}: a score of seat {s} dropped");
            }
            *last = now;
        }
        if let Some(t) = rules.table {
            for p in state.board().tiles() {
                assert!(t.contains(p.pos.x.into(), p.pos.y.into()), "{ctx}");
            }
        }
    }
    assert!(state.tiles_exhausted(), "{ctx}: ended with a tile to draw");
    if !state.bag().is_empty() {
        assert_eq!(rules.unplaceable, Unplaceable::Return, "{ctx}");
        seen.ended_with_tiles_left += 1;
    }
    assert_eq!(state.phase(), Phase::Over);
    let record: Record = builder.finish(&state);
    assert_eq!(record.start.is_some(), rules.start_in_bag, "{ctx}");
    seen.take2_returns += record
        .turns
        .iter()
        .filter_map(|t| t.gift_open.as_ref())
        .filter(|g| !g.discarded.is_empty() && rules.unplaceable == Unplaceable::Return)
        .count();
    let replayed = replay(&record, false).unwrap_or_else(|e| panic!("{ctx}: replay: {e}"));
    assert!(replayed.is_over(), "{ctx}");
    for s in 0..players {
        let seat = Seat(s as u8);
        assert_eq!(replayed.score(seat), state.score(seat), "{ctx}");
    }
    assert!(testkit::same_position(&replayed, &state), "{ctx}");
}

#[test]
fn every_variant_combination_keeps_the_invariants_and_replays() {
    let mut seen = Seen::default();
    for (k, rules) in combinations().enumerate() {
        for g in 0..4 {
            play(rules, (k * 4 + g) as u64, &mut seen);
        }
    }
    assert!(seen.returned_draws > 1000, "{}", seen.returned_draws);
    assert!(
        seen.ended_with_tiles_left > 50,
        "{}",
        seen.ended_with_tiles_left
    );
    assert!(seen.take2_returns > 0, "no Take 2 returned a draw");
}

/// The same over hands of 1 and 3 tiles (hidden or visible) combined with
/// every other variant but The Gifts (refused with a hand): start tile
/// drawn before the deal, hands' unplaceable tiles returned, tables.
#[test]
fn hands_with_every_other_variant_keep_the_invariants_and_replay() {
    let mut seen = Seen::default();
    let with_hands = combinations()
        .filter(|r| !r.gifts)
        .enumerate()
        .map(|(k, r)| Rules {
            hand: if k % 2 == 0 { 1 } else { 3 },
            hand_visible: k % 4 < 2,
            ..r
        });
    for (k, rules) in with_hands.enumerate() {
        for g in 0..2 {
            play(rules, 7_000 + (k * 2 + g) as u64, &mut seen);
        }
    }
    assert!(seen.returned_draws > 100, "{}", seen.returned_draws);
    assert!(
        seen.ended_with_tiles_left > 10,
        "{}",
        seen.ended_with_tiles_left
    );
}

/// Every rule combination above, hands of 1 and 3 among them, farmers on
/// and off, 2 to 6 seats.
fn every_rules_with_hands_and_seats() -> impl Iterator<Item = (Rules, usize)> {
    combinations().enumerate().map(|(k, r)| {
        let rules = Rules {
            hand: if r.gifts { 0 } else { [0, 1, 3][k % 3] },
            farmers: k % 4 != 1,
            ..r
        };
        (rules, 2 + k % 5)
    })
}

/// `play_random_move` is `random_move` then `play_unchecked`: the
/// same move from the same draws, the same state after, at every
/// placement of games under every rule combination.
#[test]
fn play_random_move_is_random_move_then_play() {
    use engine::random_move;
    use rand::RngCore;
    let mut placements = 0;
    let games = every_rules_with_hands_and_seats().flat_map(|g| [g, g]);
    for (k, (rules, players)) in games.enumerate() {
        let mut state = State::new(rules, players, Seat(0));
        let mut rng = Pcg64Mcg::seed_from_u64(k as u64);
        while !state.is_over() {
            if state.is_chance() {
                state.apply_chance(&mut rng);
                continue;
            }
            if matches!(state.phase(), Phase::Place(_) | Phase::PlaceHand) {
                let (mut picked, mut picked_rng) = (state.clone(), rng.clone());
                let mv = random_move(&picked, &mut picked_rng).expect("a placement");
                picked.play_unchecked(mv);
                let played = engine::play_random_move(&mut state, &mut rng);
                let ctx = format!("{rules:?}, {players} seats, turn {}", state.turns());
                assert_eq!(played, Some(mv), "{ctx}");
                assert!(state == picked, "{ctx}: the states differ");
                assert_eq!(rng.next_u64(), picked_rng.next_u64(), "{ctx}: draws");
                placements += 1;
            } else {
                let action = random_action(&state, &mut rng).expect("an action");
                state.play_action_unchecked(action);
            }
        }
        let mut after = state.clone();
        assert_eq!(
            engine::play_random_move(&mut after, &mut rng),
            None,
            "a finished game"
        );
        assert!(after == state, "nothing played after the end");
    }
    assert!(placements > 10_000, "{placements}");
}

/// `EndNow::random_move` is `random_move`: the same move from the same
/// draws at every placement of games under every rule combination, and
/// the placement it prepares values the move as a fresh `EndNow` does.
#[test]
fn end_now_random_move_is_random_move() {
    use engine::{random_move, Action};
    use rand::RngCore;
    let mut placements = 0;
    for (k, (rules, players)) in every_rules_with_hands_and_seats().enumerate() {
        let mut state = State::new(rules, players, Seat(0));
        let mut rng = Pcg64Mcg::seed_from_u64(900 + k as u64);
        while !state.is_over() {
            if state.is_chance() {
                state.apply_chance(&mut rng);
                continue;
            }
            if matches!(state.phase(), Phase::Place(_) | Phase::PlaceHand) {
                let mut picked_rng = rng.clone();
                let mv = random_move(&state, &mut picked_rng).expect("a placement");
                let mut end_now = state.end_now_lazy();
                let drawn = end_now.random_move(&mut rng);
                let ctx = format!("{rules:?}, {players} seats, turn {}", state.turns());
                assert_eq!(drawn, Some(mv), "{ctx}");
                assert_eq!(rng.next_u64(), picked_rng.next_u64(), "{ctx}: draws");
                let action = Action::Place(mv);
                assert_eq!(end_now.gain(action), state.end_now().gain(action), "{ctx}");
                state.play_unchecked(mv);
                placements += 1;
            } else {
                let action = random_action(&state, &mut rng).expect("an action");
                state.play_action_unchecked(action);
            }
        }
        assert_eq!(
            state.end_now_lazy().random_move(&mut rng),
            None,
            "a finished game"
        );
    }
    assert!(placements > 5_000, "{placements}");
}
