//! `az`: AlphaZero-style search — PUCT over the seat's actions guided by
//! an [`Evaluator`] that gives every legal action a prior and every seat
//! a value, with tile and gift draws as sampled chance.
//!
//! Spec: `az:iterations=400,c_puct=1.5,batch=8` and the other parameters
//! of [`AzConfig`]; `az:net=PATH` searches with a network, plain `az` with
//! [`Uniform`] (every prior equal, every value 0: the uninformed
//! baseline, whose strength comes only from the game ends it reaches).
//!
//! - **Search** (`search.rs`): one descent per iteration from a fresh
//!   determinization of the seat's view, as `mcts` does; children of a
//!   decision node for every legal action with the evaluator's prior; at
//!   a leaf the evaluator's values, no rollout; each seat maximises its
//!   own value at its nodes (max^n). Leaves are evaluated `batch` at a
//!   time, the descents of a batch spread by virtual loss.
//! - **Budgets**: `iterations=` (default; reproducible), `time_ms=`,
//!   `game_ms=` (as `mcts`, through [`crate::clock`]).
//! - **Threads** (`threads=N`): root parallelism — N independent
//!   searches on their own threads, each with the full budget and a
//!   generator seeded from the agent's, root visits summed in thread
//!   order: the same seed and N give the same move.
//! - **Move**: the most visited root action (ties: higher mean value,
//!   then higher prior, then at random: every node lists its children
//!   in an order shuffled with the agent's generator, and the first of
//!   equals wins, in the search as in the choice). A forced move is played
//!   without a search (and [`crate::Decision::search`] is then `None`).
//! - **Self-play only** (`noise.rs`): Dirichlet noise on the root priors
//!   (`noise=`, `alpha=`) and a move drawn at temperature `temp` during
//!   the first `temp_moves` turns of the game. Both are off by default;
//!   tournaments and matches should leave them off.
//! - **Networks** (`crate::models`): `net=PATH` is read once per process and
//!   shared by every game, seat and thread that names it.
//!
//! - **Linear values** (`eval=MODEL`, [`model_values`]): leaf values from
//!   the value model `mcts:depth=0,eval=` uses, the network's policy as
//!   the prior (`eval_mix=` mixes the network's value back in).
//!
//! - [`crate::evaluator`]: the interface between the search and a model
//!   (a leaf the network implements without knowing the search).

mod config;
mod gumbel;
pub mod model_values;
mod noise;
mod search;

pub use crate::evaluator::{terminal_values, EvalRequest, Evaluation, Evaluator, Uniform};
pub use config::{AzConfig, Root, PARAMS};
pub use search::{RootStats, Tree};

use crate::clock::{Budget, Clock, SearchClock};
use crate::spec::AgentKind;
use crate::{Agent, AgentError, AgentRng, Context, Decision, Lifecycle, SearchStats};
use engine::SeatView;
use rand::{Rng, SeedableRng};
use search::Search;
use std::sync::Arc;
use std::time::Duration;

/// The `az` agent in the spec registry.
pub const KIND: AgentKind = AgentKind {
    name: "az",
    params: PARAMS,
    build: |name, params| {
        let config = AzConfig::from_params(params)?;
        let network = config.network.clone();
        let eval = crate::models::eval_unsuited(config.eval.clone());
        let unsuited = (network.is_some() || eval.is_some()).then(|| -> crate::spec::Unsuited {
            Arc::new(move |rules: &engine::Rules, players: usize| {
                let net = network.as_ref().and_then(|n| n.unsuited_to(rules, players));
                match net {
                    Some(why) => Some(format!("its net= network is {why}")),
                    None => eval.as_ref().and_then(|e| e(rules, players)),
                }
            })
        });
        Ok(
            crate::spec::Make::new(move || Box::new(AzAgent::new(name.clone(), config.clone())))
                .unsuited(unsuited),
        )
    },
};

/// The `az` agent.
#[derive(Debug)]
pub struct AzAgent {
    name: String,
    config: AzConfig,
    /// Its clock and the time its moves of this game took.
    clock: SearchClock,
    /// One arena per thread, kept between searches for their memory.
    trees: Vec<Tree>,
}

impl AzAgent {
    /// An `az` agent with `config`, reporting itself as `name`, timed by
    /// the wall clock.
    pub fn new(name: String, config: AzConfig) -> AzAgent {
        AzAgent {
            name,
            config,
            clock: SearchClock::wall(),
            trees: Vec::new(),
        }
    }

    /// The same agent timed by `clock` (for tests).
    pub fn with_clock(self, clock: Arc<dyn Clock>) -> AzAgent {
        AzAgent {
            clock: SearchClock::new(clock),
            ..self
        }
    }

    /// Its settings.
    pub fn config(&self) -> &AzConfig {
        &self.config
    }

    /// Search the decision of `view` (even a forced one) within the
    /// per-move budget: one search on this thread, or `threads` searches
    /// in parallel with generators seeded from `rng`, their root
    /// statistics merged in thread order.
    pub fn search(&mut self, view: &SeatView<'_>, rng: &mut AgentRng) -> RootStats {
        self.search_within(view, rng, None)
    }

    /// [`AzAgent::search`], cut at `time_left` if the caller imposes it.
    fn search_within(
        &mut self,
        view: &SeatView<'_>,
        rng: &mut AgentRng,
        time_left: Option<Duration>,
    ) -> RootStats {
        let budget = self
            .clock
            .budget(self.config.limits(), view, self.clock.now(), time_left);
        let planned = match budget {
            Budget::Iterations(n) | Budget::IterationsUntil { iterations: n, .. } => n,
            Budget::Until { .. } => self.config.iterations,
        };
        let cfg = &self.config;
        self.run_searches(cfg.clone(), view, rng, &budget, planned)
    }

    /// A fast search of playout cap randomisation: `cap_fast`
    /// iterations (cut at `time_left`), no Dirichlet noise.
    fn fast_search(
        &mut self,
        view: &SeatView<'_>,
        rng: &mut AgentRng,
        time_left: Option<Duration>,
    ) -> RootStats {
        let cfg = AzConfig {
            noise: 0.0,
            ..self.config.clone()
        };
        let n = cfg.cap_fast;
        let budget = self.clock.iterations(n, time_left);
        self.run_searches(cfg, view, rng, &budget, n)
    }

    /// The search(es) of `cfg` within `budget`, merged.
    fn run_searches(
        &mut self,
        cfg: AzConfig,
        view: &SeatView<'_>,
        rng: &mut AgentRng,
        budget: &Budget,
        planned: u32,
    ) -> RootStats {
        let cfg = &cfg;
        let threads = cfg.threads.max(1) as usize;
        self.trees.resize_with(threads, Tree::default);
        if threads == 1 {
            return Search::new(cfg, &mut self.trees[0]).run(view, rng, budget, planned);
        }
        let seeds: Vec<u64> = (0..threads).map(|_| rng.r#gen()).collect();
        let search = |tree: &mut Tree, seed: u64| {
            Search::new(cfg, tree).run(view, &mut AgentRng::seed_from_u64(seed), budget, planned)
        };
        // Operating-system threads, not the rayon pool (see `mcts`).
        let stats: Vec<RootStats> = std::thread::scope(|scope| {
            let (first, rest) = self.trees.split_first_mut().expect("a tree per thread");
            let others: Vec<_> = rest
                .iter_mut()
                .zip(&seeds[1..])
                .map(|(tree, &seed)| scope.spawn(move || search(tree, seed)))
                .collect();
            let mut stats = vec![search(first, seeds[0])];
            stats.extend(
                others
                    .into_iter()
                    .map(|h| h.join().expect("a search thread panicked")),
            );
            stats
        });
        let mut merged = RootStats::default();
        for s in &stats {
            merged.merge(s);
        }
        merged
    }

    /// The move to play from a search's root statistics: the Gumbel
    /// root's choice, or drawn at the temperature in the first
    /// `temp_moves` turns, else the best; with what the search found
    /// (`full`: a full search, not a fast one of playout cap
    /// randomisation).
    fn pick(
        &self,
        stats: &RootStats,
        view: &SeatView<'_>,
        rng: &mut AgentRng,
        full: bool,
    ) -> Decision {
        let cfg = &self.config;
        let i = if let Some(chosen) = stats.chosen {
            chosen
        } else if view.turns() < cfg.temp_moves as usize && cfg.temp > 0.0 {
            let visits: Vec<u32> = stats.children.iter().map(|c| c.1).collect();
            noise::sample_at_temperature(rng, &visits, cfg.temp)
        } else {
            stats.best().expect("a legal action")
        };
        let (action, visits, total, _) = stats.children[i];
        let (all_visits, all_total) = stats
            .children
            .iter()
            .fold((0u32, 0.0), |(n, t), c| (n + c.1, t + c.2));
        Decision::searched(
            action,
            SearchStats {
                root_visits: stats.children.iter().map(|c| (c.0, c.1)).collect(),
                iterations: stats.iterations,
                value: total / f64::from(visits.max(1)),
                policy: (!stats.improved.is_empty()).then(|| stats.improved.clone()),
                full,
                // With `lead=` the values blend in the lead head: not
                // the outcome's scale.
                root_value: (all_visits > 0 && cfg.lead == 0.0)
                    .then(|| all_total / f64::from(all_visits)),
                root_values: stats
                    .children
                    .iter()
                    .map(|&(_, visits, total, prior)| crate::RootValue {
                        value: total / f64::from(visits.max(1)),
                        prior: Some(prior),
                        lead: None,
                        win: None,
                        scores: None,
                    })
                    .collect(),
            },
        )
    }
}

impl Agent for AzAgent {
    fn name(&self) -> &str {
        &self.name
    }

    /// A forced move is played without a search (and without search
    /// statistics).
    fn decide(&mut self, cx: Context<'_>) -> Result<Decision, AgentError> {
        let (view, rng) = (cx.view, cx.rng);
        let mut only = None;
        let mut count = 0;
        view.for_each_action(|a| {
            count += 1;
            only = Some(a);
        });
        if count == 1 {
            return Ok(Decision::new(only.expect("one action")));
        }
        let start = self.clock.now();
        // Playout cap randomisation: a draw only when it is on, so that
        // other searches keep their generator's sequence.
        let full = self.config.cap_full >= 1.0 || rng.r#gen::<f64>() < self.config.cap_full;
        let stats = if full {
            self.search_within(view, rng, cx.time_left)
        } else {
            self.fast_search(view, rng, cx.time_left)
        };
        let decision = self.pick(&stats, view, rng, full);
        self.clock.charge(start);
        Ok(decision)
    }
}

impl Lifecycle for AzAgent {
    fn reset(&mut self) {
        self.clock.new_game();
    }
}

#[cfg(test)]
mod tests;
