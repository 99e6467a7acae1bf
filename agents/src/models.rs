//! The files agents' parameters name — the value models of `eval=PATH`
//! and the networks of `az:net=PATH` — read once per process and shared.
//!
//! A run turns each spec into a [`crate::registry::Factory`] once, which
//! holds its model behind an `Arc` for every agent it builds; the cache
//! here also shares one copy between the specs, checks and embeddings
//! (the Python package) that name the same file. The cache is keyed by the file's
//! canonical path, modification time and length, so a file rewritten in
//! place (a new generation under the same name) is read again, while a
//! file removed or unreadable after it was first read keeps serving the
//! copy in memory (a run that checked its specs at the start does not
//! fail, or panic, half-way because the file went away).

use crate::learn::ValueModel;
use crate::spec::params::{Param, Params, Values};
use crate::spec::{SpecError, Unsuited};
use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::SystemTime;

/// One file read: where it was named and found, its stamp, the model.
struct Entry {
    /// The path as given in the spec.
    given: PathBuf,
    /// The canonical path, modification time and length when read.
    key: (PathBuf, Option<SystemTime>, u64),
    /// An `Arc<T>` for the `T` its reader returns.
    model: Arc<dyn Any + Send + Sync>,
}

/// The process-wide cache.
fn cache() -> &'static Mutex<Vec<Entry>> {
    static CACHE: OnceLock<Mutex<Vec<Entry>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(Vec::new()))
}

/// The `eval=` parameter shared by the agents that take a model.
pub const EVAL_PARAM: Param = Param::new(
    "eval",
    Values::Text("a model file written by `carcassonne train`"),
    "none",
    "value positions by this model fitted on self-play (read once, shared)",
);

/// The model of an agent's `eval=FILE` parameter, if given, read and
/// checked (once per process, in the cache here).
///
/// # Errors
/// The file cannot be read, is not a model, or was fitted on other
/// features than this build's.
pub fn eval_param(params: &Params<'_, '_>) -> Result<Option<Arc<ValueModel>>, SpecError> {
    params
        .text("eval")
        .map(|path| value_model(Path::new(path)).map_err(SpecError::File))
        .transpose()
}

/// What makes agents whose `eval=` parameter gave `model` unsuited to a
/// game ([`crate::Factory::unsuited_to`]): why the model may predict
/// badly there, if it says; `None` without a model.
pub fn eval_unsuited(model: Option<Arc<ValueModel>>) -> Option<Unsuited> {
    let model = model?;
    Some(Arc::new(move |rules: &engine::Rules, players: usize| {
        let why = model.unsuited_to(rules, players)?;
        Some(format!("its eval= model is {why}"))
    }))
}

/// The network `net=` names: the `neural` feature's network.
#[cfg(feature = "neural")]
pub use crate::neural::NetEvaluator as Network;

/// Without the `neural` feature no network can be read: no value of this
/// type exists, and `net=` is refused ([`network`]).
#[cfg(not(feature = "neural"))]
#[derive(Debug)]
pub enum Network {}

#[cfg(not(feature = "neural"))]
impl Network {
    /// Never called: there is no network.
    pub fn unsuited_to(&self, _rules: &engine::Rules, _players: usize) -> Option<String> {
        match *self {}
    }
}

#[cfg(not(feature = "neural"))]
impl crate::evaluator::Evaluator for Network {
    fn evaluate(
        &self,
        _batch: &[crate::evaluator::EvalRequest<'_>],
    ) -> Vec<crate::evaluator::Evaluation> {
        match *self {}
    }
}

/// The network of `net=PATH`, read on first use and shared afterwards.
///
/// # Errors
///
/// A one-line message naming the file: it cannot be read, or is not a
/// network this build can use.
#[cfg(feature = "neural")]
pub fn network(path: &Path) -> Result<Arc<Network>, String> {
    load_with(path, "network", read_network)
}

/// Without the `neural` feature: the one line saying this build reads no
/// networks.
///
/// # Errors
///
/// Always.
#[cfg(not(feature = "neural"))]
pub fn network(path: &Path) -> Result<Arc<Network>, String> {
    Err(format!(
        "network {}: this build has no networks (the agents crate's `neural` feature is off)",
        path.display()
    ))
}

/// The evaluator of `network` with its lead head blended in by `lead`
/// ([`crate::neural::LeadBlend`]; the network alone at 0).
pub fn blended(network: &Arc<Network>, lead: f32) -> Arc<dyn crate::evaluator::Evaluator> {
    #[cfg(feature = "neural")]
    if lead > 0.0 {
        return Arc::new(crate::neural::LeadBlend {
            net: Arc::clone(network),
            lead,
        });
    }
    let _ = lead;
    Arc::clone(network) as Arc<dyn crate::evaluator::Evaluator>
}

/// The value model of `eval=PATH`, read on first use and shared
/// afterwards.
///
/// # Errors
///
/// A one-line message naming the file: it cannot be read, is not a
/// model, or was fitted on other features than this build's.
pub fn value_model(path: &Path) -> Result<Arc<ValueModel>, String> {
    load_with(path, "model", |path| {
        ValueModel::load(path)
            .map(Arc::new)
            .map_err(|e| e.to_string())
    })
}

/// The file at `path`, read by `read` on first use (tests count the
/// reads); `what` it is names it in errors.
pub(crate) fn load_with<T: Any + Send + Sync>(
    path: &Path,
    what: &str,
    read: fn(&Path) -> Result<Arc<T>, String>,
) -> Result<Arc<T>, String> {
    // Entries of another type (another reader of the same file) are
    // not matches.
    let cast = |e: &Entry| Arc::clone(&e.model).downcast::<T>().ok();
    // A poisoned lock only means another thread panicked while reading:
    // the entries themselves are always whole.
    let mut entries = cache().lock().unwrap_or_else(|e| e.into_inner());
    let stamp = std::fs::canonicalize(path).and_then(|canonical| {
        let meta = std::fs::metadata(&canonical)?;
        Ok((canonical, meta.modified().ok(), meta.len()))
    });
    match stamp {
        Ok(key) => {
            if let Some(model) = entries.iter().filter(|e| e.key == key).find_map(cast) {
                return Ok(model);
            }
            let model = read(path)?;
            entries.push(Entry {
                given: path.to_path_buf(),
                key,
                model: Arc::clone(&model) as Arc<dyn Any + Send + Sync>,
            });
            Ok(model)
        }
        Err(err) => entries
            .iter()
            .rev()
            .filter(|e| e.given == path || e.key.0 == path)
            .find_map(cast)
            .ok_or_else(|| format!("{what} {}: cannot read it: {err}", path.display())),
    }
}

/// Read a network file ([`Network::load`]: its encoding version and
/// shapes are checked).
#[cfg(feature = "neural")]
fn read_network(path: &Path) -> Result<Arc<Network>, String> {
    Network::load(path)
        .map(Arc::new)
        .map_err(|e| format!("network {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluator::Uniform;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static READS: AtomicUsize = AtomicUsize::new(0);

    fn counting(_: &Path) -> Result<Arc<Uniform>, String> {
        READS.fetch_add(1, Ordering::SeqCst);
        Ok(Arc::new(Uniform))
    }

    #[test]
    fn a_network_is_read_once_shared_and_survives_its_file() {
        let dir = std::env::temp_dir().join(format!("az-models-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("net.safetensors");
        std::fs::write(&path, b"one").unwrap();
        let a = load_with(&path, "model", counting).unwrap();
        let b = load_with(&path, "model", counting).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(READS.load(Ordering::SeqCst), 1);
        // Rewritten in place (another length): read again.
        std::fs::write(&path, b"second").unwrap();
        let c = load_with(&path, "model", counting).unwrap();
        assert!(!Arc::ptr_eq(&a, &c));
        assert_eq!(READS.load(Ordering::SeqCst), 2);
        // Removed: the copy in memory serves, without a read.
        std::fs::remove_file(&path).unwrap();
        let d = load_with(&path, "model", counting).unwrap();
        assert!(Arc::ptr_eq(&c, &d));
        assert_eq!(READS.load(Ordering::SeqCst), 2);
        // A file never read is an error naming it.
        let e = load_with(&dir.join("other"), "model", counting)
            .err()
            .unwrap();
        assert!(e.contains("other") && e.contains("cannot read"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Without the `neural` feature, `net=` is one line saying so (the
    /// protocol crate and fuzz build the agents that way).
    #[cfg(not(feature = "neural"))]
    #[test]
    fn without_networks_net_is_refused_in_one_line() {
        let e = crate::Factory::new("az:net=models/net-2p-zero.safetensors").unwrap_err();
        assert!(e.to_string().contains("`neural` feature is off"), "{e}");
        assert!(crate::from_spec("az:iterations=5").is_ok());
    }
}
