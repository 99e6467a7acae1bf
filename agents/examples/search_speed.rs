//! Search speed side by side: iterations per second of search agents
//! (`az` with any evaluator, `mcts`, ...) on the same positions, one
//! thread, one decision at a time.
//!
//! ```text
//! cargo run --release -p carcassonne-agents --example search_speed -- \
//!     --positions 30 "mcts:iterations=1000" "az:iterations=1000"
//! ```
//!
//! The positions are decisions of games of random play (2 players and
//! the standard rules unless `--players N` and `--rules KEY=VALUE,...`
//! say otherwise), deck seeds 1, 2, ..., a few turns apart. An iteration is
//! what the agent counts as one (`mcts`: a descent and its rollout;
//! `az`: a descent and its share of a batched leaf evaluation), read
//! from the root visits of each search, so the figure is iterations
//! actually run. Wall time depends on the machine's load: say it with
//! the figures.

mod common;

use agents::{from_spec, AgentRng, Context};
use common::{option, positions};
use engine::Rules;
use rand::SeedableRng;
use std::time::Instant;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let count = option(&mut args, "--positions").unwrap_or(30);
    let players = option(&mut args, "--players").unwrap_or(2);
    let rules: Rules = option(&mut args, "--rules").unwrap_or_default();
    if args.is_empty() {
        args = vec![
            "mcts:iterations=1000".into(),
            "az:iterations=1000".into(),
            "az:iterations=1000,batch=1".into(),
        ];
    }
    let positions = positions(count, players, rules);
    println!(
        "{:<48} {:>10} {:>9} {:>12}",
        "agent", "iterations", "seconds", "iter/s"
    );
    for spec in &args {
        let mut agent = from_spec(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        let mut iterations = 0u64;
        let start = Instant::now();
        for (i, state) in positions.iter().enumerate() {
            let mut rng = AgentRng::seed_from_u64(i as u64);
            let view = state.view(state.to_play());
            let decision = agent
                .decide(Context::new(&view, &mut rng))
                .unwrap_or_else(|e| panic!("{spec}: {e}"));
            let visits = decision
                .root_visits()
                .unwrap_or_else(|| panic!("{spec}: no root visits (not a search agent?)"));
            iterations += visits.iter().map(|v| u64::from(v.1)).sum::<u64>();
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{spec:<48} {iterations:>10} {secs:>9.2} {:>12.0}",
            iterations as f64 / secs
        );
    }
}
