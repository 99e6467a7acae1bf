//! `carcassonne bench`: engine speed on complete random games, with a
//! deterministic signature that changes whenever behaviour changes.

use crate::run::roster::Roster;
use crate::run::runner::{Flow, Runner};
use crate::run::schedule::{GameIndices, Schedule};
use agents::az::{AzAgent, AzConfig};
use agents::greedy::greedy_move;
use agents::mcts::{MctsAgent, MctsConfig};
use agents::AgentRng;
use engine::{random_move, random_playout};
use engine::{Phase, Rules, Seat, State};
use files::error::{Error, Result};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use serde::Serialize;
use std::path::{Path, PathBuf};
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
    /// Games through the bot protocol (each of `serve random` and the
    /// Python random bot); 0 skips them.
    pub ext_games: u64,
    /// Rules of the random games (standard by default; The Gifts are
    /// added on top for the gifts measurement when they combine).
    pub rules: Rules,
    /// Seconds each search-speed round lasts at least (MCTS searches and
    /// greedy decisions repeat until then; the median of up to 3 rounds
    /// is reported).
    pub search_secs: f64,
    /// The network of the `az` figures (default: the shipped
    /// `models/net-2p-zero.safetensors` when found); `None` skips them.
    pub network: Option<PathBuf>,
    /// Self-play games of `az:net=NETWORK,iterations=400` (with self-play's
    /// noise and temperature) timed for examples per CPU-second; 0 skips.
    pub selfplay_games: u64,
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
        if rounds > MAX_ROUNDS {
            return Err(Error::Invalid(format!(
                "bench --rounds must be at most {MAX_ROUNDS}, not {rounds}"
            )));
        }
        for (option, n) in [("--games", games), ("--tournament-games", tournament_games)] {
            if n > crate::run::config::MAX_GAMES {
                return Err(Error::Invalid(format!(
                    "bench {option} must be at most {}, not {n}",
                    crate::run::config::MAX_GAMES
                )));
            }
        }
        Ok(BenchConfig {
            games,
            rounds,
            tournament_games,
            ext_games: 200,
            ..BenchConfig::default()
        })
    }
}

/// The shipped 2-player network, if this checkout has it.
pub fn shipped_network() -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/net-2p-zero.safetensors");
    path.is_file().then_some(path)
}

/// Most timed rounds (`--rounds`): their timings are kept in memory.
pub const MAX_ROUNDS: usize = 1000;

impl Default for BenchConfig {
    fn default() -> BenchConfig {
        BenchConfig {
            games: 20_000,
            rounds: 5,
            tournament_games: 20_000,
            ext_games: 200,
            rules: Rules::default(),
            search_secs: 1.0,
            network: shipped_network(),
            selfplay_games: 2,
        }
    }
}

/// What `bench --json` prints.
#[derive(Clone, Debug, Default, Serialize)]
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
    /// opening position (one thread; searches repeated for at least
    /// `search_secs` per round, median of the rounds).
    pub mcts_iterations_per_s_opening: f64,
    /// The same from a position after 30 random turns.
    pub mcts_iterations_per_s_midgame: f64,
    /// Decisions per second of the greedy agent's move choice (every
    /// legal move evaluated) in that midgame position, measured the same
    /// way.
    pub greedy_decisions_per_s: f64,
    /// Rows of per-action features per second
    /// ([`agents::action_features::for_each_row`], one row per legal
    /// action) over every decision of [`FEATURE_GAMES`] random 2-seat
    /// games (default rules, seeds 0, 1, …), one thread; measured the
    /// same way as the search figures.
    pub action_features_per_s: f64,
    /// Microseconds per decision of those rows (all the rows of one
    /// decision).
    pub action_features_us_per_decision: f64,
    /// Games per second of `random` against `random`, both external
    /// bots (`carcassonne serve random`, one persistent process per seat),
    /// one thread.
    pub ext_games_per_s: Option<f64>,
    /// Their mean think time per decision, in µs: the whole round trip
    /// (message built and written, the bot's answer read and checked).
    pub ext_us_per_decision: Option<f64>,
    /// Games per second of the Python client's random bot against the
    /// in-process `random` (None without python3).
    pub python_games_per_s: Option<f64>,
    /// The Python bot's mean think time per decision, in µs.
    pub python_us_per_decision: Option<f64>,
    /// `az:net=NETWORK,iterations=400` searches per second on one thread
    /// in the midgame position of the MCTS figures (`None`: no network).
    pub az_iterations_per_s_midgame: Option<f64>,
    /// Training examples per CPU-second (user + system time of the
    /// process) of single-threaded self-play with
    /// `az:net=NETWORK,iterations=400,noise=0.25,temp_moves=10`, through
    /// the run's own recorder (`None`: skipped).
    pub selfplay_examples_per_cpu_s: Option<f64>,
}

/// Two agents playing `games` 2-player games (base rules, no records).
struct Duel {
    schedule: Schedule,
    roster: Roster,
    labels: Vec<String>,
    cancel: std::sync::atomic::AtomicBool,
}

impl Duel {
    fn new(specs: &[String], games: u64) -> Result<Duel> {
        Ok(Duel {
            schedule: Schedule::new(2, 2, games, 1, None),
            roster: Roster::new(specs, None, protocol::secret::Secret::bot_key(1))?,
            labels: crate::run::agent_list::labels(specs),
            cancel: std::sync::atomic::AtomicBool::new(false),
        })
    }

    fn runner(&self) -> Runner<'_> {
        Runner {
            schedule: &self.schedule,
            roster: &self.roster,
            labels: &self.labels,
            rules: Rules::default(),
            records: false,
            positions: false,
            make_agent: None,
            cancel: &self.cancel,
            keyed_agent_seeds: None,
        }
    }
}

/// Speed of games with external bots.
#[derive(Clone, Copy, Debug)]
pub struct ExtRate {
    /// Games per second.
    pub games_per_s: f64,
    /// Mean think time per decision of the external seats, in µs.
    pub us_per_decision: f64,
}

/// Play `games` 2-player games between `specs` on one thread (bot
/// processes started and kept by a first, untimed game pair), and measure
/// the rate and the `ext:` seats' think time per decision. None when a
/// spec does not build (e.g. no python3) or a bot forfeits.
pub fn ext_rate(specs: &[String], games: u64) -> Option<ExtRate> {
    if games == 0 {
        return None;
    }
    let duel = Duel::new(specs, games).ok()?;
    let runner = duel.runner();
    let indices = duel.schedule.planned();
    let mut think_ms = 0.0;
    let mut decisions = 0u64;
    let mut clean = true;
    runner
        .run(GameIndices::new(0, 1, 2), 1, |_| Ok(Flow::Continue))
        .ok()?;
    let start = Instant::now();
    runner
        .run(indices, 1, |game| {
            for row in game.rows.iter().filter(|r| r.agent.starts_with("ext:")) {
                clean &= row.forfeit.is_empty();
                think_ms += row.think_ms;
                // Seat 0 decides turns 1, 3, …; seat 1 turns 2, 4, ….
                decisions += (row.turns as u64 + 1 - row.seat as u64) / 2;
            }
            Ok(Flow::Continue)
        })
        .ok()?;
    let secs = start.elapsed().as_secs_f64();
    duel.roster.shutdown();
    clean.then(|| ExtRate {
        games_per_s: indices.len() as f64 / secs,
        us_per_decision: think_ms * 1e3 / decisions.max(1) as f64,
    })
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
    let search = SearchBench {
        secs: config.search_secs,
        rounds: config.rounds.clamp(1, 3),
    };
    let mcts = search.mcts_iterations_per_s(&MctsConfig::default(), 1);
    let features = search.action_features_speed(&feature_positions(FEATURE_GAMES), false);
    let exe = std::env::current_exe().map(|p| p.display().to_string());
    let served = exe.ok().and_then(|exe| {
        let spec = format!("ext:cmd={exe} serve random");
        ext_rate(&[spec.clone(), spec], config.ext_games)
    });
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../clients/python/random_bot.py"
    );
    let python = ext_rate(
        &[format!("ext:cmd=python3 {script}"), "random".to_string()],
        config.ext_games,
    );
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
        ext_games_per_s: served.map(|r| r.games_per_s),
        ext_us_per_decision: served.map(|r| r.us_per_decision),
        python_games_per_s: python.map(|r| r.games_per_s),
        python_us_per_decision: python.map(|r| r.us_per_decision),
        greedy_decisions_per_s: mcts.greedy,
        action_features_per_s: features.rows_per_s,
        action_features_us_per_decision: 1e6 / features.decisions_per_s,
        az_iterations_per_s_midgame: config
            .network
            .as_deref()
            .and_then(|net| search.az_iterations_per_s(net, 1)),
        selfplay_examples_per_cpu_s: config
            .network
            .as_deref()
            .filter(|_| config.selfplay_games > 0)
            .and_then(|net| selfplay_examples_per_cpu_s(net, config.selfplay_games)),
    }
}

/// Without the network's code there are no examples to count.
#[cfg(not(feature = "neural"))]
fn selfplay_examples_per_cpu_s(_network: &Path, _games: u64) -> Option<f64> {
    None
}

/// The `az` spec of the network figures.
fn az_spec(network: &Path) -> String {
    format!("az:net={},iterations=400", network.display())
}

/// Training examples per CPU-second of `games` self-play games of
/// `az:net=NETWORK,iterations=400` with self-play's noise and temperature, on one thread
/// (the runner and example recorder of `carcassonne selfplay`, no files
/// written). `None` when the network does not load.
#[cfg(feature = "neural")]
pub fn selfplay_examples_per_cpu_s(network: &Path, games: u64) -> Option<f64> {
    let specs = vec![format!("{},noise=0.25,temp_moves=10", az_spec(network))];
    let schedule = Schedule::selfplay(2, games, 1, None);
    let roster = Roster::new(&specs, None, protocol::secret::Secret::bot_key(1)).ok()?;
    let labels = crate::run::agent_list::labels(&specs);
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let runner = Runner {
        schedule: &schedule,
        roster: &roster,
        labels: &labels,
        rules: Rules::default(),
        records: false,
        positions: true,
        make_agent: None,
        cancel: &cancel,
        keyed_agent_seeds: None,
    };
    let mut examples = 0usize;
    let start = cpu_seconds();
    runner
        .run(schedule.planned(), 1, |game| {
            examples += game.examples.as_ref().map_or(0, |d| d.len());
            Ok(Flow::Continue)
        })
        .ok()?;
    let cpu = cpu_seconds() - start;
    roster.shutdown();
    Some(examples as f64 / cpu.max(1e-9))
}

/// The CPU time this process has used (user + system), in seconds.
#[cfg(feature = "neural")]
fn cpu_seconds() -> f64 {
    use nix::sys::resource::{getrusage, UsageWho};
    getrusage(UsageWho::RUSAGE_SELF).map_or(0.0, |u| {
        let (user, system) = (u.user_time(), u.system_time());
        (user.tv_sec() + system.tv_sec()) as f64 + (user.tv_usec() + system.tv_usec()) as f64 * 1e-6
    })
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
    let specs = ["random".to_string(), "random".to_string()];
    let duel = Duel::new(&specs, games).expect("built-in agents");
    let runner = duel.runner();
    let schedule = &duel.schedule;
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

/// Search speed on one thread.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsSpeed {
    /// Iterations per second from the first move of a 2-seat game.
    pub opening: f64,
    /// Iterations per second from a 2-seat position after 30 turns.
    pub midgame: f64,
    /// Greedy move choices per second in that midgame position.
    pub greedy: f64,
}

/// How long search speeds are measured: repeat until `secs` have passed,
/// `rounds` times, keep the median rate.
#[derive(Clone, Copy, Debug)]
pub struct SearchBench {
    /// Seconds per round, at least.
    pub secs: f64,
    /// Rounds; the median is reported.
    pub rounds: usize,
}

impl SearchBench {
    /// One search (or decision) per call, enough for a profiler.
    pub const ONCE: SearchBench = SearchBench {
        secs: 0.0,
        rounds: 1,
    };

    /// The median over the rounds of units per second, `work` returning
    /// the units it did (it is called at least once per round).
    fn median_rate(&self, mut work: impl FnMut() -> u64) -> f64 {
        let mut rates: Vec<f64> = (0..self.rounds.max(1))
            .map(|_| {
                let start = Instant::now();
                let mut units = 0u64;
                loop {
                    units += work();
                    let secs = start.elapsed().as_secs_f64();
                    if secs >= self.secs {
                        return units as f64 / secs.max(1e-9);
                    }
                }
            })
            .collect();
        rates.sort_by(f64::total_cmp);
        rates[rates.len() / 2]
    }

    /// Iterations per second of an MCTS search with `config` (its time
    /// budget is ignored: each search runs `config.iterations`) on one
    /// thread, from the opening and from a mid-game position (30 turns of
    /// random play with deck and moves from `seed`), 2 seats, default
    /// rules; and the greedy agent's decisions per second in the midgame.
    pub fn mcts_iterations_per_s(&self, config: &MctsConfig, seed: u64) -> MctsSpeed {
        let mut agent = MctsAgent::new(
            "mcts".into(),
            MctsConfig {
                time_ms: None,
                game_ms: None,
                ..config.clone()
            },
        );
        let mut rng = AgentRng::seed_from_u64(seed);
        let mut state = State::new(Rules::default(), 2, Seat(0));
        state.apply_chance(&mut rng);
        let mut rate = |state: &State, rng: &mut AgentRng| {
            self.median_rate(|| {
                let result = agent.search(&state.view(state.to_play()), rng);
                u64::from(result.iterations)
            })
        };
        let opening = rate(&state, &mut rng);
        play_to_midgame(&mut state, &mut rng);
        let midgame = rate(&state, &mut rng);
        let greedy = self.median_rate(|| {
            std::hint::black_box(greedy_move(&state, &mut rng));
            1
        });
        MctsSpeed {
            opening,
            midgame,
            greedy,
        }
    }
}

impl SearchBench {
    /// Iterations per second of `az:net=NETWORK,iterations=400`'s search on
    /// one thread in the midgame position of
    /// [`SearchBench::mcts_iterations_per_s`] for the same `seed`; `None`
    /// when the network does not load.
    pub fn az_iterations_per_s(&self, network: &Path, seed: u64) -> Option<f64> {
        let spec = az_spec(network);
        let parsed = agents::spec::Spec::parse(&spec).ok()?;
        let params = agents::spec::Params::new(&parsed, agents::az::PARAMS).ok()?;
        let mut agent = AzAgent::new(spec.clone(), AzConfig::from_params(&params).ok()?);
        let mut rng = AgentRng::seed_from_u64(seed);
        let mut state = State::new(Rules::default(), 2, Seat(0));
        state.apply_chance(&mut rng);
        play_to_midgame(&mut state, &mut rng);
        Some(self.median_rate(|| {
            let stats = agent.search(&state.view(state.to_play()), &mut rng);
            u64::from(stats.iterations)
        }))
    }
}

/// Random 2-seat games whose decisions the per-action features figure
/// reads.
pub const FEATURE_GAMES: u64 = 4;

/// Every decision (a seat to play) of `games` random 2-seat games under
/// the default rules, from seeds `0..games`: the positions the
/// per-action features figure reads.
pub fn feature_positions(games: u64) -> Vec<State> {
    let mut positions = Vec::new();
    for seed in 0..games {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut state = State::new(Rules::default(), 2, Seat(0));
        while !state.is_over() {
            match engine::random_action(&state, &mut rng) {
                Some(action) => {
                    positions.push(state.clone());
                    state.play_action_unchecked(action);
                }
                None => {
                    state.apply_chance(&mut rng);
                }
            }
        }
    }
    positions
}

/// Speed of the per-action features.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FeatureSpeed {
    /// Rows per second (one per legal action).
    pub rows_per_s: f64,
    /// Decisions per second (all the rows of a position).
    pub decisions_per_s: f64,
}

impl SearchBench {
    /// Rows of per-action features per second over `positions` (each
    /// round reads all of them at least once), one thread: through
    /// [`agents::action_features::for_each_row`], or with `by_copy`
    /// through the reference that plays each placement on a copy of the
    /// position (the way before `EndNow::effects`, for comparison).
    pub fn action_features_speed(&self, positions: &[State], by_copy: bool) -> FeatureSpeed {
        use agents::action_features::{for_each_row, reference};
        // One row per legal action (counted without reading any rows).
        let mut rows_per_pass = 0u64;
        for state in positions {
            state.for_each_action(|_| rows_per_pass += 1);
        }
        let pass = || {
            let mut sum = 0.0f32;
            for state in positions {
                if by_copy {
                    reference::for_each_row(state, |_, row| sum += row[0]);
                } else {
                    for_each_row(state, |_, row| sum += row[0]);
                }
            }
            std::hint::black_box(sum);
        };
        let passes_per_s = self.median_rate(|| {
            pass();
            1
        });
        FeatureSpeed {
            rows_per_s: passes_per_s * rows_per_pass as f64,
            decisions_per_s: passes_per_s * positions.len() as f64,
        }
    }
}

/// Random moves from `state` until 30 turns are played and a tile is to
/// be placed (the benchmarks' midgame position).
fn play_to_midgame(state: &mut State, rng: &mut AgentRng) {
    while state.turns() < 30 || !matches!(state.phase(), Phase::Place(_)) {
        match state.phase() {
            Phase::Place(_) => {
                let mv = random_move(state, rng).expect("placeable");
                state.play_action_unchecked(engine::Action::Place(mv));
            }
            Phase::Over => unreachable!("a game lasts more than 30 turns"),
            _ => {
                state.apply_chance(rng);
            }
        }
    }
}

impl BenchReport {
    /// The human-readable report.
    pub fn text(&self) -> String {
        format!(
            "random games: {:.0} games/s ({:.2} µs/game), median of {} rounds of {} games\n\
             with The Gifts: {:.0} games/s ({:.2}× the base game's time)\n\
             tournament (random vs random): {:.0} games/s on 1 thread, {:.0} on 2 ({:.2}×)\n\
             mcts (default): {:.0} iterations/s from the opening, {:.0} in the midgame\n\
             bot protocol: serve random vs serve random {}; Python random bot vs random {}\n\
             greedy: {:.0} decisions/s in the midgame\n\
             per-action features: {:.0} rows/s ({:.1} µs/decision)\n\
             az (shipped network, 400 iterations): {} iterations/s in the midgame; self-play {} examples per CPU-second\n\
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
            rate_text(self.ext_games_per_s, self.ext_us_per_decision),
            rate_text(self.python_games_per_s, self.python_us_per_decision),
            self.greedy_decisions_per_s,
            self.action_features_per_s,
            self.action_features_us_per_decision,
            optional_rate(self.az_iterations_per_s_midgame),
            optional_rate(self.selfplay_examples_per_cpu_s),
            self.signature
        )
    }
}

/// A rate to one decimal, or `skipped`.
fn optional_rate(rate: Option<f64>) -> String {
    rate.map_or("skipped".to_string(), |r| format!("{r:.1}"))
}

/// `N games/s (M µs/decision)`, or `skipped`.
fn rate_text(games_per_s: Option<f64>, us: Option<f64>) -> String {
    match (games_per_s, us) {
        (Some(g), Some(us)) => format!("{g:.1} games/s ({us:.0} µs/decision)"),
        _ => "skipped".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The signatures of `carcassonne bench --games 2000`, pinned so that
    /// any change to the games shows here. They last changed when the
    /// random playout began drawing its choices by Lemire's method
    /// (`engine/src/sampling.rs`; before: 38,959,425, 41,845,088,
    /// 15,056,038 and 17,491,510, unchanged since the table,
    /// `start_in_bag` and `unplaceable` variants were added).
    /// Issue 45: the network figures are measured with the shipped
    /// network and skipped without one.
    #[cfg(feature = "neural")]
    #[test]
    fn the_network_figures_measure_the_shipped_network() {
        let net = shipped_network().expect("models/net-2p-zero.safetensors is shipped");
        let rate = SearchBench::ONCE.az_iterations_per_s(&net, 1).unwrap();
        assert!(rate > 0.0, "{rate}");
        let examples = selfplay_examples_per_cpu_s(&net, 1).unwrap();
        assert!(examples > 0.0, "{examples}");
        let missing = Path::new("no-such-network.safetensors");
        assert_eq!(SearchBench::ONCE.az_iterations_per_s(missing, 1), None);
        assert_eq!(selfplay_examples_per_cpu_s(missing, 1), None);
    }

    /// The per-action features figure reads every row of every decision
    /// of its games, and `bench --json` reports it.
    #[test]
    fn action_features_speed_is_measured_and_reported() {
        let positions = feature_positions(1);
        assert!(positions.len() > 70, "{}", positions.len());
        let speed = SearchBench::ONCE.action_features_speed(&positions, false);
        let by_copy = SearchBench::ONCE.action_features_speed(&positions, true);
        for s in [speed, by_copy] {
            assert!(s.rows_per_s > 0.0 && s.decisions_per_s > 0.0, "{s:?}");
            // Rows per decision: the positions' legal actions.
            let legal: usize = positions.iter().map(|p| p.legal_actions().len()).sum();
            let per_decision = legal as f64 / positions.len() as f64;
            let measured = s.rows_per_s / s.decisions_per_s;
            assert!(
                (measured - per_decision).abs() < 1e-9,
                "{measured} {per_decision}"
            );
        }
        let report = BenchReport {
            action_features_per_s: speed.rows_per_s,
            action_features_us_per_decision: 1e6 / speed.decisions_per_s,
            ..BenchReport::default()
        };
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["action_features_per_s"], speed.rows_per_s);
        assert!(json["action_features_us_per_decision"].as_f64().unwrap() > 0.0);
        assert!(report.text().contains("per-action features: "));
    }

    #[test]
    fn bench_signatures_are_pinned() {
        let standard = Rules::default();
        assert_eq!(random_games(2000, standard), 39_197_221);
        let gifts = Rules {
            gifts: true,
            ..standard
        };
        assert_eq!(random_games(2000, gifts), 42_237_200);
        let house: Rules = "hole_bonus=true,final_incomplete=false".parse().unwrap();
        assert_eq!(random_games(2000, house), 15_234_065);
        let house_gifts = Rules {
            gifts: true,
            ..house
        };
        assert_eq!(random_games(2000, house_gifts), 17_924_437);
    }
}
