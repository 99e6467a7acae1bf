//! The rules of a game from Python's arguments: the engine's [`Rules`]
//! (RULES.md §8 variants included) from `farmers=`, `gifts=`, a `rules=`
//! string or dict, and variant keywords, checked by the engine; and back
//! to a dict.

use engine::Rules;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};

/// The rules asked for: the standard rules, then `rules` (the command
/// line's ``"KEY=VALUE,…"`` text or a dict of keys to values), then each
/// of `variants` (keyword arguments named after the keys), then `farmers`
/// and `gifts` when given; validated as the command line's `--rules`.
/// A bad key, value or combination raises ValueError with the engine's
/// reason.
pub fn rules_from(
    farmers: Option<bool>,
    gifts: Option<bool>,
    rules: Option<&Bound<'_, PyAny>>,
    variants: Option<&Bound<'_, PyDict>>,
) -> PyResult<Rules> {
    let mut out = Rules::default();
    match rules {
        None => {}
        Some(r) if r.is_none() => {}
        Some(r) if r.is_instance_of::<PyString>() => {
            let text: String = r.extract()?;
            for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
                let (key, value) = item
                    .split_once('=')
                    .ok_or_else(|| bad(engine::RulesError::Syntax(item.to_string())))?;
                out.set(key.trim(), value.trim()).map_err(bad)?;
            }
        }
        Some(r) => {
            let dict = r.cast::<PyDict>().map_err(|_| {
                PyTypeError::new_err("rules is a \"KEY=VALUE,...\" string or a dict")
            })?;
            set_all(&mut out, dict)?;
        }
    }
    if let Some(v) = variants {
        set_all(&mut out, v)?;
    }
    if let Some(f) = farmers {
        out.farmers = f;
    }
    if let Some(g) = gifts {
        out.gifts = g;
    }
    out.validate().map_err(bad)?;
    Ok(out)
}

/// The engine's reason a rules key, value or combination is refused.
fn bad(e: engine::RulesError) -> PyErr {
    PyValueError::new_err(format!("rules: {e}"))
}

/// Set every `key: value` of `dict` on `rules` (``table=None``: no table).
fn set_all(rules: &mut Rules, dict: &Bound<'_, PyDict>) -> PyResult<()> {
    for (key, value) in dict.iter() {
        let key: String = key.extract()?;
        if key == "table" && value.is_none() {
            rules.table = None;
            continue;
        }
        rules.set(&key, &value_text(&value)?).map_err(bad)?;
    }
    Ok(())
}

/// A value as the text form the engine reads: ``True`` → ``"true"``,
/// ``1`` → ``"1"``, ``"11x11"`` as is.
fn value_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(if b.is_true() { "true" } else { "false" }.to_string());
    }
    if let Ok(n) = value.extract::<i64>() {
        return Ok(n.to_string());
    }
    value
        .extract::<String>()
        .map_err(|_| PyTypeError::new_err("a rules value is a bool, an int or a string"))
}

/// `rules` as a dict of every key (RULES.md §8 names) to its value:
/// bools, ``hand`` an int, ``unplaceable`` ``"aside"`` or ``"return"``,
/// ``table`` ``None`` or ``"WxH"``.
pub fn rules_dict<'py>(py: Python<'py>, rules: &Rules) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("farmers", rules.farmers)?;
    d.set_item("gifts", rules.gifts)?;
    d.set_item("hand", rules.hand)?;
    d.set_item("hand_visible", rules.hand_visible)?;
    d.set_item("start_in_bag", rules.start_in_bag)?;
    d.set_item("unplaceable", rules.unplaceable.to_string())?;
    d.set_item("hole_bonus", rules.hole_bonus)?;
    d.set_item("final_incomplete", rules.final_incomplete)?;
    d.set_item("table", rules.table.map(|t| t.to_string()))?;
    d.set_item("table_closes", rules.table_closes)?;
    Ok(d)
}
