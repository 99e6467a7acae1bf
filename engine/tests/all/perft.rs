//! perft-style counts: for fixed tile sequences with fixed moves, the number
//! of legal placements ((cell, rotation) pairs, every rotation counted even
//! for symmetric tiles) and of legal moves (placements × {no meeple, each
//! free segment}) at every turn, against tables produced by the naive
//! reference engine (`tests/naive`), never by the fast engine. The first
//! turns of each table are verified by hand in comments. A differential
//! test then compares placements and free segments with the reference at
//! every turn of many seeded random games.
//!
//! To regenerate the tables (only when the rules change on purpose):
//! `cargo test -p carcassonne-engine --test all perft:: -- --ignored --nocapture`.

use crate::counts;
use crate::naive;

use counts::{free_names, placements, play_rows, Row};
use engine::random_move;
use engine::{Drawn, Phase, Rules, Seat, State, TurnRecord};
use naive::NaiveGame;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// The fixed sequences: players, farmers, tiles in draw order, and the rule
/// the generator used to choose each move from the reference's sorted
/// placements: the placement `(7k + 3) mod n` at turn `k` (0-based), and a
/// meeple on the free location
/// - rule 0: `k mod len` when `k mod 3 != 1`,
/// - rule 1: `(k / 2) mod len` when `k` is even,
/// - rule 2: always, a field first (seats run out of meeples),
///
/// whenever the seat has a meeple and a free location.
const SEQUENCES: [(usize, bool, &str, u32); 3] = [
    (2, true, "UEVBDLKJXAWNUPFIV", 0),
    (3, false, "VVKUHRJSTWLAGMOQEBCV", 1),
    (2, true, "BUEVJKLWDNPUVAEBVRIT", 2),
];

/// 2 players, farmers on.
///
/// Turn 1, U at the start: the open cells are (0, 1) (needs city S),
/// (±1, 0) (road facing the start tile) and (0,-1) (field N). U shows road
/// W–E in rotations 1 and 3 and road N–S in 0 and 2: 2 placements at each of
/// (1, 0), (-1, 0), (0,-1), none at (0, 1): 6. Its road and two fields are
/// free everywhere: 6 × (1 + 3) = 24 moves.
///
/// Turn 2, E after U r3 at (0,-1) with seat 0 on its road: E has no road,
/// so (±1, 0) and (±1,-1) (all demanding road) are out; (0, 1) takes E r2
/// (city S); (0,-2) (field N) takes r1, r2, r3: 4. Seat 1 may use E's city
/// and its field everywhere (the field at (0,-2) joins U's south field,
/// which is free): 4 × 3 = 12.
///
/// Turn 3, V after E r3 at (0,-2): open cells (0, 1) city S: 0; (1, 0),
/// (1,-1) road W: r0, r1; (-1, 0), (-1,-1) road E: r2, r3; (1,-2) field W
/// (E's east side): r2, r3; (-1,-2) city E (E's city W): 0; (0,-3) field N:
/// r0, r3. 6 cells × 2 = 12.
const SEQ_0: [Row; 17] = [
    ('U', 0, -1, 3, "E", 6, 24),
    ('E', 0, -2, 3, "", 4, 12),
    ('V', 0, -3, 3, "NNW", 12, 44),
    ('B', -1, -3, 0, "C", 8, 16),
    ('D', 1, 0, 2, "", 16, 65),
    ('L', -1, 0, 2, "S", 17, 122),
    ('K', 1, -3, 1, "E", 17, 75),
    ('J', -1, -1, 0, "", 16, 71),
    ('X', 0, -4, 3, "ESE", 16, 140),
    ('A', -2, -3, 2, "N", 16, 57),
    ('W', -2, 0, 2, "", 22, 137),
    ('N', -2, -4, 3, "S", 11, 27),
    ('U', -2, 1, 2, "N", 20, 66),
    ('P', 2, 0, 2, "", 19, 77),
    ('F', 1, 1, 2, "SSE", 18, 64),
    ('I', -3, -4, 0, "S", 18, 64),
    ('V', 0, -5, 2, "", 20, 65),
];

/// 3 players, farmers off.
///
/// Turn 1, V at the start: V shows road W in rotations 0, 1, road E in 2,
/// 3 and field N in 0, 3: 2 each at (1, 0), (-1, 0), (0,-1): 6; each with
/// no meeple or a highwayman (no farmers): 12.
///
/// Turn 2, V after V r3 (road E–S) at (0,-1) with seat 0 on it: (1, 0),
/// (-1, 0): 2 each, road free (joins the start road): 4 + 4 moves;
/// (1,-1) road W: r0, r1, but the road joins seat 0's: 2 moves; (-1,-1)
/// field E: r0, r1, road free: 4 moves; (0,-2) road N: r1, r2, joins seat
/// 0's road: 2 moves. 10 placements, 16 moves.
const SEQ_1: [Row; 20] = [
    ('V', 0, -1, 3, "E", 6, 12),
    ('V', -1, -1, 0, "", 10, 16),
    ('K', 0, 1, 2, "S", 11, 29),
    ('U', -1, 1, 0, "", 18, 32),
    ('H', -2, 1, 3, "N", 2, 6),
    ('R', -2, 0, 3, "", 7, 11),
    ('J', 0, -2, 3, "W", 18, 49),
    ('S', 1, -2, 1, "", 14, 36),
    ('T', -3, 0, 2, "E", 19, 52),
    ('W', 1, 0, 2, "", 14, 56),
    ('L', -3, -1, 0, "W", 18, 85),
    ('A', 2, 0, 1, "", 9, 26),
    ('G', 1, -3, 2, "N", 16, 28),
    ('M', 2, -2, 0, "", 17, 26),
    ('O', -3, -2, 3, "S", 16, 39),
    ('Q', 1, -4, 1, "", 19, 22),
    ('E', -4, -2, 1, "", 23, 39),
    ('B', 3, -2, 2, "", 32, 64),
    ('C', -2, 2, 1, "", 20, 20),
    ('V', -2, -2, 0, "", 26, 51),
];

/// 2 players, farmers on; both seats put a meeple down whenever they can
/// (fields first), so they run out and the last turns have no meeple moves.
///
/// Turn 1, B at the start: only (0,-1), in all 4 rotations; monastery and
/// field free: 4 × 3 = 12.
///
/// Turn 2, U after B r3 at (0,-1) with seat 0's farmer in B's field (which
/// joins D's south field): 2 placements at each of (±1, 0) (road W–E),
/// (±1,-1) (road N–S, field against B) and (0,-2) (road W–E): 10. At every
/// one of them the road and one field are free, the field touching B or
/// D's south field is not: 10 × 3 = 30.
const SEQ_2: [Row; 20] = [
    ('B', 0, -1, 3, "NNW", 4, 12),
    ('U', -1, -1, 0, "NNW", 10, 30),
    ('E', 1, -1, 0, "N", 10, 21),
    ('V', -1, -2, 1, "N", 11, 30),
    ('J', -1, 0, 0, "N", 9, 30),
    ('K', -2, -1, 0, "SSW", 9, 33),
    ('L', -1, 1, 2, "ESE", 8, 45),
    ('W', -1, 2, 1, "NNE", 14, 78),
    ('D', -2, 1, 2, "NNW", 14, 52),
    ('N', 0, 2, 1, "N", 9, 18),
    ('P', -3, -1, 3, "N", 12, 39),
    ('U', 1, -2, 1, "ESE", 14, 36),
    ('V', -3, 1, 2, "N", 17, 40),
    ('A', -3, 2, 0, "C", 18, 52),
    ('E', -1, -3, 3, "W", 22, 46),
    ('B', 2, -1, 0, "", 28, 28),
    ('V', 2, -2, 0, "S", 24, 64),
    ('R', 2, 0, 0, "", 25, 25),
    ('I', -3, 3, 3, "", 30, 30),
    ('T', 0, 3, 1, "", 30, 30),
];

/// Play the rows, checking the counts before every move.
fn check_sequence(players: usize, farmers: bool, rows: &[Row]) {
    let rules = Rules {
        farmers,
        gifts: false,
        ..Rules::STANDARD
    };
    play_rows(&mut State::new(rules, players, Seat(0)), rows);
}

#[test]
fn perft_two_players_farmers_on() {
    check_sequence(SEQUENCES[0].0, SEQUENCES[0].1, &SEQ_0);
}

#[test]
fn perft_three_players_farmers_off() {
    check_sequence(SEQUENCES[1].0, SEQUENCES[1].1, &SEQ_1);
}

#[test]
fn perft_until_the_seats_run_out_of_meeples() {
    check_sequence(SEQUENCES[2].0, SEQUENCES[2].1, &SEQ_2);
}

#[test]
fn perft_tables_follow_their_sequences() {
    let tables: [&[Row]; 3] = [&SEQ_0, &SEQ_1, &SEQ_2];
    for ((_, _, tiles, _), rows) in SEQUENCES.iter().zip(tables) {
        let letters: String = rows.iter().map(|r| r.0).collect();
        assert_eq!(&letters, tiles);
    }
}

/// Seeded random games (random draws, uniformly random moves); at every
/// turn the fast engine's placements and free segments must equal the
/// reference's. Returns the number of turns checked.
fn differential_game(seed: u64) -> usize {
    let players = 2 + (seed % 5) as usize;
    let farmers = seed % 3 != 2;
    let rules = Rules {
        farmers,
        gifts: false,
        ..Rules::STANDARD
    };
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut state = State::new(rules, players, Seat(0));
    let mut naive = NaiveGame::new(players, farmers);
    let mut turns = 0;
    loop {
        match state.phase() {
            Phase::Draw => {
                let (tile, drawn) = state.draw_random(&mut rng);
                if drawn == Drawn::SetAside {
                    assert!(
                        naive.legal_placements(tile.letter()).is_empty(),
                        "seed {seed}: {tile} set aside but the reference can place it"
                    );
                }
            }
            Phase::Place(tile) => {
                let turn = state.turns() + 1;
                let seat = state.to_play();
                let (fast, fast_xyr) = placements(&state);
                assert_eq!(
                    fast_xyr,
                    naive.legal_placements(tile.letter()),
                    "seed {seed}, turn {turn}: placements of {tile}"
                );
                for &p in &fast {
                    let names = free_names(&state, p);
                    if state.supply(seat) == 0 {
                        assert!(names.is_empty(), "seed {seed}, turn {turn}: no supply");
                        continue;
                    }
                    let want = naive.free_locations(
                        tile.letter(),
                        p.pos.x.into(),
                        p.pos.y.into(),
                        p.rot.quarter_turns(),
                    );
                    assert_eq!(
                        names, want,
                        "seed {seed}, turn {turn}: free segments of {tile} at {} r{} \
                         ({players} players, farmers {farmers})",
                        p.pos, p.rot
                    );
                }
                let m = random_move(&state, &mut rng).unwrap();
                naive
                    .place_turn(&TurnRecord::new(seat, Vec::new(), tile, m))
                    .unwrap_or_else(|e| panic!("seed {seed}, turn {turn}: reference: {e}"));
                state.try_play(m).unwrap();
                turns += 1;
            }
            Phase::Over => return turns,
            other => unreachable!("not in the base game: {other:?}"),
        }
    }
}

#[test]
fn placements_and_free_segments_match_the_reference_in_random_games() {
    let mut turns = 0;
    for seed in 0..GAMES {
        turns += differential_game(seed);
    }
    assert!(turns > 60 * GAMES as usize);
}

/// Games of the differential test.
const GAMES: u64 = 300;

/// Prints the tables from the naive reference (run with --ignored --nocapture).
#[test]
#[ignore]
fn print_perft_tables_from_the_naive_reference() {
    for (players, farmers, tiles, rule) in SEQUENCES {
        let mut g = NaiveGame::new(players, farmers);
        println!("// {players} players, farmers {farmers}, rule {rule}");
        for (k, tile) in tiles.chars().enumerate() {
            let seat = k % players;
            let places = g.legal_placements(tile);
            assert!(!places.is_empty(), "{tile} at {k}");
            let mut moves = 0;
            for &(x, y, r) in &places {
                moves += 1;
                if g.supply(seat) > 0 {
                    moves += g.free_locations(tile, x, y, r).len();
                }
            }
            let (x, y, r) = places[(k * 7 + 3) % places.len()];
            let free = g.free_locations(tile, x, y, r);
            let meeple = match rule {
                2 if !free.is_empty() && g.supply(seat) > 0 => Some(
                    free.iter()
                        .find(|l| l.len() == 3)
                        .unwrap_or(&free[0])
                        .clone(),
                ),
                0 if k % 3 != 1 && !free.is_empty() && g.supply(seat) > 0 => {
                    Some(free[k % free.len()].clone())
                }
                1 if k % 2 == 0 && !free.is_empty() && g.supply(seat) > 0 => {
                    Some(free[(k / 2) % free.len()].clone())
                }
                _ => None,
            };
            g.place(seat, tile, x, y, r, meeple.as_deref()).unwrap();
            println!(
                "    ('{tile}', {x}, {y}, {r}, \"{}\", {}, {moves}), // supply {}",
                meeple.clone().unwrap_or_default(),
                places.len(),
                g.supply(seat)
            );
        }
    }
}
