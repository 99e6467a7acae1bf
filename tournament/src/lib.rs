//! The tournament runner and the `carcassonne` command line.
//!
//! - [`cli`]: the arguments; [`config`]: checking them.
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
//!   [`train`]: fitting a value model to them; [`improve`]: generations
//!   of self-play, training and SPRT-gated promotion.
//! - [`progress`], [`meta`]: progress bar; timestamps and code revision.
//! - [`interrupt`]: Ctrl-C and SIGTERM stop a run cleanly; [`lock`]: one
//!   writer per results folder.
//! - [`error`]: the one error type; [`stdio`]: stdout and stderr that
//!   never panic (a closed pipe ends the output quietly).
//! - [`play`], [`replay`], [`bench`](mod@bench): the other subcommands.
//! - [`stats`]: Wilson intervals, Elo, SPRT.
//! - [`render`]: pictures of a game's board (SVG, PNG); [`viewer`]: a
//!   game as an HTML page to step through; [`report`](mod@report): a
//!   results folder as an HTML report with charts.
//! - [`web`]: `carcassonne web`, play the agents in a browser or watch
//!   a tournament live.
//! - [`external`]: bots in any language through `carcassonne-bot/1`;
//!   [`serve`] the other way round.

pub mod agent_list;
pub mod bench;
pub mod cli;
pub mod config;
pub mod config_args;
pub mod error;
pub mod examples;
pub mod external;
pub mod improve;
pub mod interrupt;
pub mod lock;
pub mod merge;
pub mod meta;
pub mod output;
pub mod play;
pub mod positions;
pub mod progress;
pub mod render;
pub mod replay;
pub mod report;
pub mod roster;
pub mod run_report;
pub mod runner;
pub mod schedule;
pub mod schema;
pub mod secret;
pub mod serve;
pub mod sprt_run;
pub mod stats;
pub mod stdio;
pub mod summary;
pub mod tournament;
pub mod train;
pub mod train_net;
pub mod viewer;
pub mod web;
