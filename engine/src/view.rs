//! What one seat may see: the position without anything hidden from it.
//!
//! In the base game nothing is hidden but the order of the tiles, and the
//! state never holds that order (the bag is counts), so the view exposes
//! the state's public API. Hidden hands (The Gifts) are to be read only
//! through the view of their own seat.

use crate::seat::Seat;
use crate::state::State;
use rand::Rng;

/// A seat's view of a game.
#[derive(Clone, Copy, Debug)]
pub struct SeatView<'a> {
    state: &'a State,
    seat: Seat,
}

impl<'a> SeatView<'a> {
    /// The view of `seat`.
    pub fn new(state: &'a State, seat: Seat) -> SeatView<'a> {
        SeatView { state, seat }
    }

    /// The seat whose view this is.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The public position: board, scores, supplies, the bag as counts.
    pub fn state(&self) -> &'a State {
        self.state
    }

    /// A complete state consistent with everything this seat knows, for
    /// search: the unknown parts (future draws are chance events already;
    /// hidden hands once The Gifts lands) are sampled with `rng`.
    pub fn determinize<R: Rng + ?Sized>(&self, _rng: &mut R) -> State {
        self.state.clone()
    }
}

impl State {
    /// The view of `seat`.
    pub fn view(&self, seat: Seat) -> SeatView<'_> {
        SeatView::new(self, seat)
    }
}
