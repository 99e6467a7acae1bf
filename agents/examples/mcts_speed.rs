//! MCTS iterations per second on one thread, from the opening and from a
//! mid-game position (what `carcassonne bench --json` reports).
//!
//! ```text
//! cargo run --release -p carcassonne-agents --example mcts_speed -- [SPEC] [SEED]
//! ```

use agents::mcts::{mcts_iterations_per_s, MctsConfig};
use agents::spec::Spec;

fn main() {
    let mut args = std::env::args().skip(1);
    let spec = args.next().unwrap_or_else(|| "mcts".to_string());
    let seed = args.next().map_or(1, |s| s.parse().expect("a seed"));
    let config = Spec::parse(&spec)
        .and_then(|s| MctsConfig::from_spec(&s))
        .unwrap_or_else(|e| {
            eprintln!("error: {e}");
            std::process::exit(2)
        });
    let speed = mcts_iterations_per_s(&config, seed);
    println!(
        "{spec}: opening {:.0} iterations/s, midgame {:.0} iterations/s",
        speed.opening, speed.midgame
    );
}
