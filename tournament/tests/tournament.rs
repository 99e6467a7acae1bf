//! End-to-end tests of `carcassonne tournament`, `merge`, `play` and their
//! error handling, through the built binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_carcassonne"))
}

/// A fresh, empty scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("tournament-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> Output {
    let out = bin().args(args).output().expect("the binary runs");
    assert!(
        out.status.success(),
        "carcassonne {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn tournament(out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["tournament", "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    run(&args)
}

const SMALL: &[&str] = &[
    "--agents",
    "random,random:meeple=0.3,greedy",
    "--games",
    "6",
    "--seed",
    "7",
    "--records",
];

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// games.csv without its think_ms column (the only timing column).
fn games_without_think_ms(dir: &Path) -> Vec<Vec<String>> {
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

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&read(path)).unwrap()
}

/// Two folders hold the same results: games (but think_ms), summaries,
/// records and settings.
fn assert_same_results(a: &Path, b: &Path) {
    let games = games_without_think_ms(a);
    assert!(games.len() > 1, "{} has no games", a.display());
    assert_eq!(games, games_without_think_ms(b), "games.csv differs");
    for file in ["summary.csv", "pairwise.csv"] {
        assert_eq!(read(&a.join(file)), read(&b.join(file)), "{file} differs");
    }
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

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let dir = scratch("threads");
    let (one, two) = (dir.join("one"), dir.join("two"));
    tournament(&one, &[SMALL, &["--threads", "1"]].concat());
    tournament(&two, &[SMALL, &["--threads", "2"]].concat());
    assert_same_results(&one, &two);
    let rows = games_without_think_ms(&one);
    // 3 pairings × 6 games × 2 seats, plus the header.
    assert_eq!(rows.len(), 1 + 3 * 6 * 2);
    assert_eq!(json(&one.join("run.json"))["games_finished"], 18);

    // Three seats with two agents: combinations with repetition.
    let (one, two) = (dir.join("three-1"), dir.join("three-2"));
    let three = [
        "--agents",
        "random,greedy",
        "--players",
        "3",
        "--games",
        "4",
    ];
    tournament(&one, &[&three[..], &["--threads", "1"]].concat());
    tournament(&two, &[&three[..], &["--threads", "2"]].concat());
    assert_same_results(&one, &two);
    let plan = &json(&one.join("run.json"))["plan"];
    assert_eq!(
        plan["games_per_pairing"], 6,
        "4 rounded up to 2 × 3 rotations"
    );
    assert_eq!(plan["pairings"].as_array().unwrap().len(), 2);
}

#[test]
fn a_resumed_run_ends_like_an_uninterrupted_one() {
    let dir = scratch("resume");
    let full = dir.join("full");
    tournament(&full, SMALL);

    // Stopped after 7 games, as if killed, then resumed.
    let stopped = dir.join("stopped");
    tournament(&stopped, &[SMALL, &["--stop-after", "7"]].concat());
    assert!(!stopped.join("summary.csv").exists());
    assert_eq!(games_without_think_ms(&stopped).len(), 1 + 7 * 2);
    run(&[
        "tournament",
        "--resume",
        stopped.to_str().unwrap(),
        "--threads",
        "1",
    ]);
    assert_same_results(&full, &stopped);

    // Killed mid-write, 9 games in: (a) during the second row of game 8,
    // after its record; (b) with games.csv ending in half a row and having
    // lost more games than records.jsonl, which ends in half a line.
    for (name, games_cut, records_cut) in [("torn-a", 30, 0), ("torn-b", 200, 500)] {
        let torn = dir.join(name);
        tournament(&torn, &[SMALL, &["--stop-after", "9"]].concat());
        for (file, cut) in [("games.csv", games_cut), ("records.jsonl", records_cut)] {
            let path = torn.join(file);
            let text = read(&path);
            std::fs::write(&path, &text[..text.len() - cut]).unwrap();
        }
        run(&["tournament", "--resume", torn.to_str().unwrap()]);
        assert_same_results(&full, &torn);
        let info = json(&torn.join("run.json"));
        assert_eq!(info["resumed_at"].as_array().unwrap().len(), 1);
    }

    // Resuming a finished run changes nothing.
    run(&["tournament", "--resume", full.to_str().unwrap()]);
    assert_same_results(&stopped, &full);
}

#[test]
fn merged_shards_equal_one_run() {
    let dir = scratch("shards");
    let full = dir.join("full");
    tournament(&full, SMALL);
    let mut shards = Vec::new();
    for k in 1..=3 {
        let shard = dir.join(format!("shard-{k}"));
        let spec = format!("{k}/3");
        tournament(
            &shard,
            &[SMALL, &["--shard", &spec, "--threads", "1"]].concat(),
        );
        shards.push(shard);
    }
    // Any order of the shard folders.
    let merged = dir.join("merged");
    run(&[
        "merge",
        shards[2].to_str().unwrap(),
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert_same_results(&full, &merged);

    // A missing shard is an error, and nothing is written.
    let partial = dir.join("partial");
    let out = bin()
        .args([
            "merge",
            shards[0].to_str().unwrap(),
            shards[1].to_str().unwrap(),
        ])
        .args(["--out", partial.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("shard 3/3 is missing"));
    assert!(!partial.exists());
}

#[test]
fn replaying_the_records_reproduces_the_scores() {
    replay_matches_csv("replay", &[]);
}

#[test]
fn with_the_gifts_records_replay_and_gift_points_are_reported() {
    let dir = replay_matches_csv("replay-gifts", &["--gifts"]);
    let run = json(&dir.join("run.json"));
    assert_eq!(run["settings"]["rules"]["gifts"], true, "{run}");
    let records = read(&dir.join("records.jsonl"));
    assert!(records.contains("\"gift_received\""), "gifts were dealt");
}

/// A 3-seat tournament with records; its replayed scores equal games.csv.
fn replay_matches_csv(name: &str, extra: &[&str]) -> PathBuf {
    let dir = scratch(name).join("run");
    let mut args = vec![
        "--agents",
        "random,greedy,random:meeple=0.3",
        "--players",
        "3",
        "--games",
        "3",
        "--records",
    ];
    args.extend_from_slice(extra);
    tournament(&dir, &args);
    let out = run(&["replay", dir.join("records.jsonl").to_str().unwrap()]);
    let replayed: Vec<Vec<u64>> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["finished"], true);
            v["scores"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["total"].as_u64().unwrap())
                .collect()
        })
        .collect();
    let rows = games_without_think_ms(&dir);
    let from_csv: Vec<Vec<u64>> = rows[1..]
        .chunks(3)
        .map(|game| game.iter().map(|r| r[4].parse().unwrap()).collect())
        .collect();
    assert_eq!(replayed.len(), 3);
    assert_eq!(replayed, from_csv);
    dir
}

#[test]
fn agent_lists_split_at_commas_outside_parameters() {
    let dir = scratch("split").join("run");
    tournament(
        &dir,
        &[
            "--agents",
            "random:meeple=0.25,meeple=0.5,greedy",
            "--agents",
            "random",
            "--games",
            "2",
        ],
    );
    let run_json = json(&dir.join("run.json"));
    assert_eq!(
        run_json["settings"]["agents"],
        serde_json::json!(["random:meeple=0.25,meeple=0.5", "greedy", "random"])
    );
    let agents: Vec<String> = games_without_think_ms(&dir)[1..]
        .iter()
        .map(|r| r[3].clone())
        .collect();
    assert!(agents.contains(&"random:meeple=0.25,meeple=0.5".to_string()));
}

#[test]
fn sprt_stops_early_and_records_its_decision() {
    let dir = scratch("sprt");
    let args = [
        "--agents",
        "greedy,random",
        "--games",
        "400",
        "--sprt",
        "0,100",
    ];
    let (one, two) = (dir.join("one"), dir.join("two"));
    tournament(&one, &[&args[..], &["--threads", "1"]].concat());
    tournament(&two, &[&args[..], &["--threads", "2"]].concat());
    assert_same_results(&one, &two);
    let info = json(&one.join("run.json"));
    assert_eq!(info["status"], "sprt");
    assert_eq!(info["sprt"]["decision"], "H1");
    let games = info["games_finished"].as_u64().unwrap();
    assert!(games < 400 && games % 2 == 0, "{games}");
    assert_eq!(info["sprt"]["games"], games);
    assert_eq!(games_without_think_ms(&one).len() as u64, 1 + 2 * games);
    // Game pairs (one deck, seats swapped) are the observations.
    assert_eq!(info["sprt"]["model"], "pentanomial");
    let pairs: u64 = info["sprt"]["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(2 * pairs, games);
    let trace = info["sprt"]["trace"].as_array().unwrap();
    assert_eq!(trace.last().unwrap()["games"], games);
    assert_eq!(trace.last().unwrap()["llr"], info["sprt"]["llr"]);
}

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

#[test]
fn play_prints_a_game_and_writes_a_replayable_record() {
    let dir = scratch("play");
    let record = dir.join("game.json");
    let out = run(&[
        "play",
        "--agents",
        "greedy,random",
        "--seed",
        "3",
        "--out",
        record.to_str().unwrap(),
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("final scores"), "{text}");
    assert!(text.lines().count() > 60, "one line per turn");
    let replay = run(&["replay", record.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&replay.stdout).contains("\"finished\":true"));
}

#[test]
fn bad_input_exits_non_zero_with_one_line_and_writes_nothing() {
    let dir = scratch("bad");
    let a_file = dir.join("a-file");
    std::fs::write(&a_file, "not a folder").unwrap();
    let not_a_run = dir.join("not-a-run");
    std::fs::create_dir_all(&not_a_run).unwrap();
    let under_file = a_file.join("out");
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["tournament", "--agents", "random,nobody", "--out", o],
            "unknown agent",
        ),
        (
            vec![
                "tournament",
                "--agents",
                "random,greedy",
                "--games",
                "18446744073709551615",
                "--out",
                o,
            ],
            "more than",
        ),
        (
            vec![
                "tournament",
                "--agents",
                "random,greedy",
                "--threads",
                "100000",
                "--out",
                o,
            ],
            "--threads must be at most",
        ),
        (
            vec![
                "tournament",
                "--agents",
                "random,greedy",
                "--players",
                "3",
                "--sprt",
                "0,10",
                "--out",
                o,
            ],
            "2-player",
        ),
        (
            vec![
                "tournament",
                "--agents",
                "random,random:speed=2",
                "--out",
                o,
            ],
            "meeple",
        ),
        (
            vec!["tournament", "--agents", "random", "--out", o],
            "at least 2 agents",
        ),
        (
            vec![
                "tournament",
                "--agents",
                "random,greedy",
                "--players",
                "1",
                "--out",
                o,
            ],
            "--players",
        ),
        (
            vec![
                "tournament",
                "--agents",
                "random,greedy",
                "--games",
                "0",
                "--out",
                o,
            ],
            "--games",
        ),
        (
            vec![
                "tournament",
                "--agents",
                "random,greedy",
                "--shard",
                "4/3",
                "--out",
                o,
            ],
            "--shard",
        ),
        (
            vec![
                "tournament",
                "--agents",
                "random,greedy",
                "--sprt",
                "10",
                "--out",
                o,
            ],
            "--sprt",
        ),
        (
            vec![
                "tournament",
                "--agents",
                "random,greedy",
                "--threads",
                "0",
                "--out",
                o,
            ],
            "--threads",
        ),
        (
            vec![
                "tournament",
                "--agents",
                "random,greedy",
                "--out",
                under_file.to_str().unwrap(),
            ],
            "not a folder",
        ),
        (
            vec!["tournament", "--resume", not_a_run.to_str().unwrap()],
            "not a tournament",
        ),
        (
            vec!["tournament", "--resume", a_file.to_str().unwrap()],
            "not a tournament",
        ),
        (vec!["bench", "--games", "0"], "--games"),
        (vec!["bench", "--rounds", "0"], "--rounds"),
        (
            vec!["play", "--agents", "random,nobody", "--out", o],
            "unknown agent",
        ),
        (
            vec!["play", "--agents", "random", "--players", "1", "--out", o],
            "--players",
        ),
        (
            vec!["play", "--out", a_file.to_str().unwrap()],
            "already exists",
        ),
        (
            vec!["merge", not_a_run.to_str().unwrap(), "--out", o],
            "not a tournament",
        ),
    ];
    for (args, needle) in cases {
        let result = bin().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert!(!result.status.success(), "{args:?} succeeded");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.contains(needle),
            "{args:?}: {stderr:?} lacks {needle:?}"
        );
        assert!(!out.exists(), "{args:?} created {o}");
    }
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
    let out = bin().args(["merge", "--out", "x"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("required arguments were not provided"),
        "{err}"
    );
    assert!(err.contains("<DIRS>..."), "{err}");
    assert!(err.contains("Usage: carcassonne merge"), "{err}");
    let out = bin()
        .args(["tournament", "--games", "many"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("invalid value 'many' for '--games <GAMES>'"),
        "{err}"
    );
    assert!(err.contains("invalid digit"), "{err}");
    assert!(err.contains("--help"), "{err}");
}

#[test]
fn play_with_the_gifts_writes_a_gifts_record_that_replays() {
    let dir = scratch("play-gifts");
    let record = dir.join("game.json");
    let out = run(&[
        "play",
        "--agents",
        "greedy,random",
        "--seed",
        "4",
        "--gifts",
        "--out",
        record.to_str().unwrap(),
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("received"),
        "gifts are dealt and shown: {text}"
    );
    let saved = json(&record);
    assert_eq!(saved["rules"]["gifts"], true);
    let replay = run(&["replay", record.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&replay.stdout).contains("\"finished\":true"));
}

#[test]
fn resume_and_merge_refuse_a_run_json_with_impossible_settings() {
    let dir = scratch("corrupt").join("run");
    tournament(
        &dir,
        &[
            "--agents",
            "random,random",
            "--games",
            "2",
            "--shard",
            "1/1",
        ],
    );
    let path = dir.join("run.json");
    let mut run_json = json(&path);
    run_json["settings"]["players"] = serde_json::json!(0);
    std::fs::write(&path, serde_json::to_string(&run_json).unwrap()).unwrap();
    for args in [
        vec!["tournament", "--resume", dir.to_str().unwrap()],
        vec![
            "merge",
            dir.to_str().unwrap(),
            "--out",
            dir.parent().unwrap().join("merged").to_str().unwrap(),
        ],
    ] {
        let out = bin().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("players must be 2 to 6"), "{err}");
    }
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
