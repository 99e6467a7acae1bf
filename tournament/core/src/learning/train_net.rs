//! `carcassonne train-net`: train the `az` network on self-play examples
//! (docs/neural.md) and report held-out losses, policy agreement with the
//! search and value accuracy by game phase.
//!
//! Data are example shards (`.safetensors.gz`, or `.safetensors` as
//! written before issue 47) or folders holding them
//! (directly or in an `examples/` folder: `carcassonne selfplay --agent
//! az:…` writes one shard per game there). Games are renumbered in the
//! order read (files sorted by name), so the held-out split depends only
//! on the data given, their order and the seed.

use agents::learn::FittedOn;
use agents::neural::compact::{CompactExamples, Examples};
use agents::neural::data::Dataset;
use agents::neural::train::{train, Metrics, TrainConfig, TrainReport};
use agents::neural::{NetConfig, NetEvaluator};
use engine::Rules;
use files::error::{Error, Result};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What `train-net` needs.
#[derive(Clone, Debug)]
pub struct TrainNetConfig {
    /// Shards or folders of shards.
    pub data: Vec<PathBuf>,
    /// The weights file to write (must not exist).
    pub out: PathBuf,
    /// Start from these weights instead of random ones.
    pub init: Option<PathBuf>,
    /// The network's sizes (ignored with `init`).
    pub net: NetConfig,
    /// How to train.
    pub train: TrainConfig,
}

/// The shard files of `data`, in order.
///
/// # Errors
/// A path that does not exist, or a folder without shards.
pub fn shard_files(data: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in data {
        if !path.is_dir() {
            if std::fs::metadata(path).is_err() {
                return Err(Error::Invalid(format!(
                    "{}: no such file or folder",
                    path.display()
                )));
            }
            // A file, or anything else the shard reader then refuses (a
            // FIFO, a device) without reading it.
            files.push(path.clone());
            continue;
        }
        let dir = if path.join("examples").is_dir() {
            path.join("examples")
        } else {
            path.clone()
        };
        let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map_err(|e| Error::Invalid(format!("{}: {e}", dir.display())))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(crate::learning::examples::is_shard_name)
            })
            .collect();
        if found.is_empty() {
            return Err(Error::Invalid(format!(
                "{}: no example shards (*.safetensors.gz, *.safetensors); write them with `carcassonne selfplay --agent az:…`",
                dir.display()
            )));
        }
        found.sort();
        files.extend(found);
    }
    // The same shard twice (named twice, or through two folders, links or
    // spellings) would count its games twice: refused.
    let mut seen: Vec<(PathBuf, &PathBuf)> = Vec::with_capacity(files.len());
    for file in &files {
        let canonical = std::fs::canonicalize(file)
            .map_err(|e| Error::Invalid(format!("{}: {e}", file.display())))?;
        if let Some((_, first)) = seen.iter().find(|(c, _)| *c == canonical) {
            return Err(Error::Invalid(format!(
                "{}: the same shard as {} (given twice): its games would count twice",
                file.display(),
                first.display()
            )));
        }
        seen.push((canonical, file));
    }
    Ok(files)
}

/// Read every shard of `data` into one compact set of examples (games
/// renumbered in order; the board windows kept when `keep_board`: a
/// network that reads them), with the games' seat counts and rules.
///
/// # Errors
/// A shard that cannot be read (one line naming it).
pub fn load(data: &[PathBuf], keep_board: bool) -> Result<(CompactExamples, FittedOn)> {
    let mut all = CompactExamples::new(keep_board);
    let mut fitted = FittedOn {
        players: Vec::new(),
        rules: Vec::new(),
    };
    let mut next_game = 0u32;
    for_each_shard(data, |file, mut shard, meta| {
        let mut ids: Vec<(u32, u32)> = Vec::new();
        for t in &mut shard.targets {
            let id = match ids.iter().find(|(old, _)| *old == t.game) {
                Some(&(_, new)) => new,
                None => {
                    ids.push((t.game, next_game));
                    next_game += 1;
                    next_game - 1
                }
            };
            t.game = id;
            if !fitted.players.contains(&(t.players as usize)) {
                fitted.players.push(t.players as usize);
            }
        }
        if let Some(rules) = meta.get("rules") {
            let rules: Rules = rules.parse().map_err(|e| {
                Error::Invalid(format!(
                    "{}: rules `{rules}` in its metadata: {e}",
                    file.display()
                ))
            })?;
            if !fitted.rules.contains(&rules) {
                fitted.rules.push(rules);
            }
        }
        all.extend(&shard);
        Ok(())
    })?;
    fitted.players.sort_unstable();
    Ok((all, fitted))
}

/// Read every shard of `data` ([`shard_files`]), in order, and give each
/// to `visit` with its path and metadata: the one reader of `train-net`,
/// `improve --net` and the Python `load_examples`. Each shard is checked
/// by [`Dataset::read`] (examples training cannot trust are refused); a
/// shard given twice, or a copy of one (the same bytes), is refused.
///
/// # Errors
/// A path that does not exist, a folder without shards, a shard given
/// twice or copied, a shard that cannot be read or trusted, or what
/// `visit` returns.
pub fn for_each_shard(
    data: &[PathBuf],
    mut visit: impl FnMut(&Path, Dataset, HashMap<String, String>) -> Result<()>,
) -> Result<()> {
    let mut digests: Vec<(u64, PathBuf)> = Vec::new();
    for file in shard_files(data)? {
        let (shard, meta, digest) =
            Dataset::read_with_digest(&file).map_err(|e| Error::Invalid(e.to_string()))?;
        if let Some((_, first)) = digests.iter().find(|(d, _)| *d == digest) {
            return Err(Error::Invalid(format!(
                "{}: the same bytes as {} (a copy of that shard): its games would count twice",
                file.display(),
                first.display()
            )));
        }
        visit(&file, shard, meta)?;
        digests.push((digest, file));
    }
    Ok(())
}

/// One epoch's metrics on one line.
pub fn line(m: &Metrics) -> String {
    let categories = m
        .categories_loss
        .map_or(String::new(), |c| format!(" categories {c:.3}"));
    format!(
        "policy {:.3} value {:.3} lead {:.3}{categories} top1 {:.1}% value-sign {:.0}/{:.0}/{:.0}%",
        m.policy_loss,
        m.value_loss,
        m.lead_loss,
        100.0 * m.top1,
        100.0 * m.value_accuracy[0],
        100.0 * m.value_accuracy[1],
        100.0 * m.value_accuracy[2],
    )
}

/// A trained network (not yet saved) and what its training reported.
pub struct Fitted {
    /// The network, with its provenance filled in.
    pub net: NetEvaluator,
    /// The metrics of every epoch.
    pub report: TrainReport,
    /// Positions read (training and held out).
    pub positions: usize,
    /// Games read.
    pub games: usize,
}

/// Check the training options of `config` (all but `--out`).
///
/// # Errors
/// A value out of its range, as one line naming the option.
pub fn check(config: &TrainNetConfig) -> Result<()> {
    if !(0.0..=0.9).contains(&config.train.held_out) {
        return Err(Error::Invalid(format!(
            "--holdout must be in 0..0.9, not {}",
            config.train.held_out
        )));
    }
    if !(config.train.lr > 0.0 && config.train.lr.is_finite()) {
        return Err(Error::Invalid(format!(
            "--lr must be positive, not {}",
            config.train.lr
        )));
    }
    if !(1..=4096).contains(&config.net.hidden) {
        return Err(Error::Invalid(format!(
            "--hidden must be in 1..4096, not {}",
            config.net.hidden
        )));
    }
    if !(0.0..=1.0).contains(&config.train.surprise) {
        return Err(Error::Invalid(format!(
            "--surprise must be in 0..1, not {}",
            config.train.surprise
        )));
    }
    if !(0.0..=1.0).contains(&config.train.search_value) {
        return Err(Error::Invalid(format!(
            "--search-value must be in 0..1, not {}",
            config.train.search_value
        )));
    }
    if config.train.epochs == 0 || config.train.batch == 0 {
        return Err(Error::Invalid(
            "--epochs and --batch must be at least 1".to_string(),
        ));
    }
    Ok(())
}

/// Train the network of `config` (without writing it): the library call
/// behind `train-net` and `improve --net`. Prints one line per epoch to
/// `out`.
///
/// # Errors
/// Bad options, unreadable data or initial weights.
pub fn fit(config: &TrainNetConfig, out: &mut dyn std::io::Write) -> Result<Fitted> {
    check(config)?;
    let mut net = match &config.init {
        Some(path) => NetEvaluator::load(path).map_err(|e| Error::Invalid(e.to_string()))?,
        None => NetEvaluator::new(config.net, config.train.seed),
    };
    let (data, fitted) = load(&config.data, net.net.config.board)?;
    let games = data
        .targets()
        .iter()
        .map(|t| t.game)
        .max()
        .map_or(0, |g| g + 1);
    let say = |out: &mut dyn std::io::Write, text: String| {
        let _ = writeln!(out, "{text}");
    };
    say(
        out,
        format!(
            "{} positions of {games} games; network {}-{}-{}-{}",
            data.len(),
            net.net.config.hidden,
            net.net.config.context,
            net.net.config.cell,
            net.net.config.policy_hidden
        ),
    );
    let report = train(&mut net.net, &data, &config.train, |epoch, t, h| {
        let held = h.map_or(String::new(), |h| format!(" | held-out {}", line(h)));
        say(out, format!("epoch {epoch}: train {}{held}", line(t)));
    })
    .map_err(|e| Error::Invalid(e.to_string()))?;
    // A network that diverged is refused here, before anything is written.
    agents::neural::check_network(&net.net).map_err(|e| {
        Error::Invalid(format!(
            "training gave a network that cannot be trusted: it {e}; nothing written (a lower --lr, or check the data)"
        ))
    })?;
    say(
        out,
        format!(
            "trained on {} positions, held out {} positions of {} games",
            report.train_positions, report.held_out_positions, report.held_out_games
        ),
    );
    let p = &mut net.provenance;
    p.fitted_on = Some(fitted);
    p.data = config
        .data
        .iter()
        .map(|d| d.display().to_string())
        .collect();
    p.seed = config.train.seed;
    p.revision = crate::results::meta::code_revision();
    let t = &config.train;
    p.extra.insert(
        "training".into(),
        format!(
            "epochs={} batch={} lr={} weight_decay={} holdout={} positions={} games={}",
            t.epochs,
            t.batch,
            t.lr,
            t.weight_decay,
            t.held_out,
            data.len(),
            games
        ),
    );
    if let Some(h) = report.held_out.last() {
        p.extra.insert("held_out".into(), line(h));
    }
    if let Some(init) = &config.init {
        p.extra.insert("init".into(), init.display().to_string());
    }
    Ok(Fitted {
        net,
        report,
        positions: data.len(),
        games: games as usize,
    })
}

/// Train and write the network; print one line per epoch to `out`.
///
/// # Errors
/// Bad options, unreadable data or weights, an existing `--out`.
pub fn train_net(config: &TrainNetConfig, out: &mut dyn std::io::Write) -> Result<()> {
    if config.out.exists() {
        return Err(Error::Invalid(format!(
            "--out {} exists; choose a new file",
            config.out.display()
        )));
    }
    check(config)?;
    let fitted = fit(config, out)?;
    fitted
        .net
        .save(&config.out)
        .map_err(|e| Error::Invalid(e.to_string()))?;
    let _ = writeln!(out, "wrote {}", config.out.display());
    Ok(())
}
