//! The header checks of a record's replay (issue 8: a record of another
//! format was replayed silently).

use engine::FORMAT;
use engine::{replay, Record, Rules};

#[test]
fn replay_refuses_a_record_of_another_format() {
    let mut record = Record::new(2, Rules::default());
    assert!(replay(&record, false).is_ok());
    record.format = "chess-pgn/1".to_string();
    let error = replay(&record, false).unwrap_err().to_string();
    assert_eq!(
        error,
        format!("format \"chess-pgn/1\" is not {FORMAT:?}"),
        "{error}"
    );
}
