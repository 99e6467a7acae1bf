//! Seats, per-seat storage and the score breakdown.

use std::fmt;
use std::ops::{Index, IndexMut, RangeInclusive};

/// Most seats at one table.
///
/// # Examples
/// ```
/// use engine::{Rules, Seat, State, MAX_PLAYERS};
///
/// let state = State::new(Rules::default(), MAX_PLAYERS, Seat(5));
/// assert_eq!(state.players(), 6);
/// ```
pub const MAX_PLAYERS: usize = 6;

/// Fewest seats at one table.
pub const MIN_PLAYERS: usize = 2;

/// Every number of seats a game may have, 2 to 6 — the one place the
/// range is written: the engine, the records, the command line, the
/// run core and the Python package check against it.
///
/// # Examples
/// ```
/// assert!(engine::PLAYERS.contains(&2) && engine::PLAYERS.contains(&6));
/// assert!(!engine::PLAYERS.contains(&7));
/// assert!(engine::is_player_count(3) && !engine::is_player_count(1));
/// ```
pub const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;

/// Whether a game may have `players` seats ([`PLAYERS`]), for counts
/// read as `u64` (command-line options).
pub fn is_player_count(players: u64) -> bool {
    usize::try_from(players).is_ok_and(|p| PLAYERS.contains(&p))
}
/// Meeples each seat starts with.
///
/// # Examples
/// ```
/// use engine::{Rules, Seat, State, MEEPLES_PER_SEAT};
///
/// let state = State::new(Rules::default(), 3, Seat(0));
/// assert_eq!(state.supply(Seat(2)), MEEPLES_PER_SEAT);
/// ```
pub const MEEPLES_PER_SEAT: u8 = 7;

/// A seat at the table, 0-based, in turn order.
///
/// # Examples
/// ```
/// use engine::Seat;
///
/// let seat = Seat(2);
/// assert_eq!(seat.index(), 2);
/// assert_eq!(seat.to_string(), "seat 2");
/// assert!(Seat(0) < seat);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's index.
    ///
    /// # Examples
    /// ```
    /// use engine::Seat;
    ///
    /// let names = ["north", "south"];
    /// assert_eq!(names[Seat(1).index()], "south");
    /// ```
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
///
/// # Examples
/// ```
/// use engine::{PerSeat, Seat};
///
/// let mut wins = PerSeat::splat(0u32);
/// wins[Seat(1)] += 1;
/// assert_eq!((wins[Seat(0)], wins[Seat(1)]), (0, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PerSeat<T>(pub [T; MAX_PLAYERS]);

impl<T: Copy> PerSeat<T> {
    /// Every seat holding `value`.
    ///
    /// # Examples
    /// ```
    /// use engine::{PerSeat, Seat};
    ///
    /// assert_eq!(PerSeat::splat(7u8)[Seat(5)], 7);
    /// ```
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
///
/// # Examples
/// ```
/// use engine::Score;
///
/// let score = Score { road: 3, city: 8, farm: 6, ..Score::default() };
/// assert_eq!(score.total(), 17);
/// ```
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
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.score(Seat(0)).total(), 0);
    /// ```
    #[inline]
    pub const fn total(&self) -> u32 {
        self.road as u32
            + self.city as u32
            + self.monastery as u32
            + self.farm as u32
            + self.gifts as u32
    }
}
