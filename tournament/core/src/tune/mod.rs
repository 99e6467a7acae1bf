//! SPSA parameter tuning (`carcassonne tune`): move the numeric
//! parameters of one agent spec towards more wins, fishtest-style.
//!
//! - [`gains`]: the gain schedule `a_k`, `c_k` and its constants;
//! - [`space`]: `--param NAME=LO..HI`, checked against the agent's
//!   parameter declarations, and the spec strings of the values played;
//! - [`spsa`]: the algorithm alone (θ, the perturbations, the update);
//! - [`play`]: one iteration measured with games (the run core's paired
//!   decks and seat rotation);
//! - [`trace`]: `tuning.csv`, one row per iteration;
//! - this module: a tuning run in its folder ([`TuneConfig`], [`run`]),
//!   resumable after a kill.
//!
//! **Reproducible.** Everything an iteration plays derives from the seed
//! and the iteration number: its perturbation signs ([`spsa::flip`]),
//! its decks and agent seeds (`mix(seed, "TUNE", [k])` as the seed of a
//! tournament schedule). Games are handed back in order, so the trace is
//! the same for any thread count, and a run resumed after a kill ends as
//! the uninterrupted run would: the rows kept are replayed through the
//! algorithm and checked against the file, then play continues.
//!
//! **Not shardable.** Each iteration starts from the θ the previous one
//! left: the iterations are a chain, and only the games within one can
//! be spread (over `--threads`).

pub mod gains;
pub mod play;
pub mod space;
pub mod spsa;
pub mod trace;

use crate::results::meta;
use crate::results::schema::SprtSettings;
use crate::run::lock::FolderLock;
use crate::seeds::mix;
use engine::Rules;
use files::error::{Error, Result};
use gains::Gains;
use play::Iteration;
use serde::{Deserialize, Serialize};
use space::{ParamRange, Space};
use spsa::Spsa;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::SystemTime;
use trace::{Row, TraceWriter};

/// The settings file of a tuning folder.
pub const TUNE_JSON: &str = "tune.json";
/// The format written to tune.json.
pub const TUNE_FORMAT: &str = "carcassonne-tune/1";
/// Most iterations of one run.
pub const MAX_ITERATIONS: u64 = 10_000_000;
/// Most games per iteration (per side).
pub const MAX_GAMES_PER_ITERATION: u64 = 1_000_000;
/// Domain tag of the iterations' schedule seeds ("TUNE").
const TUNE_TAG: u64 = 0x5455_4E45;

/// Everything that determines a tuning run's trace (tune.json's
/// `settings`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneSettings {
    /// The starting spec.
    pub spec: String,
    /// The tuned parameters and their ranges.
    pub params: Vec<ParamRange>,
    /// The fixed opponent of both `θ±`; `None`: they play each other.
    pub against: Option<String>,
    /// Iterations.
    pub iterations: u64,
    /// Games per side per iteration, as requested (played: rounded up
    /// to pairs).
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// The rules of every game.
    pub rules: Rules,
    /// The gain schedule.
    pub gains: Gains,
    /// The final check of the tuned spec against the starting spec;
    /// `None`: none.
    pub sprt: Option<SprtSettings>,
    /// Most games of that check.
    pub sprt_games: u64,
}

impl TuneSettings {
    /// The seed of iteration `k`'s schedule: `mix(seed, "TUNE", [k])`.
    pub fn iteration_seed(&self, k: u64) -> u64 {
        mix(self.seed, TUNE_TAG, &[k])
    }

    /// Games per side actually played in an iteration (whole pairs).
    pub fn games_played(&self) -> u64 {
        self.games.div_ceil(2) * 2
    }

    /// Check everything but the folder, and make the space of the
    /// parameters.
    ///
    /// # Errors
    /// One line saying what is wrong.
    pub fn validate(&self) -> Result<Space> {
        let invalid = |s: String| Error::Invalid(s);
        let space = Space::new(&self.spec, &self.params).map_err(invalid)?;
        if self.iterations == 0 || self.iterations > MAX_ITERATIONS {
            return Err(invalid(format!(
                "--iterations must be 1 to {MAX_ITERATIONS}, not {}",
                self.iterations
            )));
        }
        if self.games == 0 || self.games > MAX_GAMES_PER_ITERATION {
            return Err(invalid(format!(
                "--games must be 1 to {MAX_GAMES_PER_ITERATION}, not {}",
                self.games
            )));
        }
        self.gains.validate().map_err(invalid)?;
        if self.sprt.is_some() && self.sprt_games == 0 {
            return Err(invalid("--sprt-games must be at least 1".to_string()));
        }
        self.rules
            .validate()
            .map_err(|e| invalid(format!("--rules: {e}")))?;
        // Every spec the run can play builds: the start, the lowest and
        // the highest values, and the opponent.
        let mut specs = vec![self.spec.clone()];
        for x in [0.0, 1.0] {
            let values: Vec<f64> = space.dims.iter().map(|d| d.played(x)).collect();
            specs.push(space.spec_with(&values));
        }
        for spec in &specs {
            agents::Factory::new(spec).map_err(|e| invalid(format!("{spec}: {e}")))?;
        }
        if let Some(against) = &self.against {
            crate::run::roster::check_spec(against)
                .map_err(|e| invalid(format!("--against: {e}")))?;
        }
        Ok(space)
    }
}

/// How a tuning run stands (tune.json's `status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TuneStatus {
    /// Playing, or killed while it was.
    Running,
    /// Stopped by Ctrl-C; `--resume` continues it.
    Interrupted,
    /// Every iteration played.
    Finished,
}

/// tune.json: the settings, the provenance and how the run stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneInfo {
    /// Always [`TUNE_FORMAT`].
    pub format: String,
    /// Everything that determines the trace.
    pub settings: TuneSettings,
    /// See [`TuneStatus`].
    pub status: TuneStatus,
    /// Iterations written to tuning.csv.
    pub iterations_done: u64,
    /// The starting spec with every tuned parameter at its start.
    pub start_spec: String,
    /// The spec of the last θ (rounded as played), once finished or
    /// interrupted.
    pub tuned_spec: Option<String>,
    /// The last θ per parameter, real, in the parameters' units.
    pub tuned_theta: Option<Vec<f64>>,
    /// The git commit of the source tree, or "unknown".
    pub code_revision: String,
    /// The command line that started the run.
    pub command: Vec<String>,
    /// Worker threads of the last invocation.
    pub threads: usize,
    /// UTC start time (RFC 3339).
    pub start_time: String,
    /// UTC end time, once finished.
    pub end_time: Option<String>,
    /// UTC times at which the run was resumed.
    #[serde(default)]
    pub resumed_at: Vec<String>,
}

/// Where a tuning run writes.
#[derive(Clone, Debug)]
pub enum TuneFolder {
    /// A new folder (absent or empty).
    New(PathBuf),
    /// A folder to continue.
    Resume(PathBuf),
}

/// A checked tuning run.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// What to play.
    pub settings: TuneSettings,
    /// The parameters, checked.
    pub space: Space,
    /// Where.
    pub folder: TuneFolder,
    /// Worker threads.
    pub threads: usize,
    /// Test hook: stop after writing this many iterations, as if killed.
    pub stop_after: Option<u64>,
}

impl TuneConfig {
    /// The run of `settings` (checked) in `folder` on `threads` threads.
    ///
    /// # Errors
    /// As [`TuneSettings::validate`]; a new folder that exists and is
    /// not empty.
    pub fn new(settings: TuneSettings, folder: TuneFolder, threads: usize) -> Result<TuneConfig> {
        let space = settings.validate()?;
        if let TuneFolder::New(dir) = &folder {
            crate::run::config::check_new_folder(dir, "--out")?;
        }
        Ok(TuneConfig {
            settings,
            space,
            folder,
            threads,
            stop_after: None,
        })
    }
}

/// Read tune.json of `dir`.
///
/// # Errors
/// It is missing or not a tuning run's.
pub fn read_info(dir: &Path) -> Result<TuneInfo> {
    let path = dir.join(TUNE_JSON);
    let text = std::fs::read_to_string(&path).map_err(|_| {
        Error::Folder(format!(
            "{} is not a tuning folder (no readable {TUNE_JSON})",
            dir.display()
        ))
    })?;
    let info: TuneInfo = serde_json::from_str(&text).map_err(|e| {
        Error::Folder(format!(
            "{} is not a tuning folder (bad {TUNE_JSON}: {e})",
            dir.display()
        ))
    })?;
    if info.format != TUNE_FORMAT {
        return Err(Error::Folder(format!(
            "{}: {TUNE_JSON} is format {:?}, not {TUNE_FORMAT:?}",
            dir.display(),
            info.format
        )));
    }
    Ok(info)
}

fn write_info(dir: &Path, info: &TuneInfo) -> Result<()> {
    let mut text = serde_json::to_string_pretty(info)
        .map_err(|e| Error::Internal(format!("{TUNE_JSON}: {e}")))?;
    text.push('\n');
    files::atomic::write_atomic(&dir.join(TUNE_JSON), text.as_bytes())
}

/// What a tuning run reports.
#[derive(Clone, Debug)]
pub struct TuneReport {
    /// The folder.
    pub dir: PathBuf,
    /// tune.json as written last.
    pub info: TuneInfo,
    /// Every iteration's row.
    pub rows: Vec<Row>,
    /// The names of the parameters.
    pub names: Vec<String>,
    /// Stopped by the test hook (`stop_after`): nothing more was written.
    pub hook_stopped: bool,
}

/// What the loop tells as it goes.
pub trait TuneWatch {
    /// An iteration ended with `row`, of `total`.
    fn iteration(&self, row: &Row, total: u64);
}

impl TuneWatch for () {
    fn iteration(&self, _: &Row, _: u64) {}
}

/// The algorithm's state after replaying `rows` (checked against what
/// the settings give: the θ, the values played and the specs).
fn replay(config: &TuneConfig, rows: &[Row], path: &Path) -> Result<Spsa> {
    let mut spsa = Spsa::new(
        config.space.start_units(),
        config.settings.gains,
        config.settings.seed,
    );
    for (k, row) in rows.iter().enumerate() {
        let expected = make_row(config, &spsa, k as u64, None);
        let same = row.iteration == expected.iteration
            && row.theta == expected.theta
            && row.plus_spec == expected.plus_spec
            && row.minus_spec == expected.minus_spec
            && row.games == expected.games
            && row.a_k == expected.a_k
            && row.c_k == expected.c_k;
        if !same {
            return Err(Error::Folder(format!(
                "{}: iteration {k} is not what the settings of {TUNE_JSON} give (θ {:?}, expected {:?}); the file was edited or written by other code",
                path.display(),
                row.theta,
                expected.theta
            )));
        }
        let probe = spsa.probe(k as u64);
        spsa.update(&probe, row.result);
    }
    Ok(spsa)
}

/// The row of iteration `k` from the state `spsa`, with what the games
/// measured (zeros when `None`).
fn make_row(config: &TuneConfig, spsa: &Spsa, k: u64, measured: Option<play::Measured>) -> Row {
    let dims = &config.space.dims;
    let probe = spsa.probe(k);
    let plus: Vec<f64> = dims
        .iter()
        .zip(&probe.plus)
        .map(|(d, &x)| d.played(x))
        .collect();
    let minus: Vec<f64> = dims
        .iter()
        .zip(&probe.minus)
        .map(|(d, &x)| d.played(x))
        .collect();
    let m = measured.unwrap_or(play::Measured {
        games: config.settings.games_played(),
        plus_score: 0.0,
        minus_score: 0.0,
        result: 0.0,
    });
    Row {
        iteration: k,
        a_k: spsa.gains.a_k(k),
        c_k: spsa.gains.c_k(k),
        theta: dims
            .iter()
            .zip(&spsa.theta)
            .map(|(d, &x)| d.value(x))
            .collect(),
        plus_spec: config.space.spec_with(&plus),
        minus_spec: config.space.spec_with(&minus),
        plus,
        minus,
        games: m.games,
        plus_score: m.plus_score,
        minus_score: m.minus_score,
        result: m.result,
    }
}

/// The spec of θ in unit coordinates `theta`, rounded as played.
fn spec_of(space: &Space, theta: &[f64]) -> String {
    let values: Vec<f64> = space
        .dims
        .iter()
        .zip(theta)
        .map(|(d, &x)| d.played(x))
        .collect();
    space.spec_with(&values)
}

/// Run (or resume) the tuning run of `config`: play every iteration not
/// yet in tuning.csv, appending each row as it ends, then write the
/// tuned spec to tune.json. `cancel` (Ctrl-C) stops it between games:
/// the iteration under way is dropped and tune.json says `interrupted`.
///
/// # Errors
/// The folder cannot be claimed or written, a resumed folder is not this
/// run's, or a game cannot be played.
pub fn run(config: &TuneConfig, cancel: &AtomicBool, watch: &dyn TuneWatch) -> Result<TuneReport> {
    let settings = &config.settings;
    let names: Vec<String> = config.space.dims.iter().map(|d| d.name.clone()).collect();
    let start_spec = spec_of(&config.space, &config.space.start_units());
    let (dir, _lock, mut info, mut rows): (PathBuf, FolderLock, TuneInfo, Vec<Row>) =
        match &config.folder {
            TuneFolder::New(dir) => {
                let (dir, lock) = crate::run::tournament::claim_folder(dir, false)?;
                let info = TuneInfo {
                    format: TUNE_FORMAT.to_string(),
                    settings: settings.clone(),
                    status: TuneStatus::Running,
                    iterations_done: 0,
                    start_spec: start_spec.clone(),
                    tuned_spec: None,
                    tuned_theta: None,
                    code_revision: meta::code_revision(),
                    command: std::env::args().collect(),
                    threads: config.threads,
                    start_time: meta::rfc3339(SystemTime::now()),
                    end_time: None,
                    resumed_at: Vec::new(),
                };
                write_info(&dir, &info)?;
                (dir, lock, info, Vec::new())
            }
            TuneFolder::Resume(dir) => {
                let lock = FolderLock::acquire(dir)?;
                let mut info = read_info(dir)?;
                if info.settings != *settings {
                    return Err(Error::Folder(format!(
                        "{}: {TUNE_JSON} changed while the resume started; try again",
                        dir.display()
                    )));
                }
                let mut rows = trace::read(dir, &names)?;
                rows.truncate(settings.iterations as usize);
                info.resumed_at.push(meta::rfc3339(SystemTime::now()));
                info.threads = config.threads;
                info.status = TuneStatus::Running;
                write_info(dir, &info)?;
                (dir.clone(), lock, info, rows)
            }
        };
    let mut spsa = replay(config, &rows, &dir.join(trace::TUNING_CSV))?;
    let mut writer = TraceWriter::create(&dir, &names, &rows)?;
    let mut interrupted = false;
    let bot_logs = dir.join(crate::run::roster::BOT_LOGS);
    let first = rows.len() as u64;
    for k in first..settings.iterations {
        let row = make_row(config, &spsa, k, None);
        let iteration = Iteration {
            plus: &row.plus_spec,
            minus: &row.minus_spec,
            against: settings.against.as_deref(),
            games: settings.games_played(),
            seed: settings.iteration_seed(k),
            rules: settings.rules,
            bot_logs: Some(&bot_logs),
        };
        let Some(measured) = iteration.play(config.threads, cancel)? else {
            interrupted = true;
            break;
        };
        let row = make_row(config, &spsa, k, Some(measured));
        writer.append(&row)?;
        let probe = spsa.probe(k);
        spsa.update(&probe, measured.result);
        watch.iteration(&row, settings.iterations);
        rows.push(row);
        if config.stop_after.is_some_and(|n| k + 1 - first >= n) {
            return Ok(TuneReport {
                dir,
                info,
                rows,
                names,
                hook_stopped: true,
            });
        }
    }
    info.iterations_done = rows.len() as u64;
    info.tuned_spec = Some(spec_of(&config.space, &spsa.theta));
    info.tuned_theta = Some(
        config
            .space
            .dims
            .iter()
            .zip(&spsa.theta)
            .map(|(d, &x)| d.value(x))
            .collect(),
    );
    if interrupted {
        info.status = TuneStatus::Interrupted;
    } else {
        info.status = TuneStatus::Finished;
        // A finished run resumed (for its final check) keeps its end.
        if info.end_time.is_none() || first < settings.iterations {
            info.end_time = Some(meta::rfc3339(SystemTime::now()));
        }
    }
    write_info(&dir, &info)?;
    Ok(TuneReport {
        dir,
        info,
        rows,
        names,
        hook_stopped: false,
    })
}
