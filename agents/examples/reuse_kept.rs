//! How much of its tree `mcts:reuse=true` keeps from one move to the
//! next: plays games of the agent against `greedy` (2 players, base game)
//! and prints, over its searches, how often the game could be followed,
//! how often the kept subtree held any visit at its root, and the mean
//! root visits kept against the iterations each search adds.
//!
//! ```text
//! cargo run --release -p carcassonne-agents --example reuse_kept -- \
//!     "mcts:iterations=3000,reuse=true" 4
//! ```
//!
//! Arguments: the `mcts`/`ismcts` spec (default
//! `mcts:iterations=3000,reuse=true`) and the number of games (default 2).
//! Iteration budgets make the figures independent of the machine.

use agents::game::play_game;
use agents::mcts::{MctsAgent, MctsConfig};
use agents::spec::params::Params;
use agents::spec::Spec;
use agents::{from_spec, Agent, AgentError, Context, Decision, Lifecycle};
use engine::Rules;
use std::sync::{Arc, Mutex};

/// An `mcts` agent that notes the root visits each search kept.
struct Probe {
    inner: MctsAgent,
    kept: Arc<Mutex<Vec<Option<u32>>>>,
}

impl Agent for Probe {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn decide(&mut self, cx: Context<'_>) -> Result<Decision, AgentError> {
        let decision = self.inner.decide(cx)?;
        self.kept.lock().unwrap().push(self.inner.kept_visits());
        Ok(decision)
    }
}

impl Lifecycle for Probe {}

fn main() {
    let mut args = std::env::args().skip(1);
    let spec = args
        .next()
        .unwrap_or_else(|| "mcts:iterations=3000,reuse=true".into());
    let games: u64 = args.next().map_or(2, |s| s.parse().expect("a game count"));
    let parsed = Spec::parse(&spec).expect("a spec");
    let params = Params::new(&parsed, agents::mcts::PARAMS).expect("mcts parameters");
    let config = MctsConfig::from_params(&params).expect("valid mcts parameters");
    let iterations = config.iterations * config.threads;
    let kept = Arc::new(Mutex::new(Vec::new()));
    for g in 0..games {
        let probe = Probe {
            inner: MctsAgent::new(spec.clone(), config.clone()),
            kept: Arc::clone(&kept),
        };
        let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(probe), from_spec("greedy").unwrap()];
        let out = play_game(&mut agents, Rules::default(), 100 + g, &[2 * g, 2 * g + 1]);
        assert!(out.forfeit.is_none(), "{:?}", out.forfeit);
    }
    let kept = kept.lock().unwrap();
    let followed: Vec<u32> = kept.iter().flatten().copied().collect();
    let nonzero = followed.iter().filter(|&&k| k > 0).count();
    let mean = followed.iter().map(|&k| f64::from(k)).sum::<f64>() / followed.len().max(1) as f64;
    let max = followed.iter().max().copied().unwrap_or(0);
    println!(
        "{spec}, {games} games, {} searches: followed {}, kept visits > 0 in {nonzero}; \
         kept root visits mean {mean:.1} (max {max}) against {iterations} new per search ({:.3}%)",
        kept.len(),
        followed.len(),
        100.0 * mean / f64::from(iterations),
    );
}
