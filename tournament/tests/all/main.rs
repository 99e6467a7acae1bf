//! The integration tests of the `carcassonne` command, one test binary
//! (one link instead of one per file): each module is one former
//! `tests/*.rs` file, [`common`] their shared helpers. Run one file's
//! tests with `cargo test -p carcassonne --test all MODULE::`.

mod analyze;
mod common;
mod external;
mod forfeits;
mod improve_net;
mod metrics;
mod misuse;
mod neural;
mod pictures;
mod ratings;
mod recipes;
mod safety;
mod seeds;
mod selfplay;
mod tournament;
mod tune;
