//! Ridge regression on standardised features, solved exactly.
//!
//! With 40 features the normal equations are a 40 × 40 symmetric
//! positive definite system: `(ZᵀZ / n + λI) w = Zᵀ(y − ȳ) / n`, `Z` the
//! features standardised to mean 0 and variance 1. A Cholesky
//! factorisation of that size is a few dozen lines, so no linear-algebra
//! crate is pulled in for it. Every sum runs in row order, so the same
//! rows give the same weights bit for bit.

// Matrix code reads best with explicit indices.
#![allow(clippy::needless_range_loop)]

use super::features::{FeatureVector, FEATURE_COUNT};
use super::model::ValueModel;

/// Standard deviations below this count as a constant feature (scale 1,
/// and its weight comes out 0).
const CONSTANT: f64 = 1e-9;

/// Fit a ridge model predicting `targets` from `rows` with penalty
/// `lambda` (> 0) on the standardised weights. The intercept is not
/// penalised. `rows` must not be empty.
pub fn fit(rows: &[FeatureVector], targets: &[f64], lambda: f64) -> ValueModel {
    assert_eq!(rows.len(), targets.len(), "one target per row");
    assert!(!rows.is_empty(), "at least one row");
    assert!(lambda > 0.0, "a positive penalty");
    const P: usize = FEATURE_COUNT;
    let n = rows.len() as f64;
    let mut mean = vec![0.0; P];
    for x in rows {
        for i in 0..P {
            mean[i] += x[i];
        }
    }
    mean.iter_mut().for_each(|m| *m /= n);
    let mut scale = vec![0.0; P];
    for x in rows {
        for i in 0..P {
            scale[i] += (x[i] - mean[i]).powi(2);
        }
    }
    for s in &mut scale {
        *s = (*s / n).sqrt();
        if *s < CONSTANT {
            *s = 1.0;
        }
    }
    let y_mean = targets.iter().sum::<f64>() / n;
    let mut gram = vec![[0.0; P]; P];
    let mut rhs = [0.0; P];
    let mut z = [0.0; P];
    for (x, &y) in rows.iter().zip(targets) {
        for i in 0..P {
            z[i] = (x[i] - mean[i]) / scale[i];
        }
        for i in 0..P {
            rhs[i] += z[i] * (y - y_mean);
            for j in 0..=i {
                gram[i][j] += z[i] * z[j];
            }
        }
    }
    for i in 0..P {
        for j in 0..=i {
            gram[i][j] /= n;
            gram[j][i] = gram[i][j];
        }
        gram[i][i] += lambda;
        rhs[i] /= n;
    }
    let weights = solve_spd(gram, rhs).to_vec();
    ValueModel::new(mean, scale, weights, y_mean, lambda)
}

/// Solve `a x = b` for a symmetric positive definite `a` by Cholesky
/// factorisation (`a = L Lᵀ`, then two triangular solves).
fn solve_spd<const P: usize>(mut a: Vec<[f64; P]>, b: [f64; P]) -> [f64; P] {
    // L overwrites the lower triangle of a.
    for j in 0..P {
        let mut d = a[j][j];
        for k in 0..j {
            d -= a[j][k] * a[j][k];
        }
        let d = d.max(f64::MIN_POSITIVE).sqrt();
        a[j][j] = d;
        for i in j + 1..P {
            let mut s = a[i][j];
            for k in 0..j {
                s -= a[i][k] * a[j][k];
            }
            a[i][j] = s / d;
        }
    }
    let mut y = [0.0; P];
    for i in 0..P {
        let mut s = b[i];
        for k in 0..i {
            s -= a[i][k] * y[k];
        }
        y[i] = s / a[i][i];
    }
    let mut x = [0.0; P];
    for i in (0..P).rev() {
        let mut s = y[i];
        for k in i + 1..P {
            s -= a[k][i] * x[k];
        }
        x[i] = s / a[i][i];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Issue 16: `train` recovers known weights from synthetic data.
    #[test]
    fn ridge_recovers_known_weights_from_synthetic_data() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
        let truth: Vec<f64> = (0..FEATURE_COUNT)
            .map(|i| if i % 3 == 0 { 0.0 } else { i as f64 - 20.0 })
            .collect();
        let mut rows = Vec::new();
        let mut targets = Vec::new();
        for _ in 0..4000 {
            let mut x = [0.0; FEATURE_COUNT];
            for (i, v) in x.iter_mut().enumerate() {
                *v = 10.0 * i as f64 + rng.gen_range(-5.0..5.0) * (1 + i % 4) as f64;
            }
            let noise = rng.gen_range(-1.0..1.0);
            targets.push(7.0 + x.iter().zip(&truth).map(|(a, b)| a * b).sum::<f64>() + noise);
            rows.push(x);
        }
        let model = fit(&rows, &targets, 1e-6);
        for i in 0..FEATURE_COUNT {
            // Back to the raw scale.
            let w = model.weights[i] / model.scale[i];
            assert!(
                (w - truth[i]).abs() < 0.02,
                "weight {i}: {w} vs {}",
                truth[i]
            );
        }
        let x = rows[17];
        assert!((model.predict(&x) - targets[17]).abs() < 2.0);
        // A heavy penalty shrinks the weights towards 0.
        let shrunk = fit(&rows, &targets, 100.0);
        let norm = |m: &ValueModel| m.weights.iter().map(|w| w * w).sum::<f64>();
        assert!(norm(&shrunk) < norm(&model) / 100.0);
        // Same rows, same model, bit for bit.
        assert_eq!(fit(&rows, &targets, 1e-6), model);
    }

    #[test]
    fn a_constant_feature_gets_no_weight() {
        let rows: Vec<FeatureVector> = (0..50)
            .map(|k| {
                let mut x = [3.0; FEATURE_COUNT];
                x[1] = k as f64;
                x
            })
            .collect();
        let targets: Vec<f64> = (0..50).map(|k| 2.0 * k as f64).collect();
        let m = fit(&rows, &targets, 1e-9);
        assert_eq!(m.weights[0], 0.0);
        assert_eq!(m.scale[0], 1.0);
        assert!((m.weights[1] / m.scale[1] - 2.0).abs() < 1e-6);
    }
}
