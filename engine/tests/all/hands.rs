//! The `hand` variant (RULES.md §8): seeded random games with hands of 1–3
//! tiles, visible and hidden, 2–6 seats, checked at every step and
//! replayed from their records; hand-built positions for the edge cases;
//! hidden hands kept hidden.

use engine::{
    random_action, replay, Action, Drawn, IllegalMove, Phase, Record, RecordBuilder, Rules, Seat,
    State, Tile,
};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use testkit::StateExt;

fn rules(hand: u8, visible: bool) -> Rules {
    Rules {
        hand,
        hand_visible: visible,
        ..Rules::STANDARD
    }
}

/// Tiles on the board, in the bag and in the hands.
fn tiles_in_play(state: &State) -> usize {
    let held: usize = (0..state.players())
        .map(|s| state.tiles_held(Seat(s as u8)))
        .sum();
    state.board().len() + state.bag().total() as usize + held
}

/// Play one random game with hands, checking every step; return it with
/// its record.
fn play(seed: u64, players: usize, rules: Rules) -> (State, Record) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let first = Seat((seed % players as u64) as u8);
    let mut state = State::new(rules, players, first);
    let mut builder = RecordBuilder::new(players, rules);
    let mut last_totals = vec![0u32; players];
    let mut set_aside = 0;
    let n = rules.hand as usize;
    while !state.is_over() {
        if state.is_chance() {
            let outcome = state.apply_chance(&mut rng);
            if let engine::ChanceOutcome::Tile(_, Drawn::SetAside) = outcome {
                set_aside += 1;
            }
            builder.chance(&state, outcome);
        } else {
            assert_eq!(state.phase(), Phase::PlaceHand);
            let seat = state.to_play();
            let hand = state.view(seat).own_tiles();
            assert!(!hand.is_empty());
            assert!(hand.len() == n || state.bag().is_empty(), "a full hand");
            assert!(hand.iter().all(|t| state.is_placeable(t)), "all placeable");
            let actions = state.legal_actions();
            let mut placements = 0;
            state.for_each_placement(|_| placements += 1);
            assert_eq!(placements, state.placement_count());
            for &a in &actions {
                assert_eq!(state.check_action(a), Ok(()));
                assert_eq!(Action::from_index(a.to_index().unwrap()), Some(a));
                assert_eq!(state.parse_action(&state.describe(a)), Ok(a));
            }
            let action = random_action(&state, &mut rng).expect("an action");
            assert!(actions.contains(&action));
            state.try_action(action).unwrap();
            builder.action(seat, &state, action);
        }
        assert_eq!(tiles_in_play(&state) + set_aside, 72, "tiles conserved");
        testkit::assert_conserved(&state);
        for (s, last) in last_totals.iter_mut().enumerate() {
            let total = state.score(Seat(s as u8)).total();
            assert!(total >= *last, "scores never decrease");
            *last = total;
        }
    }
    assert!(state.bag().is_empty());
    assert!((0..players).all(|s| state.tiles_held(Seat(s as u8)) == 0));
    (state.clone(), builder.finish(&state))
}

#[test]
fn random_games_with_hands_keep_the_rules_and_replay_to_their_scores() {
    let mut placed_from_later_slots = 0;
    for seed in 0..240u64 {
        let players = 2 + (seed % 5) as usize;
        let hand = 1 + (seed / 5 % 3) as u8;
        let rules = Rules {
            hole_bonus: seed % 4 == 0,
            farmers: seed % 7 != 0,
            ..rules(hand, seed % 2 == 0)
        };
        let (state, record) = play(seed, players, rules);
        assert_eq!(record.deal.len(), players);
        assert!(record.deal.iter().all(|d| d.len() == hand as usize));
        placed_from_later_slots += record.turns.iter().filter(|t| !t.drawn.is_empty()).count();
        let replayed =
            replay(&record, false).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{record:?}"));
        assert!(replayed.is_over(), "seed {seed}");
        assert!(testkit::same_position(&replayed, &state), "seed {seed}");
    }
    assert!(placed_from_later_slots > 1000);
}

#[test]
fn the_deal_gives_each_seat_its_hand_in_seat_order() {
    let mut state = State::new(rules(2, false), 3, Seat(1));
    for (i, t) in [Tile::U, Tile::V, Tile::D, Tile::E, Tile::K, Tile::L]
        .into_iter()
        .enumerate()
    {
        assert_eq!(state.phase(), Phase::DrawHand, "draw {i}");
        assert_eq!(state.draw(t), Ok(Drawn::Held));
    }
    let tiles = |s: u8| state.view(Seat(s)).own_tiles().iter().collect::<Vec<_>>();
    assert_eq!(tiles(0), [Tile::U, Tile::V]);
    assert_eq!(tiles(1), [Tile::D, Tile::E]);
    assert_eq!(tiles(2), [Tile::K, Tile::L]);
    // Then the first seat plays from its hand.
    assert_eq!(
        (state.phase(), state.to_play()),
        (Phase::PlaceHand, Seat(1))
    );
    assert_eq!(state.bag().total(), 71 - 6);
}

/// A hand=1 game dealt `deal` (seat 0 then seat 1), seat 0 to play.
fn dealt(hand: u8, deal: &[Tile]) -> State {
    let mut state = State::new(rules(hand, false), 2, Seat(0));
    for &t in deal {
        state.draw(t).unwrap();
    }
    state
}

#[test]
fn placing_from_the_hand_draws_back_up_and_passes_the_turn() {
    let mut state = dealt(2, &[Tile::U, Tile::V, Tile::D, Tile::E]);
    let action = state.parse_action("V (0, -1) r0").unwrap();
    let Action::Place(mv) = action else { panic!() };
    assert_eq!(mv.placement.slot, 1, "V is the second tile of [U, V]");
    state.try_action(action).unwrap();
    assert_eq!(state.phase(), Phase::DrawHand);
    assert_eq!(state.to_play(), Seat(0), "seat 0 draws back up");
    state.draw(Tile::K).unwrap();
    assert_eq!(
        (state.phase(), state.to_play()),
        (Phase::PlaceHand, Seat(1))
    );
    let own: Vec<Tile> = state.view(Seat(0)).own_tiles().iter().collect();
    assert_eq!(own, [Tile::K, Tile::U]);
    // A tile that is not in the hand cannot be placed.
    assert!(state.parse_action("U (0, -1) r0").is_err());
}

#[test]
fn an_empty_hand_slot_is_refused() {
    let state = dealt(1, &[Tile::U, Tile::D]);
    let mv = engine::Move::place(engine::Pos::new(1, 0), engine::Rotation::new(1).unwrap());
    assert_eq!(state.check(mv), Ok(()));
    assert_eq!(state.check(mv.from_slot(1)), Err(IllegalMove::EmptySlot(1)));
}

#[test]
fn a_hand_whose_tiles_are_all_unplaceable_is_set_aside_and_replaced() {
    // Unplaceable tiles are rare: play random hand=3 games and check
    // every tile set aside at the start of a turn (from the hand or drawn
    // to replace one) has no legal placement.
    let mut set_aside_from_hands = 0;
    for seed in 0..300u64 {
        let rules = rules(3, seed % 2 == 0);
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut state = State::new(rules, 2, Seat(0));
        while !state.is_over() {
            if state.is_chance() {
                let before = state.view(state.to_play()).own_tiles();
                let phase = state.phase();
                let outcome = state.apply_chance(&mut rng);
                if let (Phase::Draw, engine::ChanceOutcome::Tile(t, Drawn::SetAside)) =
                    (phase, outcome)
                {
                    assert!(
                        !state.is_placeable(t),
                        "only unplaceable tiles are set aside"
                    );
                    if before.slot_of(t).is_some() {
                        set_aside_from_hands += 1;
                    }
                }
            } else {
                let a = random_action(&state, &mut rng).unwrap();
                state.try_action(a).unwrap();
            }
        }
    }
    assert!(set_aside_from_hands > 0, "hands do hold unplaceable tiles");
}

#[test]
fn the_game_ends_when_the_bag_and_every_hand_are_empty() {
    // Play a 2-seat hand=3 game until the bag is empty: the hands still
    // hold tiles, and the game goes on until they are played out.
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let mut state = State::new(rules(3, false), 2, Seat(0));
    let mut turns_after_bag = 0;
    while !state.is_over() {
        if state.is_chance() {
            state.apply_chance(&mut rng);
        } else {
            if state.bag().is_empty() {
                turns_after_bag += 1;
            }
            let a = random_action(&state, &mut rng).unwrap();
            state.try_action(a).unwrap();
        }
    }
    assert!(
        turns_after_bag >= 4,
        "{turns_after_bag} turns after the bag ran out"
    );
}

#[test]
fn hidden_hands_are_dealt_anew_and_visible_ones_kept() {
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    for visible in [false, true] {
        let mut state = State::new(rules(3, visible), 3, Seat(0));
        while state.is_chance() {
            state.apply_chance(&mut rng);
        }
        let view = state.view(Seat(0));
        assert_eq!(view.visible_tiles(Seat(1)).is_some(), visible);
        assert_eq!(view.tiles_held(Seat(1)), 3);
        let mut differs = false;
        for k in 0..20 {
            let sample = view.determinize(&mut Pcg64Mcg::seed_from_u64(k));
            assert_eq!(sample.view(Seat(0)).own_tiles(), view.own_tiles());
            assert_eq!(sample.bag().total(), state.bag().total());
            for s in 1..3 {
                let seat = Seat(s);
                assert_eq!(sample.tiles_held(seat), 3);
                differs |= sample.view(seat).own_tiles() != state.view(seat).own_tiles();
            }
            assert_eq!(tiles_in_play(&sample), 72);
        }
        assert_eq!(differs, !visible, "visible={visible}");
    }
}

#[test]
fn a_decision_does_not_depend_on_another_seats_hidden_hand() {
    // Two deals that differ only in seat 1's hidden hand (and so in the
    // bag): seat 0's determinized samples are the same.
    let deal_a = [Tile::U, Tile::V, Tile::D, Tile::E, Tile::K, Tile::L];
    let deal_b = [Tile::U, Tile::V, Tile::D, Tile::J, Tile::W, Tile::L];
    let a = dealt(3, &deal_a);
    let b = dealt(3, &deal_b);
    assert_ne!(a, b);
    for k in 0..10 {
        let sa = a.view(Seat(0)).determinize(&mut Pcg64Mcg::seed_from_u64(k));
        let sb = b.view(Seat(0)).determinize(&mut Pcg64Mcg::seed_from_u64(k));
        assert_eq!(sa, sb, "sample {k}");
    }
    // With visible hands the samples keep each real hand, so they differ.
    let va = State::new(rules(3, true), 2, Seat(0));
    assert_eq!(
        va.view(Seat(0))
            .determinize(&mut Pcg64Mcg::seed_from_u64(0)),
        va
    );
}

/// A recorded hand=2 game: seat 0 dealt [U, V], seat 1 [D, E]; seat 0
/// places V south of the start tile and draws K.
fn hand_record() -> Record {
    let mut record = Record::new(2, rules(2, false));
    record.deal = vec![vec![Tile::U, Tile::V], vec![Tile::D, Tile::E]];
    let mut t = testkit::turn("0 V 0 -1 0");
    t.drawn = vec![Tile::K];
    record.turns = vec![t];
    record
}

#[test]
fn replay_checks_every_hand_rule_and_names_the_turn() {
    let state = replay(&hand_record(), false).unwrap();
    assert_eq!(
        (state.to_play(), state.phase()),
        (Seat(1), Phase::PlaceHand)
    );
    // A tile that is not in the hand.
    let mut r = hand_record();
    r.turns[0].tile = Some(Tile::E);
    let e = replay(&r, false).unwrap_err();
    assert_eq!(e.turn, 1);
    assert!(e.to_string().contains("not in the seat's hand"), "{e}");
    // No draw back up.
    let mut r = hand_record();
    r.turns[0].drawn.clear();
    let e = replay(&r, false).unwrap_err();
    assert_eq!(e.turn, 1);
    assert!(e.to_string().contains("drawn back up"), "{e}");
    // A draw too many.
    let mut r = hand_record();
    r.turns[0].drawn.push(Tile::L);
    assert_eq!(replay(&r, false).unwrap_err().turn, 1);
    // A tile set aside that could be placed.
    let mut r = hand_record();
    r.turns[0].discarded = vec![Tile::U];
    let e = replay(&r, false).unwrap_err();
    assert_eq!(e.turn, 1);
    // A deal of the wrong size is a header error.
    let mut r = hand_record();
    r.deal[1].pop();
    let e = replay(&r, false).unwrap_err();
    assert_eq!(e.turn, 0);
    assert!(e.to_string().contains("seat 1 draws 2 tiles"), "{e}");
    // Hand draws without a hand.
    let mut r = hand_record();
    r.rules.hand = 0;
    assert!(replay(&r, false).is_err());
}
