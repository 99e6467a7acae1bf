//! Replaying a record played with a hand of tiles (RULES.md §8 `hand`):
//! the set-up `deal`, and per turn the tiles set aside or, with
//! `unplaceable: return`, put back into the bag (`discarded`), the
//! tiles drawn into the hand (`drawn`: replacements, then back up to the
//! hand size) and the tile placed from the hand.

use super::replay::{placed_at, ReplayReason};
use super::{Record, TurnRecord};
use crate::geom::Pos;
use crate::moves::{IllegalMove, Move, Placement};
use crate::state::State;
use crate::tiles::{segment_at, Tile};
use crate::turn::{Drawn, Phase};

/// Deal the record's `deal` at set-up: seat 0's tiles first, then seat
/// 1's, and so on, each seat exactly the hand size.
///
/// # Errors
/// A one-line description of what is wrong with the deal.
pub(super) fn apply_deal(state: &mut State, record: &Record) -> Result<(), String> {
    let n = record.rules.hand as usize;
    if n == 0 {
        return match record.deal.is_empty() {
            true => Ok(()),
            false => Err("a `deal` is recorded but the rules have no `hand`".to_string()),
        };
    }
    if record.deal.len() != record.players {
        return Err(format!(
            "hand={n} needs a `deal` of one list per seat ({} lists, not {})",
            record.players,
            record.deal.len()
        ));
    }
    for (seat, tiles) in record.deal.iter().enumerate() {
        if tiles.len() != n {
            return Err(format!(
                "deal: seat {seat} draws {n} tiles at set-up, not {}",
                tiles.len()
            ));
        }
        for &t in tiles {
            state
                .draw(t)
                .map_err(|e| format!("deal: seat {seat}: {e}"))?;
        }
    }
    Ok(())
}

/// Apply one recorded turn of a game with a hand.
pub(super) fn apply_hand_turn(state: &mut State, turn: &TurnRecord) -> Result<(), ReplayReason> {
    use ReplayReason::*;
    let seat = state.to_play();
    let mut drawn = turn.drawn.iter().copied();
    start_hand_turn(state, turn, &mut drawn)?;
    let Some(tile) = turn.tile else {
        // A pass: the seat's hand ran empty with the bag.
        let passed =
            state.is_over() || state.to_play() != seat || state.phase() != Phase::PlaceHand;
        return match (passed, drawn.next()) {
            (true, None) => Ok(()),
            (true, Some(t)) => Err(BadTurn(format!("tile {t} drawn but the seat passed"))),
            (false, _) => Err(MissingTile),
        };
    };
    let (x, y, rot) = placed_at(state, turn, tile)?;
    let slot = state
        .held(seat)
        .slot_of(tile)
        .ok_or(Illegal(IllegalMove::NotInHand(tile)))?;
    let meeple = match turn.meeple {
        Some(loc) => {
            Some(segment_at(tile, rot, loc).ok_or(Illegal(IllegalMove::NoSuchSegment(tile, loc)))?)
        }
        None => None,
    };
    let placement = Placement {
        pos: Pos::new(x, y),
        rot,
        slot,
    };
    state
        .try_play(Move { placement, meeple })
        .map_err(Illegal)?;
    // Back up to the hand size.
    for t in drawn {
        if state.phase() != Phase::DrawHand {
            return Err(BadTurn(format!(
                "tile {t} drawn but the hand is full or the bag is empty"
            )));
        }
        state.draw(t).map_err(Illegal)?;
    }
    if state.phase() == Phase::DrawHand {
        return Err(BadTurn(format!(
            "the hand must be drawn back up to {} tiles after placing",
            state.rules().hand
        )));
    }
    Ok(())
}

/// The start of a turn with a hand: the tiles set aside (`discarded`),
/// then replacements drawn from `drawn` until the seat is to place (or
/// passes). The draws after placing are left in `drawn`.
fn start_hand_turn(
    state: &mut State,
    turn: &TurnRecord,
    drawn: &mut impl Iterator<Item = Tile>,
) -> Result<(), ReplayReason> {
    use ReplayReason::*;
    if turn.gift_open.is_some() || turn.gift_received.is_some() {
        return Err(BadTurn("a game with a hand has no gifts".to_string()));
    }
    let seat = state.to_play();
    // The start of the turn: tiles set aside, then replacements drawn.
    for &t in &turn.discarded {
        if state.phase() != Phase::Draw || state.to_play() != seat {
            return Err(BadTurn(format!(
                "tile {t} set aside but nothing is left to set aside or draw"
            )));
        }
        match state.draw(t).map_err(Illegal)? {
            Drawn::SetAside | Drawn::Returned => {}
            _ => return Err(Illegal(IllegalMove::FalseDiscard(t))),
        }
    }
    while state.phase() == Phase::Draw && state.to_play() == seat {
        if let Some(t) = state.unplaceable_in_hand() {
            return Err(Illegal(IllegalMove::MustSetAside(t)));
        }
        let Some(t) = drawn.next() else {
            return Err(BadTurn(
                "the hand is short: a replacement tile must be drawn before placing".to_string(),
            ));
        };
        match state.draw(t).map_err(Illegal)? {
            Drawn::Held => {}
            _ => return Err(Illegal(IllegalMove::Unplaceable(t))),
        }
    }
    Ok(())
}

/// Apply the start of a turn in progress with a hand, as
/// [`RecordBuilder::current_turn`](super::RecordBuilder::current_turn)
/// gives it: the tiles set aside and the replacements drawn. The seat is
/// then to place a tile of its hand.
pub(super) fn apply_hand_turn_start(
    state: &mut State,
    turn: &TurnRecord,
) -> Result<(), ReplayReason> {
    use ReplayReason::*;
    if turn.tile.is_some() {
        return Err(BadTurn(
            "a turn in progress has placed no tile yet".to_string(),
        ));
    }
    let seat = state.to_play();
    let mut drawn = turn.drawn.iter().copied();
    start_hand_turn(state, turn, &mut drawn)?;
    if let Some(t) = drawn.next() {
        return Err(BadTurn(format!("tile {t} drawn but the hand is full")));
    }
    if state.phase() != Phase::PlaceHand || state.to_play() != seat {
        return Err(BadTurn(
            "the turn in progress does not end at a placement".to_string(),
        ));
    }
    Ok(())
}
