//! Playing the scheduled games on a rayon pool and handing the results,
//! in game order, to one writer.
//!
//! Workers take game indices from a shared counter in schedule order, so
//! games finish roughly in order (fast games travel in batches of at most
//! a few milliseconds' worth); the writer (the calling thread) buffers the
//! few that finish early and passes each game to the sink only when
//! all earlier ones have been passed. Every agent is built fresh for each
//! game and every seed comes from the schedule, so what the sink sees is
//! the same whatever the number of threads (except the think times).

#[cfg(feature = "neural")]
use crate::learning::examples::ExampleRecorder;
use crate::learning::positions;
use crate::results::schema::GameRow;
use crate::results::summary::rank_seats;
use crate::run::roster::Roster;
use crate::run::schedule::{GameIndices, GameSpec, Schedule};
use agents::game::play_game;
use agents::Observed;
use engine::Rules;
use files::error::{Error, Result};
use protocol::secret::Secret;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Longest a worker holds finished games before sending them to the writer.
const BATCH_TIME: Duration = Duration::from_millis(2);

/// One finished game, ready to write.
#[derive(Clone, Debug)]
pub struct Finished {
    /// Its game index.
    pub index: u64,
    /// Its rows of games.csv, in seat order.
    pub rows: Vec<GameRow>,
    /// Its record as one JSON line, when records are kept.
    pub record: Option<String>,
    /// Its positions.csv lines (self-play), header excluded.
    pub positions: Option<String>,
    /// Its training examples (self-play of a searching agent such as
    /// `az`: `learning::examples`, the feature `neural`); `None` or empty
    /// otherwise.
    #[cfg(feature = "neural")]
    pub examples: Option<agents::neural::data::Dataset>,
}

/// What the sink wants after a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep going.
    Continue,
    /// Stop: no later game is passed to the sink.
    Stop,
}

/// Builds the agent of a spec string for one game. The command line uses
/// [`agents::from_spec`]; an embedding (the Python package) may add agents
/// of its own and pass every other spec on to it.
pub type AgentFactory<'f> =
    dyn Fn(&str) -> std::result::Result<Box<dyn agents::Agent>, agents::SpecError> + Sync + 'f;

/// What the workers need to play a game.
#[derive(Clone, Copy)]
pub struct Runner<'a> {
    /// The tournament's games and seeds.
    pub schedule: &'a Schedule,
    /// The agents, indexed like the schedule's agents.
    pub roster: &'a Roster,
    /// Agent labels for the rows.
    pub labels: &'a [String],
    /// Rules options.
    pub rules: Rules,
    /// Serialize each game's record.
    pub records: bool,
    /// Log every decision's features for positions.csv (self-play).
    pub positions: bool,
    /// Builds the agents of the roster's custom specs (an embedding's own
    /// agents, e.g. Python callables); None when there are none.
    pub make_agent: Option<&'a AgentFactory<'a>>,
    /// The run's one stop flag: Ctrl-C's ([`crate::run::interrupt::flag`])
    /// for the command line, an embedding's own (Python's
    /// KeyboardInterrupt) otherwise.
    pub cancel: &'a AtomicBool,
    /// Test hook: give the seats that are not external bots the seeds a
    /// bot would be sent ([`Secret::bot_seed`] of this key), so a served
    /// built-in agent plays the games of the agent in-process.
    pub keyed_agent_seeds: Option<&'a Secret>,
}

impl Runner<'_> {
    /// Whether the run was asked to stop ([`Runner::cancel`]).
    pub fn interrupted(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Play game `index` on this thread.
    pub fn play(&self, index: u64) -> Finished {
        let spec = self.schedule.game(index);
        let log = positions::Log::default();
        #[cfg(feature = "neural")]
        let examples = crate::learning::examples::Shared::default();
        let mut seats: Vec<Box<dyn agents::Agent>> = spec
            .seats
            .iter()
            .map(|&a| {
                let agent = match (self.roster.custom_spec(a), self.make_agent) {
                    (Some(spec), Some(make)) => make(spec).expect("custom specs are checked"),
                    _ => self.roster.build(a),
                };
                if self.positions {
                    #[cfg(feature = "neural")]
                    let agent: Box<dyn agents::Agent> =
                        Box::new(Observed::new(agent, ExampleRecorder::new(examples.clone())));
                    Box::new(Observed::new(agent, positions::Recorder::new(log.clone())))
                } else {
                    agent
                }
            })
            .collect();
        let agent_seeds: Vec<u64> = match self.keyed_agent_seeds {
            Some(key) => (spec.seats.iter().zip(&spec.agent_seeds))
                .map(|(&a, &seed)| {
                    if self.roster.is_external(a) {
                        seed // the bot's pool keys it
                    } else {
                        key.bot_seed(seed)
                    }
                })
                .collect(),
            None => spec.agent_seeds.clone(),
        };
        let outcome = play_game(&mut seats, self.rules, spec.deck_seed, &agent_seeds);
        let record = self
            .records
            .then(|| serde_json::to_string(&outcome.record).expect("records serialize"));
        let rows = self.rows(&spec, &outcome);
        let positions = self.positions.then(|| {
            let decisions = log.lock().unwrap_or_else(|e| e.into_inner());
            positions::lines(&rows, &decisions)
        });
        #[cfg(feature = "neural")]
        let examples = self
            .positions
            .then(|| crate::learning::examples::finish(&examples, &outcome.scores, index));
        Finished {
            index,
            rows,
            record,
            positions,
            #[cfg(feature = "neural")]
            examples,
        }
    }

    fn rows(&self, spec: &GameSpec, outcome: &agents::game::GameOutcome) -> Vec<GameRow> {
        let totals: Vec<u32> = outcome.scores.iter().map(|s| s.total()).collect();
        let forfeit = outcome.forfeit.as_ref().map(|f| f.seat.index());
        let ranks = rank_seats(&totals, forfeit);
        (0..spec.seats.len())
            .map(|s| {
                let score = &outcome.scores[s];
                GameRow {
                    game: spec.index,
                    deck_seed: spec.deck_seed,
                    seat: s,
                    agent: self.labels[spec.seats[s]].clone(),
                    score: totals[s],
                    road: score.road,
                    city: score.city,
                    monastery: score.monastery,
                    farm: score.farm,
                    gifts: score.gifts,
                    rank: ranks[s].0,
                    result: ranks[s].1,
                    turns: outcome.turns,
                    meeples_placed: outcome.meeples_placed[s],
                    think_ms: (outcome.think_time[s].as_secs_f64() * 1e6).round() / 1e3,
                    decisions: Some(outcome.decisions[s]),
                    forfeit: match &outcome.forfeit {
                        Some(f) if f.seat.index() == s => f.reason.replace(['\n', '\r'], " "),
                        _ => String::new(),
                    },
                }
            })
            .collect()
    }

    /// Play the games `indices` (ascending) on `threads` threads, calling
    /// `sink` with each in the order of `indices`, until all are done, the
    /// sink returns [`Flow::Stop`], or it fails (its error is returned).
    /// After an interrupt ([`Runner::interrupted`]) no new game is started and
    /// the games already complete are passed on as far as they are in
    /// order.
    pub fn run(
        &self,
        indices: GameIndices,
        threads: usize,
        mut sink: impl FnMut(Finished) -> Result<Flow>,
    ) -> Result<()> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .thread_name(|i| format!("tournament-{i}"))
            .build()
            .map_err(|e| Error::Internal(format!("cannot start {threads} threads: {e}")))?;
        let next = &AtomicU64::new(0);
        let stop = &AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<Vec<Finished>>();
        let mut result = Ok(());
        pool.in_place_scope(|scope| {
            for _ in 0..threads.max(1) {
                let tx = tx.clone();
                scope.spawn(move |_| {
                    // Fast games are sent in batches (at most BATCH_TIME
                    // apart) so the writer is not woken for each one.
                    let mut batch = Vec::new();
                    let mut last_send = Instant::now();
                    loop {
                        if stop.load(Ordering::Relaxed) || self.interrupted() {
                            break;
                        }
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(index) = indices.get(i) else { break };
                        batch.push(self.play(index));
                        if last_send.elapsed() >= BATCH_TIME {
                            if tx.send(std::mem::take(&mut batch)).is_err() {
                                return;
                            }
                            last_send = Instant::now();
                        }
                    }
                    if !batch.is_empty() {
                        let _ = tx.send(batch);
                    }
                });
            }
            drop(tx);
            let mut pending: BTreeMap<u64, Finished> = BTreeMap::new();
            let mut position = 0;
            'receive: for batch in rx.iter() {
                for finished in batch {
                    pending.insert(finished.index, finished);
                }
                while let Some(game) = indices.get(position).and_then(|i| pending.remove(&i)) {
                    position += 1;
                    match sink(game) {
                        Ok(Flow::Continue) => {}
                        Ok(Flow::Stop) => break 'receive,
                        Err(e) => {
                            result = Err(e);
                            break 'receive;
                        }
                    }
                }
            }
            stop.store(true, Ordering::Relaxed);
        });
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::schema::Outcome;
    use agents::game::{Forfeit, GameOutcome};
    use engine::{Record, Score, Seat};
    use std::time::Duration;

    /// Never set: the tests' runs are not cancelled.
    static NOT_CANCELLED: AtomicBool = AtomicBool::new(false);

    /// A runner of `schedule` with the default rules, no records, no
    /// positions, no custom agents and no keyed seeds.
    fn runner<'a>(schedule: &'a Schedule, roster: &'a Roster, labels: &'a [String]) -> Runner<'a> {
        Runner {
            schedule,
            roster,
            labels,
            rules: Rules::default(),
            records: false,
            positions: false,
            make_agent: None,
            cancel: &NOT_CANCELLED,
            keyed_agent_seeds: None,
        }
    }

    #[test]
    fn a_forfeiting_seat_loses_with_its_reason() {
        let schedule = Schedule::new(2, 2, 2, 1, None);
        let specs = vec!["random".to_string(), "greedy".to_string()];
        let roster = Roster::new(&specs, None, Secret::bot_key(2)).unwrap();
        let runner = runner(&schedule, &roster, &specs);
        let outcome = GameOutcome {
            scores: vec![
                Score {
                    city: 30,
                    ..Score::default()
                },
                Score {
                    road: 4,
                    ..Score::default()
                },
            ],
            turns: 12,
            meeples_placed: vec![3, 2],
            think_time: vec![Duration::from_micros(1500), Duration::ZERO],
            decisions: vec![4, 3],
            forfeit: Some(Forfeit {
                seat: Seat(0),
                reason: "panicked: oops\nsecond line".to_string(),
            }),
            record: Record::new(2, Rules::default()),
        };
        let rows = runner.rows(&schedule.game(0), &outcome);
        assert_eq!(rows[0].agent, "random");
        assert_eq!((rows[0].rank, rows[0].result), (2, Outcome::Loss));
        assert_eq!(rows[0].forfeit, "panicked: oops second line");
        assert_eq!(rows[0].think_ms, 1.5);
        assert_eq!((rows[0].decisions, rows[1].decisions), (Some(4), Some(3)));
        assert_eq!((rows[1].rank, rows[1].result), (1, Outcome::Win));
        assert_eq!(rows[1].forfeit, "");
        assert_eq!(rows[1].score, 4);
    }

    /// Issue 28: specs are parsed once, when the run starts. A model file
    /// removed while the games are played changes nothing (before, every
    /// game read it again, and a worker panicked once it was gone).
    #[test]
    fn a_model_file_removed_after_the_start_changes_nothing() {
        let dir = std::env::temp_dir().join(format!("runner-model-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let model = dir.join("model.json");
        let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/../../models/value-2p.json");
        let specs = vec![
            format!("greedy:eval={}", model.display()),
            "greedy".to_string(),
        ];
        let schedule = Schedule::new(2, 2, 6, 3, None);
        let play = |remove: bool| -> Vec<GameRow> {
            std::fs::copy(shipped, &model).unwrap();
            let roster = Roster::new(&specs, None, Secret::bot_key(2)).unwrap();
            let runner = runner(&schedule, &roster, &specs);
            let mut rows = Vec::new();
            runner
                .run(schedule.planned(), 1, |finished| {
                    if remove && model.exists() {
                        std::fs::remove_file(&model).unwrap();
                    }
                    rows.extend(
                        finished
                            .rows
                            .into_iter()
                            .map(|r| GameRow { think_ms: 0.0, ..r }),
                    );
                    Ok(Flow::Continue)
                })
                .unwrap();
            rows
        };
        let kept = play(false);
        let removed = play(true);
        assert!(!model.exists());
        assert_eq!(kept.len(), 12);
        assert_eq!(kept, removed);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
