//! Agent spec strings: `name` or `name:key=value,key=value`.
//!
//! [`from_spec`] looks the name up in [`AGENTS`]; each agent reads its own
//! parameters through [`crate::params::Params`], so an unknown agent or
//! parameter, or a value out of range, gives an error naming the valid
//! ones the same way for every agent.

use crate::params::{Param, Params};
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

/// Builds an agent reporting itself as the given name from its parameters.
pub type Build = fn(String, &Params<'_, '_>) -> Result<Box<dyn Agent>, SpecError>;

/// One kind of agent: its name, its parameters and how to build it.
#[derive(Clone, Copy, Debug)]
pub struct AgentKind {
    /// The name in spec strings.
    pub name: &'static str,
    /// Its parameters.
    pub params: &'static [Param],
    /// Builds it.
    pub build: Build,
}

/// Every agent this build knows.
pub const AGENTS: &[AgentKind] = &[
    crate::random::KIND,
    crate::greedy::KIND,
    crate::mcts::KIND,
    crate::ismcts::KIND,
    crate::solver::KIND,
    crate::star25::KIND,
    crate::az::KIND,
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
    ///
    /// # Errors
    ///
    /// When a parameter is not `key=value`.
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
}

/// Build an agent from its spec string.
///
/// # Errors
///
/// An unknown agent (listing the known ones), an unknown parameter
/// (listing the agent's parameters with their ranges) or a bad value.
pub fn from_spec(spec: &str) -> Result<Box<dyn Agent>, SpecError> {
    let parsed = Spec::parse(spec)?;
    let kind = AGENTS
        .iter()
        .find(|k| k.name == parsed.name)
        .ok_or_else(|| {
            SpecError(format!(
                "unknown agent {:?} (valid: {})",
                parsed.name,
                AGENTS.iter().map(|k| k.name).collect::<Vec<_>>().join(", ")
            ))
        })?;
    let params = Params::new(&parsed, kind.params)?;
    (kind.build)(spec.trim().to_string(), &params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_with_parameters() {
        let s = Spec::parse("mcts:iterations=2000, c=0.7").unwrap();
        assert_eq!(s.name, "mcts");
        assert_eq!(s.params, vec![("iterations", "2000"), ("c", "0.7")]);
        assert!(Spec::parse("mcts:iterations").is_err());
    }

    #[test]
    fn unknown_agents_and_parameters_list_the_valid_ones() {
        let e = from_spec("alphazero").err().unwrap();
        for kind in AGENTS {
            assert!(e.0.contains(kind.name), "{e}");
        }
        for kind in AGENTS {
            let e = from_spec(&format!("{}:nonsense=5", kind.name))
                .err()
                .unwrap();
            for p in kind.params {
                assert!(e.0.contains(p.name) && e.0.contains(p.valid), "{e}");
            }
        }
        assert!(from_spec("greedy:depth=2")
            .err()
            .unwrap()
            .0
            .contains("eval"));
        assert!(from_spec("random:meeple=2").is_err());
        assert_eq!(from_spec("random").unwrap().name(), "random");
    }

    #[test]
    fn every_default_is_accepted_as_written() {
        for kind in AGENTS {
            for p in kind.params.iter().filter(|p| p.default != "none") {
                let spec = format!("{}:{}={}", kind.name, p.name, p.default);
                assert!(from_spec(&spec).is_ok(), "{spec}");
            }
        }
    }
}
