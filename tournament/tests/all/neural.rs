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
    // Issue 47: the metadata names the rules (the standard ones too), and
    // with one agent pairwise.csv is a header without rows, not empty.
    let (_, meta) =
        agents::neural::data::Dataset::read(&a.join("examples/game-0000000.safetensors.gz"))
            .unwrap();
    let rules = &meta["rules"];
    assert!(rules.starts_with("farmers=true,gifts=false,"), "{rules}");
    assert_eq!(rules.parse::<engine::Rules>(), Ok(engine::Rules::STANDARD));
    let pairwise = std::fs::read_to_string(a.join("pairwise.csv")).unwrap();
    assert_eq!(
        pairwise,
        format!(
            "{}\n",
            tournament::results::schema::PAIRWISE_COLUMNS.join(",")
        )
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
    // Towards the search's values (az's shards keep them): other weights.
    let mixed = dir.join("mixed.safetensors");
    train_net(&a, &mixed, &["--search-value", "0.5"]);
    assert_ne!(
        std::fs::read(&mixed).unwrap(),
        std::fs::read(dir.join("n1.safetensors")).unwrap()
    );
    let err = fails(&[
        "train-net",
        a.to_str().unwrap(),
        "--out",
        dir.join("x.safetensors").to_str().unwrap(),
        "--search-value",
        "1.5",
    ]);
    assert!(err.contains("--search-value must be in 0..1"), "{err}");
    // The auxiliary categories head: trained from the shards' category
    // targets (its loss printed), saved, read back and played; it may
    // not be asked of a network given by --init.
    let cat = dir.join("cat.safetensors");
    let text = train_net(&a, &cat, &["--categories"]);
    assert!(text.contains("categories "), "{text}");
    let net = agents::neural::NetEvaluator::load(&cat).unwrap();
    assert!(net.net.config.categories);
    let plain = agents::neural::NetEvaluator::load(&dir.join("n1.safetensors")).unwrap();
    assert!(!plain.net.config.categories);
    let spec = format!("az:iterations=4,net={}", cat.display());
    ok(&[
        "tournament",
        "--agents",
        &format!("{spec},random"),
        "--games",
        "2",
        "--out",
        dir.join("t").to_str().unwrap(),
    ]);
    let err = fails(&[
        "train-net",
        a.to_str().unwrap(),
        "--out",
        dir.join("x.safetensors").to_str().unwrap(),
        "--init",
        cat.to_str().unwrap(),
        "--categories",
    ]);
    assert!(
        err.contains("--categories cannot be given with --init"),
        "{err}"
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
        agents::neural::data::Dataset::read(&dir.join("examples/game-0000000.safetensors.gz"))
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

/// Two searched self-play games into `out` (one shard each).
fn mcts_selfplay(out: &Path) {
    run(&[
        "selfplay",
        "--agent",
        "mcts:iterations=12",
        "--games",
        "2",
        "--seed",
        "7",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
}

/// `train-net` on `data` into `out` must fail in one line containing
/// each of `wants`, and write nothing.
fn train_net_refuses(data: &[&Path], out: &Path, wants: &[&str]) {
    let mut args = vec!["train-net"];
    args.extend(data.iter().map(|d| d.to_str().unwrap()));
    args.extend([
        "--out",
        out.to_str().unwrap(),
        "--epochs",
        "1",
        "--hidden",
        "8",
    ]);
    let err = fails(&args);
    for want in wants {
        assert!(err.contains(want), "wanted {want:?}: {err}");
    }
    assert!(!out.exists(), "{} was written", out.display());
}

/// A change made to examples.
type Edit = Box<dyn Fn(&mut agents::neural::data::Dataset)>;

/// Issue 41: a shard of NaN or implausible examples trained a network
/// of NaN weights (exit 0) or, with 7 players, panicked (exit 101); now
/// each is refused in one line naming the file, the example and the
/// field.
#[test]
fn train_net_refuses_untrustworthy_examples_naming_file_and_field() {
    use agents::neural::data::Dataset;
    let dir = scratch("neural-untrusted");
    let data = dir.join("data");
    mcts_selfplay(&data);
    let shard = data.join("examples/game-0000000.safetensors.gz");
    let (good, meta) = Dataset::read(&shard).unwrap();
    let out = dir.join("net.safetensors");
    let bad = dir.join("bad.safetensors");
    let cases: Vec<(&str, Edit)> = vec![
        ("`visits` holds NaN", Box::new(|d| d.visits[0] = f32::NAN)),
        ("`visits` holds -1.0", Box::new(|d| d.visits[0] = -1.0)),
        (
            "`globals` holds inf",
            Box::new(|d| d.globals[180] = f32::INFINITY),
        ),
        ("`actions` holds NaN", Box::new(|d| d.actions[0] = f32::NAN)),
        (
            "`score` is NaN",
            Box::new(|d| d.targets[2].scores[0] = f32::NAN),
        ),
        (
            "`players` is 7, not 2 to 6",
            Box::new(|d| d.targets[0].players = 7),
        ),
        (
            "`players` is 0, not 2 to 6",
            Box::new(|d| d.targets[0].players = 0),
        ),
    ];
    for (want, edit) in &cases {
        let mut d = good.clone();
        edit(&mut d);
        d.write(&bad, meta.clone()).unwrap();
        train_net_refuses(
            &[&bad],
            &out,
            &[&bad.display().to_string(), "example", want],
        );
    }
    // Metadata that contradicts the arrays.
    let mut other = meta.clone();
    other.insert("players".into(), "4".into());
    good.write(&bad, other).unwrap();
    train_net_refuses(&[&bad], &out, &["its metadata says players 4"]);
}

/// Issue 41: the same shard given twice (or a copy of it) was trained on
/// twice; a FIFO blocked the reader for ever; a 2 GB sparse file was
/// read whole; a training that diverged wrote a network of NaN weights.
#[test]
fn train_net_refuses_duplicates_fifos_huge_files_and_diverged_networks() {
    let dir = scratch("neural-duplicates");
    let data = dir.join("data");
    mcts_selfplay(&data);
    let shard = data.join("examples/game-0000000.safetensors.gz");
    let out = dir.join("net.safetensors");
    train_net_refuses(&[&shard, &shard], &out, &["given twice"]);
    train_net_refuses(&[&data, &shard], &out, &["given twice"]);
    let copy = dir.join("copy.safetensors");
    std::fs::copy(&shard, &copy).unwrap();
    train_net_refuses(&[&shard, &copy], &out, &["a copy of that shard"]);
    // Issue 47: the shard unzipped (a plain .safetensors, as shards were
    // written before) reads as the same shard.
    let (examples, meta) = agents::neural::data::Dataset::read(&shard).unwrap();
    let plain = dir.join("plain.safetensors");
    examples.write(&plain, meta).unwrap();
    assert!(
        std::fs::metadata(&plain).unwrap().len() > 8 * std::fs::metadata(&shard).unwrap().len()
    );
    train_net_refuses(&[&shard, &plain], &out, &["a copy of that shard"]);
    let fifo = dir.join("fifo.safetensors");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let started = std::time::Instant::now();
    train_net_refuses(&[&fifo], &out, &["a FIFO, not a regular file"]);
    let err = fails(&[
        "train-net",
        data.to_str().unwrap(),
        "--init",
        fifo.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(err.contains("a FIFO"), "{err}");
    assert!(started.elapsed().as_secs() < 30, "a FIFO blocked");
    let sparse = dir.join("sparse.safetensors");
    std::fs::File::create(&sparse)
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    train_net_refuses(&[&sparse], &out, &["2.0 GiB", "cap"]);
    let err = fails(&[
        "train-net",
        data.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--epochs",
        "2",
        "--hidden",
        "8",
        "--lr",
        "1e30",
    ]);
    assert!(err.contains("cannot be trusted"), "{err}");
    assert!(!out.exists(), "a diverged network was written");
}

/// Issue 41 item 5: `train F F` fitted on every game twice.
#[test]
fn train_refuses_a_folder_given_twice_or_a_copy() {
    let dir = scratch("train-twice");
    let data = dir.join("data");
    run(&[
        "selfplay",
        "--agent",
        "greedy",
        "--games",
        "4",
        "--seed",
        "2",
        "--out",
        data.to_str().unwrap(),
    ]);
    let d = data.to_str().unwrap();
    let model = dir.join("m.json");
    let m = model.to_str().unwrap();
    let err = fails(&["train", d, d, "--out", m]);
    assert!(err.contains("given twice"), "{err}");
    let dotted = format!("{d}/.");
    let err = fails(&["train", d, &dotted, "--out", m]);
    assert!(err.contains("given twice"), "{err}");
    let copy = dir.join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    for f in std::fs::read_dir(&data).unwrap() {
        let p = f.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, copy.join(p.file_name().unwrap())).unwrap();
        }
    }
    let err = fails(&["train", d, copy.to_str().unwrap(), "--out", m]);
    assert!(err.contains("a copy of that folder"), "{err}");
    assert!(!model.exists());
}
