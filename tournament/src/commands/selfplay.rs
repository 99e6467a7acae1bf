//! `carcassonne selfplay`: one agent in every seat, its games written as
//! training data — a tournament of that agent alone, with records.

use super::tournament::TournamentArgs;
use crate::cli::GameOptions;
use clap::Args as ClapArgs;
use files::error::Result;
use files::stdio::Stdout;
use std::process::ExitCode;
use tournament::RunKind;

/// Options of `carcassonne selfplay`: the tournament's game options, with
/// help in self-play's words (and --shard listed before --resume).
#[derive(Debug, Clone, Default, ClapArgs)]
#[command(
    mut_arg("games", |a| a.help("Games to play, rounded up to a multiple of --players (default: 150)")),
    mut_arg("threads", |a| a.help("Worker threads (default: all cores). Does not change the data")),
    mut_arg("out", |a| a.help("Data folder (default: results/TIME-selfplay/)")),
    mut_arg("rules", |a| a.help("Rule variants of RULES.md §8 as `KEY=VALUE,…`")),
    mut_arg("shard", |a| a.help(
        "Play only shard K of N (games with index % N == K − 1); \
         combine the shards with `carcassonne merge`"
    )),
    mut_arg("resume", |a| a
        .help("Continue the interrupted run in this folder (only --threads may be given with it)")
        .display_order(20)),
)]
pub struct SelfplayArgs {
    /// The agent spec that plays every seat (e.g. `mcts:iterations=200`).
    #[arg(long, value_name = "SPEC", required_unless_present = "resume")]
    pub agent: Option<String>,
    /// Games, seats, seed, threads, folder, rules, shard and resume.
    #[command(flatten)]
    pub game: GameOptions,
}

impl SelfplayArgs {
    /// The tournament these options describe: the agent alone, with
    /// records, flagged as self-play.
    pub fn tournament_args(&self) -> TournamentArgs {
        if self.game.resume.is_some() {
            return TournamentArgs {
                game: GameOptions {
                    threads: self.game.threads,
                    resume: self.game.resume.clone(),
                    stop_after: self.game.stop_after,
                    keyed_agent_seeds: self.game.keyed_agent_seeds,
                    ..GameOptions::default()
                },
                ..TournamentArgs::default()
            };
        }
        TournamentArgs {
            agents: self.agent.iter().cloned().collect(),
            game: self.game.clone(),
            records: true,
            name: Some("selfplay".to_string()),
            sprt: None,
            kind: RunKind::Selfplay,
        }
    }
}

/// Play the self-play run these options describe.
pub fn run(args: &SelfplayArgs, out: &mut Stdout) -> Result<ExitCode> {
    super::tournament::run(&args.tournament_args(), out)
}
