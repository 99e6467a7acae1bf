//! `carcassonne analyze-game`: what an agent thinks of every decision of
//! a recorded game (the analysis itself is `tournament::analysis`, which
//! Python reaches too); here the arguments, the files and the summary.

use clap::Args as ClapArgs;
use files::error::{Error, Result};
use files::stdio::Stdout;
use std::path::{Path, PathBuf};
use tournament::analysis::{self, Settings, BLUNDER_POINTS, MISTAKE_POINTS};

/// The arguments of `analyze-game`.
#[derive(Debug, Clone, ClapArgs)]
pub struct AnalyzeArgs {
    /// A record file (`play`'s output, or records.jsonl with --game).
    pub record: PathBuf,
    /// The analysing agent's spec, e.g. mcts:iterations=5000 (mcts and
    /// ismcts give leads in points and win shares; az its priors and
    /// values; agents that do not search only their choice).
    #[arg(long)]
    pub agent: String,
    /// Which game of a JSON Lines file, numbered from 0 as the `game`
    /// column of games.csv (default: 0).
    #[arg(long)]
    pub game: Option<usize>,
    /// The analysis as JSON (default: RECORD with .analysis.json; with
    /// --game N, RECORD with .N.analysis.json).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also one CSV row per decision (columns in docs/analysis.md).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Seed of the agent's generators (default: 1).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Top moves listed per decision.
    #[arg(long, default_value_t = 5)]
    pub top: usize,
    /// Points lost at or above which a move is a mistake.
    #[arg(long, default_value_t = MISTAKE_POINTS)]
    pub mistake: f64,
    /// Points lost at or above which a move is a blunder.
    #[arg(long, default_value_t = BLUNDER_POINTS)]
    pub blunder: f64,
}

/// The JSON's path when `--out` is not given.
fn default_out(record: &Path, game: Option<usize>) -> PathBuf {
    let stem = record
        .file_stem()
        .map_or_else(|| "game".into(), |s| s.to_string_lossy().into_owned());
    let name = match game {
        Some(g) => format!("{stem}.{g}.analysis.json"),
        None => format!("{stem}.analysis.json"),
    };
    record.with_file_name(name)
}

/// Analyse the game, write the JSON (and CSV), print the summary.
pub fn analyze_game(args: &AnalyzeArgs, out: &mut Stdout) -> Result<()> {
    if !(args.mistake > 0.0 && args.blunder >= args.mistake) {
        return Err(Error::Invalid(format!(
            "analyze-game needs 0 < --mistake <= --blunder, not {} and {}",
            args.mistake, args.blunder
        )));
    }
    let factory =
        agents::Factory::new(&args.agent).map_err(|e| Error::Invalid(format!("--agent: {e}")))?;
    let record = pictures::render::load_record(&args.record, args.game)?;
    let settings = Settings {
        top: args.top.max(1),
        seed: args.seed,
        mistake: args.mistake,
        blunder: args.blunder,
        ..Settings::default()
    };
    let analysis = analysis::analyze_record(&record, &factory, &settings)
        .map_err(|e| Error::content(&args.record, None, e.to_string()))?;
    let json_path = args
        .out
        .clone()
        .unwrap_or_else(|| default_out(&args.record, args.game));
    let json = serde_json::to_string(&analysis).map_err(|e| Error::Internal(e.to_string()))?;
    files::atomic::write_atomic(&json_path, format!("{json}\n").as_bytes())?;
    let mut text = analysis.text();
    text.push_str(&format!("wrote {}\n", json_path.display()));
    if let Some(csv_path) = &args.csv {
        let csv = analysis::csv_text(&analysis).map_err(|e| Error::Internal(e.to_string()))?;
        files::atomic::write_atomic(csv_path, csv.as_bytes())?;
        text.push_str(&format!("wrote {}\n", csv_path.display()));
    }
    out.print(&text)
}
