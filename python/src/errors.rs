//! The package's exceptions, and a guard that turns a Rust panic into one
//! of them so that no panic ever unwinds into the interpreter.

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::PyResult;
use std::panic::{catch_unwind, AssertUnwindSafe};

create_exception!(
    carcassonne,
    IllegalActionError,
    PyValueError,
    "An action or chance outcome the rules do not allow now; the message gives the engine's reason."
);
create_exception!(
    carcassonne,
    EngineError,
    PyRuntimeError,
    "An internal error of the engine (a Rust panic caught at the boundary)."
);

/// Run `f`, turning a panic into [`EngineError`].
pub fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(panic) => Err(EngineError::new_err(panic_message(&*panic))),
    }
}

/// The text of a panic payload.
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// An illegal action or outcome, with the engine's reason.
pub fn illegal(reason: impl std::fmt::Display) -> pyo3::PyErr {
    IllegalActionError::new_err(reason.to_string())
}
