//! Moves, the fixed-capacity move list, and why a move can be illegal.

use crate::geom::{Location, Pos, Rotation, Side};
use crate::gifts::Gift;
use crate::tiles::Tile;
use crate::turn::Phase;
use std::fmt;

/// Where the drawn tile goes (and, with a hand, which tile of the hand).
///
/// # Examples
/// ```
/// use engine::{Chance, Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
/// let p = state.nth_placement(0).unwrap();
/// assert!(state.board().is_open(p.pos));
/// assert_ne!(state.board().fitting_rotations_at(Tile::U, p.pos) & (1 << p.rot.quarter_turns()), 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    /// The cell.
    pub pos: Pos,
    /// The rotation.
    pub rot: Rotation,
    /// The hand slot of the tile placed ([`crate::Hand`], sorted by kind):
    /// always 0 without a hand (the drawn tile).
    pub slot: u8,
}

impl Placement {
    /// The drawn tile (hand slot 0) at `pos` in rotation `rot`.
    pub const fn new(pos: Pos, rot: Rotation) -> Placement {
        Placement { pos, rot, slot: 0 }
    }
}

/// A seat's move: the placement of the drawn tile and an optional meeple on
/// one of its segments (by segment index of the tile kind; see
/// [`crate::tiles::segment_at`] to resolve a [`Location`]).
///
/// # Examples
/// ```
/// use engine::{Move, Pos, Rotation, Tile};
///
/// let mv = Move::place(Pos::new(1, 0), Rotation::new(1).unwrap()).with_meeple(0);
/// assert_eq!(mv.display(Tile::U).to_string(), "U (1, 0) r1 E"); // the road
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Where the tile goes.
    pub placement: Placement,
    /// The segment of the placed tile that gets a meeple, if any.
    pub meeple: Option<u8>,
}

impl Move {
    /// Place a tile without a meeple.
    ///
    /// # Examples
    /// ```
    /// use engine::{Move, Pos, Rotation};
    ///
    /// let mv = Move::place(Pos::new(0, -1), Rotation::default());
    /// assert_eq!((mv.placement.pos, mv.meeple), (Pos::new(0, -1), None));
    /// ```
    pub const fn place(pos: Pos, rot: Rotation) -> Move {
        Move {
            placement: Placement::new(pos, rot),
            meeple: None,
        }
    }

    /// This move with the tile of hand slot `slot`.
    pub const fn from_slot(self, slot: u8) -> Move {
        Move {
            placement: Placement {
                pos: self.placement.pos,
                rot: self.placement.rot,
                slot,
            },
            meeple: self.meeple,
        }
    }

    /// This move with a meeple on segment `segment`.
    ///
    /// # Examples
    /// ```
    /// use engine::{segment_at, Location, Move, Pos, Rotation, Side, Tile};
    ///
    /// let rot = Rotation::new(1).unwrap();
    /// let road = segment_at(Tile::U, rot, Location::Edge(Side::E)).unwrap();
    /// let mv = Move::place(Pos::new(1, 0), rot).with_meeple(road);
    /// assert_eq!(mv.meeple, Some(road));
    /// ```
    pub const fn with_meeple(self, segment: u8) -> Move {
        Move {
            placement: self.placement,
            meeple: Some(segment),
        }
    }

    /// The move in record notation for `tile`, e.g. `U (1, 0) r1 NNE`.
    ///
    /// # Examples
    /// ```
    /// use engine::{Move, Pos, Rotation, Tile};
    ///
    /// let mv = Move::place(Pos::new(1, 0), Rotation::new(1).unwrap());
    /// assert_eq!(mv.display(Tile::U).to_string(), "U (1, 0) r1");
    /// assert_eq!(mv.with_meeple(9).display(Tile::U).to_string(), "U (1, 0) r1 segment 9");
    /// ```
    pub fn display(&self, tile: Tile) -> impl fmt::Display {
        let Placement { pos, rot, .. } = self.placement;
        // A segment the tile does not have (from a faulty agent) is shown
        // by its number.
        let meeple = self.meeple.map(|s| {
            if (s as usize) < tile.segment_count() {
                Ok(tile.oriented(rot).canonical[s as usize])
            } else {
                Err(s)
            }
        });
        DisplayMove {
            tile,
            pos,
            rot,
            meeple,
        }
    }
}

struct DisplayMove {
    tile: Tile,
    pos: Pos,
    rot: Rotation,
    meeple: Option<Result<Location, u8>>,
}

impl fmt::Display for DisplayMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} r{}", self.tile, self.pos, self.rot)?;
        match self.meeple {
            Some(Ok(loc)) => write!(f, " {loc}"),
            Some(Err(seg)) => write!(f, " segment {seg}"),
            None => Ok(()),
        }
    }
}

/// The most moves one position can have: at most 146 open cells × 4
/// rotations = 584 placements per tile, for each of up to 3 tiles of a
/// hand, each with no meeple or a meeple on one of at most 8 segments
/// (tile X). No real position comes near it.
///
/// # Examples
/// ```
/// use engine::{Chance, MoveList, Rules, Seat, State, Tile, MAX_MOVES};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// state.apply_chance_outcome(Chance::Tile(Tile::X)).unwrap();
/// let mut moves = MoveList::new();
/// state.legal_moves(&mut moves);
/// assert!(moves.len() <= MAX_MOVES);
/// ```
pub const MAX_MOVES: usize = 3 * 584 * 9;

/// A list of moves on the stack, with room for [`MAX_MOVES`].
///
/// It dereferences to a slice of the moves.
///
/// # Examples
/// ```
/// use engine::{Move, MoveList, Pos, Rotation};
///
/// let mut list = MoveList::new();
/// list.push(Move::place(Pos::new(1, 0), Rotation::default()));
/// assert_eq!(list.len(), 1);
/// assert_eq!(list[0].placement.pos, Pos::new(1, 0));
/// list.clear();
/// assert!(list.is_empty());
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    ///
    /// # Examples
    /// ```
    /// use engine::MoveList;
    ///
    /// assert!(MoveList::new().is_empty());
    /// ```
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::place(Pos::ORIGIN, Rotation::default()); MAX_MOVES],
            len: 0,
        }
    }

    /// Append a move.
    ///
    /// # Panics
    /// If the list already holds [`MAX_MOVES`] moves.
    ///
    /// # Examples
    /// ```
    /// use engine::{Move, MoveList, Pos, Rotation};
    ///
    /// let mut list = MoveList::default();
    /// list.push(Move::place(Pos::ORIGIN, Rotation::default()));
    /// assert_eq!(list.len(), 1);
    /// ```
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Remove every move.
    ///
    /// # Examples
    /// ```
    /// use engine::{Move, MoveList, Pos, Rotation};
    ///
    /// let mut list = MoveList::new();
    /// list.push(Move::place(Pos::ORIGIN, Rotation::default()));
    /// list.clear();
    /// assert_eq!(list.len(), 0);
    /// ```
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Why a move, draw or record step was refused. Each prints one line.
///
/// # Examples
/// ```
/// use engine::{Action, Chance, IllegalMove, Move, Pos, Rotation, Rules, Seat, Side, State, Tile};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// assert!(state.apply_chance_outcome(Chance::Tile(Tile::X)).is_ok());
/// let again = state.apply_chance_outcome(Chance::Tile(Tile::X));
/// assert_eq!(again, Err(IllegalMove::TileAlreadyDrawn));
/// let bad = Move::place(Pos::new(0, 1), Rotation::default()); // a road against the city
/// let err = state.try_action(Action::Place(bad)).unwrap_err();
/// assert_eq!(err, IllegalMove::EdgeMismatch(Pos::new(0, 1), Side::S));
/// assert_eq!(err.to_string(), "the S edge at (0, 1) does not match its neighbour");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IllegalMove {
    /// The game is over.
    GameOver,
    /// A tile must be drawn first.
    NoTileDrawn,
    /// A tile was already drawn; it must be placed.
    TileAlreadyDrawn,
    /// The tile is not left in the bag.
    NotInBag(Tile),
    /// The cell already holds a tile.
    Occupied(Pos),
    /// The cell touches no placed tile along an edge.
    NoNeighbour(Pos),
    /// The cell lies off the table (RULES.md §8 `table`).
    OffTable(Pos),
    /// An edge of the tile does not match its neighbour.
    EdgeMismatch(Pos, Side),
    /// The tile has no segment at that location.
    NoSuchSegment(Tile, Location),
    /// A move names a segment index the tile does not have.
    BadSegment(Tile, u8),
    /// The feature already holds a meeple.
    FeatureOccupied(Location),
    /// The seat has no meeple left in supply.
    NoMeepleLeft,
    /// Fields take no meeples when farmers are off.
    FarmersOff,
    /// A record set a tile aside that had a legal placement.
    FalseDiscard(Tile),
    /// A record placed a tile that has no legal placement (it must be set
    /// aside).
    Unplaceable(Tile),
    /// The game is waiting for something else (a draw, a choice, ...).
    WrongPhase(Phase),
    /// The Gifts is not in play.
    GiftsOff,
    /// The seat already opened a gift this turn.
    GiftAlreadyOpened,
    /// The seat holds no such gift.
    GiftNotHeld(Gift),
    /// The gift's target is not valid, and why.
    GiftTarget(Gift, &'static str),
    /// The gift is not left in the deck.
    GiftNotInDeck(Gift),
    /// Take 2: the tile to keep is not one of the two drawn.
    NotDrawn(Tile),
    /// Hand: no tile in that hand slot, or that tile is not in the hand.
    NotInHand(Tile),
    /// Hand: an empty hand slot.
    EmptySlot(u8),
    /// Hand: a tile of the hand has no legal placement and must be set
    /// aside first.
    MustSetAside(Tile),
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use IllegalMove::*;
        match *self {
            GameOver => write!(f, "the game is over"),
            NoTileDrawn => write!(f, "no tile has been drawn"),
            TileAlreadyDrawn => write!(f, "a tile was drawn and must be placed"),
            NotInBag(t) => write!(f, "tile {t} is not left in the stack"),
            Occupied(p) => write!(f, "cell {p} already holds a tile"),
            NoNeighbour(p) => write!(f, "cell {p} has no neighbouring tile along an edge"),
            OffTable(p) => write!(f, "cell {p} lies off the table"),
            EdgeMismatch(p, s) => write!(f, "the {s} edge at {p} does not match its neighbour"),
            NoSuchSegment(t, l) => write!(f, "tile {t} has no feature at location {l}"),
            BadSegment(t, s) => write!(f, "tile {t} has no segment {s}"),
            FeatureOccupied(l) => write!(f, "the feature at {l} already holds a meeple"),
            NoMeepleLeft => write!(f, "no meeple left in supply"),
            FarmersOff => write!(f, "farmers are off: no meeple may go in a field"),
            FalseDiscard(t) => write!(f, "tile {t} was set aside but has a legal placement"),
            Unplaceable(t) => write!(
                f,
                "tile {t} has no legal placement and must be listed as discarded"
            ),
            WrongPhase(p) => write!(f, "not now: the game is at {}", phase_name(p)),
            GiftsOff => write!(f, "The Gifts is not in play"),
            GiftAlreadyOpened => write!(f, "a gift was already opened this turn"),
            GiftNotHeld(g) => write!(f, "the seat holds no {g} gift"),
            GiftTarget(g, why) => write!(f, "{g}: {why}"),
            GiftNotInDeck(g) => write!(f, "no {g} gift is left in the deck"),
            NotDrawn(t) => write!(f, "tile {t} is not one of the two tiles drawn"),
            NotInHand(t) => write!(f, "tile {t} is not in the seat's hand"),
            EmptySlot(s) => write!(f, "hand slot {s} holds no tile"),
            MustSetAside(t) => write!(
                f,
                "tile {t} in the hand has no legal placement and must be set aside first"
            ),
        }
    }
}

impl std::error::Error for IllegalMove {}

fn phase_name(phase: Phase) -> String {
    match phase {
        Phase::Draw => "a tile draw".to_string(),
        Phase::Place(t) => format!("placing tile {t}"),
        Phase::DrawSecond(_) => "Take 2's second draw".to_string(),
        Phase::Choose(a, b) => format!("choosing tile {a} or {b}"),
        Phase::DrawGift => "a gift draw".to_string(),
        Phase::DrawHand => "a draw into the hand".to_string(),
        Phase::PlaceHand => "placing a tile of the hand".to_string(),
        Phase::Over => "the end".to_string(),
    }
}
