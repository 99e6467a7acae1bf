//! A seat's tiles in hand, for the `hand` variant (RULES.md §8): at most
//! three tiles, kept sorted by kind so that equal hands are equal values
//! (a hand is a multiset; its order carries no information).
//!
//! A *slot* is an index into the sorted hand: slot 0 holds the tile of the
//! lowest kind. Actions name the tile they place by its slot
//! ([`crate::Placement::slot`]).

use crate::tiles::Tile;
use std::fmt;

/// Most tiles a hand holds (`hand` is 0–3).
pub const MAX_HAND: usize = 3;

/// The tiles a seat holds, sorted by kind (empty slots last).
///
/// # Examples
/// ```
/// use engine::{Rules, Seat, State, Tile};
/// use rand::SeedableRng;
///
/// let rules: Rules = "hand=3".parse().unwrap();
/// let mut state = State::new(rules, 2, Seat(0));
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
/// while state.is_chance() {
///     state.apply_chance(&mut rng); // the deal, then the first seat's turn start
/// }
/// let hand = state.view(Seat(0)).own_tiles();
/// assert_eq!(hand.len(), 3);
/// assert!(hand.iter().zip(hand.iter().skip(1)).all(|(a, b)| a <= b)); // sorted
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand([Option<Tile>; MAX_HAND]);

impl Hand {
    /// No tile.
    pub const EMPTY: Hand = Hand([None; MAX_HAND]);

    /// Tiles held.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().take_while(|t| t.is_some()).count()
    }

    /// No tile held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0[0].is_none()
    }

    /// The tile in `slot`, if there is one.
    #[inline]
    pub fn get(&self, slot: u8) -> Option<Tile> {
        self.0.get(slot as usize).copied().flatten()
    }

    /// The tiles, in slot order (sorted by kind).
    pub fn iter(&self) -> impl Iterator<Item = Tile> + '_ {
        self.0.iter().map_while(|t| *t)
    }

    /// The slots worth listing: each kind once, at its first slot (two
    /// copies of a kind are the same choice).
    pub fn distinct_slots(&self) -> impl Iterator<Item = (u8, Tile)> + '_ {
        self.iter()
            .enumerate()
            .filter(|&(i, t)| i == 0 || self.0[i - 1] != Some(t))
            .map(|(i, t)| (i as u8, t))
    }

    /// The first slot holding `tile`.
    pub fn slot_of(&self, tile: Tile) -> Option<u8> {
        self.iter().position(|t| t == tile).map(|i| i as u8)
    }

    /// Add `tile`, keeping the order. The hand must not be full.
    pub(crate) fn insert(&mut self, tile: Tile) {
        let n = self.len();
        debug_assert!(n < MAX_HAND, "a full hand");
        let at = self.iter().position(|t| t > tile).unwrap_or(n);
        self.0.copy_within(at..n, at + 1);
        self.0[at] = Some(tile);
    }

    /// Remove and return the tile in `slot`.
    pub(crate) fn remove(&mut self, slot: u8) -> Option<Tile> {
        let slot = slot as usize;
        let tile = self.0.get(slot).copied().flatten()?;
        self.0.copy_within(slot + 1.., slot);
        self.0[MAX_HAND - 1] = None;
        Some(tile)
    }
}

impl fmt::Display for Hand {
    /// The tiles' letters, e.g. `[D, U, V]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters: Vec<String> = self.iter().map(|t| t.to_string()).collect();
        write!(f, "[{}]", letters.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hand_stays_sorted_through_inserts_and_removals() {
        let mut h = Hand::EMPTY;
        for t in [Tile::V, Tile::A, Tile::V] {
            h.insert(t);
        }
        assert_eq!(h.iter().collect::<Vec<_>>(), [Tile::A, Tile::V, Tile::V]);
        assert_eq!(h.len(), 3);
        assert_eq!(
            h.distinct_slots().collect::<Vec<_>>(),
            [(0, Tile::A), (1, Tile::V)]
        );
        assert_eq!(h.slot_of(Tile::V), Some(1));
        assert_eq!(h.remove(0), Some(Tile::A));
        assert_eq!(h.iter().collect::<Vec<_>>(), [Tile::V, Tile::V]);
        assert_eq!(h.remove(2), None);
        h.insert(Tile::B);
        assert_eq!(h.to_string(), "[B, V, V]");
    }

    #[test]
    fn equal_tiles_in_any_order_make_equal_hands() {
        let mut a = Hand::EMPTY;
        let mut b = Hand::EMPTY;
        for t in [Tile::U, Tile::D, Tile::K] {
            a.insert(t);
        }
        for t in [Tile::K, Tile::U, Tile::D] {
            b.insert(t);
        }
        assert_eq!(a, b);
    }
}
