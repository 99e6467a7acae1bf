//! The registry of agents: every kind this build knows ([`AGENTS`]) and
//! the checked factory a spec string such as `mcts:iterations=2000,c=0.7`
//! becomes.
//!
//! It sits above every agent and no agent imports it (the vocabulary the
//! agents share is [`crate::spec`]). [`Factory::new`] looks the name up
//! in [`AGENTS`] and checks the parameters against the agent's
//! declaration ([`crate::spec::params`]), so an
//! unknown agent or parameter, or a value out of range, gives an error
//! naming the valid ones the same way for every agent. What it returns is
//! a validated factory: any file a parameter names (`eval=`, `net=`) is
//! read there, once, and shared by every agent it builds, and building
//! an agent cannot fail. A run turns its specs into factories when it
//! starts; [`from_spec`] is the one-off shortcut.

use crate::spec::{params, AgentKind, Make, Params, Spec, SpecError};
use crate::Agent;
use engine::Rules;
use std::fmt;

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

/// The parameters of every agent as Markdown, one table per agent (the
/// section "Parameters" of `docs/agents.md`, checked by a test).
pub fn parameters_markdown() -> String {
    let mut out = String::new();
    for kind in AGENTS {
        out.push_str(&format!("\n### `{}`\n\n", kind.name));
        if kind.params.is_empty() {
            out.push_str("No parameters.\n");
        } else {
            out.push_str(&params::markdown_table(kind.params));
        }
    }
    out
}

/// The kind of agent named `name`.
pub fn kind(name: &str) -> Option<&'static AgentKind> {
    AGENTS.iter().find(|k| k.name == name)
}

/// A spec checked and ready: it builds agents without failing, sharing
/// whatever files its parameters named (read once, when it was made).
#[derive(Clone)]
pub struct Factory {
    spec: String,
    kind: &'static AgentKind,
    make: Make,
}

impl fmt::Debug for Factory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Factory")
            .field("spec", &self.spec)
            .finish_non_exhaustive()
    }
}

impl Factory {
    /// Check `spec` and read the files it names.
    ///
    /// # Errors
    ///
    /// An unknown agent (listing the known ones), an unknown parameter
    /// (listing the agent's parameters with their ranges), a bad value,
    /// or a file that cannot be read as what its parameter wants.
    pub fn new(spec: &str) -> Result<Factory, SpecError> {
        let parsed = Spec::parse(spec)?;
        let kind = kind(parsed.name).ok_or_else(|| SpecError::UnknownAgent {
            name: parsed.name.to_string(),
            known: AGENTS.iter().map(|k| k.name).collect(),
        })?;
        let params = Params::new(&parsed, kind.params)?;
        let spec = spec.trim().to_string();
        let make = (kind.build)(spec.clone(), &params)?;
        Ok(Factory { spec, kind, make })
    }

    /// The spec string (trimmed), which its agents report as their name.
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// The kind of agent it builds.
    pub fn kind(&self) -> &'static AgentKind {
        self.kind
    }

    /// A fresh agent.
    pub fn build(&self) -> Box<dyn Agent> {
        self.make.make()
    }

    /// Why its agents may play badly in games of `players` seats under
    /// `rules` — the value model of `eval=` or the network of `net=` was
    /// fitted on other games — or `None` when nothing is known against
    /// it. The command line prints it as a warning before a tournament.
    pub fn unsuited_to(&self, rules: &Rules, players: usize) -> Option<String> {
        self.make.unsuited_to(rules, players)
    }
}

/// Build one agent from its spec string ([`Factory::new`], then
/// [`Factory::build`]); a run that builds many keeps the factory.
///
/// # Errors
///
/// As [`Factory::new`].
pub fn from_spec(spec: &str) -> Result<Box<dyn Agent>, SpecError> {
    Factory::new(spec).map(|f| f.build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_agents_and_parameters_list_the_valid_ones() {
        let e = from_spec("alphazero").err().unwrap();
        for kind in AGENTS {
            assert!(e.to_string().contains(kind.name), "{e}");
        }
        for kind in AGENTS {
            let e = from_spec(&format!("{}:nonsense=5", kind.name))
                .err()
                .unwrap();
            for p in kind.params {
                assert!(
                    e.to_string().contains(p.name) && e.to_string().contains(&p.valid()),
                    "{e}"
                );
            }
        }
        assert!(from_spec("greedy:depth=2")
            .err()
            .unwrap()
            .to_string()
            .contains("eval"));
        assert!(from_spec("random:meeple=2").is_err());
        assert_eq!(from_spec("random").unwrap().name(), "random");
    }

    /// Choice parameters are read as enums (`FromStr`): every word the
    /// declaration offers must read, or the agent refuses its own word.
    #[test]
    fn every_word_of_every_choice_builds_its_agent() {
        for kind in AGENTS {
            for p in kind.params {
                if let crate::spec::Values::Choice(words) = p.values {
                    for word in words {
                        let spec = format!("{}:{}={word}", kind.name, p.name);
                        assert!(from_spec(&spec).is_ok(), "{spec}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_unknown_agent_error_is_its_own_variant() {
        let e = Factory::new("alphazero").unwrap_err();
        assert!(matches!(e, SpecError::UnknownAgent { .. }), "{e:?}");
    }

    #[test]
    fn every_default_is_accepted_as_written() {
        for kind in AGENTS {
            for p in kind.params.iter().filter(|p| p.has_default()) {
                let spec = format!("{}:{}={}", kind.name, p.name, p.default);
                assert!(from_spec(&spec).is_ok(), "{spec}");
            }
        }
    }
}
