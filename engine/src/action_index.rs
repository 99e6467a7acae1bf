//! A stable integer encoding of actions, for the Python package, the
//! external-bot protocol and learning code (policy vectors): every action
//! of a legal position has one id in `0..ACTION_SPACE`, the same in every
//! position and every version of this crate (the layout is documented on
//! [`ACTION_SPACE`]).

use crate::geom::{Pos, Rotation};
use crate::gifts::{Gift, GiftOpen};
use crate::moves::{Move, Placement};
use crate::tiles::{Tile, MAX_SEGMENTS};
use crate::turn::Action;

/// The largest |x| or |y| of a cell in a 72-tile game.
///
/// # Examples
/// ```
/// use engine::{Action, Move, Pos, Rotation, MAX_COORD};
///
/// let far = Move::place(Pos::new(MAX_COORD + 1, 0), Rotation::default());
/// assert_eq!(Action::Place(far).to_index(), None); // no 72-tile game gets there
/// ```
pub const MAX_COORD: i8 = 71;
const SPAN: u32 = 2 * MAX_COORD as u32 + 1;
const CELLS: u32 = SPAN * SPAN;
const SEGS: u32 = MAX_SEGMENTS as u32;

const WASTED_BASE: u32 = 0;
const TAKE2: u32 = WASTED_BASE + Gift::COUNT as u32;
const KEEP_BASE: u32 = TAKE2 + 1;
/// The first id of a Synod opening.
///
/// # Examples
/// ```
/// use engine::{Action, GiftOpen, Pos, ROAD_SWEEPER_BASE, SYNOD_BASE};
///
/// let id = Action::Open(GiftOpen::Synod { at: Pos::ORIGIN }).to_index().unwrap();
/// assert!((SYNOD_BASE..ROAD_SWEEPER_BASE).contains(&id));
/// ```
pub const SYNOD_BASE: u32 = KEEP_BASE + Tile::COUNT as u32;
/// The first id of a Road Sweeper opening.
///
/// # Examples
/// ```
/// use engine::{Action, GiftOpen, Pos, CASH_OUT_BASE, ROAD_SWEEPER_BASE};
///
/// let sweep = Action::Open(GiftOpen::RoadSweeper { at: Pos::ORIGIN, segment: 1 });
/// assert!((ROAD_SWEEPER_BASE..CASH_OUT_BASE).contains(&sweep.to_index().unwrap()));
/// ```
pub const ROAD_SWEEPER_BASE: u32 = SYNOD_BASE + CELLS;
/// The first id of a Cash Out opening.
///
/// # Examples
/// ```
/// use engine::{Action, GiftOpen, Pos, CASH_OUT_BASE, CHANGE_POSITION_BASE};
///
/// let cash = Action::Open(GiftOpen::CashOut { at: Pos::new(0, 1), segment: 0 });
/// assert!((CASH_OUT_BASE..CHANGE_POSITION_BASE).contains(&cash.to_index().unwrap()));
/// ```
pub const CASH_OUT_BASE: u32 = ROAD_SWEEPER_BASE + CELLS * SEGS;
/// The first id of a Change Position opening.
///
/// # Examples
/// ```
/// use engine::{Action, GiftOpen, Pos, CHANGE_POSITION_BASE, PLACE_BASE};
///
/// let change = GiftOpen::ChangePosition { at: Pos::ORIGIN, from: 0, to: 2 };
/// let id = Action::Open(change).to_index().unwrap();
/// assert!((CHANGE_POSITION_BASE..PLACE_BASE).contains(&id));
/// assert_eq!(Action::from_index(id), Some(Action::Open(change)));
/// ```
pub const CHANGE_POSITION_BASE: u32 = CASH_OUT_BASE + CELLS * SEGS;
/// The first id of a placement.
///
/// # Examples
/// ```
/// use engine::{Action, Move, Pos, Rotation, MAX_COORD, PLACE_BASE};
///
/// // The first placement id: the south-west corner cell, rotation 0, no meeple.
/// let corner = Move::place(Pos::new(-MAX_COORD, -MAX_COORD), Rotation::default());
/// assert_eq!(Action::Place(corner).to_index(), Some(PLACE_BASE));
/// ```
pub const PLACE_BASE: u32 = CHANGE_POSITION_BASE + CELLS * SEGS * SEGS;
/// The ids of the placements of one hand slot.
///
/// # Examples
/// ```
/// use engine::{ACTION_SPACE, MAX_COORD, PLACE_BASE, PLACE_SPAN};
///
/// let cells = (2 * MAX_COORD as u32 + 1).pow(2);
/// assert_eq!(PLACE_SPAN, cells * 4 * 9); // cell × rotation × (no meeple or segment 0–7)
/// assert_eq!(PLACE_BASE + PLACE_SPAN, ACTION_SPACE); // the base game's one hand slot
/// ```
pub const PLACE_SPAN: u32 = CELLS * 4 * (SEGS + 1);
/// The number of action ids of the base game (with The Gifts): every id
/// [`Action::to_index`] returns is below it.
///
/// The ids, in order (a *cell* is `(y + 71) * 143 + (x + 71)` for
/// `-71 <= x, y <= 71`, every cell a 72-tile game can reach; segments are
/// segment indices 0–7 of the tile at that cell):
///
/// | ids from              | action                          | id within the block             |
/// |-----------------------|---------------------------------|---------------------------------|
/// | 0                     | open a gift without effect      | gift index (0–4)                |
/// | 5                     | open Take 2                     | 0                               |
/// | 6                     | keep a tile (Take 2)            | tile index (0–23)               |
/// | [`SYNOD_BASE`]        | open Synod                      | cell                            |
/// | [`ROAD_SWEEPER_BASE`] | open Road Sweeper               | cell × 8 + segment              |
/// | [`CASH_OUT_BASE`]     | open Cash Out                   | cell × 8 + segment              |
/// | [`CHANGE_POSITION_BASE`] | open Change Position         | (cell × 8 + from) × 8 + to      |
/// | [`PLACE_BASE`]        | place the tile                  | slot × [`PLACE_SPAN`] + (cell × 4 + rotation) × 9 + meeple |
///
/// where *meeple* is 0 for none and segment + 1 otherwise, and *slot* is
/// the hand slot of the tile placed ([`Placement::slot`]): the base game
/// always uses slot 0, so [`ACTION_SPACE`] ends after it; the `hand`
/// variant (`RULES.md` §8) adds slots 1–2 after it, up to
/// [`HAND_ACTION_SPACE`], without renumbering any id of the base game.
///
/// # Examples
/// ```
/// use engine::{Action, Chance, Rules, Seat, State, Tile, ACTION_SPACE};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
/// for action in state.legal_actions() {
///     let id = action.to_index().unwrap();
///     assert!(id < ACTION_SPACE);
///     assert_eq!(Action::from_index(id), Some(action));
/// }
/// ```
pub const ACTION_SPACE: u32 = PLACE_BASE + PLACE_SPAN;

/// The number of action ids with a hand of up to three tiles
/// ([`crate::MAX_HAND`]): hand slots 1 and 2 follow [`ACTION_SPACE`].
pub const HAND_ACTION_SPACE: u32 = PLACE_BASE + crate::hand::MAX_HAND as u32 * PLACE_SPAN;

fn cell(pos: Pos) -> Option<u32> {
    let ok = |c: i8| (-MAX_COORD..=MAX_COORD).contains(&c);
    (ok(pos.x) && ok(pos.y)).then(|| {
        (pos.y as i32 + MAX_COORD as i32) as u32 * SPAN + (pos.x as i32 + MAX_COORD as i32) as u32
    })
}

fn pos(cell: u32) -> Pos {
    let c = |v: u32| (v as i32 - MAX_COORD as i32) as i8;
    Pos::new(c(cell % SPAN), c(cell / SPAN))
}

fn seg(s: u8) -> Option<u32> {
    ((s as u32) < SEGS).then_some(s as u32)
}

impl Action {
    /// This action's id in `0..ACTION_SPACE`, or with a hand in
    /// `0..HAND_ACTION_SPACE` (the layout is documented on
    /// [`ACTION_SPACE`]). Every
    /// action of a legal position has one; `None` for an action no
    /// position can have (a cell beyond ±[`MAX_COORD`], a segment index
    /// of 8 or more, or a hand slot of 3 or more).
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
        Some(match self {
            Action::Open(GiftOpen::Wasted(g)) => WASTED_BASE + g.index() as u32,
            Action::Open(GiftOpen::Take2) => TAKE2,
            Action::Keep(t) => KEEP_BASE + t.index() as u32,
            Action::Open(GiftOpen::Synod { at }) => SYNOD_BASE + cell(at)?,
            Action::Open(GiftOpen::RoadSweeper { at, segment }) => {
                ROAD_SWEEPER_BASE + cell(at)? * SEGS + seg(segment)?
            }
            Action::Open(GiftOpen::CashOut { at, segment }) => {
                CASH_OUT_BASE + cell(at)? * SEGS + seg(segment)?
            }
            Action::Open(GiftOpen::ChangePosition { at, from, to }) => {
                CHANGE_POSITION_BASE + (cell(at)? * SEGS + seg(from)?) * SEGS + seg(to)?
            }
            Action::Place(Move {
                placement: Placement { pos, rot, slot },
                meeple,
            }) => {
                let m = match meeple {
                    None => 0,
                    Some(s) => seg(s)? + 1,
                };
                if slot as usize >= crate::hand::MAX_HAND {
                    return None;
                }
                PLACE_BASE
                    + slot as u32 * PLACE_SPAN
                    + (cell(pos)? * 4 + rot.quarter_turns() as u32) * (SEGS + 1)
                    + m
            }
        })
    }

    /// The action with id `index` (the inverse of [`Action::to_index`]);
    /// `None` for an id at or past [`HAND_ACTION_SPACE`].
    ///
    /// # Examples
    /// ```
    /// use engine::{Action, GiftOpen, ACTION_SPACE};
    ///
    /// assert_eq!(Action::from_index(5), Some(Action::Open(GiftOpen::Take2)));
    /// assert!(Action::from_index(ACTION_SPACE).is_some()); // hand slot 1
    /// assert_eq!(Action::from_index(engine::HAND_ACTION_SPACE), None);
    /// ```
    #[allow(clippy::missing_panics_doc)] // its `expect` is on a value taken modulo 4
    pub fn from_index(index: u32) -> Option<Action> {
        let i = index;
        Some(if i < TAKE2 {
            Action::Open(GiftOpen::Wasted(Gift::ALL[i as usize]))
        } else if i == TAKE2 {
            Action::Open(GiftOpen::Take2)
        } else if i < SYNOD_BASE {
            Action::Keep(Tile::from_index((i - KEEP_BASE) as usize))
        } else if i < ROAD_SWEEPER_BASE {
            Action::Open(GiftOpen::Synod {
                at: pos(i - SYNOD_BASE),
            })
        } else if i < CASH_OUT_BASE {
            let k = i - ROAD_SWEEPER_BASE;
            Action::Open(GiftOpen::RoadSweeper {
                at: pos(k / SEGS),
                segment: (k % SEGS) as u8,
            })
        } else if i < CHANGE_POSITION_BASE {
            let k = i - CASH_OUT_BASE;
            Action::Open(GiftOpen::CashOut {
                at: pos(k / SEGS),
                segment: (k % SEGS) as u8,
            })
        } else if i < PLACE_BASE {
            let k = i - CHANGE_POSITION_BASE;
            Action::Open(GiftOpen::ChangePosition {
                at: pos(k / (SEGS * SEGS)),
                from: (k / SEGS % SEGS) as u8,
                to: (k % SEGS) as u8,
            })
        } else if i < HAND_ACTION_SPACE {
            let slot = ((i - PLACE_BASE) / PLACE_SPAN) as u8;
            let k = (i - PLACE_BASE) % PLACE_SPAN;
            let m = k % (SEGS + 1);
            let k = k / (SEGS + 1);
            let rot = Rotation::new((k % 4) as u8).expect("0-3");
            let mv = Move::place(pos(k / 4), rot).from_slot(slot);
            Action::Place(if m == 0 {
                mv
            } else {
                mv.with_meeple(m as u8 - 1)
            })
        } else {
            return None;
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_decodes_to_an_action_that_encodes_back_to_it() {
        // Every id of the small blocks, and a stride through the large ones.
        let ids = (0..SYNOD_BASE + 100).chain((SYNOD_BASE..HAND_ACTION_SPACE).step_by(997));
        for id in ids.chain([ACTION_SPACE - 1, HAND_ACTION_SPACE - 1]) {
            let a = Action::from_index(id).expect("an id below ACTION_SPACE");
            assert_eq!(a.to_index(), Some(id), "{a:?}");
        }
    }

    #[test]
    fn the_base_game_layout_is_stable() {
        // Changing any of these renumbers saved data: don't.
        assert_eq!(SYNOD_BASE, 30);
        assert_eq!(PLACE_BASE, 30 + 20_449 * 81);
        assert_eq!(ACTION_SPACE, 2_392_563);
        assert_eq!(HAND_ACTION_SPACE, ACTION_SPACE + 2 * PLACE_SPAN);
    }

    #[test]
    fn hand_slots_follow_the_base_game_ids() {
        let mv = Move::place(Pos::new(-3, 4), Rotation::new(2).unwrap()).with_meeple(1);
        let base = Action::Place(mv).to_index().unwrap();
        for slot in 0..3u8 {
            let a = Action::Place(mv.from_slot(slot));
            let id = a.to_index().unwrap();
            assert_eq!(id, base + slot as u32 * PLACE_SPAN);
            assert_eq!(Action::from_index(id), Some(a));
        }
        assert!(base < ACTION_SPACE);
        assert_eq!(Action::Place(mv.from_slot(3)).to_index(), None);
        assert_eq!(Action::from_index(HAND_ACTION_SPACE), None);
        let last = Action::from_index(HAND_ACTION_SPACE - 1).unwrap();
        assert_eq!(last.to_index(), Some(HAND_ACTION_SPACE - 1));
    }

    #[test]
    fn unencodable_actions_have_no_id() {
        let far = Move::place(Pos::new(72, 0), Rotation::default());
        assert_eq!(Action::Place(far).to_index(), None);
        let bad = Move::place(Pos::ORIGIN, Rotation::default()).with_meeple(8);
        assert_eq!(Action::Place(bad).to_index(), None);
    }
}
