//! One default-MCTS search (3,000 iterations) from the opening and one
//! from a turn-30 midgame and one greedy decision there, as `carcassonne
//! bench` measures them (once each), without
//! the rest of the benchmark: the entry point for profilers and
//! `valgrind --tool=callgrind` on search.
//!
//! ```text
//! cargo run --release -p carcassonne --example mcts_speed -- [ITERATIONS] [SEED]
//! ```

use agents::mcts::MctsConfig;
use tournament::bench::SearchBench;

fn main() {
    let mut args = std::env::args().skip(1);
    let iterations = args.next().map_or(3000, |s| s.parse().expect("iterations"));
    let seed = args.next().map_or(1, |s| s.parse().expect("a seed"));
    let config = MctsConfig {
        iterations,
        ..MctsConfig::default()
    };
    let speed = SearchBench::ONCE.mcts_iterations_per_s(&config, seed);
    println!(
        "mcts: opening {:.0} iterations/s, midgame {:.0} iterations/s; greedy {:.0} decisions/s",
        speed.opening, speed.midgame, speed.greedy
    );
}
