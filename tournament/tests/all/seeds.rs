//! What a bot is sent, checked against docs/PROTOCOL.md through the built
//! binary with a spy bot that logs every line it receives: what it can
//! learn from its seed ("What a bot can infer"), `--secret-decks`, and
//! the statements about `decide` (the bag, `total`, its own turns coming
//! back, `time_left_ms`).

use crate::common::{fails, json, read, run, scratch, tournament};
use protocol::secret::Secret;
use std::path::{Path, PathBuf};
use tournament::run::schedule::deck_seed;
use tournament::seeds::mix;

/// The spy bot's `ext:` spec.
fn spy_bot() -> String {
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/misbehave.py");
    format!("ext:cmd=python3 {} spy", bot.display())
}

/// The lines the spy bots of `dir` received, per bot process (in the
/// order of the log files' numbers).
fn received(dir: &Path) -> Vec<Vec<serde_json::Value>> {
    let mut logs: Vec<PathBuf> = std::fs::read_dir(dir.join("bots"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    logs.sort_by_key(|p| {
        let name = p.file_stem().unwrap().to_str().unwrap();
        name.trim_start_matches("bot-").parse::<u32>().unwrap()
    });
    logs.iter()
        .map(|path| {
            read(path)
                .lines()
                .filter_map(|l| l.strip_prefix("got "))
                .map(|l| serde_json::from_str(l).unwrap())
                .collect()
        })
        .collect()
}

/// The `seed` of every `new_game` the bots of `dir` received.
fn sent_seeds(dir: &Path) -> Vec<u64> {
    received(dir)
        .iter()
        .flatten()
        .filter(|m| m["type"] == "new_game")
        .map(|m| m["seed"].as_u64().unwrap())
        .collect()
}

/// The `deck_seed` column of games.csv.
fn deck_seeds(dir: &Path) -> Vec<u64> {
    let mut reader = csv::Reader::from_path(dir.join("games.csv")).unwrap();
    let headers = reader.headers().unwrap().clone();
    let column = headers.iter().position(|h| h == "deck_seed").unwrap();
    reader
        .records()
        .map(|r| r.unwrap()[column].parse().unwrap())
        .collect()
}

/// The inverse of `x -> x * m` modulo 2^64 (`m` odd), by Newton's method.
fn inverse(m: u64) -> u64 {
    let mut y = m; // right to 3 bits
    for _ in 0..5 {
        y = y.wrapping_mul(2u64.wrapping_sub(m.wrapping_mul(y)));
    }
    y
}

/// The inverse of `x -> x ^ (x >> shift)`.
fn unshift(mut y: u64, shift: u32) -> u64 {
    let mut x = y;
    for _ in 0..64 / shift {
        y >>= shift;
        x ^= y;
    }
    x
}

/// The inverse of the schedule's splitmix64 step: what a bot that read
/// run.json's `plan.seeds` can compute.
fn unsplitmix(z: u64) -> u64 {
    let z = unshift(z, 31).wrapping_mul(inverse(0x94D0_49BB_1331_11EB));
    let z = unshift(z, 27).wrapping_mul(inverse(0xBF58_476D_1CE4_E5B9));
    unshift(z, 30).wrapping_sub(0x9E37_79B9_7F4A_7C15)
}

/// The master seed a bot would get by taking `sent` for the agent seed of
/// seat `seat` in game `game` and inverting the public derivation.
fn master_from(sent: u64, game: u64, seat: u64) -> u64 {
    let h1 = unsplitmix(sent) ^ seat;
    let h0 = unsplitmix(h1) ^ game;
    unsplitmix(h0) ^ 0x4147_4E54 // "AGNT"
}

#[test]
fn the_attack_inverts_agent_seeds() {
    // The test's own attack works on what it attacks.
    for (seed, game, seat) in [(7, 0, 0), (u64::MAX, 5, 2), (0, 1 << 40, 5)] {
        let agent_seed = mix(seed, 0x4147_4E54, &[game, seat]);
        assert_eq!(master_from(agent_seed, game, seat), seed);
    }
}

#[test]
fn a_bot_cannot_recover_the_master_seed_or_a_deck_from_its_seed() {
    let dir = scratch("seeds-one-way");
    let agents = format!("{},random", spy_bot());
    let args = [
        "--agents",
        &agents,
        "--games",
        "4",
        "--seed",
        "7",
        "--threads",
        "1",
    ];
    tournament(&dir, &args);
    let sent = sent_seeds(&dir);
    assert_eq!(sent.len(), 4, "one new_game per game");
    let decks = deck_seeds(&dir);
    for &s in &sent {
        for game in 0..4 {
            for seat in 0..2 {
                let master = master_from(s, game, seat);
                assert_ne!(master, 7, "the bot's seed gives away --seed");
                for deck in 0..2 {
                    assert!(
                        !decks.contains(&deck_seed(master, deck)),
                        "the bot's seed gives away a deck"
                    );
                }
            }
        }
    }
    // What it is sent instead is the documented HMAC of its agent seed.
    let key = Secret::bot_key(7);
    let expected: Vec<u64> = (0..4u64)
        .map(|g| {
            let seat = if g % 2 == 0 { 0 } else { 1 }; // the bot is agent 0
            key.bot_seed(mix(7, 0x4147_4E54, &[g, seat]))
        })
        .collect();
    assert_eq!(sent, expected);

    // `play`: the deck seed is --seed itself, so nothing sent may lead
    // back to it.
    let record = dir.join("game.json");
    run(&[
        "play",
        "--agents",
        &format!("{},greedy", spy_bot()),
        "--seed",
        "11",
        "--out",
        record.to_str().unwrap(),
    ]);
    let sent = sent_seeds(&dir);
    let play_seed = *sent.last().unwrap();
    assert_ne!(master_from(play_seed, 0, 0), 11);
    assert_eq!(
        play_seed,
        Secret::bot_key(11).bot_seed(mix(11, 0x4147_4E54, &[0, 0]))
    );
}

#[test]
fn the_same_seed_sends_the_same_seeds() {
    let (a, b) = (scratch("seeds-same-a"), scratch("seeds-same-b"));
    let agents = format!("{},random", spy_bot());
    let args = [
        "--agents",
        &agents,
        "--games",
        "2",
        "--seed",
        "3",
        "--threads",
        "1",
    ];
    tournament(&a, &args);
    tournament(&b, &args);
    assert_eq!(sent_seeds(&a), sent_seeds(&b));
    assert_eq!(
        crate::common::games_without_think_ms(&a),
        crate::common::games_without_think_ms(&b)
    );
}

/// Everything each bot process received before the first `decide` of
/// each game (hello, new_game), in order; without `request`, the running
/// count of questions, which earlier games' decks change (it says nothing
/// of the game to come).
fn before_the_draw(dir: &Path) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    for log in received(dir) {
        let mut deciding = false;
        for mut msg in log {
            match msg["type"].as_str().unwrap() {
                "new_game" => {
                    deciding = false;
                    if let Some(fields) = msg.as_object_mut() {
                        fields.remove("request");
                    }
                    out.push(msg);
                }
                "hello" if !deciding => out.push(msg),
                "decide" | "history" => deciding = true,
                _ => {}
            }
        }
    }
    out
}

#[test]
fn secret_decks_change_the_decks_and_nothing_a_bot_is_sent_before_them() {
    let (a, b, plain) = (
        scratch("seeds-secret-a"),
        scratch("seeds-secret-b"),
        scratch("seeds-secret-plain"),
    );
    let agents = format!("{},greedy", spy_bot());
    let args = [
        "--agents",
        &agents,
        "--games",
        "4",
        "--seed",
        "5",
        "--threads",
        "1",
    ];
    let secret = [&args[..], &["--secret-decks"]].concat();
    tournament(&a, &secret);
    tournament(&b, &secret);
    tournament(&plain, &args);
    // The bots were told the same before any tile was drawn...
    let told = before_the_draw(&a);
    assert!(told.len() >= 4, "{told:?}");
    assert_eq!(told, before_the_draw(&b));
    assert_eq!(told, before_the_draw(&plain));
    // ...yet the decks differ, so nothing they were told predicts them.
    let (da, db, dp) = (deck_seeds(&a), deck_seeds(&b), deck_seeds(&plain));
    assert!(da.iter().all(|d| !db.contains(d) && !dp.contains(d)));
    // Paired decks still: both games of a deck share its seed.
    assert_eq!(da[0], da[2], "games 0 and 1 share deck 0");
    assert_ne!(da[0], da[4], "game 2 has deck 1");
    // The key is told when the run ends, and gives the decks.
    for dir in [&a, &b] {
        let info = json(&dir.join("run.json"));
        assert_eq!(info["settings"]["secret_decks"], true);
        let key = Secret::from_hex(info["deck_key"].as_str().unwrap()).unwrap();
        let decks = deck_seeds(dir);
        for (row, d) in decks.iter().enumerate() {
            let game = row as u64 / 2;
            assert_eq!(*d, key.deck_seed(game / 2), "row {row}");
        }
        assert!(!dir.join(".deck-key").exists(), "the private copy is gone");
    }
    assert!(json(&plain.join("run.json")).get("deck_key").is_none());
}

#[test]
fn a_secret_deck_run_keeps_its_key_private_until_it_ends_and_resumes() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = scratch("seeds-secret-resume");
    let out = dir.join("run");
    let args = ["--agents", "random,greedy", "--games", "4", "--seed", "2"];
    let stop = [
        &args[..],
        &["--secret-decks", "--stop-after", "3", "--threads", "1"],
    ]
    .concat();
    tournament(&out, &stop);
    let private = out.join(".deck-key");
    let mode = std::fs::metadata(&private).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "owner only");
    let key = Secret::from_hex(&read(&private)).unwrap();
    assert!(json(&out.join("run.json")).get("deck_key").is_none());
    let kept = deck_seeds(&out);

    // Without the key the decks cannot be dealt again: one line.
    let aside = dir.join("key");
    std::fs::rename(&private, &aside).unwrap();
    let e = fails(&["tournament", "--resume", out.to_str().unwrap()]);
    assert!(e.contains("deck key") && e.contains(".deck-key"), "{e}");
    std::fs::rename(&aside, &private).unwrap();

    run(&["tournament", "--resume", out.to_str().unwrap()]);
    let info = json(&out.join("run.json"));
    assert_eq!(info["status"], "finished");
    assert_eq!(info["deck_key"].as_str().unwrap(), key.to_hex());
    let decks = deck_seeds(&out);
    assert_eq!(decks[..kept.len()], kept[..]);
    assert_eq!(decks.len(), 8);
    assert_eq!(decks[7], key.deck_seed(1));
    assert!(!private.exists());

    // Nothing in --secret-decks may be sharded.
    let e = fails(&[
        "tournament",
        "--agents",
        "random,greedy",
        "--secret-decks",
        "--shard",
        "1/2",
        "--out",
        dir.join("shard").to_str().unwrap(),
    ]);
    assert!(e.contains("--secret-decks") && e.contains("--shard"), "{e}");
}

/// Tiles as letter → count, from a JSON list of letters.
fn letters(list: Option<&serde_json::Value>) -> Vec<String> {
    list.and_then(|l| l.as_array())
        .map(|l| l.iter().map(|t| t.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

/// The tiles a turn (as sent) took out of the bag for good: the placed
/// tile, and the tiles set aside unless they go back (`unplaceable=return`).
fn taken(turn: &serde_json::Value, returned: bool) -> Vec<String> {
    let mut out = letters(turn.get("tile").map(|t| serde_json::json!([t])).as_ref());
    if !returned {
        out.extend(letters(turn.get("discarded")));
        if let Some(g) = turn.get("gift_open").filter(|g| g.is_object()) {
            out.extend(letters(g.get("discarded")));
        }
    }
    out
}

/// docs/PROTOCOL.md's statements about `decide`, checked on every message
/// spy bots received in `dir`: the bag identity, `total` in the scores,
/// and the bot's own turns coming back in `turns`. Returns the decisions
/// checked and the own placements seen again.
fn check_decides(dir: &Path, returned: bool, time_left: u64) -> (usize, usize) {
    let full = engine::Bag::full();
    let (mut decides, mut own_seen) = (0, 0);
    for log in received(dir) {
        let (mut seat, mut gone) = (0, Vec::<String>::new());
        let mut pending: Option<(String, i64, i64, u64)> = None;
        for msg in &log {
            let kind = msg["type"].as_str().unwrap();
            if kind == "new_game" {
                (seat, gone, pending) = (msg["seat"].as_u64().unwrap(), Vec::new(), None);
                continue;
            }
            if kind != "decide" && kind != "game_over" {
                continue;
            }
            for s in msg["scores"].as_array().unwrap() {
                let parts: u64 = ["road", "city", "monastery", "farm", "gifts"]
                    .iter()
                    .map(|k| s[k].as_u64().unwrap())
                    .sum();
                assert_eq!(s["total"].as_u64(), Some(parts), "{kind}: {s}");
            }
            for turn in msg["turns"].as_array().unwrap() {
                gone.extend(taken(turn, returned));
                if turn["player"].as_u64() == Some(seat) {
                    if let Some((tile, x, y, rot)) = pending.take() {
                        assert_eq!(turn["tile"], tile.as_str(), "own turn as applied");
                        assert_eq!(
                            (turn["x"].as_i64(), turn["y"].as_i64(), turn["rot"].as_u64()),
                            (Some(x), Some(y), Some(rot))
                        );
                        own_seen += 1;
                    }
                }
            }
            if kind == "game_over" {
                continue;
            }
            decides += 1;
            // The move's limit, while the game's is far from used up.
            assert_eq!(msg["time_left_ms"].as_u64(), Some(time_left));
            // Out now: the turn so far and this draw.
            let mut out = gone.clone();
            if let Some(current) = msg.get("current").filter(|c| c.is_object()) {
                if !returned {
                    out.extend(letters(current.get("discarded")));
                    if let Some(g) = current.get("gift_open").filter(|g| g.is_object()) {
                        out.extend(letters(g.get("discarded")));
                    }
                }
            }
            match msg["phase"].as_str().unwrap() {
                "choose" => out.extend(letters(msg.get("choose"))),
                _ => out.extend(letters(
                    msg.get("tile").map(|t| serde_json::json!([t])).as_ref(),
                )),
            }
            let mut expected = std::collections::BTreeMap::new();
            for (tile, n) in full.iter() {
                let left =
                    i64::from(n) - out.iter().filter(|t| **t == tile.to_string()).count() as i64;
                if left != 0 {
                    expected.insert(tile.to_string(), serde_json::json!(left));
                }
            }
            let bag: std::collections::BTreeMap<String, serde_json::Value> =
                serde_json::from_value(msg["bag"].clone()).unwrap();
            assert_eq!(bag, expected, "bag of {msg}");
            let size: u64 = bag.values().map(|n| n.as_u64().unwrap()).sum();
            assert_eq!(msg["bag_size"].as_u64(), Some(size));
            // The spy answers legal[0] (or asks for the history first).
            let first = msg["legal"][0].as_str().unwrap();
            if let Some((tile, rest)) = first.split_once(" (") {
                let (xy, rot) = rest.split_once(") r").unwrap();
                let (x, y) = xy.split_once(", ").unwrap();
                let rot = rot.split(' ').next().unwrap();
                pending = Some((
                    tile.to_string(),
                    x.parse().unwrap(),
                    y.parse().unwrap(),
                    rot.parse().unwrap(),
                ));
            }
        }
    }
    (decides, own_seen)
}

#[test]
fn decide_messages_say_what_docs_protocol_says_of_bag_scores_and_turns() {
    // docs/PROTOCOL.md's worked example of move_ms with game_ms.
    let spy = spy_bot().replace("ext:", "ext:move_ms=20000,game_ms=600000,");
    let agents = format!("{spy},{spy},{spy}");
    let runs: [(&str, &[&str], bool); 2] = [
        (
            "seeds-doc-gifts",
            &["--players", "3", "--games", "9", "--gifts"],
            false,
        ),
        (
            "seeds-doc-return",
            &[
                "--players",
                "2",
                "--games",
                "6",
                "--rules",
                "unplaceable=return",
            ],
            true,
        ),
    ];
    let mut total = 0;
    for (name, args, returned) in runs {
        let dir = scratch(name);
        tournament(
            &dir,
            &[&["--agents", &agents, "--seed", "4"][..], args].concat(),
        );
        let (decides, own) = check_decides(&dir, returned, 20000);
        assert!(
            own * 2 > decides / 2,
            "{name}: {own} own turns of {decides}"
        );
        total += decides;
    }
    assert!(total > 1000, "{total} decisions checked");
}
