//! A fixed-size integer encoding of actions over a square window of cells
//! around the start tile, for learning (masks, policy heads): the engine's
//! stable action ids ([`engine::Action::to_index`], layout on
//! [`engine::ACTION_SPACE`]) with every cell outside the window dropped.
//!
//! The engine numbers cells `(y + 71) * 143 + (x + 71)`, every cell a game
//! can reach; with `radius` R the window keeps the cells with |x|, |y| ≤ R,
//! numbered `(y + R) * (2R + 1) + (x + R)`, C = (2R + 1)² of them. The ids
//! below the first per-cell block (a gift opened without effect, Take 2,
//! keeping a tile) are the engine's; each per-cell block of the engine
//! (Synod: 1 id per cell, Road Sweeper and Cash Out: 8, Change Position:
//! 64, placements: 36) keeps its order and its ids within a cell, with C
//! cells instead of 143². With [`FULL_RADIUS`] an index *is* the engine's
//! id; this module only renumbers cells, so the layout has one
//! definition, the engine's.

use engine::{Action, Pos, ACTION_SPACE, MAX_COORD};
use pyo3::prelude::*;

/// A radius that holds every reachable cell (72 tiles in a line): the
/// window of the engine's action ids.
pub const FULL_RADIUS: u32 = MAX_COORD as u32;

/// Cells of the engine's numbering.
const FULL_CELLS: u32 = (2 * FULL_RADIUS + 1) * (2 * FULL_RADIUS + 1);

/// The engine's per-cell blocks: (first id, ids per cell), in id order.
const BLOCKS: [(u32, u32); 5] = {
    let starts = [
        engine::SYNOD_BASE,
        engine::ROAD_SWEEPER_BASE,
        engine::CASH_OUT_BASE,
        engine::CHANGE_POSITION_BASE,
        engine::PLACE_BASE,
    ];
    let ends = [
        engine::ROAD_SWEEPER_BASE,
        engine::CASH_OUT_BASE,
        engine::CHANGE_POSITION_BASE,
        engine::PLACE_BASE,
        ACTION_SPACE,
    ];
    let mut blocks = [(0, 0); 5];
    let mut i = 0;
    while i < 5 {
        blocks[i] = (starts[i], (ends[i] - starts[i]) / FULL_CELLS);
        i += 1;
    }
    blocks
};

/// The encoding for one window radius.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionSpace {
    radius: u32,
}

impl ActionSpace {
    /// The space of window radius `radius` (at most [`FULL_RADIUS`]).
    pub fn new(radius: u32) -> ActionSpace {
        ActionSpace {
            radius: radius.min(FULL_RADIUS),
        }
    }

    /// Cells on a side of the window.
    pub fn width(&self) -> u32 {
        2 * self.radius + 1
    }

    /// Cells in the window.
    pub fn cells(&self) -> u32 {
        self.width() * self.width()
    }

    /// The first index of each per-cell block in this window.
    fn starts(&self) -> [u32; 5] {
        let mut starts = [0; 5];
        let mut at = engine::SYNOD_BASE;
        for (s, (_, per_cell)) in starts.iter_mut().zip(BLOCKS) {
            *s = at;
            at += per_cell * self.cells();
        }
        starts
    }

    /// Number of indices.
    pub fn len(&self) -> u32 {
        let (_, per_cell) = BLOCKS[4];
        self.starts()[4] + per_cell * self.cells()
    }

    /// Never empty.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The window cell of `pos`, if inside.
    pub fn cell(&self, pos: Pos) -> Option<u32> {
        window_cell(self.radius, pos)
    }

    /// The index of `action`, if it lies inside the window.
    pub fn encode(&self, action: Action) -> Option<u32> {
        let id = action.to_index()?;
        let Some(block) = BLOCKS.iter().rposition(|&(start, _)| id >= start) else {
            return Some(id);
        };
        let (start, per_cell) = BLOCKS[block];
        let (cell, within) = ((id - start) / per_cell, (id - start) % per_cell);
        let pos = cell_pos(FULL_RADIUS, cell);
        Some(self.starts()[block] + self.cell(pos)? * per_cell + within)
    }

    /// The action of index `index`, if `index` is in range. Whether it is
    /// legal is for the engine to say.
    pub fn decode(&self, index: u32) -> Option<Action> {
        if index >= self.len() {
            return None;
        }
        let starts = self.starts();
        let id = match starts.iter().rposition(|&start| index >= start) {
            None => index,
            Some(block) => {
                let (start, per_cell) = BLOCKS[block];
                let k = index - starts[block];
                let pos = cell_pos(self.radius, k / per_cell);
                start + window_cell(FULL_RADIUS, pos)? * per_cell + k % per_cell
            }
        };
        Action::from_index(id)
    }
}

/// The cell number of `pos` in the window of radius `radius`, if inside.
fn window_cell(radius: u32, pos: Pos) -> Option<u32> {
    let r = radius as i32;
    let (x, y) = (pos.x as i32, pos.y as i32);
    (x.abs() <= r && y.abs() <= r).then(|| ((y + r) * (2 * r + 1) + (x + r)) as u32)
}

/// The position of cell `cell` of the window of radius `radius`.
fn cell_pos(radius: u32, cell: u32) -> Pos {
    let (w, r) = (2 * radius + 1, radius as i32);
    Pos::new(((cell % w) as i32 - r) as i8, ((cell / w) as i32 - r) as i8)
}

/// The number of action indices of window radius `radius`.
#[pyfunction]
#[pyo3(signature = (radius = FULL_RADIUS))]
pub fn action_count(radius: u32) -> u32 {
    ActionSpace::new(radius).len()
}

/// The action of index `id` in the space of window radius `radius` in
/// readable text, or None when `id` is out of range. With `game`, the
/// record notation of that position (``"U (1, 0) r1 NNE"``, as
/// ``str(Action)``); without, the fields the index holds
/// (``"place (1, 0) r1 meeple on segment 2"``, ``"open cash_out (0, 1)
/// segment 0"``, ``"keep V"``), the tile being the position's.
#[pyfunction]
#[pyo3(signature = (id, radius = FULL_RADIUS, game = None))]
pub fn decode_action(
    id: u32,
    radius: u32,
    game: Option<PyRef<'_, crate::game::Game>>,
) -> Option<String> {
    let action = ActionSpace::new(radius).decode(id)?;
    Some(match game {
        Some(game) => game.state().describe(action),
        None => describe(action),
    })
}

/// `action` in words, without a position.
pub fn describe(action: Action) -> String {
    use engine::GiftOpen;
    let at = |p: Pos| format!("({}, {})", p.x, p.y);
    match action {
        Action::Place(mv) => {
            let p = mv.placement;
            let mut text = format!("place {} r{}", at(p.pos), p.rot.quarter_turns());
            if p.slot > 0 {
                text += &format!(" hand slot {}", p.slot);
            }
            if let Some(s) = mv.meeple {
                text += &format!(" meeple on segment {s}");
            }
            text
        }
        Action::Keep(tile) => format!("keep {tile}"),
        Action::Open(open) => {
            let gift = open.gift();
            match open {
                GiftOpen::Synod { at: p } => format!("open {gift} {}", at(p)),
                GiftOpen::RoadSweeper { at: p, segment } | GiftOpen::CashOut { at: p, segment } => {
                    format!("open {gift} {} segment {segment}", at(p))
                }
                GiftOpen::ChangePosition { at: p, from, to } => {
                    format!("open {gift} {} segment {from} -> {to}", at(p))
                }
                GiftOpen::Take2 => format!("open {gift}"),
                GiftOpen::Wasted(_) => format!("open {gift} (no effect)"),
            }
        }
    }
}
