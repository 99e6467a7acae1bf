//! The `carcassonne` command line: parse, validate, run, map errors to
//! exit codes. Every failure is one line on stderr and exit code 1, except
//! arguments clap cannot parse (exit code 2: a bad value of an option —
//! `--players 7`, `--shard 3/2`, `--games many` — is one line naming the
//! option, the value and why; anything else clap's full message with its
//! usage and hints), `replay`, which reports every bad record, and a
//! run or merge in which an agent forfeited every game it played (its
//! results written, one line on stderr, exit code 3) and a command
//! stopped by Ctrl-C or SIGTERM (exit code 130).
//! Output to a closed pipe (`carcassonne replay big.jsonl | head -1`)
//! ends the output quietly ([`files::stdio`]): the command finishes
//! its files and exits 0.

mod analyze;
mod cli;
mod config_args;
mod improve;
mod play;
mod progress;
mod ratings;
mod run_report;
mod web;

use clap::Parser;
use cli::{Args, Command, TournamentArgs};
use files::error::{Error, Result};
use files::stdio::{warn, Stdout};
use std::process::ExitCode;

fn main() -> ExitCode {
    // The bot guard runs as this binary (protocol::external::guard).
    if let Some(code) = protocol::external::guard::install() {
        return code;
    }
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) if e.kind() == clap::error::ErrorKind::ValueValidation => {
            // clap's first line names the option, the value and why.
            let text = e.to_string();
            warn(&format!(
                "{} (see --help)",
                text.lines().next().unwrap_or("")
            ));
            return ExitCode::from(2);
        }
        Err(e) if e.use_stderr() => {
            // clap's whole message: the error, the usage and its hints.
            let _ = e.print();
            return ExitCode::from(2);
        }
        Err(e) => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
    };
    let mut out = Stdout::new();
    match run(args, &mut out) {
        Ok(code) => code,
        Err(message) => {
            warn(&format!("carcassonne: {message}"));
            // A command stopped by Ctrl-C or SIGTERM (improve, a resume
            // inside it) exits as an interrupted tournament does.
            if tournament::run::interrupt::requested() {
                ExitCode::from(tournament::run::interrupt::EXIT_CODE)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// A tournament (or self-play run) to the end or to an interrupt.
fn run_tournament(args: &TournamentArgs, out: &mut Stdout) -> Result<ExitCode> {
    let config = config_args::tournament_config(args)?;
    tournament::run::interrupt::install()?;
    let report = run_report::run(&config)?;
    out.print(&report.text())?;
    if report.info.status == tournament::results::schema::RunStatus::Interrupted {
        return Ok(ExitCode::from(tournament::run::interrupt::EXIT_CODE));
    }
    Ok(forfeit_code(&report))
}

/// Success, or (one line on stderr) [`ALL_FORFEITED_EXIT_CODE`] when an
/// agent forfeited every game it played: its results are written, but
/// they measure nothing.
///
/// [`ALL_FORFEITED_EXIT_CODE`]: tournament::run::tournament::ALL_FORFEITED_EXIT_CODE
fn forfeit_code(report: &tournament::run::tournament::RunReport) -> ExitCode {
    match report.all_forfeited() {
        Some(why) => {
            files::stdio::warn(&format!("carcassonne: {why}"));
            ExitCode::from(tournament::run::tournament::ALL_FORFEITED_EXIT_CODE)
        }
        None => ExitCode::SUCCESS,
    }
}

fn run(args: Args, out: &mut Stdout) -> Result<ExitCode> {
    match args
        .command
        .unwrap_or(Command::Tournament(TournamentArgs::default()))
    {
        Command::Tournament(t) => return run_tournament(&t, out),
        Command::Selfplay(s) => return run_tournament(&s.tournament_args(), out),
        Command::Train(t) => {
            let config = tournament::learning::train::TrainConfig {
                dirs: t.dirs,
                out: t.out,
                seed: t.seed,
                holdout: t.holdout,
                lambda: t.lambda,
            };
            out.print(&tournament::learning::train::train(&config)?.text(&config.out))?;
        }
        Command::TrainNet(t) => {
            let defaults = agents::neural::NetConfig::default();
            let config = tournament::learning::train_net::TrainNetConfig {
                data: t.data,
                out: t.out,
                init: t.init,
                net: agents::neural::NetConfig {
                    hidden: t.hidden,
                    board: !t.no_board,
                    ..defaults
                },
                train: agents::neural::train::TrainConfig {
                    epochs: t.epochs,
                    batch: t.batch,
                    lr: t.lr,
                    weight_decay: t.weight_decay,
                    held_out: t.holdout,
                    seed: t.seed,
                    surprise: t.surprise,
                },
            };
            tournament::learning::train_net::train_net(&config, out)?;
        }
        Command::Improve(i) => {
            tournament::run::interrupt::install()?;
            if i.net {
                let mut text = Vec::new();
                let rows = improve::net::improve_net(&i, &mut text)?;
                if i.selfplay_command {
                    out.print(&String::from_utf8_lossy(&text))?;
                } else {
                    out.print(&improve::net::table(&rows))?;
                }
            } else {
                improve::net::refuse_net_options(&i)?;
                let rows = improve::linear::improve(&i)?;
                out.print(&improve::linear::table(&rows))?;
            }
        }
        Command::Play(p) => {
            let config = play::PlayConfig::from_args(&p)?;
            play::play(&config, out)?;
        }
        Command::Ratings(r) => ratings::ratings(&r, out)?,
        Command::Merge { dirs, out: to } => {
            let report = run_report::with_report(tournament::results::merge::merge(&dirs, &to)?)?;
            out.print(&report.text())?;
            return Ok(forfeit_code(&report));
        }
        Command::Bench {
            json,
            games,
            rounds,
            tournament_games,
            ext_games,
            rules,
        } => {
            if ext_games > tournament::run::config::MAX_GAMES {
                return Err(Error::Invalid(format!(
                    "bench --ext-games must be at most {}, not {ext_games}",
                    tournament::run::config::MAX_GAMES
                )));
            }
            let config = tournament::bench::BenchConfig {
                rules: rules.unwrap_or_default(),
                ext_games,
                ..tournament::bench::BenchConfig::new(games, rounds, tournament_games)?
            };
            let report = tournament::bench::run(&config);
            if json {
                let json =
                    serde_json::to_string(&report).map_err(|e| Error::Internal(e.to_string()))?;
                out.print(&format!("{json}\n"))?;
            } else {
                out.print(&report.text())?;
            }
        }
        Command::Render {
            record,
            turn,
            game,
            out: to,
            tile_pixels,
        } => {
            let written = pictures::render::render(&record, game, turn, to, tile_pixels)?;
            out.print(&format!("wrote {}\n", written.display()))?;
        }
        Command::View {
            record,
            game,
            out: to,
        } => {
            let written = pictures::viewer::view(&record, game, to)?;
            out.print(&format!("wrote {}\n", written.display()))?;
        }
        Command::Report { dir, out: to } => {
            let written = if improve::net::is_run(&dir) {
                improve::net::report(&dir, to)?
            } else {
                pictures::report::report(&dir, to)?
            };
            out.print(&format!("wrote {}\n", written.display()))?;
        }
        Command::Serve { spec } => {
            let stdin = std::io::stdin().lock();
            protocol::serve::serve(&spec, stdin, std::io::stdout().lock())?;
        }
        Command::Web(w) => web::web(&w)?,
        Command::AnalyzeGame(a) => analyze::analyze_game(&a, out)?,
        Command::Replay { file, end } => {
            let mut failed = 0;
            let results = tournament::results::replay::replay_file(&file, end);
            let total = results.len();
            for result in results {
                if out.closed() {
                    // The reader has gone (`| head`): nothing more to say.
                    return Ok(ExitCode::SUCCESS);
                }
                match result {
                    Ok(r) => {
                        let json = serde_json::to_string(&r)
                            .map_err(|e| Error::Internal(e.to_string()))?;
                        out.print(&format!("{json}\n"))?;
                    }
                    Err(e) => {
                        warn(&format!("carcassonne: {e}"));
                        failed += 1;
                    }
                }
            }
            if failed > 0 {
                return Err(Error::Replay { failed, total });
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
