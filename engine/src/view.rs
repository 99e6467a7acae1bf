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
use crate::gifts::{Gift, GiftCards};
use crate::moves::{IllegalMove, Move, MoveList, Placement};
use crate::rules::Rules;
use crate::seat::{PerSeat, Score, Seat};
use crate::state::{Meeple, State};
use crate::tiles::{FeatureKind, Tile};
use crate::turn::{Action, Phase};
use rand::Rng;

/// A seat's view of a game.
///
/// # Examples
/// ```
/// use engine::{Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules { farmers: true, gifts: true, ..Rules::STANDARD }, 2, Seat(0));
/// state.draw(Tile::U).unwrap();
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
    pub fn new(state: &'a State, seat: Seat) -> SeatView<'a> {
        SeatView { state, seat }
    }

    /// The seat whose view this is.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// This seat's gift cards.
    pub fn own_hand(&self) -> GiftCards {
        self.state.hand(self.seat)
    }

    /// The board.
    pub fn board(&self) -> &'a Board {
        self.state.board()
    }

    /// Roads, cities, monasteries and fields.
    pub fn features(&self) -> &'a Features {
        self.state.features()
    }

    /// The meeples on the board.
    pub fn meeples(&self) -> &'a [Meeple] {
        self.state.meeples()
    }

    /// The tiles left, as counts.
    pub fn bag(&self) -> &'a Bag {
        self.state.bag()
    }

    public! {
        /// The rules in force.
        fn rules(&self) -> Rules;
        /// Number of seats.
        fn players(&self) -> usize;
        /// The seat to play.
        fn to_play(&self) -> Seat;
        /// Whose decision it is.
        fn phase(&self) -> Phase;
        /// The game is over.
        fn is_over(&self) -> bool;
        /// Turns played.
        fn turns(&self) -> usize;
        /// A seat's score.
        fn score(&self, seat: Seat) -> Score;
        /// Meeples in a seat's supply.
        fn supply(&self, seat: Seat) -> u8;
        /// Cards a seat holds.
        fn hand_size(&self, seat: Seat) -> u8;
        /// The open discard pile of gifts.
        fn gift_discard(&self) -> GiftCards;
        /// Cards left in the gift deck.
        fn gift_deck_size(&self) -> u8;
        /// What the gift deck was made of when it was last formed.
        fn gift_deck_pool(&self) -> GiftCards;
        /// A gift was opened this turn.
        fn gift_opened(&self) -> bool;
        /// The seat to play may open a gift now.
        fn may_open_gift(&self) -> bool;
        /// The drawn tile, when one must be placed.
        fn drawn_tile(&self) -> Option<Tile>;
        /// `tile` has a legal placement.
        fn is_placeable(&self, tile: Tile) -> bool;
        /// The kind of a segment's feature.
        fn segment_kind(&self, id: SegmentId) -> FeatureKind;
        /// The segment at a location of a placed tile.
        fn segment_at(&self, pos: Pos, loc: Location) -> Option<SegmentId>;
        /// The feature of a segment is complete.
        fn is_complete(&self, id: SegmentId) -> bool;
        /// What the feature of a segment is worth now.
        fn feature_value(&self, id: SegmentId) -> u32;
        /// Meeples of each seat on a feature (by root).
        fn meeples_on(&self, root: SegmentId) -> PerSeat<u8>;
        /// Number of legal placements.
        fn placement_count(&self) -> usize;
        /// The `k`-th legal placement.
        fn nth_placement(&self, k: usize) -> Option<Placement>;
        /// Segments that may take a meeple after a placement.
        fn free_segments(&self, placement: Placement) -> u8;
        /// Why a move is illegal, if it is.
        fn check(&self, mv: Move) -> Result<(), IllegalMove>;
    }

    /// Every legal placement.
    pub fn for_each_placement(&self, f: impl FnMut(Placement)) {
        self.state.for_each_placement(f)
    }

    /// Every legal move (placement and meeple).
    pub fn for_each_move(&self, f: impl FnMut(Move)) {
        self.state.for_each_move(f)
    }

    /// Fill `list` with every legal move.
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
    /// use engine::{Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.draw(Tile::U).unwrap();
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
    pub fn for_each_action(&self, f: impl FnMut(Action)) {
        if self.state.to_play() != self.seat {
            return;
        }
        self.state.for_each_action(f)
    }

    /// A uniformly random action (see [`crate::random_action`]) for this seat,
    /// which must be the seat to play. It depends only on what the seat
    /// may see: the public position and its own hand.
    pub fn random_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Action> {
        if self.state.to_play() != self.seat {
            return None;
        }
        crate::playout::random_action(self.state, rng)
    }

    /// A uniformly random gift opening for this seat (see
    /// [`crate::playout::random_gift_open`]), which must be the seat to
    /// play.
    pub fn random_gift_open<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<crate::GiftOpen> {
        if self.state.to_play() != self.seat {
            return None;
        }
        crate::playout::random_gift_open(self.state, rng)
    }

    /// A complete state consistent with everything this seat knows, for
    /// search. The future tile order is chance in every state (the bag is
    /// counts). With The Gifts, the cards this seat has not seen — other
    /// seats' hands and the deck — are dealt at random from the unseen
    /// cards: the deck from those that can be in it (the deck is part of
    /// the pile it was last formed from, which lay face up), the rest to
    /// the other seats, each receiving as many as it holds. The sample
    /// depends only on `rng` and on what the seat may see.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State};
    /// use rand::SeedableRng;
    ///
    /// let state = State::new(Rules { farmers: true, gifts: true, ..Rules::STANDARD }, 3, Seat(0));
    /// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
    /// let sample = state.view(Seat(1)).determinize(&mut rng);
    /// assert_eq!(sample.board().len(), state.board().len()); // public facts kept
    /// ```
    pub fn determinize<R: Rng + ?Sized>(&self, rng: &mut R) -> State {
        let mut state = self.state.clone();
        if !self.state.rules().gifts {
            return state;
        }
        let unseen = GiftCards::FULL
            .minus(&self.own_hand())
            .minus(&self.state.gift_discard());
        // The deck first, from the unseen cards of the pile it was formed
        // from; then the other hands from everything else unseen.
        let may_be_deck = unseen.common(&self.state.gift_deck_pool());
        let mut deck = GiftCards::EMPTY;
        let mut candidates = shuffled(&may_be_deck, rng);
        for &g in &candidates.cards[..self.state.gift_deck_size() as usize] {
            deck.add(g);
        }
        candidates = shuffled(&unseen.minus(&deck), rng);
        let cards = &candidates.cards;
        let mut hands = [GiftCards::EMPTY; crate::MAX_PLAYERS];
        let mut next = 0;
        for (s, hand) in hands.iter_mut().enumerate().take(self.players()) {
            let seat = Seat(s as u8);
            if seat == self.seat {
                *hand = self.own_hand();
                continue;
            }
            for _ in 0..self.state.hand_size(seat) {
                hand.add(cards[next]);
                next += 1;
            }
        }
        debug_assert_eq!(next, candidates.len);
        state.set_hidden_cards(deck, &hands[..self.players()]);
        state
    }
}

/// At most 25 gift cards in a random order.
struct Shuffled {
    cards: [Gift; 25],
    len: usize,
}

/// The cards of `of` in a uniformly random order.
fn shuffled<R: Rng + ?Sized>(of: &GiftCards, rng: &mut R) -> Shuffled {
    let mut out = Shuffled {
        cards: [Gift::Synod; 25],
        len: 0,
    };
    for g in Gift::ALL {
        for _ in 0..of.count(g) {
            out.cards[out.len] = g;
            out.len += 1;
        }
    }
    for i in (1..out.len).rev() {
        out.cards.swap(i, rng.gen_range(0..=i));
    }
    out
}

impl State {
    /// The view of `seat`.
    pub fn view(&self, seat: Seat) -> SeatView<'_> {
        SeatView::new(self, seat)
    }
}
