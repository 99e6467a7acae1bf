//! One game of a person against agents, played step by step.
//!
//! The game is played as [`agents::game::play_game_watched`] plays it (the
//! same deck and gift generators from the deck seed, the same agent
//! seeds), except that one seat is the person's: the session stops there
//! until the page sends a move. Agents move one action per
//! [`Session::step`], so the page can show them one by one. Chance steps
//! are resolved as soon as they come.
//!
//! What the page may learn is built in [`super::seat_json`] from the
//! person's [`engine::SeatView`]; the session's own fields (the state, the
//! generators, the seed) never leave the server while the game runs.

use agents::game::{deck_rng, gift_rng};
use agents::history::{GameEnd, GameStart, History};
use agents::{Agent, AgentRng, Context};
use engine::{
    Action, ChanceOutcome, Move, Phase, Pos, Record, RecordBuilder, Rules, Score, Seat, State,
};
use files::error::{Error, Result};
use rand::SeedableRng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tournament::run::roster::Roster;
use tournament::run::schedule::agent_seed;

/// The name the record gives the person's seat.
pub const PERSON: &str = "person";

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
    state: State,
    record: Option<RecordBuilder>,
    deck: rand_pcg::Pcg64,
    gift_deck: rand_pcg::Pcg64,
    agents: Vec<Option<Box<dyn Agent>>>,
    rngs: Vec<AgentRng>,
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
}

impl Drop for Session {
    fn drop(&mut self) {
        self.agents.clear();
        self.roster.shutdown();
    }
}

impl Session {
    /// A new game: `agent_specs` fill the seats other than `person` in
    /// turn; the record is saved into `out` when the game ends.
    ///
    /// # Errors
    /// A spec that does not build an agent.
    pub fn new(
        agent_specs: &[String],
        players: usize,
        rules: Rules,
        seed: u64,
        person: usize,
        out: &Path,
    ) -> Result<Session> {
        let person = Seat((person % players) as u8);
        let mut specs = Vec::with_capacity(players);
        let mut next = 0;
        for s in 0..players {
            if s == person.index() {
                specs.push(PERSON.to_string());
            } else {
                specs.push(agent_specs[next % agent_specs.len()].clone());
                next += 1;
            }
        }
        let agent_only: Vec<String> = specs
            .iter()
            .map(|s| {
                if s == PERSON {
                    "random".to_string()
                } else {
                    s.clone()
                }
            })
            .collect();
        let roster = Roster::new(
            &agent_only,
            Some(out.join(tournament::run::roster::BOT_LOGS)),
            protocol::secret::Secret::bot_key(seed),
        )?;
        let mut agents: Vec<Option<Box<dyn Agent>>> = (0..players)
            .map(|s| (s != person.index()).then(|| roster.build(s)))
            .collect();
        let seeds: Vec<u64> = (0..players).map(|s| agent_seed(seed, 0, s)).collect();
        for (s, agent) in agents.iter_mut().enumerate() {
            if let Some(agent) = agent {
                agent.reset();
                agent.new_game(&GameStart {
                    rules,
                    players,
                    seat: Seat(s as u8),
                    first: Seat(0),
                    seed: seeds[s],
                });
            }
        }
        let mut record = RecordBuilder::new(players, rules);
        record.record_mut().seed = Some(seed);
        record.record_mut().agents = specs.clone();
        let mut session = Session {
            seed,
            person,
            specs,
            state: State::new(rules, players, Seat(0)),
            record: Some(record),
            deck: deck_rng(seed),
            gift_deck: gift_rng(seed),
            agents,
            rngs: seeds.iter().map(|&s| AgentRng::seed_from_u64(s)).collect(),
            roster,
            log: Vec::new(),
            last: None,
            before_last: vec![Score::default(); players],
            forfeit: None,
            finished: None,
            saved: None,
            last_used: Instant::now(),
            out: out.to_path_buf(),
        };
        session.settle()?;
        Ok(session)
    }

    /// The game, for building the person's view (never sent as is).
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The game is over (or stopped at a forfeit).
    pub fn is_over(&self) -> bool {
        self.finished.is_some()
    }

    /// The person is to decide.
    pub fn persons_turn(&self) -> bool {
        !self.is_over() && !self.state.is_chance() && self.state.to_play() == self.person
    }

    /// Resolve chance steps; finish the game when it is over.
    fn settle(&mut self) -> Result<()> {
        let Some(record) = self.record.as_mut() else {
            return Ok(());
        };
        while !self.state.is_over() && self.state.is_chance() {
            // Tiles and gift cards come from generators of their own.
            let deck = if self.state.phase() == Phase::DrawGift {
                &mut self.gift_deck
            } else {
                &mut self.deck
            };
            let outcome = self.state.apply_chance(deck);
            if let ChanceOutcome::Gift(gift) = outcome {
                let seat = self.state.to_play();
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
            record.chance(&self.state, outcome);
        }
        if self.state.is_over() {
            self.finish(None)?;
        }
        Ok(())
    }

    /// Close the record, tell the agents, save it.
    fn finish(&mut self, forfeit: Option<agents::game::Forfeit>) -> Result<()> {
        let Some(mut record) = self.record.take() else {
            return Ok(());
        };
        record.close_turn();
        let scores: Vec<Score> = (0..self.state.players())
            .map(|s| self.state.score(Seat(s as u8)))
            .collect();
        let end = GameEnd {
            scores: &scores,
            forfeit: forfeit.as_ref(),
        };
        for (s, agent) in self.agents.iter_mut().enumerate() {
            if let Some(agent) = agent {
                agent.game_over(&History::new(&record, Seat(s as u8)), &end);
            }
        }
        let mut record = record.finish(&self.state);
        if let Some(f) = &forfeit {
            record.final_scores = None;
            self.forfeit = Some(format!("seat {} forfeits: {}", f.seat, f.reason));
        }
        self.saved = Some(save_record(&self.out, &record, self.seed)?);
        self.finished = Some(record);
        self.roster.shutdown();
        Ok(())
    }

    /// Apply `action` for `seat`, logging it as the person may see it.
    fn apply(&mut self, seat: Seat, action: Action) -> std::result::Result<(), String> {
        let text = match action {
            Action::Keep(_) if seat != self.person => "kept one of the two tiles".to_string(),
            _ => self.state.describe(action),
        };
        let before: Vec<Score> = (0..self.state.players())
            .map(|s| self.state.score(Seat(s as u8)))
            .collect();
        self.state.try_action(action).map_err(|e| e.to_string())?;
        self.before_last = before;
        if let Action::Place(Move { placement, .. }) = action {
            self.last = Some(LastMove {
                pos: placement.pos,
                seat: seat.index(),
            });
        }
        if let Some(record) = self.record.as_mut() {
            record.action(seat, &self.state, action);
        }
        self.log.push(LogLine {
            seat: seat.index(),
            text,
        });
        Ok(())
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
            .state
            .parse_action(text)
            .map_err(|e| Error::Invalid(format!("move {text:?}: {e}")))?;
        self.state
            .check_action(action)
            .map_err(|e| Error::Invalid(format!("move {text:?}: {e}")))?;
        self.apply(self.person, action)
            .map_err(|e| Error::Invalid(format!("move {text:?}: {e}")))?;
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
        let seat = self.state.to_play();
        let s = seat.index();
        let Some(record) = self.record.as_ref() else {
            return Ok(false);
        };
        let Some(agent) = self.agents[s].as_mut() else {
            return Ok(false);
        };
        let view = self.state.view(seat);
        let history = History::new(record, seat);
        let rng = &mut self.rngs[s];
        let chosen = catch_unwind(AssertUnwindSafe(|| {
            agent.decide(Context::new(&view, rng).with_history(history))
        }));
        let action = match chosen {
            Ok(Ok(decision)) => decision.action,
            Ok(Err(e)) => return self.forfeits(seat, e.to_string()),
            Err(_) => return self.forfeits(seat, "panicked".to_string()),
        };
        if let Err(e) = self.apply(seat, action) {
            let reason = format!("illegal move {}: {e}", self.state.describe(action));
            return self.forfeits(seat, reason);
        }
        self.settle()?;
        Ok(true)
    }

    fn forfeits(&mut self, seat: Seat, reason: String) -> Result<bool> {
        self.finish(Some(agents::game::Forfeit { seat, reason }))?;
        Ok(true)
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
