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

use crate::board::Board;
use crate::geom::{Location, Pos};
use crate::gifts::{Gift, GiftOpen};
use crate::moves::{IllegalMove, Move, Placement};
use crate::rules::Rules;
use crate::seat::{Seat, MAX_PLAYERS};
use crate::state::{Action, ChanceOutcome, Drawn, Phase, State};
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

impl GiftOpenRecord {
    /// The record of opening `open` on `board` (locations named on the
    /// target tile as placed).
    pub fn of(open: GiftOpen, board: &Board) -> GiftOpenRecord {
        let mut g = GiftOpenRecord::new(open.gift());
        let name = |pos: Pos, seg: u8| {
            let p = board.at(pos).expect("a gift targets a placed tile");
            p.tile.oriented(p.rot).canonical[seg as usize]
        };
        match open {
            GiftOpen::Synod { at } => (g.x, g.y) = (Some(at.x), Some(at.y)),
            GiftOpen::RoadSweeper { at, segment } | GiftOpen::CashOut { at, segment } => {
                (g.x, g.y) = (Some(at.x), Some(at.y));
                g.at = Some(name(at, segment));
            }
            GiftOpen::ChangePosition { at, from, to } => {
                (g.x, g.y) = (Some(at.x), Some(at.y));
                g.from = Some(name(at, from));
                g.to = Some(name(at, to));
            }
            GiftOpen::Take2 | GiftOpen::Wasted(_) => {}
        }
        g
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

pub use crate::state::follow_turn;

/// Apply one recorded turn with the checked engine calls.
pub fn apply_turn(state: &mut State, turn: &TurnRecord) -> Result<(), ReplayReason> {
    use ReplayReason::*;
    set_aside(state, turn)?;
    let Some(tile) = turn.tile else {
        return if !state.is_over() {
            Err(MissingTile)
        } else if turn.gift_open.is_some() || turn.gift_received.is_some() {
            Err(BadTurn("a turn without a tile has no gifts".to_string()))
        } else {
            Ok(())
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
    // With Take 2 the first tile drawn may be the one returned.
    let first = match &turn.gift_open {
        Some(g) if g.card == Gift::Take2 => take2_first_tile(tile, g)?,
        _ => tile,
    };
    match state.draw(first).map_err(Illegal)? {
        Drawn::Placeable => {}
        Drawn::SetAside => return Err(Illegal(IllegalMove::Unplaceable(first))),
    }
    if let Some(g) = &turn.gift_open {
        open_gift(state, g, Some(tile))?;
    }
    let placement = Placement {
        pos: Pos::new(x, y),
        rot,
    };
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
/// decide: place, open a gift, or keep one of two tiles.
pub fn apply_turn_start(state: &mut State, turn: &TurnRecord) -> Result<(), ReplayReason> {
    set_aside(state, turn)?;
    let tile = turn.tile.ok_or(ReplayReason::MissingTile)?;
    match state.draw(tile).map_err(ReplayReason::Illegal)? {
        Drawn::Placeable => {}
        Drawn::SetAside => return Err(ReplayReason::Illegal(IllegalMove::Unplaceable(tile))),
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

/// Check the turn's seat and set its `discarded` tiles aside.
fn set_aside(state: &mut State, turn: &TurnRecord) -> Result<(), ReplayReason> {
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
    for &t in &turn.discarded {
        discard(state, t)?;
    }
    Ok(())
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
            match state.draw(second).map_err(Illegal)? {
                Drawn::Placeable => {}
                Drawn::SetAside => return Err(Illegal(IllegalMove::Unplaceable(second))),
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

/// Builds a [`Record`] while a game is played: give it every chance
/// outcome and every action, each with the state right after it.
#[derive(Clone, Debug)]
pub struct RecordBuilder {
    record: Record,
    turn: Option<TurnRecord>,
    first: Option<Tile>,
}

impl RecordBuilder {
    /// A builder for a new game.
    pub fn new(players: usize, rules: Rules) -> RecordBuilder {
        RecordBuilder {
            record: Record::new(players, rules),
            turn: None,
            first: None,
        }
    }

    /// The record's header fields (seed, agents) can be set here.
    pub fn record_mut(&mut self) -> &mut Record {
        &mut self.record
    }

    /// Close the turn in progress, as [`RecordBuilder::finish`] does (for
    /// a game stopped mid-turn).
    pub fn close_turn(&mut self) {
        self.close();
    }

    /// The turns completed so far.
    pub fn turns(&self) -> &[TurnRecord] {
        &self.record.turns
    }

    /// The turn in progress, if it has begun: the tiles set aside, the
    /// first placeable tile drawn (as `tile`, with no cell yet) and a gift
    /// opened.
    pub fn current_turn(&self) -> Option<TurnRecord> {
        let mut turn = self.turn.clone()?;
        if turn.tile.is_none() {
            turn.tile = self.first;
        }
        Some(turn)
    }

    fn current(&mut self, seat: Seat) -> &mut TurnRecord {
        self.turn.get_or_insert_with(|| TurnRecord {
            player: seat.0,
            ..TurnRecord::default()
        })
    }

    fn close(&mut self) {
        if let Some(t) = self.turn.take() {
            self.record.turns.push(t);
        }
        self.first = None;
    }

    /// A chance outcome, with the state after it.
    pub fn chance(&mut self, after: &State, outcome: ChanceOutcome) {
        let seat = after.to_play();
        match outcome {
            ChanceOutcome::Tile(tile, drawn) => {
                let turn = self.current(seat);
                match (&mut turn.gift_open, drawn) {
                    (Some(g), Drawn::SetAside) => g.discarded.push(tile),
                    (Some(g), Drawn::Placeable) => g.second = Some(tile),
                    (None, Drawn::SetAside) => turn.discarded.push(tile),
                    (None, Drawn::Placeable) => self.first = Some(tile),
                }
                if after.is_over() {
                    self.close();
                }
            }
            ChanceOutcome::Gift(gift) => {
                self.current(seat).gift_received = Some(gift);
                self.close();
            }
        }
    }

    /// An action of `seat`, with the state after it.
    pub fn action(&mut self, seat: Seat, after: &State, action: Action) {
        let first = self.first;
        let turn = self.current(seat);
        match action {
            Action::Place(mv) => {
                let placed = after
                    .board()
                    .at(mv.placement.pos)
                    .expect("the tile was placed");
                let t = TurnRecord::new(seat, Vec::new(), placed.tile, mv);
                (turn.tile, turn.x, turn.y, turn.rot, turn.meeple) =
                    (t.tile, t.x, t.y, t.rot, t.meeple);
                if after.phase() != Phase::DrawGift {
                    self.close();
                }
            }
            Action::Open(open) => {
                turn.gift_open = Some(GiftOpenRecord::of(open, after.board()));
            }
            Action::Keep(kept) => {
                if let Some(g) = &mut turn.gift_open {
                    let second = g.second.expect("a second tile before the choice");
                    let first = first.expect("a first tile before the choice");
                    g.returned = Some(if kept == second { first } else { second });
                }
            }
        }
    }

    /// The finished record, with the final scores when the game is over.
    pub fn finish(mut self, state: &State) -> Record {
        self.close();
        if state.is_over() {
            self.record.final_scores = Some(FinalRecord {
                scores: (0..state.players())
                    .map(|s| state.score(Seat(s as u8)).total())
                    .collect(),
            });
        }
        self.record
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
