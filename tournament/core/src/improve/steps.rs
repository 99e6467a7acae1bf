//! The steps both improvement loops are made of: a self-play or match
//! tournament that is run, continued after a kill or reused when it is
//! finished, and the Elo a promotion match gives, chained back to
//! generation 0.

use super::Hooks;
use crate::results::output::read_run_info;
use crate::results::schema::{RunInfo, RunStatus, Settings, SprtResult};
use crate::run::config::{check_new_folder, plan_agents, Folder, TournamentConfig};
use crate::stats::{elo_from_score, elo_interval, wilson_interval, SprtModel, Z95};
use files::error::{Error, Result};
use std::path::Path;

/// What the messages of a step tell the user to do.
pub struct Hints {
    /// How to continue an interrupted run (`continue with …`).
    pub interrupted: String,
    /// What to do about a folder that holds another run (`remove it…`).
    pub other_run: String,
}

/// How a loop plays its steps: the same for every step of a run, and
/// not part of what a step's results depend on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepOptions {
    /// Worker threads (`None`: all cores).
    pub threads: Option<usize>,
    /// Test hook: stop this process's part of a step after this many
    /// games, as if killed.
    pub stop_after: Option<u64>,
}

/// The settings of a step: a tournament (or self-play run) of `agents`
/// named `name`, unsharded, with open decks, no SPRT and no records
/// (set those fields after).
pub fn step_settings(
    name: &str,
    agents: Vec<String>,
    players: u64,
    games: u64,
    seed: u64,
    rules: engine::Rules,
) -> Settings {
    Settings {
        name: name.to_string(),
        agents,
        players: players as usize,
        games_per_pairing: games,
        seed,
        rules,
        records: false,
        shard: None,
        sprt: None,
        kind: crate::RunKind::Tournament,
        secret_decks: false,
    }
}

/// Whether `info` (a folder's run.json) is the run `step` would start:
/// the same agents, seats, games, seed, rules and kind, unsharded.
fn same_run(info: &RunInfo, step: &Settings) -> bool {
    let s = &info.settings;
    s.agents.len() == step.agents.len()
        && s.agents
            .iter()
            .zip(&step.agents)
            .all(|(a, b)| same_spec(a, b))
        && s.players == step.players
        && s.games_per_pairing == step.games_per_pairing
        && s.seed == step.seed
        && crate::run::config::combine_rules(Some(step.rules), false, false).ok() == Some(s.rules)
        && s.kind == step.kind
        && s.shard.is_none()
}

/// Whether two agent specs are the same agent: equal, or equal once the
/// files they name (`net=`, `eval=`) are resolved — a run made before
/// networks were named by absolute paths, continued from the folder it
/// was started in.
pub fn same_spec(a: &str, b: &str) -> bool {
    a == b || resolved(a) == resolved(b)
}

/// `spec` with the files of its `net=` and `eval=` parameters
/// canonicalized (those that exist).
fn resolved(spec: &str) -> String {
    rewrite_params(spec, |k, v| match k {
        "net" | "eval" => match std::fs::canonicalize(v) {
            Ok(path) => Some(path.display().to_string()),
            Err(_) => Some(v.to_string()),
        },
        _ => Some(v.to_string()),
    })
}

/// `spec` rebuilt from its parameters ([`agents::spec::Spec`]) with each
/// value replaced by `f(key, value)`, a parameter dropped where `f` gives
/// `None`; a spec that does not parse is returned as it is.
pub fn rewrite_params(spec: &str, mut f: impl FnMut(&str, &str) -> Option<String>) -> String {
    let Ok(parsed) = agents::spec::Spec::parse(spec) else {
        return spec.to_string();
    };
    let params: Vec<String> = parsed
        .params
        .iter()
        .filter_map(|(k, v)| f(k, v).map(|v| format!("{k}={v}")))
        .collect();
    if params.is_empty() {
        parsed.name.to_string()
    } else {
        format!("{}:{}", parsed.name, params.join(","))
    }
}

/// The run.json of the finished run `step` in `dir`, if it is there.
pub fn finished(dir: &Path, step: &Settings) -> Option<RunInfo> {
    if !dir.join(crate::results::schema::RUN_JSON).exists() {
        return None;
    }
    read_run_info(dir).ok().filter(|i| {
        same_run(i, step) && !matches!(i.status, RunStatus::Running | RunStatus::Interrupted)
    })
}

/// Run, continue or reuse the tournament `step` in `dir`, played by
/// `hooks` ([`Hooks::run`]): a finished folder (or a merged one) is
/// reused when it is the same run, one left by a kill is resumed.
///
/// # Errors
/// The folder holds another run, the tournament is refused or fails, or
/// it was interrupted (the message says how to continue: `hints`).
pub fn tournament_step(
    dir: &Path,
    step: Settings,
    options: StepOptions,
    hints: &Hints,
    hooks: &dyn Hooks,
) -> Result<RunInfo> {
    let exists = dir.join(crate::results::schema::RUN_JSON).exists();
    if exists {
        let info = read_run_info(dir)?;
        if !same_run(&info, &step) {
            return Err(Error::Folder(format!(
                "{} holds a run of other settings than this step needs (agents {}); {}",
                dir.display(),
                step.agents.join(" "),
                hints.other_run
            )));
        }
        if info.status != RunStatus::Running && info.status != RunStatus::Interrupted {
            return Ok(info);
        }
    }
    let config = step_config(dir, step, exists, options)?;
    let info = hooks.run(&config)?.info;
    if info.status == RunStatus::Running || info.status == RunStatus::Interrupted {
        return Err(Error::Invalid(format!(
            "interrupted in {}; {}",
            dir.display(),
            hints.interrupted
        )));
    }
    Ok(info)
}

/// The checked run of `step` in `dir`: resumed when `exists` (its
/// settings from its run.json), else a new run in the new folder `dir`.
/// The checks and their messages are the command line's
/// (`carcassonne tournament --out DIR` or `--resume DIR`).
fn step_config(
    dir: &Path,
    step: Settings,
    exists: bool,
    options: StepOptions,
) -> Result<TournamentConfig> {
    let threads = crate::run::config::worker_threads(options.threads)
        .map_err(|why| Error::Invalid(format!("--threads {why}")))?;
    // No sandboxed bot is ever given the results folder.
    protocol::external::sandbox::protect(dir);
    let config = if exists {
        TournamentConfig::resume(dir, threads)?
    } else {
        let agents = crate::run::agent_list::split_agents(&step.agents);
        let plan = plan_agents(&agents, step.kind, step.kind.agents_option(), &|_| false)?;
        if !engine::is_player_count(step.players as u64) {
            return Err(Error::Invalid(format!(
                "--players must be 2 to 6, not {}",
                step.players
            )));
        }
        if step.games_per_pairing == 0 {
            return Err(Error::Invalid("--games must be at least 1".to_string()));
        }
        let settings = Settings {
            agents,
            rules: crate::run::config::combine_rules(Some(step.rules), false, false)?,
            ..step
        };
        settings.validate()?;
        check_new_folder(dir, "--out")?;
        TournamentConfig::new(settings, plan, Folder::New(dir.to_path_buf()), threads)?
    };
    Ok(TournamentConfig {
        stop_after: options.stop_after,
        ..config
    })
}

/// Round to 4 decimals (losses, scores); −0 is written 0.
pub fn r4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4 + 0.0
}

/// Round to 1 decimal (Elo); −0 is written 0.
pub fn r1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0 + 0.0
}

/// What a promotion match says of its first agent (the candidate).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchElo {
    /// Score per game (wins + draws / 2).
    pub score: f64,
    /// Elo against the second agent.
    pub elo: f64,
    /// Low end of its 95% interval.
    pub low: f64,
    /// High end.
    pub high: f64,
}

impl MatchElo {
    /// The candidate's Elo in the match of `sprt`, with its 95% interval
    /// (pentanomial for 2 players, trinomial otherwise).
    ///
    /// A match won or lost in every pair keeps an interval as wide as its
    /// few pairs ([`crate::stats::pentanomial_interval`]: 15 pairs
    /// all won put the low end at a score of 0.76, +202 Elo). The
    /// trinomial interval has no observed variance when every game went
    /// one way, so its bounds are then the Wilson interval of the games.
    pub fn of(sprt: &SprtResult) -> MatchElo {
        let clamp = |s: f64| s.clamp(0.001, 0.999);
        let (score, low, high) = match sprt.model {
            SprtModel::Pentanomial => {
                let (score, low, high) = sprt.pentanomial.interval();
                (
                    score,
                    elo_from_score(clamp(low)),
                    elo_from_score(clamp(high)),
                )
            }
            SprtModel::Trinomial => {
                let (w, d, l) = (sprt.wins as f64, sprt.draws as f64, sprt.losses as f64);
                let games = w + d + l;
                let score = (w + d / 2.0) / games.max(1.0);
                let (_, low, high) = elo_interval(w, d, l);
                let bound = |e: f64| e.clamp(elo_from_score(0.001), elo_from_score(0.999));
                let (low, high) = match unanimous_bounds(score, games) {
                    Some((lo, hi)) => (elo_from_score(clamp(lo)), elo_from_score(clamp(hi))),
                    None => (bound(low), bound(high)),
                };
                (score, low, high)
            }
        };
        MatchElo {
            score,
            elo: elo_from_score(clamp(score)),
            low,
            high,
        }
    }

    /// The standard error of the Elo, from its interval.
    pub fn se(&self) -> f64 {
        (self.high - self.low) / (2.0 * Z95)
    }
}

/// The Wilson score bounds of `n` observations that all scored `score`
/// when it is 0 or 1 (a match without observed variance); `None` otherwise.
fn unanimous_bounds(score: f64, n: f64) -> Option<(f64, f64)> {
    (n > 0.0 && (score == 0.0 || score == 1.0)).then(|| wilson_interval(score * n, n, Z95))
}

/// An Elo against generation 0, chained through the promotion matches:
/// the best agent's Elo plus a match's, their standard errors added in
/// quadrature.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Chain {
    /// Elo against generation 0.
    pub elo: f64,
    /// Its standard error.
    pub se: f64,
}

impl Chain {
    /// The Elo of a candidate that scored `m` against the agent at `self`.
    pub fn then(self, m: &MatchElo) -> Chain {
        Chain {
            elo: self.elo + m.elo,
            se: (self.se * self.se + m.se() * m.se()).sqrt(),
        }
    }

    /// The low end of its 95% interval.
    pub fn low(&self) -> f64 {
        self.elo - Z95 * self.se
    }

    /// The high end of its 95% interval.
    pub fn high(&self) -> f64 {
        self.elo + Z95 * self.se
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_naming_the_same_files_are_the_same_agent() {
        let here = std::env::current_dir().unwrap();
        let file = here.join("Cargo.toml");
        let (abs, rel) = (file.display().to_string(), "Cargo.toml");
        assert!(same_spec(
            &format!("az:iterations=8,net={abs}"),
            &format!("az:iterations=8,net={rel}")
        ));
        assert!(same_spec("greedy", "greedy"));
        assert!(!same_spec(
            &format!("az:iterations=8,net={abs}"),
            &format!("az:iterations=9,net={rel}")
        ));
        assert!(!same_spec("az:net=no/such/a", "az:net=no/such/b"));
    }

    use crate::stats::{Pentanomial, SprtDecision};

    fn result(
        model: SprtModel,
        pairs: [u64; 5],
        (wins, draws, losses): (u64, u64, u64),
    ) -> SprtResult {
        SprtResult {
            decision: SprtDecision::AcceptH1,
            model,
            llr: 3.0,
            lower: -2.94,
            upper: 2.94,
            games: wins + draws + losses,
            wins,
            draws,
            losses,
            pentanomial: Pentanomial(pairs),
            trace: Vec::new(),
            trace_every: 1,
        }
    }

    #[test]
    fn a_match_won_in_every_pair_keeps_an_interval_as_wide_as_its_few_pairs() {
        let m = MatchElo::of(&result(
            SprtModel::Pentanomial,
            [0, 0, 0, 0, 15],
            (30, 0, 0),
        ));
        assert_eq!(m.score, 1.0);
        // Agresti–Coull's low end for 15 of 15: 0.7614 → +201.6 Elo.
        assert!((m.low - 201.6).abs() < 0.5, "{m:?}");
        assert_eq!(m.high, elo_from_score(0.999));
        assert!(m.se() > 100.0);
        let lost = MatchElo::of(&result(
            SprtModel::Pentanomial,
            [15, 0, 0, 0, 0],
            (0, 0, 30),
        ));
        assert!((lost.high + 201.6).abs() < 0.5, "{lost:?}");
        let games = MatchElo::of(&result(SprtModel::Trinomial, [0; 5], (30, 0, 0)));
        // Wilson's low end for 30 of 30: 0.8865 → +357.1 Elo.
        assert!((games.low - 357.1).abs() < 0.5, "{games:?}");
    }

    #[test]
    fn a_mixed_match_keeps_its_observed_interval() {
        let counts = [10, 20, 30, 20, 10];
        let m = MatchElo::of(&result(SprtModel::Pentanomial, counts, (90, 0, 90)));
        let (_, low, high) = Pentanomial(counts).interval();
        assert_eq!((m.low, m.high), (elo_from_score(low), elo_from_score(high)));
        // Every pair split: little doubt about ½ (±0.044 in score, ±31 Elo),
        // far less than 80 independent games would leave (±0.11).
        let split = MatchElo::of(&result(
            SprtModel::Pentanomial,
            [0, 0, 40, 0, 0],
            (40, 0, 40),
        ));
        assert_eq!(split.elo, 0.0);
        assert!((split.low + 30.5).abs() < 0.5, "{split:?}");
        assert!((split.high + split.low).abs() < 1e-9, "{split:?}");
    }
}
