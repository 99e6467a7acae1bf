//! The `az` network from Python (docs/neural.md, python/README.md "The
//! neural network"): the encoding of a view (`View.encode`), training
//! examples of `selfplay --agent az:…` as numpy arrays
//! (`load_examples`), weights files written from numpy (`save_network`)
//! and read back and evaluated (`Network`).
//!
//! Everything reads and writes through `agents::neural`, the code the
//! `az` agent and `train-net` use, so the layouts cannot drift apart.

use agents::neural::data::{Dataset, Targets};
use agents::neural::encode::{
    encode_actions, encode_position, ACTION_COLUMNS, ACTION_FEATURES, BOARD_FEATURES, CELLS,
    CELL_COLUMNS, GLOBAL_COLUMNS, GLOBAL_FEATURES, WINDOW,
};
use agents::neural::net::{batch, segment_softmax, Net, NetConfig, CATEGORIES};
use agents::neural::{NetError, NetEvaluator, ENCODING_VERSION};
use engine::{Action as EngineAction, Seat, State, MAX_PLAYERS};
use numpy::{IntoPyArray, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

/// The game phase of a position from the turns played before it: 0 for
/// turns 0–23, 1 for 24–47, 2 from 48 on (the phases `train-net` reports
/// value accuracy by).
pub fn phase_of(turn: u32) -> u8 {
    (turn / 24).min(2) as u8
}

/// The encoding's sizes and column names, for the package's `ENCODING`.
pub fn encoding_dict(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("version", ENCODING_VERSION)?;
    d.set_item("window", WINDOW)?;
    d.set_item("cells", CELLS)?;
    d.set_item("cell_channels", CELL_COLUMNS.to_vec())?;
    d.set_item("board", BOARD_FEATURES)?;
    d.set_item("globals", GLOBAL_FEATURES)?;
    d.set_item("global_columns", GLOBAL_COLUMNS.to_vec())?;
    d.set_item("actions", ACTION_FEATURES)?;
    d.set_item("action_columns", ACTION_COLUMNS.to_vec())?;
    d.set_item("seats", MAX_PLAYERS)?;
    Ok(d)
}

/// A float32 numpy array of `values` in `shape`.
fn f32_array<'py>(
    py: Python<'py>,
    values: Vec<f32>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    Ok(values.into_pyarray(py).reshape(shape)?.into_any())
}

/// The encoding of `seat`'s view of `state` and of `actions` (legal ones
/// of the seat to play), as numpy arrays.
pub fn encode_view<'py>(
    py: Python<'py>,
    state: &State,
    seat: Seat,
    actions: &[EngineAction],
) -> PyResult<Bound<'py, PyDict>> {
    let view = state.view(seat);
    let position = encode_position(&view);
    let encoded = encode_actions(&view, actions);
    let m = encoded.len();
    let d = PyDict::new(py);
    d.set_item("board", f32_array(py, position.board, &[BOARD_FEATURES])?)?;
    d.set_item(
        "globals",
        f32_array(py, position.globals, &[GLOBAL_FEATURES])?,
    )?;
    let features: Vec<f32> = encoded.iter().flat_map(|a| a.features.clone()).collect();
    d.set_item("actions", f32_array(py, features, &[m, ACTION_FEATURES])?)?;
    let cells: Vec<u32> = encoded.iter().map(|a| a.cell).collect();
    d.set_item("action_cell", cells.into_pyarray(py))?;
    d.set_item("encoding_version", ENCODING_VERSION)?;
    Ok(d)
}

/// Every shard of `paths`, concatenated: the data, each position's shard
/// (an index into the files), the files and their metadata.
type Loaded = (
    Dataset,
    Vec<u32>,
    Vec<PathBuf>,
    Vec<HashMap<String, String>>,
);

/// The shards are read by `train-net`'s own reader
/// (`tournament::learning::train_net::for_each_shard`: a shard, a folder
/// of shards or a run folder's `examples/`, sorted by name; examples
/// training cannot trust, a shard given twice and a copy of one refused).
fn read_all(paths: &[PathBuf]) -> Result<Loaded, String> {
    let mut data = Dataset::default();
    let mut shard = Vec::new();
    let mut files = Vec::new();
    let mut metadata = Vec::new();
    tournament::learning::train_net::for_each_shard(paths, |file, d, meta| {
        shard.extend(std::iter::repeat_n(files.len() as u32, d.len()));
        data.extend(&d);
        files.push(file.to_path_buf());
        metadata.push(meta);
        Ok(())
    })
    .map_err(|e| e.to_string())?;
    Ok((data, shard, files, metadata))
}

/// The training examples of shards, folders of shards or self-play run
/// folders, concatenated as numpy arrays (the package's
/// ``load_examples`` wraps them; python/README.md lists the arrays).
#[pyfunction]
pub fn _load_examples<'py>(py: Python<'py>, paths: Vec<PathBuf>) -> PyResult<Bound<'py, PyDict>> {
    if paths.is_empty() {
        return Err(PyValueError::new_err("load_examples: no path given"));
    }
    let (data, shard, files, metadata) = py
        .detach(|| read_all(&paths))
        .map_err(PyValueError::new_err)?;
    let n = data.len();
    let m = data.cells.len();
    let d = PyDict::new(py);
    let owner: Vec<i64> = (0..n)
        .flat_map(|i| {
            let (lo, hi) = data.action_range(i);
            std::iter::repeat_n(i as i64, hi - lo)
        })
        .collect();
    // The columns are moved into numpy (no second copy of the data).
    let Dataset {
        board,
        globals,
        actions,
        cells,
        offsets,
        visits,
        targets,
    } = data;
    let offsets: Vec<i64> = if offsets.is_empty() {
        vec![0]
    } else {
        offsets.into_iter().map(i64::from).collect()
    };
    let column = |f: fn(&Targets) -> &[f32; MAX_PLAYERS]| -> Vec<f32> {
        targets.iter().flat_map(|t| *f(t)).collect()
    };
    let per = |f: fn(&Targets) -> u32| -> Vec<u32> { targets.iter().map(f).collect() };
    d.set_item(
        "board",
        board.into_pyarray(py).reshape([n, BOARD_FEATURES])?,
    )?;
    d.set_item("globals", f32_array(py, globals, &[n, GLOBAL_FEATURES])?)?;
    d.set_item("actions", f32_array(py, actions, &[m, ACTION_FEATURES])?)?;
    d.set_item("action_cell", cells.into_pyarray(py))?;
    d.set_item("action_offset", offsets.into_pyarray(py))?;
    d.set_item("action_owner", owner.into_pyarray(py))?;
    d.set_item("visits", visits.into_pyarray(py))?;
    d.set_item(
        "outcome",
        f32_array(py, column(|t| &t.outcome), &[n, MAX_PLAYERS])?,
    )?;
    d.set_item(
        "score",
        f32_array(py, column(|t| &t.scores), &[n, MAX_PLAYERS])?,
    )?;
    // Final points by category: only when every shard keeps them.
    let categories = targets
        .iter()
        .map(|t| t.categories)
        .collect::<Option<Vec<_>>>()
        .map(|rows| f32_array(py, rows.concat(), &[n, MAX_PLAYERS, CATEGORIES]))
        .transpose()?;
    d.set_item("categories", categories)?;
    // The search's values: only when every example has one.
    let search_values = targets
        .iter()
        .map(|t| t.search_value)
        .collect::<Option<Vec<f32>>>()
        .map(|values| values.into_pyarray(py));
    d.set_item("search_value", search_values)?;
    d.set_item("game", per(|t| t.game).into_pyarray(py))?;
    d.set_item("turn", per(|t| t.turn).into_pyarray(py))?;
    d.set_item(
        "phase",
        targets
            .iter()
            .map(|t| phase_of(t.turn))
            .collect::<Vec<u8>>()
            .into_pyarray(py),
    )?;
    d.set_item("players", per(|t| t.players).into_pyarray(py))?;
    d.set_item("shard", shard.into_pyarray(py))?;
    d.set_item(
        "files",
        files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>(),
    )?;
    let metas: Vec<BTreeMap<String, String>> = metadata
        .into_iter()
        .map(|m| m.into_iter().collect())
        .collect();
    d.set_item("metadata", metas)?;
    d.set_item("encoding_version", ENCODING_VERSION)?;
    Ok(d)
}

/// A weights file's error as the Python exception of its kind: a missing
/// or unreadable file OSError, anything else ValueError.
fn net_error(e: NetError) -> PyErr {
    match e {
        NetError::Io(text) => PyOSError::new_err(text),
        other => PyValueError::new_err(other.to_string()),
    }
}

/// Write a network's weights (name → float32 array, the layout of
/// docs/neural.md) and metadata (strings) to `path` as the `az` agent
/// reads them (the package's ``save_network`` wraps it).
#[pyfunction]
pub fn _save_network<'py>(
    py: Python<'py>,
    path: PathBuf,
    tensors: HashMap<String, PyReadonlyArrayDyn<'py, f32>>,
    metadata: HashMap<String, String>,
) -> PyResult<()> {
    let arrays: HashMap<String, (Vec<usize>, Vec<f32>)> = tensors
        .into_iter()
        .map(|(k, a)| {
            let shape = a.shape().to_vec();
            let data = a.as_array().iter().copied().collect();
            (k, (shape, data))
        })
        .collect();
    let name = path.display().to_string();
    py.detach(|| {
        let net = NetEvaluator::from_arrays(&name, arrays, metadata).map_err(net_error)?;
        net.save(&path).map_err(net_error)
    })
}

/// The array shapes of a network of these sizes, name → shape (weights
/// ``[out, in]`` as PyTorch's ``nn.Linear``, biases ``[out]``).
#[pyfunction]
#[pyo3(signature = (hidden = 256, context = 32, cell = 8, policy_hidden = 64, board = true, features = true))]
pub fn network_layout(
    hidden: usize,
    context: usize,
    cell: usize,
    policy_hidden: usize,
    board: bool,
    features: bool,
) -> Vec<(String, Vec<usize>)> {
    let config = NetConfig {
        hidden,
        context,
        cell,
        policy_hidden,
        board,
        features,
        categories: false,
    };
    config
        .layers()
        .into_iter()
        .flat_map(|(name, inputs, outputs)| {
            [
                (format!("{name}.weight"), vec![outputs, inputs]),
                (format!("{name}.bias"), vec![outputs]),
            ]
        })
        .collect()
}

/// A network's weights file, as the `az` agent reads it (``az:net=PATH``):
/// its sizes, metadata and arrays, and its outputs on any view.
#[pyclass(module = "carcassonne", frozen)]
pub struct Network {
    net: NetEvaluator,
    path: String,
    metadata: BTreeMap<String, String>,
}

#[pymethods]
impl Network {
    /// Read the weights file at `path`. A file that is not a network, of
    /// other shapes or of another encoding version raises ValueError
    /// (as ``az:net=`` refuses it); a missing file OSError.
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<Network> {
        let (net, metadata) = py
            .detach(|| {
                let net = NetEvaluator::load(&path)?;
                let meta = agents::neural::tensors::File::read(&path, agents::capped::Cap::NET)
                    .map_err(NetError::from)?
                    .metadata();
                Ok((net, meta))
            })
            .map_err(net_error)?;
        Ok(Network {
            net,
            path: path.display().to_string(),
            metadata: metadata.into_iter().collect(),
        })
    }

    /// The file's metadata (every key, as strings).
    #[getter]
    fn metadata(&self) -> BTreeMap<String, String> {
        self.metadata.clone()
    }

    /// The sizes: ``{"hidden", "context", "cell", "policy_hidden"}``.
    #[getter]
    fn config(&self) -> BTreeMap<&'static str, usize> {
        let c = self.net.net.config;
        BTreeMap::from([
            ("hidden", c.hidden),
            ("context", c.context),
            ("cell", c.cell),
            ("policy_hidden", c.policy_hidden),
        ])
    }

    /// Whether its trunk reads the board window (else the globals only).
    #[getter]
    fn board(&self) -> bool {
        self.net.net.config.board
    }

    /// The encoding version of its input (this build's; another is refused).
    #[getter]
    fn encoding_version(&self) -> u32 {
        ENCODING_VERSION
    }

    /// The arrays, name → float32 numpy array (``[out, in]`` weights,
    /// ``[out]`` biases).
    fn tensors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, var) in Net::names(&self.net.net.config)
            .iter()
            .zip(self.net.net.tensors())
        {
            let dims = var.dims().to_vec();
            let data = var
                .flatten_all()
                .and_then(|t| t.to_vec1::<f32>())
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            d.set_item(name, f32_array(py, data, &dims)?)?;
        }
        Ok(d)
    }

    /// The network's outputs on `view` and `actions` (default: the view's
    /// legal actions when its seat is to play), as the `az` search gets
    /// them: ``value`` and ``lead`` (6 each, seat-relative: entry k is the
    /// seat k places after the viewer, before rotation), ``values`` (one
    /// per seat, absolute order, what the search backs up), ``logits``
    /// and ``priors`` (one per action, the softmax of the logits over the
    /// actions given).
    #[pyo3(signature = (view, actions = None))]
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        view: PyRef<'py, crate::view::View>,
        actions: Option<Vec<Bound<'py, PyAny>>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let actions = view.actions_for_encoding(actions)?;
        let state = view.state();
        let seat = Seat(view.seat_index() as u8);
        let out = py
            .detach(|| -> Result<_, String> {
                let line = |e| agents::neural::net::one_line(&e);
                let v = state.view(seat);
                let p = encode_position(&v);
                let a = encode_actions(&v, &actions);
                let input = batch(
                    p.board,
                    &p.globals,
                    a.iter().flat_map(|x| x.features.clone()).collect(),
                    &a.iter().map(|x| x.cell).collect::<Vec<_>>(),
                    &vec![0; a.len()],
                )
                .map_err(line)?;
                let out = self.net.net.forward(&input).map_err(line)?;
                let value = out.value.to_vec2::<f32>().map_err(line)?;
                let lead = out.lead.to_vec2::<f32>().map_err(line)?;
                let logits = out.logits.to_vec1::<f32>().map_err(line)?;
                Ok((value[0].clone(), lead[0].clone(), logits))
            })
            .map_err(PyValueError::new_err)?;
        let (value, lead, logits) = out;
        let players = state.players();
        let me = seat.index();
        let mut values = vec![0.0f32; players];
        for (k, v) in value.iter().enumerate().take(players) {
            values[(me + k) % players] = *v;
        }
        let priors = segment_softmax(&logits, &[0, logits.len()]);
        let d = PyDict::new(py);
        d.set_item("value", value.into_pyarray(py))?;
        d.set_item("lead", lead.into_pyarray(py))?;
        d.set_item("values", values.into_pyarray(py))?;
        d.set_item("logits", logits.into_pyarray(py))?;
        d.set_item("priors", priors.into_pyarray(py))?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let c = self.net.net.config;
        format!(
            "Network({:?}, hidden={}, context={}, cell={}, policy_hidden={})",
            self.path, c.hidden, c.context, c.cell, c.policy_hidden
        )
    }
}
