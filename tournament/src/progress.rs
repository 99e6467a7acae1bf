//! The progress bar on stderr: games done, games per second, ETA and the
//! current leader. indicatif hides it when stderr is not a terminal.

use crate::summary::Tally;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// A progress bar over the games of one run.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar for `total` games of which `done` are already finished.
    pub fn new(total: u64, done: u64) -> Progress {
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
        Progress { bar }
    }

    /// One more game finished.
    pub fn game_done(&self, tally: &Tally) {
        self.bar.inc(1);
        if let Some((leader, rate)) = tally.leader() {
            self.bar
                .set_message(format!("leader: {leader} ({:.1}%)", 100.0 * rate));
        }
    }

    /// Remove the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
