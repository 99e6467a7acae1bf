//! `carcassonne bench`: engine speed on complete random games, with a
//! deterministic signature that changes whenever behaviour changes.

use crate::error::{Error, Result};
use crate::runner::{Flow, Runner};
use crate::schedule::Schedule;
use agents::mcts::{MctsAgent, MctsConfig};
use agents::AgentRng;
use engine::{random_move, random_playout};
use engine::{Phase, Rules, Seat, State};
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
    /// Games per timed tournament (random vs random); 0 skips them.
    pub tournament_games: u64,
    /// Rules of the random games (standard by default; The Gifts are
    /// added on top for the gifts measurement when they combine).
    pub rules: Rules,
}

impl BenchConfig {
    /// Check the counts: at least one game per round and one round (a
    /// rate of zero games is not a measurement).
    pub fn new(games: u64, rounds: usize, tournament_games: u64) -> Result<BenchConfig> {
        if games == 0 {
            return Err(Error::Invalid(
                "bench --games must be at least 1".to_string(),
            ));
        }
        if rounds == 0 {
            return Err(Error::Invalid(
                "bench --rounds must be at least 1".to_string(),
            ));
        }
        Ok(BenchConfig {
            games,
            rounds,
            tournament_games,
            rules: Rules::default(),
        })
    }
}

impl Default for BenchConfig {
    fn default() -> BenchConfig {
        BenchConfig {
            games: 20_000,
            rounds: 5,
            tournament_games: 20_000,
            rules: Rules::default(),
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
    /// Sum over the fixed seeds 0..games of (total score of seat 0 ×
    /// 1000 plus total of seat 1 plus turns): changes when the rules engine
    /// or the random playout behave differently.
    pub signature: u64,
    /// Median complete random 2-player games per second with The Gifts
    /// (random gift openings included), one thread.
    pub random_games_per_s_gifts: f64,
    /// The signature of the games with The Gifts.
    pub signature_gifts: u64,
    /// Games per second of a random vs random tournament on 1 thread
    /// (scheduling, agents, ranking and rows included; no files).
    pub tournament_games_per_s_1t: f64,
    /// The same on 2 threads (ideally about twice the 1-thread rate).
    pub tournament_games_per_s_2t: f64,
    /// Iterations per second of the default MCTS agent searching the
    /// opening position (one thread, one search).
    pub mcts_iterations_per_s_opening: f64,
    /// The same from a position after 30 random turns.
    pub mcts_iterations_per_s_midgame: f64,
}

/// Play `games` random 2-player games under `rules` from seeds
/// `0..games`; return their signature. Each game starts from a copy of
/// the initial position, as a search agent's playouts do.
pub fn random_games(games: u64, rules: Rules) -> u64 {
    let mut signature = 0u64;
    let start = State::new(rules, 2, Seat(0));
    let mut state = start.clone();
    for seed in 0..games {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        state.clone_from(&start);
        random_playout(&mut state, &mut rng);
        let a = state.score(Seat(0)).total() as u64;
        let b = state.score(Seat(1)).total() as u64;
        signature = signature.wrapping_add(a * 1000 + b + state.turns() as u64);
    }
    signature
}

/// Run the benchmark: `rounds` timed rounds of `games` games each.
pub fn run(config: &BenchConfig) -> BenchReport {
    let (median, rounds, signature) = random_games_per_s(config, config.rules);
    let with_gifts = Rules {
        gifts: true,
        ..config.rules
    };
    // A variant The Gifts cannot join (a hand) measures its own rules twice.
    let gifts = if with_gifts.validate().is_ok() {
        with_gifts
    } else {
        config.rules
    };
    let (median_gifts, _, signature_gifts) = random_games_per_s(config, gifts);
    let mcts = mcts_iterations_per_s(&MctsConfig::default(), 1);
    BenchReport {
        random_games_per_s: median,
        us_per_game: 1e6 / median,
        games: config.games,
        rounds,
        signature,
        random_games_per_s_gifts: median_gifts,
        signature_gifts,
        tournament_games_per_s_1t: tournament_games_per_s(
            config.tournament_games,
            1,
            config.rounds,
        ),
        tournament_games_per_s_2t: tournament_games_per_s(
            config.tournament_games,
            2,
            config.rounds,
        ),
        mcts_iterations_per_s_opening: mcts.opening,
        mcts_iterations_per_s_midgame: mcts.midgame,
    }
}

/// Median random games per second under `rules` over the configured
/// rounds; returns it with the number of rounds and the signature.
fn random_games_per_s(config: &BenchConfig, rules: Rules) -> (f64, usize, u64) {
    let mut rates = Vec::with_capacity(config.rounds);
    let mut signature = 0;
    for _ in 0..config.rounds.max(1) {
        let start = Instant::now();
        signature = random_games(config.games, rules);
        let secs = start.elapsed().as_secs_f64();
        rates.push(config.games as f64 / secs);
    }
    rates.sort_by(f64::total_cmp);
    (rates[rates.len() / 2], rates.len(), signature)
}

/// Median games per second over `rounds` random vs random tournaments of
/// `games` games on `threads` threads (0 when `games` is 0).
pub fn tournament_games_per_s(games: u64, threads: usize, rounds: usize) -> f64 {
    if games == 0 {
        return 0.0;
    }
    let specs = vec!["random".to_string(), "random".to_string()];
    let labels = crate::agent_list::labels(&specs);
    let schedule = Schedule::new(2, 2, games, 1, None);
    let runner = Runner {
        schedule: &schedule,
        specs: &specs,
        labels: &labels,
        rules: Rules::default(),
        records: false,
        make_agent: &agents::from_spec,
        cancel: &std::sync::atomic::AtomicBool::new(false),
    };

    let mut rates: Vec<f64> = (0..rounds.clamp(1, 3))
        .map(|_| {
            let start = Instant::now();
            let mut played = 0u64;
            runner
                .run(schedule.planned(), threads, |_| {
                    played += 1;
                    Ok(Flow::Continue)
                })
                .expect("the benchmark sink does not fail");
            played as f64 / start.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    rates[rates.len() / 2]
}

/// MCTS speed on one thread.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsSpeed {
    /// Iterations per second from the first move of a 2-seat game.
    pub opening: f64,
    /// Iterations per second from a 2-seat position after 30 turns.
    pub midgame: f64,
}

/// Measure the iterations per second of an MCTS search with `config`
/// (its time budget is ignored: each search runs `config.iterations`) on
/// one thread, from the opening and from a mid-game position (30 turns of
/// random play with deck and moves from `seed`), 2 seats, default rules.
pub fn mcts_iterations_per_s(config: &MctsConfig, seed: u64) -> MctsSpeed {
    let agent = MctsAgent::new(
        "mcts".into(),
        MctsConfig {
            time_ms: None,
            game_ms: None,
            ..*config
        },
    );
    let mut rng = AgentRng::seed_from_u64(seed);
    let mut state = State::new(Rules::default(), 2, Seat(0));
    state.draw_random(&mut rng);
    let rate = |state: &State, rng: &mut AgentRng| {
        let start = Instant::now();
        let result = agent.search(&state.view(state.to_play()), rng);
        result.iterations as f64 / start.elapsed().as_secs_f64().max(1e-9)
    };
    let opening = rate(&state, &mut rng);
    while state.turns() < 30 || !matches!(state.phase(), Phase::Place(_)) {
        match state.phase() {
            Phase::Place(_) => {
                let mv = random_move(&state, &mut rng).expect("placeable");
                state.play_unchecked(mv);
            }
            Phase::Over => unreachable!("a game lasts more than 30 turns"),
            _ => {
                state.apply_chance(&mut rng);
            }
        }
    }
    let midgame = rate(&state, &mut rng);
    MctsSpeed { opening, midgame }
}

impl BenchReport {
    /// The human-readable report.
    pub fn text(&self) -> String {
        format!(
            "random games: {:.0} games/s ({:.2} µs/game), median of {} rounds of {} games\n\
             with The Gifts: {:.0} games/s ({:.2}× the base game's time)\n\
             tournament (random vs random): {:.0} games/s on 1 thread, {:.0} on 2 ({:.2}×)\n\
             mcts (default): {:.0} iterations/s from the opening, {:.0} in the midgame\n\
             signature: {}\n",
            self.random_games_per_s,
            self.us_per_game,
            self.rounds,
            self.games,
            self.random_games_per_s_gifts,
            self.random_games_per_s / self.random_games_per_s_gifts,
            self.tournament_games_per_s_1t,
            self.tournament_games_per_s_2t,
            self.tournament_games_per_s_2t / self.tournament_games_per_s_1t,
            self.mcts_iterations_per_s_opening,
            self.mcts_iterations_per_s_midgame,
            self.signature
        )
    }
}
