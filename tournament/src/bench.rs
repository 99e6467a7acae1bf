//! `carcassonne bench`: engine speed on complete random games, with a
//! deterministic signature that changes whenever behaviour changes.

use engine::playout::random_playout;
use engine::{Rules, Seat, State};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use serde::Serialize;
use std::time::Instant;

/// Settings of one benchmark run.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// Random games per measured round.
    pub games: u64,
    /// Measured rounds; the median is reported.
    pub rounds: usize,
}

impl Default for BenchConfig {
    fn default() -> BenchConfig {
        BenchConfig {
            games: 20_000,
            rounds: 5,
        }
    }
}

/// What `bench --json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    /// Median complete random 2-player games per second, one thread.
    pub random_games_per_s: f64,
    /// Median microseconds per game.
    pub us_per_game: f64,
    /// Games per round.
    pub games: u64,
    /// Rounds measured.
    pub rounds: usize,
    /// Sum over the fixed seeds 0..games of (total score of seat 0 × 1000
    /// + total of seat 1 + turns): changes when the rules engine or the
    /// random playout behave differently.
    pub signature: u64,
}

/// Play `games` random 2-player games from seeds `0..games`; return their
/// signature.
pub fn random_games(games: u64) -> u64 {
    let mut signature = 0u64;
    for seed in 0..games {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut state = State::new(Rules::default(), 2, Seat(0));
        random_playout(&mut state, &mut rng);
        let a = state.score(Seat(0)).total() as u64;
        let b = state.score(Seat(1)).total() as u64;
        signature = signature.wrapping_add(a * 1000 + b + state.turns() as u64);
    }
    signature
}

/// Run the benchmark: `rounds` timed rounds of `games` games each.
pub fn run(config: &BenchConfig) -> BenchReport {
    let mut rates = Vec::with_capacity(config.rounds);
    let mut signature = 0;
    for _ in 0..config.rounds.max(1) {
        let start = Instant::now();
        signature = random_games(config.games);
        let secs = start.elapsed().as_secs_f64();
        rates.push(config.games as f64 / secs);
    }
    rates.sort_by(f64::total_cmp);
    let median = rates[rates.len() / 2];
    BenchReport {
        random_games_per_s: median,
        us_per_game: 1e6 / median,
        games: config.games,
        rounds: rates.len(),
        signature,
    }
}
