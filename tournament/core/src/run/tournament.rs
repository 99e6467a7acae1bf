//! Running a tournament: create (or reopen) its folder, play the games
//! not yet played, write them in order, then the summaries and run.json.
//!
//! Resuming: games.csv (and records.jsonl) hold a prefix of the run's
//! games in order. On `--resume` the complete games of that prefix are
//! kept (a partial last line or a game missing some seats is dropped),
//! the files are rewritten with exactly those games, and play continues
//! with the next game, so the folder ends as an uninterrupted run's would.

use crate::results::meta;
use crate::results::output::{write_run_info, write_summaries, GamesWriter};
use crate::results::schema::{
    GameRow, Plan, RunInfo, RunStatus, Settings, SummaryRow, DECK_KEY_FILE, RUN_FORMAT, RUN_JSON,
};
use crate::results::summary::{
    all_forfeited, forfeit_lines, forfeits_of, games, summarize, table, AgentForfeits, Tally,
};
use crate::run::agent_list::labels;
use crate::run::config::{Folder, TournamentConfig};
use crate::run::lock::{lock_new_folder, FolderLock};
pub use crate::run::resume::load_games;
use crate::run::runner::{AgentFactory, Flow, Runner};
use crate::run::schedule::{GameIndices, Schedule};
use crate::run::sprt_run::SprtRun;
use files::error::{Error, Result};
use protocol::secret::Secret;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Instant, SystemTime};

/// What a finished (or stopped) run reports.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// The results folder.
    pub dir: PathBuf,
    /// The run.json written.
    pub info: RunInfo,
    /// The summary rows (empty when stopped by the test hook).
    pub summary: Vec<SummaryRow>,
    /// Who forfeited, how often and why ([`forfeits_of`]).
    pub forfeits: Vec<AgentForfeits>,
    /// The HTML report, when the command wrote one after the run (the
    /// run itself draws no pictures).
    pub report: Option<PathBuf>,
}

impl RunReport {
    /// The lines printed at the end of a run.
    pub fn text(&self) -> String {
        let mut out = String::new();
        if !self.summary.is_empty() {
            out.push_str(&table(&self.summary));
        }
        out.push_str(&forfeit_lines(&self.forfeits));
        if let Some(s) = &self.info.sprt {
            out.push_str(&format!(
                "SPRT: {} after {} games (LLR {:.3}, bounds [{:.3}, {:.3}], W/D/L {}/{}/{}, pairs {:?})\n",
                s.decision, s.games, s.llr, s.lower, s.upper, s.wins, s.draws, s.losses, s.pentanomial.0
            ));
        }
        let rate = match self.info.elapsed_s {
            Some(t) if t > 0.0 => format!(" in {t:.1} s"),
            _ => String::new(),
        };
        out.push_str(&format!(
            "{} of {} games{rate}, status {}; results in {}\n",
            self.info.games_finished,
            self.info.plan.games_planned,
            self.info.status,
            self.dir.display()
        ));
        if let Some(report) = &self.report {
            out.push_str(&format!("the report: {}\n", report.display()));
        }
        if self.info.status == RunStatus::Interrupted {
            let command = self.info.settings.kind.command();
            out.push_str(&format!(
                "continue it with: {} {command} --resume {}\n",
                crate::results::meta::program(),
                self.dir.display()
            ));
        }
        out
    }

    /// One line when some agent forfeited every game it played (the
    /// command then exits with [`ALL_FORFEITED_EXIT_CODE`]).
    pub fn all_forfeited(&self) -> Option<String> {
        all_forfeited(&self.forfeits)
    }
}

/// The exit code of a run (or merge) whose results are written but in
/// which some agent forfeited every game it played.
pub const ALL_FORFEITED_EXIT_CODE: u8 = 3;

/// The schedule and agent labels of `settings`.
pub fn schedule_of(settings: &Settings) -> (Schedule, Vec<String>) {
    let labels = labels(&settings.agents);
    let schedule = if settings.kind.is_selfplay() {
        Schedule::selfplay(
            settings.players,
            settings.games_per_pairing,
            settings.seed,
            settings.shard,
        )
    } else {
        Schedule::new(
            labels.len(),
            settings.players,
            settings.games_per_pairing,
            settings.seed,
            settings.shard,
        )
    };
    (schedule, labels)
}

/// The plan written to run.json.
pub fn plan(schedule: &Schedule, labels: &[String]) -> Plan {
    Plan {
        agents: labels.to_vec(),
        pairings: schedule
            .pairings
            .iter()
            .map(|p| p.iter().map(|&a| labels[a].clone()).collect())
            .collect(),
        games_per_pairing: schedule.games_per_pairing(),
        decks_per_pairing: schedule.decks,
        games_total: schedule.total_games(),
        games_planned: schedule.planned_games(),
        game_order: "game g: rotation = g % players, pairing = (g / players) % pairings, \
                     deck = g / (players * pairings); seat s holds pairing member \
                     (s + rotation) % players"
            .to_string(),
        seeds: "splitmix64 chain h = sm(seed ^ tag), h = sm(h ^ word): \
                deck_seed = mix(seed, 0x4445434B, [deck]), \
                agent seed of seat s in game g = mix(seed, 0x41474E54, [g, s])"
            .to_string(),
    }
}

/// How the seeds of `settings` are derived (run.json's `plan.seeds`).
fn seeds_text(settings: &Settings) -> String {
    let decks = if settings.secret_decks {
        "deck_seed = first 8 bytes (little-endian) of HMAC-SHA256(deck_key, \
         \"carcassonne-deck-seed/1\" || deck as u64 LE), deck_key: 32 bytes from the \
         operating system, in run.json's deck_key once the run ends"
    } else {
        "deck_seed = mix(seed, 0x4445434B, [deck])"
    };
    format!(
        "splitmix64 chain h = sm(seed ^ tag), h = sm(h ^ word): {decks}, \
         agent seed of seat s in game g = mix(seed, 0x41474E54, [g, s]); \
         an external bot is sent first 8 bytes (LE) of HMAC-SHA256(bot_key, \
         \"carcassonne-bot-seed/1\" || agent seed as u64 LE), \
         bot_key = HMAC-SHA256(\"carcassonne-bot-key/1\", seed as u64 LE)"
    )
}

/// A fresh run.json for `settings`.
pub fn new_run_info(settings: &Settings, threads: usize) -> RunInfo {
    let (schedule, labels) = schedule_of(settings);
    let mut plan = plan(&schedule, &labels);
    plan.seeds = seeds_text(settings);
    RunInfo {
        format: RUN_FORMAT.to_string(),
        settings: settings.clone(),
        plan,
        status: RunStatus::Running,
        games_finished: 0,
        code_revision: meta::code_revision(),
        versions: meta::versions(),
        command: std::env::args().collect(),
        threads,
        start_time: meta::rfc3339(SystemTime::now()),
        end_time: None,
        resumed_at: Vec::new(),
        elapsed_s: None,
        sprt: None,
        deck_key: None,
        merged_from: Vec::new(),
    }
}

/// Keep a new `--secret-decks` key in `dir`'s private [`DECK_KEY_FILE`]
/// (readable by its owner only; written whole, then renamed), so that
/// `--resume` deals the same decks.
fn keep_deck_key(dir: &Path, key: &Secret) -> Result<()> {
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let path = dir.join(DECK_KEY_FILE);
    let tmp = dir.join(format!("{DECK_KEY_FILE}.tmp"));
    let _ = std::fs::remove_file(&tmp);
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .and_then(|mut f| {
            f.write_all(format!("{}\n", key.to_hex()).as_bytes())?;
            f.sync_all()
        })
        .and_then(|()| std::fs::rename(&tmp, &path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io("write", &path, e)
    })
}

/// The deck key of the `--secret-decks` run in `dir`: its private file
/// while the run lasts, run.json's `deck_key` once it has ended.
fn read_deck_key(dir: &Path, info: &RunInfo) -> Result<Secret> {
    let path = dir.join(DECK_KEY_FILE);
    let (text, from) = match std::fs::read_to_string(&path) {
        Ok(text) => (text, path.display().to_string()),
        Err(e) => match &info.deck_key {
            Some(key) => (key.clone(), format!("{}: deck_key", dir.join(RUN_JSON).display())),
            None => {
                return Err(Error::Folder(format!(
                    "{}: the deck key of this --secret-decks run is lost ({e}); its decks cannot be dealt again",
                    path.display()
                )))
            }
        },
    };
    Secret::from_hex(&text).map_err(|e| Error::Folder(format!("{from}: {e}")))
}

/// The metadata of a self-play run's example shards: what they were
/// played under and by (`train-net` reads `rules` for the network's
/// `fitted_on`). `rules` names every option, the standard ones included
/// (`farmers=true,gifts=false,…`), never the empty string.
#[cfg(feature = "neural")]
fn examples_metadata(settings: &Settings) -> std::collections::HashMap<String, String> {
    let mut out = std::collections::HashMap::new();
    out.insert("rules".to_string(), settings.rules.explicit());
    out.insert("players".to_string(), settings.players.to_string());
    out.insert("agent".to_string(), settings.agents.join(" "));
    out.insert("seed".to_string(), settings.seed.to_string());
    out.insert("revision".to_string(), meta::code_revision());
    out
}

/// Run (or resume) the tournament of `config`. After an interrupt
/// ([`crate::run::interrupt`]) the games already complete are written, with
/// summaries of them, and run.json says `interrupted`.
pub fn run(config: &TournamentConfig) -> Result<RunReport> {
    run_with(config, None, crate::run::interrupt::flag())
}

/// What a run tells as it goes: the command line shows a progress bar,
/// a library caller nothing (`()`).
pub trait Watch {
    /// The run starts: `total` games planned, `done` of them already
    /// played (a resumed run).
    fn start(&self, total: u64, done: u64);
    /// One more game finished; `tally` holds the results so far.
    fn game_done(&self, tally: &Tally);
    /// The run ended (or stopped).
    fn finish(&self);
}

/// Nothing to tell.
impl Watch for () {
    fn start(&self, _: u64, _: u64) {}
    fn game_done(&self, _: &Tally) {}
    fn finish(&self) {}
}

/// Run (or resume) the tournament of `config`, building agents with
/// `make_agent` for the specs its plan leaves to the embedding
/// ([`crate::run::roster::AgentPlan::with_custom`]; the others as [`run`]
/// does: built-in agents and external bots). Setting
/// `cancel` has the effect of an interrupt for this run only (an
/// embedding's own Ctrl-C, e.g. Python's KeyboardInterrupt).
pub fn run_with(
    config: &TournamentConfig,
    make_agent: Option<&AgentFactory<'_>>,
    cancel: &AtomicBool,
) -> Result<RunReport> {
    run_watched(config, make_agent, cancel, &())
}

/// [`run_with`], telling `watch` how the run goes.
pub fn run_watched(
    config: &TournamentConfig,
    make_agent: Option<&AgentFactory<'_>>,
    cancel: &AtomicBool,
    watch: &dyn Watch,
) -> Result<RunReport> {
    let started = Instant::now();
    if make_agent.is_none() && config.agents.has_custom() {
        return Err(Error::Internal(
            "the run's plan leaves agents to an embedding's factory, and none was given"
                .to_string(),
        ));
    }
    let prepared = prepare(config)?;
    let played = play(&prepared, config, make_agent, cancel, watch)?;
    finish(prepared, played, started)
}

/// A run ready to play: its folder claimed and locked (until the run's
/// report is made), its schedule, and what a resumed run already holds.
struct Prepared {
    dir: PathBuf,
    _lock: FolderLock,
    info: RunInfo,
    schedule: Schedule,
    labels: Vec<String>,
    /// The key of secret decks (`--secret-decks`).
    deck_key: Option<Secret>,
    /// A resumed run's games, records and positions read back.
    old_rows: Vec<GameRow>,
    old_records: Vec<String>,
    old_positions: Vec<String>,
    resumed: bool,
}

/// The games a run played (with those read back), and how it stopped.
struct Played {
    rows: Vec<GameRow>,
    tally: Tally,
    sprt: Option<SprtRun>,
    /// Stopped by `stop_after` (a test's kill): nothing more is written.
    hook_stopped: bool,
    /// Stopped by an interrupt or `cancel`.
    interrupted: bool,
}

/// Check the folder, take its lock and write (or, resuming, read back)
/// what the run starts from.
fn prepare(config: &TournamentConfig) -> Result<Prepared> {
    let settings = &config.settings;
    let (mut schedule, labels) = schedule_of(settings);
    let deck_key = match (&config.folder, settings.secret_decks) {
        (_, false) => None,
        (Folder::New(_) | Folder::Default(_), true) => {
            Some(Secret::random().map_err(|e| Error::Internal(e.to_string()))?)
        }
        (Folder::Resume(dir, info), true) => Some(read_deck_key(dir, info)?),
    };
    if let Some(key) = &deck_key {
        schedule = schedule.with_deck_key(key.clone());
    }
    let unsuited = config
        .agents
        .unsuited(&settings.agents, &settings.rules, settings.players);
    for warning in unsuited {
        files::stdio::warn(&format!("carcassonne: warning: {warning}"));
    }
    match &config.folder {
        Folder::New(dir) | Folder::Default(dir) => {
            if schedule.games_per_pairing() != settings.games_per_pairing {
                files::stdio::warn(&format!(
                    "carcassonne: note: --games {} rounded up to {} per pairing (whole seat rotations)",
                    settings.games_per_pairing,
                    schedule.games_per_pairing()
                ));
            }
            let (dir, lock) = claim_folder(dir, matches!(config.folder, Folder::Default(_)))?;
            if let Some(key) = &deck_key {
                keep_deck_key(&dir, key)?;
            }
            let info = new_run_info(settings, config.threads);
            write_run_info(&dir, &info)?;
            Ok(Prepared {
                dir,
                _lock: lock,
                info,
                schedule,
                labels,
                deck_key,
                old_rows: Vec::new(),
                old_records: Vec::new(),
                old_positions: Vec::new(),
                resumed: false,
            })
        }
        Folder::Resume(dir, _) => {
            let lock = FolderLock::acquire(dir)?;
            // Read again under the lock: a writer may have ended since.
            let mut info = crate::results::output::read_run_info(dir)?;
            if info.settings != *settings {
                return Err(Error::Folder(format!(
                    "{}: run.json changed while the resume started; try again",
                    dir.display()
                )));
            }
            let (rows, records) = load_games(dir, &info, &schedule, &labels)?;
            let positions = if settings.kind.is_selfplay() {
                crate::learning::positions::load(dir, &rows)?
            } else {
                Vec::new()
            };
            info.resumed_at.push(meta::rfc3339(SystemTime::now()));
            info.threads = config.threads;
            info.status = RunStatus::Running;
            info.end_time = None;
            Ok(Prepared {
                dir: dir.clone(),
                _lock: lock,
                info,
                schedule,
                labels,
                deck_key,
                old_rows: rows,
                old_records: records,
                old_positions: positions,
                resumed: true,
            })
        }
    }
}

/// Play the games still to play, each written as it finishes, until the
/// schedule ends, the SPRT decides, `stop_after` or an interrupt.
fn play(
    run: &Prepared,
    config: &TournamentConfig,
    make_agent: Option<&AgentFactory<'_>>,
    cancel: &AtomicBool,
    watch: &dyn Watch,
) -> Result<Played> {
    let settings = &config.settings;
    let (dir, schedule, labels) = (&run.dir, &run.schedule, &run.labels);
    let mut writer = if run.resumed {
        GamesWriter::resume(
            dir,
            &run.old_rows,
            settings.records.then_some(run.old_records.as_slice()),
        )?
    } else {
        GamesWriter::create(dir, settings.records)?
    };
    if settings.kind.is_selfplay() {
        let kept = run.resumed.then_some(run.old_positions.as_slice());
        writer = writer.with_positions(dir, kept)?;
    }
    let mut rows: Vec<GameRow> = Vec::new();
    let mut tally = Tally::new(labels);
    let mut sprt = settings.sprt.map(|s| SprtRun::new(s, schedule, labels));
    let after_game = |sprt: &mut Option<SprtRun>, game: &[GameRow]| {
        sprt.as_mut().is_some_and(|s| s.after_game(schedule, game))
    };
    for game in games(&run.old_rows) {
        tally.add_game(game);
        rows.extend_from_slice(game);
        after_game(&mut sprt, game);
    }
    let done = tally.games;
    let remaining = if decided(&sprt) {
        GameIndices::new(0, 1, 0)
    } else {
        schedule.planned().skip(done)
    };

    watch.start(schedule.planned_games(), done);
    let mut written = 0u64;
    let mut hook_stopped = false;
    let log_dir = Some(dir.join(crate::run::roster::BOT_LOGS));
    let bot_key = Secret::bot_key(settings.seed);
    let roster = config.agents.roster(log_dir, bot_key.clone());
    let runner = Runner {
        schedule,
        roster: &roster,
        labels,
        rules: settings.rules,
        records: settings.records,
        positions: settings.kind.is_selfplay(),
        make_agent,
        cancel,
        keyed_agent_seeds: config.keyed_agent_seeds.then_some(&bot_key),
    };
    #[cfg(feature = "neural")]
    let example_meta = examples_metadata(settings);
    let played = runner.run(remaining, config.threads, |finished| {
        #[cfg(feature = "neural")]
        if let Some(data) = finished.examples.as_ref().filter(|d| !d.is_empty()) {
            crate::learning::examples::write(dir, finished.index, data, example_meta.clone())
                .map_err(|e| Error::Invalid(e.to_string()))?;
        }
        if let Some(lines) = &finished.positions {
            writer.append_positions(lines)?;
        }
        writer.append(&finished.rows, finished.record.as_deref())?;
        tally.add_game(&finished.rows);
        watch.game_done(&tally);
        written += 1;
        let decided = after_game(&mut sprt, &finished.rows);
        rows.extend(finished.rows);
        if config.stop_after.is_some_and(|k| written >= k) {
            hook_stopped = true;
            return Ok(Flow::Stop);
        }
        Ok(if decided { Flow::Stop } else { Flow::Continue })
    });
    watch.finish();
    roster.shutdown();
    played?;
    drop(writer);
    Ok(Played {
        rows,
        tally,
        sprt,
        hook_stopped,
        interrupted: runner.interrupted(),
    })
}

/// Whether the run's SPRT (if any) has decided.
fn decided(sprt: &Option<SprtRun>) -> bool {
    sprt.as_ref().is_some_and(SprtRun::decided)
}

/// Write the summaries and run.json of what was played (nothing more
/// after `stop_after`), tell the deck key once every deck is dealt, and
/// say how the run ended.
fn finish(run: Prepared, played: Played, started: Instant) -> Result<RunReport> {
    let Prepared {
        dir,
        mut info,
        schedule,
        labels,
        deck_key,
        ..
    } = run;
    let Played {
        rows,
        tally,
        mut sprt,
        hook_stopped,
        interrupted,
    } = played;
    info.games_finished = tally.games;
    info.elapsed_s = Some((started.elapsed().as_secs_f64() * 1000.0).round() / 1000.0);
    if hook_stopped {
        // As if killed: no summaries, run.json left as it was.
        return Ok(RunReport {
            dir,
            info,
            summary: Vec::new(),
            forfeits: Vec::new(),
            report: None,
        });
    }
    let (summary, pairwise) = summarize(&labels, &rows);
    write_summaries(&dir, &summary, &pairwise)?;
    info.status = if decided(&sprt) {
        RunStatus::Sprt
    } else if tally.games < schedule.planned_games() && interrupted {
        RunStatus::Interrupted
    } else {
        RunStatus::Finished
    };
    info.sprt = sprt.as_mut().map(SprtRun::result);
    if info.status != RunStatus::Interrupted {
        info.end_time = Some(meta::rfc3339(SystemTime::now()));
        // The decks are all dealt: the key may be told.
        info.deck_key = deck_key.as_ref().map(Secret::to_hex);
    }
    write_run_info(&dir, &info)?;
    if info.deck_key.is_some() {
        let path = dir.join(DECK_KEY_FILE);
        std::fs::remove_file(&path)
            .or_else(|e| match e.kind() {
                std::io::ErrorKind::NotFound => Ok(()),
                _ => Err(e),
            })
            .map_err(|e| Error::io("remove", &path, e))?;
    }
    let forfeits = forfeits_of(&labels, &rows);
    Ok(RunReport {
        dir,
        info,
        summary,
        forfeits,
        report: None,
    })
}

/// Create (or take, when it exists and is empty) the folder `dir` of a
/// new run and lock it. The default folder (`default`) is created with
/// `mkdir`, which only one process can win: a run that loses it takes the
/// next free name, `-2`, `-3`, ….
///
/// # Errors
/// It cannot be created, another process holds it, or it is not empty.
pub fn claim_folder(dir: &Path, default: bool) -> Result<(PathBuf, FolderLock)> {
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| Error::io("create", parent, e))?;
    }
    let mut candidate = dir.to_path_buf();
    let mut n = 2;
    loop {
        match std::fs::create_dir(&candidate) {
            Ok(()) => break,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && default => {
                candidate = crate::run::config::numbered(dir, n);
                n += 1;
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => break,
            Err(e) => return Err(Error::io("create", &candidate, e)),
        }
    }
    let lock = lock_new_folder(&candidate, "--out")?;
    Ok((candidate, lock))
}
