//! The house-rule variants of RULES.md §8: the rules configuration (keys,
//! values, refusals) and positions for the variants the engine plays
//! (`final_incomplete`, `hole_bonus`, `unplaceable: return`,
//! `start_in_bag`; the table has its own file, `tests/table.rs`).

use engine::{
    random_action, replay, Action, Chance, Drawn, Phase, Pos, Record, RecordBuilder, ReplayReason,
    Rules, RulesError, Seat, Side, State, Table, Tile, Unplaceable,
};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use testkit::turn;
use testkit::StateExt;

fn err(s: &str) -> String {
    s.parse::<Rules>().unwrap_err().to_string()
}

#[test]
fn every_variant_key_parses_and_prints_back() {
    let rules: Rules = "final_incomplete=false, hole_bonus=true,farmers=false"
        .parse()
        .unwrap();
    assert!(!rules.final_incomplete && rules.hole_bonus && !rules.farmers);
    assert_eq!(rules.to_string().parse::<Rules>().unwrap(), rules);
    assert_eq!("".parse::<Rules>().unwrap(), Rules::default());
    assert_eq!(Rules::default().to_string(), "");
    let mut r = Rules::default();
    r.set("table", "13x5").unwrap();
    assert_eq!(
        r.table,
        Some(Table {
            width: 13,
            height: 5
        })
    );
}

#[test]
fn unknown_keys_and_values_are_refused_listing_the_valid_ones() {
    let e = err("bonus=true");
    assert!(
        e.contains("unknown rules key `bonus`") && e.contains("hole_bonus, final_incomplete"),
        "{e}"
    );
    assert!(err("hole_bonus=yes").contains("true or false"));
    assert!(err("hand=4").contains("0, 1, 2 or 3"));
    assert!(err("unplaceable=burn").contains("aside or return"));
    assert!(err("hole_bonus").contains("not KEY=VALUE"));
    for bad in ["10x11", "11x10", "1x1", "11X11", "11x", "x11", "-3x3"] {
        assert!(
            err(&format!("table={bad}")).contains("odd and at least 3"),
            "{bad}"
        );
    }
}

/// Issue 27: `hand=1,hand=2` silently took the last value.
#[test]
fn a_key_given_twice_is_refused() {
    let e = "hand=1,hand=2".parse::<Rules>().unwrap_err();
    assert_eq!(e, RulesError::Repeated("hand".to_string()));
    assert_eq!(e.to_string(), "rules key `hand` given twice");
    assert!("hand=1, farmers=false ,hand=1".parse::<Rules>().is_err());
}

#[test]
fn impossible_combinations_are_refused() {
    assert!(matches!(
        "hand=2,gifts=true".parse::<Rules>(),
        Err(RulesError::Conflict(_))
    ));
    assert!(matches!(
        "table_closes=true".parse::<Rules>(),
        Err(RulesError::Conflict(_))
    ));
}

#[test]
fn the_table_start_and_return_variants_are_played() {
    for s in [
        "start_in_bag=true",
        "unplaceable=return",
        "table=11x11",
        "table=3x3,table_closes=true,unplaceable=return,start_in_bag=true,gifts=true",
        "hand=3,hand_visible=true,table=5x5,table_closes=true,unplaceable=return,start_in_bag=true",
    ] {
        let rules: Rules = s.parse().unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules));
    }
}

/// Seat 0's farmer in the field touching D's closed city (3 points at the
/// end), seat 1's highwayman on the open road D + U + U (3 points at the
/// end with the standard rule).
const FARM_AND_OPEN_ROAD: [&str; 4] = ["0 U 1 0 1 NNE", "1 E 0 1 2", "0 E 1 1 1", "1 U -1 0 1 E"];

fn final_scores(rules: Rules) -> Vec<[u32; 4]> {
    let mut record = Record::new(2, rules);
    record.turns = FARM_AND_OPEN_ROAD.iter().map(|t| turn(t)).collect();
    let state = replay(&record, true).unwrap();
    (0..2)
        .map(|s| {
            let sc = state.score(Seat(s));
            [
                sc.road.into(),
                sc.city.into(),
                sc.monastery.into(),
                sc.farm.into(),
            ]
        })
        .collect()
}

#[test]
fn final_incomplete_false_scores_farms_but_no_unfinished_features() {
    assert_eq!(
        final_scores(Rules::default()),
        vec![[0, 0, 0, 3], [3, 0, 0, 0]]
    );
    let rules = Rules {
        final_incomplete: false,
        ..Rules::STANDARD
    };
    assert_eq!(final_scores(rules), vec![[0, 0, 0, 3], [0; 4]]);
}

/// Whether the tile at `pos` has tiles on all four sides.
fn fills_a_hole(state: &State, pos: Pos) -> bool {
    Side::ALL
        .iter()
        .all(|&s| state.board().at(pos.step(s)).is_some())
}

#[test]
fn hole_bonus_gives_the_same_seat_another_turn_and_only_then() {
    let rules = Rules {
        hole_bonus: true,
        ..Rules::STANDARD
    };
    let mut holes = 0;
    for seed in 0..300 {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut state = State::new(rules, 3, Seat(0));
        while !state.is_over() {
            if state.is_chance() {
                state.apply_chance(&mut rng);
                continue;
            }
            let action = random_action(&state, &mut rng).unwrap();
            let seat = state.to_play();
            state.play_action_unchecked(action);
            let Action::Place(m) = action else { continue };
            if state.is_over() || !state.is_chance() {
                continue;
            }
            let hole = fills_a_hole(&state, m.placement.pos);
            holes += usize::from(hole);
            let next = if hole { seat } else { Seat((seat.0 + 1) % 3) };
            assert_eq!(state.to_play(), next, "seed {seed}, hole {hole}");
        }
    }
    assert!(
        holes > 10,
        "only {holes} holes filled: the test checks little"
    );
}

#[test]
fn a_bonus_turn_that_fills_another_hole_chains() {
    // Seats that fill a hole whenever they can: a bonus turn sometimes
    // fills a second hole, and the same seat plays yet again.
    let rules = Rules {
        hole_bonus: true,
        ..Rules::STANDARD
    };
    let mut chains = 0;
    for seed in 0..40 {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut state = State::new(rules, 2, Seat(0));
        let mut in_bonus_turn = false;
        while !state.is_over() {
            if state.is_chance() {
                state.apply_chance(&mut rng);
                continue;
            }
            let filling = state
                .legal_actions()
                .into_iter()
                .find(|a| matches!(a, Action::Place(m) if fills_a_hole(&state, m.placement.pos)));
            let action = filling.unwrap_or_else(|| random_action(&state, &mut rng).unwrap());
            let seat = state.to_play();
            state.play_action_unchecked(action);
            if state.is_over() {
                break;
            }
            let hole = filling.is_some();
            chains += usize::from(hole && in_bonus_turn);
            in_bonus_turn = hole;
            let next = if hole { seat } else { Seat(1 - seat.0) };
            assert_eq!(state.to_play(), next, "seed {seed}, hole {hole}");
        }
    }
    assert!(chains > 0, "no bonus turn filled another hole");
}

/// The 3x3 table with `unplaceable: return`.
fn small_table_return() -> Rules {
    "table=3x3,unplaceable=return".parse().unwrap()
}

#[test]
fn an_unplaceable_tile_returns_to_the_bag_and_another_is_drawn() {
    // G closes D's city at the top of a 3x3 table: C (city all round) fits
    // nowhere on it.
    let mut record = Record::new(2, small_table_return());
    record.turns = vec![turn("0 G 0 1 0")];
    let mut state = replay(&record, false).unwrap();
    let before = state.clone();
    assert_eq!(state.draw(Tile::C), Ok(Drawn::Returned));
    assert!(state == before, "a returned draw changes nothing");
    assert_eq!(state.bag().count(Tile::C), 1);
    // It may come up again in the same turn.
    assert_eq!(state.draw(Tile::C), Ok(Drawn::Returned));
    // The chance outcomes are the placeable kinds, renormalised.
    let outcomes = state.chance_outcomes();
    assert!(outcomes.iter().all(|(c, _)| *c != Chance::Tile(Tile::C)));
    let placeable: u32 = state
        .bag()
        .iter()
        .filter(|&(t, _)| state.is_placeable(t))
        .map(|(_, n)| u32::from(n))
        .sum();
    let (_, p_u) = outcomes
        .iter()
        .find(|(c, _)| *c == Chance::Tile(Tile::U))
        .unwrap();
    assert!((p_u - 8.0 / f64::from(placeable)).abs() < 1e-12);
    assert!((outcomes.iter().map(|(_, p)| p).sum::<f64>() - 1.0).abs() < 1e-12);
    // Records list such draws in `discarded`, repeats included.
    record.turns.push(turn("1 [C] [C] U 1 0 1"));
    let replayed = replay(&record, false).unwrap();
    assert_eq!(replayed.bag().count(Tile::C), 1);
    assert_eq!(replayed.bag().total(), 69);
    // A placeable tile listed as discarded is refused, naming the turn.
    record.turns[1] = turn("1 [U] U 1 0 1");
    let e = replay(&record, false).unwrap_err();
    assert_eq!(e.turn, 2);
    assert!(
        e.to_string()
            .contains("set aside but has a legal placement"),
        "{e}"
    );
}

/// A 3x3 table filled around D (the last tile at (-1, -1)).
const FILL_THE_TABLE: [&str; 8] = [
    "0 E 0 1 2",
    "1 U 1 0 1",
    "0 U -1 0 1 E",
    "1 B 0 -1 0 C",
    "0 B 1 1 0",
    "1 B -1 1 0",
    "0 E 1 -1 2",
    "1 B -1 -1 0",
];

#[test]
fn unplaceable_return_ends_the_game_when_every_tile_left_is_unplaceable() {
    let mut record = Record::new(2, small_table_return());
    record.turns = FILL_THE_TABLE.iter().map(|t| turn(t)).collect();
    let state = replay(&record, false).unwrap();
    assert!(state.is_over() && state.tiles_exhausted());
    assert_eq!(state.bag().total(), 71 - 8);
    // Final scoring ran: the open road U + D + U, 3 for seat 0; seat 1's
    // monastery south of D has five neighbours on the table (the border
    // does not close): 1 + 5.
    assert_eq!(state.score(Seat(0)).road, 3);
    assert_eq!(state.score(Seat(1)).monastery, 6);
    // A ninth turn is after the end.
    record.turns.push(turn("0 U 1 0 1"));
    let e = replay(&record, false).unwrap_err();
    assert_eq!((e.turn, e.reason), (9, ReplayReason::AfterEnd));
    // With the standard rule the game goes on: every draw is set aside
    // until the bag is empty.
    let aside = Rules {
        unplaceable: Unplaceable::Aside,
        ..small_table_return()
    };
    let mut record = Record::new(2, aside);
    record.turns = FILL_THE_TABLE.iter().map(|t| turn(t)).collect();
    let mut state = replay(&record, false).unwrap();
    assert_eq!(state.phase(), Phase::Draw);
    assert!(!state.tiles_exhausted());
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    while !state.is_over() {
        assert_eq!(state.draw_random(&mut rng).1, Drawn::SetAside);
    }
    assert!(state.bag().is_empty());
}

#[test]
fn start_in_bag_draws_the_start_tile_from_all_72() {
    let rules: Rules = "start_in_bag=true".parse().unwrap();
    let mut state = State::new(rules, 2, Seat(1));
    assert!(state.board().is_empty());
    assert_eq!((state.phase(), state.bag().total()), (Phase::Draw, 72));
    let outcomes = state.chance_outcomes();
    assert_eq!(outcomes.len(), 24);
    let (_, p_d) = outcomes
        .iter()
        .find(|(c, _)| *c == Chance::Tile(Tile::D))
        .unwrap();
    assert_eq!(*p_d, 4.0 / 72.0);
    assert_eq!(state.draw(Tile::U), Ok(Drawn::Start));
    let start = state.board().at(Pos::ORIGIN).unwrap();
    assert_eq!((start.tile, start.rot.quarter_turns()), (Tile::U, 0));
    assert_eq!(
        (state.phase(), state.to_play(), state.turns()),
        (Phase::Draw, Seat(1), 0)
    );
    assert_eq!((state.bag().total(), state.bag().count(Tile::D)), (71, 4));
    // U's road runs N–S: a road tile goes north or south of it.
    state.draw(Tile::U).unwrap();
    let mut cells = Vec::new();
    state.for_each_placement(|p| cells.push(p.pos));
    cells.dedup();
    assert_eq!(
        cells.iter().filter(|p| p.x == 0).count(),
        2,
        "north and south: {cells:?}"
    );
}

#[test]
fn start_in_bag_records_name_the_start_tile_and_replay_checks_it() {
    let rules: Rules = "start_in_bag=true".parse().unwrap();
    let mut rng = Pcg64Mcg::seed_from_u64(4);
    let mut state = State::new(rules, 2, Seat(0));
    let mut builder = RecordBuilder::new(2, rules);
    for _ in 0..10 {
        while state.is_chance() {
            let outcome = state.apply_chance(&mut rng);
            builder.chance(&state, outcome);
        }
        let seat = state.to_play();
        let action = random_action(&state, &mut rng).unwrap();
        state.try_action(action).unwrap();
        builder.action(seat, &state, action);
    }
    let record = builder.finish(&state);
    let start = record.start.expect("the record names the start tile");
    assert_eq!(state.board().at(Pos::ORIGIN).unwrap().tile, start);
    assert!(replay(&record, false).unwrap() == state);
    // Without it, or with another start, the record does not replay.
    let mut missing = record.clone();
    missing.start = None;
    let e = replay(&missing, false).unwrap_err();
    assert!(e.to_string().contains("no \"start\""), "{e}");
    let other = if start == Tile::C { Tile::G } else { Tile::C };
    let mut wrong = record.clone();
    wrong.start = Some(other);
    assert!(replay(&wrong, false).is_err());
    // A start tile with the standard rule is refused.
    let mut standard = Record::new(2, Rules::default());
    standard.start = Some(Tile::D);
    let e = replay(&standard, false).unwrap_err();
    assert!(e.to_string().contains("start_in_bag is off"), "{e}");
}
