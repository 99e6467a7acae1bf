//! Seats, per-seat storage and the score breakdown.

use std::fmt;
use std::ops::{Index, IndexMut};

/// Most seats at one table.
pub const MAX_PLAYERS: usize = 6;
/// Meeples each seat starts with.
pub const MEEPLES_PER_SEAT: u8 = 7;

/// A seat at the table, 0-based, in turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// One value per seat (up to [`MAX_PLAYERS`]); seats beyond the table's
/// player count hold the default value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PerSeat<T>(pub [T; MAX_PLAYERS]);

impl<T: Copy> PerSeat<T> {
    /// Every seat holding `value`.
    pub const fn splat(value: T) -> PerSeat<T> {
        PerSeat([value; MAX_PLAYERS])
    }
}

impl<T> Index<Seat> for PerSeat<T> {
    type Output = T;
    #[inline]
    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }
}

impl<T> IndexMut<Seat> for PerSeat<T> {
    #[inline]
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index()]
    }
}

/// Points of one seat, by where they came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Score {
    /// Roads, during the game and at the end.
    pub road: u16,
    /// Cities, during the game and at the end.
    pub city: u16,
    /// Monasteries, during the game and at the end.
    pub monastery: u16,
    /// Farmers, at the end.
    pub farm: u16,
    /// Unopened gifts, at the end (The Gifts).
    pub gifts: u16,
}

impl Score {
    /// The sum of all parts.
    #[inline]
    pub const fn total(&self) -> u32 {
        self.road as u32
            + self.city as u32
            + self.monastery as u32
            + self.farm as u32
            + self.gifts as u32
    }
}
