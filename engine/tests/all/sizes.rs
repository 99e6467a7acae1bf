//! Pins the sizes of the engine's hot types so they only change on purpose:
//! search clones `State` at every node and stores `Move`s by the thousand.

use engine::{Move, State};
use std::mem::size_of;

#[test]
fn state_size_is_pinned() {
    // Grows only on purpose: a change here changes the cost of every clone
    // in search. Update the number together with the change that explains it.
    // 9,716 = board (its grid a ring of 2,813 cells folding the plane so
    // that cells fewer than 75 steps apart never share one, and 48 bytes
    // of per-kind placement counts kept with the frontier), union-find
    // (576 nodes of 10 bytes: root, next member, counters), meeples,
    // 47 bytes of gift cards, the rules packed in 4 bytes (every RULES.md
    // §8 variant plus the pending hole-bonus bit), and 18 bytes of tile
    // hands (6 seats × 3 tiles, for the `hand` variant) paid for by
    // packing `Meeple` into 3 bytes (42 × 1 padding byte saved).
    assert_eq!(size_of::<State>(), 9_716);
}

#[test]
fn move_size_is_pinned() {
    // Grows only on purpose: cell (2 bytes), rotation (1), hand slot (1,
    // for the `hand` variant), meeple segment as Option<u8> (2).
    assert_eq!(size_of::<Move>(), 6);
}

#[test]
fn move_fits_in_eight_bytes() {
    // As shakmaty checks for its Move: small moves keep move lists cheap.
    assert!(
        size_of::<Move>() <= 8,
        "Move is {} bytes",
        size_of::<Move>()
    );
}

#[test]
fn action_fits_in_eight_bytes() {
    // A seat's decision with The Gifts (a move, a gift opening or Take 2's
    // choice) stays as small as a move list entry should be.
    let n = size_of::<engine::Action>();
    assert!(n <= 8, "Action is {n} bytes");
}
