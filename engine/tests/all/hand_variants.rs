//! Hands of tiles (RULES.md §8 `hand`) combined with the table and with
//! `unplaceable: return`: positions built by hand for the edge cases of the
//! combination (a hand whose tiles fit nowhere on the table, the bag running
//! out with hands left, the game ending with tiles in hands), hidden hands
//! kept hidden under each, and replay refusing records that break them.

use engine::{replay, Drawn, Phase, Pos, Record, Rules, Seat, State, Tile};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use testkit::StateExt;

/// A 2-seat game under `rules` dealt `deal` (seat 0's hand, then seat 1's).
fn dealt(rules: &str, deal: &[Tile]) -> State {
    let rules: Rules = rules.parse().unwrap();
    let mut state = State::new(rules, 2, Seat(0));
    for &t in deal {
        let drawn = state.draw(t).unwrap();
        assert!(
            matches!(drawn, Drawn::Held | Drawn::Start),
            "{t:?}: {drawn:?}"
        );
    }
    state
}

/// Place `action` (notation of `State::parse_action`) from the hand.
fn place(state: &mut State, action: &str) {
    let a = state.parse_action(action).unwrap();
    state.try_action(a).unwrap();
}

#[test]
fn a_hand_tile_that_fits_nowhere_on_the_table_is_set_aside_and_replaced() {
    // On a 3x3 table G closes D's city at the top: C (city all round) fits
    // nowhere. Seat 1 holds [C, U]: C goes, U stays, a draw replaces C.
    let mut state = dealt("table=3x3,hand=2", &[Tile::G, Tile::V, Tile::C, Tile::U]);
    place(&mut state, "G (0, 1) r0");
    assert_eq!(state.draw(Tile::K), Ok(Drawn::Held));
    assert_eq!((state.phase(), state.to_play()), (Phase::Draw, Seat(1)));
    assert!(!state.is_placeable(Tile::C));
    // The certain step: C, and nothing else, leaves the hand first.
    assert!(state.draw(Tile::U).is_err());
    assert_eq!(state.draw(Tile::C), Ok(Drawn::SetAside));
    assert_eq!(state.bag().count(Tile::C), 0);
    assert_eq!(state.draw(Tile::V), Ok(Drawn::Held));
    assert_eq!(state.phase(), Phase::PlaceHand);
    let own: Vec<Tile> = state.view(Seat(1)).own_tiles().iter().collect();
    assert!(own.contains(&Tile::U) && own.contains(&Tile::V), "{own:?}");
    assert_eq!(own.len(), 2);
}

#[test]
fn a_hand_whose_tiles_are_all_unplaceable_is_replaced_or_returned() {
    for returns in [false, true] {
        let rules = if returns {
            "table=3x3,hand=1,unplaceable=return"
        } else {
            "table=3x3,hand=1"
        };
        let mut state = dealt(rules, &[Tile::G, Tile::C]);
        place(&mut state, "G (0, 1) r0");
        state.draw(Tile::K).unwrap();
        let bag = state.bag().total();
        let expected = if returns {
            Drawn::Returned
        } else {
            Drawn::SetAside
        };
        assert_eq!(state.draw(Tile::C), Ok(expected), "return={returns}");
        assert_eq!(state.tiles_held(Seat(1)), 0);
        assert_eq!(state.bag().total(), bag + u8::from(returns));
        assert_eq!(state.phase(), Phase::Draw, "a replacement is drawn");
        if returns {
            // C came back into the bag; drawn again, it goes back again.
            assert_eq!(state.draw(Tile::C), Ok(Drawn::Returned));
            assert_eq!(state.bag().count(Tile::C), 1);
        } else {
            assert!(state.draw(Tile::C).is_err(), "C was set aside");
        }
        assert_eq!(state.draw(Tile::U), Ok(Drawn::Held));
        assert_eq!(
            (state.phase(), state.to_play()),
            (Phase::PlaceHand, Seat(1))
        );
    }
}

/// A 3x3 table filled around D with hand=1 (seat 0 dealt E, seat 1 U): each
/// seat places its tile and draws the next one back up; seat 0's last draw
/// is U, which the filled table leaves unplaceable.
fn fill_the_table(rules: &str) -> State {
    let mut state = dealt(rules, &[Tile::E, Tile::U]);
    let turns = [
        ("E (0, 1) r2", Tile::U),
        ("U (1, 0) r1", Tile::B),
        ("U (-1, 0) r1", Tile::B),
        ("B (0, -1) r0", Tile::B),
        ("B (1, 1) r0", Tile::E),
        ("B (-1, 1) r0", Tile::B),
        ("E (1, -1) r2", Tile::U),
    ];
    for (action, back_up) in turns {
        place(&mut state, action);
        assert_eq!(state.draw(back_up), Ok(Drawn::Held), "{action}");
    }
    place(&mut state, "B (-1, -1) r0");
    state
}

#[test]
fn unplaceable_return_ends_the_game_with_tiles_left_in_a_hand() {
    let state = fill_the_table("table=3x3,hand=1,unplaceable=return");
    // Only unplaceable tiles are left in the bag: seat 1 draws nothing back
    // up, and no tile in the bag or in seat 0's hand can be placed.
    assert!(state.is_over(), "{:?}", state.phase());
    assert_eq!(state.tiles_held(Seat(0)), 1);
    assert_eq!(state.tiles_held(Seat(1)), 0);
    assert_eq!(state.bag().total(), 72 - 9 - 1);
    assert!(state.tiles_exhausted());
}

#[test]
fn the_bag_runs_out_with_hands_left_and_the_hands_are_set_aside() {
    let mut state = fill_the_table("table=3x3,hand=1");
    assert_eq!((state.phase(), state.to_play()), (Phase::DrawHand, Seat(1)));
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let mut held_when_the_bag_ran_out = None;
    while !state.is_over() {
        assert!(state.is_chance(), "nothing can be placed");
        state.draw_random(&mut rng);
        if state.bag().is_empty() && held_when_the_bag_ran_out.is_none() {
            held_when_the_bag_ran_out = Some(state.tiles_held(Seat(0)) + state.tiles_held(Seat(1)));
        }
    }
    assert!(held_when_the_bag_ran_out.unwrap() > 0, "hands left");
    assert!(state.bag().is_empty());
    assert_eq!(state.tiles_held(Seat(0)) + state.tiles_held(Seat(1)), 0);
}

#[test]
fn determinized_samples_do_not_depend_on_another_seats_hidden_hand() {
    // Two deals that differ only in seat 1's hidden hand (and so in the
    // bag), under each variant that changes what a hand or the bag may
    // hold: seat 0's samples are the same.
    for rules in [
        "hand=3,unplaceable=return",
        "hand=3,table=5x5,table_closes=true",
        "hand=2,table=3x3,unplaceable=return",
        "hand=3,start_in_bag=true",
    ] {
        let start: &[Tile] = if rules.contains("start_in_bag") {
            &[Tile::D]
        } else {
            &[]
        };
        let n = if rules.starts_with("hand=3") { 3 } else { 2 };
        let own = [Tile::U, Tile::V, Tile::D];
        let seat1_a = [Tile::E, Tile::K, Tile::L];
        let seat1_b = [Tile::J, Tile::W, Tile::L];
        let deal = |seat1: &[Tile; 3]| -> Vec<Tile> { [start, &own[..n], &seat1[..n]].concat() };
        let a = dealt(rules, &deal(&seat1_a)[..]);
        let b = dealt(rules, &deal(&seat1_b)[..]);
        assert_ne!(a, b, "{rules}");
        for k in 0..10 {
            let sa = a.view(Seat(0)).determinize(&mut Pcg64Mcg::seed_from_u64(k));
            let sb = b.view(Seat(0)).determinize(&mut Pcg64Mcg::seed_from_u64(k));
            assert_eq!(sa, sb, "{rules}, sample {k}");
        }
    }
}

/// A recorded `table=3x3,hand=2,unplaceable=return` game: seat 0 dealt
/// [G, V] places G above D (closing D's city at the table's top) and
/// draws K; seat 1 dealt [C, U] returns C (it fits nowhere), draws C
/// again and returns it, draws V, places U east of D and draws E.
fn returned_hand_record() -> Record {
    let mut record = Record::new(2, "table=3x3,hand=2,unplaceable=return".parse().unwrap());
    record.deal = vec![vec![Tile::G, Tile::V], vec![Tile::C, Tile::U]];
    let mut t1 = testkit::turn("0 G 0 1 0");
    t1.drawn = vec![Tile::K];
    let mut t2 = testkit::turn("1 [C] [C] U 1 0 1");
    t2.drawn = vec![Tile::V, Tile::E];
    record.turns = vec![t1, t2];
    record
}

#[test]
fn replay_checks_returned_hand_tiles_and_names_the_turn() {
    let state = replay(&returned_hand_record(), false).unwrap();
    assert_eq!(state.bag().count(Tile::C), 1, "C went back into the bag");
    assert_eq!(state.tiles_held(Seat(1)), 2);
    let refused = |edit: &dyn Fn(&mut Record), what: &str| {
        let mut r = returned_hand_record();
        edit(&mut r);
        let e = replay(&r, false).expect_err(what);
        assert_eq!(e.turn, 2, "{what}: {e}");
        e.to_string()
    };
    // The returned tile of the hand not listed.
    let e = refused(&|r| r.turns[1].discarded.clear(), "C not returned");
    assert!(
        e.contains("tile C in the hand has no legal placement"),
        "{e}"
    );
    // The draw of C from the bag, returned, listed as drawn into the hand.
    let e = refused(
        &|r| {
            r.turns[1].discarded.truncate(1);
            r.turns[1].drawn.insert(0, Tile::C);
        },
        "C drawn into the hand",
    );
    assert!(e.contains("must be listed as discarded"), "{e}");
    // The tile that should have been returned placed instead.
    let e = refused(
        &|r| {
            r.turns[1] = testkit::turn("1 C 1 0 0");
            r.turns[1].drawn = vec![Tile::E];
        },
        "C placed",
    );
    assert!(
        e.contains("tile C in the hand has no legal placement"),
        "{e}"
    );
    // A placeable tile of the hand listed as returned.
    let e = refused(
        &|r| r.turns[1].discarded = vec![Tile::C, Tile::U],
        "U returned",
    );
    assert!(
        e.contains("U was set aside but has a legal placement"),
        "{e}"
    );
    // Without `unplaceable=return` C is set aside and cannot come up again.
    let e = refused(
        &|r| r.rules.unplaceable = Rules::STANDARD.unplaceable,
        "C twice",
    );
    assert!(e.contains("C is not left"), "{e}");
}

/// A recorded `start_in_bag=true,hand=2` game: V is the start tile, seat
/// 0 dealt [U, D], seat 1 [E, V]; seat 0 places U north of V (the road
/// across, which D's city would refuse) and draws K.
fn start_hand_record() -> Record {
    let mut record = Record::new(2, "start_in_bag=true,hand=2".parse().unwrap());
    record.start = Some(Tile::V);
    record.deal = vec![vec![Tile::U, Tile::D], vec![Tile::E, Tile::V]];
    let mut t = testkit::turn("0 U 0 1 1");
    t.drawn = vec![Tile::K];
    record.turns = vec![t];
    record
}

#[test]
fn replay_checks_the_start_tile_with_hands_and_names_the_turn() {
    let state = replay(&start_hand_record(), false).unwrap();
    assert_eq!(state.board().at(Pos::ORIGIN).unwrap().tile, Tile::V);
    assert_eq!(state.bag().total(), 72 - 1 - 4 - 1, "start, deal, K");
    // No start tile: a header error (turn 0).
    let mut r = start_hand_record();
    r.start = None;
    assert_eq!(replay(&r, false).unwrap_err().turn, 0);
    // The start tile taken from the bag before the deal: the only C cannot
    // also be dealt.
    let mut r = start_hand_record();
    r.start = Some(Tile::C);
    r.deal[1][1] = Tile::C;
    let e = replay(&r, false).unwrap_err();
    assert_eq!(e.turn, 0, "{e}");
    // The board starts from V, not D: U placed where only D would take it.
    let mut r = start_hand_record();
    r.turns[0] = testkit::turn("0 U 1 0 1");
    r.turns[0].drawn = vec![Tile::K];
    assert_eq!(replay(&r, false).unwrap_err().turn, 1);
}
