//! `carcassonne improve --net` end to end on a tiny budget (8 search
//! iterations, a network 8 wide, one epoch): generations.csv and its
//! promotion decisions, resumption after a kill (and after the run's
//! folder is moved), self-play played as
//! shards and merged, and the one-line errors of bad flags. Also `merge`
//! of self-play examples.

use crate::common::{bin, fails, fails_with, json, read, scratch};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The columns of generations.csv.
const COLUMNS: &str = "generation,games,examples,train_examples,policy_loss,value_loss,\
heldout_policy_loss,heldout_value_loss,heldout_top1,match_games,score,sprt,llr,elo,elo_low,\
elo_high,elo_vs_gen0,elo_vs_gen0_low,elo_vs_gen0_high,rating,rating_low,rating_high,promoted,best,\
cpu_s,wall_s";

/// The tiny run's settings.
const TINY: &[&str] = &[
    "--agent",
    "az:iterations=8",
    "--generations",
    "2",
    "--games-per-gen",
    "2",
    "--match-games",
    "4",
    "--hidden",
    "8",
    "--epochs",
    "1",
    "--holdout",
    "0",
    "--seed",
    "5",
    "--threads",
    "1",
    "--gauntlet-games",
    "2",
    "--window",
    "2",
];

/// The binary with one thread for candle (bit-identical training).
fn command(args: &[&str]) -> Command {
    let mut c = bin();
    c.env("RAYON_NUM_THREADS", "1").args(args);
    c
}

fn succeed(args: &[&str]) -> String {
    let out = command(args).output().unwrap();
    assert!(
        out.status.success(),
        "carcassonne {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A new tiny run, gated unless `extra` says `--no-gate`.
fn new_run(out: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["improve", "--net", "--out", out.to_str().unwrap()];
    args.extend_from_slice(TINY);
    if !extra.contains(&"--no-gate") {
        args.push("--gate");
    }
    args.extend_from_slice(extra);
    args.iter().map(|s| s.to_string()).collect()
}

fn resume(dir: &Path) -> String {
    succeed(&[
        "improve",
        "--net",
        "--resume",
        dir.to_str().unwrap(),
        "--threads",
        "1",
    ])
}

/// generations.csv without its time columns (cpu_s, wall_s: the last two).
fn generations(dir: &Path) -> Vec<String> {
    read(&dir.join("generations.csv"))
        .lines()
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            cells[..cells.len() - 2].join(",")
        })
        .collect()
}

/// The weights of generation `k`'s network: its file past the
/// safetensors header (whose metadata names the run's folders).
fn weights(dir: &Path, k: u64) -> Vec<u8> {
    let bytes = std::fs::read(dir.join(format!("gen-{k}/net.safetensors"))).unwrap();
    let header = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    bytes[8 + header..].to_vec()
}

#[test]
fn improve_net_runs_generations_resumes_after_a_kill_and_takes_merged_selfplay() {
    let dir = scratch("improve-net");
    // An uninterrupted run.
    let a = dir.join("a");
    let args = new_run(&a, &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let table = succeed(&args);
    assert!(table.contains("promoted"), "{table}");
    let csv = read(&a.join("generations.csv"));
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some(COLUMNS));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 3, "{csv}");
    let col = |name: &str| COLUMNS.split(',').position(|c| c == name).unwrap();
    assert_eq!(rows[0][col("promoted")], "true");
    assert_eq!(rows[0][col("sprt")], "");
    let mut best = 0;
    for (k, row) in rows.iter().enumerate().skip(1) {
        assert_eq!(row[col("generation")], k.to_string());
        assert_eq!(row[col("games")], "2");
        assert!(row[col("examples")].parse::<u64>().unwrap() > 0, "{csv}");
        assert!(["H0", "H1", "none"].contains(&row[col("sprt")]), "{csv}");
        let promoted: bool = row[col("promoted")].parse().unwrap();
        assert_eq!(promoted, row[col("sprt")] == "H1", "{csv}");
        if promoted {
            best = k;
        }
        assert_eq!(row[col("best")], best.to_string(), "{csv}");
        assert!(row[col("policy_loss")].parse::<f64>().unwrap() > 0.0);
        assert!(row[col("match_games")].parse::<u64>().unwrap() >= 2);
        let (low, high) = (
            row[col("elo_vs_gen0_low")].parse::<f64>().unwrap(),
            row[col("elo_vs_gen0_high")].parse::<f64>().unwrap(),
        );
        assert!(low <= high, "{csv}");
    }
    // Each row's CPU time is its steps' (gen-K/time.json), generation
    // 0's gauntlet included.
    for (k, row) in rows.iter().enumerate() {
        let times = json(&a.join(format!("gen-{k}/time.json")));
        let steps = times.as_object().unwrap();
        assert!(steps.contains_key("gauntlet"), "gen-{k}: {times}");
        let cpu: f64 = steps.values().map(|t| t[0].as_f64().unwrap()).sum();
        let row_cpu: f64 = row[col("cpu_s")].parse().unwrap();
        assert!(
            (row_cpu - cpu).abs() < 0.002,
            "gen-{k}: {row_cpu} against {times}"
        );
    }
    // Every generation on the joint ladder, greedy (the one anchor) at 0.
    for row in &rows {
        let [rating, low, high] =
            ["rating", "rating_low", "rating_high"].map(|c| row[col(c)].parse::<f64>().unwrap());
        assert!(low <= rating && rating <= high, "{csv}");
    }
    // Generation 2 trains on generations 1 and 2 (window 2).
    let train = |k: usize| rows[k][col("train_examples")].parse::<u64>().unwrap();
    let made = |k: usize| rows[k][col("examples")].parse::<u64>().unwrap();
    assert_eq!(train(2), made(1) + made(2), "{csv}");
    // Every generation, generation 0 included, played the gauntlet (only
    // greedy here: the tests run where models/ is not), and generation 2
    // the run's own generation 1 too (--anchor-generation's default).
    let gauntlet = read(&a.join("gauntlet.csv"));
    let mut lines = gauntlet.lines();
    assert_eq!(
        lines.next(),
        Some("generation,anchor,games,score,score_low,score_high")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 4, "{gauntlet}");
    for (k, row) in rows.iter().take(3).enumerate() {
        assert_eq!(
            row[..3],
            [k.to_string().as_str(), "greedy", "2"],
            "{gauntlet}"
        );
    }
    assert_eq!(rows[3][0], "2", "{gauntlet}");
    // (The spec is quoted: it holds commas.)
    assert!(
        gauntlet
            .lines()
            .nth(4)
            .unwrap()
            .contains(",\"az:iterations=8,net=gen-1/net.safetensors\","),
        "{gauntlet}"
    );
    assert!(a.join("gen-2/gauntlet/anchor-1/pairwise.csv").is_file());
    for row in &rows {
        let n = row.len();
        let [score, low, high] = [n - 3, n - 2, n - 1].map(|i| row[i].parse::<f64>().unwrap());
        assert!((0.0..=1.0).contains(&score) && low <= score && score <= high);
    }
    // Generation 1's shards are read by no later window (2): pruned; the
    // last generation's are kept.
    assert!(!a.join("gen-1/selfplay/examples").exists());
    assert!(a.join("gen-1/selfplay/examples-pruned.txt").is_file());
    assert!(a.join("gen-2/selfplay/examples").is_dir());
    assert!(a.join("report.html").is_file());
    assert!(read(&a.join("report.html")).contains("<svg"));
    let page = dir.join("a-report.html");
    succeed(&[
        "report",
        a.to_str().unwrap(),
        "--out",
        page.to_str().unwrap(),
    ]);
    assert_eq!(read(&page), read(&a.join("report.html")));

    // Stopped as if killed inside generation 1's self-play, then resumed.
    let b = dir.join("b");
    let args = new_run(&b, &["--stop-after", "1"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = command(&args).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--resume"), "{err}");
    assert!(!b.join("gen-1/net.safetensors").exists());
    // The run's folder moved, then continued from another folder, the
    // moved folder spelled otherwise.
    let moved = dir.join("b-moved");
    std::fs::rename(&b, &moved).unwrap();
    let b = moved;
    let spelled = format!("{}/../b-moved", b.display());
    let out = command(&["improve", "--net", "--resume", &spelled, "--threads", "1"])
        .current_dir("/")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(generations(&b), generations(&a));
    assert!(
        weights(&b, 2) == weights(&a, 2),
        "the resumed run trained other weights"
    );

    // Killed (SIGKILL) mid-generation, then resumed.
    let c = dir.join("c");
    let args = new_run(&c, &[]);
    let mut child = command(&args.iter().map(String::as_str).collect::<Vec<_>>())
        .stderr(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let examples = c.join("gen-1/selfplay/examples");
    while !examples.is_dir() && start.elapsed() < Duration::from_secs(120) {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = child.kill();
    let _ = child.wait();
    resume(&c);
    assert_eq!(generations(&c), generations(&a));

    // Generation 1's self-play as two shards, merged into its folder.
    let d = dir.join("d");
    let args = new_run(&d, &["--selfplay-command"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let plan = succeed(&args);
    let line = plan
        .lines()
        .find(|l| !l.starts_with('#'))
        .expect("a command");
    assert!(plan.contains("gen-1/selfplay"), "{plan}");
    let words: Vec<&str> = line.split_whitespace().skip(1).collect();
    assert_eq!(words[0], "selfplay", "{plan}");
    let shards: Vec<PathBuf> = (1..=2).map(|k| dir.join(format!("d-shard-{k}"))).collect();
    for (k, shard) in shards.iter().enumerate() {
        let mut args = words.clone();
        let spec = format!("{}/2", k + 1);
        args.extend(["--shard", &spec, "--out", shard.to_str().unwrap()]);
        args.extend(["--threads", "1"]);
        succeed(&args);
    }
    let merged = d.join("gen-1/selfplay");
    let mut args = vec!["merge"];
    args.extend(shards.iter().map(|s| s.to_str().unwrap()));
    args.extend(["--out", merged.to_str().unwrap()]);
    succeed(&args);
    resume(&d);
    assert_eq!(generations(&d), generations(&a));
}

#[test]
fn improve_net_without_a_gate_self_plays_every_new_network_and_another_run_goes_on_from_it() {
    let dir = scratch("improve-net-ungated");
    let run = dir.join("run");
    let args = new_run(
        &run,
        &["--no-gate", "--categories", "--search-value", "0.5"],
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let table = succeed(&args);
    // Every generation's network has the auxiliary categories head.
    for k in 0..3 {
        let net = agents::neural::NetEvaluator::load(&run.join(format!("gen-{k}/net.safetensors")));
        assert!(net.unwrap().net.config.categories, "generation {k}");
    }
    // Its value targets mix in the search's values, and a resume keeps it.
    let settings = read(&run.join("improve-net.json"));
    assert!(settings.contains("\"search_value\": 0.5"), "{settings}");
    assert!(table.contains("ungated"), "{table}");
    let csv = read(&run.join("generations.csv"));
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 3, "{csv}");
    let col = |name: &str| COLUMNS.split(',').position(|c| c == name).unwrap();
    for (k, row) in rows.iter().enumerate().skip(1) {
        assert_eq!(row[col("sprt")], "ungated", "{csv}");
        assert_eq!(row[col("match_games")], "0", "{csv}");
        assert_eq!(row[col("promoted")], "true", "{csv}");
        assert_eq!(row[col("best")], k.to_string(), "{csv}");
        // No match, so no chained Elo; the gauntlet rates every network.
        for c in ["score", "elo", "elo_vs_gen0", "elo_vs_gen0_low"] {
            assert_eq!(row[col(c)], "", "{c}: {csv}");
        }
        let [rating, low, high] =
            ["rating", "rating_low", "rating_high"].map(|c| row[col(c)].parse::<f64>().unwrap());
        assert!(low <= rating && rating <= high, "{csv}");
        assert!(!run.join(format!("gen-{k}/match")).exists());
    }
    // Generation 2 self-plays with generation 1's network, whatever a
    // match would have said.
    let info = read(&run.join("gen-2/selfplay/run.json"));
    assert!(info.contains("net=gen-1/net.safetensors"), "{info}");
    // The page has the rating chart and no chained Elo.
    let page = read(&run.join("report.html"));
    assert!(page.contains("Rating against the fixed anchors"), "{page}");
    assert!(!page.contains("Elo against generation 0"), "{page}");
    // Resumed, it stays ungated and finished.
    let before = generations(&run);
    resume(&run);
    assert_eq!(generations(&run), before);

    // Another run goes on from this one's last network (--init): its
    // generation 0 has those weights, sizes and inputs.
    let init = run.join("gen-2/net.safetensors");
    let next = dir.join("next");
    let mut args = new_run(
        &next,
        &["--init", init.to_str().unwrap(), "--generations", "1"],
    );
    let hidden = args.iter().position(|a| a == "--hidden").unwrap();
    args.drain(hidden..hidden + 2);
    let generations_flag = args.iter().position(|a| a == "--generations").unwrap();
    args.drain(generations_flag..generations_flag + 2);
    succeed(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        weights(&next, 0) == weights(&run, 2),
        "generation 0 is not the --init network"
    );
    let settings = read(&next.join("improve-net.json"));
    assert!(settings.contains("\"hidden\": 8"), "{settings}");
    assert!(settings.contains("\"categories\": true"), "{settings}");
    // Sizes cannot be asked of a network that has its own; a missing
    // network is named.
    let other = dir.join("other");
    let init = init.to_str().unwrap();
    let cases: [(&[&str], &[&str]); 3] = [
        (&["--init", init, "--hidden", "16"], &["--hidden", "--init"]),
        (
            &["--init", init, "--categories"],
            &["--categories", "--init"],
        ),
        (
            &["--init", "/no/such/net.safetensors"],
            &["/no/such/net.safetensors"],
        ),
    ];
    for (extra, needles) in cases {
        let mut args = vec!["improve", "--net", "--out", other.to_str().unwrap()];
        args.extend_from_slice(extra);
        let err = fails(&args);
        assert!(needles.iter().all(|n| err.contains(n)), "{extra:?}: {err}");
    }
    assert!(!other.exists());
}

#[test]
fn merge_copies_selfplay_examples_and_refuses_clashes() {
    let dir = scratch("merge-examples");
    let selfplay = |out: &Path, shard: Option<&str>| {
        let mut args = vec![
            "selfplay",
            "--agent",
            "az:iterations=4",
            "--games",
            "4",
            "--seed",
            "9",
            "--threads",
            "1",
            "--out",
            out.to_str().unwrap(),
        ];
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        succeed(&args);
    };
    let whole = dir.join("whole");
    selfplay(&whole, None);
    let (s1, s2) = (dir.join("s1"), dir.join("s2"));
    selfplay(&s1, Some("1/2"));
    selfplay(&s2, Some("2/2"));
    let merged = dir.join("merged");
    succeed(&[
        "merge",
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    let files = |d: &Path| {
        let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(d.join("examples"))
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                let name = p.file_name().unwrap().to_string_lossy().to_string();
                (name, std::fs::read(&p).unwrap())
            })
            .collect();
        v.sort();
        v
    };
    let all = files(&whole);
    assert_eq!(all.len(), 4);
    assert_eq!(files(&merged), all, "merged examples differ from one run's");

    // A clash: shard 2 holding a file shard 1 has.
    let name = &files(&s1)[0].0;
    std::fs::copy(
        s1.join("examples").join(name),
        s2.join("examples").join(name),
    )
    .unwrap();
    let clash = dir.join("clash");
    let err = fails(&[
        "merge",
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
        "--out",
        clash.to_str().unwrap(),
    ]);
    assert!(err.contains(name.as_str()), "{err}");
    assert!(!clash.exists(), "a refused merge wrote {}", clash.display());
}

#[test]
fn improve_net_bad_flags_give_one_line_errors() {
    let dir = scratch("improve-net-flags");
    let out = dir.join("run");
    let o = out.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["improve", "--bootstrap", "x", "--agent", "greedy"],
            "--net",
        ),
        (&["improve", "--net"], "--out"),
        (
            &["improve", "--net", "--out", o, "--agent", "mcts"],
            "az spec",
        ),
        (
            &[
                "improve",
                "--net",
                "--out",
                o,
                "--agent",
                "az:net=x.safetensors",
            ],
            "net=",
        ),
        (&["improve", "--net", "--out", o, "--noise", "2"], "--noise"),
        (
            &["improve", "--net", "--out", o, "--search-value", "1.5"],
            "--search-value must be in 0..1",
        ),
        (
            &[
                "improve",
                "--net",
                "--out",
                o,
                "--search-value",
                "0.5",
                "--agent",
                "az:iterations=8,lead=0.5",
            ],
            "a search with lead= blends the lead",
        ),
        (&["improve", "--search-value", "0.5"], "--net"),
        (
            &["improve", "--net", "--out", o, "--window", "0"],
            "--window",
        ),
        (
            &["improve", "--net", "--out", o, "--holdout", "0.95"],
            "--holdout",
        ),
        (
            &["improve", "--net", "--out", o, "--sprt", "30,0"],
            "--sprt",
        ),
        (
            &[
                "improve",
                "--net",
                "--out",
                o,
                "--bootstrap",
                "/no/such/dir",
            ],
            "/no/such/dir",
        ),
        (
            &["improve", "--net", "--out", o, "--anchors", "none"],
            "without --gate",
        ),
        (&["improve", "--gate"], "--net"),
        (&["improve", "--no-gate"], "--net"),
        (&["improve", "--anchor-generation", "2"], "--net"),
        (
            &["improve", "--net", "--resume", "/no/such/run"],
            "not an improve --net run",
        ),
        (
            &["improve", "--net", "--resume", o, "--seed", "3"],
            "--seed",
        ),
    ];
    for (args, needle) in cases {
        let err = fails(args);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
    let err = fails_with(
        &[
            "improve",
            "--net",
            "--out",
            o,
            "--anchor-generation",
            "first",
        ],
        2,
    );
    assert!(
        err.contains("--anchor-generation") && err.trim().lines().count() == 1,
        "{err}"
    );
    // Seat counts are checked by clap's value parser: exit 2, one line.
    let err = fails_with(&["improve", "--net", "--out", o, "--players", "7"], 2);
    assert!(
        err.contains("--players") && err.trim().lines().count() == 1,
        "{err}"
    );
    assert!(!out.exists(), "--players 7 wrote {}", out.display());
    let err = fails_with(&["improve", "--net", "--out", o, "--gate", "--no-gate"], 2);
    assert!(err.contains("--gate") && err.contains("--no-gate"), "{err}");
    assert!(!out.exists(), "--gate --no-gate wrote {}", out.display());
    // An existing run is continued with --resume, not --out.
    let args = new_run(&out, &["--selfplay-command"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    succeed(&args);
    let err = fails(&["improve", "--net", "--out", o]);
    assert!(err.contains("--resume"), "{err}");
}
