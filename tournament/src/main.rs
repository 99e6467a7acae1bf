//! The `carcassonne` command line: parse, run, map errors to exit codes.

use clap::Parser;
use std::process::ExitCode;
use tournament::cli::{Args, Command};

fn main() -> ExitCode {
    let args = Args::parse();
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("carcassonne: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Args) -> Result<(), String> {
    match args.command {
        Some(Command::Bench {
            json,
            games,
            rounds,
        }) => {
            let report = tournament::bench::run(&tournament::bench::BenchConfig { games, rounds });
            if json {
                println!(
                    "{}",
                    serde_json::to_string(&report).map_err(|e| e.to_string())?
                );
            } else {
                println!(
                    "random games: {:.0} games/s ({:.2} µs/game), median of {} rounds of {} games\nsignature: {}",
                    report.random_games_per_s, report.us_per_game, report.rounds, report.games, report.signature
                );
            }
            Ok(())
        }
        Some(Command::Replay { file, end }) => {
            let reports = tournament::replay::replay_file(&file, end).map_err(|e| e.to_string())?;
            for r in reports {
                println!("{}", serde_json::to_string(&r).map_err(|e| e.to_string())?);
            }
            Ok(())
        }
        Some(Command::Random { seed, players }) => {
            tournament::play::print_random_game(seed, players as usize);
            Ok(())
        }
        None => {
            tournament::play::print_random_game(1, 2);
            Ok(())
        }
    }
}
