//! The worked example of docs/RECORD-FORMAT.md replays to 6–4.

use engine::{replay, Record, Rules, Seat};
use testkit::turn;

#[test]
fn worked_example_scores_six_to_four() {
    let mut record = Record::new(2, Rules::default());
    record.turns = vec![
        turn("0 U 1 0 1 NNE"),
        turn("1 E 0 1 2 S"),
        turn("0 [C] V -1 0 2 E"),
    ];
    let state = replay(&record, false).unwrap();
    assert_eq!(state.score(Seat(1)).city, 4);
    assert_eq!(state.supply(Seat(1)), 7);
    assert!(!state.is_over());
    let state = replay(&record, true).unwrap();
    let s0 = state.score(Seat(0));
    let s1 = state.score(Seat(1));
    assert_eq!((s0.road, s0.farm, s0.total()), (3, 3, 6));
    assert_eq!(s1.total(), 4);
}
