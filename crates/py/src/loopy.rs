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

/// A board of a loopy ruleset (`"fox-and-geese"`, `"backsliding-toads"`:
/// see `rulesets()`, whose loopy entries have `loopy: True`): a dict of
/// `partizan value RULESET BOARD --json`'s fields for it (`outcome` with
/// draws, `stopper`, `form`: the board's value when it is a stopper, found
/// one strongly connected part of its graph at a time; `parts`: parts and
/// distinct values; `stops`; `sides`: onside and offside of a non-stopper
/// when sidling settles; `no_form` saying why there is no form). With
/// `only_outcome`, no value is sought. A bad board, an unknown ruleset or
/// a graph past `max_positions` is a `ValueError`.
#[pyfunction]
#[pyo3(signature = (ruleset, board, only_outcome=false, max_positions=5_000_000))]
pub fn loopy_board<'py>(
    py: Python<'py>,
    ruleset: &str,
    board: String,
    only_outcome: bool,
    max_positions: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let rules = partizan_loopy::LoopyRules::from_name(ruleset).ok_or_else(|| {
        let names: Vec<&str> = partizan_loopy::LoopyRules::ALL
            .iter()
            .map(|r| r.name())
            .collect();
        PyValueError::new_err(format!(
            "unknown loopy ruleset '{}' (known: {})",
            ruleset.chars().take(60).collect::<String>(),
            names.join(", ")
        ))
    })?;
    let limits = partizan_report::BoardLimits {
        max_positions,
        only_outcome,
        ..partizan_report::BoardLimits::default()
    };
    let report = py
        .detach(|| partizan_report::loopy_board(rules, &board, &limits, None, &mut |_, _, _| {}))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    to_dict(py, &report)
}
