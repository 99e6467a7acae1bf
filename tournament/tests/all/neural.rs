//! End to end: `selfplay --agent az:…` writes training examples,
//! `train-net` trains a network on them, and the same seed gives the same
//! examples and the same weights byte for byte, whatever the threads.

use crate::common::{fails, ok, run, scratch};
use std::path::Path;

fn selfplay(out: &Path, threads: &str) {
    run(&[
        "selfplay",
        "--agent",
        "az:iterations=6",
        "--games",
        "2",
        "--seed",
        "3",
        "--threads",
        threads,
        "--out",
        out.to_str().unwrap(),
    ]);
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (
                p.file_name().unwrap().to_string_lossy().to_string(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// `train-net` on `data` into `out`: two epochs of a net 8 wide, half
/// the games held out, seed 4, and the options `extra`.
fn train_net(data: &Path, out: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "train-net",
        data.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--epochs",
        "2",
        "--hidden",
        "8",
        "--holdout",
        "0.5",
        "--seed",
        "4",
    ];
    args.extend_from_slice(extra);
    ok(&args)
}

#[test]
fn selfplay_examples_and_train_net_reproduce_for_a_seed() {
    let dir = scratch("neural-same");
    let (a, b) = (dir.join("a"), dir.join("b"));
    selfplay(&a, "1");
    selfplay(&b, "2");
    let shards = files(&a.join("examples"));
    assert_eq!(shards.len(), 2, "one shard per game");
    assert_eq!(
        shards,
        files(&b.join("examples")),
        "examples differ with the threads"
    );
    let text = train_net(&a, &dir.join("n1.safetensors"), &[]);
    assert!(text.contains("epoch 2: train policy"), "{text}");
    assert!(text.contains("top1"), "{text}");
    train_net(&a, &dir.join("n2.safetensors"), &[]);
    assert_eq!(
        std::fs::read(dir.join("n1.safetensors")).unwrap(),
        std::fs::read(dir.join("n2.safetensors")).unwrap(),
        "the same data and seed give other weights"
    );
}

#[test]
fn train_net_refuses_bad_input_in_one_line() {
    let dir = scratch("neural-bad");
    let err = fails(&[
        "train-net",
        dir.join("none").to_str().unwrap(),
        "--out",
        "x.safetensors",
    ]);
    assert!(err.contains("no such file or folder"), "{err}");
    let err = fails(&["train-net", dir.to_str().unwrap(), "--out", "x.safetensors"]);
    assert!(err.contains("no example shards"), "{err}");
    std::fs::write(dir.join("junk.safetensors"), b"junk").unwrap();
    let err = fails(&["train-net", dir.to_str().unwrap(), "--out", "x.safetensors"]);
    assert!(err.contains("junk.safetensors"), "{err}");
}

/// A progressively widening search (`mcts`) reports only the actions it
/// tried: self-play records every legal action anyway, those it never
/// tried with no visits, so the policy target covers the legal set.
#[test]
fn mcts_selfplay_records_the_actions_it_never_tried_at_zero() {
    let dir = scratch("neural-mcts");
    run(&[
        "selfplay",
        "--agent",
        "mcts:iterations=20,depth=0",
        "--games",
        "2",
        "--seed",
        "5",
        "--threads",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let (data, _) =
        agents::neural::data::Dataset::read(&dir.join("examples/game-0000000.safetensors"))
            .unwrap();
    let (mut untried, mut positions) = (0, 0);
    for i in 0..data.targets.len() {
        let (lo, hi) = data.action_range(i);
        let shares = &data.visits[lo..hi];
        let sum: f32 = shares.iter().sum();
        assert!(
            (sum - 1.0).abs() < 1e-4,
            "position {i}: shares sum to {sum}"
        );
        untried += shares.iter().filter(|&&v| v == 0.0).count();
        positions += 1;
    }
    assert!(positions > 20, "{positions} positions");
    assert!(
        untried > positions,
        "only {untried} untried actions in {positions} positions"
    );
}

/// `train-net --no-board` writes a network whose trunk reads the globals
/// only, marked so in its metadata, and `az:…,expand=2` plays it.
#[test]
fn a_network_without_the_board_trains_and_plays() {
    let dir = scratch("neural-no-board");
    let data = dir.join("data");
    selfplay(&data, "1");
    let net = dir.join("globals.safetensors");
    let text = train_net(&data, &net, &["--no-board"]);
    assert!(text.contains("epoch 1: train policy"), "{text}");
    let file = agents::neural::tensors::File::read(&net, agents::capped::Cap::NET).unwrap();
    assert_eq!(
        file.metadata().get("board").map(String::as_str),
        Some("false")
    );
    let (shape, _) = file.f32("trunk1.weight").unwrap();
    assert_eq!(shape, vec![8, agents::neural::encode::GLOBAL_FEATURES]);
    let spec = format!("az:net={},iterations=20,expand=2", net.display());
    run(&[
        "tournament",
        "--agents",
        &format!("{spec},random"),
        "--games",
        "2",
        "--seed",
        "1",
        "--threads",
        "1",
        "--out",
        dir.join("match").to_str().unwrap(),
    ]);
}
