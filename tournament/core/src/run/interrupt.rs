//! Ctrl-C (SIGINT) and SIGTERM during a tournament: the first asks the
//! run to stop taking new games, write every game already complete, and
//! mark run.json `interrupted`; a second one exits at once (the files
//! then end at most in a torn line, which `--resume` drops).
//!
//! The handler comes from the `ctrlc` crate and only sets a flag,
//! [`flag`]: the command line hands it to a run as the run's one stop
//! flag (`cancel` of [`crate::run::tournament::run_with`]), which the
//! runner's workers read between games; an embedding (Python) hands its
//! own flag instead.

use files::error::{Error, Result};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

static REQUESTED: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();

/// The exit code of a run stopped by an interrupt (128 + SIGINT).
pub const EXIT_CODE: u8 = 130;

/// Catch Ctrl-C and SIGTERM for the rest of the process (once; later
/// calls do nothing).
pub fn install() -> Result<()> {
    let mut result = Ok(());
    INSTALL.call_once(|| {
        result = ctrlc::set_handler(|| {
            if REQUESTED.swap(true, Ordering::SeqCst) {
                files::stdio::warn("carcassonne: interrupted again, stopping now");
                std::process::exit(i32::from(EXIT_CODE));
            }
            files::stdio::warn("carcassonne: interrupted, finishing the games in progress (Ctrl-C again to stop now)");
        })
        .map_err(|e| Error::Internal(format!("cannot catch Ctrl-C: {e}")));
    });
    result
}

/// Whether an interrupt has been received.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// The flag Ctrl-C and SIGTERM set once [`install`]ed: the stop flag of
/// the command line's runs.
pub fn flag() -> &'static AtomicBool {
    &REQUESTED
}
