//! Win rates, means and two-agent Elo with their uncertainty.

use std::f64::consts::LN_10;

/// The two-sided 95% quantile of the standard normal distribution,
/// Φ⁻¹(0.975).
pub const Z95: f64 = 1.959963984540054;

/// Elo points per natural-log unit of odds: a rating difference `d` gives the
/// stronger side odds of `exp(d / ELO_PER_NAT) = 10^(d / 400)`.
pub(crate) const ELO_PER_NAT: f64 = 400.0 / LN_10;

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
    mean_se_of(values.iter().copied())
}

/// [`mean_se`] of values that can be listed twice (the two passes) without
/// being held: the same sums in the same order, so the same bits.
pub fn mean_se_of(values: impl Iterator<Item = f64> + Clone) -> MeanSe {
    let n = values.clone().count();
    if n == 0 {
        return MeanSe {
            mean: 0.0,
            se: 0.0,
            n,
        };
    }
    let count = n as f64;
    let mean = values.clone().sum::<f64>() / count;
    if n < 2 {
        return MeanSe { mean, se: 0.0, n };
    }
    // Two passes: the sum of squared deviations from the mean does not
    // suffer the cancellation of the Σx² − n·mean² shortcut.
    let squares: f64 = values.map(|x| (x - mean) * (x - mean)).sum();
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
// Paired games
// ---------------------------------------------------------------------------

/// The mean of scores bounded in `[0, 1]` with a 95% interval that does
/// not collapse at the ends. Returns `(mean, low, high)`; `values` yields
/// `(score, count)`, and with fewer than 2 values the interval is `(0, 1)`
/// (the mean 0 with none).
///
/// The normal interval `mean ± Z95 · se` has zero width when every value is
/// the same — 0 of 100 pairs won would read as "exactly 0%". Here, as in
/// the Agresti–Coull interval for a proportion, `Z95²/2` pseudo-values at 0
/// and as many at 1 join the sample before its mean `m̃` and population
/// variance `ṽ` are taken, and the interval is `m̃ ± Z95 · sqrt(ṽ / ñ)` over
/// the `ñ = n + Z95²` values, clamped to `[0, 1]`. For 0/1 values this is
/// exactly Agresti–Coull's interval; for n = 100 all-0 values it is
/// `[0, 0.044]`, where Wilson's for 100 failures is `[0, 0.037]`. The
/// reported mean is the observed one.
pub fn bounded_mean_interval(values: impl IntoIterator<Item = (f64, f64)>) -> (f64, f64, f64) {
    let values: Vec<(f64, f64)> = values.into_iter().filter(|&(_, c)| c > 0.0).collect();
    let n: f64 = values.iter().map(|&(_, c)| c).sum();
    let mean = if n > 0.0 {
        values.iter().map(|&(v, c)| v * c).sum::<f64>() / n
    } else {
        0.0
    };
    if n < 2.0 {
        return (mean, 0.0, 1.0);
    }
    let pseudo = Z95 * Z95 / 2.0;
    let augmented = || values.iter().copied().chain([(0.0, pseudo), (1.0, pseudo)]);
    let total = n + 2.0 * pseudo;
    let centre = augmented().map(|(v, c)| v * c).sum::<f64>() / total;
    let variance = augmented()
        .map(|(v, c)| c * (v - centre) * (v - centre))
        .sum::<f64>()
        / total;
    let half = Z95 * (variance / total).sqrt();
    (mean, (centre - half).max(0.0), (centre + half).min(1.0))
}

/// The per-game score of the first agent over game pairs (one deck played
/// twice with the seats swapped) and its 95% interval, from the
/// pentanomial counts of pair results. Returns `(score, low, high)`.
///
/// `counts[k]` is the number of pairs in which the first agent scored `k`
/// half-points (0 = two losses, 1 = a loss and a draw, 2 = two draws or a
/// win and a loss, 3 = a win and a draw, 4 = two wins). Each pair is one
/// observation with score `k / 4` per game; the interval is
/// [`bounded_mean_interval`] of those pair scores, so the correlation of
/// the two games of a deck (a strong deck for one seat helps each agent
/// once) is measured rather than assumed away, as fastchess and Fishtest do
/// for paired openings, and a score of 0 or 1 still has an interval of
/// some width. With no pairs the result is `(0, 0, 1)`.
pub fn pentanomial_interval(counts: &[u64; 5]) -> (f64, f64, f64) {
    bounded_mean_interval((0..5).map(|k| (k as f64 / 4.0, counts[k] as f64)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::test_support::assert_close;

    // --- Paired games --------------------------------------------------------

    #[test]
    fn pentanomial_interval_by_hand() {
        // 90 pairs 10/20/30/20/10 over 0, ¼, ½, ¾, 1, and z²/2 = 1.920729
        // pseudo-pairs at 0 and at 1: ñ = 93.841459 pairs, centre ½,
        // variance (10·¼ + 20·¹⁄₁₆ + 20·¹⁄₁₆ + 10·¼ + 2·1.920729·¼)/ñ
        // = 8.460365/93.841459 = 0.0901559, standard error
        // sqrt(0.0901559/93.841459) = 0.0309956, half-width 0.0607502.
        let (score, low, high) = pentanomial_interval(&[10, 20, 30, 20, 10]);
        assert_close(score, 0.5, 1e-12);
        assert_close(low, 0.439250, 1e-6);
        assert_close(high, 0.560750, 1e-6);
        assert_eq!(pentanomial_interval(&[0; 5]), (0.0, 0.0, 1.0));
        assert_eq!(pentanomial_interval(&[0, 0, 1, 0, 0]), (0.5, 0.0, 1.0));
    }

    #[test]
    fn pentanomial_interval_is_the_interval_of_pair_scores() {
        let counts = [3, 7, 40, 11, 5];
        let values =
            (0..5).flat_map(|k| std::iter::repeat_n((k as f64 / 4.0, 1.0), counts[k] as usize));
        let (m, lo, hi) = bounded_mean_interval(values);
        let (pm, plo, phi) = pentanomial_interval(&counts);
        assert_close(pm, m, 1e-12);
        assert_close(plo, lo, 1e-12);
        assert_close(phi, hi, 1e-12);
    }

    #[test]
    fn bounded_mean_interval_of_zeros_and_ones_is_agresti_coull() {
        // Agresti & Coull (1998): ñ = n + z², p̃ = (x + z²/2)/ñ,
        // p̃ ± z·sqrt(p̃(1 − p̃)/ñ), clamped to [0, 1].
        for (x, n) in [(8.0, 10.0), (0.0, 100.0), (37.0, 50.0), (1.0, 3.0)] {
            let total = n + Z95 * Z95;
            let centre = (x + Z95 * Z95 / 2.0) / total;
            let half = Z95 * (centre * (1.0 - centre) / total).sqrt();
            let (mean, low, high) = bounded_mean_interval([(1.0, x), (0.0, n - x)]);
            assert_close(mean, x / n, 1e-12);
            assert_close(low, (centre - half).max(0.0), 1e-12);
            assert_close(high, (centre + half).min(1.0), 1e-12);
        }
    }

    #[test]
    fn a_score_of_0_or_1_keeps_an_interval() {
        // 100 pairs all lost: not "exactly 0%" but [0, 4.4%] — a little
        // wider than Wilson's [0, 3.7%] for 100 lost games.
        let (score, low, high) = pentanomial_interval(&[100, 0, 0, 0, 0]);
        assert_eq!((score, low), (0.0, 0.0));
        assert_close(high, 0.044412, 1e-6);
        let (_, wilson_high) = wilson_interval(0.0, 100.0, Z95);
        assert!(high > wilson_high);
        let (score, low, high) = pentanomial_interval(&[0, 0, 0, 0, 100]);
        assert_eq!((score, high), (1.0, 1.0));
        assert_close(low, 1.0 - 0.044412, 1e-6);
    }

    #[test]
    fn split_pairs_give_a_narrower_interval_than_independent_games() {
        // 100 pairs, each a win and a loss (the deck decided): the games
        // alone look like a coin toss (Wilson ±0.069); the pairs show far
        // less doubt about a score of ½ (±0.0185), though not none.
        let (score, low, high) = pentanomial_interval(&[0, 0, 100, 0, 0]);
        assert_eq!(score, 0.5);
        assert_close(high - 0.5, 0.018497, 1e-6);
        assert_close(0.5 - low, 0.018497, 1e-6);
        let (wl, wh) = wilson_interval(100.0, 200.0, Z95);
        assert!(wh - wl > 0.13);
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
}
