//! Ctrl-C for long computations run with the GIL released.
//!
//! The solver asks its stop check before every region search. Asking
//! Python for pending signals needs the GIL, so the check re-acquires it at
//! most every [`INTERVAL`]; a `KeyboardInterrupt` found there is kept and
//! raised once the solver has unwound with [`SolveError::Stopped`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use partizan_solve::SolveError;
use pyo3::exceptions::{PyOverflowError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// How often a running search looks for Ctrl-C.
pub const INTERVAL: Duration = Duration::from_millis(50);

/// A stop check that asks Python for pending signals (Ctrl-C).
pub struct Interrupt {
    pending: Mutex<Option<PyErr>>,
    last: Mutex<Instant>,
}

impl Default for Interrupt {
    fn default() -> Self {
        Interrupt::new()
    }
}

impl Interrupt {
    /// A check with no signal seen yet.
    pub fn new() -> Interrupt {
        Interrupt {
            pending: Mutex::new(None),
            last: Mutex::new(Instant::now()),
        }
    }

    /// Whether to stop: a signal handler raised (checked with the GIL
    /// re-acquired briefly, at most every [`INTERVAL`]). Call it without
    /// the GIL held by this thread's caller frame, or with it: both work.
    pub fn stop(&self) -> bool {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        if pending.is_some() {
            return true;
        }
        {
            let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
            let now = Instant::now();
            if now.duration_since(*last) < INTERVAL {
                return false;
            }
            *last = now;
        }
        match Python::attach(|py| py.check_signals()) {
            Ok(()) => false,
            Err(e) => {
                *pending = Some(e);
                true
            }
        }
    }

    /// The error to raise for a solver failure: the signal's exception
    /// when the run was stopped by one.
    pub fn error(&self, e: SolveError) -> PyErr {
        if let Some(p) = self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            return p;
        }
        solve_error(e)
    }

    /// The pending signal's exception, if one stopped the run.
    pub fn take(&self) -> Option<PyErr> {
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }
}

/// A solver error as a Python exception: arithmetic beyond the exact range
/// is `OverflowError`, a bad option `ValueError`, the rest `RuntimeError`.
pub fn solve_error(e: SolveError) -> PyErr {
    match e {
        SolveError::Value(v) => PyOverflowError::new_err(v.to_string()),
        SolveError::RootOnlyUnsound(_) | SolveError::UnknownMode(_) => {
            PyValueError::new_err(e.to_string())
        }
        SolveError::Store(_) | SolveError::Stopped | SolveError::Inconsistent(_) => {
            PyRuntimeError::new_err(e.to_string())
        }
    }
}

/// Run `work` on a helper thread while this thread, with the GIL released
/// between looks, checks for Ctrl-C every [`INTERVAL`]; a signal raises
/// the flag `work` is handed, which it must watch and then return early.
/// Returns what `work` returned and the signal's exception, if one came
/// (the caller raises it and discards the early result).
///
/// For computations that watch a flag from any thread (rayon pools, the
/// outcome search), where [`Interrupt`] (which must run on the main
/// thread) cannot be asked.
pub fn run_watched<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Arc<AtomicBool>) -> T + Send,
) -> (T, Option<PyErr>) {
    let stop = Arc::new(AtomicBool::new(false));
    let mut pending = None;
    let joined = std::thread::scope(|s| {
        let main = std::thread::current();
        let stop = &stop;
        let h = s.spawn(move || {
            let out = work(stop);
            main.unpark();
            out
        });
        while !h.is_finished() {
            py.detach(|| std::thread::park_timeout(INTERVAL));
            if pending.is_none() {
                if let Err(e) = py.check_signals() {
                    pending = Some(e);
                    stop.store(true, Ordering::Release);
                }
            }
        }
        h.join()
    });
    match joined {
        Ok(out) => (out, pending),
        Err(panic) => std::panic::resume_unwind(panic),
    }
}
