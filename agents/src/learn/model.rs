//! Value models: a linear function of the [`features`](super::features)
//! predicting a seat's final lead, read from the JSON file `carcassonne
//! train` writes, and used by the `eval=` parameter of `greedy` and
//! `mcts`/`ismcts`.
//!
//! A model file names the features it was fitted on; a file whose list
//! differs from this build's [`FEATURES`] (or of another format) is
//! refused with a message saying where they part, never used with
//! shuffled weights.

use super::features::{extract, FeatureVector, FEATURES, FEATURE_COUNT};
use engine::{Rules, Seat, SeatView, State, MAX_PLAYERS};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// The format tag of a model file.
pub const MODEL_FORMAT: &str = "carcassonne-value-model/1";

/// What the model predicts: the seat's final score minus the best other
/// seat's final score.
pub const TARGET: &str = "final_lead";

/// A bound on every feature's magnitude for [`ValueModel::check`]: the
/// features are counts and points of one game (tiles, meeples, scores),
/// all far below it.
pub const FEATURE_RANGE: f64 = 1e4;

/// The largest prediction a model may make for features within
/// [`FEATURE_RANGE`]: far above any final lead of a real model (the
/// shipped one stays under 1e6), far below where the arithmetic of a
/// search overflows.
pub const MAX_PREDICTION: f64 = 1e9;

/// A fitted linear value model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueModel {
    /// [`MODEL_FORMAT`].
    pub format: String,
    /// [`TARGET`].
    pub target: String,
    /// The feature names, in order (must equal [`FEATURES`]).
    pub features: Vec<String>,
    /// Each feature's mean over the training positions.
    pub mean: Vec<f64>,
    /// Each feature's standard deviation there (1 where it was constant).
    pub scale: Vec<f64>,
    /// The weight of each standardised feature, `(x − mean) / scale`.
    pub weights: Vec<f64>,
    /// The prediction at the mean position.
    pub intercept: f64,
    /// The ridge penalty, on standardised features.
    pub lambda: f64,
    /// Where the model comes from: data folders, seed, code revision,
    /// sizes and held-out errors (free-form, written by `train`).
    pub provenance: serde_json::Value,
    /// The games its training positions come from, when known (files
    /// written before `train` recorded it have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fitted_on: Option<FittedOn>,
}

/// The games a model was fitted on: the seat counts and rules of its
/// training data (`carcassonne train` reads them from each data folder's
/// run.json).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FittedOn {
    /// The seat counts, without repeats.
    pub players: Vec<usize>,
    /// The rules, without repeats.
    pub rules: Vec<Rules>,
}

impl FittedOn {
    /// Why a model fitted on these games may predict badly in games of
    /// `players` seats under `rules`, or `None` when it was fitted on
    /// such games (see [`ValueModel::unsuited_to`]).
    pub fn unsuited_to(&self, rules: &Rules, players: usize) -> Option<String> {
        if self.players.contains(&players) && self.rules.contains(rules) {
            return None;
        }
        let seats: Vec<String> = self.players.iter().map(|p| p.to_string()).collect();
        let fitted_rules: Vec<String> = self.rules.iter().map(describe).collect();
        Some(format!(
            "fitted on {}-player games under {}, not {players}-player games under {}",
            seats.join("/"),
            fitted_rules.join(" or "),
            describe(rules)
        ))
    }
}

/// `rules` in words: "the standard rules" or its `KEY=VALUE,…` form.
fn describe(rules: &Rules) -> String {
    let text = rules.to_string();
    if text.is_empty() {
        "the standard rules".to_string()
    } else {
        text
    }
}

/// What is wrong with a value model ([`ValueModel::check`]), in one
/// line.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelError {
    /// Another format than [`MODEL_FORMAT`]: the model's.
    Format(String),
    /// Another target than [`TARGET`]: the model's.
    Target(String),
    /// The feature lists part: at this 1-based column, the model's name
    /// and this build's (`None`: the list has ended).
    Features {
        /// The 1-based column.
        column: usize,
        /// The model's feature there.
        model: Option<String>,
        /// This build's feature there.
        build: Option<&'static str>,
    },
    /// A vector (`mean`, `scale` or `weights`) of another length than
    /// [`FEATURE_COUNT`].
    Length {
        /// The vector.
        name: &'static str,
        /// Its length.
        len: usize,
    },
    /// A vector holding an infinity or a NaN.
    NotFinite {
        /// The vector.
        name: &'static str,
    },
    /// A scale that is not positive, or an intercept that is not finite.
    ScaleOrIntercept,
    /// The predictions could exceed [`MAX_PREDICTION`] (the fit failed):
    /// [`ValueModel::prediction_bound`].
    Overflow {
        /// The bound (infinite or NaN when it overflows).
        bound: f64,
    },
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::Format(format) => {
                write!(f, "format {format:?}, expected {MODEL_FORMAT:?}")
            }
            ModelError::Target(target) => write!(f, "target {target:?}, expected {TARGET:?}"),
            ModelError::Features {
                column,
                model,
                build,
            } => {
                let show = |f: Option<&str>| f.map_or("nothing".to_string(), |f| format!("{f:?}"));
                write!(
                    f,
                    "fitted on other features than this build computes \
                     (column {column}: the model has {}, this build {}); retrain it with \
                     `carcassonne train`",
                    show(model.as_deref()),
                    show(*build)
                )
            }
            ModelError::Length { name, len } => {
                write!(f, "{name} has {len} values for {FEATURE_COUNT} features")
            }
            ModelError::NotFinite { name } => {
                write!(f, "{name} holds a value that is not a finite number")
            }
            ModelError::ScaleOrIntercept => {
                f.write_str("scale must be positive and the intercept finite")
            }
            ModelError::Overflow { bound } => write!(
                f,
                "its predictions could reach {bound:e} points (more than {MAX_PREDICTION:e} \
                 for features of at most {FEATURE_RANGE:e}): weights too large or scales too \
                 small, the fit failed; retrain it (a larger --lambda)"
            ),
        }
    }
}

impl std::error::Error for ModelError {}

/// Why a model file was not read ([`ValueModel::load`]): one line naming
/// the file.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read.
    Read(PathBuf, std::io::Error),
    /// It is not the JSON of a value model.
    NotAModel(PathBuf, serde_json::Error),
    /// It is a value model this build refuses.
    Refused(PathBuf, ModelError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Read(path, e) => write!(f, "model {}: cannot read it: {e}", path.display()),
            LoadError::NotAModel(path, e) => {
                write!(f, "model {}: not a value model ({e})", path.display())
            }
            LoadError::Refused(path, e) => write!(f, "model {}: {e}", path.display()),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Read(_, e) => Some(e),
            LoadError::NotAModel(_, e) => Some(e),
            LoadError::Refused(_, e) => Some(e),
        }
    }
}

impl ValueModel {
    /// A model over this build's features.
    pub fn new(
        mean: Vec<f64>,
        scale: Vec<f64>,
        weights: Vec<f64>,
        intercept: f64,
        lambda: f64,
    ) -> ValueModel {
        ValueModel {
            format: MODEL_FORMAT.to_string(),
            target: TARGET.to_string(),
            features: FEATURES.iter().map(|f| f.to_string()).collect(),
            mean,
            scale,
            weights,
            intercept,
            lambda,
            provenance: serde_json::Value::Null,
            fitted_on: None,
        }
    }

    /// Why the model may predict badly in games of `players` seats under
    /// `rules`: it was fitted on other games (its features see no gift
    /// cards, and leads differ with the seat count). `None` when it was
    /// fitted on such games, or does not say what it was fitted on.
    ///
    /// # Examples
    /// ```
    /// use agents::learn::{FittedOn, ValueModel, FEATURE_COUNT};
    /// use engine::Rules;
    ///
    /// let n = FEATURE_COUNT;
    /// let mut model = ValueModel::new(vec![0.0; n], vec![1.0; n], vec![0.0; n], 0.0, 1.0);
    /// model.fitted_on = Some(FittedOn { players: vec![2], rules: vec![Rules::default()] });
    /// assert_eq!(model.unsuited_to(&Rules::default(), 2), None);
    /// let gifts: Rules = "gifts=true".parse().unwrap();
    /// assert_eq!(
    ///     model.unsuited_to(&gifts, 3).unwrap(),
    ///     "fitted on 2-player games under the standard rules, not 3-player games under gifts=true"
    /// );
    /// ```
    pub fn unsuited_to(&self, rules: &Rules, players: usize) -> Option<String> {
        self.fitted_on.as_ref()?.unsuited_to(rules, players)
    }

    /// Read and check a model file.
    ///
    /// # Errors
    /// One line naming the file and what is wrong: unreadable, not a model
    /// of this format, or fitted on other features than this build's.
    pub fn load(path: &Path) -> Result<ValueModel, LoadError> {
        let at = || path.to_path_buf();
        let text = crate::capped::read_to_string(path, crate::capped::Cap::MODEL)
            .map_err(|e| LoadError::Read(at(), e))?;
        let model: ValueModel =
            serde_json::from_str(&text).map_err(|e| LoadError::NotAModel(at(), e))?;
        model.check().map_err(|e| LoadError::Refused(at(), e))?;
        Ok(model)
    }

    /// Check the format, the target and the feature list against this
    /// build's, and the vector lengths.
    ///
    /// # Errors
    /// What does not match.
    pub fn check(&self) -> Result<(), ModelError> {
        if self.format != MODEL_FORMAT {
            return Err(ModelError::Format(self.format.clone()));
        }
        if self.target != TARGET {
            return Err(ModelError::Target(self.target.clone()));
        }
        let columns = self.features.len().max(FEATURE_COUNT);
        if let Some(i) = (0..columns)
            .find(|&i| self.features.get(i).map(String::as_str) != FEATURES.get(i).copied())
        {
            return Err(ModelError::Features {
                column: i + 1,
                model: self.features.get(i).cloned(),
                build: FEATURES.get(i).copied(),
            });
        }
        for (name, v) in [
            ("mean", &self.mean),
            ("scale", &self.scale),
            ("weights", &self.weights),
        ] {
            if v.len() != FEATURE_COUNT {
                return Err(ModelError::Length { name, len: v.len() });
            }
            if v.iter().any(|x| !x.is_finite()) {
                return Err(ModelError::NotFinite { name });
            }
        }
        if self.scale.iter().any(|&s| s <= 0.0) || !self.intercept.is_finite() {
            return Err(ModelError::ScaleOrIntercept);
        }
        let bound = self.prediction_bound();
        if bound.is_nan() || bound > MAX_PREDICTION {
            return Err(ModelError::Overflow { bound });
        }
        Ok(())
    }

    /// The largest prediction, in magnitude, for features each at most
    /// [`FEATURE_RANGE`] in magnitude: `|intercept| + Σ |wᵢ / sᵢ| ·
    /// (FEATURE_RANGE + |meanᵢ|)` (infinite or NaN when the model's
    /// arithmetic overflows).
    pub fn prediction_bound(&self) -> f64 {
        let mut bound = self.intercept.abs();
        for ((w, m), s) in self.weights.iter().zip(&self.mean).zip(&self.scale) {
            bound += (w / s).abs() * (FEATURE_RANGE + m.abs());
        }
        bound
    }

    /// The predicted final lead for features `x`.
    pub fn predict(&self, x: &FeatureVector) -> f64 {
        let mut y = self.intercept;
        for (((x, w), m), s) in x.iter().zip(&self.weights).zip(&self.mean).zip(&self.scale) {
            y += w * (x - m) / s;
        }
        y
    }

    /// The predicted final lead of the seat of `view`.
    pub fn value(&self, view: &SeatView<'_>) -> f64 {
        self.predict(&extract(view))
    }

    /// The final lead of `seat` in `state`: exact when the game is over,
    /// else predicted from the seat's own view.
    pub fn lead(&self, state: &State, seat: Seat) -> f64 {
        if state.is_over() {
            let totals = crate::eval::end_now_scores(state);
            return f64::from(crate::eval::advantage(&totals, state.players(), seat));
        }
        self.value(&state.view(seat))
    }

    /// [`ValueModel::lead`] of every seat (seats past the table's player
    /// count are 0).
    pub fn leads(&self, state: &State) -> [f64; MAX_PLAYERS] {
        let mut out = [0.0; MAX_PLAYERS];
        for (s, v) in out.iter_mut().enumerate().take(state.players()) {
            *v = self.lead(state, Seat(s as u8));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn model() -> ValueModel {
        let mut weights = vec![0.0; FEATURE_COUNT];
        weights[3] = 2.0;
        ValueModel::new(
            vec![0.0; FEATURE_COUNT],
            vec![1.0; FEATURE_COUNT],
            weights,
            0.5,
            1.0,
        )
    }

    #[test]
    fn a_model_predicts_its_linear_function() {
        let m = model();
        let mut x = [0.0; FEATURE_COUNT];
        x[3] = 4.0;
        x[7] = 100.0;
        assert_eq!(m.predict(&x), 8.5);
        assert_eq!(m.check(), Ok(()));
    }

    /// Issue 16: a model fitted on other features is refused with the
    /// place where the lists part.
    #[test]
    fn a_model_with_other_features_is_refused() {
        let mut m = model();
        m.features[5] = "lead_now".to_string();
        let e = m.check().unwrap_err().to_string();
        assert!(e.contains("column 6") && e.contains("lead_now"), "{e}");
        let mut m = model();
        m.features.pop();
        let e = m.check().unwrap_err().to_string();
        assert!(e.contains("column 40") && e.contains("nothing"), "{e}");
        let mut m = model();
        m.features.push("extra".to_string());
        assert!(m.check().unwrap_err().to_string().contains("\"extra\""));
        let mut m = model();
        m.weights.pop();
        assert!(m.check().unwrap_err().to_string().contains("weights"));
        let mut m = model();
        m.format = "other/1".to_string();
        assert!(m.check().unwrap_err().to_string().contains("format"));
    }

    /// Issue 27: a model of finite but huge weights (or tiny scales)
    /// predicted infinities and the search played garbage silently.
    #[test]
    fn a_model_whose_predictions_overflow_is_refused() {
        let mut m = model();
        m.weights[2] = 1e300;
        let e = m.check().unwrap_err().to_string();
        assert!(e.contains("predictions could reach"), "{e}");
        let mut m = model();
        m.scale[5] = 1e-310;
        m.weights[5] = 1.0;
        assert!(m.check().unwrap_err().to_string().contains("retrain"));
        let mut m = model();
        m.mean[1] = 1e300;
        m.weights[1] = 1.0;
        assert!(m.check().is_err());
        let mut m = model();
        m.intercept = 1e10;
        assert!(m.check().is_err());
        assert!(model().prediction_bound() < 1e6);
    }

    #[test]
    fn a_model_says_when_it_was_fitted_on_other_games() {
        let mut m = model();
        assert_eq!(m.unsuited_to(&Rules::default(), 4), None, "says nothing");
        let gifts: Rules = "gifts=true".parse().unwrap();
        m.fitted_on = Some(FittedOn {
            players: vec![2, 3],
            rules: vec![Rules::default(), gifts],
        });
        assert_eq!(m.unsuited_to(&Rules::default(), 3), None);
        assert_eq!(m.unsuited_to(&gifts, 2), None);
        assert_eq!(
            m.unsuited_to(&Rules::default(), 4).unwrap(),
            "fitted on 2/3-player games under the standard rules or gifts=true, \
             not 4-player games under the standard rules"
        );
        let no_farmers: Rules = "farmers=false".parse().unwrap();
        assert!(m
            .unsuited_to(&no_farmers, 2)
            .unwrap()
            .ends_with("not 2-player games under farmers=false"));
        // It round-trips, and a file without it still reads.
        let text = serde_json::to_string(&m).unwrap();
        assert_eq!(serde_json::from_str::<ValueModel>(&text).unwrap(), m);
        let old = serde_json::to_string(&model()).unwrap();
        assert!(!old.contains("fitted_on"), "{old}");
        assert_eq!(serde_json::from_str::<ValueModel>(&old).unwrap(), model());
    }

    /// The refusals, word for word: they reach the command line's
    /// one-line errors (`eval=`, `train`, `improve`).
    #[test]
    fn refusals_keep_their_words() {
        let refusal = |edit: &dyn Fn(&mut ValueModel)| {
            let mut m = model();
            edit(&mut m);
            m.check().unwrap_err().to_string()
        };
        assert_eq!(
            refusal(&|m| m.format = "other/1".to_string()),
            r#"format "other/1", expected "carcassonne-value-model/1""#
        );
        assert_eq!(
            refusal(&|m| m.target = "lead".to_string()),
            r#"target "lead", expected "final_lead""#
        );
        assert_eq!(
            refusal(&|m| m.features[5] = "lead_now".to_string()),
            format!(
                "fitted on other features than this build computes (column 6: the model has \
                 \"lead_now\", this build {:?}); retrain it with `carcassonne train`",
                FEATURES[5]
            )
        );
        assert_eq!(
            refusal(&|m| {
                m.features.pop();
            }),
            format!(
                "fitted on other features than this build computes (column {FEATURE_COUNT}: \
                 the model has nothing, this build {:?}); retrain it with `carcassonne train`",
                FEATURES[FEATURE_COUNT - 1]
            )
        );
        assert_eq!(
            refusal(&|m| {
                m.scale.pop();
            }),
            format!(
                "scale has {} values for {FEATURE_COUNT} features",
                FEATURE_COUNT - 1
            )
        );
        assert_eq!(
            refusal(&|m| m.weights[0] = f64::NAN),
            "weights holds a value that is not a finite number"
        );
        assert_eq!(
            refusal(&|m| m.scale[0] = 0.0),
            "scale must be positive and the intercept finite"
        );
        assert_eq!(
            refusal(&|m| m.intercept = f64::INFINITY),
            "scale must be positive and the intercept finite"
        );
        assert_eq!(
            refusal(&|m| m.intercept = 2e9),
            "its predictions could reach 2.00002e9 points (more than 1e9 for features \
             of at most 1e4): weights too large or scales too small, the fit failed; retrain \
             it (a larger --lambda)"
        );

        let dir = std::env::temp_dir().join(format!("model-words-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("m.json");
        let load = |text: &str| {
            std::fs::write(&path, text).unwrap();
            ValueModel::load(&path).unwrap_err().to_string()
        };
        let name = path.display();
        assert_eq!(
            load("{}"),
            format!("model {name}: not a value model (missing field `format` at line 1 column 2)")
        );
        let mut m = model();
        m.target = "lead".to_string();
        assert_eq!(
            load(&serde_json::to_string(&m).unwrap()),
            format!(r#"model {name}: target "lead", expected "final_lead""#)
        );
        let missing = dir.join("missing.json");
        assert_eq!(
            ValueModel::load(&missing).unwrap_err().to_string(),
            format!(
                "model {}: cannot read it: No such file or directory (os error 2)",
                missing.display()
            )
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_model_file_round_trips_and_bad_files_name_themselves() {
        let dir = std::env::temp_dir().join(format!("model-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("m.json");
        std::fs::write(&path, serde_json::to_string(&model()).unwrap()).unwrap();
        assert_eq!(ValueModel::load(&path).unwrap(), model());
        std::fs::write(&path, "{}").unwrap();
        let e = ValueModel::load(&path).unwrap_err().to_string();
        assert!(e.starts_with(&format!("model {}", path.display())), "{e}");
        let e = ValueModel::load(&dir.join("missing.json"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("cannot read"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
