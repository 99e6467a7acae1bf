//! The tournament runner and the `carcassonne` command line.
//!
//! - [`cli`]: the arguments; [`config`]: checking them.
//! - [`agent_list`]: splitting `--agents` lists into specs; [`roster`]:
//!   checking specs and building agents (built-in and external).
//! - [`schedule`]: which games, seat rotations, seeds and shards.
//! - [`runner`]: playing games on a rayon pool, delivered in game order.
//! - [`tournament`]: a run (and its resumption) from start to finish.
//! - [`output`]: the files of a results folder; [`summary`]: the
//!   statistics written to them; [`merge`]: combining shard folders.
//! - [`progress`], [`meta`]: progress bar; timestamps and code revision.
//! - [`play`], [`replay`], [`bench`](mod@bench): the other subcommands.
//! - [`stats`]: Wilson intervals, Elo, SPRT.
//! - [`external`]: bots in any language through `carcassonne-bot/1`;
//!   [`serve`] the other way round.

pub mod agent_list;
pub mod bench;
pub mod cli;
pub mod config;
pub mod external;
pub mod merge;
pub mod meta;
pub mod output;
pub mod play;
pub mod progress;
pub mod replay;
pub mod roster;
pub mod runner;
pub mod schedule;
pub mod serve;
pub mod stats;
pub mod summary;
pub mod tournament;
