//! Command-line arguments (clap) of the `carcassonne` binary.
//!
//! Only the shape of the command line lives here; checking the values
//! (agent specs, counts, folders) is [`crate::config`]'s job, so every bad
//! input gets the same one-line error.

use clap::{Args as ClapArgs, Parser, Subcommand};
use std::path::PathBuf;

/// The research toolkit for Carcassonne AI.
#[derive(Debug, Parser)]
#[command(name = "carcassonne", version, about)]
pub struct Args {
    /// What to do; without one, run the default tournament
    /// (see `carcassonne tournament --help` and results/README.md).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a round robin between agents and write a results folder.
    Tournament(TournamentArgs),
    /// Play one game move by move to the terminal and write its record.
    Play(PlayArgs),
    /// Combine the folders of `--shard` runs into the results of one run.
    Merge {
        /// The shard folders (all shards of one tournament, any order).
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// The folder to write (must not exist, or be empty).
        #[arg(long)]
        out: PathBuf,
    },
    /// Measure engine and tournament speed (random games).
    Bench {
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Games per timed round of the engine benchmark.
        #[arg(long, default_value_t = 20_000)]
        games: u64,
        /// Timed rounds (the median is reported).
        #[arg(long, default_value_t = 5)]
        rounds: usize,
        /// Games per timed tournament (random vs random, 1 and 2 threads).
        #[arg(long, default_value_t = 20_000)]
        tournament_games: u64,
        /// Games through the bot protocol (`serve random` against itself,
        /// the Python random bot against `random`); 0 skips them.
        #[arg(long, default_value_t = 200)]
        ext_games: u64,
    },
    /// Run an agent (random, greedy, mcts:…) as a carcassonne-bot/1 bot
    /// on stdin/stdout (docs/PROTOCOL.md).
    Serve {
        /// The agent's spec.
        spec: String,
    },
    /// Check game records and print their scores as JSON.
    Replay {
        /// A record file: one JSON object, or JSON Lines.
        file: PathBuf,
        /// Score a position as if the game ended after its last turn.
        #[arg(long)]
        end: bool,
    },
}

/// Options of `carcassonne tournament`.
#[derive(Debug, Clone, Default, ClapArgs)]
pub struct TournamentArgs {
    /// Agent specs, comma-separated; a comma followed by `key=value`
    /// (an `=` before any `:`) continues the previous spec's parameters:
    /// `random,mcts:iterations=500,c=0.7` is two agents. May be repeated.
    #[arg(long, value_name = "SPECS")]
    pub agents: Vec<String>,
    /// Games per pairing, rounded up to a whole number of seat rotations.
    #[arg(long)]
    pub games: Option<u64>,
    /// Seats per game, 2–6.
    #[arg(long)]
    pub players: Option<u64>,
    /// Master seed: every deck and agent seed derives from it.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads (default: all cores). Does not change the results.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Results folder (default: results/TIME-NAME/, TIME the UTC start).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Play with the mini-expansion The Gifts.
    #[arg(long)]
    pub gifts: bool,
    /// Play without farmers.
    #[arg(long)]
    pub no_farmers: bool,
    /// Also write every game's record to records.jsonl.
    #[arg(long)]
    pub records: bool,
    /// Name used in the default folder name (letters, digits, `-_.`).
    #[arg(long)]
    pub name: Option<String>,
    /// Continue the interrupted run in this folder (only --threads may be
    /// given with it; everything else comes from its run.json).
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// Play only shard K of N: the games whose index % N == K − 1
    /// (K is 1-based, as SLURM and Kubernetes-friendly arrays use).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Stop a 2-agent match once the SPRT of H0: elo ≤ elo0 against
    /// H1: elo ≥ elo1 decides (α = β = 0.05); --games is then the maximum.
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    pub sprt: Option<String>,
    /// Test hook: stop after writing this many games, as if killed.
    #[arg(long, hide = true)]
    pub stop_after: Option<u64>,
}

/// Options of `carcassonne play`.
#[derive(Debug, Clone, ClapArgs)]
pub struct PlayArgs {
    /// Agent specs in seat order (same splitting rule as `tournament`);
    /// with fewer agents than players they repeat cyclically.
    #[arg(long, value_name = "SPECS", default_value = "random,random")]
    pub agents: Vec<String>,
    /// Seed of the game (the deck seed; agent seeds derive from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seats, 2–6 (default: the number of agents).
    #[arg(long)]
    pub players: Option<u64>,
    /// Play without farmers.
    #[arg(long)]
    pub no_farmers: bool,
    /// Play with the mini-expansion The Gifts.
    #[arg(long)]
    pub gifts: bool,
    /// Where to write the record (default: results/play-SEED.json).
    #[arg(long)]
    pub out: Option<PathBuf>,
}
