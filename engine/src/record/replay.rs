//! Replay: applying a record's turns with the checked engine calls, and
//! why a record does not replay.

use super::{GiftOpenRecord, Record, TurnRecord, FORMAT};
use crate::geom::{Location, Pos};
use crate::gifts::{Gift, GiftOpen};
use crate::moves::{IllegalMove, Move, Placement};
use crate::seat::Seat;
use crate::state::State;
use crate::tiles::Tile;
use crate::turn::{Action, Drawn, Phase};
use crate::Rotation;
use std::fmt;

/// Why a record does not replay.
///
/// # Examples
/// ```
/// use engine::{replay, Record, ReplayReason, Rules};
///
/// let record = Record::new(7, Rules::default());
/// let err = replay(&record, false).unwrap_err();
/// assert!(matches!(err.reason, ReplayReason::BadHeader(_)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
///
/// # Examples
/// ```
/// use engine::{replay, IllegalMove, Record, ReplayReason, Rules, Tile, TurnRecord};
///
/// let mut record = Record::new(2, Rules::default());
/// record.turns.push(TurnRecord {
///     player: 0,
///     tile: Some(Tile::U),
///     x: Some(5),
///     y: Some(5),
///     rot: Some(0),
///     ..TurnRecord::default()
/// });
/// let err = replay(&record, false).unwrap_err();
/// assert_eq!(err.turn, 1);
/// assert_eq!(err.reason, ReplayReason::Illegal(IllegalMove::NoNeighbour(engine::Pos::new(5, 5))));
/// assert_eq!(err.to_string(), "turn 1: cell (5, 5) has no neighbouring tile along an edge");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The 1-based turn, or 0 when the fault is not in a turn.
    pub turn: usize,
    /// What is wrong.
    pub reason: ReplayReason,
}

impl fmt::Display for ReplayReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ReplayReason::*;
        match self {
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

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.turn > 0 {
            write!(f, "turn {}: ", self.turn)?;
        }
        self.reason.fmt(f)
    }
}

impl std::error::Error for ReplayError {}

/// The position before a record's first turn: its header checked (format,
/// players, rules, the first seat), with `start_in_bag` its `start` tile
/// drawn and placed, and with a hand the set-up `deal` dealt.
///
/// # Errors
/// A [`ReplayError`] at turn 0 for a bad header or deal (turn 1 for a
/// first player who is not a seat).
///
/// # Examples
/// ```
/// use engine::{initial_state, Pos, Record, Rules, Tile};
///
/// let state = initial_state(&Record::new(2, Rules::default())).unwrap();
/// assert_eq!(state.turns(), 0);
/// let mut record = Record::new(2, "start_in_bag=true".parse().unwrap());
/// record.start = Some(Tile::V);
/// let state = initial_state(&record).unwrap();
/// assert_eq!(state.board().at(Pos::ORIGIN).unwrap().tile, Tile::V);
/// record.start = None;
/// assert!(initial_state(&record).is_err());
/// ```
pub fn initial_state(record: &Record) -> Result<State, ReplayError> {
    let header = |s: String| ReplayError {
        turn: 0,
        reason: ReplayReason::BadHeader(s),
    };
    if record.format != FORMAT {
        return Err(header(format!(
            "format {:?} is not {FORMAT:?}",
            record.format
        )));
    }
    if !crate::PLAYERS.contains(&record.players) {
        return Err(header(format!(
            "players must be 2 to 6, not {}",
            record.players
        )));
    }
    record.rules.validate().map_err(|e| header(e.to_string()))?;
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
    match (record.rules.start_in_bag, record.start) {
        (true, Some(start)) => {
            state
                .draw(start)
                .map_err(|e| header(format!("start: {e}")))?;
        }
        (true, None) => {
            return Err(header(
                "start_in_bag: the record names no \"start\" tile".to_string(),
            ))
        }
        (false, Some(start)) => {
            return Err(header(format!(
                "\"start\": {start} given but start_in_bag is off (the start tile is D)"
            )))
        }
        (false, None) => {}
    }
    super::hand_replay::apply_deal(&mut state, record).map_err(header)?;
    Ok(state)
}

/// Replay `record` from the start and return the state after its last
/// turn. A record that drew every tile is a finished game, with final
/// scoring done; with `end` a shorter record is scored as if the game
/// ended after its last turn. When the game is over and the record holds
/// `final.scores`, they must match.
///
/// # Errors
/// A [`ReplayError`] naming the first turn that is not legal (or the header,
/// or final scores that differ from the replayed ones).
///
/// # Examples
/// ```
/// use engine::{replay, Record, Rules, Tile, TurnRecord};
///
/// let mut record = Record::new(2, Rules::default());
/// record.turns.push(TurnRecord { player: 0, tile: Some(Tile::U), x: Some(1), y: Some(0),
///                                rot: Some(1), ..TurnRecord::default() });
/// assert_eq!(replay(&record, false).unwrap().turns(), 1);
/// record.turns[0].x = Some(5); // no neighbour there
/// assert_eq!(replay(&record, false).unwrap_err().turn, 1);
/// ```
pub fn replay(record: &Record, end: bool) -> Result<State, ReplayError> {
    let mut state = initial_state(record)?;
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
///
/// # Errors
/// The [`ReplayReason`] the turn is not legal; the state may then hold the
/// part of the turn before it (replay from the start to recover).
///
/// # Examples
/// ```
/// use engine::{apply_turn, Rules, Seat, State, Tile, TurnRecord};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// let turn = TurnRecord { player: 0, tile: Some(Tile::U), x: Some(1), y: Some(0),
///                         rot: Some(1), ..TurnRecord::default() };
/// apply_turn(&mut state, &turn).unwrap();
/// assert_eq!(state.to_play(), Seat(1));
/// ```
pub fn apply_turn(state: &mut State, turn: &TurnRecord) -> Result<(), ReplayReason> {
    use ReplayReason::*;
    check_seat(state, turn)?;
    if state.rules().hand > 0 {
        return super::hand_replay::apply_hand_turn(state, turn);
    }
    if !turn.drawn.is_empty() {
        return Err(BadTurn(
            "tiles `drawn` into a hand, but the rules have no `hand`".to_string(),
        ));
    }
    for &t in &turn.discarded {
        discard(state, t)?;
    }
    let Some(tile) = turn.tile else {
        return if !state.is_over() {
            Err(MissingTile)
        } else if turn.gift_open.is_some() || turn.gift_received.is_some() {
            Err(BadTurn("a turn without a tile has no gifts".to_string()))
        } else {
            Ok(())
        };
    };
    let (x, y, rot) = placed_at(state, turn, tile)?;
    // With Take 2 the first tile drawn may be the one returned.
    let first = match &turn.gift_open {
        Some(g) if g.card == Gift::Take2 => take2_first_tile(tile, g)?,
        _ => tile,
    };
    if state.draw(first).map_err(Illegal)? != Drawn::Placeable {
        return Err(Illegal(IllegalMove::Unplaceable(first)));
    }
    if let Some(g) = &turn.gift_open {
        open_gift(state, g, Some(tile))?;
    }
    let placement = Placement::new(Pos::new(x, y), rot);
    let meeple = match turn.meeple {
        Some(loc) => Some(state.meeple_segment(rot, loc).map_err(Illegal)?),
        None => None,
    };
    state
        .try_play(Move { placement, meeple })
        .map_err(Illegal)?;
    match (state.phase(), turn.gift_received) {
        (Phase::DrawGift, Some(g)) => state.receive_gift(g).map_err(Illegal),
        (Phase::DrawGift, None) => Err(BadTurn(
            "the placement earns a gift but no gift_received is recorded".to_string(),
        )),
        (_, Some(g)) => Err(BadTurn(format!(
            "gift_received {g} but the placement earns no gift"
        ))),
        (_, None) => Ok(()),
    }
}

/// Apply a turn in progress, as [`RecordBuilder::current_turn`] gives it:
/// the tiles set aside, the first tile drawn (`tile`, which has no cell
/// yet), and a gift opened (for Take 2, its set-aside tiles, `second`
/// draw, and `returned` once a tile was kept). The seat is then to
/// decide: place, open a gift, or keep one of two tiles. With a hand
/// (RULES.md §8), the tiles set aside and the replacements `drawn`: the
/// seat is then to place a tile of its hand.
///
/// [`RecordBuilder::current_turn`]: super::RecordBuilder::current_turn
///
/// # Errors
/// As [`apply_turn`].
pub fn apply_turn_start(state: &mut State, turn: &TurnRecord) -> Result<(), ReplayReason> {
    if state.rules().hand > 0 {
        check_seat(state, turn)?;
        return super::hand_replay::apply_hand_turn_start(state, turn);
    }
    set_aside(state, turn)?;
    let tile = turn.tile.ok_or(ReplayReason::MissingTile)?;
    match state.draw(tile).map_err(ReplayReason::Illegal)? {
        Drawn::Placeable => {}
        Drawn::SetAside | Drawn::Returned | Drawn::Start => {
            return Err(ReplayReason::Illegal(IllegalMove::Unplaceable(tile)))
        }
        Drawn::Held => {
            return Err(ReplayReason::BadTurn(
                "a turn in progress cannot be applied with a hand".to_string(),
            ))
        }
    }
    match &turn.gift_open {
        Some(g) => {
            let kept = match (g.second, g.returned) {
                (Some(second), Some(returned)) if returned == second => Some(tile),
                (Some(second), Some(_)) => Some(second),
                _ => None,
            };
            open_gift(state, g, kept)
        }
        None => Ok(()),
    }
}

/// Check that the game goes on and that the turn is its seat to play's.
fn check_seat(state: &State, turn: &TurnRecord) -> Result<(), ReplayReason> {
    if state.phase() == Phase::Over {
        return Err(ReplayReason::AfterEnd);
    }
    let expected = state.to_play().0;
    if turn.player != expected {
        return Err(ReplayReason::WrongPlayer {
            found: turn.player,
            expected,
        });
    }
    Ok(())
}

/// Check the turn's seat and set its `discarded` tiles aside.
fn set_aside(state: &mut State, turn: &TurnRecord) -> Result<(), ReplayReason> {
    check_seat(state, turn)?;
    for &t in &turn.discarded {
        discard(state, t)?;
    }
    Ok(())
}

/// Where the turn placed `tile`: its cell and rotation, refused after the
/// end or when a field is missing or out of range.
pub(super) fn placed_at(
    state: &State,
    turn: &TurnRecord,
    tile: Tile,
) -> Result<(i8, i8, Rotation), ReplayReason> {
    use ReplayReason::*;
    if state.is_over() {
        return Err(AfterEnd);
    }
    let missing = |what: &str| BadTurn(format!("tile {tile} placed without {what:?}"));
    let x = turn.x.ok_or_else(|| missing("x"))?;
    let y = turn.y.ok_or_else(|| missing("y"))?;
    let rot = turn.rot.ok_or_else(|| missing("rot"))?;
    let rot = Rotation::new(rot).ok_or_else(|| BadTurn(format!("rotation {rot} is not 0-3")))?;
    Ok((x, y, rot))
}

/// Set `tile` aside as unplaceable, refusing a tile that could be placed.
fn discard(state: &mut State, tile: Tile) -> Result<(), ReplayReason> {
    if state.bag().count(tile) > 0 && state.is_placeable(tile) {
        return Err(ReplayReason::Illegal(IllegalMove::FalseDiscard(tile)));
    }
    state.draw(tile).map_err(ReplayReason::Illegal)?;
    Ok(())
}

/// The first tile of a Take 2 turn: of the placed and the returned tile,
/// the one that is not the second draw.
fn take2_first_tile(placed: Tile, g: &GiftOpenRecord) -> Result<Tile, ReplayReason> {
    let bad = |s: &str| ReplayReason::BadTurn(format!("take_2: {s}"));
    match (g.second, g.returned) {
        (None, None) => Ok(placed),
        (Some(second), Some(returned)) => {
            if second == placed {
                Ok(returned)
            } else if second == returned {
                Ok(placed)
            } else {
                Err(bad(
                    "the second tile must be the placed or the returned one",
                ))
            }
        }
        _ => Err(bad("\"second\" and \"returned\" go together")),
    }
}

/// Open the recorded gift (and for Take 2, draw the second tile and keep
/// `placed`, when it is known).
fn open_gift(
    state: &mut State,
    g: &GiftOpenRecord,
    placed: Option<Tile>,
) -> Result<(), ReplayReason> {
    use ReplayReason::*;
    let card = g.card;
    let bad = |s: String| BadTurn(format!("{card}: {s}"));
    let at = || match (g.x, g.y) {
        (Some(x), Some(y)) => Ok(Pos::new(x, y)),
        _ => Err(bad("needs the target tile's \"x\" and \"y\"".to_string())),
    };
    let segment = |pos: Pos, loc: Option<Location>, name: &str| {
        let loc = loc.ok_or_else(|| bad(format!("needs \"{name}\"")))?;
        state
            .segment_at(pos, loc)
            .map(|id| (id as usize % crate::tiles::MAX_SEGMENTS) as u8)
            .ok_or_else(|| bad(format!("no feature at {loc} of the tile at {pos}")))
    };
    // Only the fields of the card's shape may be present.
    let fields = [
        ("x", g.x.is_some()),
        ("y", g.y.is_some()),
        ("at", g.at.is_some()),
        ("from", g.from.is_some()),
        ("to", g.to.is_some()),
        ("discarded", !g.discarded.is_empty()),
        ("second", g.second.is_some()),
        ("returned", g.returned.is_some()),
    ];
    let allowed: &[&str] = match card {
        Gift::Synod => &["x", "y"],
        Gift::RoadSweeper | Gift::CashOut => &["x", "y", "at"],
        Gift::ChangePosition => &["x", "y", "from", "to"],
        Gift::Take2 => &["discarded", "second", "returned"],
    };
    if let Some((name, _)) = fields
        .iter()
        .find(|(n, present)| *present && !allowed.contains(n))
    {
        return Err(bad(format!("has no \"{name}\"")));
    }
    let targetless = fields.iter().all(|(_, present)| !present);
    let open = match card {
        Gift::Take2 => GiftOpen::Take2,
        _ if targetless => GiftOpen::Wasted(card),
        Gift::Synod => GiftOpen::Synod { at: at()? },
        Gift::RoadSweeper => {
            let pos = at()?;
            GiftOpen::RoadSweeper {
                at: pos,
                segment: segment(pos, g.at, "at")?,
            }
        }
        Gift::CashOut => {
            let pos = at()?;
            GiftOpen::CashOut {
                at: pos,
                segment: segment(pos, g.at, "at")?,
            }
        }
        Gift::ChangePosition => {
            let pos = at()?;
            GiftOpen::ChangePosition {
                at: pos,
                from: segment(pos, g.from, "from")?,
                to: segment(pos, g.to, "to")?,
            }
        }
    };
    state.try_action(Action::Open(open)).map_err(Illegal)?;
    if card != Gift::Take2 {
        return Ok(());
    }
    for &t in &g.discarded {
        if !matches!(state.phase(), Phase::DrawSecond(_)) {
            return Err(bad(format!("tile {t} set aside but no second draw is due")));
        }
        discard(state, t)?;
    }
    match (state.phase(), g.second) {
        (Phase::DrawSecond(_), Some(second)) => {
            if state.draw(second).map_err(Illegal)? != Drawn::Placeable {
                return Err(Illegal(IllegalMove::Unplaceable(second)));
            }
            match placed {
                Some(placed) => state.try_action(Action::Keep(placed)).map_err(Illegal),
                None => Ok(()),
            }
        }
        (Phase::DrawSecond(_), None) => Err(bad(
            "the stack is not empty: the second tile is missing".to_string(),
        )),
        (_, Some(_)) => Err(bad(
            "no second tile can be drawn: the stack is empty".to_string()
        )),
        (_, None) => Ok(()),
    }
}
