//! `View`: what one seat may see of a game — the board, scores, supplies,
//! the tiles it has not seen as counts (the bag, with hidden hands the
//! other seats' hands too), its own gift cards and the other seats' card
//! counts.

use crate::action::ActionList;
use crate::errors::illegal;
use crate::game::{check_seat, score_dict, Game};
use crate::observation::Observation;
use engine::{Action as EngineAction, Gift, Phase, Seat, SeatView, State};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;

/// One seat's view of a game: public information and the seat's own gift
/// cards only. Agents receive it; ``determinize(seed)`` deals the unseen
/// cards at random into a complete ``Game`` for search.
#[pyclass(module = "carcassonne", frozen)]
pub struct View {
    // The state is held whole, but only what `SeatView` exposes is read.
    state: State,
    seat: Seat,
}

impl View {
    /// The view of `seat` of `state`.
    pub fn new(state: State, seat: usize) -> PyResult<View> {
        let seat = check_seat(&state, seat)?;
        Ok(View { state, seat })
    }

    /// The engine's view.
    pub fn seat_view(&self) -> SeatView<'_> {
        self.state.view(self.seat)
    }

    /// The state, for the crate's engine calls that need it (notation).
    pub(crate) fn state(&self) -> &State {
        &self.state
    }

    /// The seat whose view this is.
    pub(crate) fn seat_index(&self) -> usize {
        self.seat.index()
    }

    /// This seat is to play (no chance event, the game not over).
    fn seat_to_play(&self) -> bool {
        !self.state.is_chance() && !self.state.is_over() && self.state.to_play() == self.seat
    }

    /// The actions to encode: `actions` (``Action``, ids or notation),
    /// each checked legal for this seat, or by default the seat's legal
    /// actions (none when it is not to play).
    pub(crate) fn actions_for_encoding(
        &self,
        actions: Option<Vec<Bound<'_, PyAny>>>,
    ) -> PyResult<Vec<EngineAction>> {
        let Some(actions) = actions else {
            if !self.seat_to_play() {
                return Ok(Vec::new());
            }
            let mut out = Vec::new();
            self.seat_view().for_each_action(|a| out.push(a));
            return Ok(out);
        };
        let mut out = Vec::with_capacity(actions.len());
        for a in &actions {
            let action = crate::game::action_from(&self.state, a)?;
            if !self.seat_to_play() {
                return Err(illegal(format!(
                    "seat {} is not to play: {}",
                    self.seat.index(),
                    self.state.describe(action)
                )));
            }
            self.state
                .check_action(action)
                .map_err(|e| illegal(format!("{}: {e}", self.state.describe(action))))?;
            out.push(action);
        }
        Ok(out)
    }
}

#[pymethods]
impl View {
    /// The seat whose view this is.
    #[getter]
    fn seat(&self) -> usize {
        self.seat.index()
    }

    /// Number of seats.
    #[getter]
    fn players(&self) -> usize {
        self.seat_view().players()
    }

    /// The seat whose turn it is.
    fn turn_seat(&self) -> usize {
        self.seat_view().to_play().index()
    }

    /// This seat must choose an action now.
    fn is_to_play(&self) -> bool {
        let v = self.seat_view();
        v.to_play() == self.seat && !self.state.is_chance() && !v.is_over()
    }

    /// The game is over.
    fn is_over(&self) -> bool {
        self.seat_view().is_over()
    }

    /// The tile to place (or the two of Take 2's choice; with a hand of
    /// tiles, the seat's own hand to choose from), as letters.
    fn tiles_to_place(&self) -> Vec<String> {
        let v = self.seat_view();
        match v.phase() {
            Phase::Place(t) => vec![t.to_string()],
            Phase::Choose(a, b) => vec![a.to_string(), b.to_string()],
            Phase::PlaceHand if v.to_play() == self.seat => {
                v.own_tiles().iter().map(|t| t.to_string()).collect()
            }
            _ => Vec::new(),
        }
    }

    /// The legal actions of this seat (empty when it is not to play).
    fn legal_actions(&self) -> ActionList {
        ActionList::new(&self.state, |f| self.seat_view().for_each_action(f))
    }

    /// The features of this seat's legal actions (see
    /// ``Game.action_features``; no rows when it is not to play). They
    /// read only what the seat may see.
    fn action_features<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let to_play =
            !self.state.is_chance() && !self.state.is_over() && self.state.to_play() == self.seat;
        if to_play {
            crate::observation::action_features_numpy(py, &self.state)
        } else {
            crate::observation::action_features_numpy(
                py,
                &State::new(self.state.rules(), self.state.players(), Seat(0)),
            )
        }
    }

    /// Each seat's score (see ``Game.scores``).
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let v = self.seat_view();
        (0..v.players())
            .map(|s| score_dict(py, v.score(Seat(s as u8))))
            .collect()
    }

    /// Meeples in each seat's supply.
    fn supplies(&self) -> Vec<u8> {
        let v = self.seat_view();
        (0..v.players()).map(|s| v.supply(Seat(s as u8))).collect()
    }

    /// The tiles this seat has not seen, by letter: the tiles left to
    /// draw, and with hidden hands (``hand`` without ``hand_visible``) the
    /// other seats' hands too, never told apart from the bag.
    fn bag(&self) -> Vec<(String, u8)> {
        self.seat_view()
            .unseen_tiles()
            .iter()
            .map(|(t, c)| (t.to_string(), c))
            .collect()
    }

    /// This seat's gift cards, by name (The Gifts).
    fn own_gifts(&self) -> Vec<(String, u8)> {
        let hand = self.seat_view().own_hand();
        Gift::ALL
            .into_iter()
            .filter(|&g| hand.count(g) > 0)
            .map(|g| (g.to_string(), hand.count(g)))
            .collect()
    }

    /// How many gift cards each seat holds.
    fn gift_counts(&self) -> Vec<u8> {
        let v = self.seat_view();
        (0..v.players())
            .map(|s| v.hand_size(Seat(s as u8)))
            .collect()
    }

    /// The placed tiles: ``(x, y, tile, rotation)`` in placement order.
    fn board(&self) -> Vec<(i8, i8, String, u8)> {
        self.seat_view()
            .board()
            .tiles()
            .iter()
            .map(|p| (p.pos.x, p.pos.y, p.tile.to_string(), p.rot.quarter_turns()))
            .collect()
    }

    /// The observation of this seat as numpy arrays (see
    /// ``Game.observation``).
    #[pyo3(signature = (radius = 10))]
    fn observation<'py>(&self, py: Python<'py>, radius: u32) -> PyResult<Bound<'py, PyDict>> {
        Observation::of(&self.state, self.seat, radius).to_numpy(py)
    }

    /// The network's input for this view (docs/neural.md, encoding
    /// ``ENCODING_VERSION``; the encoder of the ``az`` agent and of
    /// self-play's training examples): ``board`` float32 [7200] (15 × 15
    /// cells × 32 channels, cell-major), ``globals`` float32 [193],
    /// ``actions`` float32 [M, 51] and ``action_cell`` uint32 [M] for
    /// `actions` (default: the seat's legal actions in the order of
    /// ``legal_actions()``, none when it is not to play; given ones must be
    /// legal), and ``encoding_version``.
    #[pyo3(signature = (actions = None))]
    fn encode<'py>(
        &self,
        py: Python<'py>,
        actions: Option<Vec<Bound<'py, PyAny>>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let actions = self.actions_for_encoding(actions)?;
        crate::neural::encode_view(py, &self.state, self.seat, &actions)
    }

    /// A complete game consistent with everything this seat knows: the
    /// unseen gift cards dealt at random from `seed`. Its chance draws use
    /// generators seeded with `seed` too.
    fn determinize(&self, seed: u64) -> Game {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let state = self.seat_view().determinize(&mut rng);
        Game::from_state(state, seed)
    }

    fn __repr__(&self) -> String {
        format!(
            "View(seat={}, turn={}, to_play={})",
            self.seat.index(),
            self.state.turns(),
            self.state.to_play().index()
        )
    }
}
