//! `carcassonne-bot/1`, the protocol between the toolkit and bots in any
//! language (docs/PROTOCOL.md), both ways round:
//!
//! - [`external`]: a bot as an agent (`ext:cmd=…`): its process, the
//!   messages, checking its answers, the sandbox and the guard that limits
//!   its resources;
//! - [`serve`]: an agent of this toolkit as a bot (`carcassonne serve`);
//! - [`secret`]: the keyed seeds sent to bots and the keys of secret
//!   decks, so a bot cannot predict the tiles it will draw.
//!
//! Errors are [`files::error::Error`], the one error type of the command
//! line's crates.

pub mod external;
pub mod secret;
pub mod serve;
