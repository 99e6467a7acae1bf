//! Command-line arguments (clap) of the `carcassonne` binary.

use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// The research toolkit for Carcassonne AI.
#[derive(Debug, Parser)]
#[command(name = "carcassonne", version, about)]
pub struct Args {
    /// What to do; without one, play one random game and print it.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Measure engine speed on complete random games (one thread).
    Bench {
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Games per timed round.
        #[arg(long, default_value_t = 20_000)]
        games: u64,
        /// Timed rounds (the median is reported).
        #[arg(long, default_value_t = 5)]
        rounds: usize,
    },
    /// Check game records and print their scores as JSON.
    Replay {
        /// A record file: one JSON object, or JSON Lines.
        file: PathBuf,
        /// Score a position as if the game ended after its last turn.
        #[arg(long)]
        end: bool,
    },
    /// Play one random game and print it move by move.
    Random {
        /// Seed for the tile draws and the moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Number of seats, 2–6.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=6))]
        players: u8,
    },
}
