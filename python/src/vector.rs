//! `VectorEnv`: N games stepped per call in Rust, on a thread pool with
//! the GIL released, for learners that collect data from many games at
//! once (EnvPool style). The Python wrapper `carcassonne.vector_env`
//! (`carcassonne/vector.py`) gives it Gymnasium's `VectorEnv` interface.
//!
//! Actions are indices into the list of the legal actions of the decision
//! (in the order of `Game.legal_actions()`), so every legal action is
//! reachable; each comes with its row of per-action features
//! ([`agents::action_features`]), its engine id and its window index.
//! Each game plays until a learner seat is to play: one seat against
//! built-in agents, or every seat (self-play). A game that ends is reset
//! in the same step (its reward and termination are reported with the
//! first observation of the next game).
//!
//! Results are written into numpy arrays allocated once, owned by
//! Python and overwritten by every step: the games are stepped in
//! parallel into per-game buffers, which are then copied into the arrays.
//!
//! Seeds: game `i`'s episode `k` deals from [`game_seed`]`(seed, i, k)`
//! (as `Game(seed=…)` and the tournament do) and its opponent in seat `s`
//! draws from [`agent_seed`]`(game seed, s)` (as `agent(spec, seed=…)`),
//! so any game can be replayed alone, whatever the thread count.

use crate::encoding::ActionSpace;
use crate::errors::guard;
use crate::observation::{Observation, OBSERVATION_KEYS, PLANES, STATE_ENTRIES};
use agents::action_features::{for_each_row, COLUMN_COUNT};
use agents::game::{deck_rng, gift_rng};
use agents::{Agent, AgentRng, Context};
use engine::{Action, Gift, Phase, Rules, Seat, State, Tile, MAX_PLAYERS};
use numpy::{PyArrayDyn, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use rayon::prelude::*;
use std::sync::Mutex;

/// SplitMix64's finaliser: a well-mixed 64-bit function of `x`.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The deck seed of episode `episode` of game `env` of a vector
/// environment seeded `seed`.
pub fn game_seed(seed: u64, env: u64, episode: u64) -> u64 {
    mix(mix(mix(seed) ^ env) ^ episode)
}

/// The seed of the built-in agent in seat `seat` of the game dealt from
/// `game_seed`.
pub fn agent_seed(game_seed: u64, seat: usize) -> u64 {
    mix(game_seed ^ mix(seat as u64 + 1))
}

/// What every game of a vector environment shares.
struct Config {
    rules: Rules,
    players: usize,
    /// The agent of each seat, its spec checked and its files read once
    /// (None: a learner seat).
    specs: Vec<Option<agents::Factory>>,
    radius: u32,
    max_actions: usize,
    observe: bool,
    /// Fill the per-action features (else they stay 0).
    features: bool,
    seed: u64,
}

impl Config {
    fn is_learner(&self, seat: Seat) -> bool {
        self.specs[seat.index()].is_none()
    }
}

/// One game and its results of the last step.
struct Slot {
    env: u64,
    state: State,
    deck: rand_pcg::Pcg64,
    gift_deck: rand_pcg::Pcg64,
    opponents: Vec<Option<(Box<dyn Agent>, AgentRng)>>,
    episode: u64,
    game_seed: u64,
    legal: Vec<Action>,
    features: Vec<f32>,
    observation: Option<Observation>,
    rewards: [f32; MAX_PLAYERS],
    final_scores: [f32; MAX_PLAYERS],
    terminated: bool,
    /// Why the last step failed (a bad action, an agent's panic).
    error: Option<String>,
    /// Legal actions in the arrays (rows written by the last publish).
    published: usize,
}

impl Slot {
    fn new(cfg: &Config, env: u64) -> Slot {
        let mut slot = Slot {
            env,
            state: State::new(cfg.rules, cfg.players, Seat(0)),
            deck: deck_rng(0),
            gift_deck: gift_rng(0),
            opponents: Vec::new(),
            episode: 0,
            game_seed: 0,
            legal: Vec::new(),
            features: if cfg.features {
                vec![0.0; cfg.max_actions * COLUMN_COUNT]
            } else {
                Vec::new()
            },
            observation: None,
            rewards: [0.0; MAX_PLAYERS],
            final_scores: [0.0; MAX_PLAYERS],
            terminated: false,
            error: None,
            published: 0,
        };
        slot.start(cfg);
        slot
    }

    /// Deal episode `self.episode` and play to the first learner decision.
    fn start(&mut self, cfg: &Config) {
        self.game_seed = game_seed(cfg.seed, self.env, self.episode);
        self.state = State::new(cfg.rules, cfg.players, Seat(0));
        self.deck = deck_rng(self.game_seed);
        self.gift_deck = gift_rng(self.game_seed);
        self.opponents = cfg
            .specs
            .iter()
            .enumerate()
            .map(|(s, spec)| {
                spec.as_ref().map(|factory| {
                    let agent = factory.build();
                    let rng = AgentRng::seed_from_u64(agent_seed(self.game_seed, s));
                    (agent, rng)
                })
            })
            .collect();
        self.advance();
    }

    /// Draw and let the built-in agents play until a learner seat is to
    /// play or the game is over.
    fn advance(&mut self) {
        while !self.state.is_over() {
            if self.state.is_chance() {
                if self.state.phase() == Phase::DrawGift {
                    self.state.apply_chance(&mut self.gift_deck);
                } else {
                    self.state.apply_chance(&mut self.deck);
                }
                continue;
            }
            let seat = self.state.to_play();
            let Some((agent, rng)) = self.opponents[seat.index()].as_mut() else {
                return;
            };
            let view = self.state.view(seat);
            // A built-in agent never gives up (only external bots do).
            let action = agent
                .decide(Context::new(&view, rng))
                .expect("a built-in agent decides")
                .action;
            self.state.play_action_unchecked(action);
        }
    }

    /// The legal actions, features and observation of the decision now.
    fn fill(&mut self, cfg: &Config) {
        let before = self.legal.len();
        self.legal.clear();
        let (legal, features) = (&mut self.legal, &mut self.features);
        let mut overflow = 0;
        if cfg.features {
            for_each_row(&self.state, |action, row| {
                let i = legal.len();
                if i < cfg.max_actions {
                    features[i * COLUMN_COUNT..(i + 1) * COLUMN_COUNT].copy_from_slice(row);
                    legal.push(action);
                } else {
                    overflow += 1;
                }
            });
        } else if !self.state.is_over() && !self.state.is_chance() {
            self.state.for_each_action(|action| {
                if legal.len() < cfg.max_actions {
                    legal.push(action);
                } else {
                    overflow += 1;
                }
            });
        }
        if overflow > 0 {
            self.error = Some(format!(
                "game {} has {} legal actions, more than max_actions={}: raise max_actions",
                self.env,
                self.legal.len() + overflow,
                cfg.max_actions
            ));
        }
        let n = self.legal.len();
        if before > n && cfg.features {
            self.features[n * COLUMN_COUNT..before * COLUMN_COUNT].fill(0.0);
        }
        if cfg.observe {
            let seat = self.observer(cfg);
            self.observation = Some(Observation::of(&self.state, seat, cfg.radius));
        }
    }

    /// The seat observing: the seat to play (a learner seat).
    fn observer(&self, cfg: &Config) -> Seat {
        if self.state.is_over() {
            (0..cfg.players)
                .map(|s| Seat(s as u8))
                .find(|&s| cfg.is_learner(s))
                .unwrap_or(Seat(0))
        } else {
            self.state.to_play()
        }
    }

    /// Play the legal action of index `action`, go on to the next learner
    /// decision (resetting a finished game) and fill the results.
    fn step(&mut self, cfg: &Config, action: i64) {
        self.error = None;
        self.rewards = [0.0; MAX_PLAYERS];
        self.terminated = false;
        let Some(&chosen) = usize::try_from(action).ok().and_then(|i| self.legal.get(i)) else {
            self.error = Some(format!(
                "game {}: action {action} is not an index of its {} legal actions",
                self.env,
                self.legal.len()
            ));
            return;
        };
        self.state.play_action_unchecked(chosen);
        self.advance();
        if self.state.is_over() {
            let totals: Vec<u32> = (0..cfg.players)
                .map(|s| self.state.score(Seat(s as u8)).total())
                .collect();
            let best = totals.iter().copied().max().unwrap_or(0);
            let winners = totals.iter().filter(|&&t| t == best).count();
            for (s, &t) in totals.iter().enumerate() {
                self.rewards[s] = if t < best {
                    -1.0
                } else if winners == 1 {
                    1.0
                } else {
                    0.0
                };
                self.final_scores[s] = t as f32;
            }
            self.terminated = true;
            self.episode += 1;
            self.start(cfg);
        }
        self.fill(cfg);
    }
}

/// N games stepped together (see the module doc). Made by
/// ``carcassonne.vector_env``; the arrays are in ``arrays()``.
#[pyclass(module = "carcassonne")]
pub struct VectorEnv {
    cfg: Config,
    num_envs: usize,
    /// The games (behind a lock only so that the class is `Sync`: every
    /// method takes `&mut self`).
    slots: Mutex<Vec<Slot>>,
    pool: rayon::ThreadPool,
    arrays: Py<PyDict>,
}

/// A new zeroed numpy array of `shape`.
fn zeros<'py, T: numpy::Element>(py: Python<'py>, shape: &[usize]) -> Bound<'py, PyArrayDyn<T>> {
    PyArrayDyn::<T>::zeros(py, shape, false)
}

/// A writable borrow of the numpy array `key` of `d`.
fn borrow<'py, T: numpy::Element>(
    d: &Bound<'py, PyDict>,
    key: &str,
) -> PyResult<numpy::PyReadwriteArrayDyn<'py, T>> {
    let array = d
        .get_item(key)?
        .ok_or_else(|| PyValueError::new_err(format!("no array {key}")))?;
    Ok(array.cast::<PyArrayDyn<T>>()?.readwrite())
}

/// The contiguous data of a borrowed array.
fn slice<'a, T: numpy::Element>(
    array: &'a mut numpy::PyReadwriteArrayDyn<'_, T>,
) -> PyResult<&'a mut [T]> {
    array
        .as_slice_mut()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

impl VectorEnv {
    /// Copy every game's results into the arrays. Only the rows of the
    /// legal-action arrays that held or hold a legal action are written
    /// (the others stay zero / -1).
    fn publish(&mut self, py: Python<'_>) -> PyResult<()> {
        let d = self.arrays.bind(py);
        let space = ActionSpace::new(self.cfg.radius);
        let (m, p, c) = (self.cfg.max_actions, self.cfg.players, COLUMN_COUNT);
        let (mut mask, mut ids) = (
            borrow::<i8>(d, "action_mask")?,
            borrow::<i64>(d, "action_ids")?,
        );
        let mut window = borrow::<i64>(d, "action_window")?;
        // Without features there is no such array (nothing to fill or copy).
        let mut features = if self.cfg.features {
            Some(borrow::<f32>(d, "action_features")?)
        } else {
            None
        };
        let (mut num, mut to_play) = (
            borrow::<i64>(d, "num_actions")?,
            borrow::<i64>(d, "to_play")?,
        );
        let (mut rewards, mut finals) = (
            borrow::<f32>(d, "rewards")?,
            borrow::<f32>(d, "final_scores")?,
        );
        let mut terminated = borrow::<bool>(d, "terminated")?;
        let (mut episode, mut seeds) =
            (borrow::<i64>(d, "episode")?, borrow::<u64>(d, "game_seed")?);
        let mut obs = Vec::new();
        if self.cfg.observe {
            for k in OBSERVATION_KEYS {
                obs.push(borrow::<f32>(d, k)?);
            }
        }
        let (mask, ids, window) = (slice(&mut mask)?, slice(&mut ids)?, slice(&mut window)?);
        let mut features = features.as_mut().map(slice).transpose()?;
        let (num, to_play) = (slice(&mut num)?, slice(&mut to_play)?);
        let (rewards, finals) = (slice(&mut rewards)?, slice(&mut finals)?);
        let terminated = slice(&mut terminated)?;
        let (episode, seeds) = (slice(&mut episode)?, slice(&mut seeds)?);
        let mut obs: Vec<&mut [f32]> = obs.iter_mut().map(slice).collect::<PyResult<_>>()?;
        let slots = self.slots.get_mut().unwrap_or_else(|e| e.into_inner());
        for (i, slot) in slots.iter_mut().enumerate() {
            let n = slot.legal.len();
            let rows = n.max(slot.published);
            slot.published = n;
            if let Some(features) = features.as_mut() {
                features[i * m * c..(i * m + rows) * c].copy_from_slice(&slot.features[..rows * c]);
            }
            for j in 0..rows {
                let a = slot.legal.get(j);
                mask[i * m + j] = i8::from(a.is_some());
                ids[i * m + j] = a.and_then(|a| a.to_index()).map_or(-1, i64::from);
                window[i * m + j] = a.and_then(|a| space.encode(*a)).map_or(-1, i64::from);
            }
            num[i] = n as i64;
            to_play[i] = if slot.state.is_over() || slot.state.is_chance() {
                -1
            } else {
                slot.state.to_play().index() as i64
            };
            rewards[i * p..(i + 1) * p].copy_from_slice(&slot.rewards[..p]);
            finals[i * p..(i + 1) * p].copy_from_slice(&slot.final_scores[..p]);
            terminated[i] = slot.terminated;
            episode[i] = slot.episode as i64;
            seeds[i] = slot.game_seed;
            if let Some(o) = &slot.observation {
                for (array, part) in obs.iter_mut().zip(o.parts()) {
                    let len = part.len();
                    array[i * len..(i + 1) * len].copy_from_slice(part);
                }
            }
        }
        Ok(())
    }

    /// The first error of the last step, if any.
    fn first_error(&mut self) -> PyResult<()> {
        let slots = self.slots.get_mut().unwrap_or_else(|e| e.into_inner());
        match slots.iter().find_map(|s| s.error.clone()) {
            Some(e) => Err(PyValueError::new_err(e)),
            None => Ok(()),
        }
    }
}

#[pymethods]
impl VectorEnv {
    /// `num_envs` games of `players` seats under `rules` (as ``Game`` takes
    /// them: a rules text or dict, None for the standard rules). `specs` gives each seat's agent
    /// spec, None for a learner seat. `max_actions` bounds the legal
    /// actions of a decision (more raises ValueError); `observe` fills
    /// the window observation of radius `radius`; `features=False` makes
    /// no per-action features (no `action_features` array; faster); `threads` sizes the pool (None:
    /// every core).
    #[new]
    #[pyo3(signature = (num_envs, players, specs, rules = None, radius = 10, max_actions = 2048, observe = true, seed = 0, threads = None, features = true))]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
        py: Python<'_>,
        num_envs: usize,
        players: usize,
        specs: Vec<Option<String>>,
        rules: Option<&Bound<'_, PyAny>>,
        radius: u32,
        max_actions: usize,
        observe: bool,
        seed: u64,
        threads: Option<usize>,
        features: bool,
    ) -> PyResult<VectorEnv> {
        if num_envs == 0 {
            return Err(PyValueError::new_err("num_envs must be at least 1"));
        }
        if !engine::PLAYERS.contains(&players) || specs.len() != players {
            return Err(PyValueError::new_err(format!(
                "{} seat specs for {players} players (2 to 6)",
                specs.len()
            )));
        }
        if specs.iter().all(|s| s.is_some()) {
            return Err(PyValueError::new_err("no learner seat (a spec of None)"));
        }
        let specs = specs
            .iter()
            .map(|spec| spec.as_deref().map(agents::Factory::new).transpose())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let rules: Rules = crate::rules::rules_from(None, None, rules, None)?;
        if max_actions == 0 {
            return Err(PyValueError::new_err("max_actions must be at least 1"));
        }
        let radius = radius.min(crate::encoding::FULL_RADIUS);
        let cfg = Config {
            rules,
            players,
            specs,
            radius,
            max_actions,
            observe,
            features,
            seed,
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.unwrap_or(0))
            .build()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let width = (2 * radius + 1) as usize;
        let n = num_envs;
        let d = PyDict::new(py);
        if observe {
            d.set_item("board", zeros::<f32>(py, &[n, PLANES.len(), width, width]))?;
            d.set_item("tile", zeros::<f32>(py, &[n, Tile::COUNT]))?;
            d.set_item("scores", zeros::<f32>(py, &[n, MAX_PLAYERS]))?;
            d.set_item("supplies", zeros::<f32>(py, &[n, MAX_PLAYERS]))?;
            d.set_item("bag", zeros::<f32>(py, &[n, Tile::COUNT]))?;
            d.set_item("gifts", zeros::<f32>(py, &[n, Gift::COUNT]))?;
            d.set_item("gift_counts", zeros::<f32>(py, &[n, MAX_PLAYERS]))?;
            d.set_item("state", zeros::<f32>(py, &[n, STATE_ENTRIES.len()]))?;
        }
        let m = max_actions;
        d.set_item("action_mask", zeros::<i8>(py, &[n, m]))?;
        for key in ["action_ids", "action_window"] {
            let array = zeros::<i64>(py, &[n, m]);
            array.call_method1("fill", (-1,))?;
            d.set_item(key, array)?;
        }
        if features {
            d.set_item("action_features", zeros::<f32>(py, &[n, m, COLUMN_COUNT]))?;
        }
        d.set_item("num_actions", zeros::<i64>(py, &[n]))?;
        d.set_item("to_play", zeros::<i64>(py, &[n]))?;
        d.set_item("rewards", zeros::<f32>(py, &[n, players]))?;
        d.set_item("final_scores", zeros::<f32>(py, &[n, players]))?;
        d.set_item("terminated", zeros::<bool>(py, &[n]))?;
        d.set_item("episode", zeros::<i64>(py, &[n]))?;
        d.set_item("game_seed", zeros::<u64>(py, &[n]))?;
        let mut env = VectorEnv {
            cfg,
            num_envs,
            slots: Mutex::new(Vec::new()),
            pool,
            arrays: d.unbind(),
        };
        env.reset(py, None)?;
        Ok(env)
    }

    /// Start every game afresh (episode 0 of each, or of seed `seed`).
    #[pyo3(signature = (seed = None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<u64>) -> PyResult<()> {
        if let Some(seed) = seed {
            self.cfg.seed = seed;
        }
        let n = self.num_envs;
        let (cfg, pool) = (&self.cfg, &self.pool);
        let slots = py.detach(|| {
            guard(|| {
                Ok(pool.install(|| {
                    (0..n as u64)
                        .into_par_iter()
                        .map(|i| {
                            let mut slot = Slot::new(cfg, i);
                            slot.fill(cfg);
                            // Every row of the arrays is written afresh.
                            slot.published = cfg.max_actions;
                            slot
                        })
                        .collect::<Vec<_>>()
                }))
            })
        })?;
        *self.slots.get_mut().unwrap_or_else(|e| e.into_inner()) = slots;
        self.first_error()?;
        self.publish(py)
    }

    /// Play one action in every game: `actions[i]` is an index into game
    /// `i`'s legal actions (below ``num_actions[i]``). Games go on to
    /// their next learner decision; finished games are reset at once.
    fn step(&mut self, py: Python<'_>, actions: Vec<i64>) -> PyResult<()> {
        let slots = self.slots.get_mut().unwrap_or_else(|e| e.into_inner());
        if actions.len() != slots.len() {
            return Err(PyValueError::new_err(format!(
                "{} actions for {} games",
                actions.len(),
                slots.len()
            )));
        }
        for (i, (&a, slot)) in actions.iter().zip(slots.iter()).enumerate() {
            if a < 0 || a as usize >= slot.legal.len() {
                return Err(PyValueError::new_err(format!(
                    "game {i}: action {a} is not an index of its {} legal actions",
                    slot.legal.len()
                )));
            }
        }
        let (cfg, pool) = (&self.cfg, &self.pool);
        py.detach(|| {
            guard(|| {
                pool.install(|| {
                    slots
                        .par_iter_mut()
                        .zip(actions.par_iter())
                        .for_each(|(slot, &a)| slot.step(cfg, a))
                });
                Ok(())
            })
        })?;
        self.first_error()?;
        self.publish(py)
    }

    /// The arrays, name → numpy array, shared (overwritten by each step).
    fn arrays(&self, py: Python<'_>) -> Py<PyDict> {
        self.arrays.clone_ref(py)
    }

    /// Number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }

    /// The seed of the built-in agent in `seat` of the game dealt from
    /// `game_seed` (as `agent(spec, seed=…)` takes it).
    #[staticmethod]
    fn agent_seed(game_seed: u64, seat: usize) -> u64 {
        agent_seed(game_seed, seat)
    }

    /// Game `env`'s position now, as a ``Game`` (its draws go on from a
    /// fresh generator of the same seed, not from where the game is).
    fn game(&self, env: usize) -> PyResult<crate::game::Game> {
        let slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        let slot = slots
            .get(env)
            .ok_or_else(|| PyValueError::new_err(format!("no game {env}")))?;
        Ok(crate::game::Game::from_state(
            slot.state.clone(),
            slot.game_seed,
        ))
    }
}
