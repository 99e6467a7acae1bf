//! The grid of placed tiles and the frontier of open cells.
//!
//! The grid is one byte per cell on a ring of 2,813 cells read row-major
//! (`Pos::cell`): the plane folded so that only positions at least 75 steps
//! apart share a byte. The tiles of one game and their eight neighbours are
//! at most 73 steps apart, so they never share a byte; a position asked
//! about from outside (a record, an agent) may fold onto one of them, so
//! every lookup also compares the position stored for the tile or open
//! cell found there. The frontier lists the
//! empty cells next to a placed tile, each with the [`Demand`] its
//! neighbours make, so listing the placements of a tile is one table lookup
//! per open cell.
//!
//! With a table (RULES.md §8 `table`) cells off the table never join the
//! frontier, so every placement listed lies on the table; with
//! `table_closes` a cell off the table counts as a surrounding tile in
//! [`Placed::surrounded`] (a monastery on the border is completed by it).
//!
//! This file holds the board and its lookups; `board/fits.rs` lists and
//! counts where a tile fits, `board/place.rs` puts a tile down.

use crate::features::MAX_TILES;
use crate::geom::{Pos, Rotation, Side};
use crate::tiles::{fit_counts_for, Demand, Tile};

mod fits;
mod place;
pub(crate) use place::{Touched, NO_SLOT};

/// Grid byte of an empty cell with no placed neighbour. Bytes
/// `1..=MAX_TILES` hold a placed tile's slot plus one, bytes from
/// `OPEN_BASE` an open cell's index in the frontier plus `OPEN_BASE`.
const EMPTY: u8 = 0;
/// Grid byte of the first open cell of the frontier.
const OPEN_BASE: u8 = MAX_TILES as u8 + 1;
const MAX_TILES_U8: u8 = MAX_TILES as u8;
/// Cells of the grid.
const CELLS: usize = Pos::CELLS;
// Positions within reach of one game's tiles (a path through every tile and
// a step out at each end: at most MAX_TILES + 1 steps) never share a cell.
const _: () = {
    let reach = MAX_TILES as i32 + 1;
    let mut dx = -reach;
    while dx <= reach {
        let dy_max = reach - if dx < 0 { -dx } else { dx };
        let mut dy = -dy_max;
        while dy <= dy_max {
            if dx != 0 || dy != 0 {
                assert!(Pos::new(dx as i8, dy as i8).cell() != Pos::ORIGIN.cell());
            }
            dy += 1;
        }
        dx += 1;
    }
};

/// Most open cells: a polyomino of n cells has at most 2n + 2 empty
/// edge-neighbours, 146 for 72 tiles.
pub(crate) const MAX_FRONTIER: usize = 2 * MAX_TILES + 2;

/// A tile on the board.
///
/// # Examples
/// ```
/// use engine::{Pos, Rotation, Rules, Seat, State, Tile};
///
/// let state = State::new(Rules::default(), 2, Seat(0));
/// let start = state.board().placed(0);
/// assert_eq!((start.tile, start.rot, start.pos), (Tile::START, Rotation::default(), Pos::ORIGIN));
/// assert_eq!(start.surrounded, 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placed {
    /// Its kind.
    pub tile: Tile,
    /// Its rotation.
    pub rot: Rotation,
    /// Its cell.
    pub pos: Pos,
    /// How many of its eight surrounding cells hold a tile (or, with
    /// `table_closes`, lie off the table).
    pub surrounded: u8,
}

/// Placed tiles, grid and frontier.
///
/// # Examples
/// ```
/// use engine::{Pos, Rules, Seat, State, Tile};
///
/// let state = State::new(Rules::default(), 2, Seat(0));
/// let board = state.board();
/// assert_eq!(board.len(), 1);
/// assert_eq!(board.at(Pos::ORIGIN).unwrap().tile, Tile::START);
/// assert!(board.is_open(Pos::new(1, 0)));
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// `EMPTY`, the slot of the tile there plus one, or the frontier
    /// index plus `OPEN_BASE`.
    grid: [u8; CELLS],
    placed: [Placed; MAX_TILES],
    len: u8,
    frontier: [Pos; MAX_FRONTIER],
    demand: [Demand; MAX_FRONTIER],
    frontier_len: u8,
    /// Per tile kind (by index), the (cell, rotation) pairs where it fits:
    /// its fit counts summed over the open cells' demands, kept up to date
    /// as the frontier changes (so counting a drawn tile's placements
    /// scans nothing).
    fits: [u16; Tile::COUNT],
}

/// The play area of RULES.md §8 `table`, as [`Board::place`] needs it: the
/// state keeps it in its packed rules, so the board costs no bytes more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bounds {
    /// Half the width and height (`u8::MAX`: no table).
    half: [u8; 2],
    /// Cells off the table count as surrounding tiles (`table_closes`).
    pub closes: bool,
}

impl Bounds {
    /// No table: every cell is on it.
    pub(crate) const UNBOUNDED: Bounds = Bounds {
        half: [u8::MAX; 2],
        closes: false,
    };

    /// A `width` x `height` table (odd sizes; 0 means no table).
    #[inline]
    pub(crate) fn table(width: u8, height: u8, closes: bool) -> Bounds {
        if width == 0 {
            return Bounds::UNBOUNDED;
        }
        Bounds {
            half: [width / 2, height / 2],
            closes,
        }
    }

    /// `pos` lies on the table.
    #[inline]
    pub(crate) fn contains(self, pos: Pos) -> bool {
        pos.x.unsigned_abs() <= self.half[0] && pos.y.unsigned_abs() <= self.half[1]
    }
}

/// The eight cells around a tile, clockwise from north: even indices are
/// the edge neighbours N, E, S, W.
pub(crate) const AROUND: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// [`AROUND`] as cell-index offsets (modulo the grid, [`Pos::cell_offset`]):
/// no per-cell wrapping or bounds arithmetic when placing.
const AROUND_OFFSET: [u16; 8] = {
    let mut offsets = [0; 8];
    let mut k = 0;
    while k < 8 {
        offsets[k] = Pos::cell_offset(AROUND[k].0, AROUND[k].1);
        k += 1;
    }
    offsets
};

impl Board {
    /// An empty board (no start tile yet).
    pub(crate) const fn new() -> Board {
        Board {
            grid: [EMPTY; CELLS],
            placed: [Placed {
                tile: Tile::START,
                rot: Rotation::ALL[0],
                pos: Pos::ORIGIN,
                surrounded: 0,
            }; MAX_TILES],
            len: 0,
            frontier: [Pos::ORIGIN; MAX_FRONTIER],
            demand: [0; MAX_FRONTIER],
            frontier_len: 0,
            fits: [0; Tile::COUNT],
        }
    }

    /// Tiles placed so far, in placement order (slot order).
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Pos, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// state.try_action(state.parse_action("U (1, 0) r1").unwrap()).unwrap();
    /// let cells: Vec<Pos> = state.board().tiles().iter().map(|p| p.pos).collect();
    /// assert_eq!(cells, [Pos::ORIGIN, Pos::new(1, 0)]);
    /// ```
    #[inline]
    pub fn tiles(&self) -> &[Placed] {
        &self.placed[..self.len as usize]
    }

    /// Number of tiles placed.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State};
    ///
    /// assert_eq!(State::new(Rules::default(), 2, Seat(0)).board().len(), 1);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// No tile placed yet.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State};
    ///
    /// assert!(!State::new(Rules::default(), 2, Seat(0)).board().is_empty()); // the start tile
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The slot of the tile at `pos`, if any.
    ///
    /// # Examples
    /// ```
    /// use engine::{Pos, Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.board().slot_at(Pos::ORIGIN), Some(0));
    /// assert_eq!(state.board().slot_at(Pos::new(80, 0)), None); // not folded onto the origin
    /// ```
    #[inline]
    pub fn slot_at(&self, pos: Pos) -> Option<usize> {
        match self.grid[pos.cell() as usize] {
            // The grid folds far cells onto near ones: check the cell.
            s @ 1..=MAX_TILES_U8 if self.placed[s as usize - 1].pos == pos => Some(s as usize - 1),
            _ => None,
        }
    }

    /// The tile at `pos`, if any.
    ///
    /// # Examples
    /// ```
    /// use engine::{Pos, Rules, Seat, State, Tile};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.board().at(Pos::ORIGIN).map(|p| p.tile), Some(Tile::START));
    /// assert!(state.board().at(Pos::new(0, 1)).is_none());
    /// ```
    #[inline]
    pub fn at(&self, pos: Pos) -> Option<&Placed> {
        self.slot_at(pos).map(|s| &self.placed[s])
    }

    /// The tile in `slot`.
    ///
    /// Only slots below [`Board::len`] hold a tile.
    ///
    /// # Panics
    /// If `slot` is not below [`crate::MAX_TILES`].
    ///
    /// # Examples
    /// ```
    /// use engine::{Pos, Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.board().placed(0).pos, Pos::ORIGIN);
    /// ```
    #[inline]
    pub fn placed(&self, slot: usize) -> &Placed {
        &self.placed[slot]
    }

    /// `pos` is empty and touches a placed tile along an edge.
    ///
    /// # Examples
    /// ```
    /// use engine::{Pos, Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert!(state.board().is_open(Pos::new(-1, 0)));
    /// assert!(!state.board().is_open(Pos::new(1, 1))); // touches only a corner
    /// assert!(!state.board().is_open(Pos::ORIGIN)); // taken
    /// ```
    #[inline]
    pub fn is_open(&self, pos: Pos) -> bool {
        self.frontier_index(pos).is_some()
    }

    /// The open cells and their demands.
    ///
    /// # Examples
    /// ```
    /// use engine::{Pos, Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// let mut open: Vec<Pos> = state.board().frontier().map(|(pos, _)| pos).collect();
    /// open.sort();
    /// assert_eq!(open, [Pos::new(-1, 0), Pos::new(0, -1), Pos::new(0, 1), Pos::new(1, 0)]);
    /// ```
    #[inline]
    pub fn frontier(&self) -> impl Iterator<Item = (Pos, Demand)> + '_ {
        self.frontier[..self.frontier_len as usize]
            .iter()
            .zip(&self.demand)
            .map(|(&p, &d)| (p, d))
    }

    /// Number of open cells.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State};
    ///
    /// assert_eq!(State::new(Rules::default(), 2, Seat(0)).board().frontier_len(), 4);
    /// ```
    #[inline]
    pub fn frontier_len(&self) -> usize {
        self.frontier_len as usize
    }

    /// The demand of the open cell `pos` (0 when it is not open).
    ///
    /// # Examples
    /// ```
    /// use engine::{Edge, Pos, Rules, Seat, Side, State};
    ///
    /// let board = State::new(Rules::default(), 2, Seat(0)).board().clone();
    /// // East of the start tile: a road on the new tile's west side.
    /// assert_eq!(board.demand_at(Pos::new(1, 0)), (Edge::Road as u8) << (2 * Side::W.index()));
    /// assert_eq!(board.demand_at(Pos::new(5, 5)), 0);
    /// ```
    pub fn demand_at(&self, pos: Pos) -> Demand {
        self.frontier_index(pos).map_or(0, |i| self.demand[i])
    }

    #[inline]
    fn frontier_index(&self, pos: Pos) -> Option<usize> {
        match self.grid[pos.cell() as usize] {
            b if b >= OPEN_BASE && self.frontier[(b - OPEN_BASE) as usize] == pos => {
                Some((b - OPEN_BASE) as usize)
            }
            _ => None,
        }
    }

    /// The slots of the tiles on the eight cells around `pos` in
    /// [`AROUND`] order (even entries: the edge neighbours N, E, S, W),
    /// [`NO_SLOT`] where there is none: one cell index, then fixed offsets.
    #[inline]
    pub(crate) fn around_slots(&self, pos: Pos) -> [u8; 8] {
        let cell = pos.cell() as usize;
        std::array::from_fn(|k| self.slot_around(cell, pos, k))
    }

    /// The slots of the edge neighbours of `pos` on sides N, E, S, W
    /// ([`NO_SLOT`] where there is none).
    #[inline]
    pub(crate) fn side_slots(&self, pos: Pos) -> [u8; 4] {
        let cell = pos.cell() as usize;
        std::array::from_fn(|side| self.slot_around(cell, pos, 2 * side))
    }

    /// How many of the edge neighbours of `pos` hold a tile.
    #[inline]
    pub(crate) fn side_count(&self, pos: Pos) -> u8 {
        let cell = pos.cell() as usize;
        let mut n = 0;
        for k in [0, 2, 4, 6] {
            n += u8::from(self.slot_around(cell, pos, k) != NO_SLOT);
        }
        n
    }

    /// The slot of the tile on the cell [`AROUND`]`[k]` of `pos` (whose
    /// index is `cell`), or [`NO_SLOT`].
    #[inline]
    fn slot_around(&self, cell: usize, pos: Pos, k: usize) -> u8 {
        let q = cell + AROUND_OFFSET[k] as usize;
        let q = if q >= CELLS { q - CELLS } else { q };
        match self.grid[q] {
            s @ 1..=MAX_TILES_U8 => {
                let (dx, dy) = AROUND[k];
                let at = Pos::new(pos.x.wrapping_add(dx), pos.y.wrapping_add(dy));
                // The grid folds far cells onto near ones: check the cell.
                if self.placed[s as usize - 1].pos == at {
                    s - 1
                } else {
                    NO_SLOT
                }
            }
            _ => NO_SLOT,
        }
    }
}

impl Board {
    /// [`Board::new`] as a constant.
    pub(crate) const EMPTY: Board = Board::new();

    /// The board with the start tile at the origin in rotation 0: what
    /// [`Board::place`] makes of an empty board (on any table, at least
    /// 3 × 3, too). [`crate::State::new`] copies it rather than placing the
    /// tile, so the state is built where the caller keeps it.
    pub(crate) const START: Board = {
        let mut b = Board::new();
        let edges = Tile::START.def().edges;
        b.grid[Pos::ORIGIN.cell() as usize] = 1;
        b.placed[0].surrounded = 0;
        b.len = 1;
        // The edge neighbours in `place`'s order (AROUND's even entries).
        let mut k = 0;
        while k < 4 {
            let side = Side::from_index(k);
            let (dx, dy) = side.delta();
            let q = Pos::new(dx, dy);
            b.frontier[k] = q;
            b.demand[k] = (edges[k] as u8) << (2 * side.opposite().index());
            b.grid[q.cell() as usize] = OPEN_BASE + k as u8;
            let counts = fit_counts_for(b.demand[k] as usize);
            let mut t = 0;
            while t < Tile::COUNT {
                b.fits[t] += counts[t] as u16;
                t += 1;
            }
            k += 1;
        }
        b.frontier_len = 4;
        b
    };
}

impl Default for Board {
    fn default() -> Board {
        Board::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::fitting_rotations;

    /// The kept per-kind totals are the fit counts summed over the
    /// frontier, through whole random games on and off a closing table.
    #[test]
    fn kept_fit_totals_match_a_scan() {
        use crate::{random_action, Rules, Seat, State};
        use rand::SeedableRng;
        let scan = |b: &Board, t: Tile| -> usize {
            b.frontier()
                .map(|(_, d)| fitting_rotations(t, d).count_ones() as usize)
                .sum()
        };
        let table = Some(crate::rules::Table {
            width: 7,
            height: 5,
        });
        let closing = Rules {
            table,
            table_closes: true,
            ..Rules::STANDARD
        };
        for (seed, rules) in (0..4).zip([Rules::STANDARD, closing].into_iter().cycle()) {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
            let mut state = State::new(rules, 2, Seat(0));
            while !state.is_over() {
                for t in Tile::ALL {
                    let b = state.board();
                    assert_eq!(b.fit_count(t), scan(b, t), "{t:?}");
                    assert_eq!(b.has_fit(t), scan(b, t) > 0, "{t:?}");
                    // nth_fit, from either end, in for_each_fit order.
                    let mut pairs = Vec::new();
                    b.for_each_fit(t, |pos, mut mask| {
                        while mask != 0 {
                            pairs.push((pos, mask.trailing_zeros()));
                            mask &= mask - 1;
                        }
                    });
                    for (k, &(pos, r)) in pairs.iter().enumerate() {
                        let (p, rot) = b.nth_fit(t, k).expect("a pair");
                        assert_eq!((p, u32::from(rot.quarter_turns())), (pos, r), "{t:?} {k}");
                    }
                    assert_eq!(b.nth_fit(t, pairs.len()), None);
                }
                if state.is_chance() {
                    state.apply_chance(&mut rng);
                } else {
                    let action = random_action(&state, &mut rng).expect("a move");
                    state.play_action_unchecked(action);
                }
            }
        }
    }

    #[test]
    fn start_board_is_the_start_tile_placed() {
        for bounds in [
            Bounds::UNBOUNDED,
            Bounds::table(3, 3, false),
            Bounds::table(3, 3, true),
        ] {
            let mut b = Board::new();
            b.place(Tile::START, Rotation::ALL[0], Pos::ORIGIN, bounds);
            assert!(b == Board::START, "{bounds:?}");
        }
    }
}
