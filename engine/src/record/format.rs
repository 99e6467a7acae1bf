//! The record format (docs/RECORD-FORMAT.md): the types a record file holds,
//! read and written as JSON with the `serde` feature.

use crate::geom::Location;
use crate::gifts::Gift;
use crate::moves::{Move, Placement};
use crate::rules::Rules;
use crate::seat::Seat;
use crate::tiles::Tile;

/// The format tag written in every record.
///
/// # Examples
/// ```
/// use engine::{replay, Record, Rules, FORMAT};
///
/// let mut record = Record::new(2, Rules::default());
/// assert_eq!(record.format, FORMAT);
/// record.format = "carcassonne-record/9".into();
/// assert!(replay(&record, false).is_err()); // another format is refused
/// ```
pub const FORMAT: &str = "carcassonne-record/1";

/// One game, as written to and read from a record file.
///
/// # Examples
/// ```
/// use engine::{Record, Rules};
///
/// let record = Record::new(2, Rules::default());
/// assert_eq!(record.format, engine::FORMAT);
/// assert!(record.turns.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Record {
    /// Always [`FORMAT`]; [`replay`](crate::replay) refuses any other (a missing tag reads
    /// as [`FORMAT`]).
    #[cfg_attr(feature = "serde", serde(default = "format_tag"))]
    pub format: String,
    /// Number of seats, 2–6.
    pub players: usize,
    /// Rules options (defaults: farmers on, gifts off).
    #[cfg_attr(feature = "serde", serde(default))]
    pub rules: Rules,
    /// The seed the game was played from, if any.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub seed: Option<u64>,
    /// The start tile drawn from the bag at set-up (`start_in_bag`; absent
    /// otherwise, when it is D).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub start: Option<Tile>,
    /// The agents' spec strings in seat order, if known.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub agents: Vec<String>,
    /// With a hand (RULES.md §8 `hand`): the tiles each seat drew at
    /// set-up, in seat order (one list per seat).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub deal: Vec<Vec<Tile>>,
    /// Hints shown per seat, in seat order (`carcassonne web --hints`:
    /// how many of a person's decisions they asked the analysing agent
    /// about); empty when the game offered none. Replay ignores it.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub hints: Vec<u32>,
    /// The turns in order.
    pub turns: Vec<TurnRecord>,
    /// What the game ended with, if recorded.
    #[cfg_attr(
        feature = "serde",
        serde(default, rename = "final", skip_serializing_if = "Option::is_none")
    )]
    pub final_scores: Option<FinalRecord>,
}

#[cfg(feature = "serde")]
fn format_tag() -> String {
    FORMAT.to_string()
}

/// The `final` object of a record.
///
/// # Examples
/// ```
/// use engine::{replay, FinalRecord, Record, Rules};
///
/// let mut record = Record::new(2, Rules::default());
/// record.final_scores = Some(FinalRecord { scores: vec![10, 3] });
/// // An unfinished game with final scores does not replay with `end`.
/// assert!(replay(&record, true).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FinalRecord {
    /// Each seat's total, in seat order.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::totals"))]
    pub scores: Vec<u32>,
}

/// One turn of a record.
///
/// # Examples
/// ```
/// use engine::{apply_turn, Location, Rules, Seat, Side, State, Tile, TurnRecord};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// let turn = TurnRecord {
///     player: 0,
///     tile: Some(Tile::U),
///     x: Some(1),
///     y: Some(0),
///     rot: Some(1),
///     meeple: Some(Location::Edge(Side::E)),
///     ..TurnRecord::default()
/// };
/// apply_turn(&mut state, &turn).unwrap();
/// assert_eq!(state.meeples().len(), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TurnRecord {
    /// The seat that played the turn.
    pub player: u8,
    /// Tiles drawn and set aside as unplaceable before the placed one
    /// (with `unplaceable: return`, drawn and put back: a tile may come
    /// more than once). With a hand: the tiles of the hand set aside (or
    /// returned) at the start of the turn, then the replacement draws set
    /// aside (or returned).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub discarded: Vec<Tile>,
    /// With a hand: the tiles drawn into the hand during this turn, in
    /// order: first those replacing tiles set aside, then (after placing)
    /// those drawn back up to the hand size.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub drawn: Vec<Tile>,
    /// The placed tile (absent when the stack ran out while discarding).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub tile: Option<Tile>,
    /// Its x coordinate.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub x: Option<i8>,
    /// Its y coordinate.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub y: Option<i8>,
    /// Its rotation, 0–3.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub rot: Option<u8>,
    /// The meeple's location on the placed tile, if one was placed.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub meeple: Option<Location>,
    /// The gift opened before placing (The Gifts).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub gift_open: Option<GiftOpenRecord>,
    /// The gift card received after placing (The Gifts).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub gift_received: Option<Gift>,
}

/// A gift opened in a turn, with its target. The shapes, by card:
///
/// - `{"card": "synod", "x": 1, "y": 2}`: a meeple onto the monastery of
///   the tile at (1, 2);
/// - `{"card": "road_sweeper", "x": 1, "y": 2, "at": "E"}`: score the road
///   through location E of that tile;
/// - `{"card": "cash_out", "x": 1, "y": 2, "at": "NNW"}`: take back your
///   meeple at that location;
/// - `{"card": "change_position", "x": 1, "y": 2, "from": "S", "to": "SSE"}`:
///   move your meeple within that tile;
/// - `{"card": "take_2", "discarded": ["C"], "second": "V", "returned": "U"}`:
///   the second draw (tiles set aside first, then the placeable `second`),
///   and the tile shuffled back into the stack; the turn's `tile` is the
///   one placed. `second` and `returned` are absent when the stack ran
///   out before a second placeable tile;
/// - `{"card": "cash_out"}` with no target: a card opened without effect
///   (allowed only when it has no possible target).
///
/// # Examples
/// ```
/// use engine::{Gift, GiftOpenRecord, Location, Side};
///
/// let mut g = GiftOpenRecord::new(Gift::RoadSweeper);
/// (g.x, g.y, g.at) = (Some(1), Some(0), Some(Location::Edge(Side::E)));
/// assert_eq!(g.to_string(), "road_sweeper (1, 0) E");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GiftOpenRecord {
    /// The card.
    pub card: Gift,
    /// The target tile's x.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub x: Option<i8>,
    /// The target tile's y.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub y: Option<i8>,
    /// Road Sweeper, Cash Out: the location on the target tile.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub at: Option<Location>,
    /// Change Position: where the meeple is.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub from: Option<Location>,
    /// Change Position: where it goes.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub to: Option<Location>,
    /// Take 2: tiles set aside as unplaceable before the second tile.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub discarded: Vec<Tile>,
    /// Take 2: the second placeable tile drawn.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub second: Option<Tile>,
    /// Take 2: the tile shuffled back into the stack.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub returned: Option<Tile>,
}

impl GiftOpenRecord {
    /// A record of `card` with no target yet.
    ///
    /// # Examples
    /// ```
    /// use engine::{Gift, GiftOpenRecord};
    ///
    /// let g = GiftOpenRecord::new(Gift::Take2);
    /// assert_eq!((g.card, g.second), (Gift::Take2, None));
    /// assert_eq!(g.to_string(), "take_2");
    /// ```
    pub fn new(card: Gift) -> GiftOpenRecord {
        GiftOpenRecord {
            card,
            x: None,
            y: None,
            at: None,
            from: None,
            to: None,
            discarded: Vec::new(),
            second: None,
            returned: None,
        }
    }
}

impl TurnRecord {
    /// The record of a move of `seat` placing `tile`, after `discarded`.
    ///
    /// # Panics
    /// If `mv`'s meeple segment is not below [`crate::MAX_SEGMENTS`].
    ///
    /// # Examples
    /// ```
    /// use engine::{Location, Move, Pos, Rotation, Seat, Tile, TurnRecord};
    ///
    /// let mv = Move::place(Pos::new(1, 0), Rotation::new(1).unwrap()).with_meeple(1);
    /// let turn = TurnRecord::new(Seat(1), vec![], Tile::U, mv);
    /// assert_eq!((turn.player, turn.tile, turn.rot), (1, Some(Tile::U), Some(1)));
    /// assert!(matches!(turn.meeple, Some(Location::Field(_))));
    /// ```
    pub fn new(seat: Seat, discarded: Vec<Tile>, tile: Tile, mv: Move) -> TurnRecord {
        let Placement { pos, rot, .. } = mv.placement;
        TurnRecord {
            player: seat.0,
            discarded,
            tile: Some(tile),
            x: Some(pos.x),
            y: Some(pos.y),
            rot: Some(rot.quarter_turns()),
            meeple: mv.meeple.map(|s| tile.oriented(rot).canonical[s as usize]),
            ..TurnRecord::default()
        }
    }

    /// The last turn of a game whose stack ran out while `seat` discarded.
    ///
    /// # Examples
    /// ```
    /// use engine::{Seat, Tile, TurnRecord};
    ///
    /// let last = TurnRecord::discards_only(Seat(0), vec![Tile::C]);
    /// assert_eq!((last.discarded.as_slice(), last.tile), ([Tile::C].as_slice(), None));
    /// ```
    pub fn discards_only(seat: Seat, discarded: Vec<Tile>) -> TurnRecord {
        TurnRecord {
            player: seat.0,
            discarded,
            ..TurnRecord::default()
        }
    }
}

impl Record {
    /// An empty record for a new game.
    ///
    /// # Examples
    /// ```
    /// use engine::{replay, Record, Rules, Seat, State};
    ///
    /// let record = Record::new(4, Rules { gifts: true, ..Rules::STANDARD });
    /// // No turns yet: replaying gives the start position.
    /// assert_eq!(replay(&record, false).unwrap(), State::new(record.rules, 4, Seat(0)));
    /// ```
    pub fn new(players: usize, rules: Rules) -> Record {
        Record {
            format: FORMAT.to_string(),
            players,
            rules,
            ..Record::default()
        }
    }
}

#[cfg(feature = "serde")]
mod de {
    //! Serde glue: tiles and locations as their names, final scores as
    //! numbers or score objects.
    use super::*;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    macro_rules! as_string {
        ($t:ty) => {
            impl Serialize for $t {
                fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    s.collect_str(self)
                }
            }
            impl<'de> Deserialize<'de> for $t {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                    let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                    s.parse().map_err(serde::de::Error::custom)
                }
            }
        };
    }
    as_string!(Tile);
    as_string!(Location);
    as_string!(Gift);

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Total {
        Number(u32),
        Object { total: u32 },
    }

    pub fn totals<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u32>, D::Error> {
        let v = Vec::<Total>::deserialize(d)?;
        Ok(v.into_iter()
            .map(|t| match t {
                Total::Number(n) | Total::Object { total: n } => n,
            })
            .collect())
    }
}
