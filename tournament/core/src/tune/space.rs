//! The parameters a tuning run moves: each `--param NAME=LO..HI`
//! ([`ParamRange`]) checked against the declaration of the agent's
//! parameter ([`agents::spec::Param`]), and the spec strings of the
//! values played ([`Space::spec_with`]).
//!
//! - A number parameter (`Number`, `NumberAtLeast`, `NumberAbove`,
//!   `NumberIn`, `Probability`) is tuned as a real number; the value
//!   played is written with 6 significant digits.
//! - An integer parameter (`Int`, the number part of `IntOr`) is tuned
//!   as a real number too (θ stays real), and played rounded to the
//!   nearest integer.
//! - A choice (`reward=score|win`) or a text (`eval=FILE`) is refused:
//!   SPSA estimates a gradient, and the index of a choice among unordered
//!   words has none. Compare choices with `carcassonne tournament --sprt`.
//!
//! The range must lie inside what the agent declares (the range of `k`,
//! `integer >= 1`, cannot start at 0) and the starting value — the
//! spec's own, else the declared default, else the middle of the range —
//! inside the range.

use agents::spec::{Param, Spec, Values};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// One `--param NAME=LO..HI` as given: a parameter and its range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParamRange {
    /// The parameter's name in the agent's spec.
    pub name: String,
    /// The lowest value tried.
    pub lo: f64,
    /// The highest value tried.
    pub hi: f64,
}

impl FromStr for ParamRange {
    type Err = String;

    /// `NAME=LO..HI` with finite `LO < HI`.
    fn from_str(text: &str) -> Result<ParamRange, String> {
        let bad = || format!("{text:?} is not NAME=LO..HI (e.g. c=0.2..2)");
        let (name, range) = text.split_once('=').ok_or_else(bad)?;
        let (lo, hi) = range.split_once("..").ok_or_else(bad)?;
        let number = |s: &str| s.trim().parse::<f64>().ok().filter(|x| x.is_finite());
        let (name, lo, hi) = match (name.trim(), number(lo), number(hi)) {
            (n, Some(lo), Some(hi)) if !n.is_empty() => (n, lo, hi),
            _ => return Err(bad()),
        };
        if lo >= hi {
            return Err(format!("{text:?}: LO must be below HI"));
        }
        Ok(ParamRange {
            name: name.to_string(),
            lo,
            hi,
        })
    }
}

impl fmt::Display for ParamRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}..{}", self.name, self.lo, self.hi)
    }
}

/// One tuned parameter, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Dimension {
    /// Its name.
    pub name: String,
    /// The range it moves in.
    pub lo: f64,
    /// See `lo`.
    pub hi: f64,
    /// Played rounded to an integer.
    pub integer: bool,
    /// Where the tuning starts.
    pub start: f64,
}

impl Dimension {
    /// The value of unit coordinate `x` (clamped to `0..=1`), as played:
    /// rounded for an integer parameter, to 6 significant digits
    /// otherwise.
    pub fn played(&self, x: f64) -> f64 {
        let v = self.lo + x.clamp(0.0, 1.0) * (self.hi - self.lo);
        if self.integer {
            v.round().clamp(self.lo, self.hi)
        } else {
            significant(v).clamp(self.lo, self.hi)
        }
    }

    /// The real value of unit coordinate `x` (not rounded).
    pub fn value(&self, x: f64) -> f64 {
        self.lo + x * (self.hi - self.lo)
    }

    /// The unit coordinate of `value`.
    pub fn unit(&self, value: f64) -> f64 {
        (value - self.lo) / (self.hi - self.lo)
    }
}

/// `v` rounded to 6 significant digits.
fn significant(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let digits = 5 - v.abs().log10().floor() as i32;
    let scale = 10f64.powi(digits);
    (v * scale).round() / scale
}

/// How a value is written in a spec: integers without a decimal point.
pub fn write_value(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// The parameters of one agent spec that a run tunes.
#[derive(Clone, Debug, PartialEq)]
pub struct Space {
    /// The starting spec, trimmed.
    pub spec: String,
    /// The tuned parameters, in the order of `--param`.
    pub dims: Vec<Dimension>,
}

impl Space {
    /// Check `ranges` against the declaration of the agent of `spec`.
    ///
    /// # Errors
    /// One line: an unknown agent, a parameter the agent does not
    /// declare (listing those it does), one given twice, a choice or
    /// text parameter, a range outside the declared values, integer
    /// bounds that are not whole, or a start outside the range.
    pub fn new(spec: &str, ranges: &[ParamRange]) -> Result<Space, String> {
        let parsed = Spec::parse(spec).map_err(|e| e.to_string())?;
        let kind = agents::registry::kind(parsed.name).ok_or_else(|| {
            let known: Vec<&str> = agents::registry::AGENTS.iter().map(|k| k.name).collect();
            format!(
                "tune needs a built-in agent, not {:?} (valid: {})",
                parsed.name,
                known.join(", ")
            )
        })?;
        if ranges.is_empty() {
            return Err("give at least one --param NAME=LO..HI".to_string());
        }
        let mut dims: Vec<Dimension> = Vec::new();
        for range in ranges {
            if dims.iter().any(|d| d.name == range.name) {
                return Err(format!("--param {}: given twice", range.name));
            }
            let param = kind
                .params
                .iter()
                .find(|p| p.name == range.name)
                .ok_or_else(|| {
                    format!(
                        "--param {range}: agent {:?} has no parameter {:?} (valid: {})",
                        kind.name,
                        range.name,
                        agents::spec::params::describe(kind.params)
                    )
                })?;
            dims.push(dimension(kind.name, param, range, &parsed)?);
        }
        Ok(Space {
            spec: spec.trim().to_string(),
            dims,
        })
    }

    /// The starting spec with the tuned parameters set to `values` (in
    /// the order of [`Space::dims`]): a parameter the spec gives is
    /// replaced where it stands, the others are appended.
    pub fn spec_with(&self, values: &[f64]) -> String {
        let parsed = Spec::parse(&self.spec).expect("the spec parsed when the space was made");
        let value_of = |name: &str| {
            self.dims
                .iter()
                .zip(values)
                .find(|(d, _)| d.name == name)
                .map(|(_, &v)| write_value(v))
        };
        let mut params: Vec<String> = parsed
            .params
            .iter()
            .map(|&(k, v)| format!("{k}={}", value_of(k).unwrap_or_else(|| v.to_string())))
            .collect();
        for (d, &v) in self.dims.iter().zip(values) {
            if !parsed.params.iter().any(|&(k, _)| k == d.name) {
                params.push(format!("{}={}", d.name, write_value(v)));
            }
        }
        format!("{}:{}", parsed.name, params.join(","))
    }

    /// The starting values, unit coordinates.
    pub fn start_units(&self) -> Vec<f64> {
        self.dims.iter().map(|d| d.unit(d.start)).collect()
    }
}

/// The declared bounds of `values` (`lo`, `hi`, whether `lo` itself is
/// excluded, integer), or why it cannot be tuned.
fn declared(values: &Values) -> Result<(f64, f64, bool, bool), String> {
    let inf = f64::INFINITY;
    Ok(match *values {
        Values::Int { min, max } => (min as f64, max.map_or(inf, |m| m as f64), false, true),
        Values::IntOr { min, .. } => (min as f64, inf, false, true),
        Values::Number => (-inf, inf, false, false),
        Values::NumberAtLeast(min) => (min, inf, false, false),
        Values::NumberAbove(min) => (min, inf, true, false),
        Values::NumberIn(lo, hi) => (lo, hi, false, false),
        Values::Probability => (0.0, 1.0, false, false),
        Values::Choice(words) => {
            return Err(format!(
                "is a choice ({}); tune moves numbers only (compare choices with `carcassonne tournament --sprt`)",
                words.join("|")
            ))
        }
        Values::Text(what) => return Err(format!("is text ({what}); tune moves numbers only")),
    })
}

fn dimension(
    agent: &str,
    param: &Param,
    range: &ParamRange,
    spec: &Spec<'_>,
) -> Result<Dimension, String> {
    let (lo, hi, open, integer) = declared(&param.values)
        .map_err(|why| format!("--param {range}: {agent}'s {} {why}", param.name))?;
    let outside = range.lo < lo || (open && range.lo <= lo) || range.hi > hi;
    if outside {
        return Err(format!(
            "--param {range}: outside what {agent}'s {} takes ({})",
            param.name, param.values
        ));
    }
    if integer && (range.lo.fract() != 0.0 || range.hi.fract() != 0.0) {
        return Err(format!(
            "--param {range}: {agent}'s {} is an integer; give whole bounds",
            param.name
        ));
    }
    let given = spec
        .params
        .iter()
        .find(|(k, _)| *k == param.name)
        .map(|&(_, v)| v);
    let (start, from) = match given {
        Some(v) => (v, "the spec's value"),
        None if param.has_default() => (param.default, "its default"),
        None => ("", "none"),
    };
    let start = if start.is_empty() {
        (range.lo + range.hi) / 2.0
    } else {
        let value = start
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| {
                format!(
                    "--param {range}: {agent}'s {} starts at {start:?} ({from}), not a number; give a number in the spec",
                    param.name
                )
            })?;
        if value < range.lo || value > range.hi {
            return Err(format!(
                "--param {range}: {} starts at {value} ({from}), outside the range; set it in the spec or widen the range",
                param.name
            ));
        }
        value
    };
    Ok(Dimension {
        name: param.name.to_string(),
        lo: range.lo,
        hi: range.hi,
        integer,
        start,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn space(spec: &str, params: &[&str]) -> Result<Space, String> {
        let ranges: Vec<ParamRange> = params.iter().map(|p| p.parse().unwrap()).collect();
        Space::new(spec, &ranges)
    }

    #[test]
    fn ranges_parse_and_bad_syntax_is_one_line() {
        let r: ParamRange = "c=0.2..2".parse().unwrap();
        assert_eq!((r.name.as_str(), r.lo, r.hi), ("c", 0.2, 2.0));
        assert_eq!(r.to_string(), "c=0.2..2");
        let r: ParamRange = " meeple = -3 .. 5 ".parse().unwrap();
        assert_eq!((r.lo, r.hi), (-3.0, 5.0));
        for bad in [
            "c", "c=1", "c=1-2", "=1..2", "c=a..2", "c=1..inf", "c=NaN..1",
        ] {
            let e = bad.parse::<ParamRange>().unwrap_err();
            assert!(e.contains("NAME=LO..HI"), "{bad}: {e}");
        }
        let e = "c=2..1".parse::<ParamRange>().unwrap_err();
        assert!(e.contains("LO must be below HI"), "{e}");
    }

    #[test]
    fn parameters_are_checked_against_the_agents_declaration() {
        let e = space("mcts:iterations=50", &["speed=1..2"]).unwrap_err();
        assert!(
            e.contains("has no parameter \"speed\"") && e.contains("c (number >= 0)"),
            "{e}"
        );
        let e = space("mcts", &["c=-1..2"]).unwrap_err();
        assert!(
            e.contains("outside what mcts's c takes (number >= 0)"),
            "{e}"
        );
        let e = space("mcts", &["scale=0..40"]).unwrap_err();
        assert!(e.contains("number > 0"), "{e}");
        let e = space("mcts", &["reward=0..1"]).unwrap_err();
        assert!(e.contains("is a choice (score|win)"), "{e}");
        let e = space("mcts", &["eval=0..1"]).unwrap_err();
        assert!(e.contains("is text"), "{e}");
        let e = space("mcts", &["k=1.5..8"]).unwrap_err();
        assert!(e.contains("integer; give whole bounds"), "{e}");
        let e = space("mcts", &["c=1..2"]).unwrap_err();
        assert!(e.contains("starts at 0.7 (its default)"), "{e}");
        let e = space("mcts:depth=all", &["depth=0..8"]).unwrap_err();
        assert!(e.contains("not a number"), "{e}");
        let e = space("mcts", &["c=0..2", "c=0..1"]).unwrap_err();
        assert!(e.contains("given twice"), "{e}");
        let e = space("nobody", &["c=0..2"]).unwrap_err();
        assert!(e.contains("built-in agent"), "{e}");
        assert!(space("mcts", &[]).is_err());
        for e in [
            space("mcts", &["c=-1..2"]).unwrap_err(),
            space("mcts", &["speed=1..2"]).unwrap_err(),
        ] {
            assert!(!e.contains('\n'));
        }
    }

    #[test]
    fn values_are_played_rounded_and_written_into_the_spec() {
        let s = space(
            "mcts:iterations=50,c=0.5",
            &["c=0..2", "k=1..9", "meeple=-2..5"],
        )
        .unwrap();
        let starts: Vec<f64> = s.dims.iter().map(|d| d.start).collect();
        assert_eq!(starts, vec![0.5, 4.0, 3.0]);
        assert!(s.dims[1].integer && !s.dims[0].integer);
        assert_eq!(s.dims[1].played(0.49), 5.0);
        assert_eq!(s.dims[1].played(-1.0), 1.0);
        assert_eq!(s.dims[0].played(1.0 / 3.0), 0.666667);
        assert_eq!(
            s.spec_with(&[0.666667, 5.0, -0.25]),
            "mcts:iterations=50,c=0.666667,k=5,meeple=-0.25"
        );
        // A parameter without a default starts in the middle.
        let s = space("mcts", &["time_ms=10..30"]).unwrap();
        assert_eq!(s.dims[0].start, 20.0);
    }
}
