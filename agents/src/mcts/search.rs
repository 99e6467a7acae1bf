//! The `mcts` search tree: selection with progressive widening,
//! expansion ordered by the greedy evaluation, chance nodes for the tile
//! and gift draws, and the backup of each seat's reward.

use super::config::MctsConfig;
use super::rollout::{evaluate, leads, quick_value, reward, rollout};
use super::tree::{Key, NodeId, Tree};
use crate::clock::Budget;
use crate::greedy::action_value_in;
use crate::AgentRng;
use engine::{Action, ChanceOutcome, Drawn, FieldCache, Phase, SeatView, State, MAX_PLAYERS};
use rand::seq::SliceRandom;
use rand::Rng;

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
    /// Each child of the root, in the tree's order.
    pub children: Vec<RootChild>,
    /// The best untried action by the ordering, if any is left.
    pub first_untried: Option<Action>,
    /// Iterations run.
    pub iterations: u32,
    /// Nodes in the tree.
    pub nodes: usize,
}

/// One child of the root: its action, visits and total reward, and the
/// leads of the seat to play measured through it in this search (a tree
/// kept with `reuse` brings visits without leads, hence their own count).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootChild {
    /// The action.
    pub action: Action,
    /// Its visits.
    pub visits: u32,
    /// The sum of the rewards of the seat to play through it.
    pub total: f64,
    /// How many leads were measured through it ([`RootChild::lead`]).
    pub measured: u32,
    /// The sum of the seat's leads in points over the best other seat at
    /// the valuations of this search through it.
    pub lead: f64,
    /// The sum over those valuations of 1 (ahead), ½ (level) or 0.
    pub wins: f64,
    /// The sum over those valuations of each seat's end-now score;
    /// `None` for a search that values positions with an `eval=` model
    /// (which does not compute them).
    pub scores: Option<[f64; MAX_PLAYERS]>,
}

impl RootChild {
    /// A child of `action` with `visits` and a `total` reward, no leads.
    pub fn new(action: Action, visits: u32, total: f64) -> RootChild {
        RootChild {
            action,
            visits,
            total,
            measured: 0,
            lead: 0.0,
            wins: 0.0,
            scores: None,
        }
    }

    /// Its mean reward (0 unvisited).
    pub fn mean(&self) -> f64 {
        self.total / self.visits.max(1) as f64
    }

    /// What the search found of it, for [`crate::SearchStats`].
    pub fn value(&self) -> crate::RootValue {
        let n = f64::from(self.measured);
        crate::RootValue {
            value: self.mean(),
            prior: None,
            lead: (self.measured > 0).then(|| self.lead / n),
            win: (self.measured > 0).then(|| self.wins / n),
            scores: self
                .scores
                .filter(|_| self.measured > 0)
                .map(|s| s.map(|s| s / n)),
        }
    }
}

impl RootStats {
    /// Add the statistics of another search of the same position: visits,
    /// rewards and leads per action are summed (root parallelism).
    pub fn merge(&mut self, other: &RootStats) {
        for o in &other.children {
            match self.children.iter_mut().find(|c| c.action == o.action) {
                Some(c) => {
                    c.visits += o.visits;
                    c.total += o.total;
                    c.measured += o.measured;
                    c.lead += o.lead;
                    c.wins += o.wins;
                    c.scores = match (c.scores, o.scores) {
                        (Some(a), Some(b)) => Some(std::array::from_fn(|k| a[k] + b[k])),
                        (a, None) | (None, a) => a,
                    };
                }
                None => self.children.push(*o),
            }
        }
        self.first_untried = self.first_untried.or(other.first_untried);
        self.iterations += other.iterations;
        self.nodes += other.nodes;
    }

    /// The most visited action (ties: the higher mean reward, then the
    /// first listed); with no children, the best untried action.
    pub fn choose(&self) -> SearchResult {
        let best = self.children.iter().reduce(|a, b| {
            if (b.visits, b.mean()) > (a.visits, a.mean()) {
                b
            } else {
                a
            }
        });
        match best {
            Some(b) => SearchResult {
                action: b.action,
                iterations: self.iterations,
                nodes: self.nodes,
                visits: b.visits,
                value: b.mean(),
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

/// One search: the settings, the tree it grows and its scratch lists.
pub(crate) struct Search<'c, 't> {
    cfg: &'c MctsConfig,
    tree: &'t mut Tree,
    path: Vec<NodeId>,
    actions: Vec<Action>,
    scratch: Vec<(i32, Action)>,
    /// The fields' touched cities, kept across the iterations.
    fields: Box<FieldCache>,
    /// The root's actions to search, if the caller restricts them.
    only: Option<Vec<Action>>,
    /// Per child of the root: the leads measured through it in this
    /// search ([`RootChild::lead`]).
    /// (node, leads measured, their sum, the wins among them, the sum of
    /// each seat's end-now score at those valuations unless an `eval=`
    /// model values them).
    measured: Vec<Measured>,
}

/// What a search measured through one child of the root: (the child,
/// leads measured, their sum, the wins among them, the sum of each seat's
/// end-now score at those valuations — `None` with an `eval=` model).
type Measured = (NodeId, u32, f64, f64, Option<[f64; MAX_PLAYERS]>);

impl<'c, 't> Search<'c, 't> {
    /// A search growing `tree`: a fresh one if it is empty, else the
    /// subtree kept from the last search of the game (its root the
    /// current decision, see [`Tree::reroot`]).
    pub(crate) fn new(cfg: &'c MctsConfig, tree: &'t mut Tree) -> Search<'c, 't> {
        Search {
            cfg,
            tree,
            path: Vec::new(),
            actions: Vec::new(),
            scratch: Vec::new(),
            fields: Box::default(),
            only: None,
            measured: Vec::new(),
        }
    }

    /// The same search over only `actions` at the root (those legal; all
    /// if none is), see [`crate::Context::only`].
    pub(crate) fn only(self, actions: Option<&[Action]>) -> Search<'c, 't> {
        Search {
            only: actions.map(<[Action]>::to_vec),
            ..self
        }
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
        if self.tree.is_empty() {
            self.tree.start(view.seat());
        }
        // The root's actions depend only on what the seat sees.
        let mut state = view.determinize(rng);
        // Every determinization has the seat's board: its fields are
        // listed once for all the iterations.
        self.fields.start(&state);
        self.expand(NodeId::ROOT, &state, rng);
        let root_moves = self.tree.untried(NodeId::ROOT).len()
            + self.tree.node(NodeId::ROOT).child_count as usize;
        let mut iterations = 0;
        if root_moves > 1 || (self.only.is_some() && root_moves > 0) {
            while budget.allows(iterations) {
                self.iterate(view, rng, &mut state);
                iterations += 1;
            }
        }
        let tree = &*self.tree;
        RootStats {
            children: tree
                .children(NodeId::ROOT)
                .map(|c| {
                    let ch = tree.node(c);
                    let Key::Act(action) = ch.key else {
                        unreachable!("root children are actions")
                    };
                    let (_, measured, lead, wins, scores) = self
                        .measured
                        .iter()
                        .find(|l| l.0 == c)
                        .copied()
                        .unwrap_or((c, 0, 0.0, 0.0, None));
                    RootChild {
                        action,
                        visits: ch.visits,
                        total: ch.total,
                        measured,
                        lead,
                        wins,
                        scores,
                    }
                })
                .collect(),
            first_untried: tree.untried(NodeId::ROOT).last().copied(),
            iterations,
            nodes: tree.len(),
        }
    }

    /// List the legal moves of decision node `id` in `state`: at the root
    /// (or with `pick=0`) ordered so that the best by the greedy evaluation
    /// is added first, elsewhere as generated (see [`Search::next_child`]).
    /// A root kept from the last search lists only the actions that are
    /// not children yet.
    fn expand(&mut self, id: NodeId, state: &State, rng: &mut AgentRng) {
        let mut actions = std::mem::take(&mut self.actions);
        actions.clear();
        state.for_each_action(|a| actions.push(a));
        if self.tree.node(id).child_count > 0 {
            let tree = &*self.tree;
            actions.retain(|&a| tree.child(id, Key::Act(a)).is_none());
        }
        if let (Some(only), true) = (&self.only, id == NodeId::ROOT) {
            if actions.iter().any(|a| only.contains(a)) {
                actions.retain(|a| only.contains(a));
            }
        }
        if id != NodeId::ROOT && self.cfg.pick > 0 {
            self.tree.set_untried(id, actions.iter().copied());
            self.actions = actions;
            return;
        }
        let mut untried = std::mem::take(&mut self.scratch);
        untried.clear();
        let mut end_now = state.end_now();
        let mut value = |a: Action| {
            if id == NodeId::ROOT {
                action_value_in(&mut end_now, a)
            } else {
                quick_value(&mut end_now, a)
            }
        };
        untried.extend(actions.iter().map(|&a| (value(a), a)));
        self.actions = actions;
        // Shuffle first so that equal values come in random order.
        untried.shuffle(rng);
        untried.sort_by_key(|&(v, _)| v);
        self.tree.set_untried(id, untried.iter().map(|&(_, m)| m));
        self.scratch = untried;
    }

    /// One iteration: select and expand down the tree, roll out, back up.
    /// It plays on `state`, which it overwrites first with a fresh
    /// determinization of `view` (one copy of the position).
    fn iterate(&mut self, view: &SeatView<'_>, rng: &mut AgentRng, state: &mut State) {
        view.determinize_into(rng, state);
        self.fields.new_line();
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
                if !self.tree.node(id).expanded {
                    self.expand(id, state, rng);
                }
                let Some((child, new)) = self.select_child(id, state, rng) else {
                    // Nothing stored here is legal in this determinization:
                    // evaluate from here.
                    break;
                };
                let Key::Act(action) = self.tree.node(child).key else {
                    unreachable!("select_child returns an action's child")
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
            match self.tree.child(id, key) {
                Some(c) => {
                    id = c;
                    self.path.push(id);
                }
                None => {
                    id = self.tree.add_child(id, key, state.to_play());
                    self.path.push(id);
                    break;
                }
            }
        }
        rollout(self.cfg, state, rng, &mut self.fields);
        let (leads, end_now) = self.leads(state);
        let mut rewards = [0.0; MAX_PLAYERS];
        for (r, &lead) in rewards.iter_mut().zip(&leads).take(state.players()) {
            *r = reward(self.cfg, lead);
        }
        if let Some(&child) = self.path.get(1) {
            let lead = leads[observer.index()];
            let i = match self.measured.iter().position(|l| l.0 == child) {
                Some(i) => i,
                None => {
                    let scores = end_now.is_some().then_some([0.0; MAX_PLAYERS]);
                    self.measured.push((child, 0, 0.0, 0.0, scores));
                    self.measured.len() - 1
                }
            };
            let m = &mut self.measured[i];
            m.1 += 1;
            m.2 += lead;
            m.3 += if lead > 0.0 {
                1.0
            } else if lead == 0.0 {
                0.5
            } else {
                0.0
            };
            if let (Some(sums), Some(end_now)) = (m.4.as_mut(), &end_now) {
                for (sum, &score) in sums.iter_mut().zip(end_now) {
                    *sum += f64::from(score);
                }
            }
        }
        for &n in &self.path {
            let node = self.tree.node_mut(n);
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
    ///
    /// A node may also have chance children, which are skipped: the tiles
    /// set aside as unplaceable are drawn without a key, so iterations
    /// that reach a node by the same keys may differ in the tiles left,
    /// and Take 2 opened with the bag empty in one (the seat places at
    /// once: a decision) draws a tile in another (a chance child).
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
            let mut next = self.tree.first_child(id);
            while let Some(c) = next {
                if let Key::Act(action) = self.tree.node(c).key {
                    if legal(action) {
                        self.tree.node_mut(c).avail += 1;
                    }
                }
                next = self.tree.next_sibling(c);
            }
        }
        let node = self.tree.node(id);
        let allowed = if cfg.widen > 0.0 {
            (cfg.widen * ((node.visits + 1) as f64).sqrt()).ceil() as usize
        } else {
            usize::MAX
        };
        if (node.child_count as usize) < allowed.max(1) && !self.tree.untried(id).is_empty() {
            if let Some(action) = self.next_child(id, state, rng, &legal) {
                let prior = if cfg.bias > 0.0 {
                    let mut end_now = state.end_now_lazy_in(&mut self.fields);
                    (quick_value(&mut end_now, action) as f64 / cfg.scale).tanh()
                } else {
                    0.0
                };
                let child = self.tree.add_child(id, Key::Act(action), seat);
                let node = self.tree.node_mut(child);
                node.avail = 1;
                node.prior = prior;
                return Some((child, true));
            }
        }
        let log_n = (self.tree.node(id).visits.max(1) as f64).ln();
        let mut best = None;
        for c in self.tree.children(id) {
            let ch = self.tree.node(c);
            // A chance child: see the doc above.
            let Key::Act(action) = ch.key else {
                continue;
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
            if best.is_none_or(|(b, _)| ucb > b) {
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
        let untried = self.tree.untried(id);
        if id == NodeId::ROOT || pick == 0 || untried.len() == 1 {
            let i = untried.iter().rposition(|&a| legal(a))?;
            return Some(self.tree.take_untried(id, i, true));
        }
        let mut best: Option<(i32, usize)> = None;
        let mut end_now = state.end_now_lazy_in(&mut self.fields);
        for _ in 0..pick.min(untried.len() as u32) {
            let i = rng.gen_range(0..untried.len());
            if !legal(untried[i]) {
                continue;
            }
            let v = quick_value(&mut end_now, untried[i]);
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, i));
            }
        }
        best.map(|(_, i)| self.tree.take_untried(id, i, false))
    }

    /// The lead of each seat over the best other for the end-now scores
    /// of `state` (see [`evaluate`]), or as predicted by the `eval=`
    /// model; and the end-now scores themselves, when computed (not with
    /// a model, whose valuations stay as fast as they were).
    fn leads(&mut self, state: &State) -> ([f64; MAX_PLAYERS], Option<crate::eval::Scores>) {
        match &self.cfg.eval {
            Some(model) => (model.leads(state), None),
            None => {
                let end_now = crate::eval::end_now_scores_in(state, &mut self.fields);
                let leads = leads(&evaluate(self.cfg, state, &end_now), state.players());
                (leads, Some(end_now))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{advantage, advantage_after, advantage_now, end_now_scores};
    use crate::test_support::random_play_until;
    use engine::{Rules, Seat};
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

    /// The tree after `iterations` iterations of a search of `state`
    /// with `cfg` and a generator seeded with `seed`.
    fn grow(cfg: &MctsConfig, state: &State, iterations: u32, seed: u64) -> Tree {
        let mut tree = Tree::default();
        tree.start(state.to_play());
        let mut search = Search::new(cfg, &mut tree);
        let mut rng = AgentRng::seed_from_u64(seed);
        let view = state.view(state.to_play());
        let mut sample = view.determinize(&mut rng);
        search.expand(NodeId::ROOT, &sample, &mut rng);
        for _ in 0..iterations {
            search.iterate(&view, &mut rng, &mut sample);
        }
        tree
    }

    /// The tree of a search of `state` with `info_sets` on or off.
    fn tree(state: &State, info_sets: bool) -> Tree {
        let cfg = MctsConfig {
            info_sets,
            // Narrow and deep: the tree reaches the other seat's draws.
            widen: 0.5,
            ..MctsConfig::default()
        };
        grow(&cfg, state, 1500, 7)
    }

    /// The seats whose move is followed by a gift-card child.
    fn gift_receivers(tree: &Tree) -> Vec<Seat> {
        let mut out = Vec::new();
        for n in tree.ids() {
            for c in tree.children(n) {
                if matches!(tree.node(c).key, Key::Gift(_)) {
                    out.push(tree.node(n).seat);
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
        let tree = grow(&cfg, &state, 200, 2);
        let seat = state.to_play();
        let mut end_now = state.end_now();
        let before = advantage_now(&end_now);
        assert_eq!(before, advantage(&end_now_scores(&state), 2, seat));
        assert!(tree.node(NodeId::ROOT).child_count > 3);
        for c in tree.children(NodeId::ROOT) {
            let child = tree.node(c);
            let Key::Act(a) = child.key else {
                unreachable!()
            };
            let gain = f64::from(advantage_after(&mut end_now, a) - before);
            assert_eq!(
                quick_value(&mut end_now, a),
                advantage_after(&mut end_now, a) - before
            );
            assert!((child.prior - (gain / cfg.scale).tanh()).abs() < 1e-12);
        }
        assert!(tree
            .children(NodeId::ROOT)
            .any(|c| tree.node(c).prior != 0.0));
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
        let tree = tree(&state, true);
        let nodes: Vec<_> = tree.ids().map(|n| tree.node(n)).collect();
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
