//! The improvement loops of `carcassonne improve`: generations of
//! self-play, training and SPRT-gated promotion, for the linear value
//! model ([`linear`]) and for the `az` network ([`net`], feature
//! `neural`), made of the same steps ([`steps`]).
//!
//! A loop takes plain options ([`linear::ImproveOptions`],
//! [`net::NetOptions`]), works in its run folder and returns its
//! generations' rows; what a front end adds — a progress bar while a
//! tournament plays, the pages it draws, warnings on stderr — comes
//! through [`Hooks`] (`()` adds nothing). The core prints nothing of its
//! own here.

pub mod linear;
#[cfg(feature = "neural")]
pub mod net;
pub mod steps;

use crate::run::config::TournamentConfig;
use crate::run::tournament::RunReport;
use files::error::Result;

/// What a front end adds to a loop. Every method has a default: `()`
/// plays the steps without telling anything and writes no pages.
pub trait Hooks {
    /// Play (or resume) the tournament of one step
    /// ([`steps::tournament_step`]); the default is
    /// [`crate::run::tournament::run`] (Ctrl-C stops it). The command
    /// line shows a progress bar and writes the folder's report.
    ///
    /// # Errors
    /// The run's.
    fn run(&self, config: &TournamentConfig) -> Result<RunReport> {
        crate::run::tournament::run(config)
    }

    /// A line for the user (a training's size): the command line writes
    /// it to stderr; the default drops it.
    fn warn(&self, _text: &str) {}

    /// `generations.csv` of the `improve --net` run in `dir` was written
    /// with `rows` (the command line writes the run's `report.html`).
    ///
    /// # Errors
    /// The front end's.
    #[cfg(feature = "neural")]
    fn generations_written(
        &self,
        _dir: &std::path::Path,
        _rows: &[net::NetGenerationRow],
    ) -> Result<()> {
        Ok(())
    }
}

/// Nothing added.
impl Hooks for () {}
