//! Misère play from Python: a heap game's misère quotient and the misère
//! canonical form of a graph position or of an impartial ruleset's board,
//! as the dicts `partizan grundy ... --misere --json` and `partizan value
//! ... --misere --json` print (the report types of
//! `partizan_report::misere`).

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use partizan_impartial::GraphGame;
use partizan_report::misere::{self, MisereAsk, DEFAULT_MISERE_WORK};

pub(crate) fn to_dict<'py, T: serde::Serialize>(
    py: Python<'py>,
    report: &T,
) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(report).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// The misère quotient of a heap game (`0.77`, `kayles`, `sub:1,3,4`,
/// `nim`) through heap `up_to`, or less once it is proved periodic: a dict
/// of `partizan grundy GAME --misere --json`'s fields (`order`,
/// `p_portion_size`, `stability`, `status`, `generators`, `relations`,
/// `p_portion`, `elements`, `heaps`, `expansions`, `sum`, `work`, ...).
/// `heaps` adds the outcome of that sum (`sum.outcome`, "P" or "N"). A
/// budget (`max_work`) that stops the computation is in `stability`, not
/// an error; a malformed game, or a heap past what is known, is a
/// `ValueError`. The GIL is released while it runs.
#[pyfunction]
#[pyo3(signature = (game, *, up_to=300, heaps=None, max_work=DEFAULT_MISERE_WORK))]
pub fn misere_quotient<'py>(
    py: Python<'py>,
    game: &str,
    up_to: usize,
    heaps: Option<Vec<usize>>,
    max_work: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let ask = MisereAsk {
        game: game.to_string(),
        up_to,
        max_work,
        heaps: heaps.map(|h| {
            h.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        }),
    };
    let report = py
        .detach(|| misere::misere_quotient(&ask))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    to_dict(py, &report)
}

/// The misère canonical form of Kayles or Node Kayles on a graph
/// (`"path:10"`, `"5: 0-1 1-2"`): a dict of `partizan grundy GAME GRAPH
/// --misere --json`'s fields (`outcome`, `misere_nim_value`, `nim_value`,
/// `genus`, `form`, `birthday`, `positions`). A bad game or graph, or more
/// than `max_positions` connected positions, is a `ValueError`.
#[pyfunction]
#[pyo3(signature = (game, graph, *, max_positions=2_000_000))]
pub fn misere_graph<'py>(
    py: Python<'py>,
    game: &str,
    graph: &str,
    max_positions: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let g = GraphGame::from_name(game).ok_or_else(|| {
        PyValueError::new_err(format!(
            "{game:?} is not played on a graph (graph games: kayles, node-kayles)"
        ))
    })?;
    let report = py
        .detach(|| misere::misere_graph(g, graph, max_positions))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    to_dict(py, &report)
}

/// The misère canonical form of a board: a dict of `partizan value
/// RULESET BOARD --misere --json`'s fields. An impartial ruleset (`cram`)
/// gives `universe`, `outcome`, `misere_nim_value`, `nim_value`, `genus`,
/// `form`, `birthday`, `positions`; a partizan one `universe`, `forms` (one
/// per universe: `universe` "general" or "dicot", `outcome` L/R/N/P,
/// `form`, `form_chars`, `birthday`) and `positions`. A bad board or more
/// than `max_positions` boards is a `ValueError`.
#[pyfunction]
#[pyo3(signature = (ruleset, board, *, max_positions=2_000_000))]
pub fn misere_board<'py>(
    py: Python<'py>,
    ruleset: &str,
    board: &str,
    max_positions: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let rules = crate::board::rules_of(ruleset)?;
    let report = py
        .detach(|| misere::misere_board(rules, board, max_positions))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    to_dict(py, &report)
}

/// The misère canonical forms of the sum of `values`, game trees in CGSuite
/// notation taken literally (`"{1|*}"` is not simplified under normal
/// play; `1`, `*2`, `1/2` stand for their normal-play trees, `-x` swaps
/// the players): a dict of `partizan game VALUE... --misere --json`'s
/// fields (`value`, `forms`: one per universe the sum is in, each with
/// `universe`, `outcome`, `form`, `form_chars`, `birthday`; `impartial`:
/// genus and all when the sum is impartial, else `None`). Bad notation or
/// more than `max_forms` forms is a `ValueError`.
#[pyfunction]
#[pyo3(signature = (*values, max_forms=2_000_000))]
pub fn misere_game<'py>(
    py: Python<'py>,
    values: Vec<String>,
    max_forms: usize,
) -> PyResult<Bound<'py, PyAny>> {
    if values.is_empty() {
        return Err(PyValueError::new_err(
            "misere_game needs at least one value",
        ));
    }
    let report = py
        .detach(|| misere::misere_game(&values, max_forms))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    to_dict(py, &report)
}
