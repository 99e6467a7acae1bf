//! `carcassonne bench`: engine and tournament speed, as text or JSON.

use crate::cli::parse_rules;
use clap::Args as ClapArgs;
use engine::Rules;
use files::error::{Error, Result};
use files::stdio::Stdout;
use std::path::PathBuf;

/// Options of `carcassonne bench`.
#[derive(Debug, Clone, ClapArgs)]
pub struct BenchArgs {
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Games per timed round of the engine benchmark.
    #[arg(long, default_value_t = 20_000)]
    pub games: u64,
    /// Timed rounds (the median is reported).
    #[arg(long, default_value_t = 5)]
    pub rounds: usize,
    /// Games per timed tournament (random vs random, 1 and 2 threads).
    #[arg(long, default_value_t = 20_000)]
    pub tournament_games: u64,
    /// Games through the bot protocol (`serve random` against itself,
    /// the Python random bot against `random`); 0 skips them.
    #[arg(long, default_value_t = 200)]
    pub ext_games: u64,
    /// Rule variants for the random games, as `KEY=VALUE,…` (RULES.md §8).
    #[arg(long, value_name = "KEY=VALUE,...", value_parser = parse_rules)]
    pub rules: Option<Rules>,
    /// The network of the `az` figures (default: the shipped
    /// models/net-2p-zero.safetensors when found; `none` skips them).
    #[arg(long, value_name = "NET.safetensors")]
    pub net: Option<PathBuf>,
    /// Self-play games of `az:net=NET,iterations=400` timed for examples
    /// per CPU-second; 0 skips them.
    #[arg(long, default_value_t = 2)]
    pub selfplay_games: u64,
}

/// Measure and print.
pub fn run(args: &BenchArgs, out: &mut Stdout) -> Result<()> {
    let max = tournament::run::config::MAX_GAMES;
    for (option, n) in [
        ("--ext-games", args.ext_games),
        ("--selfplay-games", args.selfplay_games),
    ] {
        if n > max {
            return Err(Error::Invalid(format!(
                "bench {option} must be at most {max}, not {n}"
            )));
        }
    }
    if let Some(net) = args.net.as_ref().filter(|p| p.as_os_str() != "none") {
        // A network asked for by name must load (the default is skipped
        // quietly when the checkout has none).
        agents::Factory::new(&format!("az:net={}", net.display()))
            .map_err(|e| Error::Invalid(format!("bench --net: {e}")))?;
    }
    let config = tournament::bench::BenchConfig {
        rules: args.rules.unwrap_or_default(),
        ext_games: args.ext_games,
        network: match &args.net {
            Some(path) if path.as_os_str() == "none" => None,
            Some(path) => Some(path.clone()),
            None => tournament::bench::shipped_network(),
        },
        selfplay_games: args.selfplay_games,
        ..tournament::bench::BenchConfig::new(args.games, args.rounds, args.tournament_games)?
    };
    let report = tournament::bench::run(&config);
    if args.json {
        let json = serde_json::to_string(&report).map_err(|e| Error::Internal(e.to_string()))?;
        out.print(&format!("{json}\n"))
    } else {
        out.print(&report.text())
    }
}
