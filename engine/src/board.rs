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

use crate::features::MAX_TILES;
use crate::geom::{Pos, Rotation, Side};
use crate::tiles::{
    fit_counts, fit_counts_for, fit_number_row, fit_row, fitting_rotations, Demand, Edge, Tile,
};

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
    /// use engine::{Pos, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.draw(Tile::U).unwrap();
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

    /// Bit `r` set for each rotation in which `tile` fits at `pos`.
    ///
    /// # Examples
    /// ```
    /// use engine::{Pos, Rules, Seat, State, Tile};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// // A straight road east of the start tile: turned a quarter either way.
    /// assert_eq!(state.board().fitting_rotations_at(Tile::U, Pos::new(1, 0)), 0b1010);
    /// assert_eq!(state.board().fitting_rotations_at(Tile::U, Pos::new(0, 1)), 0); // city there
    /// ```
    pub fn fitting_rotations_at(&self, tile: Tile, pos: Pos) -> u8 {
        if !self.is_open(pos) {
            return 0;
        }
        fitting_rotations(tile, self.demand_at(pos))
    }

    /// Calls `f(pos, rotation mask)` for every open cell where `tile` fits
    /// in at least one rotation.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State, Tile};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// let mut pairs = 0;
    /// state.board().for_each_fit(Tile::U, |_, mask| pairs += mask.count_ones() as usize);
    /// assert_eq!(pairs, state.board().fit_count(Tile::U));
    /// ```
    #[inline]
    pub fn for_each_fit(&self, tile: Tile, mut f: impl FnMut(Pos, u8)) {
        let row = fit_row(tile);
        let n = self.frontier_len as usize;
        for (&pos, &d) in self.frontier[..n].iter().zip(&self.demand[..n]) {
            let mask = row[d as usize] & 0xf;
            if mask != 0 {
                f(pos, mask);
            }
        }
    }

    /// Number of (cell, rotation) pairs where `tile` fits.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State, Tile};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.board().fit_count(Tile::U), 6); // east, west and south, two rotations each
    /// ```
    #[inline]
    pub fn fit_count(&self, tile: Tile) -> usize {
        self.fits[tile.index()] as usize
    }

    /// The `k`-th (cell, rotation) pair where `tile` fits, in
    /// [`Board::for_each_fit`] order, rotations ascending within a cell.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State, Tile};
    ///
    /// let board = State::new(Rules::default(), 2, Seat(0)).board().clone();
    /// let n = board.fit_count(Tile::U);
    /// let (pos, rot) = board.nth_fit(Tile::U, n - 1).unwrap();
    /// assert_ne!(board.fitting_rotations_at(Tile::U, pos) & (1 << rot.quarter_turns()), 0);
    /// assert_eq!(board.nth_fit(Tile::U, n), None);
    /// ```
    #[inline]
    pub fn nth_fit(&self, tile: Tile, k: usize) -> Option<(Pos, Rotation)> {
        let row = fit_row(tile);
        let total = self.fits[tile.index()] as usize;
        if k >= total {
            return None;
        }
        let demand = &self.demand[..self.frontier_len as usize];
        let numbers = fit_number_row(tile);
        let count = |d: u8| numbers[d as usize] as usize;
        // Walk from the nearer end: the k-th pair from the first cell is
        // the (total - 1 - k)-th from the last, rotations descending. Skip
        // whole groups of 4 cells by their count first (fewer tests and
        // branches than cell by cell), then walk the group holding it.
        if 2 * k < total {
            let mut k = k;
            let mut first = 0;
            for g in demand.chunks_exact(4) {
                let group = count(g[0]) + count(g[1]) + count(g[2]) + count(g[3]);
                if k < group {
                    break;
                }
                k -= group;
                first += 4;
            }
            // In the group of up to 4 cells holding it, with no branch.
            let cells = (demand.len() - first).min(4);
            let c = |j: usize| {
                if j < cells {
                    count(demand[first + j])
                } else {
                    0
                }
            };
            let (i, k) = pick_in_group([c(0), c(1), c(2)], k);
            let i = first + i;
            Some((self.frontier[i], nth_rotation(row[demand[i] as usize], k)))
        } else {
            let mut j = total - 1 - k;
            let mut end = demand.len();
            for g in demand.rchunks_exact(4) {
                let group = count(g[0]) + count(g[1]) + count(g[2]) + count(g[3]);
                if j < group {
                    break;
                }
                j -= group;
                end -= 4;
            }
            let cells = end.min(4);
            let c = |j: usize| {
                if j < cells {
                    count(demand[end - 1 - j])
                } else {
                    0
                }
            };
            let (i, j) = pick_in_group([c(0), c(1), c(2)], j);
            let i = end - 1 - i;
            let d = demand[i];
            Some((
                self.frontier[i],
                nth_rotation(row[d as usize], count(d) - 1 - j),
            ))
        }
    }

    /// `tile` has at least one legal placement.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State, Tile};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert!(Tile::ALL.iter().all(|&t| state.board().has_fit(t)));
    /// ```
    #[inline]
    pub fn has_fit(&self, tile: Tile) -> bool {
        self.fits[tile.index()] != 0
    }

    /// Add (`ADD`) or take away the fit counts of an open cell with
    /// demand `d` to or from every kind's total.
    #[inline]
    fn count_fits<const ADD: bool>(&mut self, d: Demand) {
        let counts = fit_counts(d);
        for (total, &c) in self.fits.iter_mut().zip(counts) {
            if ADD {
                *total += c;
            } else {
                *total -= c;
            }
        }
    }

    /// Replace the fit counts of an open cell whose demand narrows from
    /// `old` to `new` in every kind's total (one pass over the totals).
    #[inline]
    fn recount_fits(&mut self, old: Demand, new: Demand) {
        let (was, now) = (fit_counts(old), fit_counts(new));
        for ((total, &w), &n) in self.fits.iter_mut().zip(was).zip(now) {
            *total = *total - w + n;
        }
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

    /// Put `tile` at `pos` (which must be open, or the origin on an empty
    /// board) and return its slot with what it touched. Updates the
    /// frontier (only cells within `bounds` join it) and the
    /// surrounded-counts of the tile and its eight neighbours (cells off a
    /// closing table count for the placed tile).
    #[inline]
    pub(crate) fn place(
        &mut self,
        tile: Tile,
        rot: Rotation,
        pos: Pos,
        bounds: Bounds,
    ) -> (usize, Touched) {
        self.place_joining(tile, rot, pos, bounds, |_, _, _| {})
    }

    /// [`Board::place`], calling `join(side, slot, placed)` for each edge
    /// neighbour in side order N, E, S, W as it is found (in the branch
    /// that finds it, so a caller joining features across the sides tests
    /// no side again).
    #[inline(always)]
    pub(crate) fn place_joining(
        &mut self,
        tile: Tile,
        rot: Rotation,
        pos: Pos,
        bounds: Bounds,
        join: impl FnMut(Side, usize, Placed),
    ) -> (usize, Touched) {
        if bounds == Bounds::UNBOUNDED {
            self.place_within::<false>(tile, rot, pos, bounds, join)
        } else {
            self.place_within::<true>(tile, rot, pos, bounds, join)
        }
    }

    /// [`Board::place`], compiled apart for the unbounded board (`TABLE`
    /// false: no cell is off the table, so no bounds test per neighbour).
    #[inline(always)]
    fn place_within<const TABLE: bool>(
        &mut self,
        tile: Tile,
        rot: Rotation,
        pos: Pos,
        bounds: Bounds,
        mut join: impl FnMut(Side, usize, Placed),
    ) -> (usize, Touched) {
        let slot = self.len as usize;
        let cell = pos.cell() as usize;
        debug_assert!(self.is_empty() || self.is_open(pos));
        if let Some(i) = self.frontier_index(pos) {
            self.count_fits::<false>(self.demand[i]);
            let last = self.frontier_len as usize - 1;
            let moved = self.frontier[last];
            self.frontier[i] = moved;
            self.demand[i] = self.demand[last];
            self.grid[moved.cell() as usize] = OPEN_BASE + i as u8;
            self.frontier_len -= 1;
        }
        self.grid[cell] = slot as u8 + 1;
        self.len += 1;

        let edges = tile.oriented(rot).edges;
        let mut touched = Touched {
            sides: [NO_SLOT; 4],
            surrounded: [0; 9],
            surrounded_len: 0,
            around: 0,
        };
        // The eight cells in AROUND order, unrolled: each call has a
        // constant `K`, so its offset, side and parity fold away.
        macro_rules! around {
            ($($k:literal)*) => {
                $(self.place_around::<TABLE, $k>(cell, pos, edges, bounds, &mut touched, &mut join);)*
            };
        }
        around!(0 1 2 3 4 5 6 7);
        let surrounded = touched.around;
        self.placed[slot] = Placed {
            tile,
            rot,
            pos,
            surrounded,
        };
        if surrounded == 8 {
            touched.surrounded[touched.surrounded_len as usize] = slot as u8;
            touched.surrounded_len += 1;
        }
        (slot, touched)
    }

    /// The cell [`AROUND`]`[K]` of a tile being placed: count it as
    /// surrounding, bump a placed neighbour's count, or open or narrow an
    /// edge neighbour's demand.
    #[inline(always)]
    fn place_around<const TABLE: bool, const K: usize>(
        &mut self,
        cell: usize,
        pos: Pos,
        edges: [Edge; 4],
        bounds: Bounds,
        touched: &mut Touched,
        join: &mut impl FnMut(Side, usize, Placed),
    ) {
        let k = K;
        let (dx, dy) = AROUND[k];
        let qpos = Pos::new(pos.x.wrapping_add(dx), pos.y.wrapping_add(dy));
        let q = cell + AROUND_OFFSET[k] as usize;
        let q = if q >= CELLS { q - CELLS } else { q };
        debug_assert_eq!(q, qpos.cell() as usize);
        let on_table = !TABLE || bounds.contains(qpos);
        let byte = self.grid[q];
        if (1..=MAX_TILES_U8).contains(&byte) {
            let s = byte as usize - 1;
            touched.around += 1;
            let p = &mut self.placed[s];
            p.surrounded += 1;
            if p.surrounded == 8 {
                touched.surrounded[touched.surrounded_len as usize] = s as u8;
                touched.surrounded_len += 1;
            }
            if k % 2 == 0 {
                touched.sides[k / 2] = s as u8;
                join(Side::from_index(k / 2), s, *p);
            }
        } else if !on_table {
            // Off the table: never open; with `table_closes` it
            // surrounds the tile as a tile would.
            touched.around += u8::from(bounds.closes);
        } else if k % 2 == 0 {
            let side = Side::from_index(k / 2);
            let want = (edges[side.index()] as u8) << (2 * side.opposite().index());
            if byte == EMPTY {
                let n = self.frontier_len as usize;
                self.frontier[n] = qpos;
                self.demand[n] = want;
                self.frontier_len += 1;
                self.grid[q] = OPEN_BASE + n as u8;
                self.count_fits::<true>(want);
            } else {
                let i = (byte - OPEN_BASE) as usize;
                let old = self.demand[i];
                self.demand[i] = old | want;
                self.recount_fits(old, old | want);
            }
        }
    }
}

/// The rotation of the `k`-th lowest set bit of a fit-table entry's
/// rotation mask (by table: a loop over `k` mispredicts).
#[inline]
fn nth_rotation(entry: u8, k: usize) -> Rotation {
    Rotation::ALL[NTH_ROTATION[(entry & 0xf) as usize][k & 3] as usize]
}

/// Per rotation mask, the rotation of its `k`-th lowest set bit (0 past
/// the last).
const NTH_ROTATION: [[u8; 4]; 16] = {
    let mut out = [[0u8; 4]; 16];
    let mut mask = 0;
    while mask < 16 {
        let mut k = 0;
        let mut r = 0;
        while r < 4 {
            if mask & (1 << r) != 0 {
                out[mask][k] = r as u8;
                k += 1;
            }
            r += 1;
        }
        mask += 1;
    }
    out
};

/// In a group of at most 4 cells whose first three hold `counts` pairs
/// and which holds the `k`-th pair: the cell holding it and its index
/// there, by comparisons rather than a loop (the walk's exit is a random
/// branch).
#[inline]
fn pick_in_group(counts: [usize; 3], k: usize) -> (usize, usize) {
    let a0 = counts[0];
    let a1 = a0 + counts[1];
    let a2 = a1 + counts[2];
    let at = usize::from(k >= a0) + usize::from(k >= a1) + usize::from(k >= a2);
    (at, k - [0, a0, a1, a2][at])
}

/// No tile on that side.
pub(crate) const NO_SLOT: u8 = u8::MAX;

/// What a placement touched.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Touched {
    /// The slot of the edge neighbour on each side N, E, S, W, or
    /// [`NO_SLOT`].
    pub sides: [u8; 4],
    /// Slots whose eight surrounding cells this placement filled (the
    /// placed tile's own slot included when it is surrounded at once).
    pub surrounded: [u8; 9],
    /// Entries used in `surrounded`.
    pub surrounded_len: u8,
    /// How many of the placed tile's eight surrounding cells hold a tile
    /// (or, with `table_closes`, lie off the table).
    pub around: u8,
}

impl Touched {
    /// The slots whose surroundings this placement completed.
    pub(crate) fn surrounded(&self) -> &[u8] {
        &self.surrounded[..self.surrounded_len as usize]
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
