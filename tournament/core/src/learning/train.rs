//! `carcassonne train`: fit a value model to the positions of self-play
//! folders and report how well it predicts on games it has not seen.
//!
//! Games, never single positions, are split between training and the
//! held-out set: game `g` is held out when `mix(seed, "HOLD", [deck
//! seed])`, read as a fraction of 2⁶⁴, is below `--holdout` (every
//! self-play game has a deck seed of its own). The model is ridge
//! regression of the final lead ([`agents::learn::ridge`]); the file holds
//! its feature list, weights, normalisation and provenance, and depends
//! only on the data, the seed, the options and the code revision, so the
//! same inputs give the same bytes.

use crate::learning::positions::{columns, FIRST_FEATURE};
use crate::results::output::{read_run_info, write_atomic};
use crate::results::schema::{POSITIONS_CSV, RUN_JSON};
use crate::seeds::mix;
use agents::learn::{ridge, FeatureVector, FittedOn, ValueModel, FEATURE_COUNT};
use files::error::{Error, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Domain tag of the held-out split ("HOLD").
const HOLD_TAG: u64 = 0x484F_4C44;

/// What `train` needs.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Self-play folders.
    pub dirs: Vec<PathBuf>,
    /// The model file to write.
    pub out: PathBuf,
    /// Seed of the split.
    pub seed: u64,
    /// Share of games held out, 0 ≤ h ≤ 0.9.
    pub holdout: f64,
    /// Ridge penalty, > 0.
    pub lambda: f64,
}

impl TrainConfig {
    /// Check the options.
    ///
    /// # Errors
    /// A share or penalty out of range, or an existing output file.
    pub fn check(&self) -> Result<()> {
        if !(0.0..=0.9).contains(&self.holdout) {
            return Err(Error::Invalid(format!(
                "--holdout must be in 0..0.9, not {}",
                self.holdout
            )));
        }
        if !(self.lambda > 0.0 && self.lambda.is_finite()) {
            return Err(Error::Invalid(format!(
                "--lambda must be a positive number, not {}",
                self.lambda
            )));
        }
        if self.out.exists() {
            return Err(Error::Invalid(format!(
                "--out {} exists; choose a new file",
                self.out.display()
            )));
        }
        // A folder given twice (or under two spellings or links) would
        // count its games twice.
        let mut seen: Vec<(PathBuf, &PathBuf)> = Vec::new();
        for dir in &self.dirs {
            let canonical = std::fs::canonicalize(dir).map_err(|e| Error::io("open", dir, e))?;
            if let Some((_, first)) = seen.iter().find(|(c, _)| *c == canonical) {
                return Err(Error::Invalid(format!(
                    "{}: the same folder as {} (given twice): its games would count twice",
                    dir.display(),
                    first.display()
                )));
            }
            seen.push((canonical, dir));
        }
        Ok(())
    }
}

/// One decision of the data.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The deck seed of its game (the game's identity for the split).
    pub deck_seed: u64,
    /// The deciding seat's features.
    pub features: FeatureVector,
    /// Its final score minus the best other seat's.
    pub lead: f64,
    /// 1 for a win, ½ for a shared first place, 0 for a loss.
    pub result: f64,
}

/// Read the positions.csv of a self-play folder.
///
/// # Errors
/// A missing file, a header of another build, or a row that does not parse
/// (with its line).
pub fn read_positions(dir: &Path) -> Result<Vec<Sample>> {
    let path = dir.join(POSITIONS_CSV);
    let (file, _) = agents::capped::open(&path, agents::capped::Cap::POSITIONS)
        .map_err(|e| Error::io("open", &path, e))?;
    let mut reader = csv::Reader::from_reader(std::io::BufReader::new(
        agents::capped::LineCapped::new(file),
    ));
    let header = reader
        .headers()
        .map_err(|e| Error::Folder(format!("{}: {e}", path.display())))?;
    if header.iter().ne(columns()) {
        return Err(Error::Folder(format!(
            "{}: other columns than this build writes (features changed?); \
             regenerate it with `carcassonne selfplay`",
            path.display()
        )));
    }
    let lead_column = FIRST_FEATURE + FEATURE_COUNT + 3;
    let mut out = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let bad = |what: String| Error::Folder(format!("{}:{}: {what}", path.display(), i + 2));
        let record = record.map_err(|e| bad(e.to_string()))?;
        let number = |k: usize| -> Result<f64> {
            record
                .get(k)
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| v.is_finite())
                .ok_or_else(|| bad(format!("column {} is not a number", k + 1)))
        };
        let mut features = [0.0; FEATURE_COUNT];
        for (k, f) in features.iter_mut().enumerate() {
            *f = number(FIRST_FEATURE + k)?;
        }
        let result = match record.get(lead_column + 1) {
            Some("win") => 1.0,
            Some("draw") => 0.5,
            Some("loss") => 0.0,
            other => return Err(bad(format!("result {other:?} is not win, draw or loss"))),
        };
        out.push(Sample {
            deck_seed: record
                .get(1)
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| bad("deck_seed is not an integer".to_string()))?,
            features,
            lead: number(lead_column)?,
            result,
        });
    }
    Ok(out)
}

/// A digest of the samples of a folder (deck seeds, features and
/// targets): two folders of the same digest hold the same positions.
fn digest(samples: &[Sample]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    for s in samples {
        s.deck_seed.hash(&mut h);
        for f in s.features {
            f.to_bits().hash(&mut h);
        }
        s.lead.to_bits().hash(&mut h);
        s.result.to_bits().hash(&mut h);
    }
    h.finish()
}

/// Whether the game with `deck_seed` is held out.
pub fn held_out(seed: u64, deck_seed: u64, holdout: f64) -> bool {
    (mix(seed, HOLD_TAG, &[deck_seed]) as f64) < holdout * 2f64.powi(64)
}

/// How well a predictor does on one game phase.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhaseError {
    /// `early` (48+ tiles left), `middle` (24–47), `late` (under 24) or
    /// `all`.
    pub phase: String,
    /// Positions.
    pub positions: u64,
    /// Root mean square error of the predicted final lead.
    pub rmse: f64,
    /// Share of decided positions (the seat won or lost) whose winner the
    /// sign of the prediction names.
    pub winner_accuracy: f64,
    /// The same two for the end-now lead as the prediction (baseline).
    pub rmse_end_now: f64,
    /// See `rmse_end_now`.
    pub winner_accuracy_end_now: f64,
}

/// The phase of a position by the tiles left (feature 0).
fn phase(x: &FeatureVector) -> &'static str {
    match x[0] as u32 {
        48.. => "early",
        24..=47 => "middle",
        _ => "late",
    }
}

/// The held-out errors of `model` on `samples`, by phase and overall.
pub fn evaluate(model: &ValueModel, samples: &[&Sample]) -> Vec<PhaseError> {
    ["early", "middle", "late", "all"]
        .iter()
        .map(|&name| {
            let chosen: Vec<&&Sample> = samples
                .iter()
                .filter(|s| name == "all" || phase(&s.features) == name)
                .collect();
            let model_lead = |s: &Sample| model.predict(&s.features);
            // end_now_me − end_now_rival.
            let end_now_lead = |s: &Sample| s.features[3] - s.features[4];
            let (rmse, acc) = errors(&chosen, model_lead);
            let (rmse_end_now, acc_end_now) = errors(&chosen, end_now_lead);
            PhaseError {
                phase: name.to_string(),
                positions: chosen.len() as u64,
                rmse,
                winner_accuracy: acc,
                rmse_end_now,
                winner_accuracy_end_now: acc_end_now,
            }
        })
        .collect()
}

/// RMSE and winner accuracy of `predict` (rounded to 4 decimals).
fn errors(samples: &[&&Sample], predict: impl Fn(&Sample) -> f64) -> (f64, f64) {
    let mut squared = 0.0;
    let (mut decided, mut right) = (0u64, 0u64);
    for s in samples {
        let p = predict(s);
        squared += (p - s.lead).powi(2);
        if s.result != 0.5 {
            decided += 1;
            right += u64::from((p > 0.0) == (s.result == 1.0));
        }
    }
    let n = samples.len().max(1) as f64;
    let round = |x: f64| (x * 1e4).round() / 1e4;
    (
        round((squared / n).sqrt()),
        round(right as f64 / decided.max(1) as f64),
    )
}

/// What a training run produced.
#[derive(Clone, Debug)]
pub struct TrainReport {
    /// The model written.
    pub model: ValueModel,
    /// Positions and games used to fit it.
    pub train_positions: u64,
    /// Games fitted on.
    pub train_games: u64,
    /// Games held out.
    pub heldout_games: u64,
    /// Held-out errors by phase.
    pub heldout: Vec<PhaseError>,
}

impl TrainReport {
    /// The table printed by `train`.
    pub fn text(&self, out: &Path) -> String {
        let mut s = format!(
            "fitted on {} positions of {} games; {} games held out\n\
             {:<7} {:>9} {:>8} {:>13} {:>9} {:>13}\n",
            self.train_positions,
            self.train_games,
            self.heldout_games,
            "phase",
            "positions",
            "rmse",
            "rmse_end_now",
            "winner",
            "winner_end_now"
        );
        for p in &self.heldout {
            s.push_str(&format!(
                "{:<7} {:>9} {:>8.3} {:>13.3} {:>9.3} {:>13.3}\n",
                p.phase,
                p.positions,
                p.rmse,
                p.rmse_end_now,
                p.winner_accuracy,
                p.winner_accuracy_end_now
            ));
        }
        s.push_str(&format!("model written to {}\n", out.display()));
        s
    }
}

/// The seat counts and rules of the games in the self-play folders
/// `dirs`, from their run.json (`None` when a folder has none: positions
/// from elsewhere).
///
/// # Errors
/// A run.json that cannot be read.
fn fitted_on(dirs: &[PathBuf]) -> Result<Option<FittedOn>> {
    let mut fitted = FittedOn {
        players: Vec::new(),
        rules: Vec::new(),
    };
    for dir in dirs {
        if !dir.join(RUN_JSON).exists() {
            return Ok(None);
        }
        let settings = read_run_info(dir)?.settings;
        if !fitted.players.contains(&settings.players) {
            fitted.players.push(settings.players);
        }
        if !fitted.rules.contains(&settings.rules) {
            fitted.rules.push(settings.rules);
        }
    }
    fitted.players.sort_unstable();
    Ok(Some(fitted))
}

/// Fit the model of `config`, write it, and report its held-out errors.
///
/// # Errors
/// Bad options, unreadable data, no training positions, or a failed write.
pub fn train(config: &TrainConfig) -> Result<TrainReport> {
    config.check()?;
    let mut samples = Vec::new();
    let mut digests: Vec<(u64, &PathBuf)> = Vec::new();
    for dir in &config.dirs {
        let read = read_positions(dir)?;
        let digest = digest(&read);
        if let Some((_, first)) = digests.iter().find(|(d, _)| *d == digest) {
            if !read.is_empty() {
                return Err(Error::Invalid(format!(
                    "{}: the same positions as {} (a copy of that folder): its games would count twice",
                    dir.display(),
                    first.display()
                )));
            }
        }
        digests.push((digest, dir));
        samples.extend(read);
    }
    let (heldout, fit): (Vec<&Sample>, Vec<&Sample>) = samples
        .iter()
        .partition(|s| held_out(config.seed, s.deck_seed, config.holdout));
    if fit.is_empty() {
        return Err(Error::Invalid(format!(
            "no positions to fit in {} (all held out, or no games)",
            config
                .dirs
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let rows: Vec<FeatureVector> = fit.iter().map(|s| s.features).collect();
    let targets: Vec<f64> = fit.iter().map(|s| s.lead).collect();
    let mut model = ridge::fit(&rows, &targets, config.lambda);
    // A penalty too small for the data (e.g. --lambda 1e-300) leaves the
    // system singular: NaN or huge weights. Nothing is written then.
    model.check().map_err(|e| {
        Error::Invalid(format!(
            "the fit failed with --lambda {:e}: the model {e}",
            config.lambda
        ))
    })?;
    let games = |set: &[&Sample]| {
        let mut seeds: Vec<u64> = set.iter().map(|s| s.deck_seed).collect();
        seeds.sort_unstable();
        seeds.dedup();
        seeds.len() as u64
    };
    let errors = evaluate(&model, &heldout);
    model.fitted_on = fitted_on(&config.dirs)?;
    model.provenance = serde_json::json!({
        "data": config.dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>(),
        "seed": config.seed,
        "holdout": config.holdout,
        "code_revision": crate::results::meta::code_revision(),
        "train_positions": fit.len(),
        "train_games": games(&fit),
        "heldout_games": games(&heldout),
        "heldout": errors,
    });
    let mut text =
        serde_json::to_string_pretty(&model).map_err(|e| Error::Internal(e.to_string()))?;
    text.push('\n');
    write_atomic(&config.out, text.as_bytes())?;
    Ok(TrainReport {
        model,
        train_positions: fit.len() as u64,
        train_games: games(&fit),
        heldout_games: games(&heldout),
        heldout: errors,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_holds_out_about_the_share_asked() {
        let held = (0..10_000u64).filter(|&d| held_out(3, d, 0.2)).count();
        assert!((1800..2200).contains(&held), "{held}");
        assert_eq!((0..100u64).filter(|&d| held_out(3, d, 0.0)).count(), 0);
        // Another seed, another split.
        let other = (0..100u64).filter(|&d| held_out(4, d, 0.5));
        assert!(other.ne((0..100u64).filter(|&d| held_out(3, d, 0.5))));
    }

    #[test]
    fn bad_options_are_refused() {
        let config = TrainConfig {
            dirs: vec![],
            out: PathBuf::from("/nonexistent/model.json"),
            seed: 1,
            holdout: 0.95,
            lambda: 1.0,
        };
        assert!(config
            .check()
            .unwrap_err()
            .to_string()
            .contains("--holdout"));
        let config = TrainConfig {
            holdout: 0.2,
            lambda: 0.0,
            ..config
        };
        assert!(config.check().unwrap_err().to_string().contains("--lambda"));
    }
}
