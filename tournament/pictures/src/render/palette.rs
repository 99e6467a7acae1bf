//! The colours of the pictures: terrain, features, and one colour per seat.
//!
//! Tests sample rendered pixels against these, so a colour changed here
//! changes what they expect too.

/// Fields (grass).
pub const FIELD: &str = "#8dc153";
/// A road's surface.
pub const ROAD: &str = "#f5efdc";
/// A road's kerb.
pub const ROAD_EDGE: &str = "#6e5a40";
/// Cities.
pub const CITY: &str = "#c98f4b";
/// City walls.
pub const WALL: &str = "#5b3a1a";
/// Shields (coats of arms): teal, a colour no seat has (seat 1 is blue).
pub const SHIELD: &str = "#0f7f86";
/// The monastery building.
pub const MONASTERY: &str = "#b5483a";
/// The village where roads end.
pub const VILLAGE: &str = "#7a6a55";
/// The outline of the last placed tile.
pub const HIGHLIGHT: &str = "#ff00cc";
/// Seat colours, seat 0 first (the base game's red, blue, yellow, black,
/// then purple and orange for seats 5 and 6).
pub const SEATS: [&str; 6] = [
    "#e0262b", "#2556e8", "#ffd21f", "#202020", "#9a30d0", "#ff7f0e",
];

/// The colour of `seat` (seats past six wrap around).
pub fn seat(seat: usize) -> &'static str {
    SEATS[seat % SEATS.len()]
}

/// `#rrggbb` as bytes.
pub fn rgb(hex: &str) -> [u8; 3] {
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0);
    [byte(1), byte(3), byte(5)]
}
