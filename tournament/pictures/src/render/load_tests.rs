//! Reading records for pictures: bad input is one line naming the file
//! (and the line or turn) and what is wrong.

use super::{load_history, load_record, render};
use engine::{Record, Rules};
use files::error::Error;
use std::path::PathBuf;

fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("render-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn one_line(e: &Error) -> String {
    let text = e.to_string();
    assert_eq!(text.lines().count(), 1, "{text}");
    text
}

fn record_line() -> String {
    serde_json::to_string(&Record::new(2, Rules::default())).unwrap()
}

#[test]
fn a_bad_line_of_a_records_file_is_named_with_its_line() {
    let path = scratch(
        "bad-line.jsonl",
        &format!("{}\n\nnot json\n", record_line()),
    );
    assert!(load_record(&path, Some(0)).is_ok());
    let err = load_record(&path, Some(1)).unwrap_err();
    assert!(
        matches!(err, Error::Content { line: Some(3), .. }),
        "{err:?}"
    );
    let text = one_line(&err);
    assert!(text.contains("bad-line.jsonl:3: bad record:"), "{text}");
}

#[test]
fn a_missing_record_number_says_how_many_the_file_holds() {
    let path = scratch("two.jsonl", &format!("{0}\n{0}\n", record_line()));
    let err = load_record(&path, Some(2)).unwrap_err();
    assert!(
        one_line(&err)
            .ends_with("two.jsonl: no game 2 (the file holds games 0 to 1, numbered from 0)"),
        "{}",
        one_line(&err)
    );
}

#[test]
fn a_record_that_does_not_replay_names_the_file_and_turn() {
    let illegal =
        r#"{"players": 2, "turns": [{"player": 0, "tile": "U", "x": 5, "y": 5, "rot": 0}]}"#;
    let path = scratch("illegal.json", illegal);
    let err = load_history(&path, None).unwrap_err();
    let text = one_line(&err);
    assert!(text.contains("illegal.json: turn 1: cell (5, 5)"), "{text}");
    let seven = scratch("seven.json", r#"{"players": 7, "turns": []}"#);
    let text = one_line(&load_history(&seven, None).unwrap_err());
    assert!(
        text.contains("seven.json: the record has 7 players"),
        "{text}"
    );
}

#[test]
fn bad_render_options_are_refused_before_reading_or_writing() {
    let path = scratch("empty.json", &record_line());
    let out = path.with_extension("gif");
    let err = render(&path, None, None, Some(out.clone()), None).unwrap_err();
    assert!(matches!(err, Error::Invalid(_)));
    assert!(one_line(&err).contains(".svg or .png"));
    let err = render(&path, None, Some(1), None, None).unwrap_err();
    assert_eq!(one_line(&err), "--turn 1: the record has only 0 turns");
    let err = render(&path, None, None, None, Some(5)).unwrap_err();
    assert_eq!(one_line(&err), "--tile-pixels 5: give 10 to 1000");
    assert!(!out.exists() && !path.with_extension("svg").exists());
}
