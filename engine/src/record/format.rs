//! The record format (GAME-RECORD.md): the types a record file holds,
//! read and written as JSON with the `serde` feature.

use crate::geom::Location;
use crate::gifts::Gift;
use crate::moves::{Move, Placement};
use crate::rules::Rules;
use crate::seat::Seat;
use crate::tiles::Tile;

/// The format tag written in every record.
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
    /// The agents' spec strings in seat order, if known.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub agents: Vec<String>,
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
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FinalRecord {
    /// Each seat's total, in seat order.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::totals"))]
    pub scores: Vec<u32>,
}

/// One turn of a record.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TurnRecord {
    /// The seat that played the turn.
    pub player: u8,
    /// Tiles drawn and set aside as unplaceable before the placed one.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub discarded: Vec<Tile>,
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
    pub fn new(seat: Seat, discarded: Vec<Tile>, tile: Tile, mv: Move) -> TurnRecord {
        let Placement { pos, rot } = mv.placement;
        TurnRecord {
            player: seat.0,
            discarded,
            tile: Some(tile),
            x: Some(pos.x),
            y: Some(pos.y),
            rot: Some(rot.quarter_turns()),
            meeple: mv.meeple.map(|s| tile.oriented(rot).canonical[s as usize]),
            gift_open: None,
            gift_received: None,
        }
    }

    /// The last turn of a game whose stack ran out while `seat` discarded.
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
