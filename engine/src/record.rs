//! Game records (GAME-RECORD.md) and their replay through the same code
//! that plays games.
//!
//! A record lists, per turn, the seat, the tiles set aside as unplaceable,
//! the placed tile with its cell and rotation, and the meeple's location.
//! [`replay`] applies every step with the checked engine calls and stops at
//! the first illegal one, naming the 1-based turn. With the `serde`
//! feature the types read and write the JSON format:
//!
//! ```json
//! { "format": "carcassonne-record/1", "players": 2,
//!   "rules": { "farmers": true, "gifts": false },
//!   "turns": [ { "player": 0, "tile": "U", "x": 1, "y": 0, "rot": 1, "meeple": "NNE" },
//!              { "player": 1, "discarded": ["C"], "tile": "V", "x": -1, "y": 0, "rot": 2 } ],
//!   "final": { "scores": [6, 4] } }
//! ```
//!
//! `final.scores` holds the seats' totals (a list of numbers; objects with a
//! `total` field are accepted too).

use crate::geom::{Location, Pos};
use crate::moves::{IllegalMove, Move, Placement};
use crate::rules::Rules;
use crate::seat::{Seat, MAX_PLAYERS};
use crate::state::{Drawn, Phase, State};
use crate::tiles::Tile;
use crate::Rotation;
use std::fmt;

/// The format tag written in every record.
pub const FORMAT: &str = "carcassonne-record/1";

/// One game, as written to and read from a record file.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Record {
    /// Always [`FORMAT`] when written; not checked when read.
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

/// Why a record does not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayReason {
    /// The header is unusable (players out of range, unsupported rules).
    BadHeader(String),
    /// A field of the turn is missing or out of range.
    BadTurn(String),
    /// The turn was played by the wrong seat.
    WrongPlayer {
        /// The seat the record names.
        found: u8,
        /// The seat whose turn it is.
        expected: u8,
    },
    /// The game was already over.
    AfterEnd,
    /// A turn without a tile, but the stack is not empty.
    MissingTile,
    /// The engine refused the step.
    Illegal(IllegalMove),
    /// The replayed scores differ from the record's `final.scores`.
    FinalMismatch {
        /// Totals in the record.
        recorded: Vec<u32>,
        /// Totals from the replay.
        replayed: Vec<u32>,
    },
}

/// A rejected record: the reason and the 1-based turn (0 for the header or
/// the final scores).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The 1-based turn, or 0 when the fault is not in a turn.
    pub turn: usize,
    /// What is wrong.
    pub reason: ReplayReason,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ReplayReason::*;
        if self.turn > 0 {
            write!(f, "turn {}: ", self.turn)?;
        }
        match &self.reason {
            BadHeader(s) | BadTurn(s) => f.write_str(s),
            WrongPlayer { found, expected } => {
                write!(
                    f,
                    "player {found} played but it is player {expected}'s turn"
                )
            }
            AfterEnd => write!(f, "the game was already over"),
            MissingTile => write!(f, "no tile placed but the stack is not empty"),
            Illegal(e) => e.fmt(f),
            FinalMismatch { recorded, replayed } => write!(
                f,
                "final scores {recorded:?} in the record, {replayed:?} on replay"
            ),
        }
    }
}

impl std::error::Error for ReplayError {}

/// Replay `record` from the start and return the state after its last
/// turn. A record that drew every tile is a finished game, with final
/// scoring done; with `end` a shorter record is scored as if the game
/// ended after its last turn. When the game is over and the record holds
/// `final.scores`, they must match.
pub fn replay(record: &Record, end: bool) -> Result<State, ReplayError> {
    let header = |s: String| ReplayError {
        turn: 0,
        reason: ReplayReason::BadHeader(s),
    };
    if !(2..=MAX_PLAYERS).contains(&record.players) {
        return Err(header(format!(
            "players must be 2 to 6, not {}",
            record.players
        )));
    }
    if record.rules.gifts {
        return Err(header("The Gifts is not supported yet".to_string()));
    }
    let first = record.turns.first().map_or(0, |t| t.player);
    if first as usize >= record.players {
        return Err(ReplayError {
            turn: 1,
            reason: ReplayReason::BadTurn(format!(
                "player {first} is not a seat of a {}-player game",
                record.players
            )),
        });
    }
    let mut state = State::new(record.rules, record.players, Seat(first));
    for (i, turn) in record.turns.iter().enumerate() {
        apply_turn(&mut state, turn).map_err(|reason| ReplayError {
            turn: i + 1,
            reason,
        })?;
    }
    if end {
        state.finish();
    }
    if let (true, Some(fin)) = (state.is_over(), &record.final_scores) {
        let replayed: Vec<u32> = (0..state.players())
            .map(|s| state.score(Seat(s as u8)).total())
            .collect();
        if replayed != fin.scores {
            return Err(ReplayError {
                turn: 0,
                reason: ReplayReason::FinalMismatch {
                    recorded: fin.scores.clone(),
                    replayed,
                },
            });
        }
    }
    Ok(state)
}

/// Apply one recorded turn with the checked engine calls.
pub fn apply_turn(state: &mut State, turn: &TurnRecord) -> Result<(), ReplayReason> {
    use ReplayReason::*;
    if state.phase() == Phase::Over {
        return Err(AfterEnd);
    }
    let expected = state.to_play().0;
    if turn.player != expected {
        return Err(WrongPlayer {
            found: turn.player,
            expected,
        });
    }
    for &t in &turn.discarded {
        if state.bag().count(t) > 0 && state.is_placeable(t) {
            return Err(Illegal(IllegalMove::FalseDiscard(t)));
        }
        state.draw(t).map_err(Illegal)?;
    }
    let Some(tile) = turn.tile else {
        return if state.is_over() {
            Ok(())
        } else {
            Err(MissingTile)
        };
    };
    if state.is_over() {
        return Err(AfterEnd);
    }
    let missing = |what: &str| BadTurn(format!("tile {tile} placed without {what:?}"));
    let x = turn.x.ok_or_else(|| missing("x"))?;
    let y = turn.y.ok_or_else(|| missing("y"))?;
    let rot = turn.rot.ok_or_else(|| missing("rot"))?;
    let rot = Rotation::new(rot).ok_or_else(|| BadTurn(format!("rotation {rot} is not 0-3")))?;
    match state.draw(tile).map_err(Illegal)? {
        Drawn::Placeable => {}
        Drawn::SetAside => return Err(Illegal(IllegalMove::Unplaceable(tile))),
    }
    let placement = Placement {
        pos: Pos::new(x, y),
        rot,
    };
    let meeple = match turn.meeple {
        Some(loc) => Some(state.meeple_segment(rot, loc).map_err(Illegal)?),
        None => None,
    };
    state.try_play(Move { placement, meeple }).map_err(Illegal)
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
