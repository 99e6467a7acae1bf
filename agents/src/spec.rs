//! Agent spec strings: `name` or `name:key=value,key=value`.
//!
//! [`Factory::new`] looks the name up in [`AGENTS`] and checks the
//! parameters against the agent's declaration ([`crate::params`]), so an
//! unknown agent or parameter, or a value out of range, gives an error
//! naming the valid ones the same way for every agent. What it returns is
//! a validated factory: any file a parameter names (`eval=`, `net=`) is
//! read there, once, and shared by every agent it builds, and building
//! an agent cannot fail. A run turns its specs into factories when it
//! starts; [`from_spec`] is the one-off shortcut.

use crate::params::{Param, Params};
use crate::Agent;
use engine::Rules;
use std::fmt;
use std::sync::Arc;

/// A spec string that does not describe an agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

/// What a spec's agents were made for: why they may play badly in games
/// of some seats and rules (see [`Factory::unsuited_to`]).
pub type Unsuited = Arc<dyn Fn(&Rules, usize) -> Option<String> + Send + Sync>;

/// Makes a fresh agent, every time the same (its settings checked and its
/// files read when the maker was made), and knows what games the files
/// it read were fitted on.
#[derive(Clone)]
pub struct Make {
    agent: Arc<dyn Fn() -> Box<dyn Agent> + Send + Sync>,
    unsuited: Option<Unsuited>,
}

impl Make {
    /// The maker of the agents `agent` returns, suited to every game.
    pub fn new(agent: impl Fn() -> Box<dyn Agent> + Send + Sync + 'static) -> Make {
        Make {
            agent: Arc::new(agent),
            unsuited: None,
        }
    }

    /// The maker of agents cloned from `agent`.
    pub fn cloning<A: Agent + Clone + Sync + 'static>(agent: A) -> Make {
        Make::new(move || Box::new(agent.clone()))
    }

    /// The same maker, whose agents may play badly where `unsuited` says
    /// why (their value model or network was fitted on other games).
    pub fn unsuited(self, unsuited: Option<Unsuited>) -> Make {
        Make { unsuited, ..self }
    }

    /// A fresh agent.
    pub fn make(&self) -> Box<dyn Agent> {
        (self.agent)()
    }
}

/// Checks an agent's parameters and reads its files, returning what makes
/// agents reporting themselves as the given name.
pub type Build = fn(String, &Params<'_, '_>) -> Result<Make, SpecError>;

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

/// The parameters of every agent as Markdown, one table per agent (the
/// section "Parameters" of `docs/agents.md`, checked by a test).
pub fn parameters_markdown() -> String {
    let mut out = String::new();
    for kind in AGENTS {
        out.push_str(&format!("\n### `{}`\n\n", kind.name));
        if kind.params.is_empty() {
            out.push_str("No parameters.\n");
        } else {
            out.push_str(&crate::params::markdown_table(kind.params));
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
        let kind = kind(parsed.name).ok_or_else(|| {
            SpecError(format!(
                "unknown agent {:?} (valid: {})",
                parsed.name,
                AGENTS.iter().map(|k| k.name).collect::<Vec<_>>().join(", ")
            ))
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
        self.make.unsuited.as_ref()?(rules, players)
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
                assert!(e.0.contains(p.name) && e.0.contains(&p.valid()), "{e}");
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
            for p in kind.params.iter().filter(|p| p.has_default()) {
                let spec = format!("{}:{}={}", kind.name, p.name, p.default);
                assert!(from_spec(&spec).is_ok(), "{spec}");
            }
        }
    }
}
