//! The job-level search from Python: `partizan.outcome_jobs` (its jobs on
//! local threads, on a Dask `distributed.Client`, or through any callable
//! that answers a job's line) and `run_job`, the task a Dask worker runs.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use partizan_games::with_rules;
use partizan_jobs::persist::{save, start_or_resume};
use partizan_jobs::wire::{
    job_to_line, reply_from_line, run_job_line, run_job_line_telling, MAX_JOB_TABLE,
};
use partizan_jobs::{
    search_from, write_whole, Answer, Job, JobError, JobProgress, JobsConfig, Kept, LocalWorker,
    MasterControl, Reply, Worker,
};
use pyo3::exceptions::{PyRuntimeError, PyTimeoutError, PyValueError};
use pyo3::prelude::*;

use crate::board::{player_of, rules_of};

/// The most table a job may ask for, in MB (a terabyte: past any
/// machine's memory, short of an overflow).
const MAX_TABLE_MB: u64 = 1 << 20;

/// Megabytes as bytes, refused outside 1 MB to a terabyte (`what` names
/// the argument).
fn table_bytes(mb: u64, what: &str) -> PyResult<usize> {
    if !(1..=MAX_TABLE_MB).contains(&mb) {
        return Err(PyValueError::new_err(format!(
            "{what} must be between 1 and {MAX_TABLE_MB} MB, not {mb}"
        )));
    }
    Ok((mb as usize) << 20)
}

/// Search one job, given as the line `partizan job-worker` reads, and
/// answer with the line it writes (the GIL is released while it
/// searches). The task `outcome_jobs(client=...)` hands to Dask workers.
/// A job's table is capped at `max_table_mb` (the worker owner's limit,
/// whatever the job asks). With `tell`, a callable, it is called with the
/// nodes searched so far about every `every_ms` milliseconds while the
/// search runs (how a Dask task reports its progress); an exception it
/// raises stops the job and is raised here.
#[pyfunction]
#[pyo3(signature = (line, max_table_mb = (MAX_JOB_TABLE >> 20) as u64, tell = None, every_ms = 1000))]
pub fn run_job(
    py: Python<'_>,
    line: String,
    max_table_mb: u64,
    tell: Option<Py<PyAny>>,
    every_ms: u64,
) -> PyResult<String> {
    let max = table_bytes(max_table_mb, "max_table_mb")?;
    let Some(tell) = tell else {
        return Ok(py.detach(move || run_job_line(&line, max)));
    };
    if !(100..=3_600_000).contains(&every_ms) {
        return Err(PyValueError::new_err(format!(
            "every_ms must be between 100 and 3600000, not {every_ms}"
        )));
    }
    let every = Duration::from_millis(every_ms);
    py.detach(move || {
        run_job_line_telling(&line, max, every, |nodes| {
            Python::attach(|py| tell.call1(py, (nodes,)).map(drop))
        })
    })
}

/// A worker that hands each job's line to a Python callable and reads its
/// answer line (nothing it returns is believed unchecked).
struct CallWorker {
    call: Arc<Py<PyAny>>,
    name: String,
}

impl Worker for CallWorker {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn run(&self, job: &Job, _stop: &std::sync::atomic::AtomicBool) -> Reply {
        let start = Instant::now();
        let line = job_to_line(job);
        let got: Result<String, String> = Python::attach(|py| {
            self.call
                .call1(py, (line,))
                .and_then(|r| r.extract::<String>(py))
                .map_err(|e| e.to_string())
        });
        match got.and_then(|l| reply_from_line(&l)) {
            Ok(r) => r,
            Err(why) => Reply {
                job: job.id,
                answer: Answer::Failed(why.chars().take(300).collect()),
                nodes: 0,
                elapsed: start.elapsed(),
            },
        }
    }
}

/// Decide whether `first` wins `board` by the job-level proof-number
/// search; see the package's `outcome_jobs`, which this serves.
#[pyfunction]
#[pyo3(signature = (ruleset, board, first, run, workers, job_nodes, job_plies, jobs_file, trust = "certificates", table_mb = None, certificate = None, progress = None, progress_every = 5.0, max_seconds = None, job_timeout = 3600.0))]
#[allow(clippy::too_many_arguments)]
pub fn _outcome_jobs<'py>(
    py: Python<'py>,
    ruleset: &str,
    board: &str,
    first: &str,
    run: Option<Py<PyAny>>,
    workers: usize,
    job_nodes: u64,
    job_plies: u32,
    jobs_file: Option<std::path::PathBuf>,
    trust: &str,
    table_mb: Option<u64>,
    certificate: Option<std::path::PathBuf>,
    progress: Option<Py<PyAny>>,
    progress_every: f64,
    max_seconds: Option<f64>,
    job_timeout: f64,
) -> PyResult<Bound<'py, PyAny>> {
    let trust: partizan_jobs::Trust = trust.parse().map_err(PyValueError::new_err)?;
    if !(progress_every.is_finite() && progress_every >= 0.0) {
        return Err(PyValueError::new_err(format!(
            "progress_every must be a number of seconds, not {progress_every}"
        )));
    }
    if let Some(s) = max_seconds.filter(|s| !(s.is_finite() && *s > 0.0)) {
        return Err(PyValueError::new_err(format!(
            "max_seconds must be a positive number of seconds, not {s}"
        )));
    }
    if !(job_timeout.is_finite() && job_timeout > 0.0 && job_timeout <= 1e9) {
        return Err(PyValueError::new_err(format!(
            "job_timeout must be a positive number of seconds, not {job_timeout}"
        )));
    }
    if let Some(path) = &certificate {
        if trust == partizan_jobs::Trust::Agreement {
            return Err(PyValueError::new_err(
                "a whole certificate needs every job's certificate: trust=\"certificates\", not agreement",
            ));
        }
        partizan_report::check::certificate_writable(path)
            .map_err(|e| PyValueError::new_err(format!("certificate {e}")))?;
    }
    let rules = rules_of(ruleset)?;
    let first = player_of(first)?;
    if workers == 0 || workers > 4096 {
        return Err(PyValueError::new_err(format!(
            "workers must be between 1 and 4096, not {workers}"
        )));
    }
    if job_nodes == 0 {
        return Err(PyValueError::new_err("job_nodes must be at least 1"));
    }
    let mut cfg = JobsConfig {
        trust,
        job_nodes,
        local_nodes: job_nodes,
        expand_plies: job_plies,
        strikes: 3,
        timeout: std::time::Duration::from_secs_f64(job_timeout),
        ..JobsConfig::default()
    };
    if let Some(mb) = table_mb {
        cfg.table_bytes = table_bytes(mb, "table_mb")?;
    }
    let run = run.map(Arc::new);
    let got = with_rules!(rules, |r| {
        let b = r
            .parse(board)
            .map_err(|e| PyValueError::new_err(format!("bad {} board: {e}", r.name())))?;
        let pool: Vec<Arc<dyn Worker>> = (0..workers)
            .map(|i| match &run {
                Some(call) => Arc::new(CallWorker {
                    call: Arc::clone(call),
                    name: format!("python-{i}"),
                }) as Arc<dyn Worker>,
                None => Arc::new(LocalWorker::new(*r, format!("thread-{i}"))) as Arc<dyn Worker>,
            })
            .collect();
        let key = &partizan_seal::user_key().key;
        let (mut tree, _) = match &jobs_file {
            Some(path) => start_or_resume(path, r, key, &b, first)
                .map_err(|e| PyValueError::new_err(e.to_string()))?,
            None => (partizan_jobs::Tree::new(b, first), false),
        };
        // the decided jobs' certificates, beside the tree file (a resumed
        // run still writes the whole certificate) or in a folder of this
        // run's own, removed at the end
        let kept = match &certificate {
            None => None,
            Some(_) => {
                let (dir, own) = match &jobs_file {
                    Some(path) => (Kept::beside(path), false),
                    None => (Kept::temporary(first), true),
                };
                let k = Kept::open(&dir, key).map_err(PyRuntimeError::new_err)?;
                k.forget_unkept(r, &mut tree);
                Some(Owned { kept: k, own })
            }
        };
        let told = Told::default();
        let (got, signal) = crate::interrupt::run_watched(py, |stop| {
            let show = |p: &JobProgress| {
                told.show(
                    p,
                    first,
                    stop,
                    (progress.as_ref(), progress_every),
                    max_seconds,
                )
            };
            let saver = |t: &partizan_jobs::Tree| match &jobs_file {
                Some(path) => save(path, r, t, key).map_err(|e| e.to_string()),
                None => Ok(()),
            };
            let keeper = |b: &partizan_games::Board, mover, text: &str| match &kept {
                Some(k) => k.kept.put(r, b, mover, text),
                None => Ok(()),
            };
            let control = MasterControl {
                stop: Some(stop),
                progress: Some(&show),
                checkpoint: Some(&saver),
                checkpoint_every: Duration::from_secs(30),
                keep: kept.is_some().then_some(&keeper as _),
            };
            let rep = search_from(r, tree, pool, &cfg, &control);
            // the whole certificate of a decided search
            let whole = match (&rep, &kept, &certificate) {
                (Ok(rep), Some(k), Some(path)) if rep.first_wins.is_some() => {
                    Some(write_whole_to(r, rep, &k.kept, path))
                }
                _ => None,
            };
            (rep, whole)
        });
        if let Some(e) = signal {
            return Err(e);
        }
        Ok::<_, PyErr>((got, told))
    })?;
    let ((rep, whole), told) = got;
    // the caller's progress callable raised (and so stopped the search):
    // its exception
    let raised = told.failed.into_inner().unwrap_or_else(|e| e.into_inner());
    if let (Err(JobError::Stopped(_)), Some(e)) = (&rep, raised) {
        return Err(e);
    }
    let rep = rep.map_err(|e| match e {
        JobError::Config(m) => PyValueError::new_err(m),
        JobError::Stopped(done) if told.timed_out.load(Relaxed) => {
            PyTimeoutError::new_err(format!(
                "stopped by max_seconds after {done} jobs{}",
                if jobs_file.is_some() {
                    "; the tree is kept in jobs_file: run again to resume"
                } else {
                    " (give jobs_file to keep the tree for a later run)"
                }
            ))
        }
        e => PyRuntimeError::new_err(e.to_string()),
    })?;
    let mut out = serde_json::to_value(&rep).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    if let Some(w) = whole {
        out["certificate"] = w.map_err(PyRuntimeError::new_err)?;
    }
    py.import("json")?.call_method1("loads", (out.to_string(),))
}

/// What the progress callback of `outcome_jobs` keeps: when it last
/// showed, the exception the caller's callable raised, whether
/// `max_seconds` stopped the search.
#[derive(Default)]
struct Told {
    last: Mutex<Option<Instant>>,
    failed: Mutex<Option<PyErr>>,
    timed_out: AtomicBool,
}

impl Told {
    /// One snapshot of the search: past `max_seconds` the search is
    /// stopped; every `every` seconds `call` hears it: `True` prints the
    /// progress line to standard error, a callable gets a dict (the
    /// snapshot's fields, `text`, `first` and `worker_nodes_per_sec`).
    /// A callable that raises stops the search; its exception is kept.
    fn show(
        &self,
        p: &JobProgress,
        first: partizan_games::Player,
        stop: &AtomicBool,
        (call, every): (Option<&Py<PyAny>>, f64),
        max_seconds: Option<f64>,
    ) {
        if max_seconds.is_some_and(|max| p.elapsed_ms as f64 / 1000.0 >= max) {
            self.timed_out.store(true, Relaxed);
            stop.store(true, Relaxed);
        }
        let Some(call) = call else { return };
        {
            let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
            if last.is_some_and(|t| t.elapsed().as_secs_f64() < every) {
                return;
            }
            *last = Some(Instant::now());
        }
        let text = p.text(first);
        let shown = Python::attach(|py| -> PyResult<()> {
            let call = call.bind(py);
            // `True` (the package lets nothing else through but callables)
            if !call.is_callable() {
                let sys = py.import("sys")?;
                let err = sys.getattr("stderr")?;
                err.call_method1("write", (format!("{text}\n"),))?;
                err.call_method0("flush")?;
                return Ok(());
            }
            let mut v =
                serde_json::to_value(p).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            v["text"] = text.into();
            v["first"] = (if first == partizan_games::Player::Left {
                "left"
            } else {
                "right"
            })
            .into();
            v["worker_nodes_per_sec"] = p.worker_nodes_per_sec().into();
            let d = py.import("json")?.call_method1("loads", (v.to_string(),))?;
            call.call1((d,)).map(drop)
        });
        if let Err(e) = shown {
            let mut failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
            failed.get_or_insert(e);
            stop.store(true, Relaxed);
        }
    }
}

/// The decided jobs' certificates of one search, and whether their folder
/// is this run's own (removed when it ends).
struct Owned {
    kept: Kept,
    own: bool,
}

impl Drop for Owned {
    fn drop(&mut self) {
        if self.own {
            let _ = std::fs::remove_dir_all(self.kept.dir());
        }
    }
}

/// Write the whole certificate of `rep` (its jobs' certificates in `kept`)
/// to `path` (gzip-compressed for a `.gz` name): what it holds, as JSON.
fn write_whole_to<R: partizan_games::Ruleset>(
    r: &R,
    rep: &partizan_jobs::JobReport,
    kept: &Kept,
    path: &std::path::Path,
) -> Result<serde_json::Value, String> {
    let fail = |e: std::io::Error| format!("certificate {}: {e}", path.display());
    let holds = partizan_report::write_certificate_with(path, fail, |out| {
        write_whole(r, &[(&rep.tree, kept)], out).map_err(|e| format!("the whole certificate: {e}"))
    })?;
    let mut v = serde_json::to_value(&holds).map_err(|e| e.to_string())?;
    v["file"] = path.display().to_string().into();
    Ok(v)
}
