//! What results say about the agents, through the built binary: forfeits
//! reported (the printed summary, report.html, the exit code of a run in
//! which an agent forfeited every game), the per-seat `decisions` of
//! games.csv (and folders written before it), and inline bots named by
//! their `label=`.

use crate::common::{bin, games, read, scratch};
use std::path::Path;

/// The misbehaving test bot in `mode` (tests/bots/misbehave.py).
fn bot(mode: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/misbehave.py");
    format!("ext:cmd=python3 {} {mode}", path.display())
}

#[test]
fn a_run_whose_bot_forfeits_every_game_says_so_and_exits_3() {
    let dir = scratch("forfeits-all");
    let agents = format!("{},random", bot("handshake"));
    let out = bin()
        .args([
            "tournament",
            "--agents",
            &agents,
            "--games",
            "2",
            "--seed",
            "3",
        ])
        .args(["--out", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    // One line on stderr naming the agent and the kind of its forfeits.
    let line = stderr.lines().last().unwrap();
    assert!(
        line.starts_with("carcassonne: every game of ext:cmd=") && line.contains("(handshake)"),
        "{stderr}"
    );
    // The printed summary lists the forfeits with their reasons...
    let listed = stdout
        .lines()
        .find(|l| l.starts_with("forfeits: "))
        .unwrap_or_else(|| panic!("no forfeit line in {stdout}"));
    assert!(line.contains("misbehave.py handshake"), "{line}");
    assert!(
        listed.contains("2 of 2 seats: handshake ×2 (handshake: "),
        "{listed}"
    );
    // ...and the results are all written: summary.csv counts them, the
    // report lists them.
    let summary = read(&dir.join("summary.csv"));
    let mut reader = csv::Reader::from_reader(summary.as_bytes());
    let headers = reader.headers().unwrap().clone();
    let column = headers.iter().position(|h| h == "forfeits").unwrap();
    let counts: Vec<String> = reader
        .records()
        .map(|r| r.unwrap()[column].to_string())
        .collect();
    assert_eq!(counts, vec!["2", "0"]);
    let html = read(&dir.join("report.html"));
    assert!(html.contains("<h2>Forfeits</h2>"), "no forfeit section");
    assert!(
        html.contains("<td>handshake</td>"),
        "no reason in the report"
    );
    assert_eq!(
        crate::common::json(&dir.join("run.json"))["status"],
        "finished"
    );
}

#[test]
fn a_run_without_forfeits_prints_none_and_reports_none() {
    let dir = scratch("forfeits-none");
    let out = crate::common::tournament(&dir, &["--agents", "random,greedy", "--games", "2"]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(!stdout.contains("forfeits:"), "{stdout}");
    assert!(!read(&dir.join("report.html")).contains("<h2>Forfeits</h2>"));
}

/// The decisions in a record's turns, per seat: a placement, a gift
/// opened, and after Take 2 the tile kept.
fn record_decisions(record: &serde_json::Value) -> Vec<u64> {
    let players = record["players"].as_u64().unwrap() as usize;
    let mut per_seat = vec![0; players];
    for turn in record["turns"].as_array().unwrap() {
        let seat = turn["player"].as_u64().unwrap() as usize;
        let gift = turn.get("gift_open").filter(|g| !g.is_null());
        per_seat[seat] += u64::from(turn.get("x").is_some_and(|x| !x.is_null()))
            + u64::from(gift.is_some())
            + u64::from(gift.is_some_and(|g| g.get("second").is_some()));
    }
    per_seat
}

#[test]
fn decisions_per_seat_match_the_record_and_the_decide_messages() {
    let dir = scratch("forfeits-decisions");
    let spy = bot("spy");
    let agents = format!("{spy},random,greedy");
    crate::common::tournament(
        &dir,
        &[
            "--agents",
            &agents,
            "--players",
            "3",
            "--games",
            "3",
            "--gifts",
            "--records",
            "--threads",
            "1",
            "--seed",
            "8",
        ],
    );
    let rows = games(&dir);
    let records: Vec<serde_json::Value> = read(&dir.join("records.jsonl"))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3 * 3);
    let mut total = 0;
    for (g, record) in records.iter().enumerate() {
        let expected = record_decisions(record);
        for (seat, n) in expected.iter().enumerate() {
            let row = &rows[3 * g + seat];
            assert_eq!(row["decisions"], n.to_string(), "game {g} seat {seat}");
            total += n;
        }
    }
    assert!(total > 100, "{total}");
    // The bot's own count: one decide answered with an action per decision.
    let log = read(&dir.join("bots/bot-1.log"));
    let mut per_game = Vec::new();
    for line in log.lines().filter_map(|l| l.strip_prefix("got ")) {
        let msg: serde_json::Value = serde_json::from_str(line).unwrap();
        match msg["type"].as_str().unwrap() {
            "new_game" => per_game.push(0),
            "decide" => *per_game.last_mut().unwrap() += 1,
            _ => {}
        }
    }
    let spy_rows: Vec<String> = rows
        .iter()
        .filter(|r| r["agent"] == spy)
        .map(|r| r["decisions"].clone())
        .collect();
    let told: Vec<String> = per_game.iter().map(u64::to_string).collect();
    assert_eq!(spy_rows, told);
}

/// Drop the `decisions` column of `dir`'s games.csv, as folders written
/// before it existed have it.
fn strip_decisions(dir: &Path) {
    let text = read(&dir.join("games.csv"));
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader.headers().unwrap().clone();
    let column = headers.iter().position(|h| h == "decisions").unwrap();
    let mut writer = csv::Writer::from_writer(Vec::new());
    let keep = |r: &csv::StringRecord| -> Vec<String> {
        r.iter()
            .enumerate()
            .filter(|(i, _)| *i != column)
            .map(|(_, f)| f.to_string())
            .collect()
    };
    writer.write_record(keep(&headers)).unwrap();
    for r in reader.records() {
        writer.write_record(keep(&r.unwrap())).unwrap();
    }
    std::fs::write(dir.join("games.csv"), writer.into_inner().unwrap()).unwrap();
}

#[test]
fn folders_without_decisions_resume_merge_and_report() {
    let root = scratch("forfeits-old-folders");
    let args = ["--agents", "random,greedy", "--games", "4", "--seed", "6"];
    // A run stopped after 2 games, its games.csv in the old format.
    let old = root.join("old");
    crate::common::tournament(&old, &[&args[..], &["--stop-after", "2"]].concat());
    strip_decisions(&old);
    crate::common::run(&["tournament", "--resume", old.to_str().unwrap()]);
    let rows = games(&old);
    assert_eq!(rows.len(), 8);
    let decisions: Vec<&str> = rows.iter().map(|r| r["decisions"].as_str()).collect();
    assert!(decisions[..4].iter().all(|d| d.is_empty()), "{decisions:?}");
    assert!(decisions[4..]
        .iter()
        .all(|d| d.parse::<u32>().unwrap() > 20));
    crate::common::run(&["report", old.to_str().unwrap()]);
    // Shards of the old format merge, their decisions empty.
    let mut shards = Vec::new();
    for k in 1..=2 {
        let shard = root.join(format!("shard-{k}"));
        let spec = format!("{k}/2");
        crate::common::tournament(&shard, &[&args[..], &["--shard", &spec]].concat());
        strip_decisions(&shard);
        shards.push(shard.to_str().unwrap().to_string());
    }
    let merged = root.join("merged");
    crate::common::run(&[
        "merge",
        &shards[0],
        &shards[1],
        "--out",
        merged.to_str().unwrap(),
    ]);
    let rows = games(&merged);
    assert_eq!(rows.len(), 8);
    assert!(rows.iter().all(|r| r["decisions"].is_empty()));
    let summary = read(&merged.join("summary.csv"));
    assert!(summary
        .lines()
        .next()
        .unwrap()
        .ends_with(",forfeits,ms_per_decision"));
}

#[test]
fn an_inline_bot_is_named_by_its_label_in_every_output_file() {
    let root = scratch("forfeits-labels");
    let dir = root.join("run");
    let serve = env!("CARGO_BIN_EXE_carcassonne");
    // Two inline bots in one list: c=0.7 stays with the second's command.
    let agents = format!(
        "ext:label=rnd,cmd={serve} serve random,ext:label=tiny,move_ms=20000,cmd={serve} serve mcts:iterations=5,c=0.7"
    );
    let args = [
        "--agents",
        &agents,
        "--games",
        "4",
        "--seed",
        "2",
        "--records",
    ];
    crate::common::tournament(&dir, &[&args[..], &["--stop-after", "1"]].concat());
    // Resuming checks the records against the specs through the labels.
    crate::common::run(&["tournament", "--resume", dir.to_str().unwrap()]);
    let info = crate::common::json(&dir.join("run.json"));
    assert_eq!(info["status"], "finished");
    assert_eq!(info["plan"]["agents"], serde_json::json!(["rnd", "tiny"]));
    assert_eq!(
        info["settings"]["agents"][1].as_str().unwrap(),
        agents
            .split_once(",ext:")
            .map(|(_, b)| format!("ext:{b}"))
            .unwrap()
    );
    for file in [
        "games.csv",
        "summary.csv",
        "pairwise.csv",
        "records.jsonl",
        "report.html",
    ] {
        let text = read(&dir.join(file));
        // The report's settings show run.json's specs, as they are.
        let text = text.split("<h2>Settings</h2>").next().unwrap();
        assert!(text.contains("rnd") && text.contains("tiny"), "{file}");
        assert!(
            !text.contains(" serve "),
            "{file} names a bot by its command"
        );
    }
    let names: Vec<String> = games(&dir).iter().map(|r| r["agent"].clone()).collect();
    assert_eq!(names, ["rnd", "tiny", "tiny", "rnd"].repeat(2));
}
