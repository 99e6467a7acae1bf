//! Which tiles fit where: the placements of a tile listed, counted and
//! indexed from the frontier's demands (one table lookup per open cell),
//! and the per-kind totals of fitting (cell, rotation) pairs the board
//! keeps up to date as cells open and narrow.

use super::{Board, Bounds, AROUND, AROUND_OFFSET, CELLS, EMPTY, MAX_TILES_U8, OPEN_BASE};
use crate::geom::{Pos, Rotation, Side};
use crate::tiles::{fit_counts, fit_number_row, fit_row, fitting_rotations, Demand, Edge, Tile};

impl Board {
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

    /// Whether `tile` would fit somewhere once a tile showing `edges` (N,
    /// E, S, W) were put at the open cell `pos` within `bounds`, read
    /// without placing it: [`Board::has_fit`] of the board
    /// [`Board::place`] would make. The kept total for `tile` changes
    /// only at `pos` (no longer open) and at its edge neighbours (opened
    /// or narrowed as `place_around` does it).
    pub(crate) fn has_fit_after(
        &self,
        tile: Tile,
        pos: Pos,
        edges: [Edge; 4],
        bounds: Bounds,
    ) -> bool {
        let numbers = fit_number_row(tile);
        let count = |d: Demand| i32::from(numbers[d as usize]);
        let mut n = i32::from(self.fits[tile.index()]) - count(self.demand_at(pos));
        let cell = pos.cell() as usize;
        for side in Side::ALL {
            let k = 2 * side.index();
            let (dx, dy) = AROUND[k];
            let qpos = Pos::new(pos.x.wrapping_add(dx), pos.y.wrapping_add(dy));
            let q = cell + AROUND_OFFSET[k] as usize;
            let q = if q >= CELLS { q - CELLS } else { q };
            let byte = self.grid[q];
            if (1..=MAX_TILES_U8).contains(&byte) || !bounds.contains(qpos) {
                continue;
            }
            let want = (edges[side.index()] as u8) << (2 * side.opposite().index());
            if byte == EMPTY {
                n += count(want);
            } else {
                let old = self.demand[(byte - OPEN_BASE) as usize];
                n += count(old | want) - count(old);
            }
        }
        n > 0
    }

    /// Add (`ADD`) or take away the fit counts of an open cell with
    /// demand `d` to or from every kind's total.
    #[inline]
    pub(super) fn count_fits<const ADD: bool>(&mut self, d: Demand) {
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
    pub(super) fn recount_fits(&mut self, old: Demand, new: Demand) {
        let (was, now) = (fit_counts(old), fit_counts(new));
        for ((total, &w), &n) in self.fits.iter_mut().zip(was).zip(now) {
            *total = *total - w + n;
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
