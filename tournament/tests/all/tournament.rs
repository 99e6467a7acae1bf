//! End-to-end tests of `carcassonne tournament`, `merge`, `play` and their
//! error handling, through the built binary.

use crate::common::*;
use std::path::PathBuf;

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
            "mcts:iterations=5,c=0.5,greedy",
            "--agents",
            "random",
            "--games",
            "2",
        ],
    );
    let run_json = json(&dir.join("run.json"));
    assert_eq!(
        run_json["settings"]["agents"],
        serde_json::json!(["mcts:iterations=5,c=0.5", "greedy", "random"])
    );
    let agents: Vec<String> = games_without_think_ms(&dir)[1..]
        .iter()
        .map(|r| r[3].clone())
        .collect();
    assert!(agents.contains(&"mcts:iterations=5,c=0.5".to_string()));
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
