//! The decisions of a record: for every choice a seat made, the full
//! state before it and the action taken, found by replaying the record
//! with the engine's checked calls.
//!
//! A turn holds one decision (the placement), two with a gift opened
//! first (the opening, then the placement) and three with Take 2 (the
//! opening, the tile kept, the placement). Records with hands of tiles
//! (RULES.md §8, `hand=`) are refused: their turns do not say which
//! decisions were made in which order yet.

use engine::{
    apply_turn, apply_turn_start, initial_state, Action, Gift, GiftOpen, Move, Phase, Placement,
    Pos, Record, ReplayError, ReplayReason, Rotation, State, Tile, TurnRecord,
};

/// One decision of a recorded game.
#[derive(Clone, Debug)]
pub struct RecordedDecision {
    /// The record's turn it belongs to, numbered from 1 as `replay` does.
    pub turn: usize,
    /// The whole position before it (the analysis shows an agent only
    /// the deciding seat's view of it).
    pub state: State,
    /// What the seat did.
    pub action: Action,
}

/// Every decision of `record`, in order.
///
/// # Errors
/// The first turn that does not replay (as [`engine::replay`] names it),
/// or a record with hands of tiles.
pub fn decisions(record: &Record) -> Result<Vec<RecordedDecision>, ReplayError> {
    if record.rules.hand > 0 {
        return Err(ReplayError {
            turn: 0,
            reason: ReplayReason::BadHeader(
                "records with hands of tiles (rules \"hand\") cannot be analysed yet".to_string(),
            ),
        });
    }
    let mut state = initial_state(record)?;
    let mut out = Vec::new();
    for (i, turn) in record.turns.iter().enumerate() {
        let at = |reason: ReplayReason| ReplayError {
            turn: i + 1,
            reason,
        };
        let mut after = state.clone();
        apply_turn(&mut after, turn).map_err(at)?;
        if let Some(tile) = turn.tile {
            for (state, action) in turn_decisions(&state, turn, tile).map_err(at)? {
                out.push(RecordedDecision {
                    turn: i + 1,
                    state,
                    action,
                });
            }
        }
        state = after;
    }
    Ok(out)
}

/// The decisions of `turn` (which places `tile`), from `before` it: each
/// position with the action taken there. The turn replays already.
fn turn_decisions(
    before: &State,
    turn: &TurnRecord,
    tile: Tile,
) -> Result<Vec<(State, Action)>, ReplayReason> {
    let start_of = |gift_open| TurnRecord {
        player: turn.player,
        discarded: turn.discarded.clone(),
        tile: Some(first_tile(turn, tile)),
        gift_open,
        ..TurnRecord::default()
    };
    let reach = |partial: &TurnRecord| -> Result<State, ReplayReason> {
        let mut s = before.clone();
        apply_turn_start(&mut s, partial)?;
        Ok(s)
    };
    let mut out = Vec::new();
    let mut place_at = reach(&start_of(None))?;
    if let Some(g) = &turn.gift_open {
        let opening = place_at.clone();
        if g.card == Gift::Take2 {
            out.push((opening, Action::Open(GiftOpen::Take2)));
            if g.second.is_some() {
                // The two tiles drawn, before one is kept.
                let mut drawn = g.clone();
                drawn.returned = None;
                out.push((reach(&start_of(Some(drawn)))?, Action::Keep(tile)));
            }
        } else {
            let opened = reach(&start_of(Some(g.clone())))?;
            let action = opening
                .legal_actions()
                .into_iter()
                .filter(|a| matches!(a, Action::Open(_)))
                .find(|&a| {
                    let mut s = opening.clone();
                    s.try_action(a).is_ok() && s == opened
                })
                .ok_or_else(|| {
                    ReplayReason::BadTurn(format!("no legal opening of {} gives this turn", g.card))
                })?;
            out.push((opening, action));
        }
        place_at = reach(&start_of(Some(g.clone())))?;
    }
    debug_assert!(matches!(place_at.phase(), Phase::Place(_)));
    let missing = |what: &str| ReplayReason::BadTurn(format!("tile {tile} placed without {what}"));
    let (x, y, rot) = match (turn.x, turn.y, turn.rot) {
        (Some(x), Some(y), Some(r)) => (x, y, r),
        _ => return Err(missing("a cell and rotation")),
    };
    let rot = Rotation::new(rot).ok_or_else(|| missing("a rotation 0-3"))?;
    let meeple = match turn.meeple {
        Some(loc) => Some(
            place_at
                .meeple_segment(rot, loc)
                .map_err(ReplayReason::Illegal)?,
        ),
        None => None,
    };
    let mv = Move {
        placement: Placement::new(Pos::new(x, y), rot),
        meeple,
    };
    out.push((place_at, Action::Place(mv)));
    Ok(out)
}

/// The first tile drawn in `turn`, which places `placed`: with Take 2 the
/// one of the placed and the returned tile that was not the second draw.
fn first_tile(turn: &TurnRecord, placed: Tile) -> Tile {
    match &turn.gift_open {
        Some(g) if g.card == Gift::Take2 => match (g.second, g.returned) {
            (Some(second), Some(returned)) if second == placed => returned,
            _ => placed,
        },
        _ => placed,
    }
}
