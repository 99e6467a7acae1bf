//! Issue 27, results safety: one writer per results folder, resume and
//! merge that refuse lost or mismatched data, report targets, closed
//! pipes, bounded sizes and wrong acceptances. Games are tiny (random
//! agents) so the races can be tried many times.

mod common;

use common::*;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};

/// A run of random agents stopped after `stop` of its `games` games, as
/// if killed.
fn stopped_run(dir: &Path, games: &str, stop: &str) {
    tournament(
        dir,
        &[
            "--agents",
            "random,random:meeple=0.3",
            "--games",
            games,
            "--seed",
            "5",
            "--records",
            "--threads",
            "1",
            "--stop-after",
            stop,
        ],
    );
}

fn spawn(args: &[&str]) -> Child {
    bin()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn stderr_of(child: Child) -> (bool, String) {
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// Complete games in games.csv and lines in records.jsonl.
fn counts(dir: &Path) -> (usize, usize) {
    let rows = games_without_think_ms(dir).len() - 1;
    let records = read(&dir.join("records.jsonl")).lines().count();
    (rows / 2, records)
}

/// Copy the files of the results folder `from` into a new folder `to`.
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// Issue 27: two `--resume` of one folder at once both rewrote the
/// files through the same temporary names; the survivor said "finished"
/// with 20 of 120 records (4 of 17 tries). Now the second is refused,
/// naming the first's pid, and no try of 100 ever loses a game or a
/// record. Each try races two resumes of a copy of one stopped run (so
/// the run is played once), checked by its counts alone: with `flock`
/// made a no-op (an LD_PRELOAD stub, docs/fuzzing.md) this test fails.
#[test]
fn racing_resumes_never_lose_a_record() {
    const TRIES: usize = 100;
    let dir = scratch("race-resume");
    let stopped = dir.join("stopped");
    stopped_run(&stopped, "60", "3");
    let mut refused = 0;
    for attempt in 0..TRIES {
        let run = dir.join(format!("run-{attempt}"));
        copy_folder(&stopped, &run);
        let path = run.to_str().unwrap();
        let a = spawn(&["tournament", "--resume", path]);
        let b = spawn(&["tournament", "--resume", path]);
        let results = [stderr_of(a), stderr_of(b)];
        assert!(results.iter().any(|r| r.0), "{results:?}");
        for (ok, err) in &results {
            if !ok {
                refused += 1;
                assert!(
                    err.contains("is in use by another carcassonne process (pid "),
                    "{err}"
                );
                assert_eq!(err.lines().count(), 1, "{err}");
            }
        }
        assert_eq!(counts(&run), (60, 60), "attempt {attempt}");
        let info = json(&run.join("run.json"));
        assert_eq!(info["status"], "finished", "attempt {attempt}");
        assert_eq!(info["games_finished"], 60, "attempt {attempt}");
        if attempt % 25 == 0 {
            let replay = ok(&["replay", run.join("records.jsonl").to_str().unwrap()]);
            assert_eq!(replay.lines().count(), 60);
        }
        std::fs::remove_dir_all(&run).unwrap();
    }
    // The resumes raced: some were refused (not every second one ran
    // after the first had finished).
    assert!(refused > 0, "no try raced");
}

/// Two runs into one `--out` at once: one is refused, the other's
/// folder is whole.
#[test]
fn two_runs_into_one_folder_do_not_both_finish() {
    let dir = scratch("race-out");
    for attempt in 0..6 {
        let run = dir.join(format!("run-{attempt}"));
        let path = run.to_str().unwrap();
        let args = [
            "tournament",
            "--agents",
            "random,random:meeple=0.3",
            "--games",
            "60",
            "--records",
            "--out",
            path,
        ];
        let results = [stderr_of(spawn(&args)), stderr_of(spawn(&args))];
        let finished = results.iter().filter(|r| r.0).count();
        assert_eq!(finished, 1, "{results:?}");
        assert_eq!(counts(&run), (60, 60));
    }
}

/// Two runs into the default folder in the same second both get a
/// folder of their own.
#[test]
fn two_runs_into_the_default_folder_each_get_one() {
    let dir = scratch("race-default");
    let args = [
        "tournament",
        "--agents",
        "random,random:meeple=0.3",
        "--games",
        "40",
        "--records",
    ];
    let start = |_| {
        bin()
            .args(args)
            .current_dir(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let children: Vec<Child> = (0..3).map(start).collect();
    for child in children {
        let (ok, err) = stderr_of(child);
        assert!(ok, "{err}");
    }
    let folders: Vec<PathBuf> = std::fs::read_dir(dir.join("results"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(folders.len(), 3, "{folders:?}");
    for f in &folders {
        assert_eq!(counts(f), (40, 40), "{}", f.display());
    }
}

/// A folder whose lock another process holds is refused by every
/// writer, with that process's pid; a stale lock file never blocks.
#[test]
fn a_locked_folder_is_refused_by_every_writer_and_a_stale_lock_is_not() {
    let dir = scratch("locked");
    let run = dir.join("run");
    stopped_run(&run, "20", "4");
    let path = run.to_str().unwrap();
    let lock = tournament::run::lock::FolderLock::acquire(&run).unwrap();
    let pid = format!("(pid {})", std::process::id());
    for args in [
        vec!["tournament", "--resume", path],
        vec!["report", path],
        vec!["selfplay", "--resume", path],
    ] {
        let err = fails(&args);
        assert!(
            err.contains("in use") && err.contains(&pid),
            "{args:?}: {err}"
        );
    }
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let held = tournament::run::lock::FolderLock::acquire(&empty).unwrap();
    let err = fails(&[
        "tournament",
        "--agents",
        "random,random",
        "--games",
        "2",
        "--out",
        empty.to_str().unwrap(),
    ]);
    assert!(err.contains(&pid), "{err}");
    drop(held);
    drop(lock);
    // The lock file stays, with a pid nobody holds: it never blocks.
    std::fs::write(run.join(".lock"), "4000000\n").unwrap();
    ok(&["tournament", "--resume", path]);
    ok(&["report", path]);
}

/// Issue 27: `report --out` replaced whatever was there by a rename: a
/// FIFO, a symlink, the run's own games.csv.
#[test]
fn report_never_replaces_a_fifo_a_symlink_or_the_runs_files() {
    let dir = scratch("report-targets");
    let run = dir.join("run");
    tournament(&run, &["--agents", "random,random", "--games", "4"]);
    let games = read(&run.join("games.csv"));
    let path = run.to_str().unwrap();
    let err = fails(&[
        "report",
        path,
        "--out",
        run.join("games.csv").to_str().unwrap(),
    ]);
    assert!(err.contains("data file"), "{err}");
    assert_eq!(read(&run.join("games.csv")), games);
    let fifo = dir.join("fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let err = fails(&["report", path, "--out", fifo.to_str().unwrap()]);
    assert!(err.contains("a FIFO"), "{err}");
    let target = dir.join("target.txt");
    std::fs::write(&target, "keep").unwrap();
    let link = dir.join("link.html");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let err = fails(&["report", path, "--out", link.to_str().unwrap()]);
    assert!(err.contains("symbolic link"), "{err}");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let err = fails(&["report", path, "--out", "/dev/null"]);
    assert!(err.contains("a device"), "{err}");
    // A regular file elsewhere is fine.
    ok(&[
        "report",
        path,
        "--out",
        dir.join("r.html").to_str().unwrap(),
    ]);
}

/// Issue 27: `--resume` with records.jsonl gone replayed every finished
/// game silently; records swapped within a deck were accepted; games.csv
/// was never compared with the records.
#[test]
fn resume_refuses_lost_swapped_or_mismatched_records() {
    let dir = scratch("resume-records");
    let make = |name: &str| {
        let run = dir.join(name);
        stopped_run(&run, "20", "6");
        run
    };
    let resume = |run: &Path| fails(&["tournament", "--resume", run.to_str().unwrap()]);

    let missing = make("missing");
    std::fs::remove_file(missing.join("records.jsonl")).unwrap();
    let games = read(&missing.join("games.csv"));
    let err = resume(&missing);
    assert!(err.contains("records.jsonl is missing"), "{err}");
    assert_eq!(read(&missing.join("games.csv")), games);

    let short = make("short");
    let path = short.join("records.jsonl");
    let lines: Vec<String> = read(&path).lines().map(String::from).collect();
    std::fs::write(&path, lines[..3].join("\n") + "\n").unwrap();
    let err = resume(&short);
    assert!(err.contains("holds 3 complete records"), "{err}");

    // Games 0 and 1 share a deck, seats swapped.
    let swapped = make("swapped");
    let path = swapped.join("records.jsonl");
    let mut lines: Vec<String> = read(&path).lines().map(String::from).collect();
    lines.swap(0, 1);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let err = resume(&swapped);
    assert!(
        err.contains("records.jsonl:1: the record of another game"),
        "{err}"
    );

    let scores = make("scores");
    let path = scores.join("games.csv");
    let score: u32 = games_without_think_ms(&scores)[3][4].parse().unwrap();
    let text = read(&path);
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let fields: Vec<&str> = lines[3].split(',').collect();
    let mut changed: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
    changed[4] = (score + 1).to_string();
    lines[3] = changed.join(",");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let err = resume(&scores);
    assert!(
        err.contains("records.jsonl:2: the record of game 1 gives seat 0"),
        "{err}"
    );
}

/// Issue 27: merge took shards of different code revisions.
#[test]
fn merge_refuses_shards_of_different_code_revisions() {
    let dir = scratch("merge-revisions");
    let mut shards = Vec::new();
    for k in 1..=2 {
        let shard = dir.join(format!("shard-{k}"));
        let spec = format!("{k}/2");
        tournament(
            &shard,
            &[
                "--agents",
                "random,random",
                "--games",
                "4",
                "--records",
                "--shard",
                &spec,
            ],
        );
        shards.push(shard);
    }
    let info = shards[1].join("run.json");
    let mut run = json(&info);
    run["code_revision"] = serde_json::json!("0123456789abcdef0123456789abcdef01234567");
    std::fs::write(&info, serde_json::to_string_pretty(&run).unwrap()).unwrap();
    let out = dir.join("merged");
    let err = fails(&[
        "merge",
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(err.contains("code revision"), "{err}");
    assert!(!out.exists());
}

/// Read a child's stdout until `lines` lines have come, then close it.
fn read_lines_then_close(child: &mut Child, lines: usize) {
    let mut stdout = child.stdout.take().unwrap();
    let mut seen = 0;
    let mut byte = [0u8; 1];
    while seen < lines && stdout.read(&mut byte).unwrap() == 1 {
        seen += usize::from(byte[0] == b'\n');
    }
    drop(stdout);
}

/// Issue 27: writing to a closed pipe panicked (exit 101):
/// `carcassonne replay big.jsonl | head -1`, and the same for every
/// command's output. Now the output stops quietly, exit 0, and a run's
/// folder is still finished.
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    let dir = scratch("pipe");
    let run = dir.join("run");
    tournament(
        &run,
        &["--agents", "random,random", "--games", "20", "--records"],
    );
    let one = read(&run.join("records.jsonl"));
    let big = dir.join("big.jsonl");
    std::fs::write(&big, one.repeat(100)).unwrap();
    let mut child = bin()
        .args(["replay", big.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    read_lines_then_close(&mut child, 1);
    let (ok, err) = stderr_of(child);
    assert!(ok && err.is_empty(), "{err}");

    // A run whose reader has gone before it ends.
    let quiet = dir.join("quiet");
    let mut child = bin()
        .args([
            "tournament",
            "--agents",
            "random,random",
            "--games",
            "40",
            "--out",
        ])
        .arg(&quiet)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let (ok, err) = stderr_of(child);
    assert!(ok && !err.contains("panicked"), "{err}");
    assert_eq!(json(&quiet.join("run.json"))["status"], "finished");
    assert!(quiet.join("report.html").is_file());

    // play prints every turn; the record is still written.
    let record = dir.join("game.json");
    let mut child = bin()
        .args(["play", "--seed", "2", "--out"])
        .arg(&record)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    read_lines_then_close(&mut child, 1);
    let (ok, err) = stderr_of(child);
    assert!(ok && err.is_empty(), "{err}");
    assert!(record.is_file());
}

/// Issue 27: `report` looped for ever on `inf` in a points column.
#[test]
fn report_refuses_numbers_that_are_not_finite() {
    let dir = scratch("report-inf");
    let run = dir.join("run");
    tournament(&run, &["--agents", "random,random", "--games", "4"]);
    let path = run.join("games.csv");
    let text = read(&path);
    for bad in ["inf", "NaN", "-inf", "1.7e308"] {
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let mut fields: Vec<String> = lines[2].split(',').map(String::from).collect();
        fields[5] = bad.to_string(); // road
        lines[2] = fields.join(",");
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let err = fails(&["report", run.to_str().unwrap()]);
        assert!(err.contains("games.csv:3: road is"), "{bad}: {err}");
    }
}

/// Issue 27: many agents with `--players` 3 or more ran out of memory
/// listing the pairings before any check.
#[test]
fn too_many_pairings_are_refused_before_any_is_listed() {
    let dir = scratch("pairings");
    let agents = vec!["random"; 200].join(",");
    let out = dir.join("run");
    let err = fails(&[
        "tournament",
        "--agents",
        &agents,
        "--players",
        "6",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        err.contains("82408626300 pairings, more than 100000"),
        "{err}"
    );
    assert!(!out.exists());
    let err = fails(&["bench", "--rounds", "100000000000"]);
    assert!(err.contains("--rounds must be at most"), "{err}");
}

/// Issue 27: `train --lambda 1e-300` wrote NaN weights and said "model
/// written"; a model whose predictions overflow was used silently.
#[test]
fn a_failed_fit_writes_nothing_and_an_overflowing_model_is_refused() {
    let dir = scratch("train-fail");
    let data = dir.join("data");
    ok(&[
        "selfplay",
        "--agent",
        "random",
        "--games",
        "2",
        "--out",
        data.to_str().unwrap(),
    ]);
    // Fewer positions than features: the system is singular.
    let few = dir.join("few");
    std::fs::create_dir(&few).unwrap();
    let lines: Vec<String> = read(&data.join("positions.csv"))
        .lines()
        .take(12)
        .map(String::from)
        .collect();
    std::fs::write(few.join("positions.csv"), lines.join("\n") + "\n").unwrap();
    let model = dir.join("m.json");
    let m = model.to_str().unwrap();
    let err = fails(&[
        "train",
        few.to_str().unwrap(),
        "--out",
        m,
        "--lambda",
        "1e-300",
        "--holdout",
        "0",
    ]);
    assert!(err.contains("the fit failed"), "{err}");
    assert!(!model.exists());

    ok(&["train", data.to_str().unwrap(), "--out", m]);
    let mut json = json(&model);
    json["weights"][3] = serde_json::json!(1e300);
    let bad = dir.join("bad.json");
    std::fs::write(&bad, json.to_string()).unwrap();
    let spec = format!("greedy:eval={}", bad.display());
    let err = fails(&[
        "play",
        "--agents",
        &format!("{spec},random"),
        "--out",
        dir.join("g.json").to_str().unwrap(),
    ]);
    assert!(err.contains("predictions could reach"), "{err}");
}

/// Issue 27: `improve --out` a tournament folder and `improve --agent
/// random` (which cannot use a model) were accepted; duplicate keys took
/// the last value; `play --svg` onto a file failed only after the game.
#[test]
fn wrong_acceptances_are_refused_up_front() {
    let dir = scratch("acceptances");
    let run = dir.join("run");
    tournament(&run, &["--agents", "random,random", "--games", "2"]);
    let listing = |d: &Path| {
        let mut names: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        names.sort();
        names
    };
    let before = listing(&run);
    let err = fails(&[
        "improve",
        "--agent",
        "greedy",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert!(err.contains("not an empty folder"), "{err}");
    assert_eq!(listing(&run), before);
    let fresh = dir.join("imp");
    let err = fails(&[
        "improve",
        "--agent",
        "random",
        "--out",
        fresh.to_str().unwrap(),
    ]);
    assert!(err.contains("cannot use a value model"), "{err}");
    assert!(!fresh.exists());

    let out = dir.join("dup");
    let err = fails(&[
        "tournament",
        "--agents",
        "mcts:c=1,c=2,random",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(err.contains("parameter \"c\" given twice"), "{err}");
    let err = fails_with(
        &[
            "tournament",
            "--rules",
            "hand=1,hand=2",
            "--out",
            out.to_str().unwrap(),
        ],
        2,
    );
    assert!(err.contains("rules key `hand` given twice"), "{err}");
    assert!(!out.exists());

    let record = dir.join("g.json");
    for svg in [run.join("games.csv"), run.clone()] {
        let err = fails(&[
            "play",
            "--svg",
            svg.to_str().unwrap(),
            "--out",
            record.to_str().unwrap(),
        ]);
        assert!(err.contains("--svg"), "{err}");
        assert!(!record.exists(), "refused before the game");
    }
}

/// An improve run holds its folder's lock: a second one is refused.
#[test]
fn a_second_improve_into_one_folder_is_refused() {
    let dir = scratch("improve-lock");
    let out = dir.join("imp");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(
        out.join("improve.json"),
        r#"{"agent":"greedy","generations":1,"games_per_gen":2,"match_games":2,"window":1,"players":2,"seed":1,"gifts":false,"no_farmers":false}"#,
    )
    .unwrap();
    let _lock = tournament::run::lock::FolderLock::acquire(&out).unwrap();
    let err = fails(&["improve", "--out", out.to_str().unwrap()]);
    assert!(err.contains("in use"), "{err}");
}
