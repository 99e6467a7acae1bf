//! The house-rule variants of RULES.md §8: the rules configuration (keys,
//! values, refusals) and the variants the engine plays so far
//! (`final_incomplete`, `hole_bonus`).

use engine::{
    random_action, replay, Action, Pos, Record, Rules, RulesError, Seat, Side, State, Table,
};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use testkit::turn;

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
fn variants_not_implemented_yet_are_refused_not_ignored() {
    for (s, key) in [
        ("hand=1", "hand"),
        ("hand=3,hand_visible=true", "hand"),
        ("start_in_bag=true", "start_in_bag"),
        ("unplaceable=return", "unplaceable"),
        ("table=11x11", "table"),
        ("table=11x11,table_closes=true", "table"),
    ] {
        assert_eq!(
            s.parse::<Rules>(),
            Err(RulesError::NotImplemented(key)),
            "{s}"
        );
    }
    // A record asking for one does not replay.
    let mut record = Record::new(
        2,
        Rules {
            start_in_bag: true,
            ..Rules::STANDARD
        },
    );
    record.turns = vec![turn("0 U 1 0 1")];
    let e = replay(&record, false).unwrap_err();
    assert_eq!(e.turn, 0);
    assert!(e.to_string().contains("not implemented yet"), "{e}");
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
