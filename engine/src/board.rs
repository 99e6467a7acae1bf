//! The grid of placed tiles and the frontier of open cells.
//!
//! The grid is a 128×128 torus of one byte per cell (a game spans at most
//! 75 cells in any direction, so cells never alias). The frontier lists the
//! empty cells next to a placed tile, each with the [`Demand`] its
//! neighbours make, so listing the placements of a tile is one table lookup
//! per open cell.

use crate::features::MAX_TILES;
use crate::geom::{Pos, Rotation, Side};
use crate::tiles::{fitting_rotations, Demand, Tile};

/// Grid byte of an empty cell with no placed neighbour.
const EMPTY: u8 = 0;
/// Grid byte of an empty cell next to a placed tile.
const OPEN: u8 = 0xff;
/// Cells on the torus.
const CELLS: usize = 128 * 128;
/// Most open cells: a polyomino of n cells has at most 2n + 2 empty
/// edge-neighbours, 146 for 72 tiles.
pub const MAX_FRONTIER: usize = 2 * MAX_TILES + 2;

/// A tile on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placed {
    /// Its kind.
    pub tile: Tile,
    /// Its rotation.
    pub rot: Rotation,
    /// Its cell.
    pub pos: Pos,
    /// How many of its eight surrounding cells hold a tile.
    pub surrounded: u8,
}

/// Placed tiles, grid and frontier.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// `EMPTY`, `OPEN`, or the slot of the tile there plus one.
    grid: [u8; CELLS],
    placed: [Placed; MAX_TILES],
    len: u8,
    frontier: [Pos; MAX_FRONTIER],
    demand: [Demand; MAX_FRONTIER],
    frontier_len: u8,
}

const DIAGONALS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

impl Board {
    /// An empty board (no start tile yet).
    pub fn new() -> Board {
        Board {
            grid: [EMPTY; CELLS],
            placed: [Placed {
                tile: Tile::START,
                rot: Rotation::default(),
                pos: Pos::ORIGIN,
                surrounded: 0,
            }; MAX_TILES],
            len: 0,
            frontier: [Pos::ORIGIN; MAX_FRONTIER],
            demand: [0; MAX_FRONTIER],
            frontier_len: 0,
        }
    }

    /// Tiles placed so far, in placement order (slot order).
    #[inline]
    pub fn tiles(&self) -> &[Placed] {
        &self.placed[..self.len as usize]
    }

    /// Number of tiles placed.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// No tile placed yet.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The slot of the tile at `pos`, if any.
    #[inline]
    pub fn slot_at(&self, pos: Pos) -> Option<usize> {
        match self.grid[pos.cell() as usize] {
            EMPTY | OPEN => None,
            s => Some(s as usize - 1),
        }
    }

    /// The tile at `pos`, if any.
    #[inline]
    pub fn at(&self, pos: Pos) -> Option<&Placed> {
        self.slot_at(pos).map(|s| &self.placed[s])
    }

    /// The tile in `slot`.
    #[inline]
    pub fn placed(&self, slot: usize) -> &Placed {
        &self.placed[slot]
    }

    /// `pos` is empty and touches a placed tile along an edge.
    #[inline]
    pub fn is_open(&self, pos: Pos) -> bool {
        self.grid[pos.cell() as usize] == OPEN
    }

    /// The open cells and their demands.
    #[inline]
    pub fn frontier(&self) -> impl Iterator<Item = (Pos, Demand)> + '_ {
        self.frontier[..self.frontier_len as usize]
            .iter()
            .zip(&self.demand)
            .map(|(&p, &d)| (p, d))
    }

    /// Number of open cells.
    #[inline]
    pub fn frontier_len(&self) -> usize {
        self.frontier_len as usize
    }

    /// The demand of the open cell `pos` (0 when it is not open).
    pub fn demand_at(&self, pos: Pos) -> Demand {
        self.frontier_index(pos).map_or(0, |i| self.demand[i])
    }

    /// Bit `r` set for each rotation in which `tile` fits at `pos`.
    pub fn fitting_rotations_at(&self, tile: Tile, pos: Pos) -> u8 {
        if !self.is_open(pos) {
            return 0;
        }
        fitting_rotations(tile, self.demand_at(pos))
    }

    /// Calls `f(pos, rotation mask)` for every open cell where `tile` fits
    /// in at least one rotation.
    #[inline]
    pub fn for_each_fit(&self, tile: Tile, mut f: impl FnMut(Pos, u8)) {
        let n = self.frontier_len as usize;
        for i in 0..n {
            let mask = fitting_rotations(tile, self.demand[i]);
            if mask != 0 {
                f(self.frontier[i], mask);
            }
        }
    }

    /// `tile` has at least one legal placement.
    #[inline]
    pub fn has_fit(&self, tile: Tile) -> bool {
        let n = self.frontier_len as usize;
        self.demand[..n]
            .iter()
            .any(|&d| fitting_rotations(tile, d) != 0)
    }

    fn frontier_index(&self, pos: Pos) -> Option<usize> {
        self.frontier[..self.frontier_len as usize]
            .iter()
            .position(|&p| p == pos)
    }

    /// Put `tile` at `pos` (which must be open, or the origin on an empty
    /// board) and return its slot. Updates the frontier and the
    /// surrounded-counts of the tile and its eight neighbours.
    pub fn place(&mut self, tile: Tile, rot: Rotation, pos: Pos) -> usize {
        let slot = self.len as usize;
        let cell = pos.cell() as usize;
        debug_assert!(self.is_empty() || self.grid[cell] == OPEN);
        if let Some(i) = self.frontier_index(pos) {
            let last = self.frontier_len as usize - 1;
            self.frontier[i] = self.frontier[last];
            self.demand[i] = self.demand[last];
            self.frontier_len -= 1;
        }
        self.grid[cell] = slot as u8 + 1;
        self.len += 1;

        let edges = tile.oriented(rot).edges;
        for side in Side::ALL {
            let qpos = pos.step(side);
            let q = qpos.cell();
            let want = (edges[side.index()] as u8) << (2 * side.opposite().index());
            match self.grid[q as usize] {
                EMPTY => {
                    let n = self.frontier_len as usize;
                    self.frontier[n] = qpos;
                    self.demand[n] = want;
                    self.frontier_len += 1;
                    self.grid[q as usize] = OPEN;
                }
                OPEN => {
                    let i = self.frontier_index(qpos).expect("open cell in frontier");
                    self.demand[i] |= want;
                }
                _ => {}
            }
        }

        let mut surrounded = 0;
        for (dx, dy) in DIAGONALS {
            let q = Pos::new(pos.x.wrapping_add(dx), pos.y.wrapping_add(dy));
            if let Some(s) = self.slot_at(q) {
                self.placed[s].surrounded += 1;
                surrounded += 1;
            }
        }
        self.placed[slot] = Placed {
            tile,
            rot,
            pos,
            surrounded,
        };
        slot
    }

    /// Slots of the tiles in the eight cells around `pos`.
    #[inline]
    pub fn for_each_surrounding(&self, pos: Pos, mut f: impl FnMut(usize)) {
        for (dx, dy) in DIAGONALS {
            let q = Pos::new(pos.x.wrapping_add(dx), pos.y.wrapping_add(dy));
            if let Some(s) = self.slot_at(q) {
                f(s);
            }
        }
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::new()
    }
}
