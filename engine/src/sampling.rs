//! How random play turns a generator's output into a choice among `n`.
//!
//! - [`below`]: a tile or gift card from the bag, the same number `rand`'s
//!   `gen_range(0..n)` gives for a `u8` from the same generator state,
//!   with its rejection bound read from a table instead of computed by a
//!   division per call (one per turn). `rand` 0.8 samples a `u8` range by
//!   drawing a `u32` `v` and keeping the high half of `v * n` when the low
//!   half is at most the "zone" `u32::MAX - (2^32 - n) % n`, drawing again
//!   otherwise (Lemire's method with an exact rejection bound). Only the
//!   zone is precomputed here; the draws, the test and the result are
//!   rand's, so games stay the same (a test compares both for every count
//!   and many generator states).
//! - [`Sampler`]: the placement (or gift opening) and meeple of a random
//!   action, in one of two ways. [`GenRange`] draws as `rand`'s
//!   `gen_range` does, which for a `usize` or `u32` range keeps a draw
//!   only below the range shifted to the top bit — up to half of them are
//!   drawn again, a branch the processor cannot predict;
//!   [`random_move`](crate::random_move),
//!   [`random_action`](crate::random_action) and so every agent draw this
//!   way, so their games are those of earlier versions. [`Lemire`] rejects
//!   only the `2^32 mod n` low halves that bias the result (almost never)
//!   and draws nothing when there is one choice: the same distribution
//!   from fewer draws, for [`random_playout`](crate::random_playout).

use rand::Rng;

/// `ZONE[n]`: the largest low half `rand` accepts for a range of `n`
/// (`n` ≥ 1; entry 0 unused).
const ZONE: [u32; 256] = {
    let mut zone = [0u32; 256];
    let mut n = 1;
    while n < 256 {
        let range = n as u32;
        zone[n] = u32::MAX - (u32::MAX - range + 1) % range;
        n += 1;
    }
    zone
};

/// A uniform number in `0..n` (`n` ≥ 1), drawn exactly as
/// `rng.gen_range(0..n)` draws it.
#[inline]
pub(crate) fn below<R: Rng + ?Sized>(rng: &mut R, n: u8) -> u8 {
    assert!(n > 0, "an index below 0");
    let range = u32::from(n);
    let zone = ZONE[n as usize];
    loop {
        let product = u64::from(rng.next_u32()) * u64::from(range);
        if product as u32 <= zone {
            return (product >> 32) as u8;
        }
    }
}

/// How a random action draws its placement or gift opening (an index
/// below their number) and its meeple (none, or one of the free
/// segments). Both are uniform either way; they differ in the draws they
/// take.
pub(crate) trait Sampler {
    /// A uniform index in `0..n` (`n` ≥ 1): a placement or an opening.
    fn index<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize;
    /// A uniform number in `0..=free` (`free` ≤ 8): 0 for no meeple, `i`
    /// for the `i`-th free segment.
    fn meeple<R: Rng + ?Sized>(rng: &mut R, free: u32) -> u32;
}

/// `rand`'s `gen_range`, draw for draw (see the module docs).
pub(crate) struct GenRange;

impl Sampler for GenRange {
    #[inline(always)]
    fn index<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
        rng.gen_range(0..n)
    }

    #[inline(always)]
    fn meeple<R: Rng + ?Sized>(rng: &mut R, free: u32) -> u32 {
        rng.gen_range(0..=free)
    }
}

/// Lemire's nearly divisionless method (see the module docs and
/// [`lemire`]).
pub(crate) struct Lemire;

impl Sampler for Lemire {
    #[inline(always)]
    fn index<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
        debug_assert!(n <= u32::MAX as usize);
        lemire(rng, n as u32) as usize
    }

    #[inline(always)]
    fn meeple<R: Rng + ?Sized>(rng: &mut R, free: u32) -> u32 {
        lemire(rng, free + 1)
    }
}

/// A uniform number in `0..n` (`n` ≥ 1) by Lemire's method ("Fast Random
/// Integer Generation in an Interval", 2019): the high half of `v * n`
/// for a drawn `u32` `v`, drawn again only while the low half is below
/// `2^32 mod n` (the products that would make some results likelier by
/// one). That bound needs a division, worked out only when the low half
/// is below `n`, which for the counts here is fewer than one draw in 10^7.
/// With one choice nothing is drawn.
#[inline(always)]
pub(crate) fn lemire<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    debug_assert!(n > 0, "a number below 0");
    if n == 1 {
        return 0;
    }
    let mut product = u64::from(rng.next_u32()) * u64::from(n);
    if (product as u32) < n {
        let biased = n.wrapping_neg() % n;
        while (product as u32) < biased {
            product = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (product >> 32) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngCore, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn below_draws_what_gen_range_draws() {
        for n in 1..=u8::MAX {
            for seed in 0..40 {
                let mut ours = Pcg64Mcg::seed_from_u64(seed * 1000 + u64::from(n));
                let mut theirs = ours.clone();
                for _ in 0..50 {
                    assert_eq!(below(&mut ours, n), theirs.gen_range(0..n), "n = {n}");
                }
                // The same number of draws taken from the generator.
                assert_eq!(ours.next_u64(), theirs.next_u64(), "n = {n}");
            }
        }
    }

    /// A generator that gives out fixed `u32`s.
    struct Fixed(Vec<u32>);

    impl rand::RngCore for Fixed {
        fn next_u32(&mut self) -> u32 {
            self.0.remove(0)
        }
        fn next_u64(&mut self) -> u64 {
            u64::from(self.next_u32())
        }
        fn fill_bytes(&mut self, _: &mut [u8]) {
            unreachable!("only u32s are drawn")
        }
        fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), rand::Error> {
            unreachable!("only u32s are drawn")
        }
    }

    #[test]
    fn below_rejects_as_gen_range_does() {
        // For each count, a draw whose low half lies just above the zone
        // (rejected: both draw again), then one that is accepted.
        for n in [3u8, 7, 200, 255] {
            let range = u64::from(n);
            let rejected = (0..range)
                .flat_map(|t| {
                    (0..(1u64 << 32) % range).map(move |j| (t << 32) | (u64::from(u32::MAX) - j))
                })
                .find(|x| x % range == 0)
                .map(|x| (x / range) as u32)
                .expect("a rejected draw");
            assert!((u64::from(rejected) * range) as u32 > ZONE[n as usize]);
            let draws = vec![rejected, rejected, 9 << 24];
            let ours = below(&mut Fixed(draws.clone()), n);
            assert_eq!(ours, Fixed(draws).gen_range(0..n), "n = {n}");
            assert_eq!(u64::from(ours), ((9u64 << 24) * range) >> 32);
        }
    }

    #[test]
    fn lemire_redraws_exactly_the_biased_products() {
        // n = 3: 2^32 mod 3 = 1, so only a low half of 0 is drawn again.
        let inverse_of_3 = 0xAAAA_AAABu32; // 3 × it = 1 (mod 2^32)
        assert_eq!(lemire(&mut Fixed(vec![inverse_of_3]), 3), 2);
        let mut twice = Fixed(vec![0, 9 << 24]);
        assert_eq!(lemire(&mut twice, 3), (((9u64 << 24) * 3) >> 32) as u32);
        assert!(twice.0.is_empty(), "0 is drawn again");
        // n = 2^31 + 1: 2^32 mod n = 2^31 - 1 biased low halves.
        let n = (1u32 << 31) + 1;
        assert_eq!(lemire(&mut Fixed(vec![1]), n), 0); // low half n: kept
        let mut again = Fixed(vec![2, 3]); // low half 2: drawn again
        assert_eq!(lemire(&mut again, n), 1); // 3n = 2^32 + 2^31 + 3
        assert!(again.0.is_empty());
    }

    #[test]
    fn lemire_draws_nothing_for_one_choice() {
        let mut none = Fixed(Vec::new());
        assert_eq!(lemire(&mut none, 1), 0);
        assert_eq!(Lemire::index(&mut none, 1), 0);
        assert_eq!(Lemire::meeple(&mut none, 0), 0);
    }

    /// Chi-squared over 60,000 draws per count, fixed seeds: a result
    /// off by one or a skewed mapping fails it by far.
    #[test]
    fn lemire_is_uniform() {
        let mut rng = Pcg64Mcg::seed_from_u64(77);
        for n in [2u32, 3, 5, 6, 7, 64, 130, 255] {
            let draws = 60_000;
            let mut counts = vec![0u32; n as usize];
            for _ in 0..draws {
                let k = lemire(&mut rng, n);
                assert!(k < n, "{k} of {n}");
                counts[k as usize] += 1;
            }
            let expected = f64::from(draws) / f64::from(n);
            let chi2: f64 = counts
                .iter()
                .map(|&c| (f64::from(c) - expected).powi(2) / expected)
                .sum();
            let df = f64::from(n - 1);
            assert!(
                chi2 < df + 6.0 * (2.0 * df).sqrt(),
                "n = {n}: chi2 {chi2:.1}"
            );
        }
    }
}
