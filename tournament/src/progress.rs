//! The progress bar on stderr: games done, games per second, ETA and the
//! current leader. indicatif hides it when stderr is not a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::sync::OnceLock;
use tournament::results::summary::Tally;
use tournament::run::tournament::Watch;

/// A progress bar over the games of one run, shown once the run starts
/// ([`Watch::start`]).
#[derive(Default)]
pub struct Progress {
    bar: OnceLock<ProgressBar>,
}

impl Progress {
    /// A bar not shown yet.
    pub fn new() -> Progress {
        Progress::default()
    }
}

impl Watch for Progress {
    /// Show a bar for `total` games of which `done` are already finished.
    fn start(&self, total: u64, done: u64) {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} games  {rate}  ETA {eta}  {msg}",
        )
        .expect("valid template")
        .with_key(
            "rate",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.1} games/s", state.per_sec());
            },
        )
        .progress_chars("=> ");
        bar.set_style(style);
        bar.set_position(done);
        bar.reset_eta();
        let _ = self.bar.set(bar);
    }

    /// One more game finished.
    fn game_done(&self, tally: &Tally) {
        let Some(bar) = self.bar.get() else { return };
        bar.inc(1);
        if let Some((leader, rate)) = tally.leader() {
            bar.set_message(format!("leader: {leader} ({:.1}%)", 100.0 * rate));
        }
    }

    /// Remove the bar.
    fn finish(&self) {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
    }
}
