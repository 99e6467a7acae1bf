//! Progress on stderr: games done, games per second, ETA and the current
//! leader. On a terminal, a bar (indicatif); otherwise (a log file, a
//! pipe, a batch job) a plain line every [`LINE_EVERY`] and one at the
//! end, so a long run logged to a file shows how far it is.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal as _;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};
use tournament::results::summary::Tally;
use tournament::run::tournament::Watch;

/// How often a plain progress line is written when stderr is not a
/// terminal.
pub const LINE_EVERY: Duration = Duration::from_secs(10);

/// Progress over the games of one run, shown once the run starts
/// ([`Watch::start`]).
#[derive(Default)]
pub struct Progress {
    bar: OnceLock<ProgressBar>,
    lines: OnceLock<Mutex<Lines>>,
}

/// The state of plain progress lines.
struct Lines {
    total: u64,
    done: u64,
    /// Games done when the run (re)started: the rate counts only new ones.
    done_at_start: u64,
    started: Instant,
    last: Instant,
    leader: String,
}

impl Lines {
    /// `done/total games (P%), R games/s, ETA T[, leader]`.
    fn line(&self) -> String {
        let elapsed = self.started.elapsed().as_secs_f64();
        let new = self.done.saturating_sub(self.done_at_start) as f64;
        let rate = if elapsed > 0.0 { new / elapsed } else { 0.0 };
        let left = self.total.saturating_sub(self.done) as f64;
        let eta = if rate > 0.0 {
            clock(Duration::from_secs_f64(left / rate))
        } else {
            "unknown".to_string()
        };
        let percent = if self.total > 0 {
            100.0 * self.done as f64 / self.total as f64
        } else {
            100.0
        };
        let mut text = format!(
            "carcassonne: progress {}/{} games ({percent:.0}%), {rate:.1} games/s, ETA {eta}",
            self.done, self.total
        );
        if !self.leader.is_empty() {
            text.push_str(", ");
            text.push_str(&self.leader);
        }
        text
    }
}

/// `H:MM:SS`.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

impl Progress {
    /// Progress not shown yet.
    pub fn new() -> Progress {
        Progress::default()
    }
}

impl Watch for Progress {
    /// Show progress over `total` games of which `done` are already
    /// finished.
    fn start(&self, total: u64, done: u64) {
        if !std::io::stderr().is_terminal() {
            let now = Instant::now();
            let _ = self.lines.set(Mutex::new(Lines {
                total,
                done,
                done_at_start: done,
                started: now,
                last: now,
                leader: String::new(),
            }));
            return;
        }
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
        let leader = tally
            .leader()
            .map(|(leader, rate)| format!("leader: {leader} ({:.1}%)", 100.0 * rate));
        if let Some(bar) = self.bar.get() {
            bar.inc(1);
            if let Some(leader) = leader {
                bar.set_message(leader);
            }
            return;
        }
        let Some(lines) = self.lines.get() else {
            return;
        };
        let mut lines = lines.lock().unwrap_or_else(|e| e.into_inner());
        lines.done += 1;
        if let Some(leader) = leader {
            lines.leader = leader;
        }
        if lines.last.elapsed() >= LINE_EVERY {
            lines.last = Instant::now();
            files::stdio::warn(&lines.line());
        }
    }

    /// Remove the bar, or write the last line.
    fn finish(&self) {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
        if let Some(lines) = self.lines.get() {
            let lines = lines.lock().unwrap_or_else(|e| e.into_inner());
            // Only runs long enough to have written a line end with one.
            if lines.started.elapsed() >= LINE_EVERY {
                files::stdio::warn(&lines.line());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_line_says_how_far_how_fast_and_how_long_to_go() {
        let started = Instant::now() - Duration::from_secs(10);
        let lines = Lines {
            total: 100,
            done: 30,
            done_at_start: 10,
            started,
            last: started,
            leader: "leader: mcts (61.0%)".to_string(),
        };
        let line = lines.line();
        assert!(
            line.starts_with("carcassonne: progress 30/100 games (30%), 2.0 games/s, ETA 0:00:3"),
            "{line}"
        );
        assert!(line.ends_with(", leader: mcts (61.0%)"), "{line}");
        assert_eq!(clock(Duration::from_secs(3723)), "1:02:03");
    }
}
