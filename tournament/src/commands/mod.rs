//! One file per subcommand of `carcassonne`: each holds its options
//! (clap arguments) and the function that runs it; [`run`] dispatches.
//! What a command is made of beyond its glue lives in its own module
//! (`play`, `ratings`, `improve`, `web/`) or in the library crates.

pub mod analyze;
pub mod analyze_runs;
pub mod bench;
pub mod improve;
pub mod merge;
pub mod play;
pub mod render;
pub mod replay;
pub mod report;
pub mod selfplay;
pub mod serve;
pub mod tournament;
pub mod train;
pub mod train_net;
pub mod tune;
pub mod view;

use crate::cli::Command;
use files::error::Result;
use files::stdio::Stdout;
use std::process::ExitCode;

/// Run `command` (the default tournament without one).
pub fn run(command: Option<Command>, out: &mut Stdout) -> Result<ExitCode> {
    let done = |result: Result<()>| result.map(|()| ExitCode::SUCCESS);
    match command.unwrap_or(Command::Tournament(tournament::TournamentArgs::default())) {
        Command::Tournament(args) => tournament::run(&args, out),
        Command::Selfplay(args) => selfplay::run(&args, out),
        Command::Train(args) => done(train::run(args, out)),
        Command::TrainNet(args) => done(train_net::run(args, out)),
        Command::Improve(args) => done(improve::run(args, out)),
        Command::Play(args) => done(play::run(&args, out)),
        Command::Tune(args) => tune::run(&args, out),
        Command::Ratings(args) => done(crate::ratings::ratings(&args, out)),
        Command::Merge(args) => merge::run(&args, out),
        Command::Bench(args) => done(bench::run(&args, out)),
        Command::Render(args) => done(render::run(args, out)),
        Command::View(args) => done(view::run(args, out)),
        Command::Report(args) => done(report::run(args, out)),
        Command::Serve(args) => done(serve::run(&args)),
        Command::Web(args) => done(crate::web::web(&args)),
        Command::Replay(args) => done(replay::run(&args, out)),
        Command::AnalyzeGame(args) => done(analyze::analyze_game(&args, out)),
        Command::Analyze(args) => done(analyze_runs::run(&args, out)),
    }
}

/// Success, or (one line on stderr) [`ALL_FORFEITED_EXIT_CODE`] when an
/// agent forfeited every game it played: its results are written, but
/// they measure nothing.
///
/// [`ALL_FORFEITED_EXIT_CODE`]: ::tournament::run::tournament::ALL_FORFEITED_EXIT_CODE
fn forfeit_code(report: &::tournament::run::tournament::RunReport) -> ExitCode {
    match report.all_forfeited() {
        Some(why) => {
            files::stdio::warn(&format!("carcassonne: {why}"));
            ExitCode::from(::tournament::run::tournament::ALL_FORFEITED_EXIT_CODE)
        }
        None => ExitCode::SUCCESS,
    }
}
