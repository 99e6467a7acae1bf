//! A seat's options in its view: the legal placements, moves and
//! actions, checked or drawn at random, exactly as the [`State`] lists
//! them (the seat's own gift cards are its to open).

use super::SeatView;
use crate::moves::{IllegalMove, Move, MoveList, Placement};
use crate::turn::Action;
use rand::Rng;

#[cfg(doc)]
use crate::state::State;

impl SeatView<'_> {
    /// Every legal placement.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let mut n = 0;
    /// state.view(Seat(0)).for_each_placement(|_| n += 1);
    /// assert_eq!(n, state.placement_count());
    /// ```
    pub fn for_each_placement(&self, f: impl FnMut(Placement)) {
        self.state.for_each_placement(f)
    }

    /// Every legal move (placement and meeple).
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let mut n = 0;
    /// state.view(Seat(0)).for_each_move(|_| n += 1);
    /// assert_eq!(n, 24);
    /// ```
    pub fn for_each_move(&self, f: impl FnMut(Move)) {
        self.state.for_each_move(f)
    }

    /// Fill `list` with every legal move.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, MoveList, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let mut moves = MoveList::new();
    /// state.view(Seat(0)).legal_moves(&mut moves);
    /// assert_eq!(moves.len(), 24);
    /// ```
    pub fn legal_moves(&self, list: &mut MoveList) {
        self.state.legal_moves(list)
    }

    /// Why an action of this seat is illegal, if it is (every action is,
    /// when another seat is to play).
    ///
    /// # Errors
    /// The [`IllegalMove`], as [`State::check_action`].
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let view = state.view(Seat(0));
    /// let action = state.legal_actions()[0];
    /// assert_eq!(view.check_action(action), Ok(()));
    /// ```
    pub fn check_action(&self, action: Action) -> Result<(), IllegalMove> {
        if self.state.to_play() != self.seat {
            return Err(IllegalMove::WrongPhase(self.state.phase()));
        }
        self.state.check_action(action)
    }

    /// Every legal action of this seat (moves, gift openings, Take 2's
    /// choice); none when another seat is to play, whose gift openings
    /// would reveal its cards.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let (mut mine, mut theirs) = (0, 0);
    /// state.view(Seat(0)).for_each_action(|_| mine += 1);
    /// state.view(Seat(1)).for_each_action(|_| theirs += 1);
    /// assert_eq!((mine, theirs), (24, 0));
    /// ```
    pub fn for_each_action(&self, f: impl FnMut(Action)) {
        if self.state.to_play() != self.seat {
            return;
        }
        self.state.for_each_action(f)
    }

    /// A uniformly random action (see [`crate::random_action`]) for this seat,
    /// which must be the seat to play. It depends only on what the seat
    /// may see: the public position and its own hand.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    /// use rand::SeedableRng;
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
    /// let action = state.view(Seat(0)).random_action(&mut rng).unwrap();
    /// assert!(state.check_action(action).is_ok());
    /// assert_eq!(state.view(Seat(1)).random_action(&mut rng), None); // not its turn
    /// ```
    pub fn random_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Action> {
        if self.state.to_play() != self.seat {
            return None;
        }
        crate::playout::random_action(self.state, rng)
    }

    /// A uniformly random gift opening for this seat (see
    /// [`crate::playout::random_gift_open`]), which must be the seat to
    /// play.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    /// use rand::SeedableRng;
    ///
    /// let mut state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
    /// assert_eq!(state.view(Seat(0)).random_gift_open(&mut rng), None); // no card yet
    /// ```
    pub fn random_gift_open<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<crate::GiftOpen> {
        if self.state.to_play() != self.seat {
            return None;
        }
        crate::playout::random_gift_open(self.state, rng)
    }
}
