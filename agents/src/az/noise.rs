//! The self-play randomness of `az`: Dirichlet noise on the root priors
//! and the move drawn at a temperature from the root visits.
//!
//! The Gamma sampler is written here (Marsaglia & Tsang 2000, with
//! Box–Muller normals) rather than taken from `rand_distr`, so that the
//! noise, hence self-play data, stays the same for a seed whatever the
//! version of a dependency (`rand_distr` has changed its samplers between
//! releases).

use rand::Rng;

/// A standard normal sample (Box–Muller, one of the pair).
fn normal<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    // 1 - u is in (0, 1]: its logarithm is finite.
    let u: f64 = 1.0 - rng.r#gen::<f64>();
    let v: f64 = rng.r#gen();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A Gamma(`shape`, 1) sample, `shape > 0`.
pub fn gamma<R: Rng + ?Sized>(rng: &mut R, shape: f64) -> f64 {
    if shape < 1.0 {
        // Gamma(a) = Gamma(a + 1) · U^(1/a).
        let u: f64 = 1.0 - rng.r#gen::<f64>();
        return gamma(rng, shape + 1.0) * u.powf(1.0 / shape);
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = 1.0 + c * x;
        if v <= 0.0 {
            continue;
        }
        let v = v * v * v;
        let u: f64 = 1.0 - rng.r#gen::<f64>();
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// Mix Dirichlet(`alpha`) noise into `priors` with weight `weight`:
/// `p ← (1 − weight)·p + weight·η`.
pub fn add_dirichlet<R: Rng + ?Sized>(rng: &mut R, priors: &mut [f32], alpha: f64, weight: f64) {
    if priors.is_empty() || weight <= 0.0 {
        return;
    }
    let eta: Vec<f64> = priors.iter().map(|_| gamma(rng, alpha)).collect();
    let sum: f64 = eta.iter().sum();
    for (p, e) in priors.iter_mut().zip(&eta) {
        let e = if sum > 0.0 {
            e / sum
        } else {
            1.0 / eta.len() as f64
        };
        *p = ((1.0 - weight) * f64::from(*p) + weight * e) as f32;
    }
}

/// The index of the move drawn with probability proportional to
/// `visits^(1/temp)` (`temp > 0`); all zero visits draw uniformly.
pub fn sample_at_temperature<R: Rng + ?Sized>(rng: &mut R, visits: &[u32], temp: f64) -> usize {
    let max = visits.iter().copied().max().unwrap_or(0);
    if max == 0 {
        return rng.gen_range(0..visits.len());
    }
    // Relative to the most visited, so high powers do not overflow.
    let weights: Vec<f64> = visits
        .iter()
        .map(|&v| (f64::from(v) / f64::from(max)).powf(1.0 / temp))
        .collect();
    let total: f64 = weights.iter().sum();
    let mut x = rng.r#gen::<f64>() * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    // Rounding: the last move with any weight.
    weights.iter().rposition(|&w| w > 0.0).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AgentRng;
    use rand::SeedableRng;

    #[test]
    fn gamma_samples_have_the_right_mean_and_variance() {
        let mut rng = AgentRng::seed_from_u64(5);
        for shape in [0.3, 1.0, 2.5] {
            let n = 40_000;
            let xs: Vec<f64> = (0..n).map(|_| gamma(&mut rng, shape)).collect();
            let mean = xs.iter().sum::<f64>() / n as f64;
            let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
            // Mean and variance of Gamma(k, 1) are both k.
            assert!(
                (mean - shape).abs() < 0.05 * shape.max(1.0),
                "{shape}: {mean}"
            );
            assert!((var - shape).abs() < 0.1 * shape.max(1.0), "{shape}: {var}");
            assert!(xs.iter().all(|&x| x >= 0.0));
        }
    }

    #[test]
    fn dirichlet_noise_keeps_priors_a_distribution_and_moves_them() {
        let mut rng = AgentRng::seed_from_u64(1);
        let mut p = vec![0.25f32; 4];
        add_dirichlet(&mut rng, &mut p, 0.3, 0.25);
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(p.iter().any(|&x| (x - 0.25).abs() > 1e-3), "{p:?}");
        let mut q = vec![0.5f32, 0.5];
        add_dirichlet(&mut rng, &mut q, 0.3, 0.0);
        assert_eq!(q, vec![0.5, 0.5]);
    }

    #[test]
    fn temperature_follows_the_visits() {
        let mut rng = AgentRng::seed_from_u64(2);
        let visits = [30, 10, 0];
        let mut counts = [0; 3];
        for _ in 0..4000 {
            counts[sample_at_temperature(&mut rng, &visits, 1.0)] += 1;
        }
        assert_eq!(counts[2], 0);
        // 3:1 at temperature 1.
        let ratio = counts[0] as f64 / counts[1] as f64;
        assert!((ratio - 3.0).abs() < 0.4, "{counts:?}");
        // A low temperature is nearly greedy.
        let greedy = (0..200)
            .filter(|_| sample_at_temperature(&mut rng, &visits, 0.05) == 0)
            .count();
        assert_eq!(greedy, 200);
    }
}
