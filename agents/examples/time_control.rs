//! How well a searching agent keeps its time: plays games of the agent
//! against `greedy` and prints the distribution of the wall time of each
//! decision as a share of `time_ms`, and each game's total as a share of
//! `game_ms`.
//!
//! ```text
//! cargo run --release -p carcassonne-agents --example time_control -- \
//!     "mcts:time_ms=100" 4
//! ```
//!
//! Arguments: the agent spec (default `mcts:time_ms=100`) and the number
//! of games (default 2). Wall time depends on the machine's load: say it
//! with the figures.

use agents::game::play_game;
use agents::{from_spec, Agent, Decision, Observed, Observer};
use engine::{Rules, SeatView};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Records how long each decision of the agent it observes takes.
struct Timer {
    start: Option<Instant>,
    times: Arc<Mutex<Vec<Duration>>>,
}

impl Observer for Timer {
    fn before(&mut self, _view: &SeatView<'_>) {
        self.start = Some(Instant::now());
    }

    fn decided(&mut self, _view: &SeatView<'_>, _decision: &Decision) {
        if let Some(start) = self.start.take() {
            self.times.lock().unwrap().push(start.elapsed());
        }
    }
}

/// The `q` quantile of sorted `xs` (nearest rank).
fn quantile(xs: &[f64], q: f64) -> f64 {
    xs[((xs.len() - 1) as f64 * q).round() as usize]
}

/// The value of `key=` in `spec`, in milliseconds.
fn millis(spec: &str, key: &str) -> Option<f64> {
    spec.split([':', ','])
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
        .and_then(|v| v.parse().ok())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let spec = args.next().unwrap_or_else(|| "mcts:time_ms=100".into());
    let games: u64 = args
        .next()
        .map_or(2, |g| g.parse().expect("games: an integer"));
    let time_ms = millis(&spec, "time_ms");
    let game_ms = millis(&spec, "game_ms");
    let times = Arc::new(Mutex::new(Vec::new()));
    let mut totals = Vec::new();
    for g in 0..games {
        let timed = Observed::new(
            from_spec(&spec).unwrap_or_else(|e| panic!("{spec}: {e}")),
            Timer {
                start: None,
                times: Arc::clone(&times),
            },
        );
        let mut seats: Vec<Box<dyn Agent>> = vec![Box::new(timed), from_spec("greedy").unwrap()];
        if g % 2 == 1 {
            seats.swap(0, 1);
        }
        let out = play_game(
            &mut seats,
            Rules::default(),
            1000 + g / 2,
            &[2 * g, 2 * g + 1],
        );
        assert!(out.forfeit.is_none(), "{:?}", out.forfeit);
        totals.push(out.think_time[(g % 2) as usize].as_secs_f64() * 1e3);
    }
    let mut ms: Vec<f64> = times
        .lock()
        .unwrap()
        .iter()
        .map(|d| d.as_secs_f64() * 1e3)
        .collect();
    ms.sort_by(f64::total_cmp);
    println!("{spec}: {games} games, {} decisions", ms.len());
    let mean = ms.iter().sum::<f64>() / ms.len() as f64;
    println!(
        "ms per decision: mean {mean:.2}, min {:.2}, p50 {:.2}, p90 {:.2}, p99 {:.2}, max {:.2}",
        ms[0],
        quantile(&ms, 0.5),
        quantile(&ms, 0.9),
        quantile(&ms, 0.99),
        ms[ms.len() - 1]
    );
    if let Some(t) = time_ms {
        let over = ms.iter().filter(|&&x| x > 1.05 * t).count();
        println!(
            "share of time_ms: mean {:.3}, p99 {:.3}, max {:.3}; over 105%: {over} of {} ({:.1}%)",
            mean / t,
            quantile(&ms, 0.99) / t,
            ms[ms.len() - 1] / t,
            ms.len(),
            100.0 * over as f64 / ms.len() as f64
        );
    }
    if let Some(g) = game_ms {
        let shares: Vec<String> = totals.iter().map(|t| format!("{:.3}", t / g)).collect();
        println!("share of game_ms per game: {}", shares.join(" "));
    }
}
