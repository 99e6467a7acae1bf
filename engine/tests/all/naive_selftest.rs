//! Self-tests of the naive reference rules (`tests/naive/mod.rs`): the
//! worked example of docs/RECORD-FORMAT.md, positions scored by hand, and random full
//! games that must run without panics and conserve meeples.

use crate::naive;

use naive::NaiveGame;

/// Tile counts A..X as printed in RULES.md §6, typed in again here.
const COUNTS: &str = "A2 B4 C1 D4 E5 F2 G1 H3 I2 J3 K3 L3 M2 N3 O2 P3 Q1 R3 S2 T1 U8 V9 W4 X1";

fn counts() -> Vec<(char, u32)> {
    COUNTS
        .split_whitespace()
        .map(|w| (w.chars().next().unwrap(), w[1..].parse().unwrap()))
        .collect()
}

/// One turn: seat, tile, x, y, rotation, meeple location.
type Turn<'a> = (usize, char, i32, i32, u8, Option<&'a str>);

/// Plays a list of turns, panicking with the turn number on any error.
fn play(game: &mut NaiveGame, turns: &[Turn]) {
    for (n, &(player, tile, x, y, rot, meeple)) in turns.iter().enumerate() {
        if let Err(e) = game.place(player, tile, x, y, rot, meeple) {
            panic!("turn {}: {e}", n + 1);
        }
    }
}

/// A small deterministic generator (splitmix64), std only.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn tile_counts_match_rules() {
    assert_eq!(naive::tile_counts(), counts());
    assert_eq!(counts().iter().map(|c| c.1).sum::<u32>(), 72);
}

#[test]
fn new_game() {
    let g = NaiveGame::new(3, true);
    assert_eq!(g.scores(), vec![[0; 4]; 3]);
    assert_eq!(g.final_scores(), vec![[0; 4]; 3]);
    for p in 0..3 {
        assert_eq!(g.supply(p), 7);
        assert_eq!(g.meeples_on_board(p), 0);
    }
}

#[test]
fn worked_example_of_game_record() {
    let mut g = NaiveGame::new(2, true);
    g.place(0, 'U', 1, 0, 1, Some("NNE")).unwrap();
    assert_eq!(g.supply(0), 6);
    g.place(1, 'E', 0, 1, 2, Some("S")).unwrap();
    // The two-tile city is closed at once: 4 for seat 1, knight back.
    assert_eq!(g.scores(), vec![[0; 4], [0, 4, 0, 0]]);
    assert_eq!(g.supply(1), 7);
    assert_eq!(g.meeples_on_board(1), 0);
    // C has no legal place on turn 3.
    assert!(g.legal_placements('C').is_empty());
    g.place(0, 'V', -1, 0, 2, Some("E")).unwrap();
    assert_eq!(g.supply(0), 5);
    assert_eq!(g.meeples_on_board(0), 2);
    assert_eq!(g.final_scores(), vec![[3, 0, 0, 3], [0, 4, 0, 0]]);
    let total: Vec<u32> = g.final_scores().iter().map(|s| s.iter().sum()).collect();
    assert_eq!(total, vec![6, 4]);
    // final_scores does not change the game.
    assert_eq!(g.scores(), vec![[0; 4], [0, 4, 0, 0]]);
    // Without farmers the farmer of turn 1 is refused, and nothing changes.
    let mut h = NaiveGame::new(2, false);
    assert!(h.place(0, 'U', 1, 0, 1, Some("NNE")).is_err());
    assert_eq!(h.supply(0), 7);
    h.place(0, 'U', 1, 0, 1, None).unwrap();
}

#[test]
fn legal_placements_at_start() {
    let g = NaiveGame::new(2, true);
    let b: Vec<_> = (0..4).map(|r| (0, -1, r)).collect();
    assert_eq!(g.legal_placements('B'), b);
    let c: Vec<_> = (0..4).map(|r| (0, 1, r)).collect();
    assert_eq!(g.legal_placements('C'), c);
    assert_eq!(
        g.legal_placements('U'),
        vec![
            (-1, 0, 1),
            (-1, 0, 3),
            (0, -1, 1),
            (0, -1, 3),
            (1, 0, 1),
            (1, 0, 3)
        ]
    );
    // D itself: north needs city S (rot 2), east/west a road facing the start
    // tile (rot 0, 2), south a field N (rot 2).
    assert_eq!(
        g.legal_placements('D'),
        vec![
            (-1, 0, 0),
            (-1, 0, 2),
            (0, -1, 2),
            (0, 1, 2),
            (1, 0, 0),
            (1, 0, 2)
        ]
    );
}

#[test]
fn illegal_placements_are_rejected_and_change_nothing() {
    let mut g = NaiveGame::new(2, true);
    assert!(g.place(0, 'B', 0, 0, 0, None).is_err(), "occupied cell");
    assert!(g.place(0, 'B', 1, 1, 0, None).is_err(), "corner only");
    assert!(g.place(0, 'B', 5, 5, 0, None).is_err(), "no neighbour");
    assert!(
        g.place(0, 'B', 0, 1, 0, None).is_err(),
        "field against city"
    );
    assert!(
        g.place(0, 'U', 1, 0, 0, None).is_err(),
        "field against road"
    );
    assert!(g.place(0, 'U', 1, 0, 4, None).is_err(), "bad rotation");
    assert!(g.place(0, 'Z', 1, 0, 1, None).is_err(), "bad tile");
    assert!(g.place(2, 'U', 1, 0, 1, None).is_err(), "bad seat");
    assert!(g.place(0, 'U', 1, 0, 1, Some("C")).is_err(), "no monastery");
    assert!(g.place(0, 'U', 1, 0, 1, Some("N")).is_err(), "N is a field");
    assert_eq!(g.legal_placements('U').len(), 6);
    assert_eq!(g.supply(0), 7);
    assert_eq!(g.final_scores(), vec![[0; 4]; 2]);
}

#[test]
fn any_name_of_a_segment_is_accepted() {
    // U rot 1: road W–E; north field WNW NNW NNE ENE; south field ESE SSE SSW WSW.
    for name in [
        "E", "W", "NNW", "NNE", "ENE", "WNW", "ESE", "SSE", "SSW", "WSW",
    ] {
        let mut g = NaiveGame::new(2, true);
        g.place(0, 'U', 1, 0, 1, Some(name)).unwrap();
        assert_eq!(g.meeples_on_board(0), 1, "{name}");
    }
    let g = NaiveGame::new(2, true);
    assert_eq!(g.free_locations('U', 1, 0, 1), vec!["E", "ESE", "NNW"]);
    assert_eq!(g.free_locations('A', 0, -1, 0), vec!["C", "NNW", "S"]);
    assert!(
        g.free_locations('A', 0, -1, 2).is_empty(),
        "illegal placement"
    );
    assert!(g.free_locations('A', 3, 3, 0).is_empty(), "no neighbour");
    let g = NaiveGame::new(2, false);
    assert_eq!(g.free_locations('U', 1, 0, 1), vec!["E"]);
}

#[test]
fn occupied_features_are_not_free() {
    let mut g = NaiveGame::new(2, true);
    // Seat 0 on the road through the start tile (via the east tile).
    g.place(0, 'U', 1, 0, 1, Some("W")).unwrap();
    // West of the start tile: the road is taken, both fields are free.
    assert_eq!(g.free_locations('U', -1, 0, 1), vec!["ESE", "NNW"]);
    assert!(g.place(1, 'U', -1, 0, 1, Some("E")).is_err());
    assert!(g.place(1, 'U', -1, 0, 3, Some("W")).is_err(), "any name");
    g.place(1, 'U', -1, 0, 1, Some("NNE")).unwrap();
    // The north field is now taken everywhere it reaches.
    assert_eq!(g.free_locations('U', 2, 0, 1), vec!["ESE"]);
}

#[test]
fn no_meeple_left() {
    let mut g = NaiveGame::new(2, true);
    // A row of monasteries below the start tile, one monk each.
    for i in 0..7 {
        g.place(0, 'B', i, -1, 0, Some("C")).unwrap();
    }
    assert_eq!(g.supply(0), 0);
    assert_eq!(g.meeples_on_board(0), 7);
    let err = g.place(0, 'B', 7, -1, 0, Some("C"));
    assert!(err.is_err());
    assert_eq!(g.supply(0), 0);
    g.place(0, 'B', 7, -1, 0, None).unwrap();
}

#[test]
fn closed_two_tile_city_with_shield_and_without() {
    let mut g = NaiveGame::new(2, true);
    // M rot 2: city S–E with shield; above the start tile its S edge closes
    // D's city, its E edge stays open.
    g.place(1, 'M', 0, 1, 2, Some("E")).unwrap();
    assert_eq!(g.scores(), vec![[0; 4]; 2]);
    assert_eq!(g.final_scores(), vec![[0; 4], [0, 3, 0, 0]]);
    // E rot 3 at (1,1): city W closes it: 3 tiles, 1 shield = 8.
    g.place(0, 'E', 1, 1, 3, None).unwrap();
    assert_eq!(g.scores(), vec![[0; 4], [0, 8, 0, 0]]);
    assert_eq!(g.supply(1), 7);
}

#[test]
fn road_ends_at_village_and_monastery() {
    let mut g = NaiveGame::new(2, true);
    // W east of the start: its west road joins the start road and ends at
    // W's village; the other two roads of W are separate.
    g.place(0, 'W', 1, 0, 0, Some("W")).unwrap();
    assert_eq!(g.free_locations('A', -1, 0, 3), vec!["C", "NNW"]);
    assert_eq!(g.final_scores()[0], [2, 0, 0, 0]);
    // A west of the start: the road ends at its monastery: 3 tiles, closed.
    g.place(1, 'A', -1, 0, 3, Some("C")).unwrap();
    assert_eq!(g.scores(), vec![[3, 0, 0, 0], [0; 4]]);
    assert_eq!(g.supply(0), 7);
    // The monk stays: 1 for the monastery + 1 neighbour (the start tile).
    assert_eq!(g.final_scores()[1], [0, 0, 2, 0]);
}

#[test]
fn road_ends_at_city() {
    let mut g = NaiveGame::new(2, true);
    // V rot 0 east of the start turns the road south; X west of it ends the
    // road at a village.
    g.place(0, 'V', 1, 0, 0, Some("S")).unwrap();
    g.place(1, 'X', -1, 0, 0, None).unwrap();
    // T rot 2 below V: road N ends at T's city (S, E, W), where seat 1 puts
    // a knight. The road (X, D, V, T: 4 tiles) is closed; T's city is open.
    g.place(1, 'T', 1, -1, 2, Some("S")).unwrap();
    assert_eq!(g.scores(), vec![[4, 0, 0, 0], [0; 4]]);
    assert_eq!(g.final_scores()[1], [0, 1, 0, 0]);
}

#[test]
fn one_tile_completes_a_road_and_a_city() {
    let mut g = NaiveGame::new(2, true);
    play(
        &mut g,
        &[
            (0, 'V', 1, 0, 1, Some("W")),
            (1, 'X', -1, 0, 0, None),
            (1, 'N', 0, 1, 2, Some("S")),
        ],
    );
    assert_eq!(g.final_scores(), vec![[3, 0, 0, 0], [0, 2, 0, 0]]);
    // L rot 3: city W closes the start city (3 tiles), road S ends the road
    // at its village (X, D, V, L: 4 tiles).
    g.place(0, 'L', 1, 1, 3, None).unwrap();
    assert_eq!(g.scores(), vec![[4, 0, 0, 0], [0, 6, 0, 0]]);
    assert_eq!((g.supply(0), g.supply(1)), (7, 7));
}

#[test]
fn road_loop_scores_once_per_tile() {
    let mut g = NaiveGame::new(2, true);
    play(
        &mut g,
        &[
            (0, 'V', 0, -1, 3, Some("E")),
            (1, 'V', 1, -1, 0, None),
            (0, 'V', 0, -2, 2, None),
        ],
    );
    assert_eq!(g.scores(), vec![[0; 4]; 2]);
    assert_eq!(g.final_scores()[0], [3, 0, 0, 0]);
    g.place(1, 'V', 1, -2, 1, None).unwrap();
    assert_eq!(g.scores(), vec![[4, 0, 0, 0], [0; 4]]);
    assert_eq!(g.supply(0), 7);
}

#[test]
fn city_ring_counts_the_tile_with_two_segments_once() {
    let mut g = NaiveGame::new(2, true);
    play(
        &mut g,
        &[
            (0, 'F', 0, -1, 0, Some("E")),
            (1, 'N', 1, -1, 3, None),
            (0, 'N', -1, -1, 2, None),
            (1, 'N', 1, -2, 0, None),
            (0, 'N', -1, -2, 1, None),
        ],
    );
    assert_eq!(g.scores(), vec![[0; 4]; 2]);
    // Open city of 5 tiles with one shield.
    assert_eq!(g.final_scores()[0], [0, 6, 0, 0]);
    // H closes the ring through both of its city segments: 6 tiles, 1 shield.
    g.place(1, 'H', 0, -2, 0, None).unwrap();
    assert_eq!(g.scores(), vec![[0, 14, 0, 0], [0; 4]]);
}

#[test]
fn monastery_surrounded() {
    let mut g = NaiveGame::new(2, true);
    g.place(0, 'B', 0, -1, 0, Some("C")).unwrap();
    assert_eq!(g.final_scores()[0], [0, 0, 2, 0]);
    play(
        &mut g,
        &[
            (1, 'U', -1, 0, 1, None),
            (0, 'U', 1, 0, 3, None),
            (1, 'B', -1, -1, 0, None),
            (0, 'B', 1, -1, 0, None),
            (1, 'B', -1, -2, 0, None),
            (0, 'B', 0, -2, 0, None),
        ],
    );
    assert_eq!(g.final_scores()[0], [0, 0, 8, 0]);
    assert_eq!(g.scores()[0], [0; 4]);
    g.place(1, 'B', 1, -2, 0, None).unwrap();
    assert_eq!(g.scores(), vec![[0, 0, 9, 0], [0; 4]]);
    assert_eq!(g.supply(0), 7);
    // A monastery placed into a full hole scores with its own monk at once.
    let mut h = NaiveGame::new(2, true);
    play(
        &mut h,
        &[
            (1, 'U', -1, 0, 1, None),
            (0, 'U', 1, 0, 3, None),
            (1, 'B', -1, -1, 0, None),
            (0, 'B', 1, -1, 0, None),
            (1, 'B', -1, -2, 0, None),
            (0, 'B', 0, -2, 0, None),
            (1, 'B', 1, -2, 0, None),
        ],
    );
    h.place(1, 'B', 0, -1, 0, Some("C")).unwrap();
    assert_eq!(h.scores(), vec![[0; 4], [0, 0, 9, 0]]);
    assert_eq!(h.supply(1), 7);
}

#[test]
fn shared_road_tie_both_score_full() {
    let mut g = NaiveGame::new(3, true);
    play(
        &mut g,
        &[
            (0, 'V', 1, 0, 0, Some("W")),
            (1, 'U', 0, -1, 1, Some("E")),
            (2, 'V', 1, -1, 1, None),
            (0, 'V', -1, 0, 3, None),
        ],
    );
    // Open 5-tile road with one meeple each of seats 0 and 1.
    assert_eq!(g.final_scores(), vec![[5, 0, 0, 0], [5, 0, 0, 0], [0; 4]]);
    g.place(1, 'V', -1, -1, 2, None).unwrap();
    assert_eq!(g.scores(), vec![[6, 0, 0, 0], [6, 0, 0, 0], [0; 4]]);
    assert_eq!((g.supply(0), g.supply(1)), (7, 7));
}

#[test]
fn farm_majority_and_completed_city() {
    let mut g = NaiveGame::new(2, true);
    play(
        &mut g,
        &[
            (0, 'U', 1, 0, 1, Some("NNE")),
            (1, 'U', -1, 0, 1, Some("SSE")),
            (0, 'E', 0, 1, 2, Some("NNW")),
            (1, 'B', 1, 1, 0, None),
        ],
    );
    // Before the join: B made one field of seat 0's two farmers (it touches
    // the closed city once); seat 1's field touches nothing.
    assert_eq!(g.final_scores(), vec![[0, 0, 0, 3], [0; 4]]);
    // A joins the north and south fields: 2 farmers against 1; one city.
    g.place(1, 'A', 2, 0, 1, None).unwrap();
    assert_eq!(g.final_scores(), vec![[0, 0, 0, 3], [0; 4]]);
}

#[test]
fn farm_tie_shares() {
    let mut g = NaiveGame::new(2, true);
    play(
        &mut g,
        &[
            (0, 'U', 1, 0, 1, Some("NNE")),
            (1, 'U', -1, 0, 1, Some("SSE")),
            (0, 'E', 0, 1, 2, None),
            (1, 'A', 2, 0, 1, None),
        ],
    );
    assert_eq!(g.final_scores(), vec![[0, 0, 0, 3], [0, 0, 0, 3]]);
}

#[test]
fn farm_touching_two_completed_cities() {
    let mut g = NaiveGame::new(2, true);
    play(
        &mut g,
        &[
            (0, 'U', 1, 0, 1, Some("NNE")),
            (1, 'E', 0, 1, 2, None),
            (1, 'B', 1, 1, 0, None),
            (1, 'E', 0, 2, 0, None),
        ],
    );
    // The second city is still open.
    assert_eq!(g.final_scores()[0], [0, 0, 0, 3]);
    g.place(1, 'E', 0, 3, 2, None).unwrap();
    assert_eq!(g.final_scores()[0], [0, 0, 0, 6]);
}

#[test]
fn one_city_scores_for_each_field_it_touches() {
    let mut g = NaiveGame::new(2, true);
    play(
        &mut g,
        &[
            (0, 'U', 1, 0, 1, Some("NNE")),
            (1, 'E', 0, 1, 2, Some("NNW")),
        ],
    );
    // Two separate fields (corner contact at (1,1) joins nothing), each
    // touching the same closed city (which had no knight: no city points).
    assert_eq!(g.scores(), vec![[0; 4]; 2]);
    assert_eq!(g.final_scores(), vec![[0, 0, 0, 3], [0, 0, 0, 3]]);
}

#[test]
fn incomplete_city_with_shields_at_the_end() {
    let mut g = NaiveGame::new(2, true);
    // C above the start: city of 2 tiles, 1 shield, open on three sides.
    g.place(0, 'C', 0, 1, 0, Some("N")).unwrap();
    assert_eq!(g.final_scores()[0], [0, 3, 0, 0]);
}

/// Plays a random full game (all 71 tiles drawn), checking invariants at
/// every step; returns the final scores.
fn random_game(seed: u64, players: usize, farmers: bool) -> Vec<[u32; 4]> {
    let mut rng = Rng(seed);
    let mut bag: Vec<char> = Vec::new();
    for (c, n) in counts() {
        let n = if c == 'D' { n - 1 } else { n };
        for _ in 0..n {
            bag.push(c);
        }
    }
    assert_eq!(bag.len(), 71);
    for i in (1..bag.len()).rev() {
        let j = rng.below(i + 1);
        bag.swap(i, j);
    }
    let mut g = NaiveGame::new(players, farmers);
    let mut seat = 0;
    let mut placed = 1;
    for tile in bag {
        let moves = g.legal_placements(tile);
        for w in moves.windows(2) {
            assert!(w[0] < w[1], "sorted and unique");
        }
        if moves.is_empty() {
            continue;
        }
        let (x, y, rot) = moves[rng.below(moves.len())];
        let free = g.free_locations(tile, x, y, rot);
        let before = g.scores();
        let meeple = if g.supply(seat) > 0 && !free.is_empty() && rng.below(3) > 0 {
            Some(free[rng.below(free.len())].clone())
        } else {
            None
        };
        g.place(seat, tile, x, y, rot, meeple.as_deref())
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        placed += 1;
        let after = g.scores();
        for (p, (a, b)) in after.iter().zip(&before).enumerate() {
            assert_eq!(g.supply(p) + g.meeples_on_board(p), 7, "conservation");
            assert!(a.iter().zip(b).all(|(a, b)| a >= b), "scores never drop");
            assert_eq!(a[3], 0, "no farm points during the game");
        }
        seat = (seat + 1) % players;
    }
    assert!(placed <= 72);
    let f = g.final_scores();
    assert_eq!(f, g.final_scores(), "final_scores is pure");
    for (end, now) in f.iter().zip(g.scores()) {
        assert!(end.iter().zip(now).all(|(e, n)| *e >= n));
        if !farmers {
            assert_eq!(end[3], 0);
        }
    }
    f
}

#[test]
fn random_full_games() {
    let mut total = 0u64;
    for seed in 0..1000u64 {
        let players = 2 + (seed % 5) as usize;
        let farmers = seed % 4 != 3;
        let f = random_game(seed, players, farmers);
        total += f.iter().flatten().map(|&s| u64::from(s)).sum::<u64>();
    }
    assert!(total > 0);
}

#[test]
fn random_games_free_locations_agree_with_place() {
    // Every free location can be taken; every other segment name is refused.
    let names = [
        "N", "E", "S", "W", "C", "NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW",
    ];
    for seed in 0..20u64 {
        let mut rng = Rng(seed ^ 0xABCD);
        let mut g = NaiveGame::new(2, true);
        let mut seat = 0;
        for _ in 0..300 {
            let tile = (b'A' + rng.below(24) as u8) as char;
            let moves = g.legal_placements(tile);
            if moves.is_empty() {
                continue;
            }
            let (x, y, rot) = moves[rng.below(moves.len())];
            let free = g.free_locations(tile, x, y, rot);
            if g.supply(seat) > 0 {
                let mut accepted = 0;
                for name in names {
                    let mut h = g.clone();
                    if h.place(seat, tile, x, y, rot, Some(name)).is_ok() {
                        accepted += 1;
                        assert_eq!(h.supply(seat) + h.meeples_on_board(seat), 7);
                    } else {
                        assert!(!free.iter().any(|f| f == name), "{name} refused");
                    }
                }
                assert!(accepted >= free.len());
                assert_eq!(accepted == 0, free.is_empty());
            }
            let meeple = if !free.is_empty() && g.supply(seat) > 0 && rng.below(2) == 0 {
                Some(free[rng.below(free.len())].clone())
            } else {
                None
            };
            g.place(seat, tile, x, y, rot, meeple.as_deref()).unwrap();
            seat = 1 - seat;
        }
    }
}
