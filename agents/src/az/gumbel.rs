//! The Gumbel root of `az` (`root=gumbel`), after Danihelka et al.,
//! "Policy improvement by planning with Gumbel" (ICLR 2022).
//!
//! - **Sampling**: every root action `a` gets a Gumbel(0, 1) draw `g(a)`
//!   from the agent's generator (in the root's child order, itself drawn
//!   from that generator: a seed reproduces the search); the `m` actions
//!   with the highest `g(a) + logit(a)` (`logit = ln prior`) are kept —
//!   `m` samples without replacement from the prior (Gumbel-top-k).
//! - **Sequential halving**: the budget of `n` simulations is spent in
//!   `⌈log2 m⌉` phases. In a phase with `r` actions left, each gets
//!   `max(1, ⌊n / (phases · r)⌋)` simulations (round-robin, best first,
//!   so a phase the budget cannot fill visits the best-ranked first); the
//!   last phase gets whatever is left, so the simulations spent equal `n`
//!   exactly. Below the root the descent is the usual PUCT. After each
//!   phase the better half (rounded up) stays, ranked by
//!   `g(a) + logit(a) + σ(q̂(a))`; the last one standing is the move.
//! - **σ**: `σ(q̂) = (c_visit + max_b N(b)) · c_scale · q̂`, with `q̂` the
//!   completed Q-value of the action (its mean value for the seat to play
//!   if visited, else `v_mix` below) rescaled to `[0, 1]` by the least and
//!   greatest completed Q-value at the root (all equal: 0).
//! - **`v_mix`** (the value of the unvisited actions):
//!   `(v̂ + ΣN / Σ_{N(b)>0} π(b) · Σ_{N(b)>0} π(b) q(b)) / (1 + ΣN)`, with
//!   `v̂` the evaluator's value of the root and `π` the prior.
//! - **Improved policy**: `softmax(logit + σ(q̂))` over the root's legal
//!   actions (no Gumbel noise in it): the policy target of self-play.
//!
//! The arithmetic here is free of the tree, so that tests can drive it
//! with exact values (see [`Halving`]).

use crate::AgentRng;
use rand::Rng;

/// Floor of a prior before its logarithm (a prior of 0 is a logit of
/// about −69, not −∞).
const MIN_PRIOR: f64 = 1e-30;

/// The logit of a prior: its logarithm.
pub(crate) fn logit(prior: f32) -> f64 {
    f64::from(prior).max(MIN_PRIOR).ln()
}

/// A Gumbel(0, 1) draw.
fn gumbel(rng: &mut AgentRng) -> f64 {
    // In (0, 1): both logarithms are finite.
    let u = rng.r#gen::<f64>().max(f64::MIN_POSITIVE);
    -(-u.ln()).ln()
}

/// What the halving needs to know of one root action: its visits and the
/// sum of its values for the seat to play.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Visited {
    pub(crate) visits: u32,
    pub(crate) total: f64,
}

/// The completed Q-values of the root's actions, rescaled to `[0, 1]`
/// (see the module doc), into `out` (cleared first). `priors` and
/// `children` are in the same order; `value` is the evaluator's value of
/// the root for the seat to play.
pub(crate) fn completed_q(priors: &[f32], children: &[Visited], value: f64, out: &mut Vec<f64>) {
    out.clear();
    let visits: f64 = children.iter().map(|c| f64::from(c.visits)).sum();
    let (mut p_sum, mut pq_sum) = (0.0, 0.0);
    for (p, c) in priors.iter().zip(children) {
        if c.visits > 0 {
            p_sum += f64::from(*p);
            pq_sum += f64::from(*p) * c.total / f64::from(c.visits);
        }
    }
    let v_mix = if p_sum > 0.0 {
        (value + visits / p_sum * pq_sum) / (1.0 + visits)
    } else if visits > 0.0 {
        // Visited actions all of prior 0: their plain mean.
        let total: f64 = children.iter().map(|c| c.total).sum();
        (value + total) / (1.0 + visits)
    } else {
        value
    };
    out.extend(children.iter().map(|c| {
        if c.visits > 0 {
            c.total / f64::from(c.visits)
        } else {
            v_mix
        }
    }));
    let lo = out.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = out.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let spread = hi - lo;
    for q in out.iter_mut() {
        *q = if spread > 1e-12 {
            (*q - lo) / spread
        } else {
            0.0
        };
    }
}

/// `σ(q̂) = (c_visit + max_visits) · c_scale · q̂`.
pub(crate) fn sigma(q: f64, max_visits: u32, c_visit: f64, c_scale: f64) -> f64 {
    (c_visit + f64::from(max_visits)) * c_scale * q
}

/// The improved policy `softmax(logit + σ(q̂))` over the root's actions
/// (all legal), in their order; sums to 1.
pub(crate) fn improved_policy(
    priors: &[f32],
    children: &[Visited],
    value: f64,
    c_visit: f64,
    c_scale: f64,
) -> Vec<f32> {
    let mut q = Vec::with_capacity(children.len());
    completed_q(priors, children, value, &mut q);
    let max_n = children.iter().map(|c| c.visits).max().unwrap_or(0);
    let scores: Vec<f64> = priors
        .iter()
        .zip(&q)
        .map(|(&p, &q)| logit(p) + sigma(q, max_n, c_visit, c_scale))
        .collect();
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exp: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
    let sum: f64 = exp.iter().sum();
    exp.iter().map(|e| (e / sum) as f32).collect()
}

/// Sequential halving over the root's actions: which to simulate next,
/// phase by phase, and which is left at the end. Driven by the search
/// (or a test) as
/// `new → (phase_len, visit the phase's actions, end_phase)* → chosen`.
#[derive(Clone, Debug)]
pub(crate) struct Halving {
    /// `logit + g` of every root action.
    noisy: Vec<f64>,
    /// The actions still in contention (indices of the root's actions),
    /// best first.
    left: Vec<usize>,
    /// The simulations of the whole search.
    total: u32,
    /// Simulations not spent yet.
    unspent: u32,
    phases: u32,
    phase: u32,
    /// Scratch: the completed Q-values.
    q: Vec<f64>,
}

impl Halving {
    /// Draw the Gumbel noise of each action of `priors` (in order; times
    /// `scale`, 0: none) and keep the `m` best of `logit + g`, to share
    /// `total` simulations.
    pub(crate) fn new(
        priors: &[f32],
        m: usize,
        total: u32,
        scale: f64,
        rng: &mut AgentRng,
    ) -> Halving {
        let noisy: Vec<f64> = priors
            .iter()
            .map(|&p| {
                logit(p)
                    + if scale > 0.0 {
                        scale * gumbel(rng)
                    } else {
                        0.0
                    }
            })
            .collect();
        let mut left: Vec<usize> = (0..priors.len()).collect();
        // Stable: ties go to the first listed (the root's order is random).
        left.sort_by(|&a, &b| noisy[b].total_cmp(&noisy[a]));
        left.truncate(m.clamp(1, priors.len().max(1)));
        let phases = (left.len() as f64).log2().ceil().max(1.0) as u32;
        Halving {
            noisy,
            left,
            total,
            unspent: total,
            phases,
            phase: 0,
            q: Vec::new(),
        }
    }

    /// The actions still in contention, best first (their indices).
    pub(crate) fn left(&self) -> &[usize] {
        &self.left
    }

    /// Whether every phase is over.
    pub(crate) fn is_over(&self) -> bool {
        self.phase >= self.phases
    }

    /// The simulations of the current phase: the `k`-th goes to
    /// `left()[k % left().len()]`.
    pub(crate) fn phase_len(&self) -> u32 {
        if self.is_over() {
            return 0;
        }
        if self.phase + 1 == self.phases {
            return self.unspent;
        }
        let r = self.left.len() as u32;
        let each = (self.total / (self.phases * r)).max(1);
        (each * r).min(self.unspent)
    }

    /// The phase is over, `spent` simulations spent in it: keep the
    /// better half (rounded up) of the actions by
    /// `g + logit + σ(q̂)`, from `children` (every root action's visits
    /// and values so far) and the root's `priors` and `value`.
    pub(crate) fn end_phase(
        &mut self,
        spent: u32,
        priors: &[f32],
        children: &[Visited],
        value: f64,
        c_visit: f64,
        c_scale: f64,
    ) {
        self.unspent = self.unspent.saturating_sub(spent);
        self.phase += 1;
        self.rank(priors, children, value, c_visit, c_scale);
        let keep = if self.is_over() {
            1
        } else {
            self.left.len().div_ceil(2)
        };
        self.left.truncate(keep);
    }

    /// Sort the actions in contention by `g + logit + σ(q̂)`, best first
    /// (stable).
    pub(crate) fn rank(
        &mut self,
        priors: &[f32],
        children: &[Visited],
        value: f64,
        c_visit: f64,
        c_scale: f64,
    ) {
        completed_q(priors, children, value, &mut self.q);
        let max_n = children.iter().map(|c| c.visits).max().unwrap_or(0);
        let (noisy, q) = (&self.noisy, &self.q);
        let score = |i: usize| noisy[i] + sigma(q[i], max_n, c_visit, c_scale);
        self.left.sort_by(|&a, &b| score(b).total_cmp(&score(a)));
    }

    /// The move: the best action in contention (after [`Halving::rank`]
    /// or the last phase).
    pub(crate) fn chosen(&self) -> usize {
        self.left[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Run the halving on actions of exact values `values` (a simulation
    /// of action `i` returns `values[i]`) and priors `priors`: the move
    /// and the visits of each action.
    fn run(priors: &[f32], values: &[f64], m: usize, n: u32, seed: u64) -> (usize, Vec<Visited>) {
        let mut rng = AgentRng::seed_from_u64(seed);
        let mut h = Halving::new(priors, m, n, 1.0, &mut rng);
        let mut children = vec![Visited::default(); priors.len()];
        while !h.is_over() {
            let len = h.phase_len();
            for k in 0..len as usize {
                let i = h.left()[k % h.left().len()];
                children[i].visits += 1;
                children[i].total += values[i];
            }
            h.end_phase(len, priors, &children, 0.0, 50.0, 1.0);
        }
        (h.chosen(), children)
    }

    #[test]
    fn the_halving_picks_the_best_action_and_spends_exactly_its_budget() {
        // The best action has the lowest prior but one.
        let priors = [0.3, 0.25, 0.2, 0.1, 0.08, 0.05, 0.02];
        let values = [0.1, -0.2, 0.0, 0.6, 0.3, -0.5, 0.2];
        for n in [7, 16, 20, 33, 100, 257] {
            for seed in 0..20 {
                let (best, children) = run(&priors, &values, 16, n, seed);
                let spent: u32 = children.iter().map(|c| c.visits).sum();
                assert_eq!(spent, n, "n={n} seed={seed}");
                if n >= 16 {
                    assert_eq!(best, 3, "n={n} seed={seed}: {children:?}");
                }
            }
        }
    }

    #[test]
    fn with_m_at_least_the_actions_every_action_is_simulated() {
        let priors = [0.9, 0.05, 0.03, 0.01, 0.01];
        let values = [0.0; 5];
        for m in [5, 8, 100] {
            let (_, children) = run(&priors, &values, m, 20, 3);
            assert!(children.iter().all(|c| c.visits > 0), "m={m}: {children:?}");
        }
        // With m = 2 only two actions are ever simulated.
        let (_, children) = run(&priors, &values, 2, 20, 3);
        assert_eq!(children.iter().filter(|c| c.visits > 0).count(), 2);
        assert_eq!(children.iter().map(|c| c.visits).sum::<u32>(), 20);
    }

    #[test]
    fn the_phases_halve_the_actions() {
        let priors = [0.125f32; 8];
        let mut rng = AgentRng::seed_from_u64(1);
        let mut h = Halving::new(&priors, 8, 48, 1.0, &mut rng);
        let mut sizes = Vec::new();
        let mut lens = Vec::new();
        let children = vec![Visited::default(); 8];
        while !h.is_over() {
            sizes.push(h.left().len());
            let len = h.phase_len();
            lens.push(len);
            h.end_phase(len, &priors, &children, 0.0, 50.0, 1.0);
        }
        assert_eq!(sizes, [8, 4, 2]);
        // 48 / (3 · r) each: 2·8, 4·4, and the rest.
        assert_eq!(lens, [16, 16, 16]);
    }

    #[test]
    fn the_improved_policy_sums_to_1_and_follows_q() {
        let priors = [0.5, 0.3, 0.2];
        let children = [
            Visited {
                visits: 4,
                total: -2.0,
            },
            Visited {
                visits: 4,
                total: 2.0,
            },
            Visited::default(),
        ];
        let p = improved_policy(&priors, &children, 0.0, 50.0, 1.0);
        assert_eq!(p.len(), 3);
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-5, "{p:?}");
        // q: -0.5, 0.5 and v_mix between: the visited best takes most.
        assert!(p[1] > 0.9 && p[0] < p[2], "{p:?}");
        // Nothing visited: the prior itself.
        let none = [Visited::default(); 3];
        let p = improved_policy(&priors, &none, 0.3, 50.0, 1.0);
        for (a, b) in p.iter().zip(&priors) {
            assert!((a - b).abs() < 1e-6, "{p:?}");
        }
    }

    #[test]
    fn v_mix_weighs_the_visited_priors() {
        let priors = [0.5, 0.25, 0.25];
        let children = [
            Visited {
                visits: 2,
                total: 1.0,
            },
            Visited {
                visits: 2,
                total: -1.0,
            },
            Visited::default(),
        ];
        let mut q = Vec::new();
        completed_q(&priors, &children, 0.2, &mut q);
        // v_mix = (0.2 + 4/0.75 · (0.5·0.5 − 0.25·0.5)) / 5 = 0.1733…,
        // rescaled between −0.5 and 0.5.
        let v_mix = (0.2 + 4.0 / 0.75 * (0.25 - 0.125)) / 5.0;
        assert!((q[2] - (v_mix + 0.5)).abs() < 1e-9, "{q:?}");
        assert_eq!((q[0], q[1]), (1.0, 0.0));
    }
}
