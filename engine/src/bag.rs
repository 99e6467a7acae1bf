//! The bag: the tiles left to draw, as counts per kind.

use crate::tiles::Tile;

/// The tiles left to draw, as counts per kind (never an order).
///
/// # Examples
/// ```
/// use engine::{Bag, Tile};
///
/// let bag = Bag::full();
/// assert_eq!(bag.total(), 71);
/// assert_eq!(bag.count(Tile::START), 3); // four D tiles, one is the start tile
/// assert_eq!(bag.iter().map(|(_, n)| n as usize).sum::<usize>(), 71);
/// assert_eq!(bag.nth(0), bag.iter().next().unwrap().0);
/// assert!(!bag.is_empty());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bag {
    counts: [u8; Tile::COUNT],
    total: u8,
}

impl Bag {
    /// The 71 tiles left after the start tile.
    ///
    /// # Examples
    /// ```
    /// use engine::{Bag, Rules, Seat, State};
    ///
    /// assert_eq!(*State::new(Rules::default(), 2, Seat(0)).bag(), Bag::full());
    /// ```
    pub fn full() -> Bag {
        let mut bag = Bag::every_tile();
        bag.take(Tile::START);
        bag
    }

    /// All 72 tiles, the start tile among them (`start_in_bag`).
    pub(crate) fn every_tile() -> Bag {
        let mut counts = [0; Tile::COUNT];
        for t in Tile::ALL {
            counts[t.index()] = t.def().count;
        }
        Bag { counts, total: 72 }
    }

    /// No tiles at all.
    pub(crate) fn empty() -> Bag {
        Bag {
            counts: [0; Tile::COUNT],
            total: 0,
        }
    }

    /// Copies of `tile` left.
    ///
    /// # Examples
    /// ```
    /// use engine::{Bag, Tile};
    ///
    /// assert_eq!(Bag::full().count(Tile::A), 2);
    /// ```
    #[inline]
    pub fn count(&self, tile: Tile) -> u8 {
        self.counts[tile.index()]
    }

    /// Tiles left in all.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// assert_eq!(state.bag().total(), 70);
    /// ```
    #[inline]
    pub fn total(&self) -> u8 {
        self.total
    }

    /// No tile left.
    ///
    /// # Examples
    /// ```
    /// use engine::Bag;
    ///
    /// assert!(!Bag::full().is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The kinds left with their counts.
    ///
    /// # Examples
    /// ```
    /// use engine::{Bag, Tile};
    ///
    /// let (first, copies) = Bag::full().iter().next().unwrap();
    /// assert_eq!((first, copies), (Tile::A, 2));
    /// assert_eq!(Bag::full().iter().count(), Tile::COUNT);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (Tile, u8)> + '_ {
        Tile::ALL
            .into_iter()
            .filter(|t| self.counts[t.index()] > 0)
            .map(|t| (t, self.counts[t.index()]))
    }

    /// The `k`-th tile (0-based) if the tiles were laid out by kind.
    ///
    /// Draw a uniformly random tile with `bag.nth(rng.gen_range(0..bag.total()))`.
    ///
    /// # Panics
    /// If `k` is not below [`Bag::total`].
    ///
    /// # Examples
    /// ```
    /// use engine::{Bag, Tile};
    ///
    /// let bag = Bag::full();
    /// assert_eq!((bag.nth(0), bag.nth(1), bag.nth(2)), (Tile::A, Tile::A, Tile::B));
    /// assert_eq!(bag.nth(70), Tile::X);
    /// ```
    #[inline]
    pub fn nth(&self, k: u8) -> Tile {
        assert!(k < self.total, "index past the end of the bag");
        // No branch on the counts (a random draw mispredicts a walk): the
        // bytes of a word times 0x0101… are its prefix sums (at most 72
        // tiles, so no carry between bytes); the group is found by
        // comparing k with the group sums, the kind by counting the prefix
        // sums of its group that k reaches.
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let word = |g: usize| {
            u64::from_le_bytes(self.counts[8 * g..8 * g + 8].try_into().expect("8 kinds"))
        };
        let words = [word(0), word(1), word(2)];
        let s0 = (words[0].wrapping_mul(ONES) >> 56) as u8;
        let s1 = (words[1].wrapping_mul(ONES) >> 56) as u8;
        let past0 = u8::from(k >= s0);
        let past1 = u8::from(k >= s0 + s1);
        let g = (past0 + past1) as usize;
        let k = k - past0 * s0 - past1 * s1;
        let prefix = words[g].wrapping_mul(ONES);
        // High bit of a byte set where its prefix sum exceeds k.
        let above = ((prefix | HIGH) - u64::from(k + 1) * ONES) & HIGH;
        let reached = 8 - ((above >> 7).wrapping_mul(ONES) >> 56) as usize;
        Tile::from_index(8 * g + reached)
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// `nth` (groups of 8 kinds skipped by their byte sum) agrees with a
    /// plain walk over the kinds, on bags emptied at random.
    #[test]
    fn nth_matches_a_walk_over_the_kinds() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(11);
        let mut bag = Bag::every_tile();
        while !bag.is_empty() {
            let laid_out: Vec<Tile> = bag
                .iter()
                .flat_map(|(t, c)| std::iter::repeat_n(t, c as usize))
                .collect();
            assert_eq!(laid_out.len(), bag.total() as usize);
            for (k, &t) in laid_out.iter().enumerate() {
                assert_eq!(bag.nth(k as u8), t, "k = {k}");
            }
            let t = bag.nth(rng.gen_range(0..bag.total()));
            assert!(bag.take(t));
        }
    }
}
