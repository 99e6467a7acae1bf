//! Following a game from one seat's side: a copy of the game kept by a
//! player that is told every public step but not the gift cards other
//! seats receive (an external bot's own engine). Such a copy holds
//! placeholder cards where it cannot know them; before a hidden card is
//! seen — the seat itself receives it from the deck, another seat opens
//! it — [`State::assume_hidden_card`] swaps it into place. Everything the
//! seat's [`SeatView`](crate::SeatView) shows is exact all along, so an
//! agent decides on the copy as it would on the real game.

use super::State;
use crate::gifts::{Gift, GiftCards};
use crate::moves::IllegalMove;
use crate::record::{apply_turn, ReplayReason, TurnRecord};
use crate::seat::Seat;
use crate::turn::Phase;

/// Where a card hidden from a seat can be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardHolder {
    /// The face-down gift deck.
    Deck,
    /// A seat's hand.
    Hand(Seat),
}

impl State {
    /// The cards `holder` holds.
    fn cards_of(&mut self, holder: CardHolder) -> &mut GiftCards {
        match holder {
            CardHolder::Deck => &mut self.gifts.deck,
            CardHolder::Hand(seat) => &mut self.gifts.hands[seat.index()],
        }
    }

    /// Make `holder` hold `gift`, in a copy of the game kept from what
    /// `viewer` sees (see the module documentation): when it does not, the
    /// card comes from another holding hidden from `viewer` (the deck or a
    /// hand other than `viewer`'s and `holder`'s) in exchange for one of
    /// `holder`'s cards. Counts, the discard pile and `viewer`'s hand do
    /// not change.
    ///
    /// # Errors
    ///
    /// `GiftNotHeld`/`GiftNotInDeck` when `gift` is in no holding hidden
    /// from `viewer`, or `holder` is empty or is `viewer`'s own hand.
    pub fn assume_hidden_card(
        &mut self,
        viewer: Seat,
        holder: CardHolder,
        gift: Gift,
    ) -> Result<(), IllegalMove> {
        let missing = match holder {
            CardHolder::Deck => IllegalMove::GiftNotInDeck(gift),
            CardHolder::Hand(_) => IllegalMove::GiftNotHeld(gift),
        };
        if self.cards_of(holder).count(gift) > 0 {
            return Ok(());
        }
        if holder == CardHolder::Hand(viewer) {
            return Err(missing);
        }
        let back = self.cards_of(holder).kinds().next().ok_or(missing)?;
        let others = (0..self.players)
            .map(|s| CardHolder::Hand(Seat(s)))
            .filter(|&h| h != CardHolder::Hand(viewer));
        let source = std::iter::once(CardHolder::Deck)
            .chain(others)
            .filter(|&h| h != holder)
            .find(|&h| self.cards_of(h).count(gift) > 0)
            .ok_or(missing)?;
        self.cards_of(source).take(gift);
        self.cards_of(source).add(back);
        self.cards_of(holder).take(back);
        self.cards_of(holder).add(gift);
        Ok(())
    }
}

/// Apply a completed turn to a copy of the game kept by `viewer` (see the
/// module documentation), with The Gifts' hidden cards put where the turn
/// shows them: an opened card into the opener's hand, `viewer`'s received
/// card into the deck; for another seat's received card (`gift_hidden`,
/// the turn's `gift_received` then unused) a placeholder from the deck.
///
/// # Errors
///
/// As [`apply_turn`], and `Illegal` when a card shown is in no holding
/// hidden from `viewer`.
pub fn follow_turn(
    state: &mut State,
    viewer: Seat,
    turn: &TurnRecord,
    gift_hidden: bool,
) -> Result<(), ReplayReason> {
    let seat = Seat(turn.player);
    let mut turn = turn.clone();
    if let Some(open) = &turn.gift_open {
        if seat != viewer && state.phase() != Phase::Over {
            state
                .assume_hidden_card(viewer, CardHolder::Hand(seat), open.card)
                .map_err(ReplayReason::Illegal)?;
        }
    }
    // A deck that is empty now takes the discard pile (with this turn's
    // opened card) before the gift is drawn.
    let mut deck = state.gift_deck();
    if deck.is_empty() {
        deck = state.gift_discard();
        if let Some(open) = &turn.gift_open {
            deck.add(open.card);
        }
    }
    if gift_hidden {
        turn.gift_received = deck.kinds().next();
    } else if let Some(gift) = turn.gift_received {
        if !state.gift_deck().is_empty() {
            state
                .assume_hidden_card(viewer, CardHolder::Deck, gift)
                .map_err(ReplayReason::Illegal)?;
        }
    }
    apply_turn(state, &turn)
}
