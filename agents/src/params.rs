//! Reading an agent's `key=value` parameters, the same way for every agent.
//!
//! Each agent lists its parameters as [`Param`]s (name, valid values,
//! default) and reads them through [`Params`], which rejects an unknown
//! parameter with the list of valid ones and an out-of-range value with
//! the range it must be in.

use crate::spec::{Spec, SpecError};
use std::str::FromStr;

/// One parameter of an agent: for error messages, `--help` and the README.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The key in the spec string.
    pub name: &'static str,
    /// The values it takes, e.g. `integer >= 1` or `win|score`.
    pub valid: &'static str,
    /// Its default, as written in a spec.
    pub default: &'static str,
}

impl Param {
    /// A parameter taking `valid` values, `default` when not given.
    pub const fn new(name: &'static str, valid: &'static str, default: &'static str) -> Param {
        Param {
            name,
            valid,
            default,
        }
    }
}

/// `name=valid` for each parameter, comma-separated (`none` if empty).
pub fn describe(params: &[Param]) -> String {
    if params.is_empty() {
        return "none".to_string();
    }
    params
        .iter()
        .map(|p| format!("{} ({})", p.name, p.valid))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The parameters of one parsed spec, checked against an agent's list.
#[derive(Clone, Debug)]
pub struct Params<'s, 'a> {
    spec: &'s Spec<'a>,
    known: &'static [Param],
}

impl<'s, 'a> Params<'s, 'a> {
    /// Check that every parameter of `spec` is one of `known`, and given
    /// once.
    ///
    /// # Errors
    ///
    /// Names the first unknown parameter and lists the valid ones, or
    /// names a parameter given twice (`mcts:c=1,c=2`: which one was
    /// meant?).
    pub fn new(spec: &'s Spec<'a>, known: &'static [Param]) -> Result<Params<'s, 'a>, SpecError> {
        for (i, (k, _)) in spec.params.iter().enumerate() {
            if spec.params[..i].iter().any(|(earlier, _)| earlier == k) {
                return Err(SpecError(format!(
                    "agent {:?}: parameter {k:?} given twice",
                    spec.name
                )));
            }
            if !known.iter().any(|p| p.name == *k) {
                return Err(SpecError(format!(
                    "agent {:?} has no parameter {k:?} (valid: {})",
                    spec.name,
                    describe(known)
                )));
            }
        }
        Ok(Params { spec, known })
    }

    /// The raw value of `key`, if given.
    pub fn raw(&self, key: &str) -> Option<&'a str> {
        self.spec
            .params
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|&(_, v)| v)
    }

    /// The error for a bad value of `key`: what it must be and what it was.
    pub fn invalid(&self, key: &str, value: &str) -> SpecError {
        let valid = self
            .known
            .iter()
            .find(|p| p.name == key)
            .map_or("?", |p| p.valid);
        SpecError(format!(
            "agent {:?}: {key} must be {valid}, not {value:?}",
            self.spec.name
        ))
    }

    /// The value of `key` parsed as `T` and accepted by `ok`, if given.
    ///
    /// # Errors
    ///
    /// When it does not parse or `ok` refuses it, naming the valid values.
    pub fn get<T: FromStr>(
        &self,
        key: &str,
        ok: impl Fn(&T) -> bool,
    ) -> Result<Option<T>, SpecError> {
        let Some(v) = self.raw(key) else {
            return Ok(None);
        };
        match v.parse::<T>() {
            Ok(x) if ok(&x) => Ok(Some(x)),
            _ => Err(self.invalid(key, v)),
        }
    }

    /// An integer `key >= min`, or `default`.
    ///
    /// # Errors
    ///
    /// When it is not such an integer.
    pub fn at_least<T: FromStr + PartialOrd>(
        &self,
        key: &str,
        min: T,
        default: T,
    ) -> Result<T, SpecError> {
        Ok(self.get(key, |x: &T| *x >= min)?.unwrap_or(default))
    }

    /// A finite number in `lo..=hi`, or `default`.
    ///
    /// # Errors
    ///
    /// When it is not a number in the range.
    pub fn number_in(&self, key: &str, lo: f64, hi: f64, default: f64) -> Result<f64, SpecError> {
        Ok(self
            .get(key, |x: &f64| x.is_finite() && (lo..=hi).contains(x))?
            .unwrap_or(default))
    }

    /// One of `choices` (returned as its index), or `default`.
    ///
    /// # Errors
    ///
    /// When it is not one of them.
    pub fn choice(&self, key: &str, choices: &[&str], default: usize) -> Result<usize, SpecError> {
        match self.raw(key) {
            None => Ok(default),
            Some(v) => choices
                .iter()
                .position(|c| *c == v)
                .ok_or_else(|| self.invalid(key, v)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARAMS: &[Param] = &[
        Param::new("n", "integer >= 1", "3"),
        Param::new("p", "number in 0..1", "0.5"),
        Param::new("mode", "fast|slow", "fast"),
    ];

    #[test]
    fn unknown_parameters_list_the_valid_ones_with_their_ranges() {
        let spec = Spec::parse("x:m=1").unwrap();
        let e = Params::new(&spec, PARAMS).unwrap_err();
        assert!(
            e.0.contains("n (integer >= 1), p (number in 0..1), mode (fast|slow)"),
            "{e}"
        );
    }

    /// Issue 27: `mcts:c=1,c=2` silently took the last value.
    #[test]
    fn a_parameter_given_twice_is_refused() {
        let spec = Spec::parse("x:n=1,p=0.5,n=2").unwrap();
        let e = Params::new(&spec, PARAMS).unwrap_err();
        assert_eq!(e.0, "agent \"x\": parameter \"n\" given twice");
    }

    #[test]
    fn values_out_of_range_name_the_range() {
        let spec = Spec::parse("x:n=0,p=1.5,mode=medium").unwrap();
        let p = Params::new(&spec, PARAMS).unwrap();
        let e = p.at_least("n", 1u32, 3).unwrap_err();
        assert_eq!(e.0, "agent \"x\": n must be integer >= 1, not \"0\"");
        assert!(p
            .number_in("p", 0.0, 1.0, 0.5)
            .unwrap_err()
            .0
            .contains("0..1"));
        assert!(p.choice("mode", &["fast", "slow"], 0).is_err());
        let spec = Spec::parse("x:n=7,mode=slow").unwrap();
        let p = Params::new(&spec, PARAMS).unwrap();
        assert_eq!(p.at_least("n", 1u32, 3).unwrap(), 7);
        assert_eq!(p.number_in("p", 0.0, 1.0, 0.5).unwrap(), 0.5);
        assert_eq!(p.choice("mode", &["fast", "slow"], 0).unwrap(), 1);
    }
}
