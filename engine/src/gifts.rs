//! The Gifts (RULES.md §5): the five cards, card counts, and what opening a
//! card does and to what.
//!
//! The gift deck, the discard pile and every hand are counts per card kind
//! (never an order): drawing a card is a chance event like drawing a tile.
//! Hands are hidden: the state's public API tells how many cards a seat
//! holds, and only [`crate::SeatView::own_hand`] tells which.

use crate::geom::Pos;
use std::fmt;
use std::str::FromStr;

/// A gift card.
///
/// # Examples
/// ```
/// use engine::Gift;
///
/// assert_eq!(Gift::CashOut.to_string(), "cash_out");
/// assert_eq!("take_2".parse::<Gift>(), Ok(Gift::Take2));
/// assert_eq!(Gift::ALL.len(), Gift::COUNT);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Gift {
    /// Put a meeple from supply on any unfinished monastery.
    Synod,
    /// Score any unfinished road now; every meeple on it returns.
    RoadSweeper,
    /// Take one of your meeples back; 2 points per meeple on its feature.
    CashOut,
    /// Move one of your meeples between a field and a road, city or
    /// monastery of the same tile.
    ChangePosition,
    /// Draw a second tile and place one of the two.
    Take2,
}

impl Gift {
    /// Number of kinds.
    ///
    /// # Examples
    /// ```
    /// use engine::{Gift, GiftCards};
    ///
    /// assert_eq!(GiftCards::FULL.total() as usize, Gift::COUNT * Gift::COPIES as usize);
    /// ```
    pub const COUNT: usize = 5;
    /// Every kind.
    ///
    /// # Examples
    /// ```
    /// use engine::Gift;
    ///
    /// assert!(Gift::ALL.iter().enumerate().all(|(i, g)| g.index() == i));
    /// ```
    pub const ALL: [Gift; 5] = [
        Gift::Synod,
        Gift::RoadSweeper,
        Gift::CashOut,
        Gift::ChangePosition,
        Gift::Take2,
    ];
    /// Record names, in [`Gift::ALL`] order.
    ///
    /// # Examples
    /// ```
    /// use engine::Gift;
    ///
    /// assert_eq!(Gift::NAMES[Gift::Synod.index()], "synod");
    /// ```
    pub const NAMES: [&'static str; 5] = [
        "synod",
        "road_sweeper",
        "cash_out",
        "change_position",
        "take_2",
    ];
    /// Copies of each kind in the game.
    ///
    /// # Examples
    /// ```
    /// use engine::{Gift, GiftCards};
    ///
    /// assert_eq!(GiftCards::FULL.count(Gift::RoadSweeper), Gift::COPIES);
    /// ```
    pub const COPIES: u8 = 5;

    /// Index 0–4.
    ///
    /// # Examples
    /// ```
    /// use engine::Gift;
    ///
    /// assert_eq!(Gift::Take2.index(), 4);
    /// ```
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Gift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Gift::NAMES[self.index()])
    }
}

/// A gift name that is not one of the five.
///
/// # Examples
/// ```
/// use engine::Gift;
///
/// let err = "take2".parse::<Gift>().unwrap_err();
/// assert_eq!(err.0, "take2");
/// assert!(err.to_string().contains("take_2"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseGiftError(pub String);

impl fmt::Display for ParseGiftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown gift {:?} (expected {})",
            self.0,
            Gift::NAMES.join(", ")
        )
    }
}

impl std::error::Error for ParseGiftError {}

impl FromStr for Gift {
    type Err = ParseGiftError;

    fn from_str(s: &str) -> Result<Gift, ParseGiftError> {
        Gift::NAMES
            .iter()
            .position(|n| *n == s)
            .map(|i| Gift::ALL[i])
            .ok_or_else(|| ParseGiftError(s.to_string()))
    }
}

/// A multiset of gift cards: a count per kind.
///
/// # Examples
/// ```
/// use engine::{Gift, GiftCards};
///
/// let mut hand = GiftCards::EMPTY;
/// hand.add(Gift::Take2);
/// hand.add(Gift::Synod);
/// assert_eq!(hand.kinds().collect::<Vec<_>>(), [Gift::Synod, Gift::Take2]);
/// assert!(hand.take(Gift::Take2));
/// assert!(!hand.take(Gift::Take2));
/// assert_eq!(hand.total(), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct GiftCards([u8; Gift::COUNT]);

impl GiftCards {
    /// No cards.
    ///
    /// # Examples
    /// ```
    /// use engine::GiftCards;
    ///
    /// assert!(GiftCards::EMPTY.is_empty());
    /// assert_eq!(GiftCards::EMPTY, GiftCards::default());
    /// ```
    pub const EMPTY: GiftCards = GiftCards([0; Gift::COUNT]);
    /// The 25 cards of the game.
    ///
    /// # Examples
    /// ```
    /// use engine::{GiftCards, Rules, Seat, State};
    ///
    /// let state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
    /// assert_eq!(state.gift_deck_size(), GiftCards::FULL.total());
    /// ```
    pub const FULL: GiftCards = GiftCards([Gift::COPIES; Gift::COUNT]);

    /// Copies of `gift`.
    ///
    /// # Examples
    /// ```
    /// use engine::{Gift, GiftCards};
    ///
    /// assert_eq!(GiftCards::FULL.count(Gift::Synod), 5);
    /// assert_eq!(GiftCards::EMPTY.count(Gift::Synod), 0);
    /// ```
    #[inline]
    pub fn count(&self, gift: Gift) -> u8 {
        self.0[gift.index()]
    }

    /// Cards in all.
    ///
    /// # Examples
    /// ```
    /// use engine::GiftCards;
    ///
    /// assert_eq!(GiftCards::FULL.total(), 25);
    /// ```
    #[inline]
    pub fn total(&self) -> u8 {
        self.0.iter().sum()
    }

    /// No card.
    ///
    /// # Examples
    /// ```
    /// use engine::{Gift, GiftCards};
    ///
    /// let mut cards = GiftCards::EMPTY;
    /// assert!(cards.is_empty());
    /// cards.add(Gift::CashOut);
    /// assert!(!cards.is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// The kinds present, each once.
    ///
    /// # Examples
    /// ```
    /// use engine::{Gift, GiftCards};
    ///
    /// assert_eq!(GiftCards::FULL.kinds().count(), Gift::COUNT);
    /// assert_eq!(GiftCards::EMPTY.kinds().next(), None);
    /// ```
    pub fn kinds(&self) -> impl Iterator<Item = Gift> + '_ {
        Gift::ALL.into_iter().filter(|g| self.count(*g) > 0)
    }

    /// Add one copy of `gift`.
    ///
    /// # Examples
    /// ```
    /// use engine::{Gift, GiftCards};
    ///
    /// let mut cards = GiftCards::EMPTY;
    /// cards.add(Gift::Synod);
    /// cards.add(Gift::Synod);
    /// assert_eq!(cards.count(Gift::Synod), 2);
    /// ```
    #[inline]
    pub fn add(&mut self, gift: Gift) {
        self.0[gift.index()] += 1;
    }

    /// Remove one copy of `gift`; false when there is none.
    ///
    /// # Examples
    /// ```
    /// use engine::{Gift, GiftCards};
    ///
    /// let mut deck = GiftCards::FULL;
    /// assert!(deck.take(Gift::CashOut));
    /// assert_eq!(deck.count(Gift::CashOut), 4);
    /// assert!(!GiftCards::EMPTY.take(Gift::CashOut));
    /// ```
    #[inline]
    pub fn take(&mut self, gift: Gift) -> bool {
        let c = &mut self.0[gift.index()];
        if *c == 0 {
            return false;
        }
        *c -= 1;
        true
    }

    /// The `k`-th card (0-based) if the cards were laid out by kind.
    ///
    /// # Panics
    /// If `k` is not below [`GiftCards::total`].
    ///
    /// # Examples
    /// ```
    /// use engine::{Gift, GiftCards};
    ///
    /// let deck = GiftCards::FULL;
    /// assert_eq!((deck.nth(0), deck.nth(5), deck.nth(24)), (Gift::Synod, Gift::RoadSweeper, Gift::Take2));
    /// ```
    pub fn nth(&self, mut k: u8) -> Gift {
        for g in Gift::ALL {
            let c = self.count(g);
            if k < c {
                return g;
            }
            k -= c;
        }
        unreachable!("index past the end of the cards")
    }

    /// Per-kind sum.
    ///
    /// # Examples
    /// ```
    /// use engine::{Gift, GiftCards};
    ///
    /// let mut one = GiftCards::EMPTY;
    /// one.add(Gift::Take2);
    /// assert_eq!(one.plus(&one).count(Gift::Take2), 2);
    /// ```
    pub fn plus(&self, other: &GiftCards) -> GiftCards {
        let mut out = *self;
        for g in Gift::ALL {
            out.0[g.index()] += other.count(g);
        }
        out
    }

    /// Per-kind minimum: the cards in both.
    ///
    /// # Examples
    /// ```
    /// use engine::{Gift, GiftCards};
    ///
    /// let mut hand = GiftCards::EMPTY;
    /// hand.add(Gift::Synod);
    /// assert_eq!(GiftCards::FULL.common(&hand), hand);
    /// assert!(GiftCards::EMPTY.common(&hand).is_empty());
    /// ```
    pub fn common(&self, other: &GiftCards) -> GiftCards {
        let mut out = *self;
        for g in Gift::ALL {
            out.0[g.index()] = self.count(g).min(other.count(g));
        }
        out
    }

    /// Per-kind difference: the cards of `self` that are not in `other`
    /// (a kind `other` holds more of is left at 0).
    ///
    /// # Examples
    /// ```
    /// use engine::{Gift, GiftCards};
    ///
    /// let mut hand = GiftCards::EMPTY;
    /// hand.add(Gift::Synod);
    /// let rest = GiftCards::FULL.minus(&hand);
    /// assert_eq!((rest.count(Gift::Synod), rest.total()), (4, 24));
    /// assert!(hand.minus(&GiftCards::FULL).is_empty());
    /// ```
    pub fn minus(&self, other: &GiftCards) -> GiftCards {
        let mut out = *self;
        for g in Gift::ALL {
            out.0[g.index()] = out.0[g.index()].saturating_sub(other.count(g));
        }
        out
    }
}

/// Opening one gift: the card and what it acts on. Segments are segment
/// indices of the tile at `at` (see [`crate::tiles::segment_at`]).
///
/// # Examples
/// ```
/// use engine::{Gift, GiftOpen, GiftOpenRecord, Pos, Rules, Seat, State};
///
/// let state = State::new(Rules::default(), 2, Seat(0));
/// let open = GiftOpen::RoadSweeper { at: Pos::ORIGIN, segment: 1 };
/// assert_eq!(open.gift(), Gift::RoadSweeper);
/// let named = GiftOpenRecord::of(open, state.board()).unwrap();
/// assert_eq!(named.to_string(), "road_sweeper (0, 0) E"); // the start tile's road
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GiftOpen {
    /// Synod: a meeple from supply onto the monastery of the tile at `at`.
    Synod {
        /// The monastery's tile.
        at: Pos,
    },
    /// Road Sweeper: score the road through `segment` of the tile at `at`.
    RoadSweeper {
        /// A tile of the road.
        at: Pos,
        /// The road's segment on that tile.
        segment: u8,
    },
    /// Cash Out: take back one of your meeples from `segment` of the tile
    /// at `at`.
    CashOut {
        /// The meeple's tile.
        at: Pos,
        /// The segment it is on.
        segment: u8,
    },
    /// Change Position: move one of your meeples on the tile at `at` from
    /// segment `from` to segment `to`.
    ChangePosition {
        /// The meeple's tile.
        at: Pos,
        /// The segment it is on.
        from: u8,
        /// The segment it goes to.
        to: u8,
    },
    /// Take 2: draw a second tile (no effect when the stack is empty).
    Take2,
    /// Open a card that can have no effect now (no target exists).
    Wasted(Gift),
}

impl GiftOpen {
    /// The card opened.
    ///
    /// # Examples
    /// ```
    /// use engine::{Gift, GiftOpen};
    ///
    /// assert_eq!(GiftOpen::Take2.gift(), Gift::Take2);
    /// assert_eq!(GiftOpen::Wasted(Gift::Synod).gift(), Gift::Synod);
    /// ```
    pub fn gift(&self) -> Gift {
        match *self {
            GiftOpen::Synod { .. } => Gift::Synod,
            GiftOpen::RoadSweeper { .. } => Gift::RoadSweeper,
            GiftOpen::CashOut { .. } => Gift::CashOut,
            GiftOpen::ChangePosition { .. } => Gift::ChangePosition,
            GiftOpen::Take2 => Gift::Take2,
            GiftOpen::Wasted(g) => g,
        }
    }
}

/// The gift deck, the open discard pile and the hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct GiftState {
    pub(crate) deck: GiftCards,
    pub(crate) discard: GiftCards,
    pub(crate) hands: [GiftCards; crate::MAX_PLAYERS],
    /// The cards the deck was made of when it was last formed (all 25 at
    /// the start, then the face-up discard pile it was shuffled from):
    /// public, and the deck is always a part of it.
    pub(crate) pool: GiftCards,
    /// The seat to play opened a gift this turn.
    pub(crate) opened: bool,
}

impl GiftState {
    /// The deck at the start: all 25 cards.
    pub(crate) fn new() -> GiftState {
        GiftState {
            deck: GiftCards::FULL,
            pool: GiftCards::FULL,
            ..GiftState::default()
        }
    }

    /// A card can be received: the deck, or the discard pile to reshuffle,
    /// holds one.
    pub(crate) fn can_give(&self) -> bool {
        !self.deck.is_empty() || !self.discard.is_empty()
    }

    /// Before a draw: an empty deck takes the discard pile.
    pub(crate) fn refill(&mut self) {
        if self.deck.is_empty() {
            self.deck = self.discard;
            self.pool = self.discard;
            self.discard = GiftCards::EMPTY;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gift_names_round_trip() {
        for g in Gift::ALL {
            assert_eq!(g.to_string().parse::<Gift>(), Ok(g));
        }
        assert!("take2".parse::<Gift>().is_err());
    }

    #[test]
    fn card_counts_add_take_and_index() {
        let mut c = GiftCards::EMPTY;
        c.add(Gift::CashOut);
        c.add(Gift::Take2);
        c.add(Gift::Take2);
        assert_eq!(c.total(), 3);
        assert_eq!(c.nth(0), Gift::CashOut);
        assert_eq!(c.nth(2), Gift::Take2);
        assert!(c.take(Gift::Take2));
        assert!(!c.take(Gift::Synod));
        assert_eq!(GiftCards::FULL.total(), 25);
        assert_eq!(GiftCards::FULL.minus(&c).plus(&c), GiftCards::FULL);
    }
}
