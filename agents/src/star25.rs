//! `star25`: expectimax with Star2.5 pruning over the tile chance nodes
//! (Ballard 1983; on Carcassonne: Heyden 2009, Ameneyro et al. 2020).
//!
//! Spec: `star25:depth=2,probe=1,width=8`. The search looks `depth` tile
//! placements ahead (the seat's own, then the next seats' after a tile
//! draw, ...) and evaluates the position with the greedy evaluation: the
//! end-now score advantage ([`crate::eval`]). It is a two-sided search
//! from the seat's point of view: the value is its end-now score minus the
//! best other seat's, which it maximises and every other seat minimises
//! (the *paranoid* reduction; with two seats, the game itself). Values
//! lie within `±BOUND` points, the bounds Star pruning needs.
//!
//! - **Decision nodes**: alpha-beta (fail-soft). Actions are ordered by
//!   their one-ply value; only the `width` best are searched (`width=0`:
//!   all). At the last ply every action's value is its
//!   one-ply value, so that ply is exact whatever `width`.
//! - **Chance nodes** (tile draws weighted by the counts in the bag; gift
//!   draws and Take 2's second tile too): *Star1* cuts a chance node as
//!   soon as the outcomes searched so far, with the bounds for the others,
//!   put it outside the window; *Star2* first *probes* every outcome by
//!   searching only its `probe` best actions (`probe=0`: no probing),
//!   which bounds the outcome from one side (from below where the seat
//!   moves, from above where an opponent does), cuts the chance node if
//!   those bounds already decide it, and tightens the windows of the full
//!   searches that follow (Star2.5: probing with more than one child).
//!
//! A draw is modelled as a draw among the *placeable* tiles, weighted by
//! their counts: the rare unplaceable tile (set aside by the rules, and the
//! draw repeated) is left in the bag of the searched positions. Following
//! every order in which unplaceable tiles could be set aside first would
//! multiply the chance nodes by the orders of those tiles, which late in a
//! game with many unplaceable kinds never finishes. When no tile left can
//! be placed (a bounded `table` fills up), every order of the set-asides
//! ends in the same position, so the draw is one certain outcome.
//!
//! The search runs on one [`SeatView::determinize`](engine::SeatView::determinize) of the view (in the
//! base game the position itself). It uses no randomness but for ties at
//! the root, which go to the first action in order; so a seed gives the
//! same move.

use crate::eval::{advantage, end_now_scores, end_now_scores_after_action};
use crate::spec::params::{Param, Params, Values};
use crate::spec::{AgentKind, SpecError};
use crate::{Agent, AgentError, AgentRng, Context, Decision, Lifecycle};
use engine::{Action, Chance, Phase, Seat, State};
use rand::seq::SliceRandom;

/// The `star25` agent in the spec registry.
pub const KIND: AgentKind = AgentKind {
    name: "star25",
    params: PARAMS,
    build: |name, params| {
        Ok(crate::spec::Make::cloning(Star25Agent::new(
            name,
            Star25Config::from_params(params)?,
        )))
    },
};

/// The parameters of the `star25` spec.
pub const PARAMS: &[Param] = &[
    Param::new(
        "depth",
        Values::Int {
            min: 1,
            max: Some(4),
        },
        "2",
        "tile placements searched (1: greedy)",
    ),
    Param::new(
        "probe",
        Values::Int { min: 0, max: None },
        "1",
        "actions searched per chance outcome when probing (0: Star1 only)",
    ),
    Param::new(
        "width",
        Values::Int { min: 0, max: None },
        "8",
        "actions searched per decision, best by one-ply value first (0: all)",
    ),
];

/// A bound on the absolute value of any evaluation, in points: no seat
/// scores this much in a game of 72 tiles.
pub const BOUND: f64 = 1000.0;

/// The settings of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Star25Config {
    /// Tile placements searched (`depth=`, 1 is the greedy agent).
    pub depth: u32,
    /// Actions searched per outcome when probing (`probe=`, 0: Star1 only).
    pub probe: u32,
    /// Actions searched per decision (`width=`, 0: all).
    pub width: u32,
}

impl Default for Star25Config {
    /// The defaults of [`PARAMS`].
    fn default() -> Star25Config {
        let spec = crate::spec::Spec::parse("star25").expect("a bare name parses");
        let params = Params::new(&spec, PARAMS).expect("no parameters given");
        Star25Config::from_params(&params).expect("the declared defaults are valid")
    }
}

impl Star25Config {
    /// The configuration of the parameters of a `star25:...` spec.
    ///
    /// # Errors
    ///
    /// A value out of its range (see [`PARAMS`]).
    pub fn from_params(params: &Params<'_, '_>) -> Result<Star25Config, SpecError> {
        Ok(Star25Config {
            depth: params.req("depth")?,
            probe: params.req("probe")?,
            width: params.req("width")?,
        })
    }
}

/// The Star2.5 agent.
#[derive(Clone, Debug)]
pub struct Star25Agent {
    name: String,
    config: Star25Config,
}

impl Star25Agent {
    /// A Star2.5 agent with `config`, reporting itself as `name`.
    pub fn new(name: String, config: Star25Config) -> Star25Agent {
        Star25Agent { name, config }
    }
}

impl Agent for Star25Agent {
    fn name(&self) -> &str {
        &self.name
    }

    fn decide(&mut self, cx: Context<'_>) -> Result<Decision, AgentError> {
        let state = cx.view.determinize(cx.rng);
        let mut search = Star25::new(self.config, state.to_play());
        Ok(Decision::new(search.best(&state, cx.rng).1))
    }
}

impl Lifecycle for Star25Agent {}

/// One search from the point of view of `me`.
#[derive(Clone, Debug)]
pub struct Star25 {
    cfg: Star25Config,
    me: Seat,
    /// Positions evaluated or expanded (for tests and measurements).
    pub nodes: u64,
}

impl Star25 {
    /// A search for seat `me`.
    pub fn new(cfg: Star25Config, me: Seat) -> Star25 {
        Star25 { cfg, me, nodes: 0 }
    }

    /// The value of the decision in `state` and its best action (ties: the
    /// first in a random order drawn from `rng`).
    pub fn best(&mut self, state: &State, rng: &mut AgentRng) -> (f64, Action) {
        let mut ordered = self.order(state);
        // Equal one-ply values in random order, then a stable sort.
        ordered.shuffle(rng);
        ordered.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut best = (f64::NEG_INFINITY, ordered[0].1);
        let limit = if self.cfg.depth == 1 {
            usize::MAX
        } else {
            self.width()
        };
        for &(v0, a) in ordered.iter().take(limit) {
            let v = self.after(state, a, v0, self.cfg.depth, best.0.max(-BOUND), BOUND);
            if v > best.0 {
                best = (v, a);
            }
        }
        best
    }

    /// The value of `state` searched `depth` placements deep, fail-soft
    /// within `(alpha, beta)`.
    pub fn value(&mut self, state: &State, depth: u32, alpha: f64, beta: f64) -> f64 {
        self.nodes += 1;
        match state.phase() {
            Phase::Over => self.eval(state),
            _ if depth == 0 => self.eval(state),
            Phase::Draw | Phase::DrawSecond(_) | Phase::DrawGift | Phase::DrawHand => {
                self.chance(state, depth, alpha, beta)
            }
            Phase::Place(_) | Phase::Choose(..) | Phase::PlaceHand => {
                let ordered = self.order(state);
                self.decision(state, &ordered, depth, alpha, beta, self.width())
            }
        }
    }

    /// Searched actions per decision.
    fn width(&self) -> usize {
        match self.cfg.width {
            0 => usize::MAX,
            w => w as usize,
        }
    }

    /// The seat's end-now advantage in `state`.
    fn eval(&self, state: &State) -> f64 {
        f64::from(advantage(&end_now_scores(state), state.players(), self.me))
    }

    /// The legal actions with their one-ply values, best first for the
    /// seat to play (highest for `me`, lowest for the others).
    fn order(&mut self, state: &State) -> Vec<(f64, Action)> {
        let players = state.players();
        let me = self.me;
        let mut out = Vec::new();
        state.for_each_action(|a| {
            let v = advantage(&end_now_scores_after_action(state, a), players, me);
            out.push((f64::from(v), a));
        });
        self.nodes += out.len() as u64;
        if state.to_play() == me {
            out.sort_by(|a, b| b.0.total_cmp(&a.0));
        } else {
            out.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        out
    }

    /// The value after `action` (one-ply value `v0`) in `state`.
    fn after(&mut self, state: &State, action: Action, v0: f64, depth: u32, a: f64, b: f64) -> f64 {
        let depth = if matches!(action, Action::Place(_)) {
            depth - 1
        } else {
            depth
        };
        if depth == 0 {
            return v0;
        }
        let mut child = state.clone();
        child.play_action_unchecked(action);
        self.value(&child, depth, a, b)
    }

    /// Alpha-beta over the first `limit` of the `ordered` actions of the
    /// decision in `state`: `me` maximises, the others minimise.
    fn decision(
        &mut self,
        state: &State,
        ordered: &[(f64, Action)],
        depth: u32,
        mut alpha: f64,
        mut beta: f64,
        limit: usize,
    ) -> f64 {
        let maximise = state.to_play() == self.me;
        let last_ply = depth == 1;
        // At the last ply every action is evaluated already: exact.
        let limit = if last_ply { usize::MAX } else { limit };
        let mut best = if maximise {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for &(v0, a) in ordered.iter().take(limit) {
            let v = self.after(state, a, v0, depth, alpha, beta);
            if maximise {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The outcomes of the draw in `state`: each position after it with
    /// its probability.
    fn outcomes(state: &State) -> Vec<(State, f64)> {
        let outcomes = state.chance_outcomes();
        let stuck = |c: &Chance| matches!(*c, Chance::Tile(t) if !state.is_placeable(t));
        // Only placeable tiles, renormalised: see the module docs.
        let placeable: f64 = outcomes
            .iter()
            .filter(|(c, _)| !stuck(c))
            .map(|(_, p)| p)
            .sum();
        let mut out = Vec::new();
        if placeable == 0.0 {
            // Nothing left fits: whichever tile comes, the draws go on to
            // the same position (see the module docs).
            if let Some(&(chance, _)) = outcomes.first() {
                let mut child = state.clone();
                child
                    .apply_chance_outcome(chance)
                    .expect("a possible outcome");
                out.push((child, 1.0));
            }
            return out;
        }
        for &(chance, p) in &outcomes {
            if stuck(&chance) {
                continue;
            }
            let mut child = state.clone();
            child
                .apply_chance_outcome(chance)
                .expect("a possible outcome");
            out.push((child, p / placeable));
        }
        out
    }

    /// Star2.5 at the draw in `state`, fail-soft within `(alpha, beta)`.
    fn chance(&mut self, state: &State, depth: u32, alpha: f64, beta: f64) -> f64 {
        let outcomes = Star25::outcomes(state);
        let n = outcomes.len();
        let mut lower = vec![-BOUND; n];
        let mut upper = vec![BOUND; n];
        // Orderings of the outcomes that are decisions, shared by the probe
        // and the search.
        let mut ordered: Vec<Option<Vec<(f64, Action)>>> = vec![None; n];
        if self.cfg.probe > 0 {
            for (j, (child, _)) in outcomes.iter().enumerate() {
                if !matches!(
                    child.phase(),
                    Phase::Place(_) | Phase::Choose(..) | Phase::PlaceHand
                ) {
                    continue;
                }
                let order = self.order(child);
                // Probing only actions the full search also looks at keeps
                // the bound valid for it.
                let probe = (self.cfg.probe as usize).min(self.width());
                let v = self.decision(child, &order, depth, -BOUND, BOUND, probe);
                // The best of some actions bounds the decision from below
                // where `me` chooses, from above where an opponent does.
                if child.to_play() == self.me {
                    lower[j] = v;
                } else {
                    upper[j] = v;
                }
                ordered[j] = Some(order);
                let lo: f64 = outcomes.iter().zip(&lower).map(|((_, p), l)| p * l).sum();
                if lo >= beta {
                    return lo;
                }
                let hi: f64 = outcomes.iter().zip(&upper).map(|((_, p), u)| p * u).sum();
                if hi <= alpha {
                    return hi;
                }
            }
        }
        let mut sum = 0.0;
        for k in 0..n {
            let (child, p) = &outcomes[k];
            let lo_rest: f64 = (k + 1..n).map(|j| outcomes[j].1 * lower[j]).sum();
            let hi_rest: f64 = (k + 1..n).map(|j| outcomes[j].1 * upper[j]).sum();
            let a = (alpha - sum - hi_rest) / p;
            let b = (beta - sum - lo_rest) / p;
            let window = (a.max(lower[k]), b.min(upper[k]));
            let v = match &ordered[k] {
                Some(order) => {
                    self.nodes += 1;
                    self.decision(child, order, depth, window.0, window.1, self.width())
                }
                None => self.value(child, depth, window.0, window.1),
            };
            if v >= b {
                return sum + p * v + lo_rest;
            }
            if v <= a {
                return sum + p * v + hi_rest;
            }
            sum += p * v.clamp(lower[k], upper[k]);
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::random_play_until;
    use engine::{Rules, Tile};
    use rand::SeedableRng;

    /// A position of random play at a decision after `turns` turns.
    fn position(players: usize, rules: Rules, turns: usize, seed: u64) -> State {
        random_play_until(players, rules, seed, |s| s.turns() >= turns)
    }

    /// Plain depth-limited expectimax (paranoid, every action), without
    /// any pruning: the value Star2.5 must reproduce with `width=0`.
    fn expectimax(state: &State, me: Seat, depth: u32) -> f64 {
        let eval = |s: &State| f64::from(advantage(&end_now_scores(s), s.players(), me));
        match state.phase() {
            Phase::Over => eval(state),
            _ if depth == 0 => eval(state),
            Phase::Draw => {
                // The model of the module docs: placeable kinds by count.
                let placeable: Vec<(Tile, u8)> = state
                    .bag()
                    .iter()
                    .filter(|&(t, _)| state.is_placeable(t))
                    .collect();
                let total: f64 = placeable.iter().map(|&(_, n)| f64::from(n)).sum();
                placeable
                    .iter()
                    .map(|&(t, n)| {
                        let mut c = state.clone();
                        c.apply_chance_outcome(Chance::Tile(t)).unwrap();
                        f64::from(n) / total * expectimax(&c, me, depth)
                    })
                    .sum()
            }
            Phase::Place(_) => {
                let mut values = Vec::new();
                state.for_each_move(|m| {
                    let mut c = state.clone();
                    c.play_action_unchecked(Action::Place(m));
                    values.push(expectimax(&c, me, depth - 1));
                });
                let pick = if state.to_play() == me {
                    f64::max
                } else {
                    f64::min
                };
                values.into_iter().reduce(pick).unwrap()
            }
            other => unreachable!("base game: {other:?}"),
        }
    }

    #[test]
    fn pruning_and_probing_do_not_change_the_root_value() {
        let farmers_off = Rules {
            farmers: false,
            gifts: false,
            ..Rules::STANDARD
        };
        for (players, turns, seed) in [(2, 60, 1), (3, 62, 2), (2, 66, 3)] {
            let state = position(players, farmers_off, turns, seed);
            let me = state.to_play();
            let exact = expectimax(&state, me, 2);
            for probe in [0, 1, 3] {
                let cfg = Star25Config {
                    depth: 2,
                    probe,
                    width: 0,
                };
                let mut search = Star25::new(cfg, me);
                // (Measured here: probing saves about 2% of the positions
                // at depth 2, where the last ply is evaluated in full.)
                let (v, action) = search.best(&state, &mut AgentRng::seed_from_u64(1));
                assert!((v - exact).abs() < 1e-9, "probe {probe}: {v} vs {exact}");
                assert!(state.check_action(action).is_ok());
            }
        }
    }

    #[test]
    fn depth_one_is_the_greedy_choice() {
        let state = position(2, Rules::default(), 20, 4);
        let cfg = Star25Config {
            depth: 1,
            ..Star25Config::default()
        };
        let (v, action) =
            Star25::new(cfg, state.to_play()).best(&state, &mut AgentRng::seed_from_u64(2));
        let mut best = i32::MIN;
        state.for_each_move(|m| best = best.max(crate::greedy::move_value(&state, m)));
        assert_eq!(v, f64::from(best));
        assert_eq!(crate::greedy::action_value(&state, action), best);
    }

    #[test]
    fn draws_skip_unplaceable_tiles_so_a_late_search_finishes() {
        // Draws with unplaceable kinds in the bag (a star25 tournament
        // once never finished such a move): every outcome is a placement.
        let mut found = 0;
        let mut rng = AgentRng::seed_from_u64(3);
        for _ in 0..30 {
            let mut state = State::new(Rules::default(), 2, Seat(0));
            while !state.is_over() {
                if state.phase() == Phase::Draw {
                    let bag = state.bag();
                    let stuck = bag.iter().filter(|&(t, _)| !state.is_placeable(t)).count();
                    if stuck > 0 && stuck < bag.iter().count() {
                        let outcomes = Star25::outcomes(&state);
                        assert!(outcomes.iter().all(|(c, _)| c.phase() != Phase::Draw));
                        let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
                        assert!((total - 1.0).abs() < 1e-9);
                        found += 1;
                    }
                    state.apply_chance(&mut rng);
                } else {
                    let mv = engine::random_move(&state, &mut rng).unwrap();
                    state.play_action_unchecked(Action::Place(mv));
                }
            }
        }
        assert!(found > 0);
    }
}
