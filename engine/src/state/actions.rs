//! The seat's decision as one [`Action`]: listing, checking and playing
//! whatever the phase asks for (a placement, a gift opening, a Take 2
//! choice).

use super::State;
use crate::moves::IllegalMove;
use crate::seat::MAX_PLAYERS;
use crate::turn::{Action, Phase};

impl State {
    /// Every legal action of the seat to play, in [`State::for_each_action`]
    /// order (empty at chance events and at the end). This allocates; hot
    /// loops use [`State::for_each_action`].
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// assert!(state.legal_actions().is_empty()); // a tile must be drawn
    /// state.apply_chance_outcome(Chance::Tile(Tile::V)).unwrap();
    /// let actions = state.legal_actions();
    /// assert!(!actions.is_empty());
    /// assert!(actions.iter().all(|&a| state.check_action(a).is_ok()));
    /// ```
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        self.for_each_action(|a| actions.push(a));
        actions
    }

    /// The outcome per seat once the game is over (`None` before): the
    /// seats with the highest total share 1 equally, the others get 0 (so
    /// the returns sum to 1). Seats past [`State::players`] get 0.
    ///
    /// # Examples
    /// ```
    /// use engine::{random_playout, Rules, Seat, State};
    /// use rand::SeedableRng;
    ///
    /// let mut state = State::new(Rules::default(), 3, Seat(0));
    /// assert_eq!(state.returns(), None);
    /// random_playout(&mut state, &mut rand_pcg::Pcg64Mcg::seed_from_u64(7));
    /// let returns = state.returns().unwrap();
    /// assert!((returns.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    /// ```
    pub fn returns(&self) -> Option<[f64; MAX_PLAYERS]> {
        if !self.is_over() {
            return None;
        }
        let totals = |s: usize| self.scores.0[s].total();
        let best = (0..self.players()).map(totals).max().unwrap_or(0);
        let winners = (0..self.players()).filter(|&s| totals(s) == best).count();
        let mut returns = [0.0; MAX_PLAYERS];
        for (s, r) in returns.iter_mut().enumerate().take(self.players()) {
            if totals(s) == best {
                *r = 1.0 / winners as f64;
            }
        }
        Some(returns)
    }

    /// Calls `f` for every legal action of the seat to play: every
    /// placement (with its meeple options) and every gift opening in
    /// [`Phase::Place`], the two tiles in [`Phase::Choose`]. Each effect is
    /// listed once: a Road Sweeper is listed on the road's root segment,
    /// though [`State::check_action`] also accepts it on any other segment
    /// of the road (as records may name it), with the same effect.
    ///
    /// # Examples
    /// ```
    /// use engine::{Action, Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let mut places = 0;
    /// state.for_each_action(|a| places += matches!(a, Action::Place(_)) as usize);
    /// assert_eq!(places, state.legal_actions().len()); // no gifts: placements only
    /// ```
    pub fn for_each_action(&self, mut f: impl FnMut(Action)) {
        match self.phase {
            Phase::Place(_) => {
                self.for_each_move(|m| f(Action::Place(m)));
                self.for_each_gift_open(|g| f(Action::Open(g)));
            }
            Phase::PlaceHand => self.for_each_move(|m| f(Action::Place(m))),
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
    ///
    /// # Errors
    /// The [`IllegalMove`] saying why `action` is not legal now.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// use engine::{Action, IllegalMove};
    /// assert_eq!(state.check_action(Action::Keep(Tile::V)), Err(IllegalMove::WrongPhase(state.phase())));
    /// ```
    pub fn check_action(&self, action: Action) -> Result<(), IllegalMove> {
        match action {
            Action::Place(m) => self.check(m),
            Action::Open(g) => self.check_open(g),
            Action::Keep(t) => self.check_keep(t),
        }
    }

    /// Play a legal action (checked only by `debug_assert!`).
    ///
    /// The twin of [`State::try_action`] for search over generated actions: an
    /// action that is not legal corrupts the state in release builds.
    ///
    /// # Panics
    /// If the phase does not take actions of this kind; with debug
    /// assertions, if `action` is not legal.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let mut first = None;
    /// state.for_each_action(|a| { first.get_or_insert(a); });
    /// state.play_action_unchecked(first.unwrap());
    /// assert!(state.is_chance());
    /// ```
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
    ///
    /// # Errors
    /// The [`IllegalMove`] [`State::check_action`] finds; the state is then
    /// unchanged.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let action = state.legal_actions()[0];
    /// state.try_action(action).unwrap();
    /// assert!(state.try_action(action).is_err()); // now a tile must be drawn
    /// ```
    pub fn try_action(&mut self, action: Action) -> Result<(), IllegalMove> {
        self.check_action(action)?;
        self.play_action_unchecked(action);
        Ok(())
    }
}
