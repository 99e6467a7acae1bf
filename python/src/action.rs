//! `Action`: one legal decision of a seat, with its record notation and
//! its integer id.

use crate::encoding::{ActionSpace, FULL_RADIUS};
use engine::{Action as EngineAction, GiftOpen, State};
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
    notation: String,
}

impl Action {
    /// `action` with its notation in `state` (before it is applied).
    pub fn new(state: &State, action: EngineAction) -> Action {
        Action {
            action,
            notation: state.describe(action),
        }
    }
}

#[pymethods]
impl Action {
    /// The stable integer id of the action (the full-board encoding).
    #[getter]
    fn id(&self) -> u32 {
        ActionSpace::new(FULL_RADIUS)
            .encode(self.action)
            .expect("every legal action lies in the full window")
    }

    /// The index of the action in the encoding of window radius `radius`,
    /// or None when it lies outside the window.
    fn index(&self, radius: u32) -> Option<u32> {
        ActionSpace::new(radius).encode(self.action)
    }

    /// The record notation.
    #[getter]
    fn notation(&self) -> &str {
        &self.notation
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

    fn __str__(&self) -> &str {
        &self.notation
    }

    fn __repr__(&self) -> String {
        format!("Action({:?}, id={})", self.notation, self.id())
    }
}
