//! One kind of agent as the registry lists it: its name, its declared
//! parameters and the function that checks them and returns a [`Make`],
//! the maker of ready agents.

use super::{Param, Params, SpecError};
use crate::Agent;
use engine::Rules;
use std::sync::Arc;

/// What a spec's agents were made for: why they may play badly in games
/// of some seats and rules (see [`crate::Factory::unsuited_to`]).
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

    /// Why its agents may play badly in games of `players` seats under
    /// `rules`, if anything is known against it.
    pub fn unsuited_to(&self, rules: &Rules, players: usize) -> Option<String> {
        self.unsuited.as_ref()?(rules, players)
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
