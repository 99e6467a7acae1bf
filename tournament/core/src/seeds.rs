//! The seed hash every derived seed comes from: splitmix64 chains keyed
//! by a domain tag (the schedule's decks and agents, the held-out split
//! of `train`). A leaf: it imports nothing of the crate.

/// One step of splitmix64 (Steele, Lea & Flood): a fixed, well-mixed
/// bijection of 64-bit words.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Hash a sequence of words with a domain tag into one seed:
/// `h = splitmix64(seed ^ tag)`, then `h = splitmix64(h ^ w)` per word.
pub fn mix(seed: u64, tag: u64, words: &[u64]) -> u64 {
    words
        .iter()
        .fold(splitmix64(seed ^ tag), |h, &w| splitmix64(h ^ w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_is_the_published_function() {
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn mix_chains_the_words_after_the_tag() {
        assert_eq!(mix(7, 1, &[]), splitmix64(7 ^ 1));
        assert_eq!(mix(7, 1, &[5]), splitmix64(splitmix64(7 ^ 1) ^ 5));
    }
}
