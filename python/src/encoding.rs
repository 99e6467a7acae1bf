//! A fixed-size integer encoding of actions over a square window of cells
//! around the start tile, for learning (masks, policy heads).
//!
//! With `radius` R the window holds the cells with |x|, |y| ≤ R, numbered
//! `cell = (y + R) * (2R + 1) + (x + R)`; C = (2R + 1)² cells. Segments
//! are segment indices of the tile at the cell (0–7, as in the engine's
//! moves). The ranges, in order:
//!
//! | range | size | action |
//! |---|---|---|
//! | place | 36·C | `cell*36 + rot*9 + m`: m = 0 no meeple, 1 + segment |
//! | synod | C | `cell` |
//! | road sweeper | 8·C | `cell*8 + segment` |
//! | cash out | 8·C | `cell*8 + segment` |
//! | change position | 64·C | `cell*64 + from*8 + to` |
//! | take 2 | 1 | |
//! | wasted | 5 | gift index (card opened without effect) |
//! | keep | 24 | tile index (Take 2's choice) |
//!
//! An action outside the window has no index in it. With
//! [`FULL_RADIUS`] every cell a game can reach is inside, so that space
//! gives every action of every game an index.
// TODO(issue 9): the `id` of an action switches to the engine's stable
// encoding once it lands on main; the windowed space stays for learning.

use engine::{Action, Gift, GiftOpen, Move, Placement, Pos, Rotation, Tile};
use pyo3::prelude::*;

/// A radius that holds every reachable cell (72 tiles in a line).
pub const FULL_RADIUS: u32 = 71;

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

    fn starts(&self) -> [u32; 8] {
        let c = self.cells();
        let mut starts = [0; 8];
        let sizes = [PLACE * c, c, SEGMENTS * c, SEGMENTS * c, 64 * c, 1, 5, 24];
        let mut at = 0;
        for (s, size) in starts.iter_mut().zip(sizes) {
            *s = at;
            at += size;
        }
        starts
    }

    /// Number of indices.
    pub fn len(&self) -> u32 {
        self.starts()[7] + Tile::COUNT as u32
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
        let seg = |k: u8| (k as u32) < SEGMENTS;
        Some(match action {
            Action::Place(Move { placement, meeple }) => {
                let cell = self.cell(placement.pos)?;
                let m = match meeple {
                    None => 0,
                    Some(k) if seg(k) => 1 + k as u32,
                    Some(_) => return None,
                };
                s[0] + cell * PLACE + placement.rot.quarter_turns() as u32 * 9 + m
            }
            Action::Open(open) => match open {
                GiftOpen::Synod { at } => s[1] + self.cell(at)?,
                GiftOpen::RoadSweeper { at, segment } if seg(segment) => {
                    s[2] + self.cell(at)? * SEGMENTS + segment as u32
                }
                GiftOpen::CashOut { at, segment } if seg(segment) => {
                    s[3] + self.cell(at)? * SEGMENTS + segment as u32
                }
                GiftOpen::ChangePosition { at, from, to } if seg(from) && seg(to) => {
                    s[4] + self.cell(at)? * 64 + from as u32 * 8 + to as u32
                }
                GiftOpen::Take2 => s[5],
                GiftOpen::Wasted(g) => s[6] + g.index() as u32,
                _ => return None,
            },
            Action::Keep(t) => s[7] + t.index() as u32,
        })
    }

    /// The action of index `id`, if `id` is in range. Whether it is legal
    /// is for the engine to say.
    pub fn decode(&self, id: u32) -> Option<Action> {
        let s = self.starts();
        if id >= self.len() {
            return None;
        }
        let range = s.iter().rposition(|&start| id >= start)?;
        let k = id - s[range];
        let seg = |v: u32| v as u8;
        Some(match range {
            0 => {
                let (cell, rest) = (k / PLACE, k % PLACE);
                let placement = Placement {
                    pos: self.pos(cell),
                    rot: Rotation::new((rest / 9) as u8)?,
                };
                let meeple = (rest % 9).checked_sub(1).map(seg);
                Action::Place(Move { placement, meeple })
            }
            1 => Action::Open(GiftOpen::Synod { at: self.pos(k) }),
            2 => Action::Open(GiftOpen::RoadSweeper {
                at: self.pos(k / SEGMENTS),
                segment: seg(k % SEGMENTS),
            }),
            3 => Action::Open(GiftOpen::CashOut {
                at: self.pos(k / SEGMENTS),
                segment: seg(k % SEGMENTS),
            }),
            4 => Action::Open(GiftOpen::ChangePosition {
                at: self.pos(k / 64),
                from: seg(k % 64 / 8),
                to: seg(k % 8),
            }),
            5 => Action::Open(GiftOpen::Take2),
            6 => Action::Open(GiftOpen::Wasted(Gift::ALL[k as usize])),
            _ => Action::Keep(Tile::from_index(k as usize)),
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
