//! The agents of a command, built from spec strings: built-in agents
//! through [`agents::Factory`], external bots (`ext:`) through
//! [`protocol::external`]. Every command checks and builds its agents here,
//! so `ext:` specs mix with built-in ones everywhere.
//!
//! The specs are parsed once, into an [`AgentPlan`] (a model file named by
//! `eval=` or `net=` is read then and shared); the plan answers the
//! checks made before a run (e.g. [`AgentPlan::unsuited`]) and becomes a
//! [`Roster`] when the run starts, which adds the external bots' process
//! pool. Building an agent for a game cannot fail, whatever happens to the
//! files afterwards.

use agents::{Agent, Factory};
use files::error::{Error, Result};
use protocol::external::spec::{self as ext_spec, BotDef};
use protocol::external::{BotPool, ExtAgent};
use protocol::secret::Secret;
use std::path::PathBuf;
use std::sync::Arc;

/// The folder, inside a results folder, for the bots' stderr logs.
pub const BOT_LOGS: &str = "bots";

/// One spec, checked.
#[derive(Clone, Debug)]
enum Entry {
    Builtin(Factory),
    /// Built by the embedding's factory ([`AgentPlan::with_custom`]).
    Custom(String),
    External(Arc<BotDef>),
}

/// Agent specs parsed once: built-in agents' factories (their model files
/// read), external bots' definitions, and the specs an embedding builds
/// itself. What [`crate::run::config::TournamentConfig`] carries and
/// [`AgentPlan::roster`] turns into agents.
#[derive(Clone, Debug)]
pub struct AgentPlan {
    entries: Vec<Entry>,
}

/// Checked specs, ready to build agents from; external bots' processes
/// live in its pool until [`Roster::shutdown`] or drop.
#[derive(Debug)]
pub struct Roster {
    entries: Vec<Entry>,
    pool: Arc<BotPool>,
}

/// Why a spec builds no agent (one line).
#[derive(Debug)]
pub enum SpecError {
    /// A built-in agent's spec: the agents crate's reason; an unknown
    /// name also offers external bots.
    Builtin(agents::SpecError),
    /// An external bot's spec (`ext:`): the protocol crate's reason.
    External(ext_spec::SpecError),
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpecError::Builtin(e @ agents::SpecError::UnknownAgent { .. }) => {
                write!(
                    f,
                    "{e}, or an external bot: ext:cmd=PROGRAM or ext:name=BOT"
                )
            }
            SpecError::Builtin(e) => write!(f, "{e}"),
            SpecError::External(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for SpecError {}

/// Check one spec: it builds an agent, or names a runnable bot.
pub fn check_spec(spec: &str) -> std::result::Result<(), SpecError> {
    if ext_spec::is_external(spec) {
        ext_spec::parse(spec)
            .map(|_| ())
            .map_err(SpecError::External)
    } else {
        builtin(spec).map(|_| ())
    }
}

/// A built-in agent's factory.
fn builtin(spec: &str) -> std::result::Result<Factory, SpecError> {
    Factory::new(spec).map_err(SpecError::Builtin)
}

impl AgentPlan {
    /// Parse `specs`: each builds a built-in agent or names a runnable
    /// bot.
    ///
    /// # Errors
    /// The first spec that does neither: why, in one line.
    pub fn parse(specs: &[String]) -> std::result::Result<AgentPlan, SpecError> {
        AgentPlan::with_custom(specs, &|_| false)
    }

    /// As [`AgentPlan::parse`], with the specs `custom` accepts left to
    /// the embedding's own agent factory (e.g. Python callables): the
    /// runner builds those, see [`Roster::custom_spec`].
    pub fn with_custom(
        specs: &[String],
        custom: &dyn Fn(&str) -> bool,
    ) -> std::result::Result<AgentPlan, SpecError> {
        let entries = specs
            .iter()
            .map(|spec| {
                if custom(spec) {
                    Ok(Entry::Custom(spec.clone()))
                } else if ext_spec::is_external(spec) {
                    ext_spec::parse(spec)
                        .map(|d| Entry::External(Arc::new(d)))
                        .map_err(SpecError::External)
                } else {
                    builtin(spec).map(Entry::Builtin)
                }
            })
            .collect::<std::result::Result<_, SpecError>>()?;
        Ok(AgentPlan { entries })
    }

    /// How many specs.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether some specs are left to the embedding's factory.
    pub fn has_custom(&self) -> bool {
        self.entries.iter().any(|e| matches!(e, Entry::Custom(_)))
    }

    /// One line per built-in agent that may play badly in games of
    /// `players` seats under `rules` ([`Factory::unsuited_to`]: a value
    /// model or network fitted on other games), naming the agent by
    /// `specs[i]`; the command line prints them as warnings. External bots
    /// and an embedding's own agents are skipped.
    pub fn unsuited(&self, specs: &[String], rules: &engine::Rules, players: usize) -> Vec<String> {
        self.entries
            .iter()
            .zip(specs)
            .filter_map(|(entry, spec)| match entry {
                Entry::Builtin(factory) => {
                    let why = factory.unsuited_to(rules, players)?;
                    Some(format!("agent {spec}: {why}"))
                }
                Entry::Custom(_) | Entry::External(_) => None,
            })
            .collect()
    }

    /// The plan of `indices`' entries, in that order (an entry may be
    /// taken more than once): e.g. the seats of one game from a list of
    /// agents parsed once.
    ///
    /// # Panics
    /// An index out of range.
    pub fn pick(&self, indices: &[usize]) -> AgentPlan {
        AgentPlan {
            entries: indices.iter().map(|&i| self.entries[i].clone()).collect(),
        }
    }

    /// The roster that builds the plan's agents: bots will write their
    /// stderr to `log_dir` and be sent seeds keyed with `bot_key`
    /// ([`Secret::bot_seed`]).
    pub fn roster(&self, log_dir: Option<PathBuf>, bot_key: Secret) -> Roster {
        Roster {
            entries: self.entries.clone(),
            pool: BotPool::new(log_dir, bot_key),
        }
    }
}

impl Roster {
    /// Parse `specs` ([`AgentPlan::parse`]) into a roster whose bots
    /// write their stderr to `log_dir` and are sent seeds keyed with
    /// `bot_key`.
    ///
    /// # Errors
    /// A spec that builds no agent: why, in one line.
    pub fn new(specs: &[String], log_dir: Option<PathBuf>, bot_key: Secret) -> Result<Roster> {
        let plan = AgentPlan::parse(specs).map_err(|e| Error::Invalid(e.to_string()))?;
        Ok(plan.roster(log_dir, bot_key))
    }

    /// A fresh agent for spec `i`.
    pub fn build(&self, i: usize) -> Box<dyn Agent> {
        match &self.entries[i] {
            Entry::Builtin(factory) => factory.build(),
            Entry::External(def) => Box::new(ExtAgent::new(def.clone(), self.pool.clone())),
            Entry::Custom(spec) => panic!("{spec:?} is built by the embedding's factory"),
        }
    }

    /// Whether spec `i` is an external bot's.
    pub fn is_external(&self, i: usize) -> bool {
        matches!(self.entries[i], Entry::External(_))
    }

    /// The spec of entry `i` when the embedding's factory builds it.
    pub fn custom_spec(&self, i: usize) -> Option<&str> {
        match &self.entries[i] {
            Entry::Custom(spec) => Some(spec),
            _ => None,
        }
    }

    /// Quit the bots' processes.
    pub fn shutdown(&self) {
        self.pool.shutdown();
    }
}
