//! A uniform index below a small count, the same number `rand`'s
//! `gen_range(0..n)` gives for a `u8` from the same generator state, with
//! its rejection bound read from a table instead of computed by a
//! division per call (the tile draw's hot path: one per turn).
//!
//! `rand` 0.8 samples a `u8` range by drawing a `u32` `v` and keeping the
//! high half of `v * n` when the low half is at most the "zone"
//! `u32::MAX - (2^32 - n) % n`, drawing again otherwise (Lemire's method
//! with an exact rejection bound). Only the zone is precomputed here; the
//! draws, the test and the result are rand's, so games stay the same (a
//! test compares both for every count and many generator states).

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
}
