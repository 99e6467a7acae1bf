//! The tournament runner and the `carcassonne` command line: benchmarks,
//! record replay, and (soon) tournaments with statistics written to CSV.

pub mod bench;
pub mod cli;
pub mod play;
pub mod replay;
pub mod stats;
