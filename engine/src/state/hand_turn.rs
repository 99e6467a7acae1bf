//! The turn with a hand of tiles (RULES.md §8 `hand` ≥ 1): the deal at
//! set-up, the start of a turn (unplaceable tiles set aside and replaced),
//! placing a tile of the hand, drawing back up, passing, and the end.
//!
//! The steps, as phases:
//!
//! - [`Phase::DrawHand`] at set-up: each seat in seat order (0, 1, …)
//!   draws its hand; then the first seat's turn starts.
//! - The start of a turn, [`Phase::Draw`]: while the hand holds a tile
//!   that cannot be placed, that tile is set aside (a chance step with a
//!   certain outcome, so that records and drivers see it); then, while
//!   the hand is short and the bag has tiles, a tile is drawn: into the
//!   hand if it can be placed, else set aside. A seat whose hand is then
//!   empty passes.
//! - [`Phase::PlaceHand`]: the seat places one tile of its hand.
//! - [`Phase::DrawHand`] after placing: back up to the hand size while the
//!   bag has tiles. Then the next seat's turn starts.
//!
//! The game ends when the bag and every hand are empty.
//!
//! With `unplaceable: return` an unplaceable tile (of the hand at the start
//! of the turn, or drawn to replace one) goes back into the bag instead of
//! being set aside; a bag holding only unplaceable tiles counts as empty
//! (no tile is drawn from it), and the game ends as soon as no tile left
//! in the bag or in any hand can be placed (RULES.md §8).

use super::State;
use crate::bag::Bag;
use crate::hand::Hand;
use crate::moves::IllegalMove;
use crate::seat::Seat;
use crate::tiles::Tile;
use crate::turn::{Drawn, Phase};

impl State {
    /// The tiles `seat` holds (hidden information unless `hand_visible`:
    /// agents see them through [`crate::SeatView`]).
    #[inline]
    pub(crate) fn held(&self, seat: Seat) -> Hand {
        self.hands[seat]
    }

    /// How many tiles `seat` holds in its hand (public; 0 without a hand).
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new("hand=2".parse().unwrap(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap(); // the deal: seat 0 first
    /// assert_eq!((state.tiles_held(Seat(0)), state.tiles_held(Seat(1))), (1, 0));
    /// ```
    #[inline]
    pub fn tiles_held(&self, seat: Seat) -> usize {
        self.hands[seat].len()
    }

    /// Replace the bag and every hand (for [`crate::SeatView::determinize`]:
    /// the same tiles, dealt differently).
    pub(crate) fn set_bag_and_hands(&mut self, bag: Bag, hands: &[Hand]) {
        debug_assert_eq!(
            bag.total() as usize + hands.iter().map(Hand::len).sum::<usize>(),
            self.bag.total() as usize
                + (0..self.players)
                    .map(|s| self.hands.0[s as usize].len())
                    .sum::<usize>()
        );
        self.bag = bag;
        for (s, h) in hands.iter().enumerate() {
            self.hands.0[s] = *h;
        }
        if self.phase == Phase::PlaceHand {
            self.placements = self.hand_placements();
        }
    }

    /// Set-up: the deal begins with seat 0.
    pub(super) fn start_deal(&mut self) {
        self.phase = Phase::DrawHand;
    }

    /// The seat being dealt to at set-up: the first whose hand is short.
    fn deal_seat(&self) -> Option<Seat> {
        let n = self.rules.hand() as usize;
        (0..self.players)
            .map(Seat)
            .find(|&s| self.hands[s].len() < n)
    }

    /// The first tile of the seat to play's hand that fits nowhere.
    pub(crate) fn unplaceable_in_hand(&self) -> Option<Tile> {
        self.hands[self.to_play]
            .iter()
            .find(|&t| !self.board.has_fit(t))
    }

    /// Legal placements of every tile of the hand of the seat to play,
    /// each kind counted once.
    pub(super) fn hand_placements(&self) -> u16 {
        let hand = self.hands[self.to_play];
        let fits = hand.distinct_slots().map(|(_, t)| self.board.fit_count(t));
        fits.sum::<usize>() as u16
    }

    /// The chance step due in [`Phase::Draw`] or [`Phase::DrawHand`] with a
    /// hand: a certain set-aside (`Some(tile)`) or a draw from the bag
    /// (`None`).
    pub(super) fn certain_set_aside(&self) -> Option<Tile> {
        match self.phase {
            Phase::Draw if self.rules.hand() > 0 => self.unplaceable_in_hand(),
            _ => None,
        }
    }

    /// [`State::draw`] with a hand: `tile` is set aside from the hand, or
    /// drawn from the bag into a hand (or set aside).
    pub(super) fn draw_with_hand(&mut self, tile: Tile) -> Result<Drawn, IllegalMove> {
        match self.phase {
            Phase::DrawHand => {
                if !self.bag.take(tile) {
                    return Err(IllegalMove::NotInBag(tile));
                }
                if self.turns == 0 {
                    let seat = self.deal_seat().expect("a seat to deal to");
                    self.hands[seat].insert(tile);
                    if self.deal_seat().is_none() {
                        self.start_hand_turn();
                    }
                } else {
                    self.hands[self.to_play].insert(tile);
                    let full = self.hands[self.to_play].len() == self.rules.hand() as usize;
                    if full || !self.tile_draw_due() {
                        self.end_hand_turn();
                    }
                }
                Ok(Drawn::Held)
            }
            Phase::Draw => {
                let drawn = if let Some(first) = self.unplaceable_in_hand() {
                    let hand = &mut self.hands[self.to_play];
                    let Some(slot) = hand.slot_of(tile) else {
                        return Err(IllegalMove::MustSetAside(first));
                    };
                    if self.board.has_fit(tile) {
                        return Err(IllegalMove::FalseDiscard(tile));
                    }
                    hand.remove(slot);
                    self.unplaceable_out(tile)
                } else {
                    if !self.bag.take(tile) {
                        return Err(IllegalMove::NotInBag(tile));
                    }
                    if self.board.has_fit(tile) {
                        self.hands[self.to_play].insert(tile);
                        Drawn::Held
                    } else {
                        self.unplaceable_out(tile)
                    }
                };
                self.start_hand_turn();
                Ok(drawn)
            }
            Phase::Over => Err(IllegalMove::GameOver),
            _ => Err(IllegalMove::TileAlreadyDrawn),
        }
    }

    /// An unplaceable tile leaves the hand (or the draw): set aside, or
    /// back into the bag with `unplaceable: return`.
    fn unplaceable_out(&mut self, tile: Tile) -> Drawn {
        if self.rules.returns_unplaceable() {
            self.bag.put_back(tile);
            Drawn::Returned
        } else {
            Drawn::SetAside
        }
    }

    /// With `unplaceable: return`: no tile left in the bag or in any hand
    /// can be placed, which ends the game.
    fn nothing_placeable(&self) -> bool {
        let players = self.players as usize;
        self.rules.returns_unplaceable()
            && !self.tile_draw_due()
            && self.hands.0[..players]
                .iter()
                .all(|h| h.iter().all(|t| !self.board.has_fit(t)))
    }

    /// After a tile of the hand was placed (and scored): draw back up, or
    /// pass the turn.
    pub(super) fn after_hand_placement(&mut self) {
        let short = self.hands[self.to_play].len() < self.rules.hand() as usize;
        if short && self.tile_draw_due() {
            self.phase = Phase::DrawHand;
        } else {
            self.end_hand_turn();
        }
    }

    /// Pass the turn to the next seat (or the same one after filling a
    /// hole with `hole_bonus`) and start it.
    pub(super) fn end_hand_turn(&mut self) {
        let bonus = self.rules.bonus_turn();
        self.rules.set_bonus_turn(false);
        if !bonus {
            self.to_play = Seat((self.to_play.0 + 1) % self.players);
        }
        self.start_hand_turn();
    }

    /// The start of the seat to play's turn, or what is left of it: a
    /// set-aside or a draw is due ([`Phase::Draw`]), or the seat places
    /// ([`Phase::PlaceHand`]), or it passes (its hand is empty and so is
    /// the bag), or the game ends (every hand is empty too).
    pub(super) fn start_hand_turn(&mut self) {
        let n = self.rules.hand() as usize;
        if self.nothing_placeable() {
            self.finish();
            return;
        }
        loop {
            let hand = self.hands[self.to_play];
            let short = hand.len() < n && self.tile_draw_due();
            if short || self.unplaceable_in_hand().is_some() {
                self.phase = Phase::Draw;
                return;
            }
            if !hand.is_empty() {
                self.phase = Phase::PlaceHand;
                self.placements = self.hand_placements();
                return;
            }
            let players = self.players as usize;
            if self.hands.0[..players].iter().all(Hand::is_empty) {
                self.finish();
                return;
            }
            self.to_play = Seat((self.to_play.0 + 1) % self.players);
        }
    }
}
