//! The agents' vocabulary, below every agent: a spec string's parts
//! ([`Spec`]), why a spec describes no agent ([`SpecError`]), the
//! declaration and reading of parameters ([`params`]) and what one kind
//! of agent is ([`AgentKind`], [`Make`]).
//!
//! Every agent imports from here; nothing here imports an agent. The list
//! of agents and the checked factory built from a spec string live one
//! level up, in [`crate::registry`], which no agent imports.

mod error;
mod kind;
pub mod params;
mod parse;

pub use error::SpecError;
pub use kind::{AgentKind, Build, Make, Unsuited};
pub use params::{Param, Params, Values};
pub use parse::Spec;
