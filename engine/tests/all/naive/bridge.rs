//! Feeding recorded turns of the engine to the naive reference: the one
//! place where the reference meets an engine type (the reference itself was
//! written from RULES.md alone and knows none).

use super::NaiveGame;
use engine::TurnRecord;

impl NaiveGame {
    /// Play the placement of a recorded turn (nothing for a turn that only
    /// set tiles aside); Err with the reference's reason if it refuses.
    pub fn place_turn(&mut self, turn: &TurnRecord) -> Result<(), String> {
        let Some(tile) = turn.tile else {
            return Ok(());
        };
        let (Some(x), Some(y), Some(rot)) = (turn.x, turn.y, turn.rot) else {
            return Err(format!("tile {tile} without x, y or rot"));
        };
        let meeple = turn.meeple.map(|m| m.to_string());
        let seat = turn.player as usize;
        self.place(
            seat,
            tile.letter(),
            x.into(),
            y.into(),
            rot,
            meeple.as_deref(),
        )
    }
}
