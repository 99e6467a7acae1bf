//! The `carcassonne` command line: parse, validate, run, map errors to
//! exit codes. Every failure is one line on stderr and exit code 1 (2 for
//! arguments clap cannot parse).

use clap::Parser;
use std::process::ExitCode;
use tournament::cli::{Args, Command, TournamentArgs};

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) if e.use_stderr() => {
            let text = e.to_string();
            let line = text.lines().next().unwrap_or("bad arguments");
            eprintln!("carcassonne: {}", line.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
        Err(e) => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
    };
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("carcassonne: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Args) -> Result<(), String> {
    match args
        .command
        .unwrap_or(Command::Tournament(TournamentArgs::default()))
    {
        Command::Tournament(t) => {
            let config = tournament::config::TournamentConfig::from_args(&t)?;
            let report = tournament::tournament::run(&config)?;
            print!("{}", report.text());
        }
        Command::Play(p) => {
            let config = tournament::play::PlayConfig::from_args(&p)?;
            print!("{}", tournament::play::play(&config)?);
        }
        Command::Merge { dirs, out } => {
            print!("{}", tournament::merge::merge(&dirs, &out)?.text());
        }
        Command::Bench {
            json,
            games,
            rounds,
            tournament_games,
            ext_games,
        } => {
            let config = tournament::bench::BenchConfig {
                games,
                rounds,
                tournament_games,
                ext_games,
            };
            let report = tournament::bench::run(&config);
            if json {
                println!(
                    "{}",
                    serde_json::to_string(&report).map_err(|e| e.to_string())?
                );
            } else {
                print!("{}", report.text());
            }
        }
        Command::Serve { spec } => {
            let stdin = std::io::stdin().lock();
            tournament::serve::serve(&spec, stdin, std::io::stdout().lock())?;
        }
        Command::Replay { file, end } => {
            let reports = tournament::replay::replay_file(&file, end).map_err(|e| e.to_string())?;
            for r in reports {
                println!("{}", serde_json::to_string(&r).map_err(|e| e.to_string())?);
            }
        }
    }
    Ok(())
}
