//! The turn's vocabulary: whose decision it is ([`Phase`]), a seat's
//! decision ([`Action`]) and what a chance step produced
//! ([`ChanceOutcome`], [`Drawn`]).

use crate::gifts::{Gift, GiftOpen};
use crate::moves::Move;
use crate::tiles::Tile;

/// A chance event before it happens: the tile or gift card that comes
/// out. [`crate::State::chance_outcomes`] lists them with their
/// probabilities, [`crate::State::apply_chance_outcome`] applies one.
///
/// # Examples
/// ```
/// use engine::{Chance, Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// let outcomes = state.chance_outcomes();
/// let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
/// assert!((total - 1.0).abs() < 1e-12);
/// state.apply_chance_outcome(Chance::Tile(Tile::X)).unwrap();
/// assert_eq!(state.drawn_tile(), Some(Tile::X));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chance {
    /// This tile is drawn from the bag.
    Tile(Tile),
    /// The seat to play receives this gift card from the deck.
    Gift(Gift),
}

/// Whose decision it is: a seat's ([`Phase::Place`], [`Phase::Choose`],
/// [`Phase::PlaceHand`]), chance's ([`Phase::Draw`], [`Phase::DrawSecond`],
/// [`Phase::DrawGift`], [`Phase::DrawHand`]), or nobody's ([`Phase::Over`]).
///
/// # Examples
/// ```
/// use engine::{Chance, Phase, Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// assert_eq!(state.phase(), Phase::Draw);
/// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
/// assert_eq!(state.phase(), Phase::Place(Tile::U));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Chance: a tile must be drawn from the bag for the seat to play.
    /// With a hand (RULES.md §8 `hand`), this is the start of the seat's
    /// turn: an unplaceable tile of its hand is set aside (the outcome is
    /// certain), or a tile is drawn to replace one set aside (into the hand
    /// if it can be placed, else set aside too).
    Draw,
    /// The seat to play must place the drawn `tile` (and may first open a
    /// gift).
    Place(Tile),
    /// Chance (Take 2): a second tile must be drawn; the first is held.
    DrawSecond(Tile),
    /// Take 2: the seat keeps one of the two tiles; the other goes back.
    Choose(Tile, Tile),
    /// Chance (The Gifts): the seat that just placed receives a gift card.
    DrawGift,
    /// Chance (hand): a tile is drawn into the hand of the seat to play,
    /// without looking at whether it can be placed: at set-up (each seat in
    /// seat order draws its hand) or after placing (back up to the hand
    /// size).
    DrawHand,
    /// The seat to play places one tile of its hand
    /// ([`crate::Placement::slot`] names which).
    PlaceHand,
    /// The game is over and final scoring is done.
    Over,
}

/// A seat's decision: place the tile, open a gift, or (after Take 2) keep
/// one of two tiles.
///
/// # Examples
/// ```
/// use engine::{Action, Chance, Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
/// let action = state.parse_action("U (1, 0) r1").unwrap();
/// assert!(matches!(action, Action::Place(_)));
/// assert_eq!(Action::from_index(action.to_index().unwrap()), Some(action));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Place the drawn tile, with an optional meeple.
    Place(Move),
    /// Open a gift before placing.
    Open(GiftOpen),
    /// Keep this tile of the two drawn with Take 2.
    Keep(Tile),
}

/// What a chance step produced.
///
/// # Examples
/// ```
/// use engine::{ChanceOutcome, Drawn, Rules, Seat, State};
/// use rand::SeedableRng;
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// match state.apply_chance(&mut rand_pcg::Pcg64Mcg::seed_from_u64(1)) {
///     ChanceOutcome::Tile(tile, Drawn::Placeable) => assert_eq!(state.drawn_tile(), Some(tile)),
///     other => panic!("the first tile always fits: {other:?}"),
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChanceOutcome {
    /// A tile was drawn (and perhaps set aside).
    Tile(Tile, Drawn),
    /// A gift card was received by the seat to play.
    Gift(Gift),
}

/// What happened to a drawn tile.
///
/// # Examples
/// ```
/// use engine::{Chance, ChanceOutcome, Drawn, Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// let outcome = state.apply_chance_outcome(Chance::Tile(Tile::C)); // north of the start tile's city
/// assert_eq!(outcome, Ok(ChanceOutcome::Tile(Tile::C, Drawn::Placeable)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawn {
    /// It can be placed: the seat must now place it.
    Placeable,
    /// It has no legal placement and was set aside; draw again (or the
    /// game is over if the bag is empty). With a hand, also a tile of the
    /// hand set aside at the start of the turn.
    SetAside,
    /// It has no legal placement and went back into the bag
    /// (`unplaceable: return`; with a hand, also a tile of the hand
    /// returned at the start of the turn); draw again.
    Returned,
    /// It is the start tile (`start_in_bag`), now at the origin in
    /// rotation 0; the first turn's tile (or the hands' deal) is drawn
    /// next.
    Start,
    /// With a hand: it went into the hand of the seat it was drawn for.
    Held,
}
