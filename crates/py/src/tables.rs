//! The census, Sylver Coinage and the persistent store. Tables cross into
//! Python as JSON text (the libraries' own serialisations), which the
//! Python half turns into dataclasses.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use partizan_census::{
    build_catalogue, Census, CensusError, CramCensus, DomineeringValues, Group, Shape, ShapeValues,
};
use partizan_core::{Arena, GameId};
use partizan_semigroup::{census_until, count_by_genus, play_until, Order, Semigroup};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use serde_json::json;

use crate::interrupt::{run_watched, Interrupt};

/// The persistent table of region values, the same file the `partizan`
/// command line uses (`path`, else `$PARTIZAN_STORE`, else the user's data
/// directory). Pass it to `Board.value(store)`.
///
/// By default the file is opened for each computation and let go after it
/// (about 25 ms); `keep_open=True` holds it for the handle's life (faster
/// for many small calls). Either way other handles and processes (the
/// command line, the site) read and add to the same file at once.
#[pyclass(frozen, module = "partizan._partizan")]
pub struct Store {
    inner: Mutex<Option<partizan_store::Store>>,
    path: PathBuf,
    keep_open: bool,
    closed: AtomicBool,
}

impl Store {
    /// A handle on the store for one computation: the held one, or the
    /// file opened afresh (call without the GIL: opening can wait for
    /// another process). An error once the handle is closed.
    pub fn handle(&self) -> PyResult<partizan_store::Store> {
        if self.closed.load(Ordering::Acquire) {
            return Err(PyValueError::new_err("the store is closed"));
        }
        if !self.keep_open {
            return partizan_store::Store::open(&self.path).map_err(store_error);
        }
        self.inner
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .ok_or_else(|| PyValueError::new_err("the store is closed"))
    }
}

fn store_error(e: partizan_store::StoreError) -> PyErr {
    PyRuntimeError::new_err(format!("store: {e}"))
}

#[pymethods]
impl Store {
    /// Open (creating if need be) the store at `path`, or at the CLI's
    /// default location when `path` is `None`; checks the file at once.
    #[new]
    #[pyo3(signature = (path=None, *, keep_open=false))]
    fn py_new(py: Python<'_>, path: Option<PathBuf>, keep_open: bool) -> PyResult<Store> {
        let path = partizan_store::path::resolve_store_path(path).map_err(store_error)?;
        let p = path.clone();
        let store = py
            .detach(move || partizan_store::Store::open(&p))
            .map_err(store_error)?;
        Ok(Store {
            inner: Mutex::new(keep_open.then_some(store)),
            path,
            keep_open,
            closed: AtomicBool::new(false),
        })
    }

    /// Whether the handle holds the file open between computations.
    #[getter]
    fn keep_open(&self) -> bool {
        self.keep_open
    }

    /// The store file.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// What is in the store, as a dict: `regions` per ruleset,
    /// `total_regions`, `file_bytes`, `format`, `recent_runs`, ...
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let stats = py.detach(|| self.handle()?.stats().map_err(store_error))?;
        let text = serde_json::to_string(&stats).map_err(json_err)?;
        py.import("json")?.call_method1("loads", (text,))
    }

    /// Let go of the file (other handles on it, such as a running
    /// session, finish first).
    fn close(&self) {
        self.closed.store(true, Ordering::Release);
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).take();
    }

    /// Whether `close` has been called.
    #[getter]
    fn closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __exit__(
        &self,
        _t: &Bound<'_, PyAny>,
        _v: &Bound<'_, PyAny>,
        _tb: &Bound<'_, PyAny>,
    ) -> bool {
        self.close();
        false
    }

    fn __repr__(&self) -> String {
        format!("Store({:?})", self.path.display().to_string())
    }
}

/// Why a census stopped: the inner values failed, or Ctrl-C.
#[derive(Debug, thiserror::Error)]
enum CensusStop<E: std::error::Error + 'static> {
    #[error(transparent)]
    Inner(E),
    #[error("interrupted")]
    Interrupted,
}

/// Census values that look for Ctrl-C before every shape.
struct Stoppable<'a, V> {
    inner: V,
    intr: &'a Interrupt,
}

impl<V: ShapeValues> ShapeValues for Stoppable<'_, V> {
    type Error = CensusStop<V::Error>;
    fn value(&mut self, arena: &mut Arena, shape: &Shape) -> Result<GameId, Self::Error> {
        if self.intr.stop() {
            return Err(CensusStop::Interrupted);
        }
        self.inner.value(arena, shape).map_err(CensusStop::Inner)
    }
}

fn census_error(intr: &Interrupt, e: CensusError) -> PyErr {
    if let Some(p) = intr.take() {
        return p;
    }
    match e {
        CensusError::Invariant { .. } => PyRuntimeError::new_err(e.to_string()),
        other => PyValueError::new_err(other.to_string()),
    }
}

fn json_err(e: impl std::fmt::Display) -> PyErr {
    PyRuntimeError::new_err(e.to_string())
}

/// The Domineering region census to `max_cells` cells, as JSON text:
/// `{"report": ..., "records": [...]}` with one record per shape (its
/// board, value, stops and packing reading). The GIL is released; Ctrl-C
/// stops it.
#[pyfunction]
pub fn domineering_census(py: Python<'_>, max_cells: usize) -> PyResult<String> {
    let intr = Interrupt::new();
    let run = py.detach(|| {
        let mut arena = Arena::new();
        let catalogue = build_catalogue(Group::RowPreserving, max_cells)?;
        let mut values = Stoppable {
            inner: DomineeringValues::new(),
            intr: &intr,
        };
        let census = Census::run(&catalogue, &mut arena, &mut values)?;
        Ok::<_, CensusError>((census, arena))
    });
    let (census, mut arena) = run.map_err(|e| census_error(&intr, e))?;
    let records: Vec<serde_json::Value> = census
        .records
        .iter()
        .map(|r| {
            json!({
                "shape": r.shape.to_text(),
                "cells": r.cells(),
                "value": r.value_text,
                "number": r.number.map(|d| d.to_string()),
                "left_stop": r.left_stop.to_string(),
                "right_stop": r.right_stop.to_string(),
                "temperature": arena.try_temperature(r.value).ok().map(|d| d.to_string()),
                "count": r.reading.count,
                "low": r.reading.low,
                "high": r.reading.high,
                "packings": r.reading.packings,
                "exact": r.exact(),
                "contained": r.contained(),
                "strip": r.shape.is_strip(),
            })
        })
        .collect();
    let report: serde_json::Value =
        serde_json::from_str(&census.report.to_json().map_err(json_err)?).map_err(json_err)?;
    serde_json::to_string(&json!({ "report": report, "records": records })).map_err(json_err)
}

/// The Cram census (nim-values of every region to `max_cells` cells) as
/// JSON text: `{"report": ..., "records": [{"shape", "cells", "nim"}]}`.
/// The GIL is released; Ctrl-C stops it between shapes.
#[pyfunction]
pub fn cram_census(py: Python<'_>, max_cells: usize) -> PyResult<String> {
    let intr = Interrupt::new();
    let census = py
        .detach(|| CramCensus::run_until(max_cells, &|| intr.stop()))
        .map_err(|e| census_error(&intr, e))?;
    let Some(census) = census else {
        return Err(intr
            .take()
            .unwrap_or_else(|| PyRuntimeError::new_err("census stopped")));
    };
    let records: Vec<serde_json::Value> = census
        .records
        .iter()
        .map(|r| json!({ "shape": r.shape.to_text(), "cells": r.shape.len(), "nim": r.nim }))
        .collect();
    let report: serde_json::Value =
        serde_json::from_str(&census.report.to_json().map_err(json_err)?).map_err(json_err)?;
    serde_json::to_string(&json!({ "report": report, "records": records })).map_err(json_err)
}

/// The Sylver Coinage census (every irreducible position with 2 to
/// `max_gaps` gaps through the finishing search and the four proofs), as
/// the library's JSON report. `order` is `"increasing"`, `"decreasing"` or
/// `"scored"`. The GIL is released while it runs (on every core), and
/// Ctrl-C stops it between positions.
#[pyfunction]
#[pyo3(signature = (max_gaps, order="increasing"))]
pub fn sylver_census(py: Python<'_>, max_gaps: u32, order: &str) -> PyResult<String> {
    let order: Order = order
        .parse()
        .map_err(|e| PyValueError::new_err(format!("{e}")))?;
    let (report, signal) = run_watched(py, |stop| {
        census_until(max_gaps, order, false, &|| stop.load(Ordering::Acquire))
    });
    if let Some(e) = signal {
        return Err(e);
    }
    let report = report
        .map_err(|e| PyValueError::new_err(e.to_string()))?
        .ok_or_else(|| PyRuntimeError::new_err("census stopped"))?;
    serde_json::to_string(&report).map_err(json_err)
}

/// One Sylver Coinage position given by the numbers named so far: outcome,
/// winning moves and remoteness, as the library's JSON report. The GIL is
/// released; Ctrl-C stops it.
#[pyfunction]
pub fn sylver_play(py: Python<'_>, generators: Vec<u64>) -> PyResult<String> {
    let s = Semigroup::from_generators(&generators)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let (report, signal) = run_watched(py, |stop| play_until(&s, Some(Arc::clone(stop))));
    if let Some(e) = signal {
        return Err(e);
    }
    let report = report
        .map_err(|e| PyValueError::new_err(e.to_string()))?
        .ok_or_else(|| PyRuntimeError::new_err("search stopped"))?;
    serde_json::to_string(&report).map_err(json_err)
}

/// The number of numerical semigroups of each genus from 0 to `max_genus`
/// (OEIS A007323), walking the tree of semigroups on every core.
#[pyfunction]
pub fn semigroup_counts(py: Python<'_>, max_genus: u32) -> PyResult<Vec<u64>> {
    py.detach(|| count_by_genus(max_genus, true))
        .map_err(|e| PyValueError::new_err(e.to_string()))
}
