//! The run core of the toolkit: what the `carcassonne` command line and
//! the Python package share. It draws no pictures and parses no command
//! line (those are the `carcassonne` and `carcassonne-pictures` crates).
//!
//! One folder per job:
//!
//! - [`run`](mod@run): a checked tournament ([`run::config`]), its agents
//!   ([`run::agent_list`], [`run::roster`]), the schedule, the runner, a
//!   run from start to finish and its resumption ([`run::tournament`]),
//!   the `--sprt` stop, Ctrl-C, the folder lock and merging shards.
//! - [`results`]: the files of a results folder as types
//!   ([`results::schema`]), writing and reading them, the summaries,
//!   what the folder records about the run, replaying records.
//! - [`stats`]: Wilson intervals, Elo, Bradley–Terry, SPRT.
//! - [`ratings`](mod@ratings): one rating ladder over the games of many
//!   results folders (`carcassonne ratings`).
//! - [`learning`]: self-play decisions as positions and training
//!   examples, fitting a value model, training the network.
//! - [`bench`](mod@bench): the `carcassonne bench` timings and signatures.
//! - [`metrics`]: what the games of results folders say about the game
//!   itself — seat advantage, the deck's share, length, points by
//!   category (`carcassonne analyze`).
//! - [`analysis`]: what an agent thinks of a position or of every
//!   decision of a recorded game (`carcassonne analyze-game`).
//! - [`seeds`]: the splitmix64 chains every derived seed comes from.
//! - [`improve`](mod@improve): the improvement loops — self-play,
//!   training and SPRT-gated promotion, generation after generation, for
//!   the linear value model and (feature `neural`) the `az` network
//!   (`carcassonne improve`).
//! - [`tune`]: SPSA tuning of an agent's numeric parameters with games
//!   (`carcassonne tune`).
//!
//! Imports point down only: `run` uses `learning`, `results` and
//! `stats`; `learning` uses `results`; `results` uses `stats`; `seeds`
//! and `stats` use nothing of the crate; `analysis` uses nothing of the
//! crate either; `metrics` reads `results` and `stats`; `tune`,
//! `ratings` and `improve` sit on top of `run` (`improve` also uses
//! `learning` and `ratings`).
//!
//! The front door: a caller that only runs tournaments (the Python
//! package) needs the items re-exported here — build a
//! [`TournamentConfig`] from [`Settings`] and a [`Folder`], then play it
//! with [`run_with`] (its own agents, if any, and a cancel flag; the
//! command line's [`run::tournament::run`] is the same with neither) and
//! read the [`RunReport`]. Errors are [`files::error::Error`] (one line each) and
//! the bot protocol is the `carcassonne-protocol` crate: import those
//! crates directly.

pub mod analysis;
pub mod bench;
pub mod improve;
pub mod learning;
pub mod metrics;
pub mod ratings;
pub mod results;
pub mod run;
pub mod seeds;
pub mod stats;
pub mod tune;

pub use results::schema::{RunInfo, RunKind, RunStatus, Settings};
pub use run::config::{Folder, TournamentConfig};
pub use run::tournament::{run_with, RunReport};
