//! Criterion benchmarks of the engine's hot paths: legal-move generation,
//! playing a move, and one whole random game (`cargo bench -p
//! carcassonne-engine`).

// criterion's macros generate undocumented public functions.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use engine::{random_move, random_playout};
use engine::{Action, MoveList, Phase, Rules, Seat, State};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// A mid-game position (30 random turns from seed 7) with a tile drawn.
fn midgame() -> State {
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    let mut state = State::new(Rules::default(), 2, Seat(0));
    loop {
        match state.phase() {
            Phase::Draw => {
                state.apply_chance(&mut rng);
            }
            Phase::Place(_) if state.turns() >= 30 => break,
            Phase::Place(_) => {
                let mv = random_move(&state, &mut rng).unwrap();
                state.play_action_unchecked(Action::Place(mv));
            }
            Phase::Over => unreachable!("71 tiles outlast 30 turns"),
            other => unreachable!("not in the base game: {other:?}"),
        }
    }
    state
}

fn benches(c: &mut Criterion) {
    let position = midgame();
    let mut list = MoveList::new();
    c.bench_function("legal_moves_midgame", |b| {
        b.iter(|| {
            black_box(&position).legal_moves(&mut list);
            black_box(list.len())
        })
    });
    c.bench_function("placements_midgame", |b| {
        b.iter(|| {
            let mut n = 0;
            black_box(&position).for_each_placement(|_| n += 1);
            n
        })
    });
    position.legal_moves(&mut list);
    let moves: Vec<_> = list.to_vec();
    c.bench_function("play_move_midgame", |b| {
        let mut i = 0;
        b.iter(|| {
            let mut s = position.clone();
            s.play_action_unchecked(Action::Place(moves[i % moves.len()]));
            i += 1;
            black_box(s.turns())
        })
    });
    c.bench_function("clone_state", |b| {
        let mut copy = position.clone();
        b.iter(|| {
            copy.clone_from(black_box(&position));
            black_box(copy.turns())
        })
    });
    let fresh = State::new(Rules::default(), 2, Seat(0));
    c.bench_function("random_game_2p", |b| {
        let mut seed = 0;
        b.iter(|| {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            seed += 1;
            let mut s = fresh.clone();
            random_playout(&mut s, &mut rng);
            black_box(s.score(Seat(0)).total())
        })
    });
}

criterion_group!(engine_benches, benches);
criterion_main!(engine_benches);
