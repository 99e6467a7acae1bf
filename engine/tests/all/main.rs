//! The engine's integration tests, one test binary (linking one binary
//! per file cost minutes on 2 cores): each module is one former
//! `tests/*.rs` file; `naive` (the independent reference engine) and
//! `counts` (perft rows) are compiled once and shared.
//!
//! One suite: `cargo test -p carcassonne-engine --test all perft::`.

mod counts;
mod naive;

mod api;
mod follow;
mod gifts;
mod gifts_random;
mod hand_variants;
mod hands;
mod naive_selftest;
mod perft;
mod random_games;
mod record_header;
mod rules;
mod sizes;
mod table;
mod variants;
mod variants_random;
mod worked_example;
