//! perft-style counts: for fixed tile sequences with fixed moves, the number
//! of legal placements ((cell, rotation) pairs, every rotation counted even
//! for symmetric tiles) and of legal moves (placements × {no meeple, each
//! free segment}) at every turn, against tables produced by the naive
//! reference engine (`tests/naive`), never by the fast engine. The first
//! turns of each table are verified by hand in the file's comments. A differential
//! test then compares placements and free segments with the reference at
//! every turn of many seeded random games.
//!
//! The tables are data (`counts/perft.txt`); to regenerate them (only
//! when the rules change on purpose):
//! `cargo run -p carcassonne-engine --example regenerate-counts`.

use crate::counts;
use crate::naive;

use counts::{free_names, placements, play_sequence};
use engine::random_move;
use engine::{Drawn, Phase, Rules, Seat, State, TurnRecord};
use naive::NaiveGame;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use testkit::StateExt;

/// The sequences of `counts/perft.txt`: 2 players with farmers, 3
/// without, and 2 who put a meeple down whenever they can (fields first)
/// until they run out.
fn sequences() -> Vec<counts::Sequence> {
    let seqs = counts::parse(counts::PERFT);
    assert_eq!(seqs.len(), 3, "the sequences of perft.txt");
    seqs
}

#[test]
fn perft_two_players_farmers_on() {
    let seq = &sequences()[0];
    assert_eq!((seq.players, seq.farmers), (2, true));
    play_sequence(seq);
}

#[test]
fn perft_three_players_farmers_off() {
    let seq = &sequences()[1];
    assert_eq!((seq.players, seq.farmers), (3, false));
    play_sequence(seq);
}

#[test]
fn perft_until_the_seats_run_out_of_meeples() {
    let seq = &sequences()[2];
    assert_eq!((seq.players, seq.rule), (2, 2));
    play_sequence(seq);
    let last = seq.rows.last().unwrap();
    assert_eq!(last.placements, last.moves, "no meeple left at the end");
}

/// The file is what `cargo run -p carcassonne-engine --example
/// regenerate-counts` writes: its rows come from the naive reference.
#[test]
fn perft_counts_are_what_the_reference_generates() {
    assert_eq!(counts::regenerate(counts::PERFT), counts::PERFT);
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
