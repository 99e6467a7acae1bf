//! `Game`: a game in progress, with explicit chance (OpenSpiel style), its
//! record as it is played, and replay of record files.

use crate::action::{Action, ActionList};
use crate::encoding::ActionSpace;
use crate::errors::{guard, illegal};
use crate::observation::Observation;
use crate::rules::{rules_dict, rules_from};
use crate::view::View;
use agents::game::Driver;
use engine::{Action as EngineAction, Chance, ChanceOutcome, Phase, Record, Seat, State};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A game of Carcassonne (base game with farmers, optionally The Gifts).
///
/// Chance is explicit: when ``is_chance()`` a tile (or gift card) must be
/// drawn, with ``draw_random()`` (from the game's seeded generators, the
/// same as the Rust tournament's) or ``apply_chance(outcome)`` with one of
/// ``chance_outcomes()``. Otherwise ``current_seat()`` must choose one of
/// ``legal_actions()`` and ``apply`` it.
#[pyclass(module = "carcassonne")]
#[derive(Clone)]
pub struct Game {
    /// The state, its record and the deck seed's generators: the game
    /// driver every game of the toolkit is played with.
    driver: Driver,
}

impl Game {
    /// A game that goes on from `state` (its record starts empty), its
    /// draws seeded with `seed`.
    pub fn from_state(state: State, seed: u64) -> Game {
        Game {
            driver: Driver::from_state(state, seed),
        }
    }

    /// The game as it stands.
    pub(crate) fn state(&self) -> &State {
        self.driver.state()
    }

    /// Turn an ``Action``, an integer id or a notation string into an
    /// engine action (legality is checked when it is applied).
    pub(crate) fn action_of(&self, action: &Bound<'_, PyAny>) -> PyResult<EngineAction> {
        action_from(self.driver.state(), action)
    }

    fn apply_engine(&mut self, action: EngineAction) -> PyResult<()> {
        let state = self.driver.state();
        if state.is_chance() || state.is_over() {
            return Err(illegal(format!(
                "no seat is to play ({:?}): {}",
                state.phase(),
                state.describe(action)
            )));
        }
        let described = state.describe(action);
        self.driver
            .play(action)
            .map_err(|e| illegal(format!("{described}: {e}")))
    }

    /// The record so far (with final scores once the game is over).
    pub fn record(&self) -> Record {
        self.driver.record_so_far()
    }
}

#[pymethods]
impl Game {
    /// A new game: `players` seats (2–6), seat 0 first. `seed` seeds the
    /// tile draws and the gift draws of ``draw_random()`` exactly as the
    /// Rust tournament seeds a deck; None picks one at random.
    ///
    /// The rules: standard (farmers on, The Gifts off), then `rules` (the
    /// command line's ``--rules`` text ``"hole_bonus=true,…"`` or a dict),
    /// then variant keywords (``hole_bonus=True``,
    /// ``final_incomplete=False``: the keys of RULES.md §8), then
    /// `farmers` / `gifts` when given. A bad key, value or combination
    /// (or a variant the engine does not play yet) raises ValueError.
    #[new]
    #[pyo3(signature = (players = 2, farmers = None, gifts = None, seed = None, rules = None, **variants))]
    fn py_new(
        players: usize,
        farmers: Option<bool>,
        gifts: Option<bool>,
        seed: Option<u64>,
        rules: Option<&Bound<'_, PyAny>>,
        variants: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Game> {
        if !(2..=engine::MAX_PLAYERS).contains(&players) {
            return Err(PyValueError::new_err(format!(
                "players must be 2 to 6, not {players}"
            )));
        }
        let rules = rules_from(farmers, gifts, rules, variants)?;
        let mut game = Game::from_state(
            State::new(rules, players, Seat(0)),
            seed.unwrap_or_else(rand::random),
        );
        game.driver.record_mut().seed = seed;
        Ok(game)
    }

    /// Number of seats.
    #[getter]
    fn players(&self) -> usize {
        self.driver.state().players()
    }

    /// The rules: a dict of every rules key (``farmers``, ``gifts``, the
    /// RULES.md §8 variants) to its value.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        rules_dict(py, &self.driver.state().rules())
    }

    /// Turns completed so far.
    #[getter]
    fn turns(&self) -> usize {
        self.driver.state().turns()
    }

    /// A chance event (tile or gift draw) is due.
    fn is_chance(&self) -> bool {
        self.driver.state().is_chance()
    }

    /// The game is over (final scoring done).
    fn is_over(&self) -> bool {
        self.driver.state().is_over()
    }

    /// The seat that must choose an action, or None at a chance event or
    /// when the game is over.
    fn current_seat(&self) -> Option<usize> {
        (!self.driver.state().is_chance() && !self.driver.state().is_over())
            .then(|| self.driver.state().to_play().index())
    }

    /// The seat whose turn it is (also during its chance events).
    fn turn_seat(&self) -> usize {
        self.driver.state().to_play().index()
    }

    /// ``"draw"``, ``"place"``, ``"draw_second"``, ``"choose"``,
    /// ``"draw_gift"``, ``"draw_hand"``, ``"place_hand"`` or ``"over"``.
    fn phase(&self) -> &'static str {
        match self.driver.state().phase() {
            Phase::Draw => "draw",
            Phase::Place(_) => "place",
            Phase::DrawSecond(_) => "draw_second",
            Phase::Choose(..) => "choose",
            Phase::DrawGift => "draw_gift",
            Phase::DrawHand => "draw_hand",
            Phase::PlaceHand => "place_hand",
            Phase::Over => "over",
        }
    }

    /// The tile to place (or the two tiles to choose from after Take 2),
    /// as letters; empty at other times.
    fn tiles_to_place(&self) -> Vec<String> {
        match self.driver.state().phase() {
            Phase::Place(t) => vec![t.to_string()],
            Phase::Choose(a, b) => vec![a.to_string(), b.to_string()],
            _ => Vec::new(),
        }
    }

    /// The possible outcomes of the due chance event with their
    /// probabilities: tile letters (``"A"``–``"X"``) for a tile draw, gift
    /// names (``"synod"``, …) for a gift draw; empty when none is due.
    fn chance_outcomes(&self) -> Vec<(String, f64)> {
        self.driver
            .state()
            .chance_outcomes()
            .into_iter()
            .map(|(chance, p)| (chance_name(chance), p))
            .collect()
    }

    /// Apply a chance outcome (a tile letter or a gift name from
    /// ``chance_outcomes()``). A drawn tile with no legal placement is set
    /// aside and another draw is due.
    fn apply_chance(&mut self, outcome: &str) -> PyResult<()> {
        guard(|| {
            let chance = match self.driver.state().phase() {
                Phase::DrawGift => Chance::Gift(outcome.parse().map_err(illegal)?),
                _ => Chance::Tile(outcome.parse().map_err(illegal)?),
            };
            self.driver.apply_chance(chance).map_err(illegal)?;
            Ok(())
        })
    }

    /// Resolve the due chance event at random (tiles from the game's deck
    /// generator, gift cards from its gift generator) and return the
    /// outcome.
    fn draw_random(&mut self) -> PyResult<String> {
        guard(|| match self.driver.draw() {
            Some(ChanceOutcome::Tile(t, _)) => Ok(t.to_string()),
            Some(ChanceOutcome::Gift(g)) => Ok(g.to_string()),
            None => Err(illegal(format!(
                "no chance event is due ({:?})",
                self.driver.state().phase()
            ))),
        })
    }

    /// Every legal action of the seat to play (empty at chance events and
    /// at the end).
    fn legal_actions(&self) -> ActionList {
        ActionList::new(self.driver.state(), |f| {
            self.driver.state().for_each_action(f)
        })
    }

    /// The ids of the legal actions (faster than ``legal_actions()`` when
    /// only ids are needed).
    fn legal_action_ids(&self) -> Vec<u32> {
        let mut out = Vec::new();
        self.driver
            .state()
            .for_each_action(|a| out.extend(a.to_index()));
        out
    }

    /// Apply an action of the seat to play: an ``Action``, its integer id
    /// or its notation. Raises ``IllegalActionError`` with the engine's
    /// reason if it is not legal now (the game is unchanged).
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let action = self.action_of(action)?;
        guard(|| self.apply_engine(action))
    }

    /// Apply the action of index `index` in the encoding of window radius
    /// `radius` (as the environments' action spaces number them).
    #[pyo3(signature = (index, radius = 10))]
    fn apply_index(&mut self, index: u32, radius: u32) -> PyResult<()> {
        let action = ActionSpace::new(radius)
            .decode(index)
            .ok_or_else(|| illegal(format!("no action has index {index} (radius {radius})")))?;
        guard(|| self.apply_engine(action))
    }

    /// Play a uniformly random legal action (the engine's `random_action`:
    /// the random playout's policy), from a generator seeded with `seed`,
    /// and return it; None when no seat is to play.
    #[pyo3(signature = (seed))]
    fn apply_random(&mut self, seed: u64) -> PyResult<Option<Action>> {
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let seat = self.driver.state().to_play();
        let Some(action) = self.driver.state().view(seat).random_action(&mut rng) else {
            return Ok(None);
        };
        let described = Action::new(self.driver.state(), action);
        guard(|| self.apply_engine(action))?;
        Ok(Some(described))
    }

    /// An independent copy.
    fn clone(&self) -> Game {
        Clone::clone(self)
    }

    fn __copy__(&self) -> Game {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        Clone::clone(self)
    }

    /// Each seat's score: a dict with ``total``, ``road``, ``city``,
    /// ``monastery``, ``farm`` and ``gifts`` (unopened cards at the end).
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        (0..self.driver.state().players())
            .map(|s| score_dict(py, self.driver.state().score(Seat(s as u8))))
            .collect()
    }

    /// Each seat's share of the win once the game is over (1 to a sole
    /// winner, split equally among tied winners, 0 to the others; they sum
    /// to 1), None before.
    fn returns(&self) -> Option<Vec<f64>> {
        self.driver
            .state()
            .returns()
            .map(|r| r[..self.driver.state().players()].to_vec())
    }

    /// Tiles left to draw, by letter.
    fn bag(&self) -> Vec<(String, u8)> {
        self.driver
            .state()
            .bag()
            .iter()
            .map(|(t, c)| (t.to_string(), c))
            .collect()
    }

    /// Meeples in each seat's supply.
    fn supplies(&self) -> Vec<u8> {
        (0..self.driver.state().players())
            .map(|s| self.driver.state().supply(Seat(s as u8)))
            .collect()
    }

    /// The placed tiles: ``(x, y, tile, rotation)`` in placement order.
    fn board(&self) -> Vec<(i8, i8, String, u8)> {
        self.driver
            .state()
            .board()
            .tiles()
            .iter()
            .map(|p| (p.pos.x, p.pos.y, p.tile.to_string(), p.rot.quarter_turns()))
            .collect()
    }

    /// What `seat` may see (its own gift cards, never another seat's).
    fn view(&self, seat: usize) -> PyResult<View> {
        View::new(self.driver.state().clone(), seat)
    }

    /// The observation of `seat` as numpy arrays (see the package README,
    /// "Observations"): a dict of ``board`` (planes × window × window),
    /// ``tile``, ``scores``, ``supplies``, ``bag``, ``gifts``,
    /// ``gift_counts``, ``phase``. Needs numpy. The window holds the cells
    /// with ``|x|, |y| <= radius``.
    #[pyo3(signature = (seat, radius = 10))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: usize,
        radius: u32,
    ) -> PyResult<Bound<'py, PyDict>> {
        let seat = check_seat(self.driver.state(), seat)?;
        Observation::of(self.driver.state(), seat, radius).to_numpy(py)
    }

    /// The features of every legal action, one row per action in the
    /// order of ``legal_actions()``: a float32 numpy array of shape
    /// ``(len(legal_actions()), len(ACTION_FEATURES))`` (columns in
    /// ``carcassonne.ACTION_FEATURES``, documented in the package README),
    /// computed in one call. Empty at chance events and at the end.
    fn action_features<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::observation::action_features_numpy(py, self.driver.state())
    }

    /// The legal-action mask of window radius `radius` as a numpy int8
    /// array of ``action_count(radius)`` entries (1 = legal). Legal actions
    /// outside the window are not in it.
    #[pyo3(signature = (radius = 10))]
    fn action_mask<'py>(&self, py: Python<'py>, radius: u32) -> PyResult<Bound<'py, PyAny>> {
        crate::observation::mask_numpy(py, self.driver.state(), radius)
    }

    /// The game's record as JSON (the format of docs/RECORD-FORMAT.md), with final
    /// scores once the game is over.
    fn to_record(&self) -> PyResult<String> {
        serde_json::to_string(&self.record()).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The game a JSON record leads to, replayed through the engine.
    /// Raises ``IllegalActionError`` naming the turn of an illegal step.
    /// Further ``draw_random()`` calls use generators seeded with the
    /// record's seed, restarted.
    #[staticmethod]
    fn from_record(json: &str) -> PyResult<Game> {
        let record: Record = serde_json::from_str(json)
            .map_err(|e| PyValueError::new_err(format!("not a game record: {e}")))?;
        guard(|| game_of_record(record).map_err(illegal))
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(players={}, turn={}, phase={}, scores={:?})",
            self.driver.state().players(),
            self.driver.state().turns(),
            self.phase(),
            (0..self.driver.state().players())
                .map(|s| self.driver.state().score(Seat(s as u8)).total())
                .collect::<Vec<_>>()
        )
    }
}

/// A chance outcome's name: a tile letter or a gift name.
fn chance_name(chance: Chance) -> String {
    match chance {
        Chance::Tile(t) => t.to_string(),
        Chance::Gift(g) => g.to_string(),
    }
}

/// Replay `record` into a game that can go on.
fn game_of_record(mut record: Record) -> Result<Game, engine::ReplayError> {
    let state = engine::replay(&record, false)?;
    record.final_scores = None;
    let seed = record.seed.unwrap_or_else(rand::random);
    let mut game = Game::from_state(state, seed);
    *game.driver.record_mut() = record;
    Ok(game)
}

/// Turn an ``Action``, an integer id or a notation string (read in the
/// position of `state`) into an engine action (legality is not checked).
pub(crate) fn action_from(state: &State, action: &Bound<'_, PyAny>) -> PyResult<EngineAction> {
    if let Ok(a) = action.cast::<Action>() {
        return Ok(a.get().action);
    }
    if let Ok(id) = action.extract::<u32>() {
        return EngineAction::from_index(id)
            .ok_or_else(|| illegal(format!("no action has id {id}")));
    }
    if let Ok(text) = action.extract::<String>() {
        return state.parse_action(&text).map_err(illegal);
    }
    Err(PyTypeError::new_err(
        "an action is an Action, an integer id or a notation string",
    ))
}

/// A score as a dict.
pub fn score_dict(py: Python<'_>, score: engine::Score) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("total", score.total())?;
    d.set_item("road", score.road)?;
    d.set_item("city", score.city)?;
    d.set_item("monastery", score.monastery)?;
    d.set_item("farm", score.farm)?;
    d.set_item("gifts", score.gifts)?;
    Ok(d)
}

/// `seat` as a seat of `state`.
pub fn check_seat(state: &State, seat: usize) -> PyResult<Seat> {
    if seat >= state.players() {
        return Err(PyValueError::new_err(format!(
            "seat {seat} is not a seat of a {}-player game",
            state.players()
        )));
    }
    Ok(Seat(seat as u8))
}

/// Every game in the record file at `path` (one JSON record, or JSON
/// Lines), replayed. Raises ``IllegalActionError`` with ``path:line: turn
/// N: reason`` for an illegal record.
#[pyfunction]
pub fn replay(path: std::path::PathBuf) -> PyResult<Vec<Game>> {
    let text = std::fs::read_to_string(&path)
        .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?;
    let mut games = Vec::new();
    let stream = serde_json::Deserializer::from_str(&text).into_iter::<Record>();
    for item in stream {
        let record = item
            .map_err(|e| PyValueError::new_err(format!("{}:{}: {e}", path.display(), e.line())))?;
        let n = games.len() + 1;
        let game = guard(|| {
            game_of_record(record)
                .map_err(|e| illegal(format!("{}: record {n}: {e}", path.display())))
        })?;
        games.push(game);
    }
    Ok(games)
}
