//! End-to-end tests of external bots (docs/PROTOCOL.md) through the built
//! binary: `serve` round trips, the Python client, misbehaving bots and
//! what a bot is sent.

use crate::common::{games, scratch, tournament};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The binary's path, for `ext:cmd=` specs.
fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_carcassonne")
}

/// A file of the repository.
fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
        .display()
        .to_string()
}

/// The `ext:` spec serving `agent` through this binary.
fn served(agent: &str) -> String {
    format!("ext:cmd={} serve {agent}", bin())
}

/// The agents of the round trips.
const SERVED: [&str; 3] = ["random", "greedy", "mcts:iterations=25,c=0.7"];

/// Play `args` between `agents` in-process and again served through the
/// protocol on `threads` threads: the games must be the same. Returns the
/// served run's folder.
fn round_trip(name: &str, args: &[&str], agents: &[&str], threads: &str) -> PathBuf {
    let name: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let (inside, outside) = (
        scratch(&format!("external-{name}-in")),
        scratch(&format!("external-{name}-ext")),
    );
    // In-process agents get the seeds a bot is sent (a hidden test hook):
    // a bot never gets the agent seed itself (docs/PROTOCOL.md).
    let keyed = ["--agents", &agents.join(","), "--keyed-agent-seeds"];
    tournament(&inside, &[args, &keyed].concat());
    let ext: Vec<String> = agents.iter().map(|a| served(a)).collect();
    let ext_args = ["--agents", &ext.join(","), "--threads", threads];
    tournament(&outside, &[args, &ext_args].concat());
    assert_same_games(&inside, &outside, &name);
    outside
}

#[test]
fn served_agents_play_the_same_games_as_in_process_ones() {
    // The rule variants reach the bot through new_game's rules object.
    let hole = Some("hole_bonus=true,final_incomplete=false");
    let cases = [
        (2, false, None),
        (3, true, None),
        (4, false, None),
        (2, true, None),
        (4, true, None),
        (3, false, hole),
    ];
    for (players, gifts, rules) in cases {
        let name = format!("round-trip-{players}-{gifts}-{}", rules.is_some());
        let players = players.to_string();
        let mut args = vec!["--games", "1", "--players", &players, "--seed", "5"];
        if gifts {
            args.push("--gifts");
        }
        if let Some(rules) = rules {
            args.extend(["--rules", rules]);
        }
        // Reproducible for any --threads: the bots run on one thread here.
        let threads = if players == "2" { "1" } else { "2" };
        round_trip(&name, &args, &SERVED, threads);
    }
}

#[test]
fn served_agents_play_the_same_games_with_hands_of_tiles() {
    let cases = [
        (2, "hand=1"),
        (3, "hand=2"),
        (2, "hand=3"),
        (4, "hand=3"),
        (2, "hand=1,hand_visible=true"),
        (3, "hand=3,hand_visible=true,hole_bonus=true"),
    ];
    for (players, rules) in cases {
        let players = players.to_string();
        let args = ["--games", "1", "--players", &players, "--seed", "9"];
        let args = [&args[..], &["--rules", rules]].concat();
        round_trip(&format!("hands-{players}-{rules}"), &args, &SERVED, "2");
    }
}

#[test]
fn served_agents_play_the_same_games_with_the_table_return_and_start_in_bag() {
    // Issue 11: `serve` exited on start_in_bag (no start tile was sent);
    // hidden hands returning unplaceable tiles to the bag.
    let cases = [
        (2, "table=5x5,table_closes=true"),
        (3, "unplaceable=return"),
        (2, "start_in_bag=true"),
        (3, "start_in_bag=true,hand=2"),
        (2, "hand=2,unplaceable=return"),
        (3, "hand=2,unplaceable=return,table=7x5"),
        // Hands left short by a bag of only unplaceable tiles.
        (2, "hand=2,unplaceable=return,table=5x5"),
        (3, "hand=3,unplaceable=return,table=5x5,table_closes=true"),
    ];
    for (players, rules) in cases {
        let players = players.to_string();
        let args = ["--games", "2", "--players", &players, "--seed", "13"];
        let args = [&args[..], &["--rules", rules]].concat();
        round_trip(&format!("variants-{players}-{rules}"), &args, &SERVED, "2");
    }
}

/// The games.csv of `outside` (served agents) equals that of `inside`
/// (the same agents in-process) but for think times and agent names.
fn assert_same_games(inside: &Path, outside: &Path, name: &str) {
    let (a, b) = (games(inside), games(outside));
    assert!(!a.is_empty());
    assert_eq!(a.len(), b.len(), "{name}");
    for (x, y) in a.iter().zip(&b) {
        for (key, value) in x {
            match key.as_str() {
                "think_ms" => {}
                "agent" => assert_eq!(&y[key], &served(value), "{name}"),
                _ => assert_eq!(&y[key], value, "{name}: column {key}"),
            }
        }
        assert_eq!(y["forfeit"], "", "{name}");
    }
}

#[test]
fn served_agents_play_the_same_shards_and_sprt_runs() {
    let shard: &[&str] = &["--shard", "2/3", "--games", "6"];
    let sprt: &[&str] = &["--sprt", "0,400", "--games", "60"];
    for (name, extra) in [("shard", shard), ("sprt", sprt)] {
        let args = [extra, &["--seed", "3", "--players", "2"]].concat();
        let outside = round_trip(name, &args, &["greedy", "random"], "2");
        if name == "sprt" {
            // 60 games of 2 seats planned; the test decided before.
            assert!(games(&outside).len() < 120, "the SPRT stops the run");
        }
    }
}

#[test]
fn the_python_bots_play_a_game_with_hands_of_tiles_and_the_start_in_the_bag() {
    let bot = format!("ext:cmd=python3 {}", repo("clients/python/random_bot.py"));
    let example = format!("ext:cmd=python3 {}", repo("clients/python/monk_bot.py"));
    let agents = format!("{bot},greedy,{example}");
    for (name, rules) in [("hands", "hand=2"), ("start", "start_in_bag=true,hand=2")] {
        let dir = scratch(&format!("external-python-{name}"));
        let args = ["--agents", &agents, "--games", "1", "--players", "3"];
        tournament(&dir, &[&args[..], &["--rules", rules]].concat());
        let rows = games(&dir);
        assert_eq!(rows.len(), 9, "3 seat rotations of 3 seats");
        assert!(rows.iter().all(|r| r["forfeit"].is_empty()), "{rows:?}");
        assert!(rows.iter().all(|r| r["turns"] == "71"), "{rows:?}");
    }
}

#[test]
fn the_python_random_bot_plays_a_tournament_against_greedy() {
    let dir = scratch("external-python");
    let bot = format!("ext:cmd=python3 {}", repo("clients/python/random_bot.py"));
    let example = format!("ext:cmd=python3 {}", repo("clients/python/monk_bot.py"));
    let agents = format!("{bot},greedy,{example}");
    tournament(&dir, &["--agents", &agents, "--games", "2", "--gifts"]);
    let rows = games(&dir);
    assert_eq!(rows.len(), 12);
    assert!(rows.iter().all(|r| r["forfeit"].is_empty()), "{rows:?}");
    let bot_wins = rows
        .iter()
        .filter(|r| r["agent"] == bot && r["result"] == "win")
        .count();
    let greedy: Vec<_> = rows.iter().filter(|r| r["agent"] == "greedy").collect();
    assert_eq!(greedy.len(), 4);
    assert!(greedy.iter().all(|r| r["result"] == "win"), "{greedy:?}");
    assert!(
        bot_wins < 2,
        "random should not beat the monk bot and greedy"
    );
}

/// The pids a misbehaving bot logged: itself and its grandchild.
fn logged_pids(dir: &Path) -> Vec<u32> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir(dir.join("bots")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for line in text.lines().filter(|l| l.starts_with("pids ")) {
            pids.extend(line.split(' ').skip(1).map(|p| p.parse::<u32>().unwrap()));
        }
    }
    pids
}

/// The process is gone, or a zombie of another parent (killed, not
/// running), within a second (a killed process takes a moment to die).
fn is_gone(pid: u32) -> bool {
    let dead = || match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => {
            let state = stat.rsplit(')').next().unwrap().trim_start();
            state.starts_with('Z') || state.starts_with('X')
        }
    };
    (0..100).any(|_| {
        dead() || {
            std::thread::sleep(std::time::Duration::from_millis(10));
            false
        }
    })
}

/// Run the binary with `args`; it must end with exit code `code` within
/// `secs` seconds (it is killed and the test fails otherwise: a hang is a
/// failure, not a test that never ends).
fn run_within(args: &[&str], secs: u64, code: i32) -> std::process::Output {
    let mut child = Command::new(bin())
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let end = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > end {
            child.kill().unwrap();
            panic!("carcassonne {args:?} still runs after {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "carcassonne {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Play `mode` against random; the bot's forfeits must start with `reason`.
fn misbehave(mode: &str, move_ms: u64, reason: Option<&str>) {
    misbehave_with(mode, &format!("move_ms={move_ms}"), reason)
}

/// [`misbehave`] with the spec's `limits`.
fn misbehave_with(mode: &str, limits: &str, reason: Option<&str>) {
    let dir = scratch(&format!("external-misbehave-{mode}"));
    let bot = format!(
        "ext:{limits},cmd=python3 {} {mode}",
        repo("tournament/tests/bots/misbehave.py")
    );
    let out = dir.join("run");
    let agents = format!("{bot},random");
    let args = ["tournament", "--out", out.to_str().unwrap()];
    // A bot that forfeits every game makes the run exit with code 3.
    let code = if reason.is_some() { 3 } else { 0 };
    run_within(
        &[&args[..], &["--agents", &agents, "--games", "2"]].concat(),
        120,
        code,
    );
    let dir = out;
    let rows = games(&dir);
    assert_eq!(rows.len(), 4, "{mode}: the run finishes");
    for row in &rows {
        let forfeit = &row["forfeit"];
        match (row["agent"] == bot, reason) {
            (true, Some(reason)) => {
                assert!(forfeit.starts_with(reason), "{mode}: {forfeit:?}");
                assert_eq!(row["result"], "loss");
            }
            _ => assert_eq!(forfeit, "", "{mode}"),
        }
    }
    let pids = logged_pids(&dir);
    assert!(pids.len() >= 3, "{mode}: {pids:?}");
    for pid in pids {
        assert!(is_gone(pid), "{mode}: process {pid} is left");
    }
}

#[test]
fn a_bot_that_sleeps_past_its_limit_forfeits() {
    misbehave("sleep", 400, Some("timeout: no answer within 400 ms"));
}

#[test]
fn a_bot_that_uses_up_its_game_time_forfeits() {
    // 50 ms a move: well within the move limit, but the game's 600 ms run
    // out after a dozen moves.
    misbehave_with(
        "slow",
        "move_ms=2000,game_ms=600",
        Some("timeout: no answer within"),
    );
}

#[test]
fn a_bot_that_exits_forfeits() {
    misbehave("exit", 2000, Some("exited"));
}

#[test]
fn a_bot_that_prints_garbage_forfeits() {
    misbehave("garbage", 2000, Some("bad line"));
}

#[test]
fn a_bot_that_prints_a_100_mb_line_forfeits() {
    // A generous limit: building 100 MB in Python is slow on a loaded machine.
    misbehave("huge", 20_000, Some("line too long"));
}

#[test]
fn a_bot_that_answers_an_illegal_action_forfeits() {
    misbehave("illegal", 2000, Some("illegal action"));
}

#[test]
fn a_bot_may_answer_in_record_notation_or_by_action_id() {
    misbehave("notation", 2000, None);
    misbehave("ids", 2000, None);
}

#[test]
fn a_bot_that_answers_for_another_seat_forfeits() {
    misbehave("seat", 2000, Some("wrong seat"));
}

#[test]
fn a_bot_that_floods_stderr_forfeits() {
    misbehave("flood", 2000, Some("stderr flood"));
}

#[test]
fn a_bot_that_speaks_another_protocol_forfeits() {
    misbehave("handshake", 2000, Some("handshake"));
}

#[test]
fn a_bot_that_stops_reading_its_stdin_times_out_and_is_killed() {
    // Issue 27: it blocked the toolkit's write for ever (it also ignores
    // SIGTERM); now writes have the move's deadline.
    misbehave(
        "deaf",
        1000,
        Some("timeout: it read no input within 1000 ms"),
    );
}

#[test]
fn a_stale_line_is_not_taken_as_the_answer_to_the_next_question() {
    // Issue 27: a second answer was read as the answer to the next decide
    // (here an illegal index: a forfeit), or as the next game's `ready`.
    misbehave("twice", 2000, None);
    // Answers naming an earlier request are skipped.
    misbehave("stale", 2000, None);
}

#[test]
fn a_bot_line_that_is_not_utf8_forfeits() {
    misbehave("latin1", 2000, Some("bad line: not UTF-8"));
}

#[test]
fn a_grandchild_in_a_session_of_its_own_is_killed_after_the_game() {
    // Issue 27: a `setsid` grandchild escaped the process-group kill.
    // misbehave.py starts one; every misbehave test checks it is gone.
    misbehave_with("notation", "move_ms=2000,persist=false", None);
}

/// The three pids a misbehaving bot logged in `dir/bots`, once logged.
fn pids_when_logged(dir: &Path) -> Option<Vec<u32>> {
    for entry in std::fs::read_dir(dir.join("bots")).ok()? {
        let text = std::fs::read_to_string(entry.ok()?.path()).ok()?;
        for line in text.lines().filter(|l| l.starts_with("pids ")) {
            let pids: Vec<u32> = line
                .split(' ')
                .skip(1)
                .filter_map(|p| p.parse().ok())
                .collect();
            if pids.len() == 3 && text.contains(&format!("{line}\n")) {
                return Some(pids);
            }
        }
    }
    None
}

#[test]
fn killing_the_toolkit_with_sigkill_leaves_no_bot_process() {
    // Issue 27: bots outlived a kill -9 (or a second Ctrl-C) of the toolkit.
    let dir = scratch("external-kill-9");
    let out = dir.join("run");
    let bot = format!(
        "ext:move_ms=30000,cmd=python3 {} sleep",
        repo("tournament/tests/bots/misbehave.py")
    );
    let mut toolkit = Command::new(bin())
        .args(["tournament", "--out", out.to_str().unwrap()])
        .args(["--agents", &format!("{bot},random"), "--games", "2"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let end = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let pids = loop {
        if let Some(pids) = pids_when_logged(&out) {
            break pids;
        }
        assert!(std::time::Instant::now() < end, "the bot never started");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    // Let it reach its third decision (where it sleeps).
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(toolkit.try_wait().unwrap().is_none(), "the run is still on");
    toolkit.kill().unwrap();
    toolkit.wait().unwrap();
    for pid in pids {
        assert!(is_gone(pid), "process {pid} outlived the toolkit");
    }
}

#[test]
fn a_bot_that_ignores_quit_is_killed_and_loses_nothing() {
    misbehave("ignore_quit", 2000, None);
}

/// A spy bot (it logs every line it receives) as seat 0 of a tournament
/// with `args` against random and greedy: per bot process, the messages
/// it received, in order.
fn spy(name: &str, args: &[&str]) -> Vec<Vec<serde_json::Value>> {
    let dir = scratch(name);
    let bot = format!(
        "ext:cmd=python3 {} spy",
        repo("tournament/tests/bots/misbehave.py")
    );
    let agents = format!("{bot},random,greedy");
    tournament(&dir, &[&["--agents", &agents][..], args].concat());
    let mut logs = Vec::new();
    for entry in std::fs::read_dir(dir.join("bots")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let lines = text.lines().filter_map(|l| l.strip_prefix("got "));
        logs.push(lines.map(|l| serde_json::from_str(l).unwrap()).collect());
    }
    logs
}

/// The keys of a message, sorted.
fn keys(msg: &serde_json::Value) -> Vec<&str> {
    msg.as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect()
}

/// The keys every `decide` has.
const DECIDE_KEYS: [&str; 17] = [
    "bag",
    "bag_size",
    "current",
    "gift_deck_size",
    "gift_discard",
    "hand",
    "hand_sizes",
    "legal",
    "legal_ids",
    "phase",
    "request",
    "scores",
    "seat",
    "supply",
    "time_left_ms",
    "turns",
    "type",
];

#[test]
fn a_bot_is_never_sent_other_seats_gift_cards_or_the_tile_order() {
    let args = ["--players", "3", "--games", "3", "--gifts"];
    let mut decides = 0;
    let mut hidden = 0;
    let mut own = 0;
    let mut histories = 0;
    for log in spy("external-spy", &args) {
        let mut seat = None;
        let mut received: Vec<serde_json::Value> = Vec::new();
        for msg in &log {
            let kind = msg["type"].as_str().unwrap();
            if kind == "new_game" {
                seat = msg["seat"].as_u64();
                received.clear();
            }
            if kind == "history" {
                // The turns sent one decision at a time are the history.
                histories += 1;
                assert_eq!(msg["turns"].as_array().unwrap(), &received);
            }
            if kind != "decide" && kind != "game_over" {
                continue;
            }
            if kind == "decide" {
                decides += 1;
                assert_eq!(msg["seat"].as_u64(), seat);
                let mut expected = DECIDE_KEYS.to_vec();
                expected.push(if msg["phase"] == "choose" {
                    "choose"
                } else {
                    "tile"
                });
                expected.sort();
                assert_eq!(
                    keys(msg),
                    expected,
                    "a decide message carries only what the seat knows"
                );
                let bag = msg["bag"].as_object().unwrap();
                assert!(bag.values().all(|n| n.is_u64()), "the bag is counts");
            }
            let turns = msg["turns"].as_array().unwrap();
            received.extend(turns.iter().cloned());
            for turn in turns.iter().chain(msg.get("current")) {
                let Some(received) = turn.get("gift_received") else {
                    continue;
                };
                if turn["player"].as_u64() == seat {
                    own += 1;
                    assert_ne!(received, "hidden");
                } else {
                    hidden += 1;
                    assert_eq!(received, "hidden", "another seat's card: {turn}");
                }
            }
        }
    }
    assert!(decides > 50, "{decides}");
    assert!(histories > 3, "{histories}");
    assert!(
        hidden > 0 && own > 0,
        "gifts were received ({hidden} hidden, {own} own)"
    );
}

/// Each seat's tiles in `list` (a deal or `tile_hands`) are shown to
/// `seat` only if they are its own or hands are visible; the sizes of the
/// hidden ones.
fn check_tiles(list: &serde_json::Value, seat: u64, visible: bool) -> Vec<usize> {
    let mut hidden = Vec::new();
    for (s, tiles) in list.as_array().unwrap().iter().enumerate() {
        let tiles = tiles.as_array().unwrap();
        let shown = tiles.iter().filter(|t| *t != "hidden").count();
        if s as u64 == seat || visible {
            assert_eq!(shown, tiles.len(), "seat {s}'s tiles are shown: {list}");
        } else {
            assert_eq!(
                shown, 0,
                "seat {s}'s tiles are hidden from seat {seat}: {list}"
            );
            hidden.push(tiles.len());
        }
    }
    hidden
}

#[test]
fn a_bot_sees_its_own_hand_of_tiles_and_only_the_sizes_of_hidden_ones() {
    for visible in [false, true] {
        let rules = format!("hand=3,hand_visible={visible}");
        let args = ["--players", "3", "--games", "1", "--rules", &rules];
        let (mut decides, mut draws_hidden, mut draws_shown) = (0, 0, 0);
        for log in spy(&format!("external-spy-hands-{visible}"), &args) {
            let mut seat = 0;
            let mut deals = 0;
            for msg in &log {
                match msg["type"].as_str().unwrap() {
                    "new_game" => {
                        (seat, deals) = (msg["seat"].as_u64().unwrap(), 0);
                        continue;
                    }
                    "history" => {
                        check_tiles(&msg["deal"], seat, visible);
                    }
                    "decide" | "game_over" => {}
                    _ => continue,
                }
                if let Some(deal) = msg.get("deal").filter(|_| msg["type"] != "history") {
                    deals += 1;
                    check_tiles(deal, seat, visible);
                }
                if msg["type"] == "decide" {
                    decides += 1;
                    assert_eq!(msg["phase"], "place_hand");
                    let mut expected = DECIDE_KEYS.to_vec();
                    expected.push("tile_hands");
                    if deals == 1 && msg.get("deal").is_some() {
                        expected.push("deal");
                    }
                    expected.sort();
                    assert_eq!(keys(msg), expected, "{msg}");
                    // The bag counts every tile the seat has not seen.
                    let hidden = check_tiles(&msg["tile_hands"], seat, visible);
                    let unseen: u64 = msg["bag"]
                        .as_object()
                        .unwrap()
                        .values()
                        .map(|n| n.as_u64().unwrap())
                        .sum();
                    let bag_size = msg["bag_size"].as_u64().unwrap();
                    assert_eq!(unseen, bag_size + hidden.iter().sum::<usize>() as u64);
                }
                assert!(deals <= 1, "the deal is sent once a game");
                let turns = msg["turns"].as_array().unwrap();
                for turn in turns.iter().chain(msg.get("current")) {
                    let Some(drawn) = turn.get("drawn") else {
                        continue;
                    };
                    let own = turn["player"].as_u64() == Some(seat);
                    let n = drawn
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|t| *t == "hidden")
                        .count();
                    if own || visible {
                        assert_eq!(n, 0, "{turn}");
                        draws_shown += 1;
                    } else {
                        assert_eq!(n, drawn.as_array().unwrap().len(), "{turn}");
                        draws_hidden += 1;
                    }
                }
            }
            assert_eq!(deals, 1, "the deal is sent once a game");
        }
        assert!(decides > 15, "{decides}");
        assert!(draws_shown > 0, "{draws_shown}");
        assert_eq!(draws_hidden > 0, !visible, "{draws_hidden}");
    }
}

#[test]
fn bad_ext_specs_fail_before_anything_is_created() {
    let dir = scratch("external-bad-specs");
    let bots = dir.join("bots.json");
    std::fs::write(&bots, r#"{"a": {"command": "python3"}}"#).unwrap();
    for (spec, needle) in [
        (
            format!("ext:name=zz,bots={}", bots.display()),
            "no bot \"zz\"",
        ),
        ("ext:cmd=no-such-bot-program".to_string(), "not found"),
        (
            "ext:name=a,bots=/nonexistent/bots.json".to_string(),
            "cannot read bots file",
        ),
    ] {
        let out_dir = dir.join("out");
        let out = Command::new(bin())
            .args(["tournament", "--out", out_dir.to_str().unwrap()])
            .args(["--agents", &format!("random,{spec}")])
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{spec}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(!out_dir.exists(), "nothing is created");
    }
}

#[test]
fn a_bot_program_that_is_not_executable_is_refused_before_the_run() {
    // Issue 27: it was found per game (every game a forfeit).
    let dir = scratch("external-not-executable");
    let program = dir.join("bot.py");
    std::fs::write(&program, "print('hi')\n").unwrap();
    let out_dir = dir.join("out");
    for (spec, needle) in [
        (
            format!("ext:cmd={}", program.display()),
            "is not executable",
        ),
        (
            format!("ext:cmd={}", dir.join("missing.py").display()),
            "not found",
        ),
    ] {
        let out = Command::new(bin())
            .args(["tournament", "--out", out_dir.to_str().unwrap()])
            .args(["--agents", &format!("random,{spec}")])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{spec}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(!out_dir.exists(), "nothing is created");
    }
}

#[test]
fn play_takes_an_external_bot_and_logs_its_stderr() {
    let dir = scratch("external-play");
    let record = dir.join("game.json");
    let bot = format!(
        "ext:cmd=python3 {} spy",
        repo("tournament/tests/bots/misbehave.py")
    );
    let out = Command::new(bin())
        .args(["play", "--agents", &format!("{bot},greedy"), "--seed", "4"])
        .args(["--out", record.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(record.is_file());
    assert_eq!(logged_pids(&dir).len(), 3);
}

/// Whether bubblewrap can build a sandbox here, or why not.
fn bwrap_works() -> Result<(), String> {
    let out = Command::new("bwrap")
        .args(["--unshare-all", "--die-with-parent", "--ro-bind", "/", "/"])
        .arg("true")
        .output()
        .map_err(|e| format!("cannot run bwrap ({e}): apt-get install bubblewrap"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "bwrap cannot create namespaces here ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// The `probe NAME STATE` lines a bot wrote in `dir/bots`, per name.
fn probes(dir: &Path) -> std::collections::BTreeMap<String, Vec<String>> {
    let mut found: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for entry in std::fs::read_dir(dir.join("bots")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for line in text.lines().filter_map(|l| l.strip_prefix("probe ")) {
            let (name, state) = line.split_once(' ').unwrap();
            found
                .entry(name.to_string())
                .or_default()
                .push(state.to_string());
        }
    }
    found
}

/// The test bots copied into a fresh folder that every user may read
/// (run as root, a sandboxed bot runs as an unprivileged user, and the
/// checkout may lie in a folder only root can enter, such as `/root`).
fn readable_bots(name: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("carcassonne-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    for bot in ["escape.py", "misbehave.py"] {
        let to = dir.join(bot);
        std::fs::copy(repo(&format!("tournament/tests/bots/{bot}")), &to).unwrap();
        std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    dir
}

fn running_as_root() -> bool {
    nix::unistd::Uid::effective().is_root()
}

#[test]
fn a_sandboxed_bot_reaches_nothing_it_must_not_and_still_plays() {
    if let Err(why) = bwrap_works() {
        eprintln!("\n*** SKIPPED a_sandboxed_bot_reaches_nothing_it_must_not_and_still_plays: {why} ***\n");
        return;
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let canary = "canary-5e1f0c";
    let bots = readable_bots("sandbox-bots");
    // The same bot outside the sandbox reaches everything: the probes work
    // (being root, capabilities and a writable /proc/sys only when the
    // test runs as root).
    let as_root = running_as_root();
    for (limits, sandboxed) in [("", false), ("sandbox=true,mem_mb=512,nproc=16,", true)] {
        let dir = scratch(&format!("external-sandbox-{sandboxed}"));
        let out = dir.join("run");
        let bot = format!(
            "ext:{limits}cmd=python3 {} results={} other={} canary={canary} port={port} mem=1024 procs=40",
            bots.join("escape.py").display(),
            out.display(),
            bots.join("misbehave.py").display(),
        );
        let status = Command::new(bin())
            .args(["tournament", "--out", out.to_str().unwrap()])
            .args(["--agents", &format!("{bot},random"), "--games", "1"])
            .env("TOOLKIT_SECRET", canary)
            .output()
            .unwrap();
        assert!(
            status.status.success(),
            "{}",
            String::from_utf8_lossy(&status.stderr)
        );
        let found = probes(&out);
        let names = [
            "capabilities",
            "command_line",
            "cpu",
            "environment",
            "memory",
            "network",
            "other_bot",
            "proc_sys",
            "processes",
            "results",
            "root",
        ];
        assert_eq!(found.keys().collect::<Vec<_>>(), names, "{found:?}");
        for (name, states) in &found {
            let root_only = ["capabilities", "proc_sys", "root"].contains(&name.as_str());
            let expected = match (sandboxed, root_only && !as_root) {
                (true, _) => "blocked",
                (false, false) => "open",
                // Not root: nothing to show outside either.
                (false, true) => continue,
            };
            assert!(
                states.iter().all(|s| s == expected),
                "{limits}{name}: {states:?}"
            );
        }
        let rows = games(&out);
        assert_eq!(rows.len(), 4, "two games, a row per seat");
        assert!(rows.iter().all(|r| r["forfeit"].is_empty()), "{rows:?}");
    }
    let _ = std::fs::remove_dir_all(&bots);
}

#[test]
fn a_sandboxed_bot_is_never_given_the_root_a_system_folder_or_the_results_folder() {
    if let Err(why) = bwrap_works() {
        eprintln!("\n*** SKIPPED a_sandboxed_bot_is_never_given_…: {why} ***\n");
        return;
    }
    let bots = readable_bots("sandbox-binds");
    let dir = scratch("external-sandbox-binds");
    let out = dir.join("run");
    std::fs::create_dir_all(&out).unwrap();
    let escape = bots.join("escape.py");
    let parent = dir.to_str().unwrap();
    for (arg, named) in [
        ("/", "/"),
        ("/etc", "/etc"),
        ("/etc/passwd", "/etc/passwd"),
        ("/proc/1", "/proc/1"),
        (out.to_str().unwrap(), out.to_str().unwrap()),
        (parent, parent),
    ] {
        let agents = format!(
            "ext:sandbox=true,cmd=python3 {} {arg},random",
            escape.display()
        );
        let result = Command::new(bin())
            .args(["tournament", "--out", out.join("games").to_str().unwrap()])
            .args(["--agents", &agents, "--games", "1"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&result.stderr);
        assert!(!result.status.success(), "{arg}: accepted");
        assert_eq!(err.trim().lines().count(), 1, "{arg}: {err}");
        assert!(
            err.contains(&format!("would be given {named} (")),
            "{arg}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&bots);
}
