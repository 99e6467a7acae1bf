//! The gain schedule of SPSA (Spall 1998): the step size
//! `a_k = a / (A + k + 1)^α` and the perturbation size
//! `c_k = c / (k + 1)^γ` of iteration `k` (0-based).
//!
//! Both are in units of a parameter's range (`--param NAME=LO..HI`): the
//! search runs on coordinates scaled to `0..1`, so one `a` and one `c`
//! serve parameters of any scale.

use serde::{Deserialize, Serialize};

/// Spall's asymptotically optimal decay of the step size (`--alpha`).
pub const DEFAULT_ALPHA: f64 = 0.602;
/// Spall's decay of the perturbation (`--gamma`).
pub const DEFAULT_GAMMA: f64 = 0.101;
/// The first perturbation, as a share of each parameter's range (`--c`):
/// iteration 0 plays `θ ± 0.1·(HI − LO)`.
pub const DEFAULT_C: f64 = 0.1;
/// The stability constant `A` as a share of the iterations (`--big-a`):
/// Spall's "about 10% of the iterations".
pub const DEFAULT_A_SHARE: f64 = 0.1;
/// How far a first iteration that `θ+` won in every game moves each
/// parameter, as a share of its range: the default `a` is chosen for it
/// ([`Gains::default_a`]).
pub const DEFAULT_FIRST_STEP: f64 = 0.1;

/// The constants of the gain schedule.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gains {
    /// Step size numerator `a`.
    pub a: f64,
    /// Stability constant `A`.
    pub big_a: f64,
    /// Step size decay `α`.
    pub alpha: f64,
    /// Perturbation numerator `c` (share of each parameter's range).
    pub c: f64,
    /// Perturbation decay `γ`.
    pub gamma: f64,
}

impl Gains {
    /// The defaults for a run of `iterations` iterations, with `c`,
    /// `big_a` and `a` given or not: `A` is 10% of the iterations, and
    /// `a` is chosen so that the first step of a unanimous iteration
    /// (result 1) is [`DEFAULT_FIRST_STEP`] of the range
    /// ([`Gains::default_a`]).
    pub fn new(iterations: u64, a: Option<f64>, big_a: Option<f64>, c: Option<f64>) -> Gains {
        let c = c.unwrap_or(DEFAULT_C);
        let big_a = big_a.unwrap_or((DEFAULT_A_SHARE * iterations as f64).round());
        let a = a.unwrap_or_else(|| Gains::default_a(c, big_a, DEFAULT_ALPHA));
        Gains {
            a,
            big_a,
            alpha: DEFAULT_ALPHA,
            c,
            gamma: DEFAULT_GAMMA,
        }
    }

    /// The `a` whose first step `a_0 / (2·c_0) · result` is
    /// [`DEFAULT_FIRST_STEP`] of the range for a result of 1:
    /// `a = 2·c·DEFAULT_FIRST_STEP·(A + 1)^α`.
    pub fn default_a(c: f64, big_a: f64, alpha: f64) -> f64 {
        2.0 * c * DEFAULT_FIRST_STEP * (big_a + 1.0).powf(alpha)
    }

    /// The step size of iteration `k` (0-based): `a / (A + k + 1)^α`.
    pub fn a_k(&self, k: u64) -> f64 {
        self.a / (self.big_a + k as f64 + 1.0).powf(self.alpha)
    }

    /// The perturbation of iteration `k` (0-based): `c / (k + 1)^γ`.
    pub fn c_k(&self, k: u64) -> f64 {
        self.c / (k as f64 + 1.0).powf(self.gamma)
    }

    /// Check that every constant is usable: `a`, `c` > 0 and finite,
    /// `A`, `α`, `γ` ≥ 0 and finite, `c` at most 0.5 (a perturbation
    /// beyond half the range only measures the bounds).
    ///
    /// # Errors
    /// The first constant that is not, in one line naming its flag.
    pub fn validate(&self) -> Result<(), String> {
        let positive = |x: f64| x.is_finite() && x > 0.0;
        let non_negative = |x: f64| x.is_finite() && x >= 0.0;
        if !positive(self.a) {
            return Err(format!("--a must be a number > 0, not {}", self.a));
        }
        if !positive(self.c) || self.c > 0.5 {
            return Err(format!(
                "--c must be a number in (0, 0.5] (a share of each parameter's range), not {}",
                self.c
            ));
        }
        for (flag, x) in [
            ("--big-a", self.big_a),
            ("--alpha", self.alpha),
            ("--gamma", self.gamma),
        ] {
            if !non_negative(x) {
                return Err(format!("{flag} must be a number >= 0, not {x}"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_is_spalls() {
        let g = Gains::new(100, Some(2.0), None, Some(0.2));
        assert_eq!(g.big_a, 10.0);
        assert!((g.a_k(0) - 2.0 / 11f64.powf(0.602)).abs() < 1e-15);
        assert!((g.a_k(9) - 2.0 / 20f64.powf(0.602)).abs() < 1e-15);
        assert_eq!(g.c_k(0), 0.2);
        assert!((g.c_k(7) - 0.2 / 8f64.powf(0.101)).abs() < 1e-15);
        assert!(g.a_k(50) < g.a_k(10) && g.c_k(50) < g.c_k(10));
    }

    #[test]
    fn the_default_a_makes_a_unanimous_first_step_a_tenth_of_the_range() {
        let g = Gains::new(40, None, None, None);
        assert_eq!(g.big_a, 4.0);
        let step = g.a_k(0) / (2.0 * g.c_k(0));
        assert!((step - DEFAULT_FIRST_STEP).abs() < 1e-12, "{step}");
    }

    #[test]
    fn unusable_constants_name_their_flag() {
        let bad = |change: fn(&mut Gains)| {
            let mut g = Gains::new(10, None, None, None);
            change(&mut g);
            g.validate().unwrap_err()
        };
        assert!(bad(|g| g.a = 0.0).starts_with("--a "));
        assert!(bad(|g| g.c = 0.7).starts_with("--c "));
        assert!(bad(|g| g.c = f64::NAN).starts_with("--c "));
        assert!(bad(|g| g.big_a = -1.0).starts_with("--big-a "));
        assert!(bad(|g| g.gamma = f64::INFINITY).starts_with("--gamma "));
        assert!(Gains::new(10, None, None, None).validate().is_ok());
    }
}
