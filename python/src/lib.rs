//! Python bindings of the Carcassonne AI toolkit, as the extension module
//! `carcassonne._carcassonne` (re-exported by the `carcassonne` package).
//!
//! - [`game`]: `Game`, the engine with explicit chance, records, replay.
//! - [`action`]: `Action`, one decision with its notation and integer id.
//! - [`view`]: `View`, what one seat may see, and determinization.
//! - [`encoding`]: the fixed-size action encoding of a board window.
//! - [`observation`]: numeric observations for learning.
//! - [`rules`]: the engine's rules (with RULES.md §8 variants) from arguments.
//! - [`agents`]: built-in agents, Python agents, `play_game`, tournaments.
//! - [`vector`]: `VectorEnv`, many games stepped per call on a thread pool.
//! - [`neural`]: the `az` network: view encoding, training examples as
//!   numpy arrays, weights files from numpy.
//! - [`errors`]: the exceptions, and turning panics into them.

use pyo3::prelude::*;

pub mod action;
pub mod agents;
pub mod encoding;
pub mod errors;
pub mod game;
pub mod neural;
pub mod observation;
pub mod rules;
pub mod vector;
pub mod view;

/// The extension module.
#[pymodule]
fn _carcassonne(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add(
        "IllegalActionError",
        py.get_type::<errors::IllegalActionError>(),
    )?;
    m.add("EngineError", py.get_type::<errors::EngineError>())?;
    m.add_class::<game::Game>()?;
    m.add_class::<action::Action>()?;
    m.add_class::<action::ActionList>()?;
    m.add_class::<view::View>()?;
    m.add_class::<agents::BuiltinAgent>()?;
    m.add_class::<vector::VectorEnv>()?;
    m.add_class::<neural::Network>()?;
    m.add_function(wrap_pyfunction!(game::replay, m)?)?;
    m.add_function(wrap_pyfunction!(agents::agent, m)?)?;
    m.add_function(wrap_pyfunction!(agents::play_game, m)?)?;
    m.add_function(wrap_pyfunction!(agents::run_tournament, m)?)?;
    m.add_function(wrap_pyfunction!(encoding::action_count, m)?)?;
    m.add_function(wrap_pyfunction!(encoding::decode_action, m)?)?;
    m.add_function(wrap_pyfunction!(neural::_load_examples, m)?)?;
    m.add_function(wrap_pyfunction!(neural::_save_network, m)?)?;
    m.add_function(wrap_pyfunction!(neural::network_layout, m)?)?;
    m.add_function(wrap_pyfunction!(agents::run_selfplay, m)?)?;
    m.add("TILES", engine::Tile::ALL.map(|t| t.to_string()).to_vec())?;
    m.add("GIFTS", engine::Gift::ALL.map(|g| g.to_string()).to_vec())?;
    m.add("MAX_PLAYERS", engine::MAX_PLAYERS)?;
    m.add("FULL_RADIUS", encoding::FULL_RADIUS)?;
    m.add("ACTION_SPACE", engine::ACTION_SPACE)?;
    m.add("PLANES", observation::PLANES.to_vec())?;
    m.add("STATE_ENTRIES", observation::STATE_ENTRIES.to_vec())?;
    m.add(
        "ACTION_FEATURES",
        ::agents::action_features::COLUMNS.to_vec(),
    )?;
    m.add(
        "ACTION_FEATURES_VERSION",
        ::agents::action_features::VERSION,
    )?;
    m.add("ENCODING_VERSION", ::agents::neural::ENCODING_VERSION)?;
    m.add("ENCODING", neural::encoding_dict(py)?)?;
    Ok(())
}
