//! A fixed-size integer encoding of actions over a square window of cells
//! around the start tile, for learning (masks, policy heads).
//!
//! With `radius` R the window holds the cells with |x|, |y| ≤ R, numbered
//! `cell = (y + R) * (2R + 1) + (x + R)`; C = (2R + 1)² cells. Segments
//! are segment indices of the tile at the cell (0–7, as in the engine's
//! moves). The blocks, in order:
//!
//! | block | size | index within the block |
//! |---|---|---|
//! | open a gift without effect | 5 | gift index |
//! | open Take 2 | 1 | 0 |
//! | keep a tile (Take 2) | 24 | tile index |
//! | open Synod | C | `cell` |
//! | open Road Sweeper | 8·C | `cell*8 + segment` |
//! | open Cash Out | 8·C | `cell*8 + segment` |
//! | open Change Position | 64·C | `(cell*8 + from)*8 + to` |
//! | place the tile | 36·C | `(cell*4 + rotation)*9 + m`: m = 0 no meeple, 1 + segment |
//!
//! This is the layout of the engine's stable action ids
//! ([`engine::Action::to_index`]) restricted to a window: with
//! [`FULL_RADIUS`] (every cell a game can reach) an index is the action's
//! id (the Python tests check it on every legal action of whole games). An action outside the window has no index in it.

use engine::{Action, Gift, GiftOpen, Move, Placement, Pos, Rotation, Tile};
use pyo3::prelude::*;

/// A radius that holds every reachable cell (72 tiles in a line): the
/// window of the engine's action ids.
pub const FULL_RADIUS: u32 = engine::MAX_COORD as u32;

const SEGMENTS: u32 = 8;
const PLACE: u32 = 4 * (1 + SEGMENTS);

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

    /// The radius.
    pub fn radius(&self) -> u32 {
        self.radius
    }

    /// Cells on a side of the window.
    pub fn width(&self) -> u32 {
        2 * self.radius + 1
    }

    /// Cells in the window.
    pub fn cells(&self) -> u32 {
        self.width() * self.width()
    }

    /// The first index of each block (see the module documentation).
    fn starts(&self) -> [u32; 8] {
        let c = self.cells();
        let sizes = [
            Gift::COUNT as u32,
            1,
            Tile::COUNT as u32,
            c,
            SEGMENTS * c,
            SEGMENTS * c,
            SEGMENTS * SEGMENTS * c,
            PLACE * c,
        ];
        let mut starts = [0; 8];
        let mut at = 0;
        for (s, size) in starts.iter_mut().zip(sizes) {
            *s = at;
            at += size;
        }
        starts
    }

    /// Number of indices.
    pub fn len(&self) -> u32 {
        self.starts()[7] + PLACE * self.cells()
    }

    /// Never empty.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The window cell of `pos`, if inside.
    pub fn cell(&self, pos: Pos) -> Option<u32> {
        let r = self.radius as i32;
        let (x, y) = (pos.x as i32, pos.y as i32);
        if x.abs() > r || y.abs() > r {
            return None;
        }
        Some(((y + r) * (2 * r + 1) + (x + r)) as u32)
    }

    /// The position of window cell `cell`.
    pub fn pos(&self, cell: u32) -> Pos {
        let w = self.width();
        let r = self.radius as i32;
        Pos::new(((cell % w) as i32 - r) as i8, ((cell / w) as i32 - r) as i8)
    }

    /// The index of `action`, if it lies inside the window.
    pub fn encode(&self, action: Action) -> Option<u32> {
        let s = self.starts();
        let seg = |k: u8| ((k as u32) < SEGMENTS).then_some(k as u32);
        Some(match action {
            Action::Open(GiftOpen::Wasted(g)) => s[0] + g.index() as u32,
            Action::Open(GiftOpen::Take2) => s[1],
            Action::Keep(t) => s[2] + t.index() as u32,
            Action::Open(GiftOpen::Synod { at }) => s[3] + self.cell(at)?,
            Action::Open(GiftOpen::RoadSweeper { at, segment }) => {
                s[4] + self.cell(at)? * SEGMENTS + seg(segment)?
            }
            Action::Open(GiftOpen::CashOut { at, segment }) => {
                s[5] + self.cell(at)? * SEGMENTS + seg(segment)?
            }
            Action::Open(GiftOpen::ChangePosition { at, from, to }) => {
                s[6] + (self.cell(at)? * SEGMENTS + seg(from)?) * SEGMENTS + seg(to)?
            }
            Action::Place(Move { placement, meeple }) => {
                let m = match meeple {
                    None => 0,
                    Some(k) => 1 + seg(k)?,
                };
                let cell_rot = self.cell(placement.pos)? * 4 + placement.rot.quarter_turns() as u32;
                s[7] + cell_rot * (1 + SEGMENTS) + m
            }
        })
    }

    /// The action of index `id`, if `id` is in range. Whether it is legal
    /// is for the engine to say.
    pub fn decode(&self, id: u32) -> Option<Action> {
        if id >= self.len() {
            return None;
        }
        let s = self.starts();
        let block = s.iter().rposition(|&start| id >= start)?;
        let k = id - s[block];
        let seg = |v: u32| (v % SEGMENTS) as u8;
        Some(match block {
            0 => Action::Open(GiftOpen::Wasted(Gift::ALL[k as usize])),
            1 => Action::Open(GiftOpen::Take2),
            2 => Action::Keep(Tile::from_index(k as usize)),
            3 => Action::Open(GiftOpen::Synod { at: self.pos(k) }),
            4 => Action::Open(GiftOpen::RoadSweeper {
                at: self.pos(k / SEGMENTS),
                segment: seg(k),
            }),
            5 => Action::Open(GiftOpen::CashOut {
                at: self.pos(k / SEGMENTS),
                segment: seg(k),
            }),
            6 => Action::Open(GiftOpen::ChangePosition {
                at: self.pos(k / (SEGMENTS * SEGMENTS)),
                from: seg(k / SEGMENTS),
                to: seg(k),
            }),
            _ => {
                let (cell_rot, m) = (k / (1 + SEGMENTS), k % (1 + SEGMENTS));
                let placement = Placement {
                    pos: self.pos(cell_rot / 4),
                    rot: Rotation::new((cell_rot % 4) as u8)?,
                };
                let meeple = m.checked_sub(1).map(|v| v as u8);
                Action::Place(Move { placement, meeple })
            }
        })
    }
}

/// The number of action indices of window radius `radius`.
#[pyfunction]
#[pyo3(signature = (radius = FULL_RADIUS))]
pub fn action_count(radius: u32) -> u32 {
    ActionSpace::new(radius).len()
}

/// The action of index `id` in the space of window radius `radius`, as a
/// record-style description (e.g. ``"place (1, 0) r1 segment 2"``), or
/// None when `id` is out of range. Mostly for debugging: use
/// ``Game.legal_actions()`` to get legal actions with their notation.
#[pyfunction]
#[pyo3(signature = (id, radius = FULL_RADIUS))]
pub fn decode_action(id: u32, radius: u32) -> Option<String> {
    ActionSpace::new(radius)
        .decode(id)
        .map(|a| format!("{a:?}"))
}
