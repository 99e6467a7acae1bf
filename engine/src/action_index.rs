//! A stable integer encoding of actions (ids), for the Python package,
//! protocols and learning code: every action of a legal position has one
//! id below [`ACTION_SPACE`], the same in every position. (Written for the
//! Python package while issue 9's encoding, with the same layout and
//! names, was not yet on main: one of the two is to be kept.)
//!
//! A *cell* is `(y + 71) * 143 + (x + 71)` for `-71 <= x, y <= 71` (every
//! cell a 72-tile game can reach, C = 143² cells); a *segment* is a segment
//! index 0–7 of the tile at that cell. The blocks, in order:
//!
//! | block | size | id within the block |
//! |---|---|---|
//! | open a gift without effect | 5 | gift index |
//! | open Take 2 | 1 | 0 |
//! | keep a tile (Take 2) | 24 | tile index |
//! | open Synod | C | cell |
//! | open Road Sweeper | 8·C | cell·8 + segment |
//! | open Cash Out | 8·C | cell·8 + segment |
//! | open Change Position | 64·C | (cell·8 + from)·8 + to |
//! | place the tile | 36·C | (cell·4 + rotation)·9 + m, m = 0 for no meeple, 1 + segment |

use crate::geom::{Pos, Rotation};
use crate::gifts::{Gift, GiftOpen};
use crate::moves::{Move, Placement};
use crate::state::Action;
use crate::tiles::{Tile, MAX_SEGMENTS};

/// The largest |x| or |y| of a cell a game can reach.
pub const MAX_COORD: i8 = 71;

const WIDTH: u32 = 2 * MAX_COORD as u32 + 1;
const CELLS: u32 = WIDTH * WIDTH;
const SEGMENTS: u32 = MAX_SEGMENTS as u32;

/// The first id of each block, and the end.
const STARTS: [u32; 9] = {
    let sizes = [
        Gift::COUNT as u32,
        1,
        Tile::COUNT as u32,
        CELLS,
        SEGMENTS * CELLS,
        SEGMENTS * CELLS,
        SEGMENTS * SEGMENTS * CELLS,
        4 * (1 + SEGMENTS) * CELLS,
    ];
    let mut starts = [0; 9];
    let mut i = 0;
    while i < sizes.len() {
        starts[i + 1] = starts[i] + sizes[i];
        i += 1;
    }
    starts
};

/// The number of action ids: every id is below it.
pub const ACTION_SPACE: u32 = STARTS[8];

fn cell(pos: Pos) -> Option<u32> {
    let m = MAX_COORD as i32;
    let (x, y) = (pos.x as i32, pos.y as i32);
    (x.abs() <= m && y.abs() <= m).then(|| ((y + m) as u32) * WIDTH + (x + m) as u32)
}

fn pos(cell: u32) -> Pos {
    let m = MAX_COORD as i32;
    Pos::new(
        ((cell % WIDTH) as i32 - m) as i8,
        ((cell / WIDTH) as i32 - m) as i8,
    )
}

fn segment(s: u8) -> Option<u32> {
    ((s as u32) < SEGMENTS).then_some(s as u32)
}

impl Action {
    /// This action's id (see the module documentation); `None` for an
    /// action no position can have (a cell beyond ±[`MAX_COORD`] or a
    /// segment index of 8 or more).
    ///
    /// # Examples
    /// ```
    /// use engine::{Action, Move, Pos, Rotation, Tile, ACTION_SPACE};
    ///
    /// let a = Action::Place(Move::place(Pos::new(1, 0), Rotation::new(1).unwrap()));
    /// let id = a.to_index().unwrap();
    /// assert!(id < ACTION_SPACE);
    /// assert_eq!(Action::from_index(id), Some(a));
    /// assert_eq!(Action::Keep(Tile::A).to_index(), Some(6));
    /// ```
    pub fn to_index(self) -> Option<u32> {
        let s = &STARTS;
        Some(match self {
            Action::Open(GiftOpen::Wasted(g)) => s[0] + g.index() as u32,
            Action::Open(GiftOpen::Take2) => s[1],
            Action::Keep(t) => s[2] + t.index() as u32,
            Action::Open(GiftOpen::Synod { at }) => s[3] + cell(at)?,
            Action::Open(GiftOpen::RoadSweeper { at, segment: k }) => {
                s[4] + cell(at)? * SEGMENTS + segment(k)?
            }
            Action::Open(GiftOpen::CashOut { at, segment: k }) => {
                s[5] + cell(at)? * SEGMENTS + segment(k)?
            }
            Action::Open(GiftOpen::ChangePosition { at, from, to }) => {
                s[6] + (cell(at)? * SEGMENTS + segment(from)?) * SEGMENTS + segment(to)?
            }
            Action::Place(Move { placement, meeple }) => {
                let m = match meeple {
                    None => 0,
                    Some(k) => 1 + segment(k)?,
                };
                let cell_rot = cell(placement.pos)? * 4 + placement.rot.quarter_turns() as u32;
                s[7] + cell_rot * (1 + SEGMENTS) + m
            }
        })
    }

    /// The action of id `index` (the inverse of [`Action::to_index`]);
    /// `None` at or past [`ACTION_SPACE`]. Whether it is legal is for the
    /// position to say.
    ///
    /// # Examples
    /// ```
    /// use engine::{Action, GiftOpen, ACTION_SPACE};
    ///
    /// assert_eq!(Action::from_index(5), Some(Action::Open(GiftOpen::Take2)));
    /// assert_eq!(Action::from_index(ACTION_SPACE), None);
    /// ```
    pub fn from_index(index: u32) -> Option<Action> {
        if index >= ACTION_SPACE {
            return None;
        }
        let block = STARTS.iter().rposition(|&start| index >= start)?;
        let k = index - STARTS[block];
        let seg = |v: u32| (v % SEGMENTS) as u8;
        Some(match block {
            0 => Action::Open(GiftOpen::Wasted(Gift::ALL[k as usize])),
            1 => Action::Open(GiftOpen::Take2),
            2 => Action::Keep(Tile::from_index(k as usize)),
            3 => Action::Open(GiftOpen::Synod { at: pos(k) }),
            4 => Action::Open(GiftOpen::RoadSweeper {
                at: pos(k / SEGMENTS),
                segment: seg(k),
            }),
            5 => Action::Open(GiftOpen::CashOut {
                at: pos(k / SEGMENTS),
                segment: seg(k),
            }),
            6 => Action::Open(GiftOpen::ChangePosition {
                at: pos(k / (SEGMENTS * SEGMENTS)),
                from: seg(k / SEGMENTS),
                to: seg(k),
            }),
            _ => {
                let (cell_rot, m) = (k / (1 + SEGMENTS), k % (1 + SEGMENTS));
                Action::Place(Move {
                    placement: Placement {
                        pos: pos(cell_rot / 4),
                        rot: Rotation::new((cell_rot % 4) as u8)?,
                    },
                    meeple: m.checked_sub(1).map(|v| v as u8),
                })
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Rules, Seat, State};
    use rand::SeedableRng;

    #[test]
    fn every_legal_action_of_random_gift_games_has_a_distinct_id_that_decodes_to_it() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        for players in [2, 4] {
            let rules = Rules {
                farmers: true,
                gifts: true,
            };
            let mut state = State::new(rules, players, Seat(0));
            while !state.is_over() {
                if state.is_chance() {
                    state.apply_chance(&mut rng);
                    continue;
                }
                let mut ids = Vec::new();
                state.for_each_action(|a| {
                    let id = a.to_index().expect("a legal action has an id");
                    assert!(id < ACTION_SPACE);
                    assert_eq!(Action::from_index(id), Some(a));
                    ids.push(id);
                });
                let n = ids.len();
                ids.sort_unstable();
                ids.dedup();
                assert_eq!(ids.len(), n, "distinct ids");
                let action = crate::playout::random_action(&state, &mut rng).unwrap();
                state.try_action(action).unwrap();
            }
        }
    }

    #[test]
    fn ids_out_of_range_and_impossible_actions_have_no_counterpart() {
        assert_eq!(Action::from_index(ACTION_SPACE), None);
        let far = Action::Open(GiftOpen::Synod {
            at: Pos::new(MAX_COORD + 1, 0),
        });
        assert_eq!(far.to_index(), None);
        let bad_segment = Action::Open(GiftOpen::CashOut {
            at: Pos::new(0, 0),
            segment: 8,
        });
        assert_eq!(bad_segment.to_index(), None);
        let last = Action::from_index(ACTION_SPACE - 1).and_then(Action::to_index);
        assert_eq!(last, Some(ACTION_SPACE - 1));
    }
}
