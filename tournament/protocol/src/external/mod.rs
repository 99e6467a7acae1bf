//! External agents: any program that speaks `carcassonne-bot/1`
//! (docs/PROTOCOL.md) on stdin/stdout plays as an [`Agent`].
//!
//! - [`spec`]: `ext:` specs and the bots file.
//! - [`process`]: one bot process, its pipes, limits and process group.
//! - [`guard`]: the process between the toolkit and a bot that kills the
//!   bot's whole process tree when the bot ends or the toolkit dies.
//! - [`sandbox`]: `sandbox=true` bots, run under bubblewrap.
//! - [`message`]: the protocol's messages.
//! - [`answer`]: what a bot's lines mean (the untrusted text the toolkit reads).
//! - [`error`]: [`BotError`], why a bot failed (its text is the forfeit reason).
//!
//! An [`ExtAgent`] lives for one game (the runner builds agents per game);
//! a persistent bot's process outlives it in the [`BotPool`], which hands it
//! to the next game on any thread and quits every process at the end.

pub mod answer;
pub mod error;
pub mod guard;
pub mod message;
pub mod process;
pub mod sandbox;
pub mod spec;

use crate::secret::Secret;
use agents::history::{GameEnd, GameStart, History, SeenTurn};
use agents::{Agent, AgentError, Context, Decision, Lifecycle};
use answer::Answer;
use engine::{Action, SeatView};
pub use error::BotError;
use message::{Decide, ForfeitOut, GameOver, NewGame, ScoreOut, Setup, PROTOCOL};
use process::BotProcess;
use spec::BotDef;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The least time a bot has to read `game_over`, whatever its move limit.
pub const GAME_OVER_MIN_MS: u64 = 1000;

/// Where external bots' processes wait between games and where their
/// stderr goes. Dropping the pool quits every waiting process.
#[derive(Debug)]
pub struct BotPool {
    log_dir: Option<PathBuf>,
    /// The key of the seeds sent in `new_game` ([`crate::secret`]).
    bot_key: Secret,
    idle: Mutex<HashMap<String, Vec<BotProcess>>>,
    started: AtomicUsize,
}

impl std::fmt::Debug for BotProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BotProcess({})", self.id())
    }
}

impl BotPool {
    /// A pool whose bots write their stderr to `log_dir/bot-N.log` (the
    /// folder is created when the first bot starts), or nowhere, and are
    /// sent the seeds of `bot_key` ([`Secret::bot_seed`]).
    pub fn new(log_dir: Option<PathBuf>, bot_key: Secret) -> Arc<BotPool> {
        // A resumed run keeps the logs of its first part.
        let existing = log_dir
            .as_ref()
            .and_then(|d| std::fs::read_dir(d).ok())
            .map_or(0, |entries| entries.count());
        Arc::new(BotPool {
            log_dir,
            bot_key,
            idle: Mutex::default(),
            started: AtomicUsize::new(existing),
        })
    }

    /// A waiting process of `def`, or a new one that has passed `hello`.
    fn take(&self, def: &BotDef) -> Result<BotProcess, BotError> {
        if def.persist {
            let mut idle = self.idle.lock().expect("pool lock");
            if let Some(p) = idle.get_mut(&def.spec).and_then(Vec::pop) {
                return Ok(p);
            }
        }
        let n = self.started.fetch_add(1, Ordering::Relaxed) + 1;
        let log = match &self.log_dir {
            Some(dir) => {
                std::fs::create_dir_all(dir).map_err(|error| BotError::Log {
                    path: dir.clone(),
                    error,
                })?;
                Some(dir.join(format!("bot-{n}.log")))
            }
            None => None,
        };
        let mut p = BotProcess::spawn(&def.command, log.as_deref())?;
        handshake(&mut p, def.move_ms)?;
        Ok(p)
    }

    /// Keep a healthy process of a persistent bot for a later game.
    fn give_back(&self, def: &BotDef, p: BotProcess) {
        if def.persist {
            let mut idle = self.idle.lock().expect("pool lock");
            idle.entry(def.spec.clone()).or_default().push(p);
        } else {
            p.quit();
        }
    }

    /// Quit every waiting process (each has [`process::QUIT_GRACE`] to
    /// exit; they are asked all at once).
    pub fn shutdown(&self) {
        let all: Vec<BotProcess> = {
            let mut idle = self.idle.lock().expect("pool lock");
            idle.drain().flat_map(|(_, v)| v).collect()
        };
        let threads: Vec<_> = all
            .into_iter()
            .map(|p| std::thread::spawn(move || p.quit()))
            .collect();
        for t in threads {
            let _ = t.join();
        }
    }
}

impl Drop for BotPool {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// `hello` both ways.
fn handshake(p: &mut BotProcess, move_ms: u64) -> Result<(), BotError> {
    let limit = move_ms.max(process::MIN_START_MS);
    let deadline = Instant::now() + Duration::from_millis(limit);
    p.send(
        &format!(r#"{{"type":"hello","protocol":"{PROTOCOL}"}}"#),
        deadline,
        limit,
    )?;
    let line = p.receive(deadline, limit)?;
    answer::read_hello(&line).map_err(|e| BotError::Handshake(Box::new(e)))
}

/// A player whose decisions come from an external bot.
pub struct ExtAgent {
    def: Arc<BotDef>,
    pool: Arc<BotPool>,
    process: Option<BotProcess>,
    /// Why this agent already lost the game (a fault at `new_game`).
    fault: Option<String>,
    /// Completed turns sent this game.
    sent: usize,
    /// The set-up (start tile, deal) was sent this game.
    setup_sent: bool,
    /// Time used this game.
    used: Duration,
}

impl ExtAgent {
    /// An agent for `def`, whose processes come from `pool`.
    pub fn new(def: Arc<BotDef>, pool: Arc<BotPool>) -> ExtAgent {
        ExtAgent {
            def,
            pool,
            process: None,
            fault: None,
            sent: 0,
            setup_sent: false,
            used: Duration::ZERO,
        }
    }

    /// The time this decision may take: the move limit, or what is left
    /// of the game's.
    fn limit(&self) -> Duration {
        let mv = Duration::from_millis(self.def.move_ms);
        match self.def.game_ms {
            Some(g) => mv.min(Duration::from_millis(g).saturating_sub(self.used)),
            None => mv,
        }
    }

    /// Kill the process and keep `reason`.
    fn fail(&mut self, error: BotError) -> String {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
        let reason = error.to_string();
        self.fault = Some(reason.clone());
        reason
    }

    /// The turns of `history` not sent yet.
    fn unsent(&mut self, history: &History<'_>) -> Vec<SeenTurn> {
        let turns = (self.sent..history.len())
            .filter_map(|i| history.turn(i))
            .collect();
        self.sent = history.len();
        turns
    }

    /// The set-up (start tile, deal) if it was not sent yet.
    fn unsent_setup(&mut self, history: &History<'_>) -> Setup {
        if std::mem::replace(&mut self.setup_sent, true) {
            return Setup::default();
        }
        setup_out(history)
    }

    fn ask(&mut self, view: &SeatView<'_>, history: &History<'_>) -> Result<Action, BotError> {
        let start = Instant::now();
        let limit = self.limit();
        let deadline = start + limit;
        let limit_ms = limit.as_millis() as u64;
        let legal = message::legal_actions(view);
        let turns = self.unsent(history);
        let current = history.current();
        let setup = self.unsent_setup(history);
        let decide = Decide::new(view, &turns, current.as_ref(), setup, limit_ms, &legal);
        let p = self.process.as_mut().ok_or(BotError::NoProcess)?;
        p.discard_stale();
        let request = p.next_request();
        p.send(
            &message::request_line("decide", request, &decide),
            deadline,
            limit_ms,
        )?;
        loop {
            let line = p.receive(deadline, limit_ms)?;
            if answer::is_stale(&line, request) {
                continue;
            }
            match answer::read_answer(view, &legal, &line)? {
                Answer::Action(action) => return Ok(action),
                Answer::History => {
                    let all: Vec<SeenTurn> =
                        (0..history.len()).filter_map(|i| history.turn(i)).collect();
                    let mut body =
                        serde_json::to_value(setup_out(history)).expect("a set-up serializes");
                    body["turns"] = serde_json::to_value(
                        all.iter().map(message::TurnOut::from).collect::<Vec<_>>(),
                    )
                    .expect("turns serialize");
                    p.send(&message::line("history", &body), deadline, limit_ms)?;
                }
            }
        }
    }
}

/// The set-up as the viewer of `history` is told it: the start tile
/// drawn with `start_in_bag`, the deal with a hand of tiles.
fn setup_out(history: &History<'_>) -> Setup {
    let deal = history.deal();
    Setup {
        start: history.start(),
        deal: (!deal.is_empty()).then(|| deal.into_iter().map(message::seen_tiles).collect()),
    }
}

impl Agent for ExtAgent {
    fn name(&self) -> &str {
        self.def.label.as_deref().unwrap_or(&self.def.spec)
    }

    /// The bot follows the game: asked without the history, it cannot
    /// answer ([`AgentError::NeedsHistory`]); any fault forfeits
    /// ([`AgentError::Failed`] with the reason) and kills the process.
    fn decide(&mut self, cx: Context<'_>) -> Result<Decision, AgentError> {
        let Some(history) = cx.history else {
            return Err(AgentError::NeedsHistory);
        };
        if let Some(reason) = &self.fault {
            return Err(AgentError::Failed(reason.clone()));
        }
        let start = Instant::now();
        let result = self.ask(cx.view, &history);
        self.used += start.elapsed();
        result
            .map(Decision::new)
            .map_err(|reason| AgentError::Failed(self.fail(reason)))
    }
}

impl Lifecycle for ExtAgent {
    fn new_game(&mut self, start: &GameStart) {
        self.sent = 0;
        self.setup_sent = false;
        self.used = Duration::ZERO;
        self.fault = None;
        let def = self.def.clone();
        let result = (|| {
            let mut p = match self.process.take() {
                Some(p) => p,
                None => self.pool.take(&def)?,
            };
            p.new_game();
            let msg = NewGame {
                rules: start.rules,
                players: start.players,
                seat: start.seat.0,
                first: start.first.0,
                // Never the agent seed itself: that would reveal the
                // master seed and every deck (crate::secret).
                seed: self.pool.bot_key.bot_seed(start.seed),
                move_ms: Some(def.move_ms),
                game_ms: def.game_ms,
            };
            let limit = def.move_ms.max(process::MIN_START_MS);
            let deadline = Instant::now() + Duration::from_millis(limit);
            p.discard_stale();
            let request = p.next_request();
            let line = message::request_line("new_game", request, &msg);
            let result = p.send(&line, deadline, limit).and_then(|()| loop {
                let line = p.receive(deadline, limit)?;
                if !answer::is_stale(&line, request) {
                    break answer::read_ready(&line);
                }
            });
            self.process = Some(p);
            result
        })();
        if let Err(error) = result {
            self.fail(error);
        }
    }

    fn game_over(&mut self, history: &History<'_>, end: &GameEnd<'_>) {
        let Some(mut p) = self.process.take() else {
            return;
        };
        let turns = self.unsent(history);
        let msg = GameOver {
            setup: self.unsent_setup(history),
            turns: turns.iter().map(message::TurnOut::from).collect(),
            scores: end.scores.iter().map(|&s| ScoreOut::from(s)).collect(),
            forfeit: end.forfeit.map(|f| ForfeitOut {
                seat: f.seat.0,
                reason: &f.reason,
            }),
        };
        // A bot that reads nothing more is not kept (dropped: killed).
        let limit = self.def.move_ms.max(GAME_OVER_MIN_MS);
        let deadline = Instant::now() + Duration::from_millis(limit);
        if p.send(&message::line("game_over", &msg), deadline, limit)
            .is_ok()
        {
            self.pool.give_back(&self.def, p);
        }
    }
}

impl Drop for ExtAgent {
    fn drop(&mut self) {
        // A game that never reached game_over (e.g. the run stopped).
        if let Some(p) = self.process.take() {
            p.quit();
        }
    }
}
