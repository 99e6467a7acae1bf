//! Why a spec string describes no agent: one variant per reason, each
//! printed as one line naming the agent and what to write instead.

use std::fmt;

/// A spec string that does not describe an agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// A parameter is not `key=value`.
    NotKeyValue {
        /// The whole spec.
        spec: String,
        /// The part that is not `key=value`.
        part: String,
    },
    /// No agent of this name; the names this build knows.
    UnknownAgent {
        /// The name given.
        name: String,
        /// The names this build knows.
        known: Vec<&'static str>,
    },
    /// The agent has no parameter of this name.
    UnknownParam {
        /// The agent's name.
        agent: String,
        /// The key given.
        key: String,
        /// Its parameters with their values (`name (values), …`).
        valid: String,
    },
    /// A parameter given twice (`mcts:c=1,c=2`: which one was meant?).
    GivenTwice {
        /// The agent's name.
        agent: String,
        /// The key given twice.
        key: String,
    },
    /// A value its parameter does not take.
    BadValue {
        /// The agent's name.
        agent: String,
        /// The parameter.
        key: String,
        /// What it takes (`integer >= 1`, `score|win`, …).
        valid: String,
        /// What was given (`none` when nothing was).
        value: String,
    },
    /// A file a parameter names (`eval=`, `net=`) that cannot be read as
    /// what the parameter wants: the reader's one line, naming the file.
    File(String),
    /// Parameters each valid but refused together, or a spec an embedding
    /// does not know: the one line saying why.
    Invalid(String),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::NotKeyValue { spec, part } => {
                write!(f, "agent {spec:?}: parameter {part:?} is not key=value")
            }
            SpecError::UnknownAgent { name, known } => {
                write!(f, "unknown agent {name:?} (valid: {})", known.join(", "))
            }
            SpecError::UnknownParam { agent, key, valid } => {
                write!(
                    f,
                    "agent {agent:?} has no parameter {key:?} (valid: {valid})"
                )
            }
            SpecError::GivenTwice { agent, key } => {
                write!(f, "agent {agent:?}: parameter {key:?} given twice")
            }
            SpecError::BadValue {
                agent,
                key,
                valid,
                value,
            } => write!(f, "agent {agent:?}: {key} must be {valid}, not {value:?}"),
            SpecError::File(why) | SpecError::Invalid(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for SpecError {}
