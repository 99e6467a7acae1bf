//! Helpers shared by the end-to-end tests: run the built binary, scratch
//! folders, read results.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_carcassonne"))
}

/// A fresh, empty scratch folder for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("tournament-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn run(args: &[&str]) -> Output {
    let out = bin().args(args).output().expect("the binary runs");
    assert!(
        out.status.success(),
        "carcassonne {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Run the binary, which must succeed; its stdout.
pub fn ok(args: &[&str]) -> String {
    String::from_utf8(run(args).stdout).unwrap()
}

/// Run the binary, which must fail with exit code `code`; its stderr.
pub fn fails_with(args: &[&str], code: i32) -> String {
    let out = bin().args(args).output().expect("the binary runs");
    assert_eq!(out.status.code(), Some(code), "carcassonne {args:?}");
    String::from_utf8(out.stderr).unwrap()
}

/// A one-line error on stderr and exit code 1.
pub fn fails(args: &[&str]) -> String {
    let err = fails_with(args, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

pub fn tournament(out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["tournament", "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    run(&args)
}

pub const SMALL: &[&str] = &[
    "--agents",
    "random,random:meeple=0.3,greedy",
    "--games",
    "6",
    "--seed",
    "7",
    "--records",
];

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// games.csv without its think_ms column (the only timing column).
pub fn games_without_think_ms(dir: &Path) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(dir.join("games.csv"))
        .unwrap();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            r.iter()
                .enumerate()
                .filter(|(i, _)| *i != 14)
                .map(|(_, f)| f.to_string())
                .collect()
        })
        .collect()
}

/// summary.csv without its ms_per_decision column (the only timing
/// column).
pub fn summary_without_timing(dir: &Path) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(dir.join("summary.csv"))
        .unwrap();
    let rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    let timing = rows[0].iter().position(|h| h == "ms_per_decision");
    rows.into_iter()
        .map(|r| {
            r.into_iter()
                .enumerate()
                .filter(|(i, _)| Some(*i) != timing)
                .map(|(_, c)| c)
                .collect()
        })
        .collect()
}

pub fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&read(path)).unwrap()
}

/// Two folders hold the same results: games (but think_ms), summaries,
/// records and settings.
pub fn assert_same_results(a: &Path, b: &Path) {
    let games = games_without_think_ms(a);
    assert!(games.len() > 1, "{} has no games", a.display());
    assert_eq!(games, games_without_think_ms(b), "games.csv differs");
    assert_eq!(
        summary_without_timing(a),
        summary_without_timing(b),
        "summary.csv differs"
    );
    assert_eq!(
        read(&a.join("pairwise.csv")),
        read(&b.join("pairwise.csv")),
        "pairwise.csv differs"
    );
    let records = a.join("records.jsonl");
    if records.exists() {
        assert_eq!(read(&records), read(&b.join("records.jsonl")));
    }
    let (ra, rb) = (json(&a.join("run.json")), json(&b.join("run.json")));
    for key in ["plan", "games_finished", "status"] {
        assert_eq!(ra[key], rb[key], "run.json {key} differs");
    }
    let mut sa = ra["settings"].clone();
    let mut sb = rb["settings"].clone();
    sa["shard"] = serde_json::Value::Null;
    sb["shard"] = serde_json::Value::Null;
    assert_eq!(sa, sb);
}

/// games.csv as rows of named fields.
pub fn games(dir: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_path(dir.join("games.csv")).unwrap();
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            headers
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}
