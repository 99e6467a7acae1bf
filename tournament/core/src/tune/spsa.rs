//! Simultaneous perturbation stochastic approximation (Spall 1992), the
//! algorithm alone: no games, no files.
//!
//! The state is θ in unit coordinates (each parameter's range scaled to
//! `0..1`). Iteration `k` draws a sign `Δᵢ = ±1` per parameter (from the
//! seed and `k` only), measures `θ + c_k·Δ` against `θ − c_k·Δ` (both
//! clamped to `0..1`) and moves
//!
//! ```text
//! θᵢ ← clamp(θᵢ + a_k · result / (2·c_k) · Δᵢ, 0, 1)
//! ```
//!
//! where `result` estimates `F(θ+) − F(θ−)` for the objective `F` being
//! maximised ([`crate::tune::play`] measures it with games). The
//! estimate uses the nominal perturbation `c_k·Δ`, not the one played
//! after clamping and rounding, as fishtest does.

use super::gains::Gains;
use crate::seeds::mix;

/// Domain tag of the perturbation signs ("FLIP").
const FLIP_TAG: u64 = 0x464C_4950;

/// The sign of parameter `i`'s perturbation in iteration `k`:
/// `mix(seed, "FLIP", [k, i])`'s lowest bit, 1 for `+1`.
pub fn flip(seed: u64, k: u64, i: usize) -> f64 {
    if mix(seed, FLIP_TAG, &[k, i as u64]) & 1 == 1 {
        1.0
    } else {
        -1.0
    }
}

/// The two points iteration `k` measures.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    /// The iteration.
    pub k: u64,
    /// The perturbation's sign per parameter.
    pub delta: Vec<f64>,
    /// `θ + c_k·Δ`, clamped to `0..1`.
    pub plus: Vec<f64>,
    /// `θ − c_k·Δ`, clamped to `0..1`.
    pub minus: Vec<f64>,
}

/// The state of an SPSA run: θ, the gains and the seed of the signs.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    /// θ in unit coordinates.
    pub theta: Vec<f64>,
    /// The gain schedule.
    pub gains: Gains,
    /// The seed of the perturbation signs.
    pub seed: u64,
}

impl Spsa {
    /// A run from `start` (unit coordinates, clamped).
    pub fn new(start: Vec<f64>, gains: Gains, seed: u64) -> Spsa {
        let theta = start.into_iter().map(|x| x.clamp(0.0, 1.0)).collect();
        Spsa { theta, gains, seed }
    }

    /// The points iteration `k` measures around the current θ.
    pub fn probe(&self, k: u64) -> Probe {
        let c = self.gains.c_k(k);
        let delta: Vec<f64> = (0..self.theta.len())
            .map(|i| flip(self.seed, k, i))
            .collect();
        let shifted = |sign: f64| {
            self.theta
                .iter()
                .zip(&delta)
                .map(|(t, d)| (t + sign * c * d).clamp(0.0, 1.0))
                .collect()
        };
        Probe {
            k,
            plus: shifted(1.0),
            minus: shifted(-1.0),
            delta,
        }
    }

    /// Move θ by the measured `result ≈ F(θ+) − F(θ−)` of `probe`.
    pub fn update(&mut self, probe: &Probe, result: f64) {
        let step = self.gains.a_k(probe.k) * result / (2.0 * self.gains.c_k(probe.k));
        for (t, d) in self.theta.iter_mut().zip(&probe.delta) {
            *t = (*t + step * d).clamp(0.0, 1.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// A standard normal draw (Box–Muller).
    fn normal(rng: &mut Pcg64) -> f64 {
        let u: f64 = rng.gen_range(f64::EPSILON..1.0);
        let v: f64 = rng.gen_range(0.0..1.0);
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    /// SPSA on a noisy quadratic `F(x) = −Σ wᵢ (xᵢ − x*ᵢ)²` ends within
    /// 0.03 of the optimum in every coordinate after 5000 iterations,
    /// from a start at least 0.3 away, for five seeds. The noise (normal,
    /// sd 0.02, on each measured difference) is about eight times the
    /// signal of a point 0.03 from the optimum on the flattest axis
    /// (`4·c_k·w·d ≈ 4 · 0.04 · 0.5 · 0.03`).
    #[test]
    fn spsa_finds_the_optimum_of_a_noisy_quadratic() {
        let optimum = [0.8, 0.25, 0.6];
        let weights = [1.0, 3.0, 0.5];
        let objective = |x: &[f64]| -> f64 {
            x.iter()
                .zip(optimum.iter().zip(&weights))
                .map(|(x, (o, w))| -w * (x - o) * (x - o))
                .sum()
        };
        for seed in 1..=5 {
            let gains = Gains {
                a: 0.5,
                big_a: 200.0,
                alpha: 0.602,
                c: 0.1,
                gamma: 0.101,
            };
            let mut spsa = Spsa::new(vec![0.2, 0.7, 0.1], gains, seed);
            let mut noise = Pcg64::seed_from_u64(seed);
            for k in 0..5000 {
                let probe = spsa.probe(k);
                let result =
                    objective(&probe.plus) - objective(&probe.minus) + 0.02 * normal(&mut noise);
                spsa.update(&probe, result);
            }
            for (i, (t, o)) in spsa.theta.iter().zip(&optimum).enumerate() {
                assert!((t - o).abs() < 0.03, "seed {seed}, x{i}: {t} vs {o}");
            }
        }
    }

    #[test]
    fn probes_are_symmetric_and_depend_on_the_seed_and_iteration_only() {
        let gains = Gains::new(100, None, None, Some(0.2));
        let spsa = Spsa::new(vec![0.5, 0.5, 0.95], gains, 7);
        let p = spsa.probe(3);
        assert_eq!(p, spsa.probe(3));
        let c = gains.c_k(3);
        for i in 0..2 {
            assert!((p.plus[i] - 0.5 - c * p.delta[i]).abs() < 1e-12);
            assert!((p.minus[i] - 0.5 + c * p.delta[i]).abs() < 1e-12);
        }
        // Clamped at the bound.
        assert!(p.plus[2] == 1.0 || p.minus[2] == 1.0);
        // The signs vary with the iteration: not all equal over 20 draws.
        let signs: Vec<f64> = (0..20).map(|k| flip(7, k, 0)).collect();
        assert!(signs.contains(&1.0) && signs.contains(&-1.0));
    }

    #[test]
    fn a_won_probe_moves_theta_towards_plus() {
        let gains = Gains::new(10, None, None, None);
        let mut spsa = Spsa::new(vec![0.5, 0.5], gains, 1);
        let p = spsa.probe(0);
        spsa.update(&p, 1.0);
        for i in 0..2 {
            let moved = spsa.theta[i] - 0.5;
            assert!(moved * p.delta[i] > 0.0);
            assert!((moved.abs() - crate::tune::gains::DEFAULT_FIRST_STEP).abs() < 1e-12);
        }
    }
}
