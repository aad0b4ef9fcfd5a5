//! partizan-py: the Python package `partizan` (its compiled half,
//! `partizan._partizan`).
//!
//! Thin, like the CLI and the site: every answer comes from the library
//! crates. What this crate adds is the bridge:
//!
//! * [`value::Value`]: a canonical form as a Python object. All values live
//!   in one process-global [`partizan_core::Arena`] behind a mutex; the lock
//!   is only ever waited for with the GIL released, and nothing holding it
//!   waits for the GIL, so Python threads cannot deadlock on it. The arena
//!   only grows, until `clear_cache()` empties it: each value carries its
//!   stable encoding and re-interns itself in the new generation.
//! * [`board::Board`]: a position of a built-in ruleset. Long searches run
//!   in a private arena with the GIL released, answer Ctrl-C through the
//!   solver's stop check ([`interrupt::Interrupt`]), and hand their value to
//!   the global arena by its stable encoding.
//! * [`engine::Engine`]: games defined in Python, valued with memoisation in
//!   Rust calling back into the user's option functions.
//! * [`tables`]: the census, Sylver Coinage and the store.
//! * [`misere`]: misère quotients of heap games and misère forms of graph
//!   positions, as dicts.
//!
//! A new operation of core's CGT toolkit (atomic weight, reduced form,
//! thermograph walls, ...) reaches Python as one `#[getter]` or method on
//! [`value::Value`] that calls the `Arena` method on the value's id
//! inside the lock (`on`/`make` in `value.rs`; numbers back as `Fraction` via
//! [`value::fraction`], forms as `Value`), one line in `_partizan.pyi` and
//! one test in `tests/test_values.py`.
//!
//! The pure-Python half (`python/partizan`) adds the `Ruleset` base class,
//! dataclasses for tables, `to_pandas()` and the notebook drawings.

pub mod atlas;
pub mod board;
pub mod engine;
pub mod interrupt;
pub mod jobs;
pub mod loopy;
mod misere;
pub mod outcome;
pub mod tables;
pub mod value;

use pyo3::prelude::*;

/// The compiled half of the partizan package; import `partizan` instead.
#[pymodule]
fn _partizan(m: &Bound<'_, PyModule>) -> PyResult<()> {
    atlas::register(m)?;
    m.add_class::<value::Value>()?;
    m.add_class::<board::Board>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<tables::Store>()?;
    m.add_function(wrap_pyfunction!(value::game, m)?)?;
    m.add_function(wrap_pyfunction!(value::construct, m)?)?;
    m.add_function(wrap_pyfunction!(value::nimber, m)?)?;
    m.add_function(wrap_pyfunction!(value::from_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(value::arena_size, m)?)?;
    m.add_function(wrap_pyfunction!(value::arena_stats, m)?)?;
    m.add_function(wrap_pyfunction!(value::clear_cache, m)?)?;
    m.add("NotAtomicError", m.py().get_type::<value::NotAtomicError>())?;
    m.add_function(wrap_pyfunction!(board::value, m)?)?;
    m.add_function(wrap_pyfunction!(board::rulesets, m)?)?;
    m.add_function(wrap_pyfunction!(outcome::check_certificate, m)?)?;
    m.add_function(wrap_pyfunction!(outcome::outcome_table, m)?)?;
    m.add_function(wrap_pyfunction!(misere::misere_quotient, m)?)?;
    m.add_function(wrap_pyfunction!(misere::misere_graph, m)?)?;
    m.add_function(wrap_pyfunction!(misere::misere_board, m)?)?;
    m.add_function(wrap_pyfunction!(misere::misere_game, m)?)?;
    m.add_function(wrap_pyfunction!(loopy::loopy, m)?)?;
    m.add_function(wrap_pyfunction!(jobs::run_job, m)?)?;
    m.add_function(wrap_pyfunction!(jobs::_outcome_jobs, m)?)?;
    m.add_function(wrap_pyfunction!(loopy::loopy_board, m)?)?;
    m.add_function(wrap_pyfunction!(tables::domineering_census, m)?)?;
    m.add_function(wrap_pyfunction!(tables::cram_census, m)?)?;
    m.add_function(wrap_pyfunction!(tables::sylver_census, m)?)?;
    m.add_function(wrap_pyfunction!(tables::sylver_play, m)?)?;
    m.add_function(wrap_pyfunction!(tables::semigroup_counts, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
