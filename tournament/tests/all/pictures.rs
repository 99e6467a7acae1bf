//! End-to-end tests of `carcassonne render`, `view`, `report` and
//! `play --svg`, through the built binary.

use crate::common::{fails, ok, scratch};
use std::path::{Path, PathBuf};

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A fresh scratch folder `name` holding `game.json`, the record `play`
/// writes with `args`; the folder, the record and what `play` printed.
fn played(name: &str, args: &[&str]) -> (PathBuf, PathBuf, String) {
    let dir = scratch(name);
    let record = dir.join("game.json");
    let text = ok(&[&["play", "--out", s(&record)], args].concat());
    (dir, record, text)
}

#[test]
fn play_writes_a_picture_per_turn_and_render_and_view_read_its_record() {
    let turns = scratch("pictures-play-turns").join("turns");
    let args = ["--agents", "greedy,random", "--seed", "2", "--gifts"];
    let (dir, record, text) = played(
        "pictures-play",
        &[&args[..], &["--svg", s(&turns)]].concat(),
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let n = json["turns"].as_array().unwrap().len();
    assert!(
        text.contains(&format!("{} pictures written", n + 1)),
        "{text}"
    );
    assert!(turns.join("turn-000.svg").exists());
    assert!(turns.join(format!("turn-{n:03}.svg")).exists());
    assert!(!turns.join(format!("turn-{:03}.svg", n + 1)).exists());

    // A single-record file is game 0.
    let one = dir.join("one.svg");
    ok(&["render", s(&record), "--game", "0", "--out", s(&one)]);
    assert!(one.exists());

    let png = dir.join("end.png");
    ok(&["render", s(&record), "--out", s(&png)]);
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");

    let svg = dir.join("turn5.svg");
    ok(&["render", s(&record), "--turn", "5", "--out", s(&svg)]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("Turn 5 of"), "the legend names the turn");

    let html = dir.join("game.html");
    ok(&["view", s(&record), "--out", s(&html)]);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(!page.contains("http"));
    assert!(page.contains(&format!(r#"max="{n}""#)));
}

#[test]
fn bad_render_and_view_arguments_are_one_line_errors_writing_nothing() {
    let (dir, record, _) = played("pictures-errors", &["--seed", "1"]);
    let out = dir.join("x.svg");
    let err = fails(&["render", s(&record), "--turn", "999", "--out", s(&out)]);
    assert!(err.contains("--turn 999: the record has only"), "{err}");
    let err = fails(&["render", s(&record), "--out", s(&dir.join("x.jpg"))]);
    assert!(err.contains(".svg or .png"), "{err}");
    let err = fails(&["view", s(&record), "--out", s(&dir.join("x.svg"))]);
    assert!(err.contains(".html"), "{err}");
    let err = fails(&["render", s(&dir.join("missing.json"))]);
    assert!(
        err.contains("cannot read") && err.contains("missing.json"),
        "{err}"
    );
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"players": 2, "turns": [{"player": 0, "tile": "U", "x": 5, "y": 5, "rot": 0}]}"#,
    )
    .unwrap();
    let err = fails(&["render", s(&bad), "--out", s(&out)]);
    assert!(err.contains("turn 1"), "{err}");
    let err = fails(&["report", s(&dir)]);
    assert!(err.contains("run.json"), "{err}");
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "only the two records: {names:?}");
}

#[test]
fn render_picks_a_record_of_a_records_file() {
    let dir = scratch("pictures-records");
    let results = dir.join("run");
    ok(&[
        "tournament",
        "--agents",
        "random,greedy",
        "--games",
        "2",
        "--records",
        "--out",
        s(&results),
    ]);
    assert!(
        results.join("report.html").exists(),
        "every run writes its report"
    );
    let records = results.join("records.jsonl");
    let out = dir.join("second.svg");
    ok(&["render", s(&records), "--game", "1", "--out", s(&out)]);
    assert!(std::fs::read_to_string(&out).unwrap().contains("<svg"));
    let err = fails(&["render", s(&records), "--game", "2", "--out", s(&out)]);
    assert!(
        err.contains("no game 2 (the file holds games 0 to 1, numbered from 0)"),
        "{err}"
    );
}

/// A game with hands starts from its record's `deal`: `play` prints it turn
/// by turn and `render` draws it (both replayed from a bare `State::new`
/// before, which failed at turn 1).
#[test]
fn play_and_render_follow_a_game_with_hands() {
    let args = [
        "--agents",
        "greedy,random",
        "--seed",
        "2",
        "--rules",
        "hand=2",
    ];
    let (dir, record, text) = played("pictures-hand", &args);
    assert!(text.contains("  1  seat "), "{text}");
    let svg = dir.join("last.svg");
    ok(&["render", s(&record), "--out", s(&svg)]);
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
}
