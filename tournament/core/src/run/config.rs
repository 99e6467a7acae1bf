//! A checked tournament ([`TournamentConfig`]): its settings, its agents
//! parsed once ([`plan_agents`]), its folder, and the checks and limits
//! every caller applies. The command line (`carcassonne`'s `config_args`)
//! and the Python package both build theirs with [`TournamentConfig::new`].
//!
//! Everything is validated before any file or folder is created, so bad
//! input gives one line on stderr and leaves nothing behind.

use crate::results::schema::{RunInfo, RunKind, Settings, SprtSettings, GAMES_CSV};
use crate::run::roster::AgentPlan;
use files::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The agents of the default tournament (`carcassonne` with no arguments,
/// or `tournament` without `--agents`). Specs this build does not know are
/// skipped with a warning.
pub const DEFAULT_AGENTS: &[&str] = &["random", "greedy", "mcts:iterations=500"];
/// Games per pairing when `--games` is not given.
pub const DEFAULT_GAMES: u64 = 150;
/// Seed when `--seed` is not given.
pub const DEFAULT_SEED: u64 = 1;
/// Name when `--name` is not given.
pub const DEFAULT_NAME: &str = "tournament";
/// SPRT error rates (false positive α, false negative β).
pub const SPRT_ALPHA: f64 = 0.05;
/// See [`SPRT_ALPHA`].
pub const SPRT_BETA: f64 = 0.05;

/// Most games one run may plan (all shards): far beyond any real run,
/// and small enough that game indices and seeds never overflow.
pub const MAX_GAMES: u64 = 1 << 40;

/// Most pairings (sets of agents that meet) of one tournament: each is
/// listed in memory and in run.json's plan.
pub const MAX_PAIRINGS: u64 = 100_000;

/// Most worker threads.
pub const MAX_THREADS: usize = 1024;

/// `text` is not `ELO0,ELO1` with finite ELO0 < ELO1 (what `--sprt`
/// takes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SprtTextError;

impl std::fmt::Display for SprtTextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("expected ELO0,ELO1 with ELO0 < ELO1, e.g. 0,10")
    }
}

impl std::error::Error for SprtTextError {}

/// Parse `ELO0,ELO1` into the SPRT of H0: elo ≤ ELO0 against H1: elo ≥
/// ELO1, with the error rates [`SPRT_ALPHA`] and [`SPRT_BETA`].
///
/// # Errors
/// Not two finite numbers, the first below the second.
pub fn parse_sprt(text: &str) -> std::result::Result<SprtSettings, SprtTextError> {
    let (a, b) = text.split_once(',').ok_or(SprtTextError)?;
    let elo0: f64 = a.trim().parse().map_err(|_| SprtTextError)?;
    let elo1: f64 = b.trim().parse().map_err(|_| SprtTextError)?;
    if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
        return Err(SprtTextError);
    }
    Ok(SprtSettings {
        elo0,
        elo1,
        alpha: SPRT_ALPHA,
        beta: SPRT_BETA,
    })
}

/// The rules of a run: `rules` (default: the standard rules), then The
/// Gifts and no farmers on top, validated again (`gifts` may conflict
/// with a variant).
///
/// # Errors
/// The one-line reason the combination is refused (`--rules: …`).
pub fn combine_rules(
    rules: Option<engine::Rules>,
    gifts: bool,
    no_farmers: bool,
) -> Result<engine::Rules> {
    let mut rules = rules.unwrap_or_default();
    rules.gifts |= gifts;
    rules.farmers &= !no_farmers;
    rules
        .validate()
        .map_err(|e| Error::Invalid(format!("--rules: {e}")))?;
    Ok(rules)
}

/// The worker threads of a run: `requested`, or all cores when `None`.
/// The one thread policy of the command line (`--threads`) and Python
/// (`threads=`).
///
/// # Errors
/// 0, or more than [`MAX_THREADS`]: what the value must be (the caller
/// names the option before it).
pub fn worker_threads(requested: Option<usize>) -> std::result::Result<usize, String> {
    match requested {
        Some(0) => Err("must be at least 1".to_string()),
        Some(n) if n > MAX_THREADS => Err(format!("must be at most {MAX_THREADS}, not {n}")),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

impl Settings {
    /// Check settings that came from the command line or from a folder's
    /// `run.json` (which may have been edited): one line says what is
    /// wrong.
    pub fn validate(&self) -> Result<()> {
        if !engine::PLAYERS.contains(&self.players) {
            return Err(Error::Invalid(format!(
                "players must be 2 to 6, not {}",
                self.players
            )));
        }
        match self.kind {
            RunKind::Selfplay if self.agents.len() != 1 => {
                return Err(Error::Invalid(format!(
                    "self-play takes 1 agent, not {}",
                    self.agents.len()
                )));
            }
            RunKind::Tournament if self.agents.len() < 2 => {
                return Err(Error::Invalid(format!(
                    "at least 2 agents, not {}",
                    self.agents.len()
                )));
            }
            _ => {}
        }
        if self.games_per_pairing == 0 {
            return Err(Error::Invalid("games must be at least 1".to_string()));
        }
        // Counted, not listed: many agents in 6-seat games have more
        // pairings than memory holds.
        let pairings = match self.kind {
            RunKind::Selfplay => Some(1),
            RunKind::Tournament => {
                crate::run::schedule::pairing_count(self.agents.len(), self.players)
            }
        };
        let pairings = match pairings {
            Some(n) if n <= MAX_PAIRINGS => n,
            count => {
                let count = count.map_or("too many".to_string(), |n| n.to_string());
                return Err(Error::Invalid(format!(
                    "{} agents in {}-player games make {count} pairings, more than {MAX_PAIRINGS}",
                    self.agents.len(),
                    self.players
                )));
            }
        };
        let total = self
            .games_per_pairing
            .div_ceil(self.players as u64)
            .checked_mul(self.players as u64)
            .and_then(|g| g.checked_mul(pairings))
            .filter(|&t| t <= MAX_GAMES);
        if total.is_none() {
            return Err(Error::Invalid(format!(
                "{} games per pairing × {pairings} pairings is more than {MAX_GAMES} games",
                self.games_per_pairing
            )));
        }
        if let Some(shard) = self.shard {
            if shard.count == 0 || shard.index == 0 || shard.index > shard.count {
                return Err(Error::Invalid(format!(
                    "shard {}/{} is not K/N with 1 <= K <= N",
                    shard.index, shard.count
                )));
            }
        }
        if self.secret_decks && self.shard.is_some() {
            return Err(Error::Invalid(
                "secret decks cannot be sharded (each shard would draw its own key)".to_string(),
            ));
        }
        if self.sprt.is_some()
            && (self.agents.len() != 2 || self.players != 2 || self.kind.is_selfplay())
        {
            return Err(Error::Invalid(
                "--sprt compares exactly 2 agents in 2-player games".to_string(),
            ));
        }
        Ok(())
    }
}

/// Where a run writes.
#[derive(Clone, Debug)]
pub enum Folder {
    /// A new folder, created after validation.
    New(PathBuf),
    /// The default folder `results/<UTC time>-<name>`: created atomically
    /// when the run starts, taking the next free `-2`, `-3`, … if another
    /// run took this name in the meantime.
    Default(PathBuf),
    /// An existing run to continue, with its run.json.
    Resume(PathBuf, Box<RunInfo>),
}

/// A validated run: its settings, its agents parsed once, where it
/// writes. Made by [`TournamentConfig::new`], the one builder the command
/// line and the Python package share.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// What to play.
    pub settings: Settings,
    /// The agents of `settings.agents`, parsed ([`plan_agents`]).
    pub agents: AgentPlan,
    /// Where.
    pub folder: Folder,
    /// Worker threads.
    pub threads: usize,
    /// Test hook: stop after writing this many games.
    pub stop_after: Option<u64>,
    /// Test hook: built-in agents get the seeds bots are sent.
    pub keyed_agent_seeds: bool,
}

impl TournamentConfig {
    /// The run of `settings`, checked ([`Settings::validate`]), with the
    /// agents `agents` planned from `settings.agents`, written to
    /// `folder` on `threads` worker threads (no test hooks).
    ///
    /// # Errors
    /// Invalid settings, or a plan of another number of agents.
    pub fn new(
        settings: Settings,
        agents: AgentPlan,
        folder: Folder,
        threads: usize,
    ) -> Result<TournamentConfig> {
        settings.validate()?;
        if agents.len() != settings.agents.len() {
            return Err(Error::Internal(format!(
                "{} agents planned for {} specs",
                agents.len(),
                settings.agents.len()
            )));
        }
        Ok(TournamentConfig {
            settings,
            agents,
            folder,
            threads,
            stop_after: None,
            keyed_agent_seeds: false,
        })
    }

    /// The interrupted (or finished) run in `dir` to continue on
    /// `threads` worker threads: every setting comes from its run.json,
    /// checked again, and its agents are planned anew.
    ///
    /// # Errors
    /// No run.json, no games.csv (not a tournament folder), settings that
    /// do not validate, or agents that cannot be built.
    pub fn resume(dir: &Path, threads: usize) -> Result<TournamentConfig> {
        let info = crate::results::output::read_run_info(dir)?;
        if !dir.join(GAMES_CSV).is_file() {
            return Err(Error::Invalid(format!(
                "{} is not a tournament folder (no games.csv)",
                dir.display()
            )));
        }
        info.settings
            .validate()
            .map_err(|e| Error::Folder(format!("{}: run.json: {e}", dir.display())))?;
        let kind = info.settings.kind;
        let plan = plan_agents(&info.settings.agents, kind, kind.agents_option(), &|_| {
            false
        })?;
        let settings = info.settings.clone();
        let folder = Folder::Resume(dir.to_path_buf(), Box::new(info));
        TournamentConfig::new(settings, plan, folder, threads)
    }
}

/// Parse the agents of a run of `kind` once: every spec builds an agent
/// ([`AgentPlan::with_custom`]; the specs `custom` accepts are left to the
/// embedding), and a tournament has at least two, self-play exactly one.
/// Errors name the agents as `option` does (the command line's
/// [`RunKind::agents_option`], Python's argument).
pub fn plan_agents(
    specs: &[String],
    kind: RunKind,
    option: &str,
    custom: &dyn Fn(&str) -> bool,
) -> Result<AgentPlan> {
    let plan = AgentPlan::with_custom(specs, custom)
        .map_err(|e| Error::Invalid(format!("{option}: {e}")))?;
    match kind {
        RunKind::Selfplay if specs.len() != 1 => Err(Error::Invalid(format!(
            "{option}: self-play takes one agent spec, got {}",
            specs.len()
        ))),
        RunKind::Tournament if specs.len() < 2 => Err(Error::Invalid(format!(
            "{option}: a tournament needs at least 2 agents, got {}",
            specs.len()
        ))),
        _ => Ok(plan),
    }
}

/// A folder we may create: absent, or an empty directory (a stale lock
/// file aside), and not under a file.
pub fn check_new_folder(dir: &Path, what: &str) -> Result<()> {
    if dir.exists() {
        let empty = crate::run::lock::is_empty_but_lock(dir)
            .map_err(|e| Error::Invalid(format!("{what} {}: {e}", dir.display())))?;
        if !dir.is_dir() || !empty {
            return Err(Error::Invalid(format!(
                "{what} {}: already exists and is not an empty folder",
                dir.display()
            )));
        }
        return Ok(());
    }
    // The nearest existing ancestor must be a folder.
    if let Some(existing) = dir.ancestors().skip(1).find(|a| a.exists()) {
        if !existing.is_dir() {
            return Err(Error::Invalid(format!(
                "{what} {}: cannot create, {} is not a folder",
                dir.display(),
                existing.display()
            )));
        }
        let readonly = std::fs::metadata(existing).is_ok_and(|m| m.permissions().readonly());
        if readonly {
            return Err(Error::Invalid(format!(
                "{what} {}: cannot create, {} is read-only",
                dir.display(),
                existing.display()
            )));
        }
    }
    Ok(())
}

/// The folder that default results folders are made in.
pub const DEFAULT_RESULTS_ROOT: &str = "results";

/// `results/<UTC time>-<name>[-shard-K-of-N]`, numbered if it exists.
pub fn default_folder(settings: &Settings) -> PathBuf {
    let mut base = format!(
        "{}-{}",
        crate::results::meta::compact(std::time::SystemTime::now()),
        settings.name
    );
    if let Some(s) = settings.shard {
        base.push_str(&format!("-shard-{}-of-{}", s.index, s.count));
    }
    let first = Path::new(DEFAULT_RESULTS_ROOT).join(&base);
    let mut dir = first.clone();
    let mut n = 2;
    while dir.exists() {
        dir = numbered(&first, n);
        n += 1;
    }
    dir
}

/// `dir` with `-n` appended to its name (`results/x` → `results/x-2`).
pub fn numbered(dir: &Path, n: u64) -> PathBuf {
    let mut name = dir.file_name().unwrap_or_default().to_os_string();
    name.push(format!("-{n}"));
    dir.with_file_name(name)
}
