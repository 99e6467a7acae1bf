//! End-to-end tests of `carcassonne analyze-game` through the built
//! binary.

use crate::common::{fails, ok, scratch};
use std::path::Path;

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn analyze_game_writes_json_and_csv_and_repeats_for_a_seed() {
    let dir = scratch("analyze-game");
    let record = dir.join("game.json");
    ok(&[
        "play",
        "--agents",
        "greedy,random",
        "--seed",
        "2",
        "--gifts",
        "--out",
        s(&record),
    ]);
    let (json, csv) = (dir.join("a.json"), dir.join("a.csv"));
    let args = [
        "analyze-game",
        s(&record),
        "--agent",
        "mcts:iterations=60",
        "--top",
        "3",
        "--out",
        s(&json),
        "--csv",
        s(&csv),
    ];
    let text = ok(&args);
    assert!(
        text.contains("seat 0 greedy") && text.contains("seat 1 random"),
        "{text}"
    );
    let first = std::fs::read_to_string(&json).unwrap();
    let v: serde_json::Value = serde_json::from_str(&first).unwrap();
    assert_eq!(v["format"], "carcassonne-analysis/1");
    let decisions = v["decisions"].as_array().unwrap();
    assert!(decisions.len() >= 71, "{}", decisions.len());
    assert!(decisions
        .iter()
        .all(|d| d["top"].as_array().unwrap().len() <= 3));
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(rows.lines().count(), decisions.len() + 1);
    assert!(rows.starts_with("decision,turn,seat,kind,"));
    // The same seed, the same analysis.
    ok(&args);
    assert_eq!(std::fs::read_to_string(&json).unwrap(), first);
    // The default output sits beside the record.
    ok(&["analyze-game", s(&record), "--agent", "greedy"]);
    assert!(dir.join("game.analysis.json").exists());
}

#[test]
fn bad_analyze_game_arguments_are_one_line_errors() {
    let dir = scratch("analyze-game-errors");
    let record = dir.join("game.json");
    ok(&[
        "play",
        "--agents",
        "greedy,random",
        "--seed",
        "1",
        "--out",
        s(&record),
    ]);
    let err = fails(&["analyze-game", s(&record), "--agent", "mcts:iterations=x"]);
    assert!(
        err.contains("--agent") && err.contains("iterations"),
        "{err}"
    );
    let err = fails(&[
        "analyze-game",
        s(&record),
        "--agent",
        "greedy",
        "--mistake",
        "5",
        "--blunder",
        "2",
    ]);
    assert!(err.contains("--mistake"), "{err}");
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"players": 2, "turns": [{"player": 0, "tile": "U", "x": 5, "y": 5, "rot": 0}]}"#,
    )
    .unwrap();
    let err = fails(&["analyze-game", s(&bad), "--agent", "greedy"]);
    assert!(err.contains("turn 1") && err.contains("bad.json"), "{err}");
}
