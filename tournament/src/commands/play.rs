//! `carcassonne play`: one game move by move to the terminal
//! ([`crate::play`]), its record written.

use crate::cli::{parse_players, RulesArgs};
use crate::play;
use clap::Args as ClapArgs;
use files::error::Result;
use files::stdio::Stdout;
use std::path::PathBuf;

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
    #[arg(long, value_parser = parse_players)]
    pub players: Option<u64>,
    /// The rules: --gifts, --no-farmers, --rules.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Where to write the record (default: results/play-SEED.json).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also write one SVG picture of the board per turn into this folder
    /// (`carcassonne view` shows the whole game in one page).
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
}

/// Play the game.
pub fn run(p: &PlayArgs, out: &mut Stdout) -> Result<()> {
    let config = play::PlayConfig::from_args(p)?;
    play::play(&config, out)
}
