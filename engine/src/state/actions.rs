//! The seat's decision as one [`Action`]: listing, checking and playing
//! whatever the phase asks for (a placement, a gift opening, a Take 2
//! choice).

use super::State;
use crate::moves::IllegalMove;
use crate::turn::{Action, Phase};

impl State {
    /// Calls `f` for every legal action of the seat to play: every
    /// placement (with its meeple options) and every gift opening in
    /// [`Phase::Place`], the two tiles in [`Phase::Choose`].
    pub fn for_each_action(&self, mut f: impl FnMut(Action)) {
        match self.phase {
            Phase::Place(_) => {
                self.for_each_move(|m| f(Action::Place(m)));
                self.for_each_gift_open(|g| f(Action::Open(g)));
            }
            Phase::Choose(a, b) => {
                f(Action::Keep(a));
                if b != a {
                    f(Action::Keep(b));
                }
            }
            _ => {}
        }
    }

    /// Why `action` is illegal now, if it is.
    pub fn check_action(&self, action: Action) -> Result<(), IllegalMove> {
        match action {
            Action::Place(m) => self.check(m),
            Action::Open(g) => self.check_open(g),
            Action::Keep(t) => self.check_keep(t),
        }
    }

    /// Play a legal action (checked only by `debug_assert!`).
    pub fn play_action_unchecked(&mut self, action: Action) {
        match action {
            Action::Place(m) => self.play_unchecked(m),
            Action::Open(g) => self.open_unchecked(g),
            Action::Keep(t) => {
                debug_assert_eq!(self.check_keep(t), Ok(()));
                self.keep_unchecked(t)
            }
        }
    }

    /// Play `action` after checking it; a refused action changes nothing.
    pub fn try_action(&mut self, action: Action) -> Result<(), IllegalMove> {
        self.check_action(action)?;
        self.play_action_unchecked(action);
        Ok(())
    }
}
