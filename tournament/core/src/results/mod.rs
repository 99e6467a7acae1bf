//! The files of a results folder: their rows and run.json as types
//! ([`schema`]), writing and reading them ([`output`]), the statistics
//! written to them ([`summary`]), what the folder records about the run
//! itself ([`meta`]), and checking game records ([`replay`]). Column by column in `results/README.md`.

mod git_head;
pub mod meta;
pub mod output;
pub mod replay;
pub mod schema;
pub mod summary;
