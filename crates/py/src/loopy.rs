//! Loopy games from Python: `partizan.loopy`, the report of `partizan
//! loopy VALUE --json` (`partizan_report::loopy`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::misere::to_dict;

/// A loopy value in CGSuite's loopy notation (`"{pass|}"`, `"a{0|{*|a}}"`,
/// `"over"`, `"dud"`), the sum of `values`: a dict of `partizan loopy VALUE
/// --json`'s fields (`positions`, `stopper`, `short`, `outcome`,
/// `left_first`, `right_first`, `form`: a stopper's simplest form, or
/// `no_form` saying why there is none; with `compare`, `compared`: the
/// other value and `>`, `<`, `=` or `||`). Bad notation, a comparison of a
/// non-stopper or a graph past `max_positions` is a `ValueError`.
#[pyfunction]
#[pyo3(signature = (*values, compare=None, max_positions=1_000))]
pub fn loopy<'py>(
    py: Python<'py>,
    values: Vec<String>,
    compare: Option<String>,
    max_positions: usize,
) -> PyResult<Bound<'py, PyAny>> {
    if values.is_empty() {
        return Err(PyValueError::new_err("loopy needs at least one value"));
    }
    let report = py
        .detach(|| partizan_report::loopy_value(&values, compare.as_deref(), max_positions))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    to_dict(py, &report)
}
