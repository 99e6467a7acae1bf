//! An agent's `key=value` parameters: declared once, read the same way
//! for every agent.
//!
//! Each agent declares its parameters as [`Param`]s — name, the values it
//! takes ([`Values`]), default and a line of help — and that declaration
//! is the only place they are written down: [`Params`] checks every value
//! given against it (an unknown parameter is refused with the list of
//! valid ones, a value out of range with the range), an absent parameter
//! reads as the declared default, and the help of the command line and
//! the table of `docs/agents.md` ([`markdown_table`]) are printed from it.
//! So the check, the default and the help cannot drift apart.

use super::{Spec, SpecError};
use std::fmt;
use std::str::FromStr;

/// The values a parameter takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Values {
    /// An integer `>= min`, and `<= max` when given.
    Int {
        /// The smallest value.
        min: u64,
        /// The largest value, if any.
        max: Option<u64>,
    },
    /// An integer `>= min`, or the word `or` (e.g. `all`).
    IntOr {
        /// The smallest value.
        min: u64,
        /// The word standing for no limit.
        or: &'static str,
    },
    /// Any finite number.
    Number,
    /// A finite number `>= min`.
    NumberAtLeast(f64),
    /// A finite number `> min`.
    NumberAbove(f64),
    /// A number in `lo..=hi`.
    NumberIn(f64, f64),
    /// A probability: a number in `0..=1`.
    Probability,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// Free text (a file name), described.
    Text(&'static str),
}

impl Values {
    /// Whether `value` is one of these values.
    pub fn accepts(&self, value: &str) -> bool {
        let number = || value.parse::<f64>().ok().filter(|x| x.is_finite());
        let int = || value.parse::<u64>().ok();
        match *self {
            Values::Int { min, max } => {
                int().is_some_and(|x| x >= min && max.is_none_or(|m| x <= m))
            }
            Values::IntOr { min, or } => value == or || int().is_some_and(|x| x >= min),
            Values::Number => number().is_some(),
            Values::NumberAtLeast(min) => number().is_some_and(|x| x >= min),
            Values::NumberAbove(min) => number().is_some_and(|x| x > min),
            Values::NumberIn(lo, hi) => number().is_some_and(|x| (lo..=hi).contains(&x)),
            Values::Probability => number().is_some_and(|x| (0.0..=1.0).contains(&x)),
            Values::Choice(words) => words.contains(&value),
            Values::Text(_) => !value.is_empty(),
        }
    }
}

impl fmt::Display for Values {
    /// What the values are, as error messages and the help say it:
    /// `integer >= 1`, `integer in 1..4`, `score|win`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Values::Int { min, max: None } => write!(f, "integer >= {min}"),
            Values::Int {
                min,
                max: Some(max),
            } => write!(f, "integer in {min}..{max}"),
            Values::IntOr { min, or } => write!(f, "integer >= {min} or {or}"),
            Values::Number => f.write_str("number"),
            Values::NumberAtLeast(min) => write!(f, "number >= {min}"),
            Values::NumberAbove(min) => write!(f, "number > {min}"),
            Values::NumberIn(lo, hi) => write!(f, "number in {lo}..{hi}"),
            Values::Probability => f.write_str("probability in 0..1"),
            Values::Choice(words) => f.write_str(&words.join("|")),
            Values::Text(what) => f.write_str(what),
        }
    }
}

/// One parameter of an agent, declared once: the spec reader, the
/// default, the command line's help and the docs' table all come from it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// The key in the spec string.
    pub name: &'static str,
    /// The values it takes.
    pub values: Values,
    /// Its default, as written in a spec (`none`: absent).
    pub default: &'static str,
    /// What it does, in one line.
    pub help: &'static str,
}

impl Param {
    /// A parameter taking `values`, `default` when not given (`none`:
    /// no value), described by `help`.
    pub const fn new(
        name: &'static str,
        values: Values,
        default: &'static str,
        help: &'static str,
    ) -> Param {
        Param {
            name,
            values,
            default,
            help,
        }
    }

    /// The values it takes, e.g. `integer >= 1` or `win|score`.
    pub fn valid(&self) -> String {
        self.values.to_string()
    }

    /// Whether its default is `none` (the parameter has no value unless
    /// given).
    pub fn has_default(&self) -> bool {
        self.default != "none"
    }
}

/// The budget parameters of a searching agent, in this order:
/// `iterations` (reproducible; `default_iterations` unless given, each
/// what `iterations_help` says), then the wall-clock budgets `time_ms`
/// per move and `game_ms` per game (none unless given). `mcts`,
/// `ismcts` and `az` start their lists with them:
///
/// ```
/// use agents::spec::params::{budget, Param, Values};
///
/// const BUDGET: [Param; 3] = budget("100", "iterations per move; reproducible");
/// const PARAMS: &[Param] = &[
///     BUDGET[0],
///     BUDGET[1],
///     BUDGET[2],
///     Param::new("c", Values::Number, "1", "exploration"),
/// ];
/// assert_eq!(PARAMS[0].default, "100");
/// assert_eq!(PARAMS[2].name, "game_ms");
/// ```
pub const fn budget(default_iterations: &'static str, iterations_help: &'static str) -> [Param; 3] {
    const AT_LEAST_1: Values = Values::Int { min: 1, max: None };
    [
        Param::new(
            "iterations",
            AT_LEAST_1,
            default_iterations,
            iterations_help,
        ),
        Param::new(
            "time_ms",
            AT_LEAST_1,
            "none",
            "wall-clock budget per move instead (not reproducible)",
        ),
        Param::new(
            "game_ms",
            AT_LEAST_1,
            "none",
            "wall-clock budget per game, shared over the seat's turns left (not reproducible)",
        ),
    ]
}

/// The values of a searching agent's `threads=` (`mcts`, `ismcts`,
/// `az`): root parallelism on 1 to 64 threads.
pub const THREADS: Values = Values::Int {
    min: 1,
    max: Some(64),
};

/// `name (valid)` for each parameter, comma-separated (`none` if empty).
pub fn describe(params: &[Param]) -> String {
    if params.is_empty() {
        return "none".to_string();
    }
    params
        .iter()
        .map(|p| format!("{} ({})", p.name, p.values))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `name=default` for each parameter with a default, comma-separated
/// (for the command line's help).
pub fn defaults(params: &[Param]) -> String {
    params
        .iter()
        .map(|p| format!("{}={}", p.name, p.default))
        .collect::<Vec<_>>()
        .join(",")
}

/// The Markdown table of `params`: parameter, values, default, meaning
/// (`docs/agents.md` holds one per agent, checked by a test).
pub fn markdown_table(params: &[Param]) -> String {
    let mut out = String::from("| parameter | values | default | meaning |\n|---|---|---|---|\n");
    for p in params {
        let default = if p.has_default() {
            format!("`{}`", p.default)
        } else {
            "none".to_string()
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            p.name,
            p.values.to_string().replace('|', "\\|"),
            default,
            p.help.replace('|', "\\|")
        ));
    }
    out
}

/// The parameters of one parsed spec, checked against an agent's list:
/// every value given is one of its parameter's values.
#[derive(Clone, Debug)]
pub struct Params<'s, 'a> {
    spec: &'s Spec<'a>,
    known: &'static [Param],
}

impl<'s, 'a> Params<'s, 'a> {
    /// Check that every parameter of `spec` is one of `known`, given
    /// once, with a value it takes.
    ///
    /// # Errors
    ///
    /// Names the first unknown parameter and lists the valid ones, names
    /// a parameter given twice (`mcts:c=1,c=2`: which one was meant?), or
    /// names a value out of its parameter's range and the range.
    pub fn new(spec: &'s Spec<'a>, known: &'static [Param]) -> Result<Params<'s, 'a>, SpecError> {
        for (i, (k, _)) in spec.params.iter().enumerate() {
            if spec.params[..i].iter().any(|(earlier, _)| earlier == k) {
                return Err(SpecError::GivenTwice {
                    agent: spec.name.to_string(),
                    key: k.to_string(),
                });
            }
            if !known.iter().any(|p| p.name == *k) {
                return Err(SpecError::UnknownParam {
                    agent: spec.name.to_string(),
                    key: k.to_string(),
                    valid: describe(known),
                });
            }
        }
        let params = Params { spec, known };
        for &(k, v) in &spec.params {
            if !params.param(k).values.accepts(v) {
                return Err(params.invalid(k, v));
            }
        }
        Ok(params)
    }

    /// The declaration of `key`.
    ///
    /// # Panics
    ///
    /// When the agent did not declare `key` (a bug the agent's tests
    /// catch: every agent is built with its defaults in them).
    fn param(&self, key: &str) -> &'static Param {
        self.known
            .iter()
            .find(|p| p.name == key)
            .unwrap_or_else(|| {
                panic!(
                    "agent {:?} reads undeclared parameter {key:?}",
                    self.spec.name
                )
            })
    }

    /// The raw value of `key`, if given.
    pub fn raw(&self, key: &str) -> Option<&'a str> {
        self.spec
            .params
            .iter()
            .find(|(k, _)| *k == key)
            .map(|&(_, v)| v)
    }

    /// The value of `key` as written: given, else its declared default
    /// (`None` when that is `none`).
    fn value(&self, key: &str) -> Option<&str> {
        let p = self.param(key);
        self.raw(key).or(p.has_default().then_some(p.default))
    }

    /// The error for a bad value of `key`: what it must be and what it was.
    pub fn invalid(&self, key: &str, value: &str) -> SpecError {
        let valid = self
            .known
            .iter()
            .find(|p| p.name == key)
            .map_or("?".to_string(), Param::valid);
        SpecError::BadValue {
            agent: self.spec.name.to_string(),
            key: key.to_string(),
            valid,
            value: value.to_string(),
        }
    }

    /// The value of `key` (given or its default) parsed as `T`, `None`
    /// when neither.
    ///
    /// # Errors
    ///
    /// When it does not fit `T` (e.g. an integer beyond `u32`).
    pub fn get<T: FromStr>(&self, key: &str) -> Result<Option<T>, SpecError> {
        self.value(key)
            .map(|v| v.parse::<T>().map_err(|_| self.invalid(key, v)))
            .transpose()
    }

    /// The value of `key` (given or its default) parsed as `T`.
    ///
    /// # Errors
    ///
    /// When it does not fit `T`, or has no value at all.
    pub fn req<T: FromStr>(&self, key: &str) -> Result<T, SpecError> {
        self.get(key)?.ok_or_else(|| self.invalid(key, "none"))
    }

    /// The value of `key` (given or its default), one of the words of its
    /// [`Values::Choice`], read as the enum `T` (whose `FromStr` takes
    /// exactly those words: the registry's tests build every agent with
    /// every word of every choice).
    ///
    /// # Errors
    ///
    /// When it has no value, or `T` does not read it.
    pub fn choice<T: FromStr>(&self, key: &str) -> Result<T, SpecError> {
        let v = self.value(key).ok_or_else(|| self.invalid(key, "none"))?;
        v.parse::<T>().map_err(|_| self.invalid(key, v))
    }

    /// The value of `key` (given or its default) as text, `None` when
    /// neither.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.value(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARAMS: &[Param] = &[
        Param::new("n", Values::Int { min: 1, max: None }, "3", "a count"),
        Param::new("p", Values::NumberIn(0.0, 1.0), "0.5", "a share"),
        Param::new("mode", Values::Choice(&["fast", "slow"]), "fast", "how"),
        Param::new(
            "limit",
            Values::Int {
                min: 1,
                max: Some(4),
            },
            "none",
            "at most",
        ),
    ];

    #[test]
    fn unknown_parameters_list_the_valid_ones_with_their_ranges() {
        let spec = Spec::parse("x:m=1").unwrap();
        let e = Params::new(&spec, PARAMS).unwrap_err();
        assert!(
            e.to_string().contains(
                "n (integer >= 1), p (number in 0..1), mode (fast|slow), limit (integer in 1..4)"
            ),
            "{e}"
        );
    }

    /// Issue 27: `mcts:c=1,c=2` silently took the last value.
    #[test]
    fn a_parameter_given_twice_is_refused() {
        let spec = Spec::parse("x:n=1,p=0.5,n=2").unwrap();
        let e = Params::new(&spec, PARAMS).unwrap_err();
        assert_eq!(e.to_string(), "agent \"x\": parameter \"n\" given twice");
    }

    #[test]
    fn values_out_of_range_name_the_range() {
        let error = |s: &str| {
            Params::new(&Spec::parse(s).unwrap(), PARAMS)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            error("x:n=0"),
            "agent \"x\": n must be integer >= 1, not \"0\""
        );
        assert!(error("x:p=1.5").contains("0..1"));
        assert!(error("x:p=NaN").contains("0..1"));
        assert!(error("x:mode=medium").contains("fast|slow"));
        assert!(error("x:limit=5").contains("integer in 1..4"));
    }

    #[test]
    fn absent_parameters_read_as_their_declared_defaults() {
        let spec = Spec::parse("x:n=7,mode=slow").unwrap();
        let p = Params::new(&spec, PARAMS).unwrap();
        assert_eq!(p.req::<u32>("n").unwrap(), 7);
        assert_eq!(p.req::<f64>("p").unwrap(), 0.5);
        assert_eq!(p.choice::<String>("mode").unwrap(), "slow");
        assert_eq!(p.get::<u32>("limit").unwrap(), None);
        let spec = Spec::parse("x").unwrap();
        let p = Params::new(&spec, PARAMS).unwrap();
        assert_eq!(p.req::<u32>("n").unwrap(), 3);
        assert_eq!(p.choice::<String>("mode").unwrap(), "fast");
        // Too large for the type read: an error, not a wrap.
        let spec = Spec::parse("x:n=5000000000").unwrap();
        let p = Params::new(&spec, PARAMS).unwrap();
        assert!(p.req::<u32>("n").is_err());
    }

    #[test]
    fn values_print_as_the_errors_always_did() {
        let cases = [
            (
                Values::Int {
                    min: 0,
                    max: Some(3),
                },
                "integer in 0..3",
            ),
            (Values::IntOr { min: 0, or: "all" }, "integer >= 0 or all"),
            (Values::NumberAtLeast(0.0), "number >= 0"),
            (Values::NumberAbove(0.0), "number > 0"),
            (Values::Number, "number"),
            (Values::Probability, "probability in 0..1"),
        ];
        for (values, text) in cases {
            assert_eq!(values.to_string(), text);
        }
    }

    #[test]
    fn the_table_escapes_bars() {
        let t = markdown_table(PARAMS);
        assert!(t.contains("| `mode` | fast\\|slow | `fast` | how |"), "{t}");
        assert!(
            t.contains("| `limit` | integer in 1..4 | none | at most |"),
            "{t}"
        );
    }
}
