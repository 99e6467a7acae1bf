//! Match statistics: every result is reported with its uncertainty.
//!
//! * [`wilson_interval`]: a win rate with its Wilson score interval (a draw
//!   counts as half a win).
//! * [`mean_se`]: the mean of a sample (e.g. score differences) and its
//!   standard error.
//! * [`elo_from_score`], [`score_from_elo`]: the logistic Elo scale
//!   (400 points = odds of 10 to 1).
//! * [`elo_interval`]: the Elo difference of a two-agent match and its 95%
//!   interval from the win/draw/loss counts, computed as fastchess and
//!   cutechess-cli report it.
//! * [`fit_elo`]: ratings of many agents from pairwise results
//!   (Bradley–Terry maximum likelihood), with 95% intervals.
//! * [`sprt_llr`], [`sprt_bounds`], [`sprt_decide`]: the sequential
//!   probability ratio test for A/B questions ("is the change worth at least
//!   `elo1`, or at most `elo0`?"), as cutechess-cli and fastchess run it.
//!
//! Everything is plain `f64` arithmetic with no randomness: the same input
//! always gives the same output, bit for bit.

use std::f64::consts::LN_10;

/// The two-sided 95% quantile of the standard normal distribution,
/// Φ⁻¹(0.975).
pub const Z95: f64 = 1.959963984540054;

/// Elo points per natural-log unit of odds: a rating difference `d` gives the
/// stronger side odds of `exp(d / ELO_PER_NAT) = 10^(d / 400)`.
const ELO_PER_NAT: f64 = 400.0 / LN_10;

/// Scores are clamped to `[SCORE_CLAMP, 1 - SCORE_CLAMP]` before conversion
/// to Elo, so a perfect score gives a large but finite difference.
const SCORE_CLAMP: f64 = 1e-6;

// ---------------------------------------------------------------------------
// Win rates and means
// ---------------------------------------------------------------------------

/// The Wilson score interval for a proportion: `successes` out of `n` trials,
/// at the normal quantile `z` (use [`Z95`] for a 95% interval).
///
/// `successes` may be fractional, so a draw can count as half a win. Inputs
/// are clamped so that the observed proportion lies in `[0, 1]`; with no
/// trials (`n <= 0`) nothing is known and the interval is `(0.0, 1.0)`. The
/// bounds are always within `[0, 1]`, and unlike the normal ("Wald") interval
/// the Wilson interval stays sensible for proportions near 0 or 1.
///
/// ```text
/// centre     = (p + z²/2n) / (1 + z²/n)
/// half-width = z / (1 + z²/n) · sqrt(p(1 − p)/n + z²/4n²)
/// ```
pub fn wilson_interval(successes: f64, n: f64, z: f64) -> (f64, f64) {
    if n.is_nan() || n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = (successes / n).clamp(0.0, 1.0);
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The mean of a sample with its standard error, see [`mean_se`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeanSe {
    /// The sample mean (0 for an empty sample).
    pub mean: f64,
    /// The standard error of the mean: the sample standard deviation (with
    /// `n - 1` in the denominator) divided by `sqrt(n)`; 0 when `n < 2`.
    pub se: f64,
    /// The number of values.
    pub n: usize,
}

/// The mean and standard error of `values`.
///
/// The standard deviation uses Bessel's correction (`n - 1`); the standard
/// error is `sd / sqrt(n)`. With fewer than two values the standard error is
/// reported as 0, and an empty sample has mean 0.
pub fn mean_se(values: &[f64]) -> MeanSe {
    let n = values.len();
    if n == 0 {
        return MeanSe {
            mean: 0.0,
            se: 0.0,
            n,
        };
    }
    let count = n as f64;
    let mean = values.iter().sum::<f64>() / count;
    if n < 2 {
        return MeanSe { mean, se: 0.0, n };
    }
    // Two passes: the sum of squared deviations from the mean does not
    // suffer the cancellation of the Σx² − n·mean² shortcut.
    let squares: f64 = values.iter().map(|x| (x - mean) * (x - mean)).sum();
    let sd = (squares / (count - 1.0)).sqrt();
    MeanSe {
        mean,
        se: sd / count.sqrt(),
        n,
    }
}

// ---------------------------------------------------------------------------
// Elo
// ---------------------------------------------------------------------------

/// The Elo difference at which the expected score is `p` (logistic model,
/// 400-point scale): `-400 · log10(1/p − 1)`.
///
/// `p` is clamped to `[1e-6, 1 − 1e-6]`, so a score of 0 or 1 gives a large
/// but finite difference (about ±2400); NaN stays NaN.
pub fn elo_from_score(p: f64) -> f64 {
    let p = p.clamp(SCORE_CLAMP, 1.0 - SCORE_CLAMP);
    -400.0 * (1.0 / p - 1.0).log10()
}

/// The expected score of a side that is `d` Elo stronger (logistic model,
/// 400-point scale): `1 / (1 + 10^(−d/400))`. The inverse of
/// [`elo_from_score`].
pub fn score_from_elo(d: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-d / 400.0))
}

/// Mean score and per-game variance of a win/draw/loss record, with a draw
/// worth half a point. Returns `(n, mean, variance)`; `n` must be positive.
fn trinomial(wins: f64, draws: f64, losses: f64) -> (f64, f64, f64) {
    let n = wins + draws + losses;
    let (w, d, l) = (wins / n, draws / n, losses / n);
    let mean = w + 0.5 * d;
    let variance =
        w * (1.0 - mean) * (1.0 - mean) + d * (0.5 - mean) * (0.5 - mean) + l * mean * mean;
    (n, mean, variance)
}

/// The Elo difference of a two-agent match and its 95% interval, from the
/// counts of wins, draws and losses of the first agent. Returns
/// `(elo, low, high)`.
///
/// This is the interval fastchess and cutechess-cli print: the mean score
/// `s = (W + D/2)/N`, the per-game variance of the score from the observed
/// win/draw/loss frequencies, the score interval
/// `s ± Z95 · sqrt(variance / N)`, and every score converted with
/// [`elo_from_score`] (so the interval is not symmetric around `elo`).
/// fastchess's "±" is `(high − low) / 2`.
///
/// With no games the result is `(0, elo_from_score(0), elo_from_score(1))`,
/// i.e. nothing is known; a perfect score gives a large finite difference
/// with an empty interval, as the observed variance is then zero.
pub fn elo_interval(wins: f64, draws: f64, losses: f64) -> (f64, f64, f64) {
    if wins + draws + losses <= 0.0 {
        return (0.0, elo_from_score(0.0), elo_from_score(1.0));
    }
    let (n, mean, variance) = trinomial(wins, draws, losses);
    let half = Z95 * (variance / n).sqrt();
    (
        elo_from_score(mean),
        elo_from_score(mean - half),
        elo_from_score(mean + half),
    )
}

// ---------------------------------------------------------------------------
// Multi-agent Elo (Bradley–Terry)
// ---------------------------------------------------------------------------

/// One pairwise result for [`fit_elo`]. A game between more than two players
/// is given as one `Game` for each pair of its players.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Game {
    /// Index of the first agent (below the `n_agents` given to [`fit_elo`]).
    pub a: usize,
    /// Index of the second agent.
    pub b: usize,
    /// The first agent's score against the second: 1 for a win, 0.5 for a
    /// draw, 0 for a loss.
    pub score_a: f64,
}

/// A rating from [`fit_elo`] with its 95% interval, all in Elo.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    /// The rating; the ratings of all agents average 0.
    pub elo: f64,
    /// The lower end of the 95% interval.
    pub ci_low: f64,
    /// The upper end of the 95% interval.
    pub ci_high: f64,
}

/// The weight of the prior: each agent plays this many virtual draws against
/// a virtual opponent rated 0, which keeps ratings finite for an agent that
/// won or lost every game.
const PRIOR_DRAWS: f64 = 1.0;

/// Newton iterations stop when no rating moves by more than this (in
/// natural-log odds units; 1e-10 is about 2e-8 Elo).
const NEWTON_TOLERANCE: f64 = 1e-10;

/// A safety net: Newton's method converges in well under 100 iterations.
const NEWTON_MAX_ITERATIONS: usize = 200;

/// Ratings of `n_agents` agents from pairwise results, by Bradley–Terry
/// maximum likelihood on the 400-point logistic Elo scale.
///
/// The model: agent `a` scores against agent `b` with expectation
/// [`score_from_elo`]`(r_a − r_b)`; a draw counts as half a win and half a
/// loss. A small prior (one virtual draw of every agent against a virtual
/// opponent rated 0) keeps every rating finite, even for an agent that won or
/// lost all its games; with hundreds of games it moves ratings by a small
/// fraction of an Elo point. The ratings are then shifted so their mean is
/// 0 (only differences are meaningful).
///
/// The interval of each rating is `elo ± Z95 · se`, where the standard error
/// comes from the inverse of the observed Fisher information (the negated
/// Hessian of the penalised log-likelihood), projected onto the mean-zero
/// ratings: it is the uncertainty of the agent's rating relative to the
/// field's average. Scoring a draw as half a win overstates the variance of
/// a game's score when draws are common, so the intervals are then
/// conservative (wider than necessary); without draws they have their
/// nominal 95% coverage.
///
/// Games of an agent against itself are ignored. The fit is deterministic:
/// results are first summed per pair (O(number of games)), then damped
/// Newton iterations solve a small `n_agents × n_agents` system (O(n_agents³)
/// each), so 10 agents and 100,000 games take about a millisecond.
///
/// # Panics
///
/// If a game names an agent index that is not below `n_agents`.
pub fn fit_elo(n_agents: usize, games: &[Game]) -> Vec<EloEstimate> {
    let k = n_agents;
    if k == 0 {
        return Vec::new();
    }
    let mut model = BradleyTerry {
        k,
        games: vec![0.0; k * k],
        score: vec![0.0; k * k],
    };
    for game in games {
        assert!(
            game.a < k && game.b < k,
            "fit_elo: game between agents {} and {}, but only {k} agents",
            game.a,
            game.b
        );
        debug_assert!(
            (0.0..=1.0).contains(&game.score_a),
            "fit_elo: score {} outside [0, 1]",
            game.score_a
        );
        if game.a == game.b {
            continue;
        }
        model.games[game.a * k + game.b] += 1.0;
        model.games[game.b * k + game.a] += 1.0;
        model.score[game.a * k + game.b] += game.score_a;
        model.score[game.b * k + game.a] += 1.0 - game.score_a;
    }

    let theta = model.maximise();
    let covariance = model.information(&theta).inverse();

    let mean_theta = theta.iter().sum::<f64>() / k as f64;
    // Var(θᵢ − mean θ) = Cᵢᵢ − (2/k) Σⱼ Cᵢⱼ + (1/k²) Σⱼₗ Cⱼₗ.
    let row_sums: Vec<f64> = (0..k).map(|i| covariance.row(i).iter().sum()).collect();
    let total = row_sums.iter().sum::<f64>();
    let kf = k as f64;
    theta
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let variance = covariance.get(i, i) - 2.0 * row_sums[i] / kf + total / (kf * kf);
            let half = Z95 * ELO_PER_NAT * variance.max(0.0).sqrt();
            let elo = ELO_PER_NAT * (t - mean_theta);
            EloEstimate {
                elo,
                ci_low: elo - half,
                ci_high: elo + half,
            }
        })
        .collect()
}

/// ln σ(x) = −ln(1 + e^(−x)), without overflow for large |x|.
fn ln_sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// σ(x) = 1 / (1 + e^(−x)).
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The penalised Bradley–Terry log-likelihood, with results summed per
/// ordered pair. Ratings `θ` are in natural-log odds units.
struct BradleyTerry {
    /// Number of agents.
    k: usize,
    /// `games[i * k + j]`: games between `i` and `j` (symmetric).
    games: Vec<f64>,
    /// `score[i * k + j]`: points `i` scored against `j`.
    score: Vec<f64>,
}

impl BradleyTerry {
    /// The log-likelihood of ratings `theta`, prior included.
    fn log_likelihood(&self, theta: &[f64]) -> f64 {
        let k = self.k;
        let mut sum = 0.0;
        for i in 0..k {
            for j in 0..k {
                let s = self.score[i * k + j];
                if s > 0.0 {
                    sum += s * ln_sigmoid(theta[i] - theta[j]);
                }
            }
            sum += PRIOR_DRAWS * 0.5 * (ln_sigmoid(theta[i]) + ln_sigmoid(-theta[i]));
        }
        sum
    }

    /// The gradient of [`Self::log_likelihood`].
    fn gradient(&self, theta: &[f64]) -> Vec<f64> {
        let k = self.k;
        (0..k)
            .map(|i| {
                let mut g = PRIOR_DRAWS * (0.5 - sigmoid(theta[i]));
                for j in 0..k {
                    let n = self.games[i * k + j];
                    if n > 0.0 {
                        g += self.score[i * k + j] - n * sigmoid(theta[i] - theta[j]);
                    }
                }
                g
            })
            .collect()
    }

    /// The observed information: minus the Hessian of
    /// [`Self::log_likelihood`]. Positive definite thanks to the prior.
    fn information(&self, theta: &[f64]) -> Matrix {
        let k = self.k;
        let mut m = Matrix::zeros(k);
        for i in 0..k {
            let p = sigmoid(theta[i]);
            let mut diagonal = PRIOR_DRAWS * p * (1.0 - p);
            for j in 0..k {
                let n = self.games[i * k + j];
                if j != i && n > 0.0 {
                    let p = sigmoid(theta[i] - theta[j]);
                    let w = n * p * (1.0 - p);
                    diagonal += w;
                    m.set(i, j, -w);
                }
            }
            m.set(i, i, diagonal);
        }
        m
    }

    /// The maximum of the penalised log-likelihood, by Newton's method with
    /// a backtracking line search (the objective is strictly concave, so
    /// this converges from any start).
    fn maximise(&self) -> Vec<f64> {
        let k = self.k;
        let mut theta = vec![0.0; k];
        let mut value = self.log_likelihood(&theta);
        for _ in 0..NEWTON_MAX_ITERATIONS {
            let gradient = self.gradient(&theta);
            let step = self.information(&theta).solve(&gradient);
            let largest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
            if largest < NEWTON_TOLERANCE {
                for (t, s) in theta.iter_mut().zip(&step) {
                    *t += s;
                }
                break;
            }
            // Predicted increase per unit step; positive as the information
            // is positive definite.
            let slope: f64 = gradient.iter().zip(&step).map(|(g, s)| g * s).sum();
            let mut t = 1.0;
            let accepted = loop {
                let candidate: Vec<f64> =
                    theta.iter().zip(&step).map(|(th, s)| th + t * s).collect();
                let candidate_value = self.log_likelihood(&candidate);
                if candidate_value >= value + 1e-4 * t * slope {
                    break Some((candidate, candidate_value));
                }
                t *= 0.5;
                if t < 1e-12 {
                    break None;
                }
            };
            match accepted {
                Some((candidate, candidate_value)) => {
                    theta = candidate;
                    value = candidate_value;
                }
                // No progress is possible in floating point: converged.
                None => break,
            }
        }
        theta
    }
}

/// A small dense square matrix, row-major.
struct Matrix {
    n: usize,
    data: Vec<f64>,
}

impl Matrix {
    fn zeros(n: usize) -> Self {
        Matrix {
            n,
            data: vec![0.0; n * n],
        }
    }

    fn get(&self, i: usize, j: usize) -> f64 {
        self.data[i * self.n + j]
    }

    fn set(&mut self, i: usize, j: usize, value: f64) {
        self.data[i * self.n + j] = value;
    }

    fn row(&self, i: usize) -> &[f64] {
        &self.data[i * self.n..(i + 1) * self.n]
    }

    /// The lower-triangular Cholesky factor `L` with `self = L Lᵀ`, for a
    /// symmetric positive definite matrix. A pivot that is not positive
    /// (only possible through rounding) is replaced by a tiny positive one.
    fn cholesky(&self) -> Matrix {
        let n = self.n;
        let mut l = Matrix::zeros(n);
        for i in 0..n {
            for j in 0..=i {
                let dot: f64 = l.row(i)[..j]
                    .iter()
                    .zip(&l.row(j)[..j])
                    .map(|(a, b)| a * b)
                    .sum();
                let value = self.get(i, j) - dot;
                if i == j {
                    let floor = 1e-300_f64.max(1e-15 * self.get(i, i).abs());
                    l.set(i, i, value.max(floor).sqrt());
                } else {
                    l.set(i, j, value / l.get(j, j));
                }
            }
        }
        l
    }

    /// Solves `L Lᵀ x = b` given the Cholesky factor `L` (`self`).
    fn cholesky_solve(&self, b: &[f64]) -> Vec<f64> {
        let n = self.n;
        let mut y = vec![0.0; n];
        for i in 0..n {
            let dot: f64 = self.row(i)[..i].iter().zip(&y).map(|(a, b)| a * b).sum();
            y[i] = (b[i] - dot) / self.get(i, i);
        }
        let mut x = vec![0.0; n];
        for i in (0..n).rev() {
            let dot: f64 = (i + 1..n).map(|j| self.get(j, i) * x[j]).sum();
            x[i] = (y[i] - dot) / self.get(i, i);
        }
        x
    }

    /// Solves `self · x = b` for a symmetric positive definite matrix.
    fn solve(&self, b: &[f64]) -> Vec<f64> {
        self.cholesky().cholesky_solve(b)
    }

    /// The inverse of a symmetric positive definite matrix.
    fn inverse(&self) -> Matrix {
        let n = self.n;
        let l = self.cholesky();
        let mut inverse = Matrix::zeros(n);
        let mut unit = vec![0.0; n];
        for j in 0..n {
            unit[j] = 1.0;
            let column = l.cholesky_solve(&unit);
            unit[j] = 0.0;
            for (i, value) in column.into_iter().enumerate() {
                inverse.set(i, j, value);
            }
        }
        inverse
    }
}

// ---------------------------------------------------------------------------
// SPRT
// ---------------------------------------------------------------------------

/// The outcome of [`sprt_decide`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SprtDecision {
    /// The log-likelihood ratio reached the lower bound: the difference is at
    /// most `elo0` (H0 accepted; e.g. "the change is no improvement").
    AcceptH0,
    /// The log-likelihood ratio reached the upper bound: the difference is at
    /// least `elo1` (H1 accepted).
    AcceptH1,
    /// Neither bound reached: play more games.
    Continue,
}

/// The log-likelihood ratio of H1 ("the Elo difference is `elo1`") against
/// H0 ("it is `elo0`") for a win/draw/loss record of the first agent, with
/// logistic Elo bounds as in cutechess-cli and fastchess's default
/// trinomial model.
///
/// This is the generalised SPRT (GSPRT) approximation of M. Van den Bergh,
/// in which the per-game score distribution is estimated from the data:
///
/// ```text
/// s = (W + D/2)/N,   σ² = per-game variance of the score (as elo_interval)
/// s₀ = score_from_elo(elo0),   s₁ = score_from_elo(elo1)
/// LLR = N · (s₁ − s₀) · (2s − s₀ − s₁) / (2σ²)
/// ```
///
/// It agrees with cutechess-cli and fastchess to about 0.01 for realistic
/// Elo bounds. As in fastchess, a count of zero is replaced by 0.001 so the
/// variance is never zero (then a one-sided record gives a large LLR of the
/// right sign). With no games at all the LLR is 0.
pub fn sprt_llr(wins: f64, draws: f64, losses: f64, elo0: f64, elo1: f64) -> f64 {
    if wins + draws + losses <= 0.0 {
        return 0.0;
    }
    let regularise = |count: f64| if count <= 0.0 { 1e-3 } else { count };
    let (n, mean, variance) = trinomial(regularise(wins), regularise(draws), regularise(losses));
    let s0 = score_from_elo(elo0);
    let s1 = score_from_elo(elo1);
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
}

/// The SPRT stopping bounds `(lower, upper)` on the log-likelihood ratio for
/// a false positive rate `alpha` and a false negative rate `beta`:
/// `lower = ln(beta / (1 − alpha))`, `upper = ln((1 − beta) / alpha)`
/// (Wald's approximation). For `alpha = beta = 0.05` they are ±2.944.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// The SPRT decision for a log-likelihood ratio (from [`sprt_llr`]) and
/// bounds (from [`sprt_bounds`]): H1 once `llr >= upper`, H0 once
/// `llr <= lower`, otherwise continue.
pub fn sprt_decide(llr: f64, bounds: (f64, f64)) -> SprtDecision {
    let (lower, upper) = bounds;
    if llr >= upper {
        SprtDecision::AcceptH1
    } else if llr <= lower {
        SprtDecision::AcceptH0
    } else {
        SprtDecision::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "expected {expected} ± {tolerance}, got {actual}"
        );
    }

    // --- Wilson --------------------------------------------------------------

    #[test]
    fn wilson_8_of_10_matches_published_table() {
        // 8 successes in 10 trials, 95%: (0.4902, 0.9433) (Wikipedia,
        // "Binomial proportion confidence interval"; Newcombe 1998 tables).
        let (low, high) = wilson_interval(8.0, 10.0, Z95);
        assert_close(low, 0.4902, 5e-5);
        assert_close(high, 0.9433, 5e-5);
    }

    #[test]
    fn wilson_0_and_10_of_10_are_mirror_images() {
        // 0/10: the lower bound is exactly 0 and the upper bound is
        // z²/(n + z²) = 3.8415/13.8415 = 0.2775 (a standard table value).
        let (low, high) = wilson_interval(0.0, 10.0, Z95);
        assert_close(low, 0.0, 1e-12);
        assert_close(high, 0.2775, 5e-5);
        let (low, high) = wilson_interval(10.0, 10.0, Z95);
        assert_close(low, 1.0 - 0.2775, 5e-5);
        assert_close(high, 1.0, 1e-12);
    }

    #[test]
    fn wilson_counts_draws_as_half_and_handles_no_trials() {
        // 3 wins and 2 draws in 10 games is a fractional 4 successes.
        assert_eq!(
            wilson_interval(3.0 + 0.5 * 2.0, 10.0, Z95),
            wilson_interval(4.0, 10.0, Z95)
        );
        // 4/10 at 95%: (0.1682, 0.6873) (standard table value).
        let (low, high) = wilson_interval(4.0, 10.0, Z95);
        assert_close(low, 0.1682, 5e-5);
        assert_close(high, 0.6873, 5e-5);
        assert_eq!(wilson_interval(0.0, 0.0, Z95), (0.0, 1.0));
    }

    #[test]
    fn z95_is_the_normal_quantile() {
        // Φ(1.959964) = 0.975: check via the tail of the normal density
        // integrated numerically (Simpson's rule from 0 to Z95 gives 0.475).
        let density = |x: f64| (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt();
        let steps = 10_000;
        let h = Z95 / steps as f64;
        let mut integral = density(0.0) + density(Z95);
        for i in 1..steps {
            let weight = if i % 2 == 1 { 4.0 } else { 2.0 };
            integral += weight * density(i as f64 * h);
        }
        integral *= h / 3.0;
        assert_close(integral, 0.475, 1e-10);
    }

    // --- Mean and standard error ---------------------------------------------

    #[test]
    fn mean_se_of_textbook_sample() {
        // Wikipedia "Standard deviation": 2, 4, 4, 4, 5, 5, 7, 9 has mean 5
        // and population sd 2; the sample variance is 32/7, so
        // se = sqrt(32/7) / sqrt(8) = sqrt(4/7) = 0.755929.
        let result = mean_se(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(result.n, 8);
        assert_close(result.mean, 5.0, 1e-12);
        assert_close(result.se, (4.0f64 / 7.0).sqrt(), 1e-12);
    }

    #[test]
    fn mean_se_small_samples() {
        assert_eq!(
            mean_se(&[]),
            MeanSe {
                mean: 0.0,
                se: 0.0,
                n: 0
            }
        );
        assert_eq!(
            mean_se(&[3.5]),
            MeanSe {
                mean: 3.5,
                se: 0.0,
                n: 1
            }
        );
        // Two values 1 and 3: sd = sqrt(2), se = sqrt(2)/sqrt(2) = 1.
        let two = mean_se(&[1.0, 3.0]);
        assert_close(two.mean, 2.0, 1e-12);
        assert_close(two.se, 1.0, 1e-12);
    }

    #[test]
    fn mean_se_is_stable_with_a_large_offset() {
        // The naive Σx² − n·mean² formula loses everything here.
        let values: Vec<f64> = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]
            .iter()
            .map(|x| x + 1e9)
            .collect();
        let result = mean_se(&values);
        assert_close(result.se, (4.0f64 / 7.0).sqrt(), 1e-6);
    }

    // --- Elo -----------------------------------------------------------------

    #[test]
    fn elo_of_published_scores() {
        // p = 0.75: 400·log10(3) = 190.85 (the usual Elo table value).
        assert_close(elo_from_score(0.75), 190.85, 0.005);
        assert_close(elo_from_score(0.5), 0.0, 1e-12);
        assert_close(elo_from_score(0.25), -190.85, 0.005);
        // 400 Elo means odds of 10:1, i.e. a score of 10/11.
        assert_close(score_from_elo(400.0), 10.0 / 11.0, 1e-12);
        assert_close(score_from_elo(-400.0), 1.0 / 11.0, 1e-12);
        // 100 Elo: 1/(1 + 10^-0.25) = 0.640065.
        assert_close(score_from_elo(100.0), 0.640065, 1e-6);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for d in [-800.0, -250.0, -1.0, 0.0, 3.0, 190.0, 700.0] {
            assert_close(elo_from_score(score_from_elo(d)), d, 1e-8);
        }
    }

    #[test]
    fn elo_of_perfect_scores_is_finite() {
        let high = elo_from_score(1.0);
        let low = elo_from_score(0.0);
        assert!(high.is_finite() && low.is_finite());
        // Clamped at 1 − 1e-6: 400·log10(999999) = 2399.99.
        assert_close(high, 2399.99, 0.01);
        assert_close(low, -high, 1e-9);
    }

    #[test]
    fn elo_interval_matches_fastchess_published_case() {
        // fastchess app/tests/elo_test.cpp "EloWDL 2": W 136, L 96, D 111
        // gives 40.70 ± 30.43. By hand: N = 343, s = (136 + 55.5)/343 =
        // 0.558309; variance = 0.396501·0.441691² + 0.323615·0.058309² +
        // 0.279883·0.558309² = 0.165696; Z95·sqrt(0.165696/343) = 0.043078;
        // s ± that = 0.515231, 0.601387 → 10.59 and 71.44 Elo.
        let (elo, low, high) = elo_interval(136.0, 111.0, 96.0);
        assert_close(elo, 40.70, 0.005);
        assert_close(low, 10.59, 0.01);
        assert_close(high, 71.44, 0.01);
        assert_close((high - low) / 2.0, 30.43, 0.005);
    }

    #[test]
    fn elo_interval_by_hand_without_draws() {
        // W 60, D 0, L 40: s = 0.6, variance = p(1−p) = 0.24,
        // half-width 1.959964·sqrt(0.0024) = 0.096018;
        // scores 0.503982 and 0.696018 → 2.77 and 143.91 Elo; centre 70.44.
        let (elo, low, high) = elo_interval(60.0, 0.0, 40.0);
        assert_close(elo, 70.44, 0.005);
        assert_close(low, 2.77, 0.01);
        assert_close(high, 143.91, 0.01);
    }

    #[test]
    fn elo_interval_degenerate_cases() {
        let (elo, low, high) = elo_interval(0.0, 0.0, 0.0);
        assert_eq!(elo, 0.0);
        assert!(low < -2000.0 && high > 2000.0);
        // Even results: centred on 0 and symmetric.
        let (elo, low, high) = elo_interval(30.0, 40.0, 30.0);
        assert_close(elo, 0.0, 1e-9);
        assert_close(low, -high, 1e-9);
        assert!(high > 0.0);
    }

    // --- Multi-agent Elo -------------------------------------------------------

    /// Games between every pair of agents whose total score is the expected
    /// score under `ratings`, rounded to the nearest half point (realised
    /// with at most one draw). Deterministic.
    fn exact_games(ratings: &[f64], games_per_pair: usize) -> Vec<Game> {
        let mut games = Vec::new();
        for a in 0..ratings.len() {
            for b in a + 1..ratings.len() {
                let expected = score_from_elo(ratings[a] - ratings[b]) * games_per_pair as f64;
                let half_points = (2.0 * expected).round() as usize;
                let wins = half_points / 2;
                let draws = half_points % 2;
                for g in 0..games_per_pair {
                    let score_a = if g < wins {
                        1.0
                    } else if g < wins + draws {
                        0.5
                    } else {
                        0.0
                    };
                    // Alternate who is listed first: the order must not matter.
                    games.push(if g % 2 == 0 {
                        Game { a, b, score_a }
                    } else {
                        Game {
                            a: b,
                            b: a,
                            score_a: 1.0 - score_a,
                        }
                    });
                }
            }
        }
        games
    }

    fn centred(ratings: &[f64]) -> Vec<f64> {
        let mean = ratings.iter().sum::<f64>() / ratings.len() as f64;
        ratings.iter().map(|r| r - mean).collect()
    }

    #[test]
    fn fit_elo_recovers_three_known_ratings() {
        let ratings = [0.0, 100.0, 200.0];
        let fit = fit_elo(3, &exact_games(&ratings, 20_000));
        for (estimate, truth) in fit.iter().zip(centred(&ratings)) {
            assert_close(estimate.elo, truth, 0.1);
            assert!(estimate.ci_low < estimate.elo && estimate.elo < estimate.ci_high);
        }
        assert_close(fit.iter().map(|e| e.elo).sum::<f64>(), 0.0, 1e-9);
    }

    #[test]
    fn fit_elo_recovers_ten_agents_from_100000_games() {
        let ratings: Vec<f64> = (0..10).map(|i| 50.0 * i as f64).collect();
        // 45 pairs × 2222 games = 99,990 games.
        let games = exact_games(&ratings, 2222);
        assert!(games.len() > 99_000);
        let fit = fit_elo(10, &games);
        for (estimate, truth) in fit.iter().zip(centred(&ratings)) {
            assert_close(estimate.elo, truth, 1.0);
            assert!(estimate.ci_low < truth && truth < estimate.ci_high);
        }
    }

    #[test]
    fn fit_elo_two_agents_agrees_with_score() {
        // 6400 wins, 3600 losses: s = 0.64, difference elo_from_score(0.64)
        // = 99.95. The Fisher information of the difference d (in natural
        // units) is N·s(1−s), so its 95% half-width is
        // Z95 · (400/ln 10) / sqrt(10000 · 0.64 · 0.36) = 7.093 Elo; each
        // centred rating is ±d/2, with half that width (3.547).
        let mut games = Vec::new();
        for i in 0..10_000 {
            games.push(Game {
                a: 0,
                b: 1,
                score_a: if i < 6400 { 1.0 } else { 0.0 },
            });
        }
        let fit = fit_elo(2, &games);
        let difference = fit[0].elo - fit[1].elo;
        assert_close(difference, elo_from_score(0.64), 0.05);
        assert_close(fit[0].elo, -fit[1].elo, 1e-9);
        let half_width = (fit[0].ci_high - fit[0].ci_low) / 2.0;
        assert_close(half_width, 3.547, 0.005);
        // And the same order as the two-agent trinomial interval.
        let (_, low, high) = elo_interval(6400.0, 0.0, 3600.0);
        assert_close(2.0 * half_width, (high - low) / 2.0, 0.05);
    }

    #[test]
    fn fit_elo_swapping_agents_swaps_ratings() {
        let ratings = [30.0, -120.0, 75.0, 0.0];
        let games = exact_games(&ratings, 301);
        let swap = |i: usize| match i {
            0 => 2,
            2 => 0,
            other => other,
        };
        let swapped: Vec<Game> = games
            .iter()
            .map(|g| Game {
                a: swap(g.a),
                b: swap(g.b),
                score_a: g.score_a,
            })
            .collect();
        let fit = fit_elo(4, &games);
        let fit_swapped = fit_elo(4, &swapped);
        for i in 0..4 {
            let (x, y) = (fit[i], fit_swapped[swap(i)]);
            assert_close(x.elo, y.elo, 1e-6);
            assert_close(x.ci_low, y.ci_low, 1e-6);
            assert_close(x.ci_high, y.ci_high, 1e-6);
        }
        // The ratings are not all equal, so the test would notice no swap.
        assert!((fit[0].elo - fit[2].elo).abs() > 10.0);
    }

    #[test]
    fn fit_elo_all_wins_stays_finite() {
        // Agent 0 wins every game; agents 1 and 2 draw each other.
        let mut games = Vec::new();
        for _ in 0..50 {
            games.push(Game {
                a: 0,
                b: 1,
                score_a: 1.0,
            });
            games.push(Game {
                a: 2,
                b: 0,
                score_a: 0.0,
            });
            games.push(Game {
                a: 1,
                b: 2,
                score_a: 0.5,
            });
        }
        let fit = fit_elo(3, &games);
        for e in &fit {
            assert!(e.elo.is_finite() && e.ci_low.is_finite() && e.ci_high.is_finite());
        }
        assert!(fit[0].elo > fit[1].elo + 400.0);
        assert_close(fit[1].elo, fit[2].elo, 1e-6);
    }

    #[test]
    fn fit_elo_prior_is_one_virtual_draw() {
        // Agent 0 wins all 1000 games against agent 1. With one virtual draw
        // each against a 0-rated opponent, the fitted ratings are ±x (natural
        // units) where the likelihood equations balance:
        // 1000 · (1 − σ(2x)) = σ(x) − 1/2. Solve that by bisection here.
        let balance = |x: f64| 1000.0 * (1.0 - sigmoid(2.0 * x)) - (sigmoid(x) - 0.5);
        let (mut low, mut high) = (0.0, 20.0);
        for _ in 0..200 {
            let mid = 0.5 * (low + high);
            if balance(mid) > 0.0 {
                low = mid;
            } else {
                high = mid;
            }
        }
        let expected = 400.0 / LN_10 * low;
        // About 664 Elo each: a 1328-point gap, finite despite 1000–0.
        assert_close(expected, 664.0, 1.0);
        let games = vec![
            Game {
                a: 0,
                b: 1,
                score_a: 1.0,
            };
            1000
        ];
        let fit = fit_elo(2, &games);
        assert_close(fit[0].elo, expected, 1e-6);
        assert_close(fit[1].elo, -expected, 1e-6);
    }

    #[test]
    fn fit_elo_no_games_and_no_agents() {
        assert!(fit_elo(0, &[]).is_empty());
        let fit = fit_elo(3, &[]);
        for e in fit {
            assert_close(e.elo, 0.0, 1e-12);
            // Only the prior: wide but finite.
            assert!(e.ci_high > 100.0 && e.ci_high.is_finite());
        }
    }

    #[test]
    #[should_panic(expected = "only 2 agents")]
    fn fit_elo_rejects_unknown_agent() {
        fit_elo(
            2,
            &[Game {
                a: 0,
                b: 2,
                score_a: 1.0,
            }],
        );
    }

    // --- SPRT ----------------------------------------------------------------

    #[test]
    fn sprt_bounds_for_five_percent_errors() {
        // ln(0.05/0.95) = −2.944439, ln(0.95/0.05) = 2.944439 (the bounds
        // cutechess-cli and fastchess print as −2.94, 2.94).
        let (lower, upper) = sprt_bounds(0.05, 0.05);
        assert_close(lower, -2.944439, 1e-6);
        assert_close(upper, 2.944439, 1e-6);
        // Asymmetric: alpha 0.05, beta 0.1 → ln(0.1/0.95), ln(0.9/0.05).
        let (lower, upper) = sprt_bounds(0.05, 0.1);
        assert_close(lower, -2.251292, 1e-6);
        assert_close(upper, 2.890372, 1e-6);
    }

    #[test]
    fn sprt_llr_matches_cutechess_published_case() {
        // cutechess issue #543: 880 wins, 759 losses, 1863 draws with
        // elo0 = 0, elo1 = 5 gives "llr 2.95" (confirmed there with
        // sprt_elo.py --logistic). By hand: s = 0.517276, σ² = 0.116706,
        // s₁ = 0.507196, LLR = 3502·0.007196·0.027356/(2·0.116706) = 2.954.
        let llr = sprt_llr(880.0, 1863.0, 759.0, 0.0, 5.0);
        assert_close(llr, 2.95, 0.01);
        assert_eq!(
            sprt_decide(llr, sprt_bounds(0.05, 0.05)),
            SprtDecision::AcceptH1
        );
    }

    #[test]
    fn sprt_llr_matches_fastchess_logistic_cases() {
        // fastchess app/tests/sprt_test.cpp, "logistic trinomial 1" and "2"
        // (exact maximum-likelihood LLR there; the GSPRT approximation agrees
        // to about 0.01).
        assert_close(sprt_llr(21404.0, 40708.0, 21184.0, 0.5, 2.5), -1.57, 0.02);
        assert_close(sprt_llr(57433.0, 106593.0, 57030.0, 0.0, 2.0), -2.59, 0.02);
    }

    #[test]
    fn sprt_llr_sign_follows_the_result() {
        // 600 wins, 200 draws, 200 losses is about +147 Elo: far above
        // elo1 = 10, so the LLR is strongly positive; the mirror image is
        // strongly negative.
        let (lower, upper) = sprt_bounds(0.05, 0.05);
        let good = sprt_llr(600.0, 200.0, 200.0, 0.0, 10.0);
        assert!(good > upper, "llr {good}");
        assert_eq!(sprt_decide(good, (lower, upper)), SprtDecision::AcceptH1);
        let bad = sprt_llr(200.0, 200.0, 600.0, 0.0, 10.0);
        assert!(bad < lower, "llr {bad}");
        assert_eq!(sprt_decide(bad, (lower, upper)), SprtDecision::AcceptH0);
        // Exactly halfway between elo0 and elo1 in score: LLR 0.
        assert_close(sprt_llr(100.0, 0.0, 100.0, -5.0, 5.0), 0.0, 1e-9);
        assert_eq!(sprt_llr(0.0, 0.0, 0.0, 0.0, 5.0), 0.0);
    }

    #[test]
    fn sprt_llr_one_sided_records_are_finite() {
        // All wins or all losses: the regularised variance keeps it finite.
        let all_wins = sprt_llr(50.0, 0.0, 0.0, 0.0, 5.0);
        assert!(all_wins.is_finite() && all_wins > 2.95);
        let all_losses = sprt_llr(0.0, 0.0, 50.0, 0.0, 5.0);
        assert!(all_losses.is_finite() && all_losses < -2.95);
    }

    #[test]
    fn sprt_decide_respects_bounds() {
        let bounds = (-2.94, 2.94);
        assert_eq!(sprt_decide(0.0, bounds), SprtDecision::Continue);
        assert_eq!(sprt_decide(2.93, bounds), SprtDecision::Continue);
        assert_eq!(sprt_decide(-2.93, bounds), SprtDecision::Continue);
        assert_eq!(sprt_decide(2.94, bounds), SprtDecision::AcceptH1);
        assert_eq!(sprt_decide(-2.94, bounds), SprtDecision::AcceptH0);
    }
}
