//! `carcassonne train-net`: train the `az` network on example shards.

use clap::Args as ClapArgs;
use files::error::Result;
use files::stdio::Stdout;
use std::path::PathBuf;

/// Options of `carcassonne train-net`.
#[derive(Debug, Clone, ClapArgs)]
pub struct TrainNetArgs {
    /// Example shards (.safetensors) or folders of them (a self-play
    /// folder: its examples/).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// The weights file to write (must not exist).
    #[arg(long, value_name = "NET.safetensors")]
    pub out: PathBuf,
    /// Start from these weights (default: random weights from --seed).
    #[arg(long, value_name = "NET.safetensors")]
    pub init: Option<PathBuf>,
    /// Seed of the initial weights, the held-out split and the batches.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Positions per step.
    #[arg(long, default_value_t = 64)]
    pub batch: usize,
    /// AdamW learning rate.
    #[arg(long, default_value_t = 1e-3)]
    pub lr: f64,
    /// AdamW weight decay.
    #[arg(long, default_value_t = 1e-4)]
    pub weight_decay: f64,
    /// Share of the games held out, 0 to 0.9.
    #[arg(long, default_value_t = 0.1)]
    pub holdout: f64,
    /// Policy-surprise weighting, 0 to 1 (0: off): each position weighs
    /// `(1 − s) + s · KL / mean KL`, KL of its policy target from the
    /// starting network's prior; the mean weight is 1.
    #[arg(long, default_value_t = 0.0)]
    pub surprise: f64,
    /// Weight of the search's value in the value target, 0 to 1 (0: the
    /// game's outcome alone): the seat to play's target is `(1 − w)·outcome
    /// + w·search value` (with two players the other seat's the
    /// opposite). Needs shards of `az` self-play that keep it.
    #[arg(long, default_value_t = 0.0)]
    pub search_value: f64,
    /// Width of the trunk.
    #[arg(long, default_value_t = 256)]
    pub hidden: usize,
    /// A network whose trunk reads only the globals (the position
    /// features among them), not the board window: cheaper to evaluate.
    #[arg(long)]
    pub no_board: bool,
    /// A network that does not read the 40 hand-made position features
    /// (the linear value models' features): it learns from the raw
    /// inputs only — the board window (unless --no-board), scores,
    /// supplies, bag counts, the tile to place, gift cards.
    #[arg(long)]
    pub no_features: bool,
    /// A network with an auxiliary head trained to predict each seat's
    /// final points by category (roads, cities, monasteries, farms,
    /// gifts) beside the value; play never reads it. Needs shards that
    /// keep the category targets.
    #[arg(long)]
    pub categories: bool,
}

/// Train the network and print each epoch's losses.
pub fn run(t: TrainNetArgs, out: &mut Stdout) -> Result<()> {
    if let (Some(init), true) = (&t.init, t.categories) {
        return Err(files::error::Error::Invalid(format!(
            "--categories cannot be given with --init: the network's heads are those of {}",
            init.display()
        )));
    }
    let defaults = agents::neural::NetConfig::default();
    let config = tournament::learning::train_net::TrainNetConfig {
        data: t.data,
        out: t.out,
        init: t.init,
        net: agents::neural::NetConfig {
            hidden: t.hidden,
            board: !t.no_board,
            features: !t.no_features,
            categories: t.categories,
            ..defaults
        },
        train: agents::neural::train::TrainConfig {
            epochs: t.epochs,
            batch: t.batch,
            lr: t.lr,
            weight_decay: t.weight_decay,
            held_out: t.holdout,
            seed: t.seed,
            surprise: t.surprise,
            search_value: t.search_value,
        },
    };
    tournament::learning::train_net::train_net(&config, out)
}
