//! End-to-end regressions of issue 8 (the toolkit tried as a new user
//! would): SPRT on tiny samples, partial replays, clap messages, Ctrl-C and
//! resuming over corrupt files, through the built binary.

use crate::common::*;
use std::path::Path;
use std::process::Command;

/// Issue 8: `--agents random,random --sprt 0,10 --seed 8` "accepted H1
/// after 2 games (LLR 22.7)". Two identical agents must not decide on a
/// handful of games.
#[test]
fn sprt_does_not_decide_on_a_tiny_sample() {
    let dir = scratch("sprt-tiny").join("run");
    let args = [
        "--agents",
        "random,random",
        "--games",
        "600",
        "--sprt",
        "0,10",
        "--seed",
        "8",
    ];
    tournament(&dir, &args);
    let info = json(&dir.join("run.json"));
    let games = info["games_finished"].as_u64().unwrap();
    assert!(games >= 50, "decided after {games} games");
    assert_ne!(info["sprt"]["decision"], "H1");
}

/// Issue 8: replay was all-or-nothing. Every good record is reported on
/// stdout, every bad one on stderr with its line, and the exit is non-zero.
#[test]
fn replay_reports_good_records_and_fails_on_bad_ones() {
    let dir = scratch("replay-partial");
    let good = r#"{"players": 2, "turns": [{"player": 0, "tile": "U", "x": 1, "y": 0, "rot": 1}]}"#;
    let wrong_format = r#"{"format": "chess-pgn/1", "players": 2, "turns": []}"#;
    let unknown_rule =
        r#"{"players": 2, "rules": {"farmers": true, "dragons": true}, "turns": []}"#;
    let path = dir.join("mixed.jsonl");
    std::fs::write(
        &path,
        format!("{good}\n{wrong_format}\n{good}\n{unknown_rule}\n"),
    )
    .unwrap();
    let out = bin()
        .args(["replay", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("mixed.jsonl:2: format \"chess-pgn/1\""),
        "{err}"
    );
    assert!(err.contains("mixed.jsonl:4:"), "{err}");
    assert!(err.contains("unknown field `dragons`"), "{err}");
    assert!(err.contains("2 of 4 records failed"), "{err}");
}

/// Issue 8: clap's message was cut to its first line ("the following
/// required arguments were not provided:" and nothing after it).
#[test]
fn clap_errors_print_the_whole_message() {
    let err = fails_with(&["merge", "--out", "x"], 2);
    assert!(
        err.contains("required arguments were not provided"),
        "{err}"
    );
    assert!(err.contains("<DIRS>..."), "{err}");
    assert!(err.contains("Usage: carcassonne merge"), "{err}");
    let err = fails_with(&["tournament", "--games", "many"], 2);
    assert!(
        err.contains("invalid value 'many' for '--games <GAMES>'"),
        "{err}"
    );
    assert!(err.contains("invalid digit"), "{err}");
    assert!(err.contains("--help"), "{err}");
}

/// Issue 8: Ctrl-C printed nothing and left run.json `running` with 0
/// games. SIGINT to a running tournament: the complete games are written,
/// run.json says `interrupted` with their count, the exit code is 130 and
/// the output says how to resume.
#[test]
fn sigint_stops_a_run_cleanly_and_says_how_to_resume() {
    let dir = scratch("sigint").join("run");
    let child = bin()
        .args([
            "tournament",
            "--agents",
            "greedy,random",
            "--games",
            "100000",
        ])
        .args(["--threads", "2", "--out", dir.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for a few games on disk (at most ~60 s).
    let games_csv = dir.join("games.csv");
    for _ in 0..600 {
        if std::fs::read_to_string(&games_csv).is_ok_and(|t| t.lines().count() > 10) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("--resume {}", dir.display())),
        "{stdout}"
    );
    let info = json(&dir.join("run.json"));
    assert_eq!(info["status"], "interrupted");
    let finished = info["games_finished"].as_u64().unwrap();
    assert!(finished > 0 && finished < 200_000, "{finished}");
    let rows = games_without_think_ms(&dir);
    assert_eq!(rows.len() as u64, 1 + 2 * finished);
    assert!(read(&games_csv).ends_with('\n'));
    assert!(dir.join("summary.csv").is_file());
}

/// Issue 8: `--resume` kept a corrupt records.jsonl line. Real corruption
/// (not a torn last line) is refused with its file and line, nothing is
/// changed, and a resume that fails leaves no `.tmp` file.
#[test]
fn resume_refuses_corrupt_files_and_leaves_no_temporary_files() {
    let dir = scratch("resume-corrupt");
    let make = |name: &str| {
        let run = dir.join(name);
        tournament(&run, &[SMALL, &["--stop-after", "6"]].concat());
        run
    };
    let resume = |run: &Path| {
        bin()
            .args(["tournament", "--resume", run.to_str().unwrap()])
            .output()
            .unwrap()
    };
    let no_tmp = |run: &Path| {
        for entry in std::fs::read_dir(run).unwrap() {
            let name = entry.unwrap().file_name();
            assert!(!name.to_string_lossy().ends_with(".tmp"), "{name:?} left");
        }
    };

    let records = make("records");
    let path = records.join("records.jsonl");
    let mut lines: Vec<String> = read(&path).lines().map(String::from).collect();
    lines[2] = lines[2].replace("\"turns\"", "\"turnz\"");
    let corrupt = lines.join("\n") + "\n";
    std::fs::write(&path, &corrupt).unwrap();
    let out = resume(&records);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("records.jsonl:3: not a game record"), "{err}");
    assert!(err.contains("cannot be resumed"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert_eq!(read(&path), corrupt);
    no_tmp(&records);

    let games = make("games");
    let path = games.join("games.csv");
    let text = read(&path).replacen(",win,", ",wn,", 1);
    std::fs::write(&path, &text).unwrap();
    let err = String::from_utf8_lossy(&resume(&games).stderr).to_string();
    assert!(err.contains("games.csv line"), "{err}");
    assert_eq!(read(&path), text);
    no_tmp(&games);

    // A failure while rewriting the kept games removes the new file.
    let blocked = make("blocked");
    std::fs::create_dir(blocked.join("records.jsonl.tmp")).unwrap();
    let out = resume(&blocked);
    assert!(!out.status.success());
    assert!(!blocked.join("games.csv.tmp").exists());
}
