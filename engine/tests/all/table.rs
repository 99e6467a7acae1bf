//! The table variants of RULES.md §8 (`table=WxH`, `table_closes`):
//! positions built by hand for each edge case (placements off the table,
//! a road and a city reaching a closing border, a monastery on it, a
//! farmer counting a city the border closed, a tile that fits nowhere on
//! the table, the border never filling a hole), perft-style counts on
//! bounded tables from the naive reference engine (`tests/naive`, which
//! models the table on its own), and seeded random games on tables checked
//! against that reference at every turn.
//!
//! The perft tables are data (`counts/table.txt`); to regenerate them
//! (only when the rules change on purpose):
//! `cargo run -p carcassonne-engine --example regenerate-counts`.

use crate::counts;
use crate::naive;

use counts::{free_names, placements, play_sequence};
use engine::{
    random_move, replay, Drawn, IllegalMove, Move, Phase, Pos, Record, Rotation, Rules, Score,
    Seat, State, Table, Tile, TurnRecord, Unplaceable,
};
use naive::NaiveGame;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use testkit::turn;
use testkit::StateExt;

fn table_rules(width: u8, height: u8, closes: bool) -> Rules {
    let rules = Rules {
        table: Some(Table { width, height }),
        table_closes: closes,
        ..Rules::STANDARD
    };
    rules.validate().unwrap();
    rules
}

/// The state after `turns` (2 players), scored as if the game ended there
/// when `end`.
fn after(rules: Rules, turns: &[&str], end: bool) -> State {
    let mut record = Record::new(2, rules);
    record.turns = turns.iter().map(|t| turn(t)).collect();
    replay(&record, end).unwrap_or_else(|e| panic!("{rules}: {e}"))
}

/// `[road, city, monastery, farm]` of each seat.
fn categories(state: &State) -> Vec<[u32; 4]> {
    (0..state.players())
        .map(|s| parts(state.score(Seat(s as u8))))
        .collect()
}

fn parts(s: Score) -> [u32; 4] {
    [
        s.road.into(),
        s.city.into(),
        s.monastery.into(),
        s.farm.into(),
    ]
}

#[test]
fn placements_off_the_table_are_neither_listed_nor_accepted() {
    let rules = table_rules(3, 5, false);
    let mut state = after(rules, &["0 U 1 0 1"], false);
    state.draw(Tile::U).unwrap();
    let mut listed = Vec::new();
    state.for_each_placement(|p| listed.push(p.pos));
    assert!(!listed.is_empty());
    assert!(
        listed.iter().all(|p| p.x.abs() <= 1 && p.y.abs() <= 2),
        "{listed:?}"
    );
    assert!(!listed.contains(&Pos::new(2, 0)));
    // (2, 0) continues the road: legal on an unbounded table, off this one.
    let off = Move::place(Pos::new(2, 0), Rotation::new(1).unwrap());
    assert_eq!(state.check(off), Err(IllegalMove::OffTable(Pos::new(2, 0))));
    let unbounded = after(Rules::default(), &["0 U 1 0 1", "1 U 2 0 1"], false);
    assert_eq!(unbounded.turns(), 2);
    // A record that places there names the turn.
    let mut record = Record::new(2, rules);
    record.turns = vec![turn("0 U 1 0 1"), turn("1 U 2 0 1")];
    let e = replay(&record, false).unwrap_err();
    assert_eq!(e.turn, 2);
    assert!(e.to_string().contains("off the table"), "{e}");
}

#[test]
fn a_road_reaching_a_closing_border_is_closed_there() {
    // D's road runs W–E; U continues it to each border of a 3-wide table.
    let turns = ["0 U 1 0 1 E", "1 U -1 0 1"];
    let closing = after(table_rules(3, 3, true), &turns, false);
    assert_eq!(categories(&closing), vec![[3, 0, 0, 0], [0; 4]]);
    assert_eq!(closing.supply(Seat(0)), 7, "the highwayman came back");
    // Half-way, the road is closed at the east border only.
    let half = after(table_rules(3, 3, true), &turns[..1], true);
    assert_eq!(categories(&half), vec![[2, 0, 0, 0], [0; 4]]);
    // Without `table_closes` the border closes nothing.
    let open = after(table_rules(3, 3, false), &turns, false);
    assert_eq!(categories(&open), vec![[0; 4]; 2]);
    assert_eq!(open.supply(Seat(0)), 6);
}

#[test]
fn a_city_closed_by_the_border_scores_and_counts_for_farmers() {
    // Seat 0's farmer lies in the field by D's city; seat 1's knight on G
    // (city N–S) joins D's city, whose north edge then faces the border.
    let turns = ["0 U 1 0 1 NNE", "1 G 0 1 0 N"];
    let closing = after(table_rules(3, 3, true), &turns, false);
    assert_eq!(categories(&closing), vec![[0; 4], [0, 4, 0, 0]]);
    let end = after(table_rules(5, 3, true), &turns, true);
    assert_eq!(
        categories(&end),
        vec![[0, 0, 0, 3], [0, 4, 0, 0]],
        "the farmer's field counts the city the border closed"
    );
    let open = after(table_rules(3, 3, false), &turns, true);
    assert_eq!(categories(&open), vec![[0; 4], [0, 2, 0, 0]]);
}

#[test]
fn a_monastery_on_a_closing_border_counts_the_cells_off_the_table() {
    // B (monastery) south of D on a 3x3 table: three cells below it are
    // off the table.
    let first = ["0 B 0 -1 0 C"];
    let closing = after(table_rules(3, 3, true), &first, true);
    assert_eq!(categories(&closing), vec![[0, 0, 5, 0], [0; 4]]);
    let open = after(table_rules(3, 3, false), &first, true);
    assert_eq!(categories(&open), vec![[0, 0, 2, 0], [0; 4]]);
    // In the corner, five cells are off the table: with three tiles
    // around, the monastery is complete the moment it is placed.
    let corner = [
        "0 B 0 -1 0 C",
        "1 U 1 0 1",
        "0 B 1 -1 0 C",
        "1 U -1 0 1",
        "0 B -1 -1 0",
    ];
    let state = after(table_rules(3, 3, true), &corner[..3], false);
    assert_eq!(categories(&state), vec![[0, 0, 9, 0], [0; 4]]);
    assert_eq!(state.supply(Seat(0)), 6, "the corner monk came back");
    // The last B completes the first monastery too.
    let state = after(table_rules(3, 3, true), &corner, false);
    assert_eq!(categories(&state), vec![[0, 0, 18, 0], [0; 4]]);
    assert_eq!(state.supply(Seat(0)), 7);
    let state = after(table_rules(3, 3, false), &corner, true);
    assert_eq!(categories(&state), vec![[0, 0, 6 + 4, 0], [0; 4]]);
}

#[test]
fn a_tile_that_fits_nowhere_on_the_table_is_set_aside() {
    // G closes D's city at the border; C (city on all four sides) then
    // fits only north of G, off the table.
    let mut state = after(table_rules(3, 3, false), &["0 G 0 1 0"], false);
    assert!(!state.is_placeable(Tile::C));
    assert_eq!(state.draw(Tile::C), Ok(Drawn::SetAside));
    assert_eq!(state.phase(), Phase::Draw);
    let mut unbounded = after(Rules::default(), &["0 G 0 1 0"], false);
    assert_eq!(unbounded.draw(Tile::C), Ok(Drawn::Placeable));
}

#[test]
fn the_table_border_does_not_fill_a_hole() {
    // (1, 0) gets tiles north, south and west, last A with its road
    // against D's; east is off the 3-wide table.
    let turns = [
        "0 B 0 -1 0",
        "1 B 1 -1 0",
        "0 E 0 1 2",
        "1 B 1 1 0",
        "0 A 1 0 1",
    ];
    for closes in [false, true] {
        let rules = Rules {
            hole_bonus: true,
            ..table_rules(3, 3, closes)
        };
        let state = after(rules, &turns, false);
        assert_eq!(state.to_play(), Seat(1), "closes {closes}");
    }
    // With a tile east of (1, 0) on a wider table, A does fill a hole.
    let rules = Rules {
        hole_bonus: true,
        ..table_rules(5, 3, false)
    };
    let turns = [
        "0 B 0 -1 0",
        "1 B 1 -1 0",
        "0 B 2 -1 0",
        "1 B 2 0 0",
        "0 E 0 1 2",
        "1 E 1 1 0",
        "0 A 1 0 1",
    ];
    assert_eq!(after(rules, &turns, false).to_play(), Seat(0));
}

/// The sequences of `counts/table.txt`: 2 players on a closing 5x5
/// table, 3 on a 7x3 table that does not close.
fn sequences() -> Vec<counts::Sequence> {
    let seqs = counts::parse(counts::TABLE);
    assert_eq!(seqs.len(), 2, "the sequences of table.txt");
    seqs
}

#[test]
fn perft_on_a_closing_five_by_five_table() {
    let seq = &sequences()[0];
    assert_eq!(seq.table, Some((5, 5, true)));
    play_sequence(seq);
}

#[test]
fn perft_on_a_seven_by_three_table() {
    let seq = &sequences()[1];
    assert_eq!(seq.table, Some((7, 3, false)));
    play_sequence(seq);
}

/// The file is what `cargo run -p carcassonne-engine --example
/// regenerate-counts` writes: its rows come from the naive reference.
#[test]
fn table_counts_are_what_the_reference_generates() {
    assert_eq!(counts::regenerate(counts::TABLE), counts::TABLE);
}

/// One seeded random game on a table, every turn compared with the
/// reference: the placements, the free segments, the scores and supplies,
/// and the final scores. Returns the turns played.
fn differential_game(seed: u64) -> usize {
    let players = 2 + (seed % 3) as usize;
    let (w, h) = [(3, 3), (5, 5), (7, 3), (3, 9), (9, 9), (11, 7)][(seed % 6) as usize];
    let closes = seed % 2 == 0;
    let rules = Rules {
        farmers: seed % 5 != 4,
        start_in_bag: seed % 3 == 0,
        unplaceable: if seed % 4 == 1 {
            Unplaceable::Return
        } else {
            Unplaceable::Aside
        },
        ..table_rules(w, h, closes)
    };
    let ctx = format!("seed {seed}, {players} players, {rules}");
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut state = State::new(rules, players, Seat(0));
    let mut naive = None;
    if !rules.start_in_bag {
        naive = Some(NaiveGame::new(players, rules.farmers).on_table(w.into(), h.into(), closes));
    }
    let mut turns = 0;
    loop {
        match state.phase() {
            Phase::Draw => {
                let (tile, drawn) = state.draw_random(&mut rng);
                let g = match drawn {
                    Drawn::Start => naive.insert(
                        NaiveGame::new(players, rules.farmers)
                            .on_table(w.into(), h.into(), closes)
                            .with_start(tile.letter()),
                    ),
                    _ => naive.as_mut().expect("the start tile is down"),
                };
                if matches!(drawn, Drawn::SetAside | Drawn::Returned) {
                    assert!(
                        g.legal_placements(tile.letter()).is_empty(),
                        "{ctx}: {tile} unplaceable but the reference can place it"
                    );
                }
            }
            Phase::Place(tile) => {
                let g = naive.as_mut().unwrap();
                let turn = state.turns() + 1;
                let seat = state.to_play();
                let (fast, fast_xyr) = placements(&state);
                assert_eq!(
                    fast_xyr,
                    g.legal_placements(tile.letter()),
                    "{ctx}, turn {turn}: placements of {tile}"
                );
                if state.supply(seat) > 0 {
                    for &p in &fast {
                        let want = g.free_locations(
                            tile.letter(),
                            p.pos.x.into(),
                            p.pos.y.into(),
                            p.rot.quarter_turns(),
                        );
                        assert_eq!(free_names(&state, p), want, "{ctx}, turn {turn}");
                    }
                }
                let m = random_move(&state, &mut rng).unwrap();
                g.place_turn(&TurnRecord::new(seat, Vec::new(), tile, m))
                    .unwrap_or_else(|e| panic!("{ctx}, turn {turn}: reference: {e}"));
                state.try_play(m).unwrap();
                turns += 1;
                if !state.is_over() {
                    assert_eq!(categories(&state), g.scores(), "{ctx}, turn {turn}");
                    for s in 0..players {
                        assert_eq!(u32::from(state.supply(Seat(s as u8))), g.supply(s));
                    }
                }
            }
            Phase::Over => {
                let g = naive.as_ref().unwrap();
                assert_eq!(categories(&state), g.final_scores(), "{ctx}: final");
                assert!(state.tiles_exhausted(), "{ctx}");
                return turns;
            }
            other => unreachable!("no gifts here: {other:?}"),
        }
    }
}

#[test]
fn random_games_on_tables_match_the_reference() {
    let mut turns = 0;
    for seed in 0..240 {
        turns += differential_game(seed);
    }
    assert!(turns > 240 * 8, "{turns} turns");
}
