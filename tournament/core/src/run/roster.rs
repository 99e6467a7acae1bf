//! The agents of a command, built from spec strings: built-in agents
//! through [`agents::Factory`], external bots (`ext:`) through
//! [`protocol::external`]. Every command checks and builds its agents here,
//! so `ext:` specs mix with built-in ones everywhere. The specs are
//! parsed once, when the roster is made (a model file named by `eval=`
//! or `net=` is read then and shared): building an agent for a game
//! cannot fail, whatever happens to the files afterwards.

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
    /// Built by the embedding's factory ([`Roster::with_custom`]).
    Custom(String),
    External(Arc<BotDef>),
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

/// One line per built-in agent of `specs` that may play badly in games
/// of `players` seats under `rules` ([`Factory::unsuited_to`]: a value
/// model or network fitted on other games), naming the agent; the command line
/// prints them as warnings. Specs that build no built-in agent (external
/// bots, an embedding's own) are skipped.
pub fn unsuited(specs: &[String], rules: &engine::Rules, players: usize) -> Vec<String> {
    specs
        .iter()
        .filter(|spec| !ext_spec::is_external(spec))
        .filter_map(|spec| {
            let why = Factory::new(spec).ok()?.unsuited_to(rules, players)?;
            Some(format!("agent {spec}: {why}"))
        })
        .collect()
}

/// A built-in agent's factory.
fn builtin(spec: &str) -> std::result::Result<Factory, SpecError> {
    Factory::new(spec).map_err(SpecError::Builtin)
}

impl Roster {
    /// Check `specs`; bots will write their stderr to `log_dir` and be
    /// sent seeds keyed with `bot_key` ([`Secret::bot_seed`]).
    pub fn new(specs: &[String], log_dir: Option<PathBuf>, bot_key: Secret) -> Result<Roster> {
        Roster::with_custom(specs, log_dir, bot_key, &|_| false)
    }

    /// As [`Roster::new`], with the specs `custom` accepts left to the
    /// embedding's own agent factory (e.g. Python callables): the runner
    /// builds those, see [`Roster::custom_spec`].
    pub fn with_custom(
        specs: &[String],
        log_dir: Option<PathBuf>,
        bot_key: Secret,
        custom: &dyn Fn(&str) -> bool,
    ) -> Result<Roster> {
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
            .collect::<std::result::Result<_, SpecError>>()
            .map_err(|e| Error::Invalid(e.to_string()))?;
        Ok(Roster {
            entries,
            pool: BotPool::new(log_dir, bot_key),
        })
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
