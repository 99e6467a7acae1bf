//! The `az` search: PUCT over one tree of decision, move and chance
//! nodes, leaves valued by an [`Evaluator`](super::Evaluator) in batches
//! collected with virtual loss, values backed up per seat.
//!
//! One *iteration* is one descent from the root to a leaf and one backup.
//! Each descent starts from a fresh determinization of the seat's view,
//! samples the tile and gift draws it meets (children keyed by the
//! outcome, as in `mcts`), and at decision nodes takes the child with the
//! highest `Q + c_puct · P · sqrt(N) / (1 + n)` for the seat to play
//! there (an unvisited child valued at the mean of its visited
//! siblings). It stops at a decision node not yet evaluated (or, where the
//! determinizations differ in what other seats hold, one that has legal
//! actions in this sample that it has not seen yet), or at the end of
//! the game. Descents are collected `batch` at a time; each leaves a
//! *virtual loss* on its path (one visit worth −1 to the mover until it
//! is backed up), so the next descents of the batch go elsewhere. Then
//! the evaluator is called once for the batch's leaves, each leaf gets a
//! child per legal action with its prior, and each path is backed up with
//! its leaf's values: every move node adds the value of the seat that
//! made the move. With `expand=k` a decision node gets its children only
//! on its `k`-th visit: the visits before ask the evaluator for the
//! position's values alone (no legal actions, no priors) and back them
//! up, so the many leaves a search reaches once cost no policy.

use super::config::{AzConfig, Root};
use super::gumbel::{self, Halving, Visited};
use super::noise;
use crate::clock::Budget;
use crate::evaluator::terminal_values;
use crate::evaluator::{EvalRequest, Evaluation};
use crate::AgentRng;
use engine::{Action, ChanceOutcome, Drawn, Gift, Phase, Seat, SeatView, State, Tile, MAX_PLAYERS};
use rand::seq::SliceRandom;

/// The index of a node in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct NodeId(u32);

impl NodeId {
    const ROOT: NodeId = NodeId(0);
    const NONE: NodeId = NodeId(u32::MAX);
}

/// What leads to a node from its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    /// The root (a decision node).
    Root,
    /// A move node: the action taken (also the decision node of a
    /// decision that follows without chance, e.g. placing after a gift).
    Act(Action),
    /// A decision node after a tile draw: the tile drawn.
    Tile(Tile),
    /// A node after a gift card was received: the card.
    Gift(Gift),
}

/// One node of the tree.
#[derive(Clone, Debug)]
struct Node {
    key: Key,
    /// Move nodes: the seat that made the move (whose values `total` sums).
    seat: Seat,
    /// Descents backed up through this node.
    visits: u32,
    /// Descents through this node waiting for their leaf's evaluation
    /// (each counts as a visit of value −1: the virtual loss).
    pending: u32,
    /// Move nodes: the sum of the mover's values.
    total: f64,
    /// Move nodes: the prior of the move at its parent.
    prior: f32,
    /// Decision nodes: evaluated, with children for the legal actions of
    /// the samples seen here.
    expanded: bool,
    first_child: NodeId,
    last_child: NodeId,
    next_sibling: NodeId,
}

/// The arena of one search, kept by the agent between searches.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    nodes: Vec<Node>,
}

impl Tree {
    fn start(&mut self, seat: Seat) {
        self.nodes.clear();
        self.push(Key::Root, seat, 0.0);
    }

    fn push(&mut self, key: Key, seat: Seat, prior: f32) -> NodeId {
        let id = NodeId(u32::try_from(self.nodes.len()).expect("fewer than 2^32 nodes"));
        assert!(id != NodeId::NONE, "fewer than 2^32 - 1 nodes");
        self.nodes.push(Node {
            key,
            seat,
            visits: 0,
            pending: 0,
            total: 0.0,
            prior,
            expanded: false,
            first_child: NodeId::NONE,
            last_child: NodeId::NONE,
            next_sibling: NodeId::NONE,
        });
        id
    }

    fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0 as usize]
    }

    fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.0 as usize]
    }

    /// Append a child reached by `key` to `parent`'s children.
    fn add_child(&mut self, parent: NodeId, key: Key, seat: Seat, prior: f32) -> NodeId {
        let id = self.push(key, seat, prior);
        let p = self.node_mut(parent);
        let last = std::mem::replace(&mut p.last_child, id);
        if last == NodeId::NONE {
            p.first_child = id;
        } else {
            self.node_mut(last).next_sibling = id;
        }
        id
    }

    /// The children of `id`, in the order they were added.
    fn children(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let mut next = self.node(id).first_child;
        std::iter::from_fn(move || {
            (next != NodeId::NONE).then(|| {
                let c = next;
                next = self.node(c).next_sibling;
                c
            })
        })
    }

    fn child(&self, id: NodeId, key: Key) -> Option<NodeId> {
        self.children(id).find(|&c| self.node(c).key == key)
    }

    /// Give decision node `id` a child for each of `actions` it does not
    /// have yet, with its prior, in a random order (ties in the search
    /// go to the first child, so they are broken at random, the same way
    /// for the same generator), and mark it evaluated.
    fn expand(
        &mut self,
        id: NodeId,
        seat: Seat,
        actions: &[Action],
        priors: &[f32],
        rng: &mut AgentRng,
    ) {
        // The actions it has children for already, sorted (none the
        // first time).
        let mut known: Vec<Action> = self
            .children(id)
            .filter_map(|c| match self.node(c).key {
                Key::Act(a) => Some(a),
                _ => None,
            })
            .collect();
        known.sort_unstable();
        let mut order: Vec<usize> = (0..actions.len().min(priors.len())).collect();
        order.shuffle(rng);
        for i in order {
            let a = actions[i];
            if known.binary_search(&a).is_err() {
                self.add_child(id, Key::Act(a), seat, priors[i]);
            }
        }
        self.node_mut(id).expanded = true;
    }

    /// Back up `values` along `path`: a visit for every node (taking back
    /// its virtual loss if `pending`), the mover's value for move nodes.
    fn backup(&mut self, path: &[NodeId], values: &[f64; MAX_PLAYERS], pending: bool) {
        for &n in path {
            let node = self.node_mut(n);
            node.visits += 1;
            if pending {
                node.pending -= 1;
            }
            if matches!(node.key, Key::Act(_)) {
                node.total += values[node.seat.index()];
            }
        }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// No node (not even a root).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// What one search leaves at its root, to choose the move from (and to
/// merge with other searches of the same position).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RootStats {
    /// Each legal action at the root, in the search's order (random, from
    /// the agent's generator): the action, its visits, the sum of its
    /// values for the seat to play, and its prior (after noise).
    pub children: Vec<(Action, u32, f64, f32)>,
    /// Iterations run.
    pub iterations: u32,
    /// Nodes in the tree(s).
    pub nodes: usize,
    /// Calls of the evaluator (the root's included).
    pub batches: u32,
    /// `root=gumbel`: the improved policy over [`RootStats::children`]
    /// (in their order; empty for `root=puct`).
    pub improved: Vec<f32>,
    /// `root=gumbel`: the index in [`RootStats::children`] of the action
    /// sequential halving left (`None` for `root=puct`).
    pub chosen: Option<usize>,
}

impl RootStats {
    /// Add the statistics of another search of the same position:
    /// visits and values summed per action (root parallelism); the
    /// priors are the first search's.
    pub fn merge(&mut self, other: &RootStats) {
        for &(action, visits, total, prior) in &other.children {
            match self.children.iter_mut().find(|c| c.0 == action) {
                Some(c) => {
                    c.1 += visits;
                    c.2 += total;
                }
                None => self.children.push((action, visits, total, prior)),
            }
        }
        self.iterations += other.iterations;
        self.nodes += other.nodes;
        self.batches += other.batches;
        if self.improved.is_empty() {
            self.improved.clone_from(&other.improved);
            self.chosen = other.chosen;
        }
    }

    /// The index in [`RootStats::children`] of the most visited action;
    /// ties go to the higher mean value, then the higher prior, then the
    /// first listed (a random order). `None` without children.
    pub fn best(&self) -> Option<usize> {
        let mean = |&(_, v, t, _): &(Action, u32, f64, f32)| t / f64::from(v.max(1));
        let mut best: Option<usize> = None;
        for (i, c) in self.children.iter().enumerate() {
            let better = match best {
                None => true,
                Some(b) => {
                    let b = &self.children[b];
                    (c.1, mean(c), c.3) > (b.1, mean(b), b.3)
                }
            };
            if better {
                best = Some(i);
            }
        }
        best
    }
}

/// One descent's scratch: its copy of the position, its path and the
/// legal actions of its leaf.
struct Slot {
    state: State,
    path: Vec<NodeId>,
    actions: Vec<Action>,
    /// The same, sorted (where determinizations vary).
    sorted: Vec<Action>,
    /// Whether each child of the node being passed is legal in the
    /// sample (where determinizations vary).
    flags: Vec<bool>,
    /// Waiting for the evaluation of its leaf.
    waiting: bool,
    /// The leaf is to be valued alone, not expanded (a visit before
    /// [`AzConfig::expand`]).
    value_only: bool,
}

/// How a descent ended.
enum Descent {
    /// At the end of the game: backed up already.
    Over,
    /// At a leaf to evaluate (the slot's state and actions).
    Leaf,
}

/// One search: the settings, the tree it grows and its scratch.
pub(crate) struct Search<'c, 't> {
    cfg: &'c AzConfig,
    tree: &'t mut Tree,
    slots: Vec<Slot>,
    /// Determinizations may differ in what the seats can play (The Gifts,
    /// hidden hands): only legal children are considered.
    varies: bool,
    /// The root child the next descent must take (`root=gumbel`), or
    /// [`NodeId::NONE`] for PUCT's choice.
    forced: NodeId,
}

impl<'c, 't> Search<'c, 't> {
    /// A search growing `tree` (cleared first).
    pub(crate) fn new(cfg: &'c AzConfig, tree: &'t mut Tree) -> Search<'c, 't> {
        Search {
            cfg,
            tree,
            slots: Vec::new(),
            varies: false,
            forced: NodeId::NONE,
        }
    }

    /// Search the decision of `view`'s seat within `budget`; `planned`
    /// is the number of iterations the Gumbel root plans its halving for
    /// (the budget's, or `iterations=` under a time budget).
    pub(crate) fn run(
        mut self,
        view: &SeatView<'_>,
        rng: &mut AgentRng,
        budget: &Budget,
        planned: u32,
    ) -> RootStats {
        assert!(
            matches!(
                view.phase(),
                Phase::Place(_) | Phase::Choose(..) | Phase::PlaceHand
            ),
            "search needs a decision of the seat"
        );
        let rules = view.rules();
        self.varies = rules.gifts || (rules.hand > 0 && !rules.hand_visible);
        self.tree.start(view.seat());
        // The root's actions depend only on what the seat sees.
        let root = view.determinize(rng);
        let actions = root.legal_actions();
        let evaluation = self.evaluate_one(&root, &actions);
        let mut priors = evaluation.priors;
        if self.cfg.noise > 0.0 {
            noise::add_dirichlet(rng, &mut priors, self.cfg.alpha, self.cfg.noise);
        }
        self.tree
            .expand(NodeId::ROOT, root.to_play(), &actions, &priors, rng);
        let mut stats = RootStats {
            batches: 1,
            ..RootStats::default()
        };
        let batch = self.cfg.batch.max(1) as usize;
        self.slots = (0..batch)
            .map(|_| Slot {
                state: root.clone(),
                path: Vec::new(),
                actions: Vec::new(),
                sorted: Vec::new(),
                flags: Vec::new(),
                waiting: false,
                value_only: false,
            })
            .collect();
        let root_value = f64::from(
            evaluation
                .values
                .get(root.to_play().index())
                .copied()
                .unwrap_or(0.0),
        );
        let mut done = 0;
        if self.cfg.root == Root::Gumbel && actions.len() > 1 {
            let (d, chosen) = self.halve(view, rng, budget, planned, root_value, &mut stats);
            done = d;
            stats.chosen = Some(chosen);
        } else if actions.len() > 1 {
            // The budget is asked once before every descent.
            let mut more = true;
            while more {
                for i in 0..batch {
                    more = budget.allows(done);
                    if !more {
                        break;
                    }
                    self.descend(i, view, rng);
                    done += 1;
                }
                if self.evaluate_batch(rng) {
                    stats.batches += 1;
                }
            }
        }
        let tree = &*self.tree;
        stats.children = tree
            .children(NodeId::ROOT)
            .map(|c| {
                let ch = tree.node(c);
                let Key::Act(action) = ch.key else {
                    unreachable!("root children are actions")
                };
                (action, ch.visits, ch.total, ch.prior)
            })
            .collect();
        stats.iterations = done;
        stats.nodes = tree.len();
        if self.cfg.root == Root::Gumbel {
            let (priors, visited) = root_children(tree);
            stats.improved = gumbel::improved_policy(
                &priors,
                &visited,
                root_value,
                self.cfg.c_visit,
                self.cfg.c_scale,
            );
        }
        stats
    }

    /// The Gumbel root (see `gumbel.rs`): sequential halving of
    /// `planned` iterations among `gumbel_m` sampled root actions, the
    /// descents of a phase in batches, cut where `budget` ends. The
    /// iterations run and the index of the root child chosen.
    fn halve(
        &mut self,
        view: &SeatView<'_>,
        rng: &mut AgentRng,
        budget: &Budget,
        planned: u32,
        root_value: f64,
        stats: &mut RootStats,
    ) -> (u32, usize) {
        let cfg = self.cfg;
        let ids: Vec<NodeId> = self.tree.children(NodeId::ROOT).collect();
        let (priors, mut visited) = root_children(self.tree);
        let mut halving = Halving::new(
            &priors,
            cfg.gumbel_m as usize,
            planned,
            cfg.gumbel_noise,
            rng,
        );
        let batch = self.slots.len();
        let mut done = 0;
        let mut out_of_budget = false;
        while !halving.is_over() && !out_of_budget {
            let len = halving.phase_len();
            let left = halving.left().len();
            let mut spent = 0;
            let mut slot = 0;
            while spent < len {
                if !budget.allows(done) {
                    out_of_budget = true;
                    break;
                }
                self.forced = ids[halving.left()[spent as usize % left]];
                self.descend(slot, view, rng);
                done += 1;
                spent += 1;
                slot += 1;
                if slot == batch {
                    stats.batches += u32::from(self.evaluate_batch(rng));
                    slot = 0;
                }
            }
            stats.batches += u32::from(self.evaluate_batch(rng));
            for (v, &id) in visited.iter_mut().zip(&ids) {
                let n = self.tree.node(id);
                *v = Visited {
                    visits: n.visits,
                    total: n.total,
                };
            }
            if out_of_budget {
                halving.rank(&priors, &visited, root_value, cfg.c_visit, cfg.c_scale);
            } else {
                halving.end_phase(
                    spent,
                    &priors,
                    &visited,
                    root_value,
                    cfg.c_visit,
                    cfg.c_scale,
                );
            }
        }
        self.forced = NodeId::NONE;
        (done, halving.chosen())
    }

    /// The evaluation of one position (the root).
    fn evaluate_one(&self, state: &State, actions: &[Action]) -> Evaluation {
        let request = EvalRequest {
            view: state.view(state.to_play()),
            actions,
        };
        let mut out = self.cfg.evaluator.evaluate(&[request]);
        check(&out, &[request]);
        out.pop().expect("one evaluation")
    }

    /// One descent into slot `i`: from a fresh determinization of `view`
    /// down to a leaf, leaving a virtual loss on the path; a finished game
    /// is backed up at once.
    fn descend(&mut self, i: usize, view: &SeatView<'_>, rng: &mut AgentRng) {
        let slot = &mut self.slots[i];
        let cfg = self.cfg;
        match walk(self.tree, cfg, self.varies, self.forced, slot, view, rng) {
            Descent::Over => {
                let values = terminal_values(&slot.state);
                self.tree.backup(&slot.path, &values, false);
            }
            Descent::Leaf => {
                for &n in &slot.path {
                    self.tree.node_mut(n).pending += 1;
                }
                slot.waiting = true;
            }
        }
    }

    /// Evaluate the leaves waiting in the slots in one call, expand them
    /// and back up their paths, in slot order. `false` if none waited.
    fn evaluate_batch(&mut self, rng: &mut AgentRng) -> bool {
        let requests: Vec<EvalRequest<'_>> = self
            .slots
            .iter()
            .filter(|s| s.waiting)
            .map(|s| EvalRequest {
                view: s.state.view(s.state.to_play()),
                actions: &s.actions,
            })
            .collect();
        if requests.is_empty() {
            return false;
        }
        let out = self.cfg.evaluator.evaluate(&requests);
        check(&out, &requests);
        drop(requests);
        let waiting = self.slots.iter_mut().filter(|s| s.waiting);
        for (slot, e) in waiting.zip(out) {
            let leaf = *slot.path.last().expect("a path");
            if !slot.value_only {
                self.tree
                    .expand(leaf, slot.state.to_play(), &slot.actions, &e.priors, rng);
            }
            let mut values = [0.0; MAX_PLAYERS];
            for (v, &x) in values.iter_mut().zip(&e.values) {
                *v = f64::from(x);
            }
            self.tree.backup(&slot.path, &values, true);
            slot.waiting = false;
        }
        true
    }
}

/// The priors and the visits and values of the root's children, in
/// their order.
fn root_children(tree: &Tree) -> (Vec<f32>, Vec<Visited>) {
    tree.children(NodeId::ROOT)
        .map(|c| {
            let n = tree.node(c);
            (
                n.prior,
                Visited {
                    visits: n.visits,
                    total: n.total,
                },
            )
        })
        .unzip()
}

/// Walk down `tree` from the root on the slot's state, a fresh
/// determinization of `view`, to a leaf (through root child `forced`
/// unless it is [`NodeId::NONE`]); the path and (at a leaf to evaluate)
/// the legal actions go into the slot.
fn walk(
    tree: &mut Tree,
    cfg: &AzConfig,
    varies: bool,
    forced: NodeId,
    slot: &mut Slot,
    view: &SeatView<'_>,
    rng: &mut AgentRng,
) -> Descent {
    let state = &mut slot.state;
    slot.value_only = false;
    view.determinize_into(rng, state);
    slot.path.clear();
    slot.path.push(NodeId::ROOT);
    let mut id = NodeId::ROOT;
    loop {
        if state.is_over() {
            return Descent::Over;
        }
        if state.is_chance() {
            let key = match state.apply_chance(rng) {
                ChanceOutcome::Gift(g) => Key::Gift(g),
                ChanceOutcome::Tile(_, Drawn::SetAside | Drawn::Returned | Drawn::Start)
                    if state.is_chance() =>
                {
                    continue
                }
                ChanceOutcome::Tile(t, _) => Key::Tile(t),
            };
            if state.is_over() {
                return Descent::Over;
            }
            id = match tree.child(id, key) {
                Some(c) => c,
                None => tree.add_child(id, key, state.to_play(), 0.0),
            };
            slot.path.push(id);
            continue;
        }
        // A decision of the seat to play.
        if !tree.node(id).expanded {
            slot.actions.clear();
            // Visits before the one that expands it value it alone.
            let node = tree.node(id);
            if node.visits + node.pending + 1 < cfg.expand {
                slot.value_only = true;
            } else {
                state.for_each_action(|a| slot.actions.push(a));
            }
            return Descent::Leaf;
        }
        // Where samples differ in what can be played, the legal actions
        // of this one, sorted (the root's are the same in every sample).
        let legal = if varies && id != NodeId::ROOT {
            slot.actions.clear();
            state.for_each_action(|a| slot.actions.push(a));
            slot.sorted.clear();
            slot.sorted.extend_from_slice(&slot.actions);
            slot.sorted.sort_unstable();
            slot.flags.clear();
            slot.flags.extend(tree.children(id).map(|c| {
                matches!(tree.node(c).key, Key::Act(a) if slot.sorted.binary_search(&a).is_ok())
            }));
            let known = slot.flags.iter().filter(|&&f| f).count();
            if known < slot.actions.len() {
                // Legal in this sample, never seen at this node: evaluate
                // it again, with this sample, for their priors.
                return Descent::Leaf;
            }
            Some(&slot.flags[..])
        } else {
            None
        };
        let child = if id == NodeId::ROOT && forced != NodeId::NONE {
            forced
        } else {
            select(tree, cfg.c_puct, legal, id)
        };
        let Key::Act(action) = tree.node(child).key else {
            unreachable!("decision children are actions")
        };
        state.play_action_unchecked(action);
        id = child;
        slot.path.push(id);
    }
}

/// The child of decision node `id` with the highest PUCT score for the
/// seat to play (the first among equals); given which children are
/// legal in the sample (in child order), only those, their priors
/// renormalised. An unvisited child
/// is valued at the mean value of the node's visited children for that
/// seat (0 before any), the "first play urgency" of the parent's value.
fn select(tree: &Tree, c_puct: f64, legal: Option<&[bool]>, id: NodeId) -> NodeId {
    let varies = legal.is_some();
    let legal = |i: usize| legal.is_none_or(|l| l[i]);
    let node = tree.node(id);
    let parent = f64::from(node.visits + node.pending).max(1.0).sqrt();
    // Over the legal children: their priors, and their values and visits
    // (a pending descent counts as a visit worth −1, the virtual loss).
    let (mut prior_sum, mut value_sum, mut visit_sum) = (0.0, 0.0, 0.0);
    for (i, c) in tree.children(id).enumerate() {
        let ch = tree.node(c);
        if legal(i) {
            prior_sum += f64::from(ch.prior);
            value_sum += ch.total - f64::from(ch.pending);
            visit_sum += f64::from(ch.visits + ch.pending);
        }
    }
    let prior_scale = if varies && prior_sum > 0.0 {
        1.0 / prior_sum
    } else {
        1.0
    };
    let fpu = if visit_sum > 0.0 {
        value_sum / visit_sum
    } else {
        0.0
    };
    let mut best: Option<(f64, NodeId)> = None;
    for (i, c) in tree.children(id).enumerate() {
        let ch = tree.node(c);
        if !legal(i) {
            continue;
        }
        let n = f64::from(ch.visits + ch.pending);
        let q = if n > 0.0 {
            (ch.total - f64::from(ch.pending)) / n
        } else {
            fpu
        };
        let u = c_puct * f64::from(ch.prior) * prior_scale * parent / (1.0 + n);
        if best.is_none_or(|(b, _)| q + u > b) {
            best = Some((q + u, c));
        }
    }
    best.expect("a legal child").1
}

/// Panic with a clear message if an evaluator broke its contract.
fn check(out: &[Evaluation], requests: &[EvalRequest<'_>]) {
    assert_eq!(
        out.len(),
        requests.len(),
        "the evaluator answered {} positions of {}",
        out.len(),
        requests.len()
    );
    for (e, r) in out.iter().zip(requests) {
        assert!(
            e.priors.len() == r.actions.len() && e.values.len() >= r.view.players(),
            "the evaluator gave {} priors for {} actions and {} values for {} seats",
            e.priors.len(),
            r.actions.len(),
            e.values.len(),
            r.view.players()
        );
    }
}
