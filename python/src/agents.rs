//! Agents from Python: the built-in agents by spec string, Python
//! callables as agents, one game between agents (`play_game`) and
//! tournaments through the same runner as the command line.

use crate::action::Action;
use crate::errors::{guard, illegal, panic_message, EngineError};
use crate::game::Game;
use crate::rules::rules_from;
use crate::view::View;
use ::tournament::{Folder, RunKind, Settings, TournamentConfig};
use agents::history::GameStart;
use agents::{Agent, AgentError, AgentRng, Context, Decision, Lifecycle, SpecError};
use engine::{Action as EngineAction, SeatView};
use files::error::Error as RunError;
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A built-in agent (``random``, ``greedy``, ``mcts:…``) with its own
/// random generator.
#[pyclass(module = "carcassonne", name = "Agent", frozen)]
pub struct BuiltinAgent {
    name: String,
    inner: Mutex<(Box<dyn Agent>, AgentRng)>,
}

impl BuiltinAgent {
    /// Run `think` on the agent, its generator and the view of `view`'s
    /// seat, which must be to play, with the GIL released and a panic
    /// turned into an exception (what `select` and `analyze` share).
    fn think<T: Send>(
        &self,
        py: Python<'_>,
        view: &View,
        think: impl FnOnce(&mut Box<dyn Agent>, &engine::SeatView<'_>, &mut AgentRng) -> PyResult<T>
            + Send,
    ) -> PyResult<T> {
        if !view.seat_view().for_each_action_any() {
            return Err(illegal(format!(
                "seat {} has no decision to make now",
                view.seat_view().seat().index()
            )));
        }
        let state = view.state().clone();
        let seat = view.seat_view().seat();
        py.detach(|| {
            let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            let (agent, rng) = &mut *inner;
            let view = state.view(seat);
            guard(|| think(agent, &view, rng))
        })
    }
}

#[pymethods]
impl BuiltinAgent {
    /// The agent's spec string.
    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// Choose an action for the seat of `view`, which must be to play.
    /// Releases the GIL while the agent thinks.
    fn select(&self, py: Python<'_>, view: PyRef<'_, View>) -> PyResult<Action> {
        let state = view.state().clone();
        let chosen = self.think(py, &view, |agent, view, rng| {
            agent
                .decide(Context::new(view, rng))
                .map(|d| d.action)
                .map_err(|e| EngineError::new_err(e.to_string()))
        })?;
        Ok(Action::new(&state, chosen))
    }

    /// What the agent thinks of the position of `view` (whose seat must
    /// be to play), from that seat's view only: a dict with ``seat``,
    /// ``legal`` (legal actions), ``iterations`` (0 without a search),
    /// ``best`` (the agent's choice) and ``top`` (at most `top` moves,
    /// the choice first, then by visits). A move is a dict: ``action`` in
    /// record notation (as ``str()`` of the matching action of ``view.legal_actions()``), ``place`` (tile,
    /// x, y, rot, meeple) for a placement, ``visits``, ``share`` of the
    /// root's visits, ``prior``, ``value``, ``lead`` (mean lead in points
    /// over the best other seat) and ``win`` (share of the search's
    /// valuations in which the seat led), ``scores`` (each seat's mean
    /// end-now score at those valuations: expected final scores), ``None`` where the agent gives
    /// none (docs/analysis.md). Draws from the agent's generator.
    #[pyo3(signature = (view, top = 5))]
    fn analyze<'py>(
        &self,
        py: Python<'py>,
        view: PyRef<'_, View>,
        top: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let analysis = self.think(py, &view, |agent, view, rng| {
            ::tournament::analysis::analyze_position(agent.as_mut(), view, rng, top, None)
                .map_err(|e| EngineError::new_err(e.to_string()))
        })?;
        let text =
            serde_json::to_string(&analysis).map_err(|e| EngineError::new_err(e.to_string()))?;
        py.import("json")?.call_method1("loads", (text,))
    }

    /// Forget anything kept from an earlier game.
    fn reset(&self) {
        self.inner
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .0
            .reset();
    }

    fn __repr__(&self) -> String {
        format!("Agent({:?})", self.name)
    }
}

/// Whether a view has any action to choose.
trait AnyAction {
    fn for_each_action_any(&self) -> bool;
}

impl AnyAction for SeatView<'_> {
    fn for_each_action_any(&self) -> bool {
        let mut any = false;
        self.for_each_action(|_| any = true);
        any
    }
}

/// The built-in agent of `spec` (e.g. ``"mcts:iterations=2000"``), its
/// random generator seeded with `seed`. An unknown agent or parameter
/// raises ValueError listing the valid ones.
#[pyfunction]
#[pyo3(signature = (spec, seed = 0))]
pub fn agent(spec: &str, seed: u64) -> PyResult<BuiltinAgent> {
    let inner = agents::from_spec(spec).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(BuiltinAgent {
        name: inner.name().to_string(),
        inner: Mutex::new((inner, AgentRng::seed_from_u64(seed))),
    })
}

/// A Python object playing as an agent: a callable taking a ``View``, or
/// an object with a ``select(view)`` method, returning an ``Action``, an
/// action id or a notation string. An exception forfeits the game.
struct PythonAgent {
    name: String,
    object: Py<PyAny>,
    log: Arc<AgentLog>,
    /// The seat and agent seed of the game being played.
    game: Option<(usize, u64)>,
}

/// Where Python agents' tracebacks go: kept in memory (`play_game`
/// returns them) and, in a tournament, appended to `agents.log` in the
/// results folder.
#[derive(Default)]
struct AgentLog {
    path: Option<PathBuf>,
    entries: Mutex<Vec<String>>,
}

impl AgentLog {
    fn write(&self, entry: String) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(path) = &self.path {
            // A log that cannot be written loses only the log: the
            // forfeit reason in games.csv still names the exception.
            if let Ok(mut file) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
            {
                let _ = writeln!(file, "{entry}");
            }
        }
        entries.push(entry);
    }
}

/// An exception in one line — its type, message and the line of the
/// innermost frame (``ZeroDivisionError: division by zero at bot.py:12
/// in select``) — and its whole traceback.
fn describe_exception(py: Python<'_>, e: &PyErr) -> (String, String) {
    let kind = e
        .get_type(py)
        .name()
        .map_or_else(|_| "Exception".to_string(), |n| n.to_string());
    let message = e.value(py).to_string();
    let mut line = if message.is_empty() {
        kind
    } else {
        format!("{kind}: {}", message.lines().next().unwrap_or(""))
    };
    let mut trace = line.clone();
    if let Ok(tb) = py.import("traceback") {
        if let Some(frames) = e.traceback(py) {
            if let Ok(last) = tb
                .call_method1("extract_tb", (frames.clone(),))
                .and_then(|l| l.get_item(-1))
            {
                let file: String = last
                    .getattr("filename")
                    .and_then(|f| f.extract())
                    .unwrap_or_default();
                let file = std::path::Path::new(&file)
                    .file_name()
                    .map_or(file.clone(), |f| f.to_string_lossy().into_owned());
                let lineno: usize = last
                    .getattr("lineno")
                    .and_then(|f| f.extract())
                    .unwrap_or(0);
                let name: String = last
                    .getattr("name")
                    .and_then(|f| f.extract())
                    .unwrap_or_default();
                line += &format!(" at {file}:{lineno} in {name}");
            }
        }
        if let Ok(text) = tb
            .call_method1(
                "format_exception",
                (e.get_type(py), e.value(py), e.traceback(py)),
            )
            .and_then(|l| l.extract::<Vec<String>>())
        {
            trace = text.concat();
        }
    }
    (line, trace)
}

impl PythonAgent {
    fn choose(
        &self,
        py: Python<'_>,
        view: &SeatView<'_>,
        rng: &mut AgentRng,
    ) -> PyResult<EngineAction> {
        // The agent gets a view of a determinization: the same public
        // information and own cards, the unseen cards dealt at random.
        let state = view.determinize(rng);
        let object = self.object.bind(py);
        let py_view = Bound::new(py, View::new(state.clone(), view.seat().index())?)?;
        let answer = if object.hasattr("select")? && !object.is_callable() {
            object.call_method1("select", (py_view,))?
        } else if object.is_callable() {
            object.call1((py_view,))?
        } else {
            object.call_method1("select", (py_view,))?
        };
        Game::from_state(state, 0).action_of(&answer)
    }
}

impl Agent for PythonAgent {
    fn name(&self) -> &str {
        &self.name
    }

    /// An exception forfeits the game: the reason names it and its line,
    /// the traceback goes to the log.
    fn decide(&mut self, cx: Context<'_>) -> Result<Decision, AgentError> {
        let view = cx.view;
        Python::attach(|py| match self.choose(py, view, cx.rng) {
            Ok(action) => Ok(Decision::new(action)),
            Err(e) => {
                let (line, trace) = describe_exception(py, &e);
                let (seat, seed) = self.game.unwrap_or((view.seat().index(), 0));
                self.log.write(format!(
                    "{} (seat {seat}, agent seed {seed}, turn {}) raised {line}\n{}",
                    self.name,
                    view.turns(),
                    trace.trim_end()
                ));
                Err(AgentError::Failed(format!("python exception: {line}")))
            }
        })
    }
}

impl Lifecycle for PythonAgent {
    fn new_game(&mut self, start: &GameStart) {
        self.game = Some((start.seat.index(), start.seed));
    }
}

/// The agents of a tournament or game: spec strings of built-in agents,
/// and Python agents under the specs `python:NAME`.
struct AgentTable {
    specs: Vec<String>,
    python: BTreeMap<String, Py<PyAny>>,
    log: Arc<AgentLog>,
}

impl AgentTable {
    fn new(agents: &Bound<'_, PyAny>) -> PyResult<AgentTable> {
        let mut table = AgentTable {
            specs: Vec::new(),
            python: BTreeMap::new(),
            log: Arc::new(AgentLog::default()),
        };
        for item in agents.try_iter()? {
            let item = item?;
            if let Ok(spec) = item.extract::<String>() {
                // Checked where it is parsed: by the run's plan, or when
                // `play_game` builds its seats.
                table.specs.push(spec);
            } else if let Ok(builtin) = item.cast::<BuiltinAgent>() {
                table.specs.push(builtin.get().name.clone());
            } else if item.is_callable() || item.hasattr("select")? {
                let name = python_name(&item)?;
                let mut spec = format!("python:{name}");
                let mut n = 2;
                while table
                    .python
                    .get(&spec)
                    .is_some_and(|o| !o.bind(item.py()).is(&item))
                {
                    spec = format!("python:{name}_{n}");
                    n += 1;
                }
                table.python.insert(spec.clone(), item.clone().unbind());
                table.specs.push(spec);
            } else {
                return Err(PyTypeError::new_err(
                    "an agent is a spec string, carcassonne.agent(...), a callable taking a View or an object with select(view)",
                ));
            }
        }
        Ok(table)
    }

    fn make(&self, spec: &str) -> Result<Box<dyn Agent>, SpecError> {
        match self.python.get(spec) {
            Some(object) => Ok(Box::new(PythonAgent {
                name: spec.to_string(),
                object: Python::attach(|py| object.clone_ref(py)),
                log: self.log.clone(),
                game: None,
            })),
            None => agents::from_spec(spec),
        }
    }

    /// The agent of a Python object's spec; every other spec is left to
    /// the tournament, which checks it once and builds its agents from
    /// that ([`agents::Factory`]).
    fn make_python(&self, spec: &str) -> Result<Box<dyn Agent>, SpecError> {
        match self.python.get(spec) {
            Some(_) => self.make(spec),
            None => Err(SpecError::Invalid(format!(
                "{spec:?} is not a Python agent"
            ))),
        }
    }
}

/// A Python agent's name: its ``name`` attribute, its ``__name__``, or
/// its class name.
fn python_name(object: &Bound<'_, PyAny>) -> PyResult<String> {
    for attr in ["name", "__name__"] {
        if let Ok(value) = object.getattr(attr) {
            if let Ok(name) = value.extract::<String>() {
                return Ok(name);
            }
        }
    }
    object.get_type().name()?.extract()
}

/// Play one game between `agents` (seat order), tiles and gift cards
/// drawn from `seed` as in a tournament, agent `s` seeded with
/// ``agent_seeds[s]`` (default ``s``), exactly as the Rust game runner
/// does. Returns ``{"record": json, "scores": [...], "forfeit": None or
/// (seat, reason)}``. Releases the GIL while built-in agents play. The
/// rules as for ``Game``: `rules` (text or dict), variant keywords,
/// `farmers`, `gifts`.
#[pyfunction]
#[pyo3(signature = (agents, seed = 0, agent_seeds = None, farmers = None, gifts = None, rules = None, **variants))]
#[allow(clippy::too_many_arguments)]
pub fn play_game<'py>(
    py: Python<'py>,
    agents: &Bound<'py, PyAny>,
    seed: u64,
    agent_seeds: Option<Vec<u64>>,
    farmers: Option<bool>,
    gifts: Option<bool>,
    rules: Option<&Bound<'py, PyAny>>,
    variants: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = rules_from(farmers, gifts, rules, variants)?;
    let table = AgentTable::new(agents)?;
    let players = table.specs.len();
    if !(2..=engine::MAX_PLAYERS).contains(&players) {
        return Err(PyValueError::new_err(format!(
            "a game needs 2 to 6 agents, not {players}"
        )));
    }
    let agent_seeds = agent_seeds.unwrap_or_else(|| (0..players as u64).collect());
    if agent_seeds.len() != players {
        return Err(PyValueError::new_err(format!(
            "{} agent seeds for {players} agents",
            agent_seeds.len()
        )));
    }
    let mut seats = table
        .specs
        .iter()
        .map(|s| table.make(s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let outcome = py.detach(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            agents::game::play_game(&mut seats, rules, seed, &agent_seeds)
        }))
        .map_err(|p| panic_message(&*p))
    });
    let outcome = outcome.map_err(crate::errors::EngineError::new_err)?;
    let d = PyDict::new(py);
    let record =
        serde_json::to_string(&outcome.record).map_err(|e| PyValueError::new_err(e.to_string()))?;
    d.set_item("record", record)?;
    let scores: Vec<u32> = outcome.scores.iter().map(|s| s.total()).collect();
    d.set_item("scores", scores)?;
    d.set_item(
        "forfeit",
        outcome.forfeit.map(|f| (f.seat.index(), f.reason)),
    )?;
    let traces = table.log.entries.lock().unwrap_or_else(|e| e.into_inner());
    d.set_item("traceback", traces.last().cloned())?;
    Ok(d)
}

/// Run a tournament with the same runner as ``carcassonne tournament``:
/// a round robin of `agents` (spec strings, ``agent(...)`` objects, or
/// Python agents), `games` games per pairing rounded up to whole seat
/// rotations, paired decks, on `threads` threads (default: all cores).
/// Writes the same folder (`out`, or ``results/<time>-<name>``) and returns
/// ``{"dir", "status", "games", "summary": [rows of summary.csv], "text"}``.
/// A Python agent that raises forfeits that game. The rules as for
/// ``Game``. Releases the GIL while games are played and shows a progress
/// bar on a terminal. Ctrl-C stops the run as it stops the command line:
/// the games complete are written with their summaries, run.json says
/// ``interrupted`` (``carcassonne tournament --resume DIR`` continues it),
/// and KeyboardInterrupt is raised.
#[allow(clippy::too_many_arguments)]
#[pyfunction(name = "tournament")]
#[pyo3(signature = (agents, games = 10, players = 2, seed = 1, out = None, farmers = None, gifts = None, threads = None, records = false, name = "tournament".to_string(), rules = None, **variants))]
pub fn run_tournament<'py>(
    py: Python<'py>,
    agents: &Bound<'py, PyAny>,
    games: u64,
    players: usize,
    seed: u64,
    out: Option<PathBuf>,
    farmers: Option<bool>,
    gifts: Option<bool>,
    threads: Option<usize>,
    records: bool,
    name: String,
    rules: Option<&Bound<'py, PyAny>>,
    variants: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let table = AgentTable::new(agents)?;
    let settings = Settings {
        name,
        agents: table.specs.clone(),
        players,
        games_per_pairing: games,
        seed,
        rules: rules_from(farmers, gifts, rules, variants)?,
        records,
        shard: None,
        sprt: None,
        kind: RunKind::Tournament,
        secret_decks: false,
    };
    run_settings(py, table, settings, out, threads)
}

/// Self-play games of one agent in every seat, as ``carcassonne selfplay``
/// runs them: `games` games (rounded up to a multiple of `players`), each
/// with a deck of its own, written to `out` (or
/// ``results/<time>-selfplay``) with records, ``positions.csv`` and, for
/// an agent that searches (``az``), the training examples
/// (``examples/game-NNNNNNN.safetensors.gz``; ``load_examples`` reads them).
/// Returns what ``tournament`` returns.
#[allow(clippy::too_many_arguments)]
#[pyfunction(name = "selfplay")]
#[pyo3(signature = (agent, games = 150, players = 2, seed = 1, out = None, farmers = None, gifts = None, threads = None, rules = None, **variants))]
pub fn run_selfplay<'py>(
    py: Python<'py>,
    agent: &Bound<'py, PyAny>,
    games: u64,
    players: usize,
    seed: u64,
    out: Option<PathBuf>,
    farmers: Option<bool>,
    gifts: Option<bool>,
    threads: Option<usize>,
    rules: Option<&Bound<'py, PyAny>>,
    variants: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let list = pyo3::types::PyList::new(py, [agent])?;
    let table = AgentTable::new(list.as_any())?;
    let settings = Settings {
        name: "selfplay".to_string(),
        agents: table.specs.clone(),
        players,
        games_per_pairing: games,
        seed,
        rules: rules_from(farmers, gifts, rules, variants)?,
        records: true,
        shard: None,
        sprt: None,
        kind: RunKind::Selfplay,
        secret_decks: false,
    };
    run_settings(py, table, settings, out, threads)
}

/// Run the games `settings` describe with `table`'s agents into `out`
/// (or the default folder) on `threads` threads, as the command line
/// does (Ctrl-C included), and summarise them for Python.
fn run_settings<'py>(
    py: Python<'py>,
    mut table: AgentTable,
    settings: Settings,
    out: Option<PathBuf>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    settings.validate().map_err(run_error)?;
    let option = match settings.kind {
        RunKind::Tournament => "agents",
        RunKind::Selfplay => "agent",
    };
    let python_agent = |spec: &str| table.python.contains_key(spec);
    let plan = ::tournament::run::config::plan_agents(
        &settings.agents,
        settings.kind,
        option,
        &python_agent,
    )
    .map_err(run_error)?;
    let folder = match out {
        Some(dir) => {
            ::tournament::run::config::check_new_folder(&dir, "out").map_err(run_error)?;
            dir
        }
        None => ::tournament::run::config::default_folder(&settings),
    };
    table.log = Arc::new(AgentLog {
        path: Some(folder.join("agents.log")),
        entries: Mutex::new(Vec::new()),
    });
    let threads = ::tournament::run::config::worker_threads(threads)
        .map_err(|why| PyValueError::new_err(format!("threads {why}")))?;
    let config =
        TournamentConfig::new(settings, plan, Folder::New(folder), threads).map_err(run_error)?;
    let make = |spec: &str| table.make_python(spec);
    let cancel = AtomicBool::new(false);
    let mut interrupt = None;
    // The run goes on a thread of its own; this one checks for Ctrl-C
    // every 50 ms and, on one, interrupts the run (it writes the games
    // complete and marks run.json `interrupted`).
    let report = py.detach(|| {
        std::thread::scope(|scope| {
            let run = scope.spawn(|| {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    ::tournament::run_with(&config, Some(&make), &cancel)
                }))
                .unwrap_or_else(|p| Err(RunError::Internal(panic_message(&*p))))
            });
            while !run.is_finished() {
                std::thread::sleep(std::time::Duration::from_millis(50));
                if interrupt.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        interrupt = Some(e);
                        cancel.store(true, Ordering::Relaxed);
                    }
                }
            }
            run.join()
                .unwrap_or_else(|p| Err(RunError::Internal(panic_message(&*p))))
        })
    });
    if let Some(e) = interrupt {
        return Err(e);
    }
    let report = report.map_err(run_error)?;
    let d = PyDict::new(py);
    d.set_item("dir", report.dir.display().to_string())?;
    d.set_item("status", report.info.status.to_string())?;
    d.set_item("games", report.info.games_finished)?;
    let summary =
        serde_json::to_string(&report.summary).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let json = py.import("json")?;
    d.set_item("summary", json.call_method1("loads", (summary,))?)?;
    d.set_item("text", report.text())?;
    Ok(d)
}

/// A tournament's error as the Python exception of its kind: bad input
/// ValueError, a file OSError, anything else EngineError.
fn run_error(e: RunError) -> PyErr {
    match e {
        RunError::Invalid(_) | RunError::Folder(_) => PyValueError::new_err(e.to_string()),
        RunError::Io { .. } => PyOSError::new_err(e.to_string()),
        _ => crate::errors::EngineError::new_err(e.to_string()),
    }
}
