//! `Action`: one legal decision of a seat, with its record notation and
//! its integer id.

use crate::encoding::ActionSpace;
use engine::{Action as EngineAction, GiftOpen, State, Tile};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;

/// One decision of the seat to play: place the tile (with a meeple or
/// not), open a gift card, or keep one of the two tiles of Take 2.
///
/// ``str(action)`` is the record notation (e.g. ``"U (1, 0) r1 NNE"``,
/// ``"open cash_out (0, 1) S"``, ``"keep V"``); ``action.id`` is a stable
/// integer (see the package README, "Action encoding"). Actions compare
/// and hash by what they do.
#[pyclass(module = "carcassonne", frozen, eq, hash)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    pub(crate) action: EngineAction,
    notation: Notation,
}

/// What the notation of an action needs: a placement is written from the
/// tile alone (when asked); other actions are written when listed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Notation {
    Placement(Tile),
    Text(String),
}

impl Action {
    /// `action` with its notation in `state` (before it is applied).
    pub fn new(state: &State, action: EngineAction) -> Action {
        let notation = match (action, state.drawn_tile()) {
            (EngineAction::Place(_), Some(tile)) => Notation::Placement(tile),
            _ => Notation::Text(state.describe(action)),
        };
        Action { action, notation }
    }

    fn text(&self) -> String {
        match (&self.notation, self.action) {
            (Notation::Placement(tile), EngineAction::Place(m)) => m.display(*tile).to_string(),
            (Notation::Text(text), _) => text.clone(),
            (Notation::Placement(_), _) => unreachable!("placement notation of a placement"),
        }
    }
}

/// The legal actions of a decision, as a sequence: ``len``, indexing
/// (negative too), iteration and ``in``. Each ``Action`` object is made
/// when it is accessed, so listing many actions and using one is cheap.
#[pyclass(module = "carcassonne", frozen, sequence)]
pub struct ActionList {
    actions: Vec<Action>,
}

impl ActionList {
    /// Every legal action of the seat to play in `state`, for `f` to
    /// enumerate.
    pub fn new(state: &State, each: impl FnOnce(&mut dyn FnMut(EngineAction))) -> ActionList {
        let mut actions = Vec::new();
        each(&mut |a| actions.push(Action::new(state, a)));
        ActionList { actions }
    }
}

#[pymethods]
impl ActionList {
    fn __len__(&self) -> usize {
        self.actions.len()
    }

    fn __getitem__(&self, index: isize) -> PyResult<Action> {
        let n = self.actions.len() as isize;
        let i = if index < 0 { index + n } else { index };
        if !(0..n).contains(&i) {
            return Err(PyIndexError::new_err("action index out of range"));
        }
        Ok(self.actions[i as usize].clone())
    }

    fn __contains__(&self, action: PyRef<'_, Action>) -> bool {
        self.actions.iter().any(|a| a.action == action.action)
    }

    /// The ids of the actions, in order.
    fn ids(&self) -> Vec<u32> {
        self.actions
            .iter()
            .map(|a| a.action.to_index().expect("every legal action has an id"))
            .collect()
    }

    fn __repr__(&self) -> String {
        let shown: Vec<String> = self.actions.iter().take(5).map(Action::text).collect();
        let more = if self.actions.len() > 5 { ", …" } else { "" };
        format!(
            "ActionList([{}{more}], len={})",
            shown.join(", "),
            self.actions.len()
        )
    }
}

#[pymethods]
impl Action {
    /// The stable integer id of the action (the full-board encoding).
    #[getter]
    fn id(&self) -> u32 {
        self.action
            .to_index()
            .expect("every legal action has an id")
    }

    /// The index of the action in the encoding of window radius `radius`,
    /// or None when it lies outside the window.
    fn index(&self, radius: u32) -> Option<u32> {
        ActionSpace::new(radius).encode(self.action)
    }

    /// The record notation.
    #[getter]
    fn notation(&self) -> String {
        self.text()
    }

    /// ``"place"``, ``"open"`` or ``"keep"``.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.action {
            EngineAction::Place(_) => "place",
            EngineAction::Open(_) => "open",
            EngineAction::Keep(_) => "keep",
        }
    }

    /// For a placement: ``(x, y, rotation)``; else None.
    #[getter]
    fn placement(&self) -> Option<(i8, i8, u8)> {
        match self.action {
            EngineAction::Place(m) => {
                let p = m.placement;
                Some((p.pos.x, p.pos.y, p.rot.quarter_turns()))
            }
            _ => None,
        }
    }

    /// For a placement: the meeple's segment index on the tile, or None.
    #[getter]
    fn meeple(&self) -> Option<u8> {
        match self.action {
            EngineAction::Place(m) => m.meeple,
            _ => None,
        }
    }

    /// For a gift opening: the card's name; else None.
    #[getter]
    fn gift(&self) -> Option<String> {
        match self.action {
            EngineAction::Open(open) => Some(open.gift().to_string()),
            _ => None,
        }
    }

    /// For Take 2's choice: the tile kept; else None.
    #[getter]
    fn tile(&self) -> Option<String> {
        match self.action {
            EngineAction::Keep(t) => Some(t.to_string()),
            _ => None,
        }
    }

    /// True when this opening has no effect (a card with no target).
    #[getter]
    fn wasted(&self) -> bool {
        matches!(self.action, EngineAction::Open(GiftOpen::Wasted(_)))
    }

    fn __str__(&self) -> String {
        self.text()
    }

    fn __repr__(&self) -> String {
        format!("Action({:?}, id={})", self.text(), self.id())
    }
}
