//! What one seat may see, and nothing more.
//!
//! Agents receive a [`SeatView`], never the [`State`]: the view answers
//! every question about the public position (board, meeples, scores,
//! supplies, the bag as counts, how many gifts each seat holds, the open
//! discard pile) and the seat's own hand, but not other seats' hands or
//! the order of the gift deck. The tile order is hidden by construction:
//! the state holds the bag as counts. For search, [`SeatView::determinize`]
//! samples a complete state consistent with what the seat knows.
//!
//! This file holds what the seat sees; `view/actions.rs` its options
//! (placements, moves, actions), `view/determinize.rs` the sampling of what
//! it cannot see, `view/end_now.rs` the end-now scores of its actions read
//! on the position itself ([`SeatView::end_now`]).
//!
//! These do not compile, and doc tests check that they stay so: a seat's
//! hand is private to the engine, and a view does not hand out its state.
//!
//! ```compile_fail
//! use engine::{Rules, Seat, State};
//! let state = State::new(Rules { farmers: true, gifts: true, ..Rules::STANDARD }, 2, Seat(0));
//! let _cards = state.hand(Seat(1));
//! ```
//!
//! ```compile_fail
//! use engine::{Rules, Seat, State};
//! let state = State::new(Rules { farmers: true, gifts: true, ..Rules::STANDARD }, 2, Seat(0));
//! let _state: &State = state.view(Seat(0)).state();
//! ```
//!
//! while this does:
//!
//! ```
//! use engine::{Rules, Seat, State};
//! let state = State::new(Rules { farmers: true, gifts: true, ..Rules::STANDARD }, 2, Seat(0));
//! let view = state.view(Seat(0));
//! assert_eq!((view.own_hand().total(), view.hand_size(Seat(1))), (0, 0));
//! ```

use crate::bag::Bag;
use crate::board::Board;
use crate::features::{Features, SegmentId};
use crate::geom::{Location, Pos};
use crate::gifts::GiftCards;
use crate::hand::Hand;
use crate::moves::{IllegalMove, Move, Placement};
use crate::rules::Rules;
use crate::seat::{PerSeat, Score, Seat};
use crate::state::{Meeple, State};
use crate::tiles::{FeatureKind, Tile};
use crate::turn::{Action, Phase};

mod actions;
mod determinize;
mod end_now;
pub use end_now::{SeatEffects, SeatEndNow};

/// A seat's view of a game.
///
/// # Examples
/// ```
/// use engine::{Chance, Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules { farmers: true, gifts: true, ..Rules::STANDARD }, 2, Seat(0));
/// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
/// let view = state.view(Seat(0));
/// assert_eq!(view.seat(), Seat(0));
/// assert!(view.own_hand().is_empty()); // no gift cards yet
/// ```
#[derive(Clone, Copy)]
pub struct SeatView<'a> {
    state: &'a State,
    seat: Seat,
}

impl std::fmt::Debug for SeatView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SeatView")
            .field("seat", &self.seat)
            .field("state", self.state)
            .finish()
    }
}

/// Methods of [`State`] that reveal only public information, passed
/// through unchanged.
macro_rules! public {
    ($( $(#[$doc:meta])* fn $name:ident(&self $(, $arg:ident: $ty:ty)*) -> $ret:ty; )*) => {
        $(
            $(#[$doc])*
            #[inline]
            pub fn $name(&self $(, $arg: $ty)*) -> $ret {
                self.state.$name($($arg),*)
            }
        )*
    };
}

impl<'a> SeatView<'a> {
    /// The view of `seat`.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, SeatView, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(SeatView::new(&state, Seat(1)).seat(), state.view(Seat(1)).seat());
    /// ```
    pub fn new(state: &'a State, seat: Seat) -> SeatView<'a> {
        SeatView { state, seat }
    }

    /// The seat whose view this is.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.view(Seat(1)).seat(), Seat(1));
    /// ```
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// This seat's gift cards.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State};
    ///
    /// let state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
    /// assert!(state.view(Seat(0)).own_hand().is_empty());
    /// ```
    pub fn own_hand(&self) -> GiftCards {
        self.state.hand(self.seat)
    }

    /// This seat's tiles in hand (RULES.md §8 `hand`; empty without).
    pub fn own_tiles(&self) -> Hand {
        self.state.held(self.seat)
    }

    /// The tiles in `seat`'s hand when this seat may see them: its own,
    /// or anyone's with `hand_visible`; `None` for a hidden hand (its size
    /// is [`SeatView::tiles_held`]).
    pub fn visible_tiles(&self, seat: Seat) -> Option<Hand> {
        (seat == self.seat || self.state.rules().hand_visible).then(|| self.state.held(seat))
    }

    /// The tile a placement from hand slot `slot` puts down (the drawn
    /// tile, or a tile of this seat's hand), when this seat is to play.
    pub fn placing_tile(&self, slot: u8) -> Option<Tile> {
        if self.state.to_play() != self.seat {
            return None;
        }
        self.state.placing_tile(slot)
    }

    /// The board.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.view(Seat(1)).board().len(), 1);
    /// ```
    pub fn board(&self) -> &'a Board {
        self.state.board()
    }

    /// Roads, cities, monasteries and fields.
    ///
    /// # Examples
    /// ```
    /// use engine::{segment_id, Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.view(Seat(0)).features().open(segment_id(0, 0)), 1);
    /// ```
    pub fn features(&self) -> &'a Features {
        self.state.features()
    }

    /// The meeples on the board.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert!(state.view(Seat(0)).meeples().is_empty());
    /// ```
    pub fn meeples(&self) -> &'a [Meeple] {
        self.state.meeples()
    }

    /// The tiles left, as counts.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.view(Seat(0)).bag().total(), 71);
    /// ```
    pub fn bag(&self) -> &'a Bag {
        self.state.bag()
    }

    /// The tiles this seat has not seen, as counts: the bag, and with
    /// hidden hands (RULES.md §8 `hand` without `hand_visible`) the other
    /// seats' hands too — as a whole, never which hand holds which. Its
    /// total is [`SeatView::bag`]'s plus those hands' sizes.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new("hand=1".parse().unwrap(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap(); // seat 0's hand
    /// state.apply_chance_outcome(Chance::Tile(Tile::V)).unwrap(); // seat 1's hand
    /// let unseen = state.view(Seat(0)).unseen_tiles();
    /// // Seat 0 holds a U; seat 1's V is unseen, in the bag's counts.
    /// assert_eq!((unseen.total(), unseen.count(Tile::U), unseen.count(Tile::V)), (70, 7, 9));
    /// ```
    pub fn unseen_tiles(&self) -> Bag {
        self.state.unseen_by(self.seat)
    }

    public! {
        /// The rules in force.
        ///
        /// # Examples
        /// ```
        /// use engine::{Rules, Seat, State};
        ///
        /// let state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
        /// assert!(state.view(Seat(1)).rules().gifts);
        /// ```
        fn rules(&self) -> Rules;
        /// Number of seats.
        ///
        /// # Examples
        /// ```
        /// use engine::{Rules, Seat, State};
        ///
        /// let state = State::new(Rules::default(), 3, Seat(0));
        /// assert_eq!(state.view(Seat(2)).players(), 3);
        /// ```
        fn players(&self) -> usize;
        /// The seat to play.
        ///
        /// # Examples
        /// ```
        /// use engine::{Rules, Seat, State};
        ///
        /// let state = State::new(Rules::default(), 2, Seat(1));
        /// assert_eq!(state.view(Seat(0)).to_play(), Seat(1));
        /// ```
        fn to_play(&self) -> Seat;
        /// Whose decision it is.
        ///
        /// # Examples
        /// ```
        /// use engine::{Phase, Rules, Seat, State};
        ///
        /// let state = State::new(Rules::default(), 2, Seat(0));
        /// assert_eq!(state.view(Seat(1)).phase(), Phase::Draw);
        /// ```
        fn phase(&self) -> Phase;
        /// The game is over.
        ///
        /// # Examples
        /// ```
        /// use engine::{Rules, Seat, State};
        ///
        /// let state = State::new(Rules::default(), 2, Seat(0));
        /// assert!(!state.view(Seat(0)).is_over());
        /// ```
        fn is_over(&self) -> bool;
        /// Turns played.
        ///
        /// # Examples
        /// ```
        /// use engine::{Rules, Seat, State};
        ///
        /// let state = State::new(Rules::default(), 2, Seat(0));
        /// assert_eq!(state.view(Seat(0)).turns(), 0);
        /// ```
        fn turns(&self) -> usize;
        /// A seat's score.
        ///
        /// # Examples
        /// ```
        /// use engine::{Rules, Seat, State};
        ///
        /// let state = State::new(Rules::default(), 2, Seat(0));
        /// assert_eq!(state.view(Seat(0)).score(Seat(1)).total(), 0);
        /// ```
        fn score(&self, seat: Seat) -> Score;
        /// Meeples in a seat's supply.
        ///
        /// # Examples
        /// ```
        /// use engine::{Rules, Seat, State};
        ///
        /// let state = State::new(Rules::default(), 2, Seat(0));
        /// assert_eq!(state.view(Seat(0)).supply(Seat(1)), 7);
        /// ```
        fn supply(&self, seat: Seat) -> u8;
        /// Cards a seat holds.
        ///
        /// # Examples
        /// ```
        /// use engine::{Rules, Seat, State};
        ///
        /// let state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
        /// assert_eq!(state.view(Seat(0)).hand_size(Seat(1)), 0); // how many, never which
        /// ```
        fn hand_size(&self, seat: Seat) -> u8;
        /// Tiles a seat holds in its hand.
        fn tiles_held(&self, seat: Seat) -> usize;
        /// The open discard pile of gifts.
        ///
        /// # Examples
        /// ```
        /// use engine::{Rules, Seat, State};
        ///
        /// let state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
        /// assert!(state.view(Seat(0)).gift_discard().is_empty());
        /// ```
        fn gift_discard(&self) -> GiftCards;
        /// Cards left in the gift deck.
        ///
        /// # Examples
        /// ```
        /// use engine::{Rules, Seat, State};
        ///
        /// let state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
        /// assert_eq!(state.view(Seat(0)).gift_deck_size(), 25);
        /// ```
        fn gift_deck_size(&self) -> u8;
        /// What the gift deck was made of when it was last formed.
        ///
        /// # Examples
        /// ```
        /// use engine::{Rules, Seat, State};
        ///
        /// let state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
        /// assert_eq!(state.view(Seat(0)).gift_deck_pool().total(), 25);
        /// ```
        fn gift_deck_pool(&self) -> GiftCards;
        /// A gift was opened this turn.
        ///
        /// # Examples
        /// ```
        /// use engine::{Rules, Seat, State};
        ///
        /// let state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
        /// assert!(!state.view(Seat(0)).gift_opened());
        /// ```
        fn gift_opened(&self) -> bool;
        /// The seat to play may open a gift now.
        ///
        /// # Examples
        /// ```
        /// use engine::{Chance, Rules, Seat, State, Tile};
        ///
        /// let mut state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
        /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
        /// assert!(!state.view(Seat(0)).may_open_gift()); // no card in hand
        /// ```
        fn may_open_gift(&self) -> bool;
        /// The drawn tile, when one must be placed.
        ///
        /// # Examples
        /// ```
        /// use engine::{Chance, Rules, Seat, State, Tile};
        ///
        /// let mut state = State::new(Rules::default(), 2, Seat(0));
        /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
        /// assert_eq!(state.view(Seat(1)).drawn_tile(), Some(Tile::U)); // drawn tiles are public
        /// ```
        fn drawn_tile(&self) -> Option<Tile>;
        /// `tile` has a legal placement.
        ///
        /// # Examples
        /// ```
        /// use engine::{Rules, Seat, State, Tile};
        ///
        /// let state = State::new(Rules::default(), 2, Seat(0));
        /// assert!(state.view(Seat(0)).is_placeable(Tile::C));
        /// ```
        fn is_placeable(&self, tile: Tile) -> bool;
        /// A cell lies on the table (`table` variant).
        fn on_table(&self, pos: Pos) -> bool;
        /// No tile can be drawn any more.
        fn tiles_exhausted(&self) -> bool;
        /// The kind of a segment's feature.
        ///
        /// # Examples
        /// ```
        /// use engine::{segment_id, FeatureKind, Rules, Seat, State};
        ///
        /// let state = State::new(Rules::default(), 2, Seat(0));
        /// assert_eq!(state.view(Seat(0)).segment_kind(segment_id(0, 1)), FeatureKind::Road);
        /// ```
        fn segment_kind(&self, id: SegmentId) -> FeatureKind;
        /// The segment at a location of a placed tile.
        ///
        /// # Examples
        /// ```
        /// use engine::{segment_id, Location, Pos, Rules, Seat, Side, State};
        ///
        /// let state = State::new(Rules::default(), 2, Seat(0));
        /// let city = state.view(Seat(0)).segment_at(Pos::ORIGIN, Location::Edge(Side::N));
        /// assert_eq!(city, Some(segment_id(0, 0)));
        /// ```
        fn segment_at(&self, pos: Pos, loc: Location) -> Option<SegmentId>;
        /// The feature of a segment is complete.
        ///
        /// # Examples
        /// ```
        /// use engine::{segment_id, Rules, Seat, State};
        ///
        /// let state = State::new(Rules::default(), 2, Seat(0));
        /// assert!(!state.view(Seat(0)).is_complete(segment_id(0, 0)));
        /// ```
        fn is_complete(&self, id: SegmentId) -> bool;
        /// What the feature of a segment is worth now.
        ///
        /// # Examples
        /// ```
        /// use engine::{segment_id, Rules, Seat, State};
        ///
        /// let state = State::new(Rules::default(), 2, Seat(0));
        /// assert_eq!(state.view(Seat(0)).feature_value(segment_id(0, 1)), 1); // a one-tile road
        /// ```
        fn feature_value(&self, id: SegmentId) -> u32;
        /// Meeples of each seat on a feature (by root).
        ///
        /// # Examples
        /// ```
        /// use engine::{segment_id, Rules, Seat, State};
        ///
        /// let state = State::new(Rules::default(), 2, Seat(0));
        /// assert_eq!(state.view(Seat(0)).meeples_on(segment_id(0, 1))[Seat(0)], 0);
        /// ```
        fn meeples_on(&self, root: SegmentId) -> PerSeat<u8>;
        /// Number of legal placements.
        ///
        /// # Examples
        /// ```
        /// use engine::{Chance, Rules, Seat, State, Tile};
        ///
        /// let mut state = State::new(Rules::default(), 2, Seat(0));
        /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
        /// assert_eq!(state.view(Seat(0)).placement_count(), 6);
        /// ```
        fn placement_count(&self) -> usize;
        /// The `k`-th legal placement.
        ///
        /// # Examples
        /// ```
        /// use engine::{Chance, Rules, Seat, State, Tile};
        ///
        /// let mut state = State::new(Rules::default(), 2, Seat(0));
        /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
        /// assert_eq!(state.view(Seat(0)).nth_placement(0), state.nth_placement(0));
        /// ```
        fn nth_placement(&self, k: usize) -> Option<Placement>;
        /// Segments that may take a meeple after a placement.
        ///
        /// # Examples
        /// ```
        /// use engine::{Chance, Rules, Seat, State, Tile};
        ///
        /// let mut state = State::new(Rules::default(), 2, Seat(0));
        /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
        /// let view = state.view(Seat(0));
        /// let p = view.nth_placement(0).unwrap();
        /// assert_eq!(view.free_segments(p), state.free_segments(p));
        /// ```
        fn free_segments(&self, placement: Placement) -> u8;
        /// Why a move is illegal, if it is.
        ///
        /// # Errors
        /// The [`IllegalMove`], as [`State::check`].
        ///
        /// # Examples
        /// ```
        /// use engine::{Chance, IllegalMove, Move, Pos, Rotation, Rules, Seat, State, Tile};
        ///
        /// let mut state = State::new(Rules::default(), 2, Seat(0));
        /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
        /// let far = Move::place(Pos::new(9, 9), Rotation::default());
        /// assert_eq!(state.view(Seat(0)).check(far), Err(IllegalMove::NoNeighbour(Pos::new(9, 9))));
        /// ```
        fn check(&self, mv: Move) -> Result<(), IllegalMove>;
        /// Every seat's score if the game ended now
        /// ([`State::end_now_scores`]): public, since other seats' gift
        /// cards count 2 each whatever they are.
        fn end_now_scores(&self) -> PerSeat<Score>;
        /// An action in record notation ([`State::describe`]).
        fn describe(&self, action: Action) -> String;
        /// An action read from record notation (see [`State::parse_action`]).
        ///
        /// # Errors
        /// When `text` is not an action of this position in record notation.
        fn parse_action(&self, text: &str) -> Result<Action, crate::ParseActionError>;
    }
}

impl State {
    /// The view of `seat`.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let view = state.view(Seat(0));
    /// assert_eq!((view.seat(), view.drawn_tile()), (Seat(0), Some(Tile::U)));
    /// ```
    pub fn view(&self, seat: Seat) -> SeatView<'_> {
        SeatView::new(self, seat)
    }
}
