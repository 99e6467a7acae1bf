//! `mcts`: Monte Carlo tree search (UCT) for a game with chance and honest
//! information.
//!
//! Spec: `mcts:iterations=2000,c=0.7` and the other parameters of
//! [`MctsConfig`]. The budget is counted in iterations by default, so a
//! seed gives the same move on any machine; `time_ms=` searches for a
//! wall-clock time per move instead (not reproducible).
//!
//! # Design
//!
//! The search is *open-loop, chance-sampled*. Every iteration starts from
//! a fresh [`SeatView::determinize`] of the seat's view (in the base game
//! the position itself: the future tile order is not in the state, only the
//! counts left in the bag) and walks down the tree, playing the moves of
//! the nodes it passes on its own copy of the state. At a tile draw it
//! samples a tile with [`engine::State::apply_chance`] (unplaceable tiles are set
//! aside as in the rules) and follows the child for that tile. So the tree
//! alternates:
//!
//! - *decision* nodes (the root, and one per drawn tile), whose children are
//!   keyed by the move of the seat to play;
//! - *move* nodes, whose children are keyed by the next tile drawn.
//!
//! Nodes live in one arena (`tree.rs`: one `Vec` indexed by [`NodeId`],
//! children as linked indices, untried actions as ranges of one shared
//! list), which the agent keeps and clears between searches, so a search
//! allocates nothing once the arena has grown. A move node keeps the sum
//! of the rewards of the seat that made its move, so 2–6 seats work the
//! same way: each seat picks what is best for itself.
//!
//! - **Selection**: UCB1 (`mean + c·sqrt(ln N / n)`) among the children of
//!   a decision node.
//! - **Progressive widening** (`widen=`): a decision node visited `n` times
//!   has at most `ceil(widen·sqrt(n))` children. New children are added in
//!   the order of the greedy evaluation of their move (the end-now score
//!   advantage right after it, see [`crate::greedy`]), so the search
//!   spends its iterations on plausible moves — typically dozens of
//!   meeple placements exist per tile, most of them bad.
//! - **Rollout** (`rollout=`, `k=`, `depth=`): from the new leaf, play
//!   `depth` more turns (`depth=all`: to the end) with random draws and a
//!   cheap policy: `greedy` takes the best of `k` uniformly sampled legal
//!   moves by the greedy evaluation, `random` takes a uniform random move.
//!   Then the position is scored as if the game ended now
//!   ([`crate::eval`]), plus `meeple=` points per meeple in supply scaled
//!   by the share of tiles left (a meeple kept back can still score).
//!   Inner decision nodes add as their next child the best of `pick=`
//!   random untried moves by the greedy evaluation.
//! - **Reward** (`reward=`): `score` (default) gives each seat
//!   `0.5 + 0.5·tanh(d / scale)` where `d` is its value minus the best
//!   other seat's; `win` gives 1, ½ or 0 for being ahead, level or
//!   behind.
//! - **Endgame** (`solver_tiles=`): once the bag holds at most that many
//!   tiles at a decision, the move comes from the exact expectimax of
//!   [`crate::solver`] instead of the search.
//! - **Threads** (`threads=`): root parallelism — independent searches
//!   on their own operating-system threads, each with its own generator seeded from the
//!   agent's and the full budget, their root visits summed.
//! - **Tree reuse** (`reuse=true`, `reuse.rs`): a search starts from the
//!   subtree the last search of the game grew below the moves and draws
//!   played since (followed through [`crate::Context::history`], and only
//!   where nothing but the tile order is hidden); `iterations` counts the
//!   new iterations.
//! - **Move choice**: the most visited child of the root (ties: the higher
//!   mean reward).
//!
//! - **Learned evaluation** (`eval=MODEL.json`): the leaves are valued
//!   by a model fitted on self-play ([`crate::learn`]), each seat's
//!   predicted final lead in place of its end-now lead; with `depth=0`
//!   there is no rollout at all.
//!
//! The agent reads nothing but the [`SeatView`] it is given and draws all
//! randomness from its own generator.

mod config;
mod reuse;
mod rollout;
mod search;
mod tree;

pub use config::{MctsConfig, Reward, Rollout, PARAMS};
pub use rollout::sampled_greedy_move;
pub use search::{RootChild, RootStats, SearchResult};
pub use tree::NodeId;

use crate::clock::{Budget, Clock, SearchClock};
use crate::solver;
use crate::spec::AgentKind;
use crate::{Agent, AgentError, AgentRng, Context, Decision, Lifecycle, SearchStats};
use engine::{Action, SeatView};
use rand::{Rng, SeedableRng};
use reuse::LastSearch;
use search::Search;
use std::sync::Arc;
use std::time::Duration;
use tree::{Key, Tree};

/// The `mcts` agent in the spec registry.
pub const KIND: AgentKind = AgentKind {
    name: "mcts",
    params: PARAMS,
    build: |name, params| {
        let config = MctsConfig::from_params(params)?;
        let unsuited = crate::models::eval_unsuited(config.eval.clone());
        Ok(
            crate::spec::Make::new(move || Box::new(MctsAgent::new(name.clone(), config.clone())))
                .unsuited(unsuited),
        )
    },
};

/// The MCTS agent.
#[derive(Clone, Debug)]
pub struct MctsAgent {
    name: String,
    config: MctsConfig,
    /// Its clock and the time its moves of this game took.
    clock: SearchClock,
    /// The search trees, one per thread, kept between searches (their
    /// memory always; their nodes with `reuse`).
    trees: Vec<Tree>,
    /// A spare arena for [`Tree::reroot`].
    spare: Tree,
    /// With `reuse`: the last search of this game, to follow the game from.
    last: Option<LastSearch>,
    /// With `reuse`: the root visits kept from the last search (summed
    /// over the threads) by the last search, `None` if the game could not
    /// be followed to it.
    kept: Option<u32>,
}

impl MctsAgent {
    /// An MCTS agent with `config`, reporting itself as `name`, timed by
    /// the wall clock.
    pub fn new(name: String, config: MctsConfig) -> MctsAgent {
        MctsAgent {
            name,
            config,
            clock: SearchClock::wall(),
            trees: Vec::new(),
            spare: Tree::default(),
            last: None,
            kept: None,
        }
    }

    /// The same agent timed by `clock` (for tests).
    pub fn with_clock(self, clock: Arc<dyn Clock>) -> MctsAgent {
        MctsAgent {
            clock: SearchClock::new(clock),
            ..self
        }
    }

    /// Its settings.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Search the position of `view` (a decision of its seat) within the
    /// per-move budget (the game budget is not charged), on a fresh tree.
    pub fn search(&mut self, view: &SeatView<'_>, rng: &mut AgentRng) -> SearchResult {
        let budget = self
            .clock
            .budget(self.config.limits(), view, self.clock.now(), None);
        self.run(view, rng, &budget, None, None).choose()
    }

    /// One search on this thread, or `threads` searches in parallel with
    /// generators seeded from `rng`, their root statistics merged in
    /// thread order. Each search grows its own tree: the subtree at the
    /// end of `path` from the root of its last search, or a fresh one.
    fn run(
        &mut self,
        view: &SeatView<'_>,
        rng: &mut AgentRng,
        budget: &Budget,
        path: Option<&[Key]>,
        only: Option<&[Action]>,
    ) -> RootStats {
        let cfg = &self.config;
        let threads = cfg.threads.max(1) as usize;
        self.trees.resize_with(threads, Tree::default);
        self.kept = path.map(|_| 0);
        for tree in &mut self.trees {
            match path {
                Some(path) if tree.reroot(path, &mut self.spare) => {
                    let visits = tree.children(NodeId::ROOT).map(|c| tree.node(c).visits);
                    *self.kept.as_mut().expect("a path") += visits.sum::<u32>();
                }
                _ => tree.clear(),
            }
        }
        if threads == 1 {
            return Search::new(cfg, &mut self.trees[0])
                .only(only)
                .run(view, rng, budget);
        }
        let seeds: Vec<u64> = (0..threads).map(|_| rng.r#gen()).collect();
        let search = |tree: &mut Tree, seed: u64| {
            Search::new(cfg, tree)
                .only(only)
                .run(view, &mut AgentRng::seed_from_u64(seed), budget)
        };
        // Operating-system threads, not the rayon pool: a tournament plays
        // its games on that pool, where the searches of one move could run
        // one after the other and miss a shared deadline.
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

    /// With `reuse`: the visits of the root's children the last search
    /// started from (kept from the search before), or `None` if it could
    /// not follow the game.
    pub fn kept_visits(&self) -> Option<u32> {
        self.kept
    }

    /// Choose the move of `view`: from the solver in its reach (no
    /// search statistics then), else by a search on the trees kept at the
    /// end of `path` (or fresh ones), cut at `time_left`; with `only`, a
    /// search of those actions alone (never the solver).
    fn choose(
        &mut self,
        view: &SeatView<'_>,
        rng: &mut AgentRng,
        path: Option<&[Key]>,
        time_left: Option<Duration>,
        only: Option<&[Action]>,
    ) -> Decision {
        self.kept = None;
        if self.config.solver_tiles > 0 && only.is_none() {
            let state = view.determinize(rng);
            if solver::in_reach(&state, self.config.solver_tiles) {
                return Decision::new(solver::solve(&state).1);
            }
        }
        let start = self.clock.now();
        let budget = self
            .clock
            .budget(self.config.limits(), view, start, time_left);
        let stats = self.run(view, rng, &budget, path, only);
        let best = stats.choose();
        self.clock.charge(start);
        Decision::searched(
            best.action,
            SearchStats {
                root_visits: stats
                    .children
                    .iter()
                    .map(|c| (c.action, c.visits))
                    .collect(),
                iterations: stats.iterations,
                value: best.value,
                policy: None,
                full: true,
                root_value: None,
                root_values: stats.children.iter().map(RootChild::value).collect(),
            },
        )
    }
}

impl Agent for MctsAgent {
    fn name(&self) -> &str {
        &self.name
    }

    /// With `reuse` and the game's history, the search starts from the
    /// trees of the last search where the game since can be followed;
    /// else on fresh trees.
    fn decide(&mut self, cx: Context<'_>) -> Result<Decision, AgentError> {
        let (view, rng) = (cx.view, cx.rng);
        let history = cx
            .history
            .filter(|_| self.config.reuse && cx.only.is_none());
        let Some(history) = history else {
            self.last = None;
            return Ok(self.choose(view, rng, None, cx.time_left, cx.only));
        };
        let path = self.last.take().and_then(|l| l.path_to(view, &history));
        let decision = self.choose(view, rng, path.as_deref(), cx.time_left, None);
        if decision.search.is_some() {
            self.last = LastSearch::new(view, &history, decision.action);
        }
        Ok(decision)
    }
}

impl Lifecycle for MctsAgent {
    fn reset(&mut self) {
        self.clock.new_game();
        self.last = None;
        for tree in &mut self.trees {
            tree.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::config::tests::config;
    use super::*;
    use crate::clock::TickClock;
    use engine::{Action, Rules, Seat, State, Tile};
    use rand::SeedableRng;
    use testkit::StateExt;

    #[test]
    fn a_search_runs_its_iterations_and_returns_a_legal_move() {
        let mut state = State::new(Rules::default(), 3, Seat(0));
        state.draw(Tile::D).unwrap();
        for spec in ["mcts:iterations=77", "mcts:iterations=77,pick=0,meeple=2"] {
            let mut agent = MctsAgent::new(spec.into(), config(spec));
            let mut rng = AgentRng::seed_from_u64(1);
            let r = agent.search(&state.view(Seat(0)), &mut rng);
            assert_eq!(r.iterations, 77);
            assert!(r.visits > 0 && r.nodes > 1);
            assert!((0.0..=1.0).contains(&r.value));
            assert_eq!(state.check_action(r.action), Ok(()));
        }
    }

    #[test]
    fn a_time_budget_reads_the_clock_before_every_iteration() {
        // The clock moves 1 ms per reading: 50 ms allow the free first
        // iteration and 49 more, whatever the machine's speed.
        let mut state = State::new(Rules::default(), 2, Seat(0));
        state.draw(Tile::D).unwrap();
        let clock = Arc::new(TickClock::new(Duration::from_millis(1)));
        let mut agent = MctsAgent::new("mcts".into(), config("mcts:time_ms=50,iterations=7"))
            .with_clock(clock.clone());
        let r = agent.search(&state.view(Seat(0)), &mut AgentRng::seed_from_u64(1));
        assert_eq!(r.iterations, 50);
        assert_eq!(clock.readings(), 51);
    }

    #[test]
    fn a_game_budget_is_kept_over_the_whole_game() {
        let game_ms = 600;
        let clock = Arc::new(TickClock::new(Duration::from_millis(1)));
        let mut agent =
            MctsAgent::new("mcts".into(), config("mcts:game_ms=600,depth=1")).with_clock(clock);
        let mut rng = AgentRng::seed_from_u64(4);
        let mut state = State::new(Rules::default(), 2, Seat(0));
        let mut moves = 0;
        while !state.is_over() {
            if state.is_chance() {
                state.apply_chance(&mut rng);
            } else if state.to_play() == Seat(0) {
                let view = state.view(Seat(0));
                let a = agent.decide(Context::new(&view, &mut rng)).unwrap().action;
                state.try_action(a).unwrap();
                moves += 1;
            } else {
                let mv = engine::random_move(&state, &mut rng).unwrap();
                state.play_unchecked(mv);
            }
        }
        // Each move may overrun its share by one reading (1 ms).
        assert!(
            agent.clock.game_spent() <= Duration::from_millis(game_ms + moves),
            "{:?} over {moves} moves",
            agent.clock.game_spent()
        );
        // ... and the budget is used, not hoarded: most of it is spent.
        assert!(agent.clock.game_spent() >= Duration::from_millis(game_ms / 2));
        agent.reset();
        assert_eq!(agent.clock.game_spent(), Duration::ZERO);
    }

    #[test]
    fn a_decision_carries_its_search_and_a_callers_time_limit_cuts_it() {
        let mut state = State::new(Rules::default(), 2, Seat(0));
        state.draw(Tile::D).unwrap();
        let view = state.view(Seat(0));
        let spec = "mcts:iterations=200";
        let clock = Arc::new(TickClock::new(Duration::from_millis(1)));
        let mut agent = MctsAgent::new(spec.into(), config(spec)).with_clock(clock);
        let mut rng = AgentRng::seed_from_u64(2);
        let d = agent.decide(Context::new(&view, &mut rng)).unwrap();
        let search = d.search.as_ref().expect("mcts searches");
        assert_eq!(search.iterations, 200);
        let visits: u32 = search.root_visits.iter().map(|&(_, v)| v).sum();
        assert_eq!(visits, 200, "every iteration passes the root");
        assert!(search.root_visits.iter().any(|&(a, _)| a == d.action));
        assert!((0.0..=1.0).contains(&search.value));
        // 20 ms on a clock moving 1 ms per reading: the first iteration
        // is free, the readings at 1..19 ms allow one each.
        let cx = Context::new(&view, &mut rng).with_time_left(Duration::from_millis(20));
        let d = agent.decide(cx).unwrap();
        assert_eq!(d.search.expect("a search").iterations, 20);
        assert_eq!(state.check_action(d.action), Ok(()));
    }

    #[test]
    fn a_search_of_only_some_actions_visits_only_them_and_measures_their_leads() {
        let mut state = State::new(Rules::default(), 2, Seat(0));
        state.draw(Tile::D).unwrap();
        let view = state.view(Seat(0));
        let legal = state.legal_actions();
        let only = [legal[legal.len() - 1], legal[0]];
        let spec = "mcts:iterations=60";
        let mut agent = MctsAgent::new(spec.into(), config(spec));
        let mut rng = AgentRng::seed_from_u64(3);
        let d = agent
            .decide(Context::new(&view, &mut rng).with_only(&only))
            .unwrap();
        assert!(only.contains(&d.action));
        let s = d.search.expect("a search");
        let mut searched: Vec<Action> = s.root_visits.iter().map(|&(a, _)| a).collect();
        searched.sort_by_key(|a| format!("{a:?}"));
        let mut want = only.to_vec();
        want.sort_by_key(|a| format!("{a:?}"));
        assert_eq!(searched, want);
        assert_eq!(s.root_visits.iter().map(|&(_, v)| v).sum::<u32>(), 60);
        assert_eq!(s.root_values.len(), 2);
        for v in &s.root_values {
            assert!(v.lead.is_some(), "{v:?}");
            assert!((0.0..=1.0).contains(&v.win.expect("a win share")));
        }
        // Without the restriction the search sees the other actions too.
        let d = agent.decide(Context::new(&view, &mut rng)).unwrap();
        assert!(d.search.expect("a search").root_visits.len() > 2);
    }

    #[test]
    fn the_expected_scores_of_a_search_to_the_end_give_its_leads() {
        // With `depth=all` each valuation is a finished game, whose lead
        // is the difference of the final scores: the mean scores must
        // differ by the mean lead, and none is below the score now.
        let state = crate::test_support::random_play_until(2, Rules::default(), 7, |s| {
            s.turns() >= 50 && !s.is_chance()
        });
        let seat = state.to_play();
        let spec = "mcts:iterations=200,depth=all";
        let mut agent = MctsAgent::new(spec.into(), config(spec));
        let mut rng = AgentRng::seed_from_u64(4);
        let d = agent
            .decide(Context::new(&state.view(seat), &mut rng))
            .unwrap();
        let s = d.search.expect("a search");
        let mut checked = 0;
        for v in s.root_values.iter().filter(|v| v.lead.is_some()) {
            let scores = v.scores.expect("expected scores with a lead");
            let lead = scores[seat.index()] - scores[1 - seat.index()];
            assert!((lead - v.lead.unwrap()).abs() < 1e-9, "{v:?}");
            for (i, &expected) in scores.iter().enumerate().take(2) {
                let now = state.score(Seat(i as u8)).total();
                assert!(expected >= f64::from(now) - 1e-9, "{expected} < {now}");
            }
            assert_eq!(scores[2..], [0.0; engine::MAX_PLAYERS - 2]);
            checked += 1;
        }
        assert!(checked > 1);
    }

    #[test]
    fn the_endgame_solver_answers_without_search_statistics() {
        let state = crate::test_support::random_play_until(2, Rules::default(), 5, |s| {
            s.bag().total() == 1 && !s.is_chance()
        });
        let view = state.view(state.to_play());
        let spec = "mcts:iterations=50,solver_tiles=1";
        let mut agent = MctsAgent::new(spec.into(), config(spec));
        let d = agent
            .decide(Context::new(&view, &mut AgentRng::seed_from_u64(1)))
            .unwrap();
        assert_eq!(d.search, None);
        assert_eq!(d.root_visits(), None);
        assert_eq!(state.check_action(d.action), Ok(()));
    }

    /// Samples that reach a node by the same keys may differ in the tiles
    /// left (tiles set aside as unplaceable are drawn without a key), so
    /// Take 2 is a decision in one (bag empty) and a draw in another: the
    /// node has both kinds of children, which once panicked (at the 92nd
    /// of these positions). A small table makes unplaceable tiles common.
    #[test]
    fn take_two_with_an_empty_bag_in_some_samples_does_not_panic() {
        let rules: Rules = "gifts=true,table=5x5".parse().unwrap();
        let spec = "mcts:iterations=500";
        let mut agent = MctsAgent::new(spec.into(), config(spec));
        let positions = (1..)
            .flat_map(|seed| crate::test_support::random_decisions(2, rules, seed, 1))
            .filter(|s| s.legal_actions().len() > 1);
        for (i, state) in positions.take(100).enumerate() {
            let view = state.view(state.to_play());
            let mut rng = AgentRng::seed_from_u64(i as u64);
            let d = agent.decide(Context::new(&view, &mut rng)).unwrap();
            assert_eq!(state.check_action(d.action), Ok(()));
        }
    }

    #[test]
    fn threads_merge_their_root_visits_and_repeat_for_a_seed() {
        let mut state = State::new(Rules::default(), 2, Seat(0));
        state.draw(Tile::D).unwrap();
        let spec = "mcts:iterations=40,threads=3";
        let mut agent = MctsAgent::new(spec.into(), config(spec));
        let mut run = || agent.search(&state.view(Seat(0)), &mut AgentRng::seed_from_u64(9));
        let r = run();
        assert_eq!(r.iterations, 120);
        assert_eq!(r, run());
        assert_eq!(state.check_action(r.action), Ok(()));
    }

    #[test]
    fn merged_root_statistics_sum_per_action() {
        let a = Action::Keep(Tile::A);
        let b = Action::Keep(Tile::B);
        let mut x = RootStats {
            children: vec![RootChild::new(a, 3, 1.5), RootChild::new(b, 2, 2.0)],
            first_untried: None,
            iterations: 5,
            nodes: 9,
        };
        let y = RootStats {
            children: vec![RootChild::new(b, 2, 1.0)],
            first_untried: Some(a),
            iterations: 2,
            nodes: 4,
        };
        x.merge(&y);
        assert_eq!(
            x.children,
            vec![RootChild::new(a, 3, 1.5), RootChild::new(b, 4, 3.0)]
        );
        assert_eq!((x.iterations, x.nodes), (7, 13));
        // b has more visits now; alone, a led.
        assert_eq!(x.choose().action, b);
    }
}
