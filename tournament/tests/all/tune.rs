//! `carcassonne tune`: a killed run resumes to the trace of an
//! uninterrupted one (whatever the threads), the chart and the final
//! SPRT are written, and bad input is one line.

use crate::common::{bin, fails, fails_with, ok, read, run, scratch};
use std::path::Path;

/// A tiny tuning run: mcts's `c` over 3 iterations of 2 games per side
/// against greedy, then an SPRT of at most 4 games.
fn tune_args<'a>(out: &'a Path, threads: &'a str) -> Vec<&'a str> {
    vec![
        "tune",
        "mcts:iterations=20",
        "--param",
        "c=0.1..2",
        "--param",
        "k=1..8",
        "--against",
        "greedy",
        "--iterations",
        "3",
        "--games",
        "2",
        "--seed",
        "5",
        "--sprt-games",
        "4",
        "--threads",
        threads,
        "--out",
        out.to_str().unwrap(),
    ]
}

#[test]
fn a_killed_tune_resumes_to_the_trace_of_an_uninterrupted_run() {
    let dir = scratch("tune-resume");
    let whole = dir.join("whole");
    let stdout = ok(&tune_args(&whole, "2"));
    let trace = read(&whole.join("tuning.csv"));
    assert_eq!(trace.lines().count(), 4, "{trace}");
    assert!(trace.starts_with("iteration,a_k,c_k,c,c_plus,c_minus,k,k_plus,k_minus,"));
    let info: serde_json::Value = serde_json::from_str(&read(&whole.join("tune.json"))).unwrap();
    assert_eq!(info["status"], "finished");
    let tuned = info["tuned_spec"].as_str().unwrap();
    assert_ne!(tuned, "mcts:iterations=20,c=0.7,k=4", "{stdout}");
    assert!(stdout.contains(&format!("tuned spec: {tuned}")), "{stdout}");
    assert!(
        stdout.contains("start spec: mcts:iterations=20,c=0.7,k=4"),
        "{stdout}"
    );
    assert!(
        stdout.contains("SPRT 0,10 of the tuned spec against the start"),
        "{stdout}"
    );
    assert!(whole.join("sprt/games.csv").is_file());
    let svg = read(&whole.join("tuning.svg"));
    // A standalone SVG, one panel per parameter.
    assert!(svg.starts_with("<svg") && svg.contains(r#"xmlns="http://www.w3.org/2000/svg""#));
    assert_eq!(svg.matches(">\niteration\n<").count(), 2, "{svg}");

    // Killed after one iteration (on one thread), with a torn line left
    // behind, then resumed.
    let killed = dir.join("killed");
    let mut args = tune_args(&killed, "1");
    args.extend(["--stop-after", "1"]);
    run(&args);
    let first = read(&killed.join("tuning.csv"));
    assert_eq!(first.lines().count(), 2, "{first}");
    std::fs::write(killed.join("tuning.csv"), format!("{first}1,0.05,0.1,0.8")).unwrap();
    let resumed = ok(&[
        "tune",
        "--resume",
        killed.to_str().unwrap(),
        "--threads",
        "1",
    ]);
    assert_eq!(read(&killed.join("tuning.csv")), trace);
    assert!(
        resumed.contains(&format!("tuned spec: {tuned}")),
        "{resumed}"
    );
    let again: serde_json::Value = serde_json::from_str(&read(&killed.join("tune.json"))).unwrap();
    assert_eq!(again["tuned_theta"], info["tuned_theta"]);
    assert_eq!(again["resumed_at"].as_array().unwrap().len(), 1);
}

#[test]
fn an_edited_trace_is_refused_on_resume() {
    let dir = scratch("tune-edited");
    let out = dir.join("run");
    let mut args = tune_args(&out, "1");
    args.extend(["--stop-after", "1"]);
    run(&args);
    let path = out.join("tuning.csv");
    let text = read(&path);
    let (header, row) = text.split_once('\n').unwrap();
    // The fourth field is θ of c (the specs' quoted commas are split
    // too, and joined back as they were).
    let mut fields: Vec<&str> = row.split(',').collect();
    assert_eq!(fields[3], "0.7");
    fields[3] = "1.5";
    let edited = fields.join(",");
    std::fs::write(&path, format!("{header}\n{edited}")).unwrap();
    let e = fails(&["tune", "--resume", out.to_str().unwrap()]);
    assert!(e.contains("iteration 0 is not what the settings"), "{e}");
}

#[test]
fn bad_tune_input_is_one_line_and_creates_nothing() {
    let dir = scratch("tune-errors");
    let out = dir.join("never");
    let o = out.to_str().unwrap();
    for (args, needle) in [
        (
            vec!["tune", "mcts", "--param", "speed=1..2", "--out", o],
            "agent \"mcts\" has no parameter \"speed\" (valid: iterations",
        ),
        (
            vec!["tune", "mcts", "--param", "c=-1..2", "--out", o],
            "outside what mcts's c takes (number >= 0)",
        ),
        (
            vec!["tune", "mcts", "--param", "reward=0..1", "--out", o],
            "is a choice (score|win)",
        ),
        (
            vec!["tune", "mcts", "--param", "k=0..8", "--out", o],
            "outside what mcts's k takes (integer >= 1)",
        ),
        (
            vec!["tune", "mcts", "--param", "c=1..2", "--out", o],
            "starts at 0.7 (its default), outside the range",
        ),
        (vec!["tune", "mcts", "--out", o], "at least one --param"),
        (
            vec!["tune", "nobody", "--param", "c=0..1", "--out", o],
            "built-in agent",
        ),
        (
            vec![
                "tune",
                "mcts",
                "--param",
                "c=0..1",
                "--against",
                "nobody",
                "--out",
                o,
            ],
            "--against: unknown agent",
        ),
        (
            vec![
                "tune",
                "mcts",
                "--param",
                "c=0..1",
                "--iterations",
                "0",
                "--out",
                o,
            ],
            "--iterations must be",
        ),
        (
            vec![
                "tune", "mcts", "--param", "c=0..1", "--c", "0.9", "--out", o,
            ],
            "--c must be",
        ),
        (vec!["tune", "--resume", o], "is not a tuning folder"),
        (
            vec!["tune", "--resume", o, "--iterations", "3"],
            "only --threads may be added",
        ),
    ] {
        let e = fails(&args);
        assert!(e.contains(needle), "{args:?}: {e}");
        assert!(!out.exists(), "{args:?} created {o}");
    }
    // Syntax: clap names the option, one line, exit code 2.
    for bad in ["c0.1..2", "c=0.1", "c=2..1", "c=x..2"] {
        let e = fails_with(&["tune", "mcts", "--param", bad], 2);
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.contains("--param <NAME=LO..HI>"), "{e}");
    }
    let help = bin().args(["tune", "--help"]).output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(help.contains("--param <NAME=LO..HI>") && help.contains("--against"));
}

/// SIGINT to a running tune: the iterations complete are kept, the one
/// under way dropped, tune.json says `interrupted` with the tuned spec so
/// far, the chart is drawn, the exit code is 130 and the output says how
/// to resume.
#[test]
fn sigint_stops_a_tune_between_iterations_and_says_how_to_resume() {
    let dir = scratch("tune-sigint").join("run");
    let child = bin()
        .args([
            "tune",
            "random",
            "--param",
            "meeple=0..1",
            "--iterations",
            "100000",
        ])
        .args(["--games", "2", "--no-sprt", "--threads", "2"])
        .args(["--out", dir.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for a few iterations on disk (at most ~60 s).
    let csv = dir.join("tuning.csv");
    for _ in 0..600 {
        if std::fs::read_to_string(&csv).is_ok_and(|t| t.lines().count() > 10) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("tune --resume {}", dir.display())),
        "{stdout}"
    );
    let info: serde_json::Value = serde_json::from_str(&read(&dir.join("tune.json"))).unwrap();
    assert_eq!(info["status"], "interrupted");
    let done = info["iterations_done"].as_u64().unwrap();
    let text = read(&csv);
    assert!(text.ends_with('\n'));
    assert_eq!(text.lines().count() as u64, 1 + done);
    assert!(done > 10 && done < 100_000, "{done}");
    assert!(info["tuned_spec"]
        .as_str()
        .unwrap()
        .starts_with("random:meeple="));
    assert!(dir.join("tuning.svg").is_file());
}
