//! Ratings of many agents from pairwise results (Bradley–Terry maximum
//! likelihood on the Elo scale), with 95% intervals.

use super::interval::{ELO_PER_NAT, Z95};

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
/// [`score_from_elo`](super::score_from_elo)`(r_a − r_b)`; a draw counts as half a win and half a
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
    let mut totals = PairTotals::new(n_agents);
    for game in games {
        assert!(
            game.a < n_agents && game.b < n_agents,
            "fit_elo: game between agents {} and {}, but only {n_agents} agents",
            game.a,
            game.b
        );
        debug_assert!(
            (0.0..=1.0).contains(&game.score_a),
            "fit_elo: score {} outside [0, 1]",
            game.score_a
        );
        totals.add(game.a, game.b, 1.0, game.score_a);
    }
    fit_elo_totals(&totals)
}

/// Pairwise results summed per pair of agents: what [`fit_elo`] fits.
/// Build it directly when the same games are fitted many times with
/// different weights (a bootstrap adds a resampled group's totals once
/// per draw) instead of listing every game again.
#[derive(Debug, Clone, PartialEq)]
pub struct PairTotals {
    /// Number of agents.
    k: usize,
    /// `games[i * k + j]`: games between `i` and `j` (symmetric).
    games: Vec<f64>,
    /// `score[i * k + j]`: points `i` scored against `j`.
    score: Vec<f64>,
}

impl PairTotals {
    /// No games between `n_agents` agents.
    pub fn new(n_agents: usize) -> PairTotals {
        PairTotals {
            k: n_agents,
            games: vec![0.0; n_agents * n_agents],
            score: vec![0.0; n_agents * n_agents],
        }
    }

    /// The number of agents.
    pub fn agents(&self) -> usize {
        self.k
    }

    /// Add `games` games between `a` and `b` in which `a` scored
    /// `score_a` points in all (at most `games`); games of an agent
    /// against itself are ignored.
    ///
    /// # Panics
    /// If `a` or `b` is not below the number of agents.
    pub fn add(&mut self, a: usize, b: usize, games: f64, score_a: f64) {
        let k = self.k;
        assert!(
            a < k && b < k,
            "PairTotals: games between agents {a} and {b}, but only {k} agents"
        );
        if a == b {
            return;
        }
        self.games[a * k + b] += games;
        self.games[b * k + a] += games;
        self.score[a * k + b] += score_a;
        self.score[b * k + a] += games - score_a;
    }

    /// Games between `a` and `b`.
    pub fn games(&self, a: usize, b: usize) -> f64 {
        self.games[a * self.k + b]
    }

    /// Points `a` scored against `b`.
    pub fn score(&self, a: usize, b: usize) -> f64 {
        self.score[a * self.k + b]
    }

    /// Forget every game (keeps the allocation).
    pub fn clear(&mut self) {
        self.games.fill(0.0);
        self.score.fill(0.0);
    }
}

/// [`fit_elo`] of results already summed per pair.
pub fn fit_elo_totals(totals: &PairTotals) -> Vec<EloEstimate> {
    let k = totals.k;
    if k == 0 {
        return Vec::new();
    }
    let model = BradleyTerry {
        k,
        games: &totals.games,
        score: &totals.score,
    };
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

/// The ratings alone of [`fit_elo_totals`] (mean 0, in Elo), without
/// their intervals: what a bootstrap refits many times.
pub fn fit_elo_points(totals: &PairTotals) -> Vec<f64> {
    let k = totals.k;
    if k == 0 {
        return Vec::new();
    }
    let model = BradleyTerry {
        k,
        games: &totals.games,
        score: &totals.score,
    };
    let theta = model.maximise();
    let mean_theta = theta.iter().sum::<f64>() / k as f64;
    theta
        .iter()
        .map(|t| ELO_PER_NAT * (t - mean_theta))
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
struct BradleyTerry<'a> {
    /// Number of agents.
    k: usize,
    /// `games[i * k + j]`: games between `i` and `j` (symmetric).
    games: &'a [f64],
    /// `score[i * k + j]`: points `i` scored against `j`.
    score: &'a [f64],
}

impl BradleyTerry<'_> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::interval::{elo_from_score, elo_interval, score_from_elo};
    use crate::stats::test_support::assert_close;
    use std::f64::consts::LN_10;

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
}
