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
    pub(crate) fn assume_hidden_card(
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

/// What a turn record sent to a seat that follows the game leaves out.
///
/// # Examples
/// ```
/// use engine::Hidden;
///
/// let hidden = Hidden { gift: true, ..Hidden::default() };
/// assert_eq!(hidden.draws, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hidden {
    /// Another seat received a gift card (The Gifts): which one is hidden,
    /// and the turn's `gift_received` is unused.
    pub gift: bool,
    /// Tiles another seat drew into its hidden hand (RULES.md §8 `hand`
    /// without `hand_visible`): which ones are hidden, and the turn's
    /// `drawn` is unused.
    pub draws: usize,
    /// With hidden hands: how many tiles the turn's seat holds after it,
    /// when the follower is told (the protocol's `tile_hands` after that
    /// seat's last turn). With `unplaceable: return` a turn does not show
    /// how many of the tiles set aside came from the hand; this settles
    /// it.
    pub held: Option<usize>,
}

/// Apply a completed turn to a copy of the game kept by `viewer` (see the
/// module documentation), with The Gifts' hidden cards put where the turn
/// shows them: an opened card into the opener's hand, `viewer`'s received
/// card into the deck; for another seat's received card (`hidden.gift`)
/// a placeholder from the deck. With hidden hands of tiles the copy deals
/// the tiles `viewer` has not seen again before the turn (see
/// [`follow_deal`](crate::follow_deal)).
///
/// # Errors
///
/// As [`apply_turn`], and `Illegal` when a card shown is in no holding
/// hidden from `viewer`.
///
/// # Examples
/// ```
/// use engine::{follow_turn, Hidden, Rules, Seat, State, Tile, TurnRecord};
///
/// let mut copy = State::new(Rules::default(), 2, Seat(0));
/// let turn = TurnRecord { player: 0, tile: Some(Tile::U), x: Some(1), y: Some(0),
///                         rot: Some(1), ..TurnRecord::default() };
/// follow_turn(&mut copy, Seat(1), &turn, Hidden::default()).unwrap();
/// assert_eq!(copy.to_play(), Seat(1));
/// ```
pub fn follow_turn(
    state: &mut State,
    viewer: Seat,
    turn: &TurnRecord,
    hidden: Hidden,
) -> Result<(), ReplayReason> {
    if state.hands_hidden() {
        return super::follow_hand::follow_hand_turn(state, viewer, turn, hidden);
    }
    if hidden.draws > 0 {
        return Err(ReplayReason::BadTurn(
            "hidden draws, but no hand is hidden".to_string(),
        ));
    }
    let gift_hidden = hidden.gift;
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

/// Apply the start of `viewer`'s own turn in progress to its copy of the
/// game: [`apply_turn_start`](crate::apply_turn_start), after dealing the
/// tiles it has not seen again with hidden hands (its draws may be
/// another hand's placeholders).
///
/// # Errors
/// As [`apply_turn_start`](crate::apply_turn_start).
///
/// # Examples
/// ```
/// use engine::{follow_turn_start, Phase, Rules, Seat, State, Tile, TurnRecord};
///
/// let mut copy = State::new(Rules::default(), 2, Seat(0));
/// let start = TurnRecord { player: 0, tile: Some(Tile::U), ..TurnRecord::default() };
/// follow_turn_start(&mut copy, Seat(0), &start).unwrap();
/// assert!(matches!(copy.phase(), Phase::Place(_)));
/// ```
pub fn follow_turn_start(
    state: &mut State,
    viewer: Seat,
    turn: &TurnRecord,
) -> Result<(), ReplayReason> {
    if state.hands_hidden() {
        return super::follow_hand::follow_hand_turn_start(state, viewer, turn);
    }
    crate::record::apply_turn_start(state, turn)
}
