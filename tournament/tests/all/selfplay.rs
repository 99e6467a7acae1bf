//! End to end: `selfplay` writes positions that `train` fits a model to,
//! the model plays through `eval=`, and the same seed gives the same data
//! and model byte for byte, whatever the threads, shards or interruptions.

use crate::common::{bin, read, run, scratch};
use std::path::Path;

fn selfplay(out: &Path, extra: &[&str]) {
    let mut args = vec![
        "selfplay",
        "--agent",
        "greedy",
        "--games",
        "6",
        "--seed",
        "5",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run(&args);
}

fn train(dirs: &[&Path], out: &Path) -> String {
    let mut args = vec!["train"];
    args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
    args.extend(["--out", out.to_str().unwrap(), "--holdout", "0.3"]);
    String::from_utf8(run(&args).stdout).unwrap()
}

#[test]
fn selfplay_and_train_give_the_same_bytes_for_the_same_seed() {
    let dir = scratch("selfplay-same");
    let (a, b) = (dir.join("a"), dir.join("b"));
    selfplay(&a, &["--threads", "1"]);
    selfplay(&b, &["--threads", "2"]);
    for file in ["positions.csv", "records.jsonl"] {
        assert_eq!(read(&a.join(file)), read(&b.join(file)), "{file} differs");
    }
    let positions = read(&a.join("positions.csv"));
    let lines: Vec<&str> = positions.lines().collect();
    // One row per decision: 71 placements per game (no gifts).
    assert_eq!(lines.len(), 1 + 6 * 71);
    assert!(lines[0].starts_with("game,deck_seed,step,turn,seat,players,tiles_left,"));
    assert!(lines[0].ends_with(",action,action_id,root_visits,final_lead,result,rank"));
    let text = train(&[&a], &dir.join("m1.json"));
    assert!(text.contains("held out") && text.contains("late"), "{text}");
    // The same data (and seed) gives the same model file.
    train(&[&a], &dir.join("m2.json"));
    assert_eq!(read(&dir.join("m1.json")), read(&dir.join("m2.json")));
    let model = crate::common::json(&dir.join("m1.json"));
    assert_eq!(model["provenance"]["seed"], 1);
    assert_eq!(model["features"].as_array().unwrap().len(), 40);
    // What it was fitted on: the self-play run's seats and rules.
    assert_eq!(model["fitted_on"]["players"], serde_json::json!([2]));
    assert_eq!(
        model["fitted_on"]["rules"],
        serde_json::json!([{"farmers": true, "gifts": false}])
    );
    // A tournament under other rules with it warns, once, on stderr
    // (and plays).
    let m1 = dir.join("m1.json");
    let spec = format!("greedy:eval={}", m1.display());
    let agents = format!("{spec},random");
    let out = crate::common::tournament(
        &dir.join("gifts"),
        &["--agents", &agents, "--games", "2", "--gifts"],
    );
    let err = String::from_utf8(out.stderr).unwrap();
    let warning = format!(
        "carcassonne: warning: agent {spec}: its eval= model is fitted on 2-player games \
         under the standard rules, not 2-player games under gifts=true"
    );
    assert_eq!(err.matches(&warning).count(), 1, "{err}");
    let out = crate::common::tournament(&dir.join("same"), &["--agents", &agents, "--games", "2"]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn a_resumed_or_sharded_selfplay_writes_the_uninterrupted_data() {
    let dir = scratch("selfplay-resume");
    let whole = dir.join("whole");
    selfplay(&whole, &[]);
    let cut = dir.join("cut");
    selfplay(&cut, &["--stop-after", "2"]);
    let partial = read(&cut.join("positions.csv"));
    assert!(partial.lines().count() < read(&whole.join("positions.csv")).lines().count());
    run(&["selfplay", "--resume", cut.to_str().unwrap()]);
    let (s1, s2) = (dir.join("s1"), dir.join("s2"));
    selfplay(&s1, &["--shard", "1/2"]);
    selfplay(&s2, &["--shard", "2/2"]);
    let merged = dir.join("merged");
    run(&[
        "merge",
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    for other in [&cut, &merged] {
        for file in ["positions.csv", "records.jsonl"] {
            assert_eq!(
                read(&whole.join(file)),
                read(&other.join(file)),
                "{file} of {}",
                other.display()
            );
        }
    }
}

#[test]
fn mcts_self_play_records_root_visits_and_a_model_plays_through_eval() {
    let dir = scratch("selfplay-mcts");
    let data = dir.join("data");
    run(&[
        "selfplay",
        "--agent",
        "mcts:iterations=20",
        "--games",
        "2",
        "--players",
        "2",
        "--out",
        data.to_str().unwrap(),
    ]);
    let positions = read(&data.join("positions.csv"));
    let row = positions.lines().nth(1).unwrap();
    // root_visits: id:visits pairs.
    assert!(row.contains(':'), "{row}");
    let model = dir.join("model.json");
    train(&[&data], &model);
    let m = model.to_str().unwrap();
    for spec in [
        format!("greedy:eval={m}"),
        format!("mcts:iterations=20,depth=0,eval={m}"),
    ] {
        let out = dir.join(spec.split(':').next().unwrap());
        run(&[
            "tournament",
            "--agents",
            &format!("{spec},random"),
            "--games",
            "2",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(read(&out.join("games.csv")).lines().count() == 5);
    }
}

/// Issue 16: a model fitted on other features is refused with a clear
/// one-line error, before anything is played or written.
#[test]
fn a_model_with_other_features_is_refused_by_the_command_line() {
    let dir = scratch("selfplay-bad-model");
    let data = dir.join("data");
    selfplay(&data, &[]);
    let model = dir.join("model.json");
    train(&[&data], &model);
    let text = read(&model).replacen("\"supply_me\"", "\"meeples_me\"", 1);
    let bad = dir.join("bad.json");
    std::fs::write(&bad, text).unwrap();
    let out = dir.join("never");
    let result = bin()
        .args([
            "tournament",
            "--agents",
            &format!("greedy:eval={},random", bad.display()),
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(1));
    let err = String::from_utf8(result.stderr).unwrap();
    assert!(
        err.contains("other features") && err.contains("meeples_me") && err.lines().count() == 1,
        "{err}"
    );
    assert!(!out.exists());
    // train refuses an existing model file and data of another layout.
    let again = bin()
        .args([
            "train",
            data.to_str().unwrap(),
            "--out",
            model.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(1));
}

#[test]
fn improve_runs_generations_keeps_every_model_and_continues() {
    let dir = scratch("improve");
    let out = dir.join("run");
    let command = |generations: &str| {
        run(&[
            "improve",
            "--agent",
            "greedy",
            "--generations",
            generations,
            "--games-per-gen",
            "4",
            "--match-games",
            "4",
            "--seed",
            "3",
            "--threads",
            "1",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    command("2");
    let csv = read(&out.join("generations.csv"));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4, "{csv}");
    assert!(lines[0].starts_with("generation,agent,data_positions,heldout_rmse"));
    assert!(lines[2].starts_with("1,greedy:eval="), "{csv}");
    for k in 1..=2 {
        let r#gen = out.join(format!("gen-{k}"));
        assert!(r#gen.join("model.json").is_file());
        assert!(r#gen.join("selfplay/positions.csv").is_file());
        assert!(r#gen.join("match/run.json").is_file());
    }
    // Again: every step is reused; then one more generation.
    let model = read(&out.join("gen-1/model.json"));
    command("2");
    assert_eq!(read(&out.join("generations.csv")), csv);
    command("3");
    assert_eq!(read(&out.join("gen-1/model.json")), model);
    let extended = read(&out.join("generations.csv"));
    assert!(extended.starts_with(&csv), "{extended}");
    assert_eq!(extended.lines().count(), 5);
    // Other settings for the same folder are refused.
    let other = bin()
        .args([
            "improve",
            "--agent",
            "random",
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(other.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&other.stderr).contains("other settings"));
}
