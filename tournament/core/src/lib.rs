//! The run core of the toolkit: what the `carcassonne` command line and
//! the Python package share. It draws no pictures and parses no command
//! line (those are the `carcassonne` and `carcassonne-pictures` crates).
//!
//! - [`config`]: a checked tournament and its limits.
//! - [`agent_list`]: splitting `--agents` lists into specs; [`roster`]:
//!   checking specs and building agents (built-in and external).
//! - [`schedule`]: which games, seat rotations, seeds and shards.
//! - [`runner`]: playing games on a rayon pool, delivered in game order.
//! - [`tournament`]: a run (and its resumption) from start to finish.
//! - [`schema`]: the rows and run.json of a results folder, as types;
//!   [`output`]: writing and reading those files; [`summary`]: the
//!   statistics written to them; [`merge`]: combining shard folders.
//! - [`sprt_run`]: the `--sprt` test over a running match.
//! - [`positions`]: self-play decisions as rows of positions.csv;
//!   [`train`]: fitting a value model to them; [`train_net`]: training a
//!   network; [`examples`]: the training examples a run writes.
//! - [`meta`]: timestamps, code revision, the program's name in hints.
//! - [`interrupt`]: Ctrl-C and SIGTERM stop a run cleanly; [`lock`]: one
//!   writer per results folder.
//! - [`replay`], [`bench`](mod@bench): checking records; timings.
//! - [`stats`]: Wilson intervals, Elo, SPRT.
//!
//! Re-exported from the crates below it: [`error`] and [`stdio`] (from
//! `carcassonne-files`), [`external`] and [`secret`] (from
//! `carcassonne-protocol`).

pub use files::{error, stdio};
pub use protocol::{external, secret};

pub mod bench;
pub mod learning;
pub mod results;
pub mod run;
pub mod stats;

// The old flat paths, for this commit only (the files moved unchanged).
pub use learning::{examples, positions, train, train_net};
pub use results::{merge, meta, output, replay, schema, summary};
pub use run::{
    agent_list, config, interrupt, lock, roster, runner, schedule, sprt_run, tournament,
};
