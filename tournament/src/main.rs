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

mod cli;
mod commands;
mod config_args;
mod improve;
mod play;
mod progress;
mod ratings;
mod run_report;
mod web;

use clap::Parser;
use cli::Args;
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
    match commands::run(args.command, &mut out) {
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
