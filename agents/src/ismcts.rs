//! `ismcts`: single-observer information-set MCTS (Cowling, Powley &
//! Whitehouse 2012, "SO-ISMCTS").
//!
//! Spec: `ismcts:iterations=2000` and every parameter of `mcts`
//! ([`crate::mcts::PARAMS`]). It shares the `mcts` search and changes what
//! its nodes stand for:
//!
//! - **One tree over the seat's information sets.** A node is a sequence
//!   of what the observing seat sees: actions (its own and the other
//!   seats', all public once played), the tiles drawn, and its own gift
//!   cards. Cards dealt to other seats are hidden from it, so the tree does
//!   not branch on them (the `mcts` agent keys a child by every card drawn
//!   in the iteration's sample, which splits its statistics by information
//!   it does not have).
//! - **A new determinization per iteration** from the [`engine::SeatView`]
//!   (the bag as counts; other seats' cards dealt from the unseen ones).
//!   Only the actions legal in that sample are considered below the root.
//! - **Availability-aware selection**: the UCB exploration term of a child
//!   uses how often it was *available* (legal in the iteration's sample
//!   when its parent was visited) in place of the parent's visit count, so
//!   an action legal in few determinizations is not under-explored.
//! - **Chance** for the tile draws (children keyed by the tile) and the
//!   seat's own gift draws (keyed by the card).
//!
//! Without The Gifts nothing is hidden but the tile order, every action of
//! a node is always available, and the search differs from `mcts` only in
//! counting availability from a child's creation.

use crate::mcts::{MctsAgent, MctsConfig, PARAMS};
use crate::spec::AgentKind;

/// The `ismcts` agent in the spec registry: an [`MctsAgent`] searching
/// information sets.
pub const KIND: AgentKind = AgentKind {
    name: "ismcts",
    params: PARAMS,
    build: |name, params| {
        let config = MctsConfig {
            info_sets: true,
            ..MctsConfig::from_params(params)?
        };
        let unsuited = crate::models::eval_unsuited(config.eval.clone());
        Ok(
            crate::spec::Make::new(move || Box::new(MctsAgent::new(name.clone(), config.clone())))
                .unsuited(unsuited),
        )
    },
};
