//! [`NetEvaluator`]: the network as an [`Evaluator`] of the `az` search,
//! and its weights file (safetensors, with what it was trained on in the
//! metadata).
//!
//! A file is refused when it is larger than [`Cap::NET`] or not a
//! regular file, when it is not a network of this build's encoding
//! ([`ENCODING_VERSION`]), when its arrays do not have the shapes its
//! sizes say, or when [`check_network`] does not trust it (a weight that
//! is not finite, a forward pass that overflows; such a network is not
//! written either); a network trained on other games (seat counts, rules) is not
//! refused but says so ([`NetEvaluator::unsuited_to`]), as `eval=` models
//! do.

use super::encode::{
    encode_actions, encode_position, encode_read_in, ActionEncoder, ActionInput, PositionInput,
    Reads, ACTION_FEATURES, BASE_GLOBALS, BOARD_FEATURES, CELLS, ENCODING_VERSION, GLOBAL_FEATURES,
};
use super::error::{FileError, InputError};
#[cfg(doc)]
use super::net::segment_softmax;
use super::net::{one_line, Net, NetConfig};
use super::tensors::{Array, File};
use crate::capped::Cap;
use crate::evaluator::{EvalRequest, Evaluation, Evaluator};
use crate::learn::FittedOn;
use candle_core::{Device, Var};
use engine::{Rules, Seat, State, MAX_PLAYERS};
use rand::SeedableRng;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Why a weights file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NetError {
    /// The file cannot be read or written.
    Io(String),
    /// The file is not a network's weights (or is damaged).
    Format(String),
    /// The network is not to be trusted: a weight that is not finite, or
    /// a forward pass that overflows on plausible inputs
    /// ([`check_network`]). Such a network is neither read nor written.
    Unsound(String),
    /// The file is a network of another encoding version.
    EncodingVersion {
        /// The file.
        path: String,
        /// Its encoding version (as written).
        found: String,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io(e) | NetError::Format(e) | NetError::Unsound(e) => f.write_str(e),
            NetError::EncodingVersion { path, found } => write!(
                f,
                "{path}: a network of encoding version {found}, this build encodes version {ENCODING_VERSION} (retrain it with `carcassonne train-net`)"
            ),
        }
    }
}

impl std::error::Error for NetError {}

impl From<FileError> for NetError {
    fn from(e: FileError) -> NetError {
        match e {
            FileError::Io { .. } => NetError::Io(e.to_string()),
            FileError::Format { .. } => NetError::Format(e.to_string()),
        }
    }
}

/// A network's arrays: name → (shape, values), the layout of
/// docs/neural.md (weights `[out, in]` as PyTorch's `nn.Linear`).
pub type Arrays = HashMap<String, (Vec<usize>, Vec<f32>)>;

/// The sizes of a network from its arrays' shapes: `trunk1` is `hidden`
/// wide, `context` `context`, `cells` `CELLS × cell`, `policy1`
/// `policy_hidden`; `trunk1`'s inputs say whether it reads the board
/// and the position features ([`NetConfig::inputs`]); a `categories`
/// layer, that it has the auxiliary head.
fn infer_config(name: &str, arrays: &Arrays) -> Result<NetConfig, NetError> {
    let rows = |array: &str| -> Result<usize, NetError> {
        arrays
            .get(array)
            .and_then(|(shape, _)| shape.first().copied())
            .ok_or_else(|| NetError::Format(format!("{name}: no array `{array}`")))
    };
    let cells = rows("cells.weight")?;
    if cells % CELLS != 0 {
        return Err(NetError::Format(format!(
            "{name}: `cells.weight` has {cells} rows, not a multiple of the {CELLS} window cells"
        )));
    }
    // The first layer's width says what it reads: the board window or
    // not, the position features or not.
    let inputs = arrays
        .get("trunk1.weight")
        .and_then(|(shape, _)| shape.get(1).copied());
    let (board, features) = match inputs {
        Some(n) if n == BOARD_FEATURES + GLOBAL_FEATURES => (true, true),
        Some(n) if n == BOARD_FEATURES + BASE_GLOBALS => (true, false),
        Some(GLOBAL_FEATURES) => (false, true),
        Some(BASE_GLOBALS) => (false, false),
        // A missing array or another width is named by the shape check.
        _ => (true, true),
    };
    Ok(NetConfig {
        hidden: rows("trunk1.weight")?,
        context: rows("context.weight")?,
        cell: cells / CELLS,
        policy_hidden: rows("policy1.weight")?,
        board,
        features,
        categories: arrays.contains_key("categories.weight"),
    })
}

/// Where a network comes from (its weights file's metadata).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Provenance {
    /// The games it was trained on, when known.
    pub fitted_on: Option<FittedOn>,
    /// The data folders or files it was trained on.
    pub data: Vec<String>,
    /// The seed of its initial weights and training.
    pub seed: u64,
    /// The code revision that trained it.
    pub revision: String,
    /// Anything else (held-out losses, example counts…), written as is.
    pub extra: HashMap<String, String>,
}

/// A network that evaluates positions for the `az` search.
pub struct NetEvaluator {
    /// The network.
    pub net: Net,
    /// Where it comes from.
    pub provenance: Provenance,
}

const FORMAT: &str = "carcassonne-net";

impl NetEvaluator {
    /// A network of `config` with initial weights drawn from `seed`.
    pub fn new(config: NetConfig, seed: u64) -> NetEvaluator {
        NetEvaluator {
            net: Net::new(config, seed),
            provenance: Provenance {
                seed,
                ..Provenance::default()
            },
        }
    }

    /// Why the network may evaluate badly in games of `players` seats
    /// under `rules`: it was trained on other games. `None` when it was
    /// trained on such games or does not say.
    pub fn unsuited_to(&self, rules: &Rules, players: usize) -> Option<String> {
        self.provenance
            .fitted_on
            .as_ref()?
            .unsuited_to(rules, players)
    }

    /// Write the weights and provenance to `path` (atomically), when
    /// [`check_network`] trusts the network.
    ///
    /// # Errors
    /// [`NetError::Unsound`] (nothing written) when a weight is not
    /// finite or the forward pass overflows; [`NetError::Io`] when the
    /// file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), NetError> {
        check_network(&self.net).map_err(|e| {
            NetError::Unsound(format!("{}: not written: the network {e}", path.display()))
        })?;
        let names = Net::names(&self.net.config);
        let mut arrays = Vec::new();
        for (name, var) in names.iter().zip(self.net.tensors()) {
            let shape = var.dims().to_vec();
            let data = var
                .flatten_all()
                .and_then(|t| t.to_vec1::<f32>())
                .map_err(|e| NetError::Io(one_line(&e)))?;
            arrays.push(Array::f32(name, shape, &data));
        }
        let c = self.net.config;
        let p = &self.provenance;
        let mut meta = p.extra.clone();
        meta.insert("format".into(), FORMAT.into());
        meta.insert("encoding_version".into(), ENCODING_VERSION.to_string());
        meta.insert("hidden".into(), c.hidden.to_string());
        meta.insert("context".into(), c.context.to_string());
        meta.insert("cell".into(), c.cell.to_string());
        meta.insert("policy_hidden".into(), c.policy_hidden.to_string());
        meta.insert("board".into(), c.board.to_string());
        meta.insert("features".into(), c.features.to_string());
        meta.insert("categories".into(), c.categories.to_string());
        meta.insert("seed".into(), p.seed.to_string());
        meta.insert("revision".into(), p.revision.clone());
        meta.insert(
            "data".into(),
            serde_json::to_string(&p.data).expect("strings serialise"),
        );
        if let Some(f) = &p.fitted_on {
            meta.insert(
                "fitted_on".into(),
                serde_json::to_string(f).expect("rules serialise"),
            );
        }
        super::tensors::write(path, &arrays, meta).map_err(NetError::from)
    }

    /// Read a weights file written by [`NetEvaluator::save`] (or by
    /// anything else in its layout, e.g. from PyTorch: docs/neural.md).
    ///
    /// # Errors
    /// [`NetError::Io`] when unreadable, [`NetError::Format`] when not a
    /// network's weights or of the wrong shapes,
    /// [`NetError::EncodingVersion`] when of another encoding.
    pub fn load(path: &Path) -> Result<NetEvaluator, NetError> {
        let name = path.display().to_string();
        if !path.exists() {
            return Err(NetError::Io(format!("{name}: no such file")));
        }
        let file = File::read(path, Cap::NET)?;
        let meta = file.metadata();
        if meta.get("format").map(String::as_str) != Some(FORMAT) {
            return Err(NetError::Format(format!(
                "{name}: not a network's weights (no `format: {FORMAT}` in its metadata)"
            )));
        }
        let version = meta.get("encoding_version").cloned().unwrap_or_default();
        if version != ENCODING_VERSION.to_string() {
            return Err(NetError::EncodingVersion {
                path: name,
                found: version,
            });
        }
        let mut arrays = Arrays::new();
        for array in file.names() {
            let values = file.f32(&array)?;
            arrays.insert(array, values);
        }
        NetEvaluator::from_arrays(&name, arrays, meta)
    }

    /// A network from its named arrays (the layout of docs/neural.md,
    /// name → shape and values) and its metadata: what the file loader
    /// reads and what Python's `save_network` and PyTorch trainers give.
    /// Its sizes come from the arrays' shapes; metadata that states them
    /// (`hidden`, `context`, `cell`, `policy_hidden`, `board`,
    /// `features`, `categories`), `format`
    /// or `encoding_version` must agree; `fitted_on`, `data` and `seed`
    /// must read as what they are; other keys are kept
    /// ([`Provenance::extra`]). `name` (the file) starts every error.
    ///
    /// # Errors
    /// [`NetError::Format`] for a missing, unknown or misshapen array or a
    /// metadata value that disagrees or does not read,
    /// [`NetError::EncodingVersion`] for another encoding,
    /// [`NetError::Unsound`] when [`check_network`] does not trust it.
    pub fn from_arrays(
        name: &str,
        arrays: Arrays,
        mut metadata: HashMap<String, String>,
    ) -> Result<NetEvaluator, NetError> {
        let format = |e: String| NetError::Format(format!("{name}: {e}"));
        let config = infer_config(name, &arrays)?;
        if let Some(found) = metadata.remove("format") {
            if found != FORMAT {
                return Err(format(format!(
                    "metadata `format` is {found:?}; a network's is {FORMAT:?}"
                )));
            }
        }
        if let Some(found) = metadata.remove("encoding_version") {
            if found != ENCODING_VERSION.to_string() {
                return Err(NetError::EncodingVersion {
                    path: name.to_string(),
                    found,
                });
            }
        }
        let flags = [
            ("board", config.board),
            ("features", config.features),
            ("categories", config.categories),
        ];
        for (key, read) in flags {
            if let Some(v) = metadata.remove(key) {
                if v != read.to_string() {
                    return Err(format(format!(
                        "metadata `{key}` is {v}, the arrays' shapes say {read}"
                    )));
                }
            }
        }
        let sizes = [
            ("hidden", config.hidden),
            ("context", config.context),
            ("cell", config.cell),
            ("policy_hidden", config.policy_hidden),
        ];
        for (key, size) in sizes {
            if let Some(v) = metadata.remove(key) {
                if v != size.to_string() {
                    return Err(format(format!(
                        "metadata `{key}` is {v}, the arrays' shapes say {size}"
                    )));
                }
            }
        }
        let names = Net::names(&config);
        if let Some(extra) = arrays.keys().filter(|k| !names.contains(*k)).min() {
            return Err(format(format!(
                "unknown array `{extra}` (a network has {})",
                names.join(", ")
            )));
        }
        let mut vars = Vec::new();
        for (k, (layer, inputs, outputs)) in config.layers().into_iter().enumerate() {
            for (array, want) in [
                (&names[2 * k], vec![outputs, inputs]),
                (&names[2 * k + 1], vec![outputs]),
            ] {
                let (shape, data) = arrays
                    .get(array)
                    .ok_or_else(|| format(format!("no array `{array}` (layer {layer})")))?;
                if *shape != want {
                    return Err(format(format!(
                        "`{array}` is {shape:?}, the layout says {want:?}"
                    )));
                }
                vars.push(
                    Var::from_vec(data.clone(), want, &Device::Cpu)
                        .map_err(|e| format(one_line(&e)))?,
                );
            }
        }
        let fitted_on = match metadata.remove("fitted_on") {
            Some(text) => Some(
                serde_json::from_str(&text)
                    .map_err(|e| format(format!("metadata `fitted_on` is not its JSON ({e})")))?,
            ),
            None => None,
        };
        let data = match metadata.remove("data") {
            Some(text) => serde_json::from_str(&text).map_err(|e| {
                format(format!(
                    "metadata `data` is not a JSON list of strings ({e})"
                ))
            })?,
            None => Vec::new(),
        };
        let seed = match metadata.remove("seed") {
            Some(s) => s.parse().map_err(|_| {
                format(format!("metadata `seed` is {s:?}, not an unsigned integer"))
            })?,
            None => 0,
        };
        let revision = metadata.remove("revision").unwrap_or_default();
        let net = Net::from_vars(config, vars);
        check_network(&net)
            .map_err(|e| NetError::Unsound(format!("{name}: refused: the network {e}")))?;
        Ok(NetEvaluator {
            net,
            provenance: Provenance {
                fitted_on,
                data,
                seed,
                revision,
                extra: metadata,
            },
        })
    }

    /// Evaluate `batch` with the values `(1 − lead)·value + lead·lead`:
    /// the value head (the outcome) blended with the lead head (the mean
    /// of `tanh(margin/20)` to each other seat: the final lead with two
    /// players) by the weight `lead` in `[0, 1]`.
    /// [`Evaluator::evaluate`] is this with `lead` 0.
    ///
    /// # Panics
    /// As [`Evaluator::evaluate`].
    pub fn evaluate_blended(&self, batch: &[EvalRequest<'_>], lead: f32) -> Vec<Evaluation> {
        if batch.is_empty() {
            return Vec::new();
        }
        self.evaluate_inner(batch, lead)
            .unwrap_or_else(|e| panic!("network evaluation failed: {e}"))
    }

    fn evaluate_inner(
        &self,
        requests: &[EvalRequest<'_>],
        lead: f32,
    ) -> Result<Vec<Evaluation>, InputError> {
        BUFFERS.with(|b| {
            let b = &mut *b.borrow_mut();
            let n = requests.len();
            if b.positions.len() < n {
                b.positions.resize_with(n, || PositionInput {
                    board: Vec::new(),
                    globals: Vec::new(),
                });
            }
            b.features.clear();
            b.cells.clear();
            b.one_hot.clear();
            b.offsets.clear();
            b.offsets.push(0);
            for (r, position) in requests.iter().zip(&mut b.positions) {
                // One end-now preparation for the actions and the
                // globals (the end-now scores, the farms' cities).
                let mut end_now = r.view.end_now();
                b.actions.encode_in(
                    &r.view,
                    &mut end_now,
                    r.actions,
                    &mut b.features,
                    &mut b.cells,
                    &mut b.one_hot,
                );
                // What the network does not read is not encoded.
                let reads = Reads {
                    board: self.net.config.board,
                    features: self.net.config.features,
                };
                encode_read_in(&r.view, &mut end_now, reads, position);
                b.offsets.push(b.cells.len());
            }
            super::fast::forward_into(
                &self.net,
                &b.positions[..n],
                &b.features,
                &b.cells,
                &b.offsets,
                Some(&b.one_hot),
                &mut b.scratch,
                lead,
                &mut b.values,
                &mut b.logits,
            )?;
            Ok(requests
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let players = r.view.players();
                    let me = r.view.seat().index();
                    let mut v = vec![0.0; players];
                    for (k, value) in b.values[i]
                        .iter()
                        .enumerate()
                        .take(players.min(MAX_PLAYERS))
                    {
                        v[(me + k) % players] = *value;
                    }
                    Evaluation {
                        values: v,
                        priors: softmax(&b.logits[b.offsets[i]..b.offsets[i + 1]]),
                    }
                })
                .collect())
        })
    }
}

/// Check that `net` can be trusted, as every network read or written
/// is ([`NetEvaluator::load`], [`NetEvaluator::save`], `train-net`, the
/// Python package): every weight finite, and every activation of its
/// forward pass finite and at most [`super::fast::ACTIVATION_BOUND`] on
/// the probe inputs — the all-zero position with all-zero actions, and
/// positions of seeded random games of 2, 3, 4 and 6 players (with and
/// without The Gifts) with their legal actions.
///
/// # Errors
/// [`NetError::Unsound`], one line completing "the network …": the array
/// and element that is not finite, or the layer that overflows and on
/// which probe.
pub fn check_network(net: &Net) -> Result<(), NetError> {
    for (name, t) in Net::names(&net.config).iter().zip(net.tensors()) {
        let data = t
            .flatten_all()
            .and_then(|t| t.to_vec1::<f32>())
            .map_err(|e| NetError::Unsound(one_line(&e)))?;
        if let Some(k) = data.iter().position(|v| !v.is_finite()) {
            return Err(NetError::Unsound(format!(
                "holds {} in `{name}` (element {k}), which is not finite",
                data[k]
            )));
        }
    }
    let (positions, actions, offsets) = probes();
    super::fast::check_activations(net, positions, actions, offsets)
}

/// Probe positions, their actions and offsets (made once).
type Probes = (Vec<PositionInput>, Vec<ActionInput>, Vec<usize>);

/// The inputs [`check_network`] runs the network on.
fn probes() -> (
    &'static [PositionInput],
    &'static [ActionInput],
    &'static [usize],
) {
    static PROBES: OnceLock<Probes> = OnceLock::new();
    let (p, a, o) = PROBES.get_or_init(|| {
        let mut positions = vec![PositionInput {
            board: vec![0.0; BOARD_FEATURES],
            globals: vec![0.0; GLOBAL_FEATURES],
        }];
        let mut actions: Vec<ActionInput> = [0, CELLS / 2, CELLS - 1]
            .into_iter()
            .map(|cell| ActionInput {
                features: vec![0.0; ACTION_FEATURES],
                cell: cell as u32,
            })
            .collect();
        let mut offsets = vec![0, actions.len()];
        for (players, rules, seed, turns) in [
            (2, "", 1, 0),
            (2, "", 2, 30),
            (2, "", 3, 60),
            (3, "gifts=true", 4, 20),
            (4, "", 5, 40),
            (6, "gifts=true", 6, 10),
        ] {
            let rules: Rules = rules.parse().expect("rules of the probes");
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
            let mut state = State::new(rules, players, Seat(0));
            while !state.is_over() && (state.is_chance() || state.turns() < turns) {
                if state.is_chance() {
                    state.apply_chance(&mut rng);
                } else if let Some(a) = engine::random_action(&state, &mut rng) {
                    state.play_action_unchecked(a);
                }
            }
            if state.is_over() {
                continue;
            }
            let view = state.view(state.to_play());
            positions.push(encode_position(&view));
            actions.extend(encode_actions(&view, &state.legal_actions()));
            offsets.push(actions.len());
        }
        (positions, actions, offsets)
    });
    (p, a, o)
}

/// The softmax of `logits` (the arithmetic of [`segment_softmax`] on one
/// segment).
fn softmax(logits: &[f32]) -> Vec<f32> {
    let max = logits.iter().copied().fold(f32::MIN, f32::max);
    let mut out: Vec<f32> = logits.iter().map(|&l| (l - max).exp()).collect();
    let mut sum = 0.0;
    for &p in &out {
        sum += p;
    }
    for p in &mut out {
        *p /= sum;
    }
    out
}

/// One thread's buffers for [`NetEvaluator`]'s evaluations, reused
/// between calls (the evaluator is shared by the search threads).
#[derive(Default)]
struct Buffers {
    positions: Vec<PositionInput>,
    actions: ActionEncoder,
    features: Vec<f32>,
    cells: Vec<u32>,
    /// Each action's one-hot set, as the encoder gives it.
    one_hot: Vec<u64>,
    offsets: Vec<usize>,
    scratch: super::fast::Scratch,
    values: Vec<[f32; MAX_PLAYERS]>,
    logits: Vec<f32>,
}

thread_local! {
    static BUFFERS: RefCell<Buffers> = RefCell::new(Buffers::default());
}

impl Evaluator for NetEvaluator {
    /// One forward pass for the whole batch ([`super::fast::forward`]:
    /// the same numbers as candle's forward, without its per-call costs).
    ///
    /// # Panics
    /// When the network's forward pass fails, which a network loaded by
    /// [`NetEvaluator::load`] cannot (its shapes are checked).
    fn evaluate(&self, batch: &[EvalRequest<'_>]) -> Vec<Evaluation> {
        self.evaluate_blended(batch, 0.0)
    }
}

/// A network whose values blend its value head with its lead head
/// ([`NetEvaluator::evaluate_blended`]): `az:lead=`.
pub struct LeadBlend {
    /// The network.
    pub net: Arc<NetEvaluator>,
    /// The lead head's weight, in `[0, 1]`.
    pub lead: f32,
}

impl Evaluator for LeadBlend {
    fn evaluate(&self, batch: &[EvalRequest<'_>]) -> Vec<Evaluation> {
        self.net.evaluate_blended(batch, self.lead)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::neural::encode::{encode_actions, encode_position};
    use crate::neural::net::{batch, segment_softmax};
    use crate::test_support::random_play_until;
    use engine::{Action, State};

    fn position(rules: &str, players: usize, seed: u64) -> (State, Vec<Action>) {
        let rules: Rules = rules.parse().unwrap();
        let state = random_play_until(players, rules, seed, |s| s.turns() > 10);
        let actions = state.legal_actions();
        (state, actions)
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("neural-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    fn weights(e: &NetEvaluator) -> Vec<Vec<f32>> {
        e.net
            .tensors()
            .map(|v| v.flatten_all().unwrap().to_vec1::<f32>().unwrap())
            .collect()
    }

    #[test]
    fn the_same_seed_gives_the_same_initial_weights() {
        let a = NetEvaluator::new(NetConfig::TINY, 7);
        let b = NetEvaluator::new(NetConfig::TINY, 7);
        let c = NetEvaluator::new(NetConfig::TINY, 8);
        assert_eq!(weights(&a), weights(&b));
        assert_ne!(weights(&a), weights(&c));
    }

    #[test]
    fn save_and_load_are_bit_exact() {
        let mut e = NetEvaluator::new(NetConfig::TINY, 3);
        e.provenance.fitted_on = Some(FittedOn {
            players: vec![2],
            rules: vec![Rules::default()],
        });
        e.provenance.data = vec!["results/x".into()];
        e.provenance.revision = "abc".into();
        e.provenance.extra.insert("note".into(), "hi".into());
        let path = temp("bit-exact.safetensors");
        e.save(&path).unwrap();
        let back = NetEvaluator::load(&path).unwrap();
        let bits = |e: &NetEvaluator| -> Vec<Vec<u32>> {
            weights(e)
                .iter()
                .map(|w| w.iter().map(|x| x.to_bits()).collect())
                .collect()
        };
        assert_eq!(bits(&e), bits(&back));
        assert_eq!(back.net.config, NetConfig::TINY);
        assert_eq!(back.provenance, e.provenance);
        let (state, actions) = position("", 2, 5);
        let request = [EvalRequest {
            view: state.view(state.to_play()),
            actions: &actions,
        }];
        assert_eq!(e.evaluate(&request), back.evaluate(&request));
    }

    /// Every combination of board, position features and the auxiliary
    /// head is read back as saved: the first layer's width and the
    /// `categories` layer tell them apart.
    #[test]
    fn what_the_trunk_reads_is_read_back_from_the_shapes() {
        for board in [true, false] {
            for features in [true, false] {
                for categories in [true, false] {
                    let config = NetConfig {
                        board,
                        features,
                        categories,
                        ..NetConfig::TINY
                    };
                    let e = NetEvaluator::new(config, 4);
                    let path = temp(&format!(
                        "reads-{board}-{features}-{categories}.safetensors"
                    ));
                    e.save(&path).unwrap();
                    assert_eq!(NetEvaluator::load(&path).unwrap().net.config, config);
                }
            }
        }
    }

    #[test]
    fn a_file_of_another_encoding_version_is_refused() {
        let e = NetEvaluator::new(NetConfig::TINY, 3);
        let path = temp("old-version.safetensors");
        e.save(&path).unwrap();
        // Rewrite the metadata with another version.
        let file = File::read(&path, Cap::NET).unwrap();
        let mut meta = file.metadata();
        meta.insert("encoding_version".into(), "0".into());
        let arrays: Vec<Array> = file
            .names()
            .iter()
            .map(|n| {
                let (shape, data) = file.f32(n).unwrap();
                Array::f32(n, shape, &data)
            })
            .collect();
        super::super::tensors::write(&path, &arrays, meta).unwrap();
        let Err(e) = NetEvaluator::load(&path) else {
            panic!("loaded a file of version 0")
        };
        assert!(matches!(e, NetError::EncodingVersion { .. }), "{e}");
        assert!(e.to_string().contains("encoding version 0"), "{e}");
        let missing = NetEvaluator::load(&temp("missing.safetensors"))
            .err()
            .unwrap();
        assert!(missing.to_string().contains("no such file"), "{missing}");
        std::fs::write(temp("junk.safetensors"), b"not a file").unwrap();
        let junk = NetEvaluator::load(&temp("junk.safetensors")).err().unwrap();
        assert!(matches!(junk, NetError::Format(_)), "{junk}");
    }

    /// A network with a weight that is not finite, or whose finite
    /// weights overflow in the forward pass, is neither written nor read
    /// (a network of NaN weights was written, and an overflowing one
    /// played).
    #[test]
    fn a_network_that_is_not_finite_or_overflows_is_neither_written_nor_read() {
        let cases: [(&str, usize, f32); 4] = [
            ("holds NaN in `trunk2.weight`", 2, f32::NAN),
            ("holds inf in `value.bias`", 5, f32::INFINITY),
            ("overflows in its forward pass: layer `trunk1`", 0, 1e30),
            ("overflows in its forward pass: layer `policy1`", 12, 1e20),
        ];
        for (k, (want, var, value)) in cases.into_iter().enumerate() {
            let mut e = NetEvaluator::new(NetConfig::TINY, 3);
            let v = &e.net.vars_mut()[var];
            let filled = v.ones_like().unwrap().affine(value as f64, 0.0).unwrap();
            v.set(&filled).unwrap();
            let path = temp(&format!("unsound-{k}.safetensors"));
            let _ = std::fs::remove_file(&path);
            let err = e.save(&path).expect_err("an unsound network was written");
            assert!(matches!(err, NetError::Unsound(_)), "{err}");
            assert!(err.to_string().contains(want), "wanted {want:?}: {err}");
            assert!(err.to_string().contains("not written"), "{err}");
            assert!(!path.exists(), "something was written");
            // Written by hand (as another tool could), it is refused on load.
            let names = Net::names(&e.net.config);
            let arrays: Vec<Array> = names
                .iter()
                .zip(e.net.tensors())
                .map(|(n, t)| {
                    let data = t.flatten_all().unwrap().to_vec1::<f32>().unwrap();
                    Array::f32(n, t.dims().to_vec(), &data)
                })
                .collect();
            let meta = HashMap::from(
                [
                    ("format", FORMAT),
                    ("encoding_version", &ENCODING_VERSION.to_string()),
                    ("hidden", "16"),
                    ("context", "8"),
                    ("cell", "4"),
                    ("policy_hidden", "16"),
                ]
                .map(|(k, v)| (k.to_string(), v.to_string())),
            );
            super::super::tensors::write(&path, &arrays, meta).unwrap();
            let err = NetEvaluator::load(&path)
                .err()
                .expect("an unsound network was read");
            assert!(err.to_string().contains(want), "wanted {want:?}: {err}");
            assert!(
                err.to_string().contains(&path.display().to_string()),
                "{err}"
            );
        }
        // A sound network passes, and is written.
        let e = NetEvaluator::new(NetConfig::TINY, 3);
        check_network(&e.net).unwrap();
    }

    /// Only the actions asked about are scored: their priors sum to 1, so
    /// an action left out (illegal ones never are asked about) gets
    /// nothing; and a batch gives each position what it gets alone.
    #[test]
    fn priors_cover_the_requested_actions_only_and_batches_do_not_matter() {
        let e = NetEvaluator::new(NetConfig::TINY, 11);
        let (s1, a1) = position("gifts=true", 3, 1);
        let (s2, a2) = position("", 2, 2);
        let sub: Vec<Action> = a1.iter().copied().step_by(2).collect();
        let requests = [
            EvalRequest {
                view: s1.view(s1.to_play()),
                actions: &a1,
            },
            EvalRequest {
                view: s2.view(s2.to_play()),
                actions: &a2,
            },
            EvalRequest {
                view: s1.view(s1.to_play()),
                actions: &sub,
            },
        ];
        let out = e.evaluate(&requests);
        assert_eq!(out.len(), 3);
        for (o, r) in out.iter().zip(&requests) {
            assert_eq!(o.priors.len(), r.actions.len());
            assert_eq!(o.values.len(), r.view.players());
            let sum: f32 = o.priors.iter().sum();
            assert!((sum - 1.0).abs() < 1e-4, "priors sum to {sum}");
            assert!(o.priors.iter().all(|&p| p > 0.0 && p <= 1.0));
            assert!(o.values.iter().all(|v| (-1.0..=1.0).contains(v)));
        }
        let alone = e.evaluate(&requests[1..2]);
        for (x, y) in alone[0].priors.iter().zip(&out[1].priors) {
            assert!((x - y).abs() < 1e-5);
        }
        // The subset's priors are the full set's, renormalised.
        let picked: Vec<f32> = out[0].priors.iter().copied().step_by(2).collect();
        let total: f32 = picked.iter().sum();
        for (x, y) in picked.iter().zip(&out[2].priors) {
            assert!((x / total - y).abs() < 1e-4);
        }
    }

    /// The evaluation with reused buffers equals the plain one (fresh
    /// encodings, [`super::super::fast::forward`], [`segment_softmax`])
    /// exactly, batch after batch of different sizes, whatever the network
    /// reads (what it does not read is not encoded by the evaluator).
    #[test]
    fn evaluations_equal_the_plain_computation() {
        for (board, features) in [(true, true), (false, true), (true, false), (false, false)] {
            let config = NetConfig {
                board,
                features,
                ..NetConfig::TINY
            };
            evaluations_equal_the_plain_computation_for(config);
        }
    }

    fn evaluations_equal_the_plain_computation_for(config: NetConfig) {
        let e = NetEvaluator::new(config, 13);
        let states: Vec<State> = (0..12)
            .map(|k| {
                let rules = if k % 3 == 0 { "gifts=true" } else { "" };
                position(rules, 2 + k as usize % 3, 20 + k).0
            })
            .collect();
        let legal: Vec<Vec<Action>> = states.iter().map(State::legal_actions).collect();
        let mut at = 0;
        for size in [1, 5, 2, 4] {
            let requests: Vec<EvalRequest<'_>> = (at..at + size)
                .map(|i| EvalRequest {
                    view: states[i].view(states[i].to_play()),
                    actions: &legal[i],
                })
                .collect();
            let got = e.evaluate(&requests);
            let positions: Vec<_> = requests.iter().map(|r| encode_position(&r.view)).collect();
            let mut actions = Vec::new();
            let mut offsets = vec![0];
            for r in &requests {
                actions.extend(encode_actions(&r.view, r.actions));
                offsets.push(actions.len());
            }
            let (values, logits) =
                super::super::fast::forward(&e.net, &positions, &actions, &offsets).unwrap();
            let priors = segment_softmax(&logits, &offsets);
            for (i, (g, r)) in got.iter().zip(&requests).enumerate() {
                assert_eq!(g.priors, priors[offsets[i]..offsets[i + 1]]);
                let players = r.view.players();
                let me = r.view.seat().index();
                for (k, v) in values[i].iter().enumerate().take(players) {
                    assert_eq!(g.values[(me + k) % players], *v);
                }
            }
            at += size;
        }
    }

    #[test]
    fn values_come_back_in_absolute_seat_order() {
        let e = NetEvaluator::new(NetConfig::TINY, 5);
        let (state, _) = position("", 3, 6);
        // The same position seen by two seats: seat-relative outputs
        // rotate with the viewer only through the input, so check the
        // rotation on the viewer itself.
        let me = state.to_play();
        let actions = state.legal_actions();
        let out = e.evaluate(&[EvalRequest {
            view: state.view(me),
            actions: &actions,
        }]);
        let p = encode_position(&state.view(me));
        let a = encode_actions(&state.view(me), &actions);
        let input = batch(
            p.board,
            &p.globals,
            a.iter().flat_map(|x| x.features.clone()).collect(),
            &a.iter().map(|x| x.cell).collect::<Vec<_>>(),
            &vec![0; a.len()],
        )
        .unwrap();
        let raw = e
            .net
            .forward(&input)
            .unwrap()
            .value
            .to_vec2::<f32>()
            .unwrap();
        for (k, value) in raw[0].iter().enumerate().take(3) {
            assert_eq!(out[0].values[(me.index() + k) % 3], *value);
        }
    }
}
