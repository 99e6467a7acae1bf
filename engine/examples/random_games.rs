//! Play N complete random 2-player games and print games/s and the
//! signature, without the command line around it (for profiling the
//! engine alone): `cargo run --release -p carcassonne-engine --example
//! random_games -- 20000 [gifts]`.

use engine::random_playout;
use engine::{Rules, Seat, State};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .map_or(20_000, |a| a.parse().expect("a number of games"));
    let rules = Rules {
        gifts: std::env::args().nth(2).as_deref() == Some("gifts"),
        ..Rules::default()
    };
    let start = Instant::now();
    let mut signature = 0u64;
    for seed in 0..games {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut state = State::new(rules, 2, Seat(0));
        random_playout(&mut state, &mut rng);
        let a = state.score(Seat(0)).total() as u64;
        let b = state.score(Seat(1)).total() as u64;
        signature = signature.wrapping_add(a * 1000 + b + state.turns() as u64);
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games: {:.0} games/s, {:.2} µs/game, signature {signature}",
        games as f64 / secs,
        1e6 * secs / games as f64
    );
}
