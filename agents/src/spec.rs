//! Agent spec strings: `name` or `name:key=value,key=value`.
//!
//! Every agent lists its parameters here; an unknown agent or parameter,
//! or a value that does not parse, gives an error naming the valid ones.

use crate::greedy::GreedyAgent;
use crate::mcts::{MctsAgent, MctsConfig};
use crate::random::RandomAgent;
use crate::Agent;
use std::fmt;

/// A spec string that does not describe an agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

/// The agents and their parameters, for error messages and `--help`.
pub const AGENTS: &[(&str, &[&str])] = &[
    ("random", &["meeple"]),
    ("greedy", &[]),
    ("mcts", crate::mcts::PARAMS),
];

/// A parsed spec: the agent's name and its `key=value` parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec<'a> {
    /// The agent's name.
    pub name: &'a str,
    /// Parameters in the order given.
    pub params: Vec<(&'a str, &'a str)>,
}

impl<'a> Spec<'a> {
    /// Split `name:key=value,...` into its parts.
    pub fn parse(spec: &'a str) -> Result<Spec<'a>, SpecError> {
        let spec = spec.trim();
        let (name, rest) = spec.split_once(':').unwrap_or((spec, ""));
        let mut params = Vec::new();
        for part in rest.split(',').filter(|p| !p.trim().is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| {
                SpecError(format!(
                    "agent {spec:?}: parameter {part:?} is not key=value"
                ))
            })?;
            params.push((k.trim(), v.trim()));
        }
        Ok(Spec { name, params })
    }

    /// Fail on any parameter not in `known`.
    pub fn check_known(&self, known: &[&str]) -> Result<(), SpecError> {
        for (k, _) in &self.params {
            if !known.contains(k) {
                return Err(SpecError(format!(
                    "agent {:?} has no parameter {k:?} (valid: {})",
                    self.name,
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                )));
            }
        }
        Ok(())
    }

    /// The value of parameter `key` parsed as `T`, if given.
    pub fn get<T: std::str::FromStr>(&self, key: &str) -> Result<Option<T>, SpecError> {
        match self.params.iter().rev().find(|(k, _)| *k == key) {
            None => Ok(None),
            Some((_, v)) => v.parse().map(Some).map_err(|_| {
                SpecError(format!(
                    "agent {:?}: bad value {v:?} for parameter {key:?}",
                    self.name
                ))
            }),
        }
    }
}

/// Build an agent from its spec string.
pub fn from_spec(spec: &str) -> Result<Box<dyn Agent>, SpecError> {
    let parsed = Spec::parse(spec)?;
    match parsed.name {
        "random" => {
            parsed.check_known(&["meeple"])?;
            let meeple: Option<f64> = parsed.get("meeple")?;
            if let Some(p) = meeple {
                if !(0.0..=1.0).contains(&p) {
                    return Err(SpecError(format!(
                        "agent \"random\": meeple must be a probability in 0..1, not {p}"
                    )));
                }
            }
            Ok(Box::new(RandomAgent::new(spec.trim().to_string(), meeple)))
        }
        "greedy" => {
            parsed.check_known(&[])?;
            Ok(Box::new(GreedyAgent::new(spec.trim().to_string())))
        }
        "mcts" => {
            let config = MctsConfig::from_spec(&parsed)?;
            Ok(Box::new(MctsAgent::new(spec.trim().to_string(), config)))
        }
        other => Err(SpecError(format!(
            "unknown agent {other:?} (valid: {})",
            AGENTS
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_with_parameters() {
        let s = Spec::parse("mcts:iterations=2000, c=0.7").unwrap();
        assert_eq!(s.name, "mcts");
        assert_eq!(s.params, vec![("iterations", "2000"), ("c", "0.7")]);
        assert_eq!(s.get::<u32>("iterations").unwrap(), Some(2000));
        assert!(s.get::<u32>("c").is_err());
        assert!(Spec::parse("mcts:iterations").is_err());
    }

    #[test]
    fn unknown_agents_and_parameters_list_the_valid_ones() {
        let e = from_spec("alphazero").err().unwrap();
        assert!(e.0.contains("random"), "{e}");
        let e = from_spec("random:speed=3").err().unwrap();
        assert!(e.0.contains("meeple"), "{e}");
        assert!(from_spec("random:meeple=2").is_err());
        assert_eq!(from_spec("random").unwrap().name(), "random");
        let e = from_spec("greedy:depth=2").err().unwrap();
        assert!(e.0.contains("none"), "{e}");
        let e = from_spec("mcts:iters=5").err().unwrap();
        for p in crate::mcts::PARAMS {
            assert!(e.0.contains(p), "{e}");
        }
        assert!(from_spec("mcts:reward=points").is_err());
        assert!(from_spec("mcts:rollout=smart").is_err());
        assert!(from_spec("mcts:iterations=0").is_err());
        assert!(from_spec("mcts:depth=deep").is_err());
        assert!(from_spec("mcts:c=-1").is_err());
        let ok = "mcts:iterations=50,c=1,reward=win,rollout=random,k=2,depth=all,widen=0";
        assert_eq!(from_spec(ok).unwrap().name(), ok);
        assert!(from_spec("mcts:time_ms=5").is_ok());
    }
}
