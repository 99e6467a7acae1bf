//! A record replayed turn by turn into frames: what the board, the scores,
//! the meeples and the gift hands were after each turn. Pictures and the
//! game viewer draw from these frames, never from a second rules engine.

use engine::apply_turn;
use engine::FeatureKind;
use engine::Placed;
use engine::{Location, Record, ReplayError, ReplayReason, Score, Seat, State};

/// A meeple on the board, where it is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MeepleSpot {
    /// Its owner.
    pub seat: usize,
    /// The board slot of its tile (placement order, 0 = start tile).
    pub slot: usize,
    /// The location it occupies, in board orientation.
    pub location: Location,
    /// A farmer (drawn lying down).
    pub lying: bool,
}

/// The game after a number of turns.
#[derive(Clone, Debug)]
pub struct Frame {
    /// Turns applied (0 = only the start tile).
    pub turn: usize,
    /// Tiles on the board: slots `0..tiles` of [`History::tiles`].
    pub tiles: usize,
    /// Every seat's points.
    pub scores: Vec<Score>,
    /// Meeples in each seat's supply.
    pub supply: Vec<u8>,
    /// Gift cards in each seat's hand (The Gifts).
    pub hands: Vec<u8>,
    /// Meeples on the board.
    pub meeples: Vec<MeepleSpot>,
    /// The game is over (final scoring done).
    pub over: bool,
}

/// A whole record, frame by frame.
#[derive(Clone, Debug)]
pub struct History {
    /// The record.
    pub record: Record,
    /// Every tile placed, in placement (slot) order.
    pub tiles: Vec<Placed>,
    /// `frames[n]` is the game after `n` turns; there are `turns + 1`.
    pub frames: Vec<Frame>,
}

/// Where records put meeples: (board slot, segment index) → the location
/// the record named, which may be any edge of a city or road, or any port
/// of a field (the engine keeps only the segment).
type Named = std::collections::HashMap<(usize, u8), Location>;

/// Remember the locations turn `turn` named for meeples it put on tiles.
fn remember(named: &mut Named, state: &State, turn: &engine::TurnRecord) {
    let board = state.board();
    let mut name = |x: i8, y: i8, loc: Location| {
        if let Some(slot) = board.slot_at(engine::Pos::new(x, y)) {
            let placed = board.placed(slot);
            if let Some(segment) = engine::segment_at(placed.tile, placed.rot, loc) {
                named.insert((slot, segment), loc);
            }
        }
    };
    if let (Some(x), Some(y), Some(loc)) = (turn.x, turn.y, turn.meeple) {
        name(x, y, loc);
    }
    if let Some(g) = &turn.gift_open {
        if let (Some(x), Some(y), Some(to)) = (g.x, g.y, g.to) {
            name(x, y, to);
        }
    }
}

fn frame(state: &State, turn: usize, named: &Named) -> Frame {
    let seats = 0..state.players();
    let board = state.board();
    let meeples = state
        .meeples()
        .iter()
        .map(|m| {
            let placed = board.placed(m.slot());
            let oriented = placed.tile.oriented(placed.rot);
            let segment = m.segment_index() as usize;
            MeepleSpot {
                seat: m.seat.index(),
                slot: m.slot(),
                location: named
                    .get(&(m.slot(), m.segment_index()))
                    .copied()
                    .unwrap_or(oriented.canonical[segment]),
                lying: placed.tile.def().segments[segment].kind == FeatureKind::Field,
            }
        })
        .collect();
    Frame {
        turn,
        tiles: board.len(),
        scores: seats.clone().map(|s| state.score(Seat(s as u8))).collect(),
        supply: seats.clone().map(|s| state.supply(Seat(s as u8))).collect(),
        hands: seats.map(|s| state.hand_size(Seat(s as u8))).collect(),
        meeples,
        over: state.is_over(),
    }
}

impl History {
    /// Replay `record` into its frames.
    ///
    /// # Errors
    /// A player count out of range (turn 0), or the first turn that does
    /// not replay.
    pub fn new(record: &Record) -> Result<History, ReplayError> {
        if !(2..=engine::MAX_PLAYERS).contains(&record.players) {
            let why = format!(
                "the record has {} players (2 to {} are possible)",
                record.players,
                engine::MAX_PLAYERS
            );
            return Err(ReplayError {
                turn: 0,
                reason: ReplayReason::BadHeader(why),
            });
        }
        let mut state = engine::initial_state(record)?;
        let mut named = Named::new();
        let mut frames = vec![frame(&state, 0, &named)];
        for (i, turn) in record.turns.iter().enumerate() {
            apply_turn(&mut state, turn).map_err(|reason| ReplayError {
                turn: i + 1,
                reason,
            })?;
            remember(&mut named, &state, turn);
            frames.push(frame(&state, i + 1, &named));
        }
        Ok(History {
            record: record.clone(),
            tiles: state.board().tiles().to_vec(),
            frames,
        })
    }

    /// Turns in the record.
    pub fn turns(&self) -> usize {
        self.frames.len() - 1
    }

    /// The slot of the tile placed by turn `n` (1-based), if it placed one.
    pub fn placed_by(&self, n: usize) -> Option<usize> {
        let (before, after) = (self.frames.get(n.checked_sub(1)?)?, self.frames.get(n)?);
        (after.tiles > before.tiles).then_some(after.tiles - 1)
    }

    /// `Seat N`, with the agent's label when the record names it.
    pub fn seat_name(&self, seat: usize) -> String {
        match self.record.agents.get(seat) {
            Some(agent) => format!("Seat {seat} · {agent}"),
            None => format!("Seat {seat}"),
        }
    }
}

impl History {
    /// What turn `n` (1-based) did, in parts: tiles set aside, the tile
    /// placed and its meeple, the gift opened and the gift received.
    pub fn describe_turn(&self, n: usize) -> Vec<String> {
        let Some(turn) = n.checked_sub(1).and_then(|i| self.record.turns.get(i)) else {
            return vec!["start tile".to_string()];
        };
        let mut parts = Vec::new();
        if let Some(g) = &turn.gift_open {
            parts.push(format!("opened {g}"));
        }
        if !turn.discarded.is_empty() {
            let tiles: Vec<String> = turn.discarded.iter().map(|t| t.to_string()).collect();
            parts.push(format!("set aside {}", tiles.join(" ")));
        }
        if let (Some(tile), Some(x), Some(y), Some(rot)) = (turn.tile, turn.x, turn.y, turn.rot) {
            let meeple = turn
                .meeple
                .map_or("no meeple".to_string(), |loc| format!("meeple {loc}"));
            parts.push(format!("placed {tile} at ({x}, {y}) rot {rot}, {meeple}"));
        }
        if turn.gift_received.is_some() {
            parts.push("received a gift".to_string());
        }
        parts
    }
}
