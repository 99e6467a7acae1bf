//! The per-action features of every decision of a few random games
//! (`tournament::bench::feature_positions`), read through
//! `agents::action_features::for_each_row` and through the reference
//! that plays each placement on a copy of the position: rows per second
//! side by side, and the entry point for `valgrind --tool=callgrind`
//! (one path at a time, read once; `none` only makes the positions, to
//! subtract).
//!
//! ```text
//! cargo run --release -p carcassonne --example action_features_speed -- [GAMES] [both|new|copy|none] [SECS]
//! ```

use tournament::bench::{feature_positions, SearchBench};

fn main() {
    let mut args = std::env::args().skip(1);
    let games = args.next().map_or(4, |s| s.parse().expect("games"));
    let mode = args.next().unwrap_or_else(|| "both".to_string());
    let secs = args.next().map_or(2.0, |s| s.parse().expect("seconds"));
    let positions = feature_positions(games);
    let bench = match mode.as_str() {
        "both" => SearchBench { secs, rounds: 3 },
        _ => SearchBench::ONCE,
    };
    let paths: &[(&str, bool)] = match mode.as_str() {
        "both" => &[("copy", true), ("new", false)],
        "new" => &[("new", false)],
        "copy" => &[("copy", true)],
        "none" => &[],
        other => panic!("mode {other:?}: both, new, copy or none"),
    };
    let mut rates = Vec::new();
    for &(name, by_copy) in paths {
        let s = bench.action_features_speed(&positions, by_copy);
        println!(
            "{name}: {:.0} rows/s, {:.1} µs/decision ({} decisions of {games} games)",
            s.rows_per_s,
            1e6 / s.decisions_per_s,
            positions.len()
        );
        rates.push(s.rows_per_s);
    }
    if let [copy, new] = rates[..] {
        println!("new / copy: {:.2}×", new / copy);
    }
}
