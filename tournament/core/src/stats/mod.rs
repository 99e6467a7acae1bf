//! Match statistics: every result is reported with its uncertainty.
//!
//! - [`interval`]: win rates with Wilson intervals, means with standard
//!   errors, the logistic Elo scale, the two-agent Elo interval, and
//!   intervals over paired games (pentanomial).
//! - [`bradley_terry`]: ratings of many agents from pairwise results.
//! - [`sprt`]: the sequential probability ratio test for A/B questions
//!   ("is the change worth at least `elo1`, or at most `elo0`?"), with the
//!   pentanomial model over game pairs and the trinomial one over games.
//!
//! Everything is plain `f64` arithmetic with no randomness: the same input
//! always gives the same output, bit for bit.

pub mod bradley_terry;
pub mod interval;
pub mod sprt;

pub use bradley_terry::{fit_elo, fit_elo_points, fit_elo_totals, EloEstimate, Game, PairTotals};
pub use interval::{
    bounded_mean_interval, elo_from_score, elo_interval, mean_se, mean_se_of, pentanomial_interval,
    score_from_elo, wilson_interval, MeanSe, Z95,
};
pub use sprt::{sprt_bounds, sprt_decide, Pentanomial, SprtDecision, SprtModel, Trinomial};

#[cfg(test)]
pub(crate) mod test_support {
    /// Fails unless `actual` is within `tolerance` of `expected`.
    pub fn assert_close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "expected {expected} ± {tolerance}, got {actual}"
        );
    }
}
