//! Seeded random games (2–6 players, farmers on and off) that check the
//! engine's invariants at every step: meeples are conserved, scores never
//! drop, completed features hold no meeple, clones are equal, the generated
//! moves are exactly the legal ones, every record replays to the same
//! result, and — on a subset — every turn agrees with the naive reference
//! engine (`tests/naive`), category by category.
//!
//! The normal run plays 10,000 games; `cargo test -p carcassonne-engine
//! --test all random_games:: -- --ignored` plays 200,000.

use crate::naive;

use engine::random_move;
use engine::FinalRecord;
use engine::{
    replay, Drawn, FeatureKind, Move, MoveList, Phase, Placement, Pos, Record, Rotation, Rules,
    Score, Seat, State, TurnRecord,
};
use naive::NaiveGame;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use testkit::StateExt;

/// Candidate moves tried per turn to check that what is not generated is
/// refused.
const CANDIDATES: usize = 8;

/// `[road, city, monastery, farm]` of a score.
fn parts(s: Score) -> [u32; 4] {
    [
        s.road.into(),
        s.city.into(),
        s.monastery.into(),
        s.farm.into(),
    ]
}

fn all_scores(state: &State) -> Vec<Score> {
    (0..state.players())
        .map(|s| state.score(Seat(s as u8)))
        .collect()
}

/// Invariants that hold after every step.
fn check_invariants(state: &State, before: &[Score], ctx: &str) {
    let players = state.players();
    assert_eq!(before.len(), players);
    for (s, &was) in before.iter().enumerate() {
        let seat = Seat(s as u8);
        let on_board = state.meeples().iter().filter(|m| m.seat == seat).count();
        assert_eq!(
            on_board + state.supply(seat) as usize,
            7,
            "{ctx}: meeples of {seat}"
        );
        let (now, was) = (parts(state.score(seat)), parts(was));
        for (n, w) in now.iter().zip(&was) {
            assert!(n >= w, "{ctx}: score of {seat} dropped: {was:?} -> {now:?}");
        }
        if !state.is_over() {
            assert_eq!(now[3], 0, "{ctx}: farm points during the game");
        }
        if !state.rules().farmers {
            assert_eq!(now[3], 0, "{ctx}: farm points with farmers off");
        }
    }
    for m in state.meeples() {
        assert!(m.seat.index() < players, "{ctx}: meeple of no seat");
        assert!(
            !state.is_complete(m.segment),
            "{ctx}: a meeple of {} is on a completed {:?}",
            m.seat,
            state.segment_kind(m.segment)
        );
        if !state.rules().farmers {
            assert_ne!(state.segment_kind(m.segment), FeatureKind::Field, "{ctx}");
        }
    }
}

/// A move to test against the generated list: anywhere near the board, a
/// legal placement with another rotation, or with any meeple index.
fn candidate<R: Rng>(state: &State, legal: &[Move], rng: &mut R) -> Move {
    let tiles = state.board().tiles();
    let (mut x0, mut x1, mut y0, mut y1) = (0i8, 0i8, 0i8, 0i8);
    for t in tiles {
        x0 = x0.min(t.pos.x);
        x1 = x1.max(t.pos.x);
        y0 = y0.min(t.pos.y);
        y1 = y1.max(t.pos.y);
    }
    let meeple = |rng: &mut R| (rng.gen_range(0..3) > 0).then(|| rng.gen_range(0..9u8));
    let rot = |rng: &mut R| Rotation::new(rng.gen_range(0..4)).unwrap();
    let base = legal[rng.gen_range(0..legal.len())].placement;
    match rng.gen_range(0..3) {
        0 => Move {
            placement: Placement {
                pos: Pos::new(
                    rng.gen_range(x0 - 2..=x1 + 2),
                    rng.gen_range(y0 - 2..=y1 + 2),
                ),
                rot: rot(rng),
                slot: 0,
            },
            meeple: meeple(rng),
        },
        1 => Move {
            placement: base,
            meeple: meeple(rng),
        },
        _ => Move {
            placement: Placement {
                pos: base.pos,
                rot: rot(rng),
                slot: 0,
            },
            meeple: meeple(rng),
        },
    }
}

/// Play one seeded random game, checking every step; with `mirror`, every
/// turn is also played in the naive reference engine and compared.
fn random_game(seed: u64, players: usize, farmers: bool, mirror: bool) {
    let ctx0 = format!("seed {seed} ({players} players, farmers {farmers})");
    let rules = Rules {
        farmers,
        gifts: false,
        ..Rules::STANDARD
    };
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut state = State::new(rules, players, Seat(0));
    let mut naive = mirror.then(|| NaiveGame::new(players, farmers));
    let mut record = Record::new(players, rules);
    let mut discarded = Vec::new();
    let mut list = MoveList::new();
    let mut legal: Vec<Move> = Vec::new();
    loop {
        let before = all_scores(&state);
        let copy = state.clone();
        assert!(copy == state, "{ctx0}: clone differs");
        match state.phase() {
            Phase::Draw => {
                let seat = state.to_play();
                let (tile, drawn) = state.draw_random(&mut rng);
                assert_eq!(state.to_play(), seat);
                if drawn == Drawn::SetAside {
                    discarded.push(tile);
                    if let Some(g) = &naive {
                        assert!(g.legal_placements(tile.letter()).is_empty(), "{ctx0}");
                    }
                    if state.is_over() {
                        record.turns.push(TurnRecord::discards_only(
                            seat,
                            std::mem::take(&mut discarded),
                        ));
                    }
                }
                check_invariants(&state, &before, &ctx0);
            }
            Phase::Place(tile) => {
                let seat = state.to_play();
                let turn = state.turns() + 1;
                let ctx = format!("{ctx0}, turn {turn}, {tile}");
                // Every generated move passes check(); every move check() accepts
                // is generated (tried on random candidates).
                state.legal_moves(&mut list);
                legal.clear();
                legal.extend_from_slice(&list);
                legal.sort();
                let mut placements = 0;
                state.for_each_placement(|p| {
                    placements += 1;
                    assert!(legal
                        .binary_search(&Move {
                            placement: p,
                            meeple: None
                        })
                        .is_ok());
                });
                assert_eq!(placements, state.placement_count(), "{ctx}");
                assert!(placements > 0, "{ctx}: a drawn tile is placeable");
                for w in legal.windows(2) {
                    assert!(w[0] < w[1], "{ctx}: move generated twice: {:?}", w[0]);
                }
                for &m in &legal {
                    assert_eq!(state.check(m), Ok(()), "{ctx}: generated {m:?}");
                }
                for _ in 0..CANDIDATES {
                    let m = candidate(&state, &legal, &mut rng);
                    let generated = legal.binary_search(&m).is_ok();
                    let checked = state.check(m);
                    assert_eq!(
                        checked.is_ok(),
                        generated,
                        "{ctx}: {} is {} but check says {checked:?}",
                        m.display(tile),
                        if generated {
                            "generated"
                        } else {
                            "not generated"
                        }
                    );
                }
                // A refused move leaves the state as it was.
                let mut bad = candidate(&state, &legal, &mut rng);
                bad.placement.pos = Pos::ORIGIN;
                let mut c = state.clone();
                assert!(c.try_play(bad).is_err());
                assert!(c == state, "{ctx}: a refused move changed the state");
                let m = random_move(&state, &mut rng).expect("a move");
                assert!(legal.binary_search(&m).is_ok(), "{ctx}: random_move");
                let rec = TurnRecord::new(seat, std::mem::take(&mut discarded), tile, m);
                if let Some(g) = &mut naive {
                    g.place_turn(&rec).unwrap_or_else(|e| {
                        panic!("{ctx}: reference refuses {}: {e}", m.display(tile))
                    });
                }
                record.turns.push(rec);
                if seed % 2 == 0 {
                    state.try_play(m).unwrap_or_else(|e| panic!("{ctx}: {e}"));
                } else {
                    state.play_unchecked(m);
                }
                assert_eq!(state.turns(), turn, "{ctx}");
                if !state.is_over() {
                    let next = Seat(((seat.index() + 1) % players) as u8);
                    assert_eq!(state.to_play(), next, "{ctx}");
                    assert_eq!(state.phase(), Phase::Draw, "{ctx}");
                }
                check_invariants(&state, &before, &ctx);
                if let Some(g) = &naive {
                    if !state.is_over() {
                        let fast: Vec<[u32; 4]> =
                            all_scores(&state).into_iter().map(parts).collect();
                        assert_eq!(fast, g.scores(), "{ctx}: scores differ from the reference");
                        for s in 0..players {
                            assert_eq!(u32::from(state.supply(Seat(s as u8))), g.supply(s));
                        }
                    }
                }
            }
            Phase::Over => break,
            other => unreachable!("not in the base game: {other:?}"),
        }
    }
    assert!(state.bag().is_empty(), "{ctx0}");
    let final_scores = all_scores(&state);
    if let Some(g) = &naive {
        let fast: Vec<[u32; 4]> = final_scores.iter().copied().map(parts).collect();
        assert_eq!(
            fast,
            g.final_scores(),
            "{ctx0}: final scores differ from the reference"
        );
    }
    // Final scoring ran once: the end-now scores are the final scores.
    assert_eq!(
        &state.end_now_scores().0[..state.players()],
        &final_scores[..],
        "{ctx0}: the end-now scores of a finished game differ"
    );
    // The record replays to the same end.
    record.final_scores = Some(FinalRecord {
        scores: final_scores.iter().map(Score::total).collect(),
    });
    let replayed = replay(&record, false).unwrap_or_else(|e| panic!("{ctx0}: replay: {e}"));
    assert!(replayed.is_over(), "{ctx0}");
    assert_eq!(
        all_scores(&replayed),
        final_scores,
        "{ctx0}: replayed scores"
    );
    assert!(replayed == state, "{ctx0}: replayed state differs");
}

/// Play `games` games of `players` seats from seeds `first..`: farmers on in
/// three games of four, mirrored into the reference in one game of five.
fn run(first: u64, games: u64, players: usize) {
    for seed in first..first + games {
        random_game(seed, players, seed % 4 != 3, seed % 5 == 0);
    }
}

/// Games per player count in the normal run: 5 × 2,000 = 10,000.
const GAMES: u64 = 2_000;

#[test]
fn random_games_two_players() {
    run(200_000, GAMES, 2);
}

#[test]
fn random_games_three_players() {
    run(300_000, GAMES, 3);
}

#[test]
fn random_games_four_players() {
    run(400_000, GAMES, 4);
}

#[test]
fn random_games_five_players() {
    run(500_000, GAMES, 5);
}

#[test]
fn random_games_six_players() {
    run(600_000, GAMES, 6);
}

#[test]
#[ignore = "long: 200,000 games"]
fn random_games_long() {
    for players in 2..=6 {
        run(10_000_000 * players as u64, 40_000, players);
    }
}
