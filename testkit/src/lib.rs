//! Test support shared by the engine's, the agents' and the tournament's
//! test suites (and the fuzz targets): building record turns tersely and
//! checking the invariants every position must keep.
//!
//! A dev-dependency only: nothing here is part of any crate's API.

use engine::{Location, Seat, State, Tile, TurnRecord, MEEPLES_PER_SEAT};

/// One turn written as `"seat [discarded ...] tile x y rot [meeple]"`, e.g.
/// `"0 U 1 0 1 NNE"` or `"1 [C] V -1 0 2"`; `"1 [C]"` is a turn that only
/// discards (the stack ran out).
///
/// # Panics
/// If `spec` is not written that way (a test's own typo).
pub fn turn(spec: &str) -> TurnRecord {
    let mut words = spec.split_whitespace().peekable();
    let player = words
        .next()
        .expect("a seat")
        .parse()
        .expect("a seat number");
    let mut discarded = Vec::new();
    while let Some(w) = words.peek() {
        if !(w.starts_with('[') || w.ends_with(']')) {
            break;
        }
        let t = w.trim_start_matches('[').trim_end_matches(']');
        discarded.push(t.parse().expect("a tile letter"));
        words.next();
    }
    let mut rec = TurnRecord {
        player,
        discarded,
        ..TurnRecord::default()
    };
    if let Some(tile) = words.next() {
        let mut number = |what: &str| words.next().unwrap_or_else(|| panic!("{what} in {spec:?}"));
        rec.tile = Some(tile.parse().expect("a tile letter"));
        rec.x = Some(number("x").parse().expect("x"));
        rec.y = Some(number("y").parse().expect("y"));
        rec.rot = Some(number("rot").parse().expect("rot"));
        rec.meeple = words.next().map(|m| m.parse().expect("a location"));
    }
    assert!(words.next().is_none(), "trailing words in {spec:?}");
    rec
}

/// The turn of `player` placing `tile` at (`x`, `y`) in rotation `rot`,
/// with a meeple at `meeple` if given.
///
/// # Panics
/// If `meeple` is not a location name.
pub fn placed(player: u8, tile: Tile, x: i8, y: i8, rot: u8, meeple: Option<&str>) -> TurnRecord {
    TurnRecord {
        player,
        tile: Some(tile),
        x: Some(x),
        y: Some(y),
        rot: Some(rot),
        meeple: meeple.map(|m| m.parse::<Location>().expect("a location")),
        ..TurnRecord::default()
    }
}

/// Asserts what no position may lose or create: each seat's meeples
/// (supply plus board) are 7, and with The Gifts the 25 cards are in the
/// hands, the deck or the discard pile.
///
/// # Panics
/// If a meeple or a card was lost or created.
pub fn assert_conserved(state: &State) {
    for s in 0..state.players() {
        let seat = Seat(s as u8);
        let on_board = state.meeples().iter().filter(|m| m.seat == seat).count() as u8;
        assert_eq!(
            on_board + state.supply(seat),
            MEEPLES_PER_SEAT,
            "meeples of {seat}"
        );
    }
    if state.rules().gifts {
        let held: u32 = (0..state.players())
            .map(|s| state.hand_size(Seat(s as u8)) as u32)
            .sum();
        let cards = held + state.gift_deck_size() as u32 + state.gift_discard().total() as u32;
        assert_eq!(cards, 25, "gift cards conserved");
    }
}
