//! The leaf every crate of the command line builds on (no dependency of
//! its own), so that none of them needs another just to write a file:
//!
//! - [`error`]: the one error type, printed as one line;
//! - [`atomic`]: writing a whole file through a temporary file and a
//!   rename (never half-written, never replacing a symlink or a folder);
//! - [`lines`]: the complete lines of an append-only file (JSON Lines);
//! - [`stdio`]: stdout and stderr that never panic (a closed pipe ends
//!   the output quietly).

pub mod atomic;
pub mod error;
pub mod lines;
pub mod stdio;
