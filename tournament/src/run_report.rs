//! A run as the command line makes it: a progress bar on stderr while the
//! games are played ([`crate::progress`]), then the HTML report written
//! into the folder ([`pictures::report`]). The run itself
//! ([`tournament::run::tournament`]) draws no pictures: a library caller (the
//! Python package) gets the results files only.

use crate::progress::Progress;
use files::error::Result;
use tournament::results::schema::RunStatus;
use tournament::run::config::TournamentConfig;
use tournament::run::tournament::RunReport;

/// Run (or resume) the tournament of `config` with a progress bar, then
/// write its report (unless the run stopped early through the test hook
/// `--stop-after`, which leaves the folder as a killed run would).
///
/// # Errors
/// The run's, or the report cannot be written.
pub fn run(config: &TournamentConfig) -> Result<RunReport> {
    let report = tournament::run::tournament::run_watched(
        config,
        None,
        tournament::run::interrupt::flag(),
        &Progress::new(),
    )?;
    if report.info.status == RunStatus::Running {
        return Ok(report);
    }
    with_report(report)
}

/// Write the report of the folder of `run` (`report.html`, under the
/// folder's lock) and name it in `run`.
///
/// # Errors
/// The report cannot be written.
pub fn with_report(mut run: RunReport) -> Result<RunReport> {
    run.report = Some(pictures::report::report(&run.dir, None)?);
    Ok(run)
}
