//! The Domineering value atlas from Python: build it into a directory,
//! ask it for regions, read its tables. The same library calls as
//! `partizan atlas build / find / report` ([`DirStore::find`],
//! [`DirStore::load_atlas`], [`partizan_census::AtlasReport`]), answers as
//! dicts (the library's JSON, parsed).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use partizan_census::atlas::{Atlas, AtlasConfig, AtlasError, Query};
use partizan_census::DirStore;
use partizan_report::process::resident_bytes;
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use serde_json::json;

/// The atlas directory: `dir`, else `$PARTIZAN_ATLAS`, else the data
/// directory's (as the command line).
fn atlas_dir(dir: Option<PathBuf>) -> PyResult<PathBuf> {
    dir.or_else(DirStore::default_dir)
        .ok_or_else(|| PyValueError::new_err("no atlas directory: give dir= or set PARTIZAN_ATLAS"))
}

/// Bad requests are `ValueError`, a broken or unreadable store `RuntimeError`.
fn atlas_error(e: AtlasError) -> PyErr {
    match e {
        AtlasError::Io { .. }
        | AtlasError::Corrupt { .. }
        | AtlasError::Unsealed { .. }
        | AtlasError::NoKey(_)
        | AtlasError::Json(_) => PyRuntimeError::new_err(format!("atlas: {e}")),
        _ => PyValueError::new_err(format!("atlas: {e}")),
    }
}

fn to_py<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// Value every region up to `max_cells` cells (1 to 21) into `dir`,
/// resuming from what is there; `shards=n` values the top size in n
/// slices one after another and merges them (the way to 18 cells). Returns
/// `{"dir", "levels": [{"cells", "classes", "new_values", "loaded",
/// "seconds", ...}]}`. `shard=(k, n)` values only slice k of n of the top
/// size and keeps it as a shard file for [`atlas_merge`] (as `partizan
/// atlas build --shard K/N`: one task of a cluster build). The GIL is
/// released.
///
/// `max_memory_mb` is a budget for this process's resident memory: a
/// build that grows past it stops between chunks and raises `MemoryError`
/// (what it finished is kept in `dir`, so a rerun with more memory or
/// shards resumes). Ctrl-C stops it the same way (`KeyboardInterrupt`).
#[pyfunction]
#[pyo3(signature = (max_cells, dir=None, *, threads=None, shards=None, shard=None, max_memory_mb=None))]
#[allow(clippy::too_many_arguments)]
pub fn atlas_build<'py>(
    py: Python<'py>,
    max_cells: usize,
    dir: Option<PathBuf>,
    threads: Option<usize>,
    shards: Option<usize>,
    shard: Option<(usize, usize)>,
    max_memory_mb: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    if max_memory_mb == Some(0) {
        return Err(PyValueError::new_err(
            "atlas: max_memory_mb must be at least 1",
        ));
    }
    let max_bytes = max_memory_mb.map(|mb| mb.saturating_mul(1 << 20));
    let path = atlas_dir(dir)?;
    let mut cfg = AtlasConfig::new(max_cells);
    if let Some(t) = threads {
        cfg.threads = t.max(1);
    }
    if shard.is_some() && shards.is_some() {
        return Err(PyValueError::new_err(
            "atlas: give shard=(k, n) or shards=n, not both",
        ));
    }
    cfg.shards = shards;
    cfg.shard = shard;
    cfg.keep_entries = false;
    let p = path.clone();
    let ((built, over), signal) = crate::interrupt::run_watched(py, |stop| {
        let done = AtomicBool::new(false);
        let over = AtomicU64::new(0);
        let built = std::thread::scope(|s| {
            if let Some(max) = max_bytes {
                // the budget's watch: a look every 50 ms
                let (done, over) = (&done, &over);
                s.spawn(move || {
                    while !done.load(Ordering::Relaxed) {
                        let rss = resident_bytes();
                        if rss > max {
                            over.store(rss, Ordering::Relaxed);
                            stop.store(true, Ordering::Release);
                            return;
                        }
                        std::thread::sleep(crate::interrupt::INTERVAL);
                    }
                });
            }
            let built = Atlas::build_until(&cfg, &mut DirStore::new(&p), Arc::clone(stop));
            done.store(true, Ordering::Relaxed);
            built
        });
        (built, over.load(Ordering::Relaxed))
    });
    if let Some(e) = signal {
        return Err(e);
    }
    let atlas = match built {
        Err(AtlasError::Interrupted) if over > 0 => {
            return Err(PyMemoryError::new_err(format!(
                "atlas: the build grew to {} MB, over max_memory_mb={}; the levels and parts it \
                 finished are kept in {} and a rerun resumes (more memory, or shards=)",
                over >> 20,
                max_memory_mb.unwrap_or(0),
                path.display()
            )))
        }
        r => r.map_err(atlas_error)?,
    };
    to_py(
        py,
        &json!({ "dir": path.display().to_string(), "levels": atlas.stats }).to_string(),
    )
}

/// Combine the `shards` shard files of size `cells` in `dir` into its level
/// (and its summary and index), streaming, as `partizan atlas merge`: every
/// shard file is checked (checksum, sizes, the classes disjoint) as it is
/// read, and `verify` classes of each, drawn at random, are valued again by
/// the board engine before anything is written (one that disagrees is an
/// error). Returns `{"cells", "classes", "new_values", "verified"}`. The
/// GIL is released.
#[pyfunction]
#[pyo3(signature = (cells, shards, dir=None, verify=partizan_census::atlas_store::VERIFY_PER_SHARD))]
pub fn atlas_merge<'py>(
    py: Python<'py>,
    cells: usize,
    shards: usize,
    dir: Option<PathBuf>,
    verify: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let path = atlas_dir(dir)?;
    let m = py
        .detach(move || DirStore::new(&path).merge_shards_with(cells, shards, verify, &mut |_| {}))
        .map_err(atlas_error)?;
    to_py(
        py,
        &json!({ "cells": m.cells, "classes": m.classes, "new_values": m.new_values,
                 "verified": m.verified })
        .to_string(),
    )
}

/// Check and seal with the user's key the levels of `dir` it did not seal
/// (built on another machine, by another user, before seals, or edited),
/// up to `max_cells` (default: every level present), as `partizan atlas
/// seal`: the checks of a read, the catalogue, every value's facts and
/// negative derived again, `verify` classes of each level valued again by
/// the board engine; summaries and indexes written again. A level that
/// fails is an error naming it. Returns `{"sealed": [sizes], "verified",
/// "levels": [{"cells", "was_sealed", "classes", "new_values", "verified",
/// "indexed"}]}`. The GIL is released.
#[pyfunction]
#[pyo3(signature = (max_cells=None, *, verify=partizan_census::atlas_store::VERIFY_PER_SHARD, dir=None))]
pub fn atlas_seal<'py>(
    py: Python<'py>,
    max_cells: Option<usize>,
    verify: usize,
    dir: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let path = atlas_dir(dir)?;
    let done = py
        .detach(move || DirStore::new(&path).adopt(max_cells, verify, &mut |_| {}))
        .map_err(atlas_error)?;
    let sealed: Vec<usize> = done
        .iter()
        .filter(|d| !d.was_sealed)
        .map(|d| d.cells)
        .collect();
    to_py(
        py,
        &json!({ "sealed": sealed, "verified": done.iter().map(|d| d.verified).sum::<u64>(),
                 "levels": done })
        .to_string(),
    )
}

/// Regions of the atlas in `dir` with a given `value` (CGSuite notation,
/// e.g. `"*2"`), `kind` (`"tiny"`, `"hot"`, ...) or temperature at least
/// `min_temperature` (`"3/2"`), up to `max_cells` cells (default: every
/// size built). Returns `{"total", "regions": [{"cells", "board", "value",
/// "kind", "temperature"}], "max_cells", "seconds", "source"}` (`source`:
/// `index`, `summaries` or `levels`), at most `limit` regions listed,
/// smallest first; as `partizan atlas find`.
#[pyfunction]
#[pyo3(signature = (value=None, *, kind=None, min_temperature=None, max_cells=None, limit=10, dir=None))]
#[allow(clippy::too_many_arguments)]
pub fn atlas_find<'py>(
    py: Python<'py>,
    value: Option<String>,
    kind: Option<String>,
    min_temperature: Option<String>,
    max_cells: Option<usize>,
    limit: usize,
    dir: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    if value.is_none() && kind.is_none() && min_temperature.is_none() {
        return Err(PyValueError::new_err(
            "give value=, kind= or min_temperature=",
        ));
    }
    let path = atlas_dir(dir)?;
    let q = Query {
        value,
        min_temperature,
        kind,
        max_cells,
        limit,
    };
    let (ans, read_s, max) = py
        .detach(|| DirStore::new(&path).find(&q))
        .map_err(atlas_error)?;
    to_py(
        py,
        &json!({ "total": ans.total, "regions": ans.regions, "max_cells": max,
                 "seconds": read_s + ans.seconds, "source": ans.source })
        .to_string(),
    )
}

/// The atlas's tables (as `partizan atlas report --json`): value kinds by
/// size, the `hottest` regions, the largest nimber, first occurrences and,
/// per size, whether any region is hotter than 2.
#[pyfunction]
#[pyo3(signature = (max_cells=None, *, hottest=10, dir=None))]
pub fn atlas_summary<'py>(
    py: Python<'py>,
    max_cells: Option<usize>,
    hottest: usize,
    dir: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let path = atlas_dir(dir)?;
    let report = py
        .detach(|| {
            // the levels streamed: memory is the values, not the entries
            DirStore::new(&path).report(max_cells, hottest, &mut |_| {})
        })
        .map_err(atlas_error)?;
    to_py(py, &report.to_json().map_err(atlas_error)?)
}

/// Add the atlas functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(atlas_build, m)?)?;
    m.add_function(wrap_pyfunction!(atlas_merge, m)?)?;
    m.add_function(wrap_pyfunction!(atlas_seal, m)?)?;
    m.add_function(wrap_pyfunction!(atlas_find, m)?)?;
    m.add_function(wrap_pyfunction!(atlas_summary, m)?)?;
    Ok(())
}
