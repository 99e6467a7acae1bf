//! One game of a person against agents, played step by step.
//!
//! The game is played by the same step-wise driver as every game here
//! ([`agents::game::Driver`], which [`agents::game::play_game_watched`]
//! drives too: the same deck and gift generators from the deck seed, the
//! same agent seeds), except that one seat is the person's: the session
//! stops there until the page sends a move. Agents move one action per
//! [`Session::step`], so the page can show them one by one. Chance steps
//! are resolved as soon as they come.
//!
//! What the page may learn is built in [`super::seat_json`] from the
//! person's [`engine::SeatView`]; the session's own fields (the state, the
//! generators, the seed) never leave the server while the game runs.

use agents::game::{Driver, Step};
use agents::Agent;
use engine::{Action, ChanceOutcome, Move, Pos, Record, Rules, Score, Seat, State};
use files::error::{Error, Result};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tournament::run::roster::{AgentPlan, Roster};
use tournament::run::schedule::agent_seed;

/// The name the record gives the person's seat.
pub const PERSON: &str = "person";

/// The agents that fill the seats other than the person's: their specs
/// (the names the records give them) and the plan they are built from,
/// parsed once when the server starts.
#[derive(Clone, Debug)]
pub struct WebAgents {
    specs: Vec<String>,
    plan: AgentPlan,
}

impl WebAgents {
    /// Parse `specs`: each builds a built-in agent or names a runnable
    /// bot.
    ///
    /// # Errors
    /// The first spec that does neither, or no spec at all.
    pub fn parse(specs: Vec<String>) -> Result<WebAgents> {
        if specs.is_empty() {
            return Err(Error::Invalid(
                "--agents: give at least one agent".to_string(),
            ));
        }
        let plan =
            AgentPlan::parse(&specs).map_err(|e| Error::Invalid(format!("--agents: {e}")))?;
        Ok(WebAgents { specs, plan })
    }

    /// The specs, in the order they fill the seats.
    pub fn specs(&self) -> &[String] {
        &self.specs
    }
}

/// A line of the move log (public information only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// The seat that acted.
    pub seat: usize,
    /// What it did.
    pub text: String,
}

/// The last tile placed, outlined on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastMove {
    /// Its cell.
    pub pos: Pos,
    /// Who placed it.
    pub seat: usize,
}

/// A game in progress (or finished) between the person and agents.
pub struct Session {
    /// The deck seed.
    pub seed: u64,
    /// The person's seat.
    pub person: Seat,
    /// The agents' specs by seat (the person's seat holds [`PERSON`]).
    pub specs: Vec<String>,
    /// The game: its state, record and generators.
    game: Driver,
    /// The agents by seat (none in the person's).
    agents: Vec<Option<Box<dyn Agent>>>,
    roster: Roster,
    /// The moves so far, as the person may see them.
    pub log: Vec<LogLine>,
    /// The last tile placed.
    pub last: Option<LastMove>,
    /// Every seat's score before the last action (explains the final
    /// scoring once the game is over).
    pub before_last: Vec<Score>,
    /// A seat that forfeited, and why.
    pub forfeit: Option<String>,
    /// The record, once the game is over.
    pub finished: Option<Record>,
    /// Where the record was saved.
    pub saved: Option<PathBuf>,
    /// When the page last asked anything of this game.
    pub last_used: Instant,
    out: PathBuf,
    /// Actions taken so far by every seat (the index of the next
    /// decision, as `analyze-game` numbers them).
    decisions: usize,
    /// With `--hints`: hints shown per seat (written into the record).
    hints: Option<Vec<u32>>,
    /// The hint shown for the current decision (asking again shows it).
    hint: Option<(usize, serde_json::Value)>,
    /// With `--hints`, once the page asked: the analysis of the person's
    /// moves.
    pub post_game: Option<super::hints::PostGameSlot>,
}

impl Drop for Session {
    fn drop(&mut self) {
        self.agents.clear();
        self.roster.shutdown();
    }
}

impl Session {
    /// A new game: `cast`'s agents fill the seats other than `person` in
    /// turn; the record is saved into `out` when the game ends (with the
    /// hints shown per seat when `hints`).
    ///
    /// # Errors
    /// The game ended at once and its record could not be saved.
    pub fn new(
        cast: &WebAgents,
        players: usize,
        rules: Rules,
        seed: u64,
        person: usize,
        out: &Path,
        hints: bool,
    ) -> Result<Session> {
        let person = Seat((person % players) as u8);
        // The agent of each seat but the person's, in seat order.
        let picks: Vec<usize> = (0..players - 1).map(|i| i % cast.specs.len()).collect();
        let roster = cast.plan.pick(&picks).roster(
            Some(out.join(tournament::run::roster::BOT_LOGS)),
            protocol::secret::Secret::bot_key(seed),
        );
        let mut specs = Vec::with_capacity(players);
        let mut agents: Vec<Option<Box<dyn Agent>>> = Vec::with_capacity(players);
        let mut r = 0;
        for s in 0..players {
            if s == person.index() {
                specs.push(PERSON.to_string());
                agents.push(None);
            } else {
                specs.push(cast.specs[picks[r]].clone());
                agents.push(Some(roster.build(r)));
                r += 1;
            }
        }
        let seeds: Vec<u64> = (0..players).map(|s| agent_seed(seed, 0, s)).collect();
        let mut game = Driver::new(rules, players, seed, &seeds);
        for (s, agent) in agents.iter_mut().enumerate() {
            if let Some(agent) = agent {
                game.start(Seat(s as u8), agent.as_mut());
            }
        }
        game.record_mut().agents = specs.clone();
        let mut session = Session {
            seed,
            person,
            specs,
            game,
            agents,
            roster,
            log: Vec::new(),
            last: None,
            before_last: vec![Score::default(); players],
            forfeit: None,
            finished: None,
            saved: None,
            last_used: Instant::now(),
            out: out.to_path_buf(),
            decisions: 0,
            hints: hints.then(|| vec![0; players]),
            hint: None,
            post_game: None,
        };
        session.settle()?;
        Ok(session)
    }

    /// The game, for building the person's view (never sent as is).
    pub fn state(&self) -> &State {
        self.game.state()
    }

    /// The game is over (or stopped at a forfeit).
    pub fn is_over(&self) -> bool {
        self.finished.is_some()
    }

    /// The person is to decide.
    pub fn persons_turn(&self) -> bool {
        let state = self.game.state();
        !self.is_over() && !state.is_chance() && state.to_play() == self.person
    }

    /// Resolve chance steps; finish the game when it is over.
    fn settle(&mut self) -> Result<()> {
        if self.is_over() {
            return Ok(());
        }
        loop {
            match self.game.step() {
                Step::Chance(ChanceOutcome::Gift(gift)) => {
                    let seat = self.game.state().to_play();
                    // Which card a seat receives is hidden from the others.
                    let text = if seat == self.person {
                        format!("received the gift {gift}")
                    } else {
                        "received a gift card".to_string()
                    };
                    self.log.push(LogLine {
                        seat: seat.index(),
                        text,
                    });
                }
                Step::Chance(ChanceOutcome::Tile(..)) => {}
                Step::Ask(_) => return Ok(()),
                Step::Over => return self.finish(),
            }
        }
    }

    /// Close the record, tell the agents, save it.
    fn finish(&mut self) -> Result<()> {
        if self.is_over() {
            return Ok(());
        }
        if let Some(hints) = &self.hints {
            self.game.record_mut().hints = hints.clone();
        }
        let agents = &mut self.agents;
        let outcome = self.game.finish(|seat, history, end| {
            if let Some(agent) = agents[seat.index()].as_mut() {
                agent.game_over(history, end);
            }
        });
        if let Some(f) = &outcome.forfeit {
            self.forfeit = Some(format!("seat {} forfeits: {}", f.seat, f.reason));
        }
        self.saved = Some(save_record(&self.out, &outcome.record, self.seed)?);
        self.finished = Some(outcome.record);
        self.roster.shutdown();
        Ok(())
    }

    /// `action` of `seat`, about to be played, as the person may see it,
    /// and every seat's score before it.
    fn about(&self, seat: Seat, action: Action) -> (LogLine, Vec<Score>) {
        let state = self.game.state();
        let text = match action {
            Action::Keep(_) if seat != self.person => "kept one of the two tiles".to_string(),
            _ => state.describe(action),
        };
        let before = (0..state.players())
            .map(|s| state.score(Seat(s as u8)))
            .collect();
        let line = LogLine {
            seat: seat.index(),
            text,
        };
        (line, before)
    }

    /// What follows an action played: its log line, the decision count,
    /// the hint cleared, the scores before it and the last tile placed.
    fn played(&mut self, seat: Seat, action: Action, (line, before): (LogLine, Vec<Score>)) {
        self.log.push(line);
        self.decisions += 1;
        self.hint = None;
        self.before_last = before;
        if let Action::Place(Move { placement, .. }) = action {
            self.last = Some(LastMove {
                pos: placement.pos,
                seat: seat.index(),
            });
        }
    }

    /// The person's move, in record notation (`U (1, 0) r1 NNE`,
    /// `open synod (0, 1)`, `keep V`).
    ///
    /// # Errors
    /// [`Error::Invalid`] when it is not the person's turn, or the text is
    /// not a legal action now; the game is then unchanged.
    pub fn person_moves(&mut self, text: &str) -> Result<()> {
        if !self.persons_turn() {
            return Err(Error::Invalid("it is not your turn".to_string()));
        }
        let action = self
            .game
            .state()
            .parse_action(text)
            .map_err(|e| Error::Invalid(format!("move {text:?}: {e}")))?;
        let about = self.about(self.person, action);
        // A refused move leaves the game as it was.
        self.game
            .play(action)
            .map_err(|e| Error::Invalid(format!("move {text:?}: {e}")))?;
        self.played(self.person, action, about);
        self.settle()
    }

    /// One agent action (when an agent is to play); returns whether one
    /// was played.
    ///
    /// # Errors
    /// The record cannot be saved at the end of the game.
    pub fn step(&mut self) -> Result<bool> {
        if self.is_over() || self.persons_turn() {
            return Ok(false);
        }
        let seat = self.game.state().to_play();
        let Some(agent) = self.agents[seat.index()].as_mut() else {
            return Ok(false);
        };
        // An agent that gives up, panics or plays an illegal move forfeits
        // (the driver notes why); the game is over then.
        let Some(action) = self.game.decide(agent.as_mut()) else {
            self.finish()?;
            return Ok(true);
        };
        let about = self.about(seat, action);
        if self.game.play_or_forfeit(action) {
            self.played(seat, action, about);
            self.settle()?;
        } else {
            // Refused: the driver notes the forfeit; the move is not logged.
            self.finish()?;
        }
        Ok(true)
    }

    /// The index of the decision to be made now among the game's
    /// decisions (public: the number of actions taken so far).
    #[cfg(test)]
    pub fn decision(&self) -> usize {
        self.decisions
    }

    /// Hints shown per seat so far (`None` without `--hints`).
    pub fn hints(&self) -> Option<&[u32]> {
        self.hints.as_deref()
    }

    /// The hint already shown for the current decision, if any.
    pub fn shown_hint(&self) -> Option<&serde_json::Value> {
        self.hint
            .as_ref()
            .filter(|(d, _)| *d == self.decisions)
            .map(|(_, h)| h)
    }

    /// A hint for the person's decision now from `factory`'s agent, which
    /// sees the person's seat view only; counted once per decision.
    ///
    /// # Errors
    /// [`Error::Invalid`] without `--hints` or when it is not the person's
    /// turn; [`Error::Internal`] when the agent gives up.
    pub fn hint(&mut self, factory: &agents::Factory) -> Result<serde_json::Value> {
        if self.hints.is_none() {
            return Err(Error::Invalid(
                "hints are off (start the server with --hints)".to_string(),
            ));
        }
        if !self.persons_turn() {
            return Err(Error::Invalid("it is not your turn".to_string()));
        }
        if let Some(shown) = self.shown_hint() {
            return Ok(shown.clone());
        }
        let view = self.game.state().view(self.person);
        let found = catch_unwind(AssertUnwindSafe(|| {
            super::hints::hint(&view, factory, self.decisions)
        }))
        .map_err(|_| Error::Internal("the hint's agent panicked".to_string()))?
        .map_err(|e| Error::Internal(format!("the hint's agent gave up: {e}")))?;
        let json = super::hints::hint_json(&found, self.decisions, factory.spec());
        if let Some(hints) = self.hints.as_mut() {
            hints[self.person.index()] += 1;
        }
        self.hint = Some((self.decisions, json.clone()));
        Ok(json)
    }
}

/// Save `record` as `web-SEED-N.json` in `dir` (the first N free): the
/// only file names the server writes, never one from a request.
fn save_record(dir: &Path, record: &Record, seed: u64) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, e))?;
    let mut json = serde_json::to_string(record).map_err(|e| Error::Internal(e.to_string()))?;
    json.push('\n');
    for n in 1.. {
        let path = dir.join(format!("web-{seed}-{n}.json"));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(mut f) => {
                use std::io::Write as _;
                f.write_all(json.as_bytes())
                    .map_err(|e| Error::io("write", &path, e))?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(Error::io("create", &path, e)),
        }
    }
    unreachable!("some file name is free")
}
