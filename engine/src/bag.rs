//! The bag: the tiles left to draw, as counts per kind.

use crate::tiles::Tile;

/// The tiles left to draw, as counts per kind (never an order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bag {
    counts: [u8; Tile::COUNT],
    total: u8,
}

impl Bag {
    /// The 71 tiles left after the start tile.
    pub fn full() -> Bag {
        let mut counts = [0; Tile::COUNT];
        for t in Tile::ALL {
            counts[t.index()] = t.def().count;
        }
        counts[Tile::START.index()] -= 1;
        Bag { counts, total: 71 }
    }

    /// No tiles at all.
    pub(crate) fn empty() -> Bag {
        Bag {
            counts: [0; Tile::COUNT],
            total: 0,
        }
    }

    /// Copies of `tile` left.
    #[inline]
    pub fn count(&self, tile: Tile) -> u8 {
        self.counts[tile.index()]
    }

    /// Tiles left in all.
    #[inline]
    pub fn total(&self) -> u8 {
        self.total
    }

    /// No tile left.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The kinds left with their counts.
    pub fn iter(&self) -> impl Iterator<Item = (Tile, u8)> + '_ {
        Tile::ALL
            .into_iter()
            .filter(|t| self.counts[t.index()] > 0)
            .map(|t| (t, self.counts[t.index()]))
    }

    /// The `k`-th tile (0-based) if the tiles were laid out by kind.
    #[inline]
    pub fn nth(&self, mut k: u8) -> Tile {
        for (i, &c) in self.counts.iter().enumerate() {
            if k < c {
                return Tile::from_index(i);
            }
            k -= c;
        }
        unreachable!("index past the end of the bag")
    }

    pub(crate) fn put_back(&mut self, tile: Tile) {
        self.counts[tile.index()] += 1;
        self.total += 1;
    }

    pub(crate) fn take(&mut self, tile: Tile) -> bool {
        let c = &mut self.counts[tile.index()];
        if *c == 0 {
            return false;
        }
        *c -= 1;
        self.total -= 1;
        true
    }
}
