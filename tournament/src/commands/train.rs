//! `carcassonne train`: fit a value model to self-play positions.

use clap::Args as ClapArgs;
use files::error::Result;
use files::stdio::Stdout;
use std::path::PathBuf;

/// Options of `carcassonne train`.
#[derive(Debug, Clone, ClapArgs)]
pub struct TrainArgs {
    /// Self-play folders (each with positions.csv).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// The model file to write (must not exist).
    #[arg(long, value_name = "MODEL.json")]
    pub out: PathBuf,
    /// Seed of the held-out split (by game).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Share of the games held out, 0 to 0.9.
    #[arg(long, default_value_t = 0.2)]
    pub holdout: f64,
    /// Ridge penalty on the standardised weights (> 0).
    #[arg(long, default_value_t = 0.01)]
    pub lambda: f64,
}

/// Fit the model and print its summary.
pub fn run(t: TrainArgs, out: &mut Stdout) -> Result<()> {
    let config = tournament::learning::train::TrainConfig {
        dirs: t.dirs,
        out: t.out,
        seed: t.seed,
        holdout: t.holdout,
        lambda: t.lambda,
    };
    out.print(&tournament::learning::train::train(&config)?.text(&config.out))
}
