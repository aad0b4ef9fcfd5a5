//! Games defined in Python: a ruleset object gives the options of a
//! position for each player (hashable positions), and optionally the
//! independent components a position falls into; the engine values
//! positions with memoisation, calling back into Python for the options.

use partizan_core::{Arena, GameId};
use pyo3::exceptions::{PyRecursionError, PyRuntimeError, PyTypeError};
use pyo3::gc::PyVisit;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::PyTraverseError;

use crate::value::{adopt, value_error, Value};

/// Deepest line of play the engine follows before it gives up with
/// `RecursionError` (a game that is not short, or a cycle of positions).
pub const MAX_DEPTH: usize = 2_000;

/// How many positions between two looks for Ctrl-C.
const SIGNAL_EVERY: u64 = 1024;

/// The valuation engine behind `partizan.Ruleset`: a private arena, the
/// memo table (a dict from position to value), and counts. One engine per
/// ruleset object; the memo lives as long as it does.
#[pyclass(module = "partizan._partizan")]
pub struct Engine {
    /// The user's ruleset object (`None` once the garbage collector has
    /// cleared the engine to break the ruleset -> engine -> ruleset cycle).
    rules: Option<Py<PyAny>>,
    components: bool,
    arena: Arena,
    memo: Py<PyDict>,
    nodes: u64,
    hits: u64,
    searched: u64,
}

impl Engine {
    fn eval(&mut self, py: Python<'_>, pos: &Bound<'_, PyAny>, depth: usize) -> PyResult<GameId> {
        self.nodes += 1;
        let memo = self.memo.bind(py).clone();
        if let Some(v) = memo.get_item(pos)? {
            self.hits += 1;
            let i: u32 = v.extract()?;
            return self
                .arena
                .id_at(i)
                .ok_or_else(|| PyTypeError::new_err("corrupt memo entry"));
        }
        if depth > MAX_DEPTH {
            return Err(PyRecursionError::new_err(format!(
                "play went {MAX_DEPTH} moves deep: is the game short (no cycles, finitely many moves)?"
            )));
        }
        if self.nodes % SIGNAL_EVERY == 0 {
            py.check_signals()?;
        }
        let rules = self
            .rules
            .as_ref()
            .ok_or_else(|| PyRuntimeError::new_err("this engine's ruleset was released"))?
            .bind(py)
            .clone();
        let mut g = None;
        if self.components {
            let parts = rules.call_method1("components", (pos,))?;
            if !parts.is_none() {
                let parts: Vec<Bound<'_, PyAny>> = parts.try_iter()?.collect::<PyResult<_>>()?;
                let whole = parts.len() == 1 && parts[0].eq(pos)?;
                if !whole {
                    let mut total = self.arena.zero();
                    for p in &parts {
                        let v = self.eval(py, p, depth + 1)?;
                        total = self.arena.sum(total, v).map_err(value_error)?;
                    }
                    g = Some(total);
                }
            }
        }
        let g = match g {
            Some(g) => g,
            None => {
                self.searched += 1;
                let mut sides = [Vec::new(), Vec::new()];
                for (side, name) in ["left_options", "right_options"].into_iter().enumerate() {
                    let opts = rules.call_method1(name, (pos,))?;
                    for o in opts.try_iter()? {
                        let v = self.eval(py, &o?, depth + 1)?;
                        sides[side].push(v);
                    }
                }
                self.arena
                    .construct(&sides[0], &sides[1])
                    .map_err(value_error)?
            }
        };
        memo.set_item(pos, g.index())?;
        Ok(g)
    }
}

#[pymethods]
impl Engine {
    /// An engine for `rules`, an object with `left_options(position)` and
    /// `right_options(position)` methods (and `components(position)` when
    /// `components` is true).
    #[new]
    #[pyo3(signature = (rules, components=false))]
    fn py_new(py: Python<'_>, rules: Py<PyAny>, components: bool) -> Engine {
        Engine {
            rules: Some(rules),
            components,
            arena: Arena::new(),
            memo: PyDict::new(py).unbind(),
            nodes: 0,
            hits: 0,
            searched: 0,
        }
    }

    /// The canonical value of `position`.
    fn value(&mut self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<Value> {
        let g = self.eval(py, position, 0)?;
        adopt(py, &mut self.arena, g)
    }

    /// Counts so far: `nodes` (evaluations asked for), `hits` (answered by
    /// the memo), `searched` (positions whose options were generated),
    /// `memo` (positions remembered), `forms` (canonical forms interned).
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("nodes", self.nodes)?;
        d.set_item("hits", self.hits)?;
        d.set_item("searched", self.searched)?;
        d.set_item("memo", self.memo.bind(py).len())?;
        d.set_item("forms", self.arena.len())?;
        Ok(d)
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.rules)?;
        visit.call(&self.memo)?;
        Ok(())
    }

    fn __clear__(&mut self) {
        self.rules = None;
    }

    /// Forget every remembered position (and the private arena).
    fn clear(&mut self, py: Python<'_>) {
        self.arena = Arena::new();
        self.memo = PyDict::new(py).unbind();
        self.nodes = 0;
        self.hits = 0;
        self.searched = 0;
    }
}
