//! `carcassonne tournament` (and the default command): a round robin
//! between agents into a results folder, to the end or to an interrupt.

use crate::cli::{agents_help, agents_long_help, parse_sprt, GameOptions};
use crate::{config_args, run_report};
use clap::Args as ClapArgs;
use files::error::Result;
use files::stdio::Stdout;
use std::process::ExitCode;
use tournament::results::schema::{RunKind, SprtSettings};

/// Options of `carcassonne tournament`.
#[derive(Debug, Clone, Default, ClapArgs)]
// The help lists --resume and --shard after --records and --name.
#[command(
    mut_arg("resume", |a| a.display_order(20)),
    mut_arg("shard", |a| a.display_order(21)),
    mut_arg("sprt", |a| a.display_order(22))
)]
pub struct TournamentArgs {
    /// Agent specs, comma-separated; a comma followed by `key=value`
    /// (an `=` before any `:`) continues the previous spec's parameters:
    /// `random,mcts:iterations=500,c=0.7` is two agents. May be repeated.
    #[arg(long, value_name = "SPECS", help = agents_help(), long_help = agents_long_help())]
    pub agents: Vec<String>,
    /// Games, seats, seed, threads, folder, rules, resume and shard.
    #[command(flatten)]
    pub game: GameOptions,
    /// Also write every game's record to records.jsonl.
    #[arg(long)]
    pub records: bool,
    /// Name used in the default folder name (letters, digits, `-_.`;
    /// default: tournament).
    #[arg(long)]
    pub name: Option<String>,
    /// Stop a 2-agent match once the SPRT of H0: elo ≤ elo0 against
    /// H1: elo ≥ elo1 decides (α = β = 0.05); --games is then the maximum.
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true, value_parser = parse_sprt)]
    pub sprt: Option<SprtSettings>,
    /// A tournament, or self-play when `carcassonne selfplay` sets it
    /// (not an option of `tournament`).
    #[arg(skip)]
    pub kind: RunKind,
}

/// A tournament (or self-play run) to the end or to an interrupt.
pub fn run(args: &TournamentArgs, out: &mut Stdout) -> Result<ExitCode> {
    let config = config_args::tournament_config(args)?;
    tournament::run::interrupt::install()?;
    let report = run_report::run(&config)?;
    out.print(&report.text())?;
    if report.info.status == tournament::results::schema::RunStatus::Interrupted {
        return Ok(ExitCode::from(tournament::run::interrupt::EXIT_CODE));
    }
    Ok(super::forfeit_code(&report))
}
