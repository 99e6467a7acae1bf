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
//! samples a tile with [`State::draw_random`] (unplaceable tiles are set
//! aside as in the rules) and follows the child for that tile. So the tree
//! alternates:
//!
//! - *decision* nodes (the root, and one per drawn tile), whose children are
//!   keyed by the move of the seat to play;
//! - *move* nodes, whose children are keyed by the next tile drawn.
//!
//! Nodes live in one `Vec` indexed by [`NodeId`]. A move node keeps the sum
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
//! - **Move choice**: the most visited child of the root (ties: the higher
//!   mean reward).
//!
//! The agent reads nothing but the [`SeatView`] it is given and draws all
//! randomness from its own generator.

use crate::eval::{advantage, end_now_scores, end_now_scores_after_action};
use crate::greedy::{action_value, move_value};
use crate::spec::{Spec, SpecError};
use crate::{Agent, AgentRng};
use engine::random_move;
use engine::{
    Action, ChanceOutcome, Drawn, Gift, Move, Phase, Rules, Seat, SeatView, State, Tile,
    MAX_PLAYERS,
};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// The parameters of the `mcts` spec, in the order of [`MctsConfig`].
pub const PARAMS: &[&str] = &[
    "iterations",
    "time_ms",
    "c",
    "reward",
    "scale",
    "rollout",
    "k",
    "depth",
    "widen",
    "meeple",
    "pick",
];

/// What a finished rollout is worth to each seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// 1 ahead, ½ level, 0 behind the best other seat (end-now scores).
    Win,
    /// `0.5 + 0.5·tanh(d / scale)` of the end-now advantage `d`.
    Score,
}

/// How rollouts choose moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// A uniformly random legal move ([`engine::random_move`]).
    Random,
    /// The best of `k` random legal moves by the greedy evaluation.
    Greedy,
}

/// The settings of the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations per move (`iterations=`, default 3000). Ignored when
    /// `time_ms` is set.
    pub iterations: u32,
    /// Wall-clock budget per move in milliseconds (`time_ms=`); not
    /// reproducible.
    pub time_ms: Option<u64>,
    /// UCB1 exploration constant (`c=`, default 0.7); rewards are in 0..1.
    pub c: f64,
    /// The reward (`reward=win|score`, default `score`).
    pub reward: Reward,
    /// Points of advantage for a reward of about 0.88 (`scale=`, default
    /// 20); only for `reward=score`.
    pub scale: f64,
    /// The rollout policy (`rollout=greedy|random`, default `greedy`).
    pub rollout: Rollout,
    /// Sampled moves per greedy rollout step (`k=`, default 4).
    pub k: u32,
    /// Rollout turns before the end-now evaluation (`depth=`, default 4;
    /// `depth=all` plays to the end; `None` here).
    pub depth: Option<u32>,
    /// Progressive widening coefficient (`widen=`, default 2; 0 turns it
    /// off: every legal move is a child at once).
    pub widen: f64,
    /// Points each meeple in a seat's supply is worth at the evaluation of
    /// a rollout, times the fraction of the 71 tiles still in the bag
    /// (`meeple=`, default 3; 0 gives plain end-now scores). A meeple kept
    /// back can still score; the end-now score alone values it at nothing,
    /// and without this term the search spends meeples as freely as the
    /// greedy agent (measured: 74.5% → 86.5% against greedy at 1500
    /// iterations, 100 paired games).
    pub meeple: f64,
    /// How inner decision nodes choose their next child (`pick=`, default
    /// 8): the best by the greedy evaluation of `pick` legal moves drawn at
    /// random from those not yet children. With `pick=0` they sort all
    /// their moves by the greedy evaluation when first expanded, as the
    /// root always does (stronger ordering, but it evaluates every move).
    pub pick: u32,
}

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig {
            iterations: 3000,
            time_ms: None,
            c: 0.7,
            reward: Reward::Score,
            scale: 20.0,
            rollout: Rollout::Greedy,
            k: 4,
            depth: Some(4),
            widen: 2.0,
            meeple: 3.0,
            pick: 8,
        }
    }
}

impl MctsConfig {
    /// The configuration of a parsed `mcts:...` spec.
    pub fn from_spec(spec: &Spec<'_>) -> Result<MctsConfig, SpecError> {
        spec.check_known(PARAMS)?;
        let bad = |msg: String| SpecError(format!("agent \"mcts\": {msg}"));
        let mut cfg = MctsConfig::default();
        if let Some(n) = spec.get::<u32>("iterations")? {
            if n == 0 {
                return Err(bad("iterations must be at least 1".into()));
            }
            cfg.iterations = n;
        }
        if let Some(t) = spec.get::<u64>("time_ms")? {
            if t == 0 {
                return Err(bad("time_ms must be at least 1".into()));
            }
            cfg.time_ms = Some(t);
        }
        if let Some(c) = spec.get::<f64>("c")? {
            if !(c >= 0.0 && c.is_finite()) {
                return Err(bad(format!("c must be a finite number >= 0, not {c}")));
            }
            cfg.c = c;
        }
        if let Some(r) = spec.get::<String>("reward")? {
            cfg.reward = match r.as_str() {
                "win" => Reward::Win,
                "score" => Reward::Score,
                _ => return Err(bad(format!("reward must be win or score, not {r:?}"))),
            };
        }
        if let Some(s) = spec.get::<f64>("scale")? {
            if !(s > 0.0 && s.is_finite()) {
                return Err(bad(format!("scale must be a number > 0, not {s}")));
            }
            cfg.scale = s;
        }
        if let Some(r) = spec.get::<String>("rollout")? {
            cfg.rollout = match r.as_str() {
                "greedy" => Rollout::Greedy,
                "random" => Rollout::Random,
                _ => return Err(bad(format!("rollout must be greedy or random, not {r:?}"))),
            };
        }
        if let Some(k) = spec.get::<u32>("k")? {
            if k == 0 {
                return Err(bad("k must be at least 1".into()));
            }
            cfg.k = k;
        }
        if let Some(d) = spec.get::<String>("depth")? {
            cfg.depth = match d.as_str() {
                "all" => None,
                _ => Some(d.parse().map_err(|_| {
                    bad(format!("depth must be a number of turns or all, not {d:?}"))
                })?),
            };
        }
        if let Some(w) = spec.get::<f64>("widen")? {
            if !(w >= 0.0 && w.is_finite()) {
                return Err(bad(format!("widen must be a finite number >= 0, not {w}")));
            }
            cfg.widen = w;
        }
        if let Some(p) = spec.get::<u32>("pick")? {
            cfg.pick = p;
        }
        if let Some(m) = spec.get::<f64>("meeple")? {
            if !m.is_finite() {
                return Err(bad(format!("meeple must be a finite number, not {m}")));
            }
            cfg.meeple = m;
        }
        Ok(cfg)
    }
}

/// The index of a node in the search tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeId(u32);

impl NodeId {
    const ROOT: NodeId = NodeId(0);

    fn index(self) -> usize {
        self.0 as usize
    }
}

/// What leads to a node from its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    /// The root (a decision node).
    Root,
    /// A move node: the action taken.
    Act(Action),
    /// A decision node after a tile draw: the (last) tile drawn.
    Tile(Tile),
    /// A node after a gift card was received: the card.
    Gift(Gift),
}

#[derive(Clone, Debug)]
struct Node {
    key: Key,
    /// Move nodes: the seat that made the move (whose rewards `total` sums).
    seat: Seat,
    visits: u32,
    total: f64,
    children: Vec<NodeId>,
    /// Decision nodes, once expanded: the legal actions not yet children,
    /// the next to add last.
    untried: Vec<Action>,
    expanded: bool,
}

impl Node {
    fn new(key: Key, seat: Seat) -> Node {
        Node {
            key,
            seat,
            visits: 0,
            total: 0.0,
            children: Vec::new(),
            untried: Vec::new(),
            expanded: false,
        }
    }
}

/// What one search found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchResult {
    /// The action chosen.
    pub action: Action,
    /// Iterations run.
    pub iterations: u32,
    /// Nodes in the tree.
    pub nodes: usize,
    /// Visits of the chosen move.
    pub visits: u32,
    /// Its mean reward for the seat to play.
    pub value: f64,
}

/// The MCTS agent.
#[derive(Clone, Debug)]
pub struct MctsAgent {
    name: String,
    config: MctsConfig,
}

impl MctsAgent {
    /// An MCTS agent with `config`, reporting itself as `name`.
    pub fn new(name: String, config: MctsConfig) -> MctsAgent {
        MctsAgent { name, config }
    }

    /// Its settings.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Search the position of `view` (which must be in the place phase).
    pub fn search(&self, view: &SeatView<'_>, rng: &mut AgentRng) -> SearchResult {
        Search::new(&self.config).run(view, rng)
    }
}

impl Agent for MctsAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn select(&mut self, view: &SeatView<'_>, rng: &mut AgentRng) -> Action {
        self.search(view, rng).action
    }
}

/// One search: the tree and the settings.
struct Search<'c> {
    cfg: &'c MctsConfig,
    nodes: Vec<Node>,
    path: Vec<NodeId>,
    actions: Vec<Action>,
    scratch: Vec<(i32, Action)>,
}

impl<'c> Search<'c> {
    fn new(cfg: &'c MctsConfig) -> Search<'c> {
        Search {
            cfg,
            nodes: Vec::new(),
            path: Vec::new(),
            actions: Vec::new(),
            scratch: Vec::new(),
        }
    }

    fn node(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.index()]
    }

    fn add_child(&mut self, parent: NodeId, key: Key, seat: Seat) -> NodeId {
        let id = NodeId(u32::try_from(self.nodes.len()).expect("fewer than 2^32 nodes"));
        self.nodes.push(Node::new(key, seat));
        self.node(parent).children.push(id);
        id
    }

    fn run(mut self, view: &SeatView<'_>, rng: &mut AgentRng) -> SearchResult {
        assert!(
            matches!(view.phase(), Phase::Place(_) | Phase::Choose(..)),
            "search needs a decision of the seat"
        );
        self.nodes.push(Node::new(Key::Root, view.seat()));
        // The root's actions depend only on what the seat sees.
        let state = view.determinize(rng);
        self.expand(NodeId::ROOT, &state, rng);
        let root_moves = self.nodes[0].untried.len();
        let mut iterations = 0;
        if root_moves > 1 {
            let start = Instant::now();
            let deadline = self.cfg.time_ms.map(Duration::from_millis);
            loop {
                match deadline {
                    Some(d) => {
                        if iterations > 0 && start.elapsed() >= d {
                            break;
                        }
                    }
                    None => {
                        if iterations >= self.cfg.iterations {
                            break;
                        }
                    }
                }
                self.iterate(view, rng);
                iterations += 1;
            }
        }
        if self.nodes[0].children.is_empty() {
            let action = *self.nodes[0].untried.last().expect("a legal action");
            return SearchResult {
                action,
                iterations,
                nodes: self.nodes.len(),
                visits: 0,
                value: 0.0,
            };
        }
        let best = self.nodes[0]
            .children
            .iter()
            .map(|&c| &self.nodes[c.index()])
            .max_by(|a, b| {
                a.visits.cmp(&b.visits).then_with(|| {
                    (a.total / a.visits.max(1) as f64)
                        .total_cmp(&(b.total / b.visits.max(1) as f64))
                })
            })
            .expect("children");
        let Key::Act(action) = best.key else {
            unreachable!("root children are actions")
        };
        SearchResult {
            action,
            iterations,
            nodes: self.nodes.len(),
            visits: best.visits,
            value: best.total / best.visits.max(1) as f64,
        }
    }

    /// List the legal moves of decision node `id` in `state`: at the root
    /// (or with `pick=0`) ordered so that the best by the greedy evaluation
    /// is added first, elsewhere as generated (see [`Search::next_child`]).
    fn expand(&mut self, id: NodeId, state: &State, rng: &mut AgentRng) {
        let mut actions = std::mem::take(&mut self.actions);
        actions.clear();
        state.for_each_action(|a| actions.push(a));
        if id != NodeId::ROOT && self.cfg.pick > 0 {
            let node = &mut self.nodes[id.index()];
            node.untried.clear();
            node.untried.extend(actions.iter().copied());
            node.expanded = true;
            self.actions = actions;
            return;
        }
        let mut untried = std::mem::take(&mut self.scratch);
        untried.clear();
        let value = |a: Action| {
            if id == NodeId::ROOT {
                action_value(state, a)
            } else {
                quick_value(state, a)
            }
        };
        untried.extend(actions.iter().map(|&a| (value(a), a)));
        self.actions = actions;
        // Shuffle first so that equal values come in random order.
        untried.shuffle(rng);
        untried.sort_by_key(|&(v, _)| v);
        let node = &mut self.nodes[id.index()];
        node.untried.clear();
        node.untried.extend(untried.iter().map(|&(_, m)| m));
        node.expanded = true;
        self.scratch = untried;
    }

    /// One iteration: select and expand down the tree, roll out, back up.
    fn iterate(&mut self, view: &SeatView<'_>, rng: &mut AgentRng) {
        let mut state = view.determinize(rng);
        self.path.clear();
        let mut id = NodeId::ROOT;
        self.path.push(id);
        loop {
            if state.is_over() {
                break;
            }
            let key = if state.is_chance() {
                match state.apply_chance(rng) {
                    ChanceOutcome::Gift(g) => Key::Gift(g),
                    ChanceOutcome::Tile(_, Drawn::SetAside) if state.is_chance() => continue,
                    ChanceOutcome::Tile(t, _) => Key::Tile(t),
                }
            } else {
                if !self.nodes[id.index()].expanded {
                    self.expand(id, &state, rng);
                }
                let Some((child, new)) = self.select_child(id, &state, rng) else {
                    // Nothing stored here is legal in this determinization:
                    // evaluate from here.
                    break;
                };
                let Key::Act(action) = self.nodes[child.index()].key else {
                    unreachable!("decision children are actions")
                };
                state.play_action_unchecked(action);
                id = child;
                self.path.push(id);
                if new {
                    break;
                }
                continue;
            };
            if state.is_over() {
                break;
            }
            let found = self.nodes[id.index()]
                .children
                .iter()
                .copied()
                .find(|c| self.nodes[c.index()].key == key);
            match found {
                Some(c) => {
                    id = c;
                    self.path.push(id);
                }
                None => {
                    id = self.add_child(id, key, state.to_play());
                    self.path.push(id);
                    break;
                }
            }
        }
        rollout(self.cfg, &mut state, rng);
        let rewards = self.rewards(&state);
        for &n in &self.path {
            let node = &mut self.nodes[n.index()];
            node.visits += 1;
            if matches!(node.key, Key::Act(_)) {
                node.total += rewards[node.seat.index()];
            }
        }
    }

    /// The child of decision node `id` to follow: a new one if progressive
    /// widening allows it (then `true`), else the best by UCB1; `None`
    /// when no action of the node is legal in this iteration's state.
    ///
    /// With The Gifts the determinizations differ in the cards other seats
    /// hold, so a node's actions (stored from the iteration that created
    /// it) may not all be legal now: only the legal ones are considered.
    fn select_child(
        &mut self,
        id: NodeId,
        state: &State,
        rng: &mut AgentRng,
    ) -> Option<(NodeId, bool)> {
        let seat = state.to_play();
        let cfg = self.cfg;
        let varies = state.rules().gifts;
        let legal = |a: Action| !varies || state.check_action(a).is_ok();
        let node = &self.nodes[id.index()];
        let allowed = if cfg.widen > 0.0 {
            (cfg.widen * ((node.visits + 1) as f64).sqrt()).ceil() as usize
        } else {
            usize::MAX
        };
        if node.children.len() < allowed.max(1) && !node.untried.is_empty() {
            if let Some(action) = self.next_child(id, state, rng, &legal) {
                return Some((self.add_child(id, Key::Act(action), seat), true));
            }
        }
        let node = &self.nodes[id.index()];
        let log_n = (node.visits.max(1) as f64).ln();
        let mut best = None;
        for &c in &node.children {
            let ch = &self.nodes[c.index()];
            let Key::Act(action) = ch.key else {
                unreachable!("decision children are actions")
            };
            if !legal(action) {
                continue;
            }
            let n = ch.visits.max(1) as f64;
            let ucb = ch.total / n + cfg.c * (log_n / n).sqrt();
            if best.map_or(true, |(b, _)| ucb > b) {
                best = Some((ucb, c));
            }
        }
        best.map(|(_, c)| (c, false))
    }

    /// Take the action of the next new child of decision node `id` out of
    /// its untried actions: the last legal one if they are sorted (root,
    /// or `pick=0`), else the best by the greedy evaluation of `pick` drawn
    /// at random (the first drawn among equals; illegal ones are skipped
    /// and kept for other determinizations).
    fn next_child(
        &mut self,
        id: NodeId,
        state: &State,
        rng: &mut AgentRng,
        legal: &dyn Fn(Action) -> bool,
    ) -> Option<Action> {
        let pick = self.cfg.pick;
        let untried = &mut self.nodes[id.index()].untried;
        if id == NodeId::ROOT || pick == 0 || untried.len() == 1 {
            let i = untried.iter().rposition(|&a| legal(a))?;
            return Some(untried.remove(i));
        }
        let mut best: Option<(i32, usize)> = None;
        for _ in 0..pick.min(untried.len() as u32) {
            let i = rng.gen_range(0..untried.len());
            if !legal(untried[i]) {
                continue;
            }
            let v = quick_value(state, untried[i]);
            if best.map_or(true, |(b, _)| v > b) {
                best = Some((v, i));
            }
        }
        best.map(|(_, i)| untried.swap_remove(i))
    }

    /// The reward of each seat for the end-now scores of `state`.
    fn rewards(&self, state: &State) -> [f64; MAX_PLAYERS] {
        rewards(self.cfg, &evaluate(self.cfg, state), state.players())
    }
}

/// The value of `state` to each seat: its end-now score plus `cfg.meeple`
/// per meeple in supply, times the fraction of tiles left in the bag.
fn evaluate(cfg: &MctsConfig, state: &State) -> [f64; MAX_PLAYERS] {
    let end_now = end_now_scores(state);
    let mut scores = [0.0; MAX_PLAYERS];
    let left = if state.is_over() {
        0.0
    } else {
        cfg.meeple * state.bag().total() as f64 / 71.0
    };
    for (s, v) in scores.iter_mut().enumerate().take(state.players()) {
        *v = end_now[s] as f64 + left * state.supply(Seat(s as u8)) as f64;
    }
    scores
}

/// The reward of each seat for `scores`.
fn rewards(cfg: &MctsConfig, scores: &[f64; MAX_PLAYERS], players: usize) -> [f64; MAX_PLAYERS] {
    let mut out = [0.0; MAX_PLAYERS];
    for (s, r) in out.iter_mut().enumerate().take(players) {
        let best_other = (0..players)
            .filter(|&o| o != s)
            .map(|o| scores[o])
            .fold(f64::NEG_INFINITY, f64::max);
        let d = scores[s] - best_other;
        *r = match cfg.reward {
            Reward::Win => {
                if d > 0.0 {
                    1.0
                } else if d == 0.0 {
                    0.5
                } else {
                    0.0
                }
            }
            Reward::Score => 0.5 + 0.5 * (d / cfg.scale).tanh(),
        };
    }
    out
}

/// Play `cfg.depth` turns (or to the end) of `state` with random draws and
/// the rollout policy.
fn rollout<R: Rng + ?Sized>(cfg: &MctsConfig, state: &mut State, rng: &mut R) {
    let mut turns = 0u32;
    loop {
        match state.phase() {
            Phase::Over => return,
            Phase::Draw => {
                if cfg.depth.is_some_and(|d| turns >= d) {
                    return;
                }
                state.apply_chance(rng);
            }
            Phase::DrawSecond(_) | Phase::DrawGift => {
                state.apply_chance(rng);
            }
            Phase::Choose(a, b) => {
                let keep = if rng.gen_bool(0.5) { a } else { b };
                state.play_action_unchecked(Action::Keep(keep));
            }
            Phase::Place(_) => {
                let mv = match cfg.rollout {
                    Rollout::Random => random_move(state, rng),
                    Rollout::Greedy => sampled_greedy_move(state, cfg.k, rng),
                }
                .expect("a drawn tile is placeable");
                state.play_unchecked(mv);
                turns += 1;
            }
        }
    }
}

/// A one-ply value of `action` for the seat to play: [`move_value`] for a
/// placement, else the end-now advantage right after the action.
fn quick_value(state: &State, action: Action) -> i32 {
    match action {
        Action::Place(m) => move_value(state, m),
        _ => advantage(
            &end_now_scores_after_action(state, action),
            state.players(),
            state.to_play(),
        ),
    }
}

/// The best of `k` uniformly random legal moves by the greedy evaluation
/// (the first sampled among equals); `None` outside the place phase.
pub fn sampled_greedy_move<R: Rng + ?Sized>(state: &State, k: u32, rng: &mut R) -> Option<Move> {
    let mut best: Option<(i32, Move)> = None;
    for _ in 0..k {
        let mv = random_move(state, rng)?;
        let v = move_value(state, mv);
        if best.map_or(true, |(b, _)| v > b) {
            best = Some((v, mv));
        }
    }
    best.map(|(_, m)| m)
}

/// MCTS speed on one thread, for `carcassonne bench`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsSpeed {
    /// Iterations per second from the first move of a 2-seat game.
    pub opening: f64,
    /// Iterations per second from a 2-seat position after 30 turns.
    pub midgame: f64,
}

/// Measure the iterations per second of an MCTS search with `config`
/// (its `time_ms` is ignored: each search runs `config.iterations`) on
/// one thread, from the opening and from a mid-game position (30 turns of
/// random play with deck and moves from `seed`), 2 seats, default rules.
pub fn mcts_iterations_per_s(config: &MctsConfig, seed: u64) -> MctsSpeed {
    let cfg = MctsConfig {
        time_ms: None,
        ..*config
    };
    let mut rng = AgentRng::seed_from_u64(seed);
    let mut state = State::new(Rules::default(), 2, Seat(0));
    state.draw_random(&mut rng);
    let opening = iterations_per_s(&cfg, &state, &mut rng);
    while state.turns() < 30 || !matches!(state.phase(), Phase::Place(_)) {
        match state.phase() {
            Phase::Place(_) => {
                let mv = random_move(&state, &mut rng).expect("placeable");
                state.play_unchecked(mv);
            }
            Phase::Over => unreachable!("a game lasts more than 30 turns"),
            _ => {
                state.apply_chance(&mut rng);
            }
        }
    }
    let midgame = iterations_per_s(&cfg, &state, &mut rng);
    MctsSpeed { opening, midgame }
}

fn iterations_per_s(cfg: &MctsConfig, state: &State, rng: &mut AgentRng) -> f64 {
    let view = state.view(state.to_play());
    let start = Instant::now();
    let result = Search::new(cfg).run(&view, rng);
    result.iterations as f64 / start.elapsed().as_secs_f64().max(1e-9)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(spec: &str) -> MctsConfig {
        MctsConfig::from_spec(&Spec::parse(spec).unwrap()).unwrap()
    }

    #[test]
    fn specs_set_the_config() {
        assert_eq!(config("mcts"), MctsConfig::default());
        let c = config("mcts:iterations=10,c=1.5,reward=win,rollout=random,depth=all,widen=0");
        assert_eq!(c.iterations, 10);
        assert_eq!(c.c, 1.5);
        assert_eq!(c.reward, Reward::Win);
        assert_eq!(c.rollout, Rollout::Random);
        assert_eq!(c.depth, None);
        assert_eq!(c.widen, 0.0);
        assert_eq!(config("mcts:time_ms=20").time_ms, Some(20));
        assert_eq!(config("mcts:depth=3,k=2").depth, Some(3));
    }

    #[test]
    fn rewards_rank_each_seat_against_the_best_other() {
        let win = config("mcts:reward=win");
        let scores = [10.0, 20.0, 20.0, 5.0, 0.0, 0.0];
        assert_eq!(rewards(&win, &scores, 4)[..4], [0.0, 0.5, 0.5, 0.0]);
        let score = config("mcts:reward=score,scale=10");
        let r = rewards(&score, &[30.0, 20.0, 0.0, 0.0, 0.0, 0.0], 2);
        assert!((r[0] - (0.5 + 0.5 * 1f64.tanh())).abs() < 1e-12);
        assert!((r[0] + r[1] - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_search_runs_its_iterations_and_returns_a_legal_move() {
        let mut state = State::new(Rules::default(), 3, Seat(0));
        state.draw(Tile::D).unwrap();
        for spec in ["mcts:iterations=77", "mcts:iterations=77,pick=0,meeple=2"] {
            let agent = MctsAgent::new(spec.into(), config(spec));
            let mut rng = AgentRng::seed_from_u64(1);
            let r = agent.search(&state.view(Seat(0)), &mut rng);
            assert_eq!(r.iterations, 77);
            assert!(r.visits > 0 && r.nodes > 1);
            assert!((0.0..=1.0).contains(&r.value));
            assert_eq!(state.check_action(r.action), Ok(()));
        }
    }

    #[test]
    fn the_speed_helper_measures_both_positions() {
        let speed = mcts_iterations_per_s(&config("mcts:iterations=30"), 3);
        assert!(speed.opening > 0.0 && speed.midgame > 0.0, "{speed:?}");
    }
}
