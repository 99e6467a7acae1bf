//! The `mcts` search tree: selection with progressive widening,
//! expansion ordered by the greedy evaluation, chance nodes for the tile
//! and gift draws, and the backup of each seat's reward.

use super::config::MctsConfig;
use super::rollout::{evaluate, quick_value, reward, rewards, rollout};
use crate::clock::Budget;
use crate::eval::{advantage, end_now_scores};
use crate::greedy::action_value;
use crate::AgentRng;
use engine::{Action, ChanceOutcome, Drawn, Gift, Phase, Seat, SeatView, State, Tile, MAX_PLAYERS};
use rand::seq::SliceRandom;
use rand::Rng;

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
    /// Move nodes under `ismcts`: how often the parent was visited with
    /// this action legal (availability; else unused).
    avail: u32,
    /// Move nodes with progressive bias: `tanh(g / scale)` of the gain `g`
    /// in end-now advantage the move makes at once (else 0).
    prior: f64,
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
            avail: 0,
            prior: 0.0,
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

/// What one search leaves at its root, to choose the move from (and to
/// merge with other searches of the same position).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RootStats {
    /// Each child of the root: its action, visits and total reward.
    pub children: Vec<(Action, u32, f64)>,
    /// The best untried action by the ordering, if any is left.
    pub first_untried: Option<Action>,
    /// Iterations run.
    pub iterations: u32,
    /// Nodes in the tree.
    pub nodes: usize,
}

impl RootStats {
    /// Add the statistics of another search of the same position: visits
    /// and rewards per action are summed (root parallelism).
    pub fn merge(&mut self, other: &RootStats) {
        for &(action, visits, total) in &other.children {
            match self.children.iter_mut().find(|c| c.0 == action) {
                Some(c) => {
                    c.1 += visits;
                    c.2 += total;
                }
                None => self.children.push((action, visits, total)),
            }
        }
        self.first_untried = self.first_untried.or(other.first_untried);
        self.iterations += other.iterations;
        self.nodes += other.nodes;
    }

    /// The most visited action (ties: the higher mean reward, then the
    /// first listed); with no children, the best untried action.
    pub fn choose(&self) -> SearchResult {
        let mean = |&(_, v, t): &(Action, u32, f64)| t / v.max(1) as f64;
        let best = self.children.iter().reduce(|a, b| {
            if (b.1, mean(b)) > (a.1, mean(a)) {
                b
            } else {
                a
            }
        });
        match best {
            Some(b) => SearchResult {
                action: b.0,
                iterations: self.iterations,
                nodes: self.nodes,
                visits: b.1,
                value: mean(b),
            },
            None => SearchResult {
                action: self.first_untried.expect("a legal action"),
                iterations: self.iterations,
                nodes: self.nodes,
                visits: 0,
                value: 0.0,
            },
        }
    }
}

/// One search: the tree and the settings.
pub(crate) struct Search<'c> {
    cfg: &'c MctsConfig,
    nodes: Vec<Node>,
    path: Vec<NodeId>,
    actions: Vec<Action>,
    scratch: Vec<(i32, Action)>,
}

impl<'c> Search<'c> {
    pub(crate) fn new(cfg: &'c MctsConfig) -> Search<'c> {
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

    pub(crate) fn run(
        mut self,
        view: &SeatView<'_>,
        rng: &mut AgentRng,
        budget: &Budget,
    ) -> RootStats {
        assert!(
            matches!(
                view.phase(),
                Phase::Place(_) | Phase::Choose(..) | Phase::PlaceHand
            ),
            "search needs a decision of the seat"
        );
        self.nodes.push(Node::new(Key::Root, view.seat()));
        // The root's actions depend only on what the seat sees.
        let state = view.determinize(rng);
        self.expand(NodeId::ROOT, &state, rng);
        let root_moves = self.nodes[0].untried.len();
        let mut iterations = 0;
        if root_moves > 1 {
            while budget.allows(iterations) {
                self.iterate(view, rng);
                iterations += 1;
            }
        }
        let root = &self.nodes[0];
        RootStats {
            children: root
                .children
                .iter()
                .map(|&c| {
                    let ch = &self.nodes[c.index()];
                    let Key::Act(action) = ch.key else {
                        unreachable!("root children are actions")
                    };
                    (action, ch.visits, ch.total)
                })
                .collect(),
            first_untried: root.untried.last().copied(),
            iterations,
            nodes: self.nodes.len(),
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
        let observer = view.seat();
        let hidden_hands = state.rules().hand > 0 && !state.rules().hand_visible;
        self.path.clear();
        let mut id = NodeId::ROOT;
        self.path.push(id);
        loop {
            if state.is_over() {
                break;
            }
            let key = if state.is_chance() {
                let receiver = state.to_play();
                match state.apply_chance(rng) {
                    // ISMCTS: another seat's card is not in the observer's
                    // information set; the tree does not branch on it.
                    ChanceOutcome::Gift(_) if self.cfg.info_sets && receiver != observer => {
                        continue
                    }
                    ChanceOutcome::Gift(g) => Key::Gift(g),
                    // Likewise a tile drawn into another seat's hidden hand.
                    ChanceOutcome::Tile(_, Drawn::Held)
                        if self.cfg.info_sets && receiver != observer && hidden_hands =>
                    {
                        continue
                    }
                    ChanceOutcome::Tile(_, Drawn::SetAside | Drawn::Returned | Drawn::Start)
                        if state.is_chance() =>
                    {
                        continue
                    }
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
    /// hold, and with hidden hands (RULES.md §8) in the tiles they hold, so
    /// a node's actions (stored from the iteration that created it) may
    /// not all be legal now: only the legal ones are considered.
    fn select_child(
        &mut self,
        id: NodeId,
        state: &State,
        rng: &mut AgentRng,
    ) -> Option<(NodeId, bool)> {
        let seat = state.to_play();
        let cfg = self.cfg;
        let rules = state.rules();
        let varies = rules.gifts || (rules.hand > 0 && !rules.hand_visible);
        let legal = |a: Action| !varies || state.check_action(a).is_ok();
        if cfg.info_sets {
            for i in 0..self.nodes[id.index()].children.len() {
                let c = self.nodes[id.index()].children[i];
                let Key::Act(action) = self.nodes[c.index()].key else {
                    unreachable!("decision children are actions")
                };
                if legal(action) {
                    self.node(c).avail += 1;
                }
            }
        }
        let node = &self.nodes[id.index()];
        let allowed = if cfg.widen > 0.0 {
            (cfg.widen * ((node.visits + 1) as f64).sqrt()).ceil() as usize
        } else {
            usize::MAX
        };
        if node.children.len() < allowed.max(1) && !node.untried.is_empty() {
            if let Some(action) = self.next_child(id, state, rng, &legal) {
                let prior = if cfg.bias > 0.0 {
                    let before = advantage(&end_now_scores(state), state.players(), seat);
                    ((quick_value(state, action) - before) as f64 / cfg.scale).tanh()
                } else {
                    0.0
                };
                let child = self.add_child(id, Key::Act(action), seat);
                let node = self.node(child);
                node.avail = 1;
                node.prior = prior;
                return Some((child, true));
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
            // ISMCTS: the parent count is the child's availability.
            let log_n = if cfg.info_sets {
                (ch.avail.max(1) as f64).ln()
            } else {
                log_n
            };
            let ucb = ch.total / n
                + cfg.c * (log_n / n).sqrt()
                + cfg.bias * ch.prior / (ch.visits as f64 + 1.0);
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

    /// The reward of each seat for the end-now scores of `state`, or for
    /// its leads predicted by the `eval=` model.
    fn rewards(&self, state: &State) -> [f64; MAX_PLAYERS] {
        match &self.cfg.eval {
            Some(model) => {
                let mut out = model.leads(state);
                for r in out.iter_mut().take(state.players()) {
                    *r = reward(self.cfg, *r);
                }
                out
            }
            None => rewards(self.cfg, &evaluate(self.cfg, state), state.players()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::random_play_until;
    use engine::Rules;
    use rand::SeedableRng;

    /// A 2-seat game with The Gifts after `turns` turns of random play,
    /// at a decision of the seat to play.
    fn gift_position(turns: usize, seed: u64) -> State {
        let rules = Rules {
            farmers: true,
            gifts: true,
            ..Rules::STANDARD
        };
        random_play_until(2, rules, seed, |s| s.turns() >= turns)
    }

    /// The nodes after `iterations` iterations of a search of `state`
    /// with `cfg` and a generator seeded with `seed`.
    fn grow(cfg: &MctsConfig, state: &State, iterations: u32, seed: u64) -> Vec<Node> {
        let mut search = Search::new(cfg);
        let mut rng = AgentRng::seed_from_u64(seed);
        search.nodes.push(Node::new(Key::Root, state.to_play()));
        let view = state.view(state.to_play());
        search.expand(NodeId::ROOT, &view.determinize(&mut rng), &mut rng);
        for _ in 0..iterations {
            search.iterate(&view, &mut rng);
        }
        search.nodes
    }

    /// The tree of a search of `state` with `info_sets` on or off.
    fn tree(state: &State, info_sets: bool) -> Vec<Node> {
        let cfg = MctsConfig {
            info_sets,
            // Narrow and deep: the tree reaches the other seat's draws.
            widen: 0.5,
            ..MctsConfig::default()
        };
        grow(&cfg, state, 1500, 7)
    }

    /// The seats whose move is followed by a gift-card child.
    fn gift_receivers(nodes: &[Node]) -> Vec<Seat> {
        let mut out = Vec::new();
        for n in nodes {
            for c in &n.children {
                if matches!(nodes[c.index()].key, Key::Gift(_)) {
                    out.push(n.seat);
                }
            }
        }
        out
    }

    #[test]
    fn progressive_bias_stores_each_moves_immediate_gain() {
        let state = random_play_until(2, Rules::default(), 3, |s| s.turns() >= 12);
        let cfg = MctsConfig {
            bias: 1.0,
            ..MctsConfig::default()
        };
        let nodes = grow(&cfg, &state, 200, 2);
        let seat = state.to_play();
        let before = advantage(&end_now_scores(&state), 2, seat);
        let root = &nodes[0];
        assert!(root.children.len() > 3);
        for &c in &root.children {
            let child = &nodes[c.index()];
            let Key::Act(a) = child.key else {
                unreachable!()
            };
            let gain = f64::from(quick_value(&state, a) - before);
            assert!((child.prior - (gain / cfg.scale).tanh()).abs() < 1e-12);
        }
        assert!(root.children.iter().any(|c| nodes[c.index()].prior != 0.0));
    }

    #[test]
    fn ismcts_branches_only_on_the_observers_own_gift_cards() {
        let state = gift_position(7, 1);
        let me = state.to_play();
        let mcts = gift_receivers(&tree(&state, false));
        assert!(
            mcts.iter().any(|&s| s != me),
            "the test position has other seats' draws"
        );
        let ismcts = gift_receivers(&tree(&state, true));
        assert!(ismcts.contains(&me), "{ismcts:?}");
        assert!(ismcts.iter().all(|&s| s == me), "{ismcts:?}");
    }

    #[test]
    fn ismcts_counts_availability_at_least_as_often_as_visits() {
        let state = gift_position(10, 5);
        let nodes = tree(&state, true);
        let mut moves = 0;
        for n in nodes.iter().filter(|n| matches!(n.key, Key::Act(_))) {
            assert!(n.avail >= n.visits, "{} < {}", n.avail, n.visits);
            moves += 1;
        }
        assert!(moves > 10);
        // Actions illegal in some samples (gift openings against dealt
        // cards) are available less often than their parent is visited.
        assert!(nodes
            .iter()
            .filter(|n| matches!(n.key, Key::Act(_)))
            .any(|n| n.avail > n.visits));
    }
}
