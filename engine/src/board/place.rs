//! Placing a tile: the grid, the frontier (cells opening and their
//! demands narrowing), the surrounded-counts of the tile and its eight
//! neighbours, and what the placement touched for the state to join and
//! score.

use super::{Board, Bounds, Placed, AROUND, AROUND_OFFSET, CELLS, EMPTY, MAX_TILES_U8, OPEN_BASE};
use crate::geom::{Pos, Rotation, Side};
use crate::tiles::{Edge, Tile};

impl Board {
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
