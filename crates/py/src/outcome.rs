//! The outcome search for Python (`Board.outcome`, `Board.outcome_report`):
//! the report layer's [`partizan_report::outcome_through_store`], so a board
//! solved before (by Python, the command line or the site) is answered from
//! the store, and a searched one is saved there.

use partizan_games::{with_rules, Board, Rules};
use partizan_report::picture::{pick, Format};
use partizan_report::{
    check_certificate_from, default_table_mb, judge_first_moves, nimber_refusal,
    outcome_through_store, rectangle_boards, write_certificate_file, OutcomeReport, OutcomeStore,
    RectangleCell, RectangleSpec, RectangleTable,
};
use partizan_solve::outcome::Convention;
use partizan_solve::search::certificate::Positions;
use partizan_solve::search::{solve, solve_resumable, Control, First, SearchConfig, SearchError};
use pyo3::exceptions::{PyOverflowError, PyRuntimeError, PyRuntimeWarning, PyValueError};
use pyo3::prelude::*;

use crate::interrupt::{run_watched, solve_error};
use crate::tables::Store;

/// What a Python caller asks of the search (`Board.outcome`'s keywords).
pub struct Ask<'a> {
    /// Misère play.
    pub misere: bool,
    /// "left", "right" or "both".
    pub first: &'a str,
    /// The table's size, MB.
    pub table_mb: Option<usize>,
    /// A node budget.
    pub max_nodes: Option<u64>,
    /// Also find the nimber (impartial rulesets under normal play).
    pub nimber: bool,
    /// Threads, 1 to 1024 (default 1: a Python program may run searches of
    /// its own side by side).
    pub threads: Option<usize>,
    /// Keep a checkpoint in this file (resume from it when it exists),
    /// written every minute and when the search stops.
    pub checkpoint: Option<std::path::PathBuf>,
    /// Write the winning strategies to this file as a certificate
    /// (`partizan outcome --certificate`; one thread, never from the
    /// store).
    pub certificate: Option<std::path::PathBuf>,
    /// Also judge every first move (`partizan outcome --moves`).
    pub moves: bool,
}

/// Who wins `board` of `rules`: with the GIL released, Ctrl-C answered,
/// through `store` when given; each warning of the store (a damaged or
/// implausible row, searched again) is raised as a `RuntimeWarning`.
pub fn outcome_report(
    py: Python<'_>,
    rules: Rules,
    board: Board,
    store: Option<&Store>,
    ask: Ask<'_>,
) -> PyResult<OutcomeReport> {
    let rep = search_report(py, rules, board, store, ask).map_err(Failure::into_py)?;
    warn_all(py, &rep)?;
    Ok(rep)
}

/// Raise each warning of the store in `rep` as a `RuntimeWarning`.
fn warn_all(py: Python<'_>, rep: &OutcomeReport) -> PyResult<()> {
    for w in &rep.warnings {
        PyErr::warn(
            py,
            &py.get_type::<PyRuntimeWarning>(),
            &std::ffi::CString::new(w.replace('\0', " ")).unwrap_or_default(),
            1,
        )?;
    }
    Ok(())
}

/// [`outcome_report`] without its warnings raised, its failure kept apart
/// (a node budget spent is not an error to a table of rectangles).
fn search_report(
    py: Python<'_>,
    rules: Rules,
    board: Board,
    store: Option<&Store>,
    ask: Ask<'_>,
) -> Result<OutcomeReport, Failure> {
    let bad = |msg: String| Failure::Py(PyValueError::new_err(msg));
    let Ask {
        misere,
        first,
        table_mb,
        max_nodes,
        nimber,
        threads,
        checkpoint,
        certificate,
        moves,
    } = ask;
    if moves && (checkpoint.is_some() || certificate.is_some()) {
        return Err(bad(
            "moves=True cannot be combined with checkpoint= or certificate= (they keep one search of the board itself)".to_string(),
        ));
    }
    if certificate.is_some() && (checkpoint.is_some() || nimber) {
        return Err(bad(
            "certificate= cannot be combined with checkpoint= or nimber=True (a certificate is written by one uninterrupted outcome search)".to_string(),
        ));
    }
    let threads = match threads {
        None => 1,
        Some(t) if (1..=partizan_solve::search::MAX_THREADS).contains(&t) => t,
        Some(t) => {
            return Err(bad(format!(
                "threads must be between 1 and {}, not {t}",
                partizan_solve::search::MAX_THREADS
            )))
        }
    };
    if max_nodes == Some(0) {
        return Err(bad("max_nodes must be at least 1".to_string()));
    }
    let first = first.parse::<First>().map_err(|_| {
        bad(format!(
            "first must be 'left', 'right' or 'both', not {first:?}"
        ))
    })?;
    let conv = if misere {
        Convention::Misere
    } else {
        Convention::Normal
    };
    if nimber {
        if let Some(why) = with_rules!(rules, |r| nimber_refusal(r, conv)) {
            return Err(bad(why));
        }
    }
    let table_mb = match table_mb {
        Some(mb) if !(1..=4096).contains(&mb) => {
            return Err(bad(format!("table_mb must be 1 to 4096, not {mb}")))
        }
        Some(mb) => mb,
        // The command line's default, from the one definition.
        None => {
            let cells = with_rules!(rules, |r| r.cells(&board).count_ones());
            usize::try_from(default_table_mb(cells, None)).unwrap_or(16)
        }
    };
    let (res, signal) = run_watched(py, |stop| {
        let handle = match store.map(Store::handle).transpose() {
            Ok(h) => h,
            Err(e) => return Err(Failure::Py(e)),
        };
        let through = handle
            .as_ref()
            .map_or(OutcomeStore::none(), |h| OutcomeStore {
                read: certificate.is_none(),
                ..OutcomeStore::of(h)
            });
        with_rules!(rules, |r| {
            let mut config = SearchConfig::for_ruleset(r, conv);
            config.table_bytes = table_mb << 20;
            config.max_nodes = max_nodes;
            config.first = first;
            config.nimber = nimber;
            config.threads = threads;
            let control = Control {
                stop: Some(stop.as_ref()),
                ..Control::default()
            };
            let mut resumed = None;
            let mut rep = outcome_through_store(r, &board, &config, through, || {
                match (&certificate, &checkpoint) {
                    (Some(path), _) => {
                        write_certificate_file(r, &board, &config, &control, path, Positions::Best)
                    }
                    (None, None) => solve(r, &board, &config, &control),
                    (None, Some(file)) => {
                        let every = std::time::Duration::from_secs(60);
                        let (rep, res) =
                            solve_resumable(r, &board, &config, &control, file, every)?;
                        resumed = Some(res);
                        Ok(rep)
                    }
                }
            })
            .map_err(Failure::Search)?;
            rep.resumed = resumed;
            if moves {
                rep.first_moves = Some(
                    judge_first_moves(r, &board, &config, &control, &mut |_, _, _| {})
                        .map_err(Failure::Search)?,
                );
            }
            Ok(rep)
        })
    });
    if let Some(e) = signal {
        return Err(Failure::Py(e));
    }
    res
}

/// Why a search gave no report.
enum Failure {
    /// A bad argument, a failure to open the store, or Ctrl-C.
    Py(PyErr),
    /// The search failed (stopped, over budget, ...).
    Search(SearchError),
}

impl Failure {
    /// The Python exception: a search's failure as the value solver's
    /// errors map (overflow, ...), else a `RuntimeError`.
    fn into_py(self) -> PyErr {
        match self {
            Failure::Py(e) => e,
            Failure::Search(SearchError::Solve(e)) => solve_error(e),
            Failure::Search(e @ SearchError::Value(_)) => PyOverflowError::new_err(e.to_string()),
            Failure::Search(e) => PyRuntimeError::new_err(e.to_string()),
        }
    }
}

/// A table of outcomes over rectangles, as `partizan outcome RULESET
/// --rectangles ROWSxCOLS --json` prints it: `ruleset`, `convention`,
/// `spec` (`rows`, `cols`: fewest and most), and `cells`, one per board
/// row by row (`rows`, `cols`, `board`, `outcome`, `left_first_wins`,
/// `right_first_wins`, `nimber` when asked, `nodes`, `time_ms`,
/// `from_store`, and `stopped`: why a board the node budget stopped has no
/// answer). `rectangles` is `"2-8x2-8"`, `"3x4-20"` or `"2-6"` (both
/// sides); each board is the ruleset's rectangle (empty for Domineering,
/// Cram, Snort, Col, NoGo; the checkerboard for Clobber; Kōnane's opening,
/// two adjacent stones taken from the middle; Amazons with one queen in
/// each of two opposite corners), searched as
/// `Board.outcome_report` would (through `store`, one thread unless
/// `threads=2`); `max_nodes` bounds each board. Ctrl-C stops the table
/// (`KeyboardInterrupt`). `picture="svg"` or `"tikz"` adds `picture`: the
/// table drawn for a paper, as `--format svg|tikz` draws it.
#[pyfunction]
#[pyo3(signature = (ruleset, rectangles, store=None, *, misere=false, first="both", nimber=false, max_nodes=None, table_mb=None, threads=None, picture=None))]
#[allow(clippy::too_many_arguments)]
pub fn outcome_table<'py>(
    py: Python<'py>,
    ruleset: &str,
    rectangles: &str,
    store: Option<PyRef<'_, Store>>,
    misere: bool,
    first: &str,
    nimber: bool,
    max_nodes: Option<u64>,
    table_mb: Option<usize>,
    threads: Option<usize>,
    picture: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let rules = crate::board::rules_of(ruleset)?;
    let format = picture_format(picture)?;
    let spec: RectangleSpec = rectangles
        .parse()
        .map_err(|e| PyValueError::new_err(format!("rectangles: {e}")))?;
    let boards = with_rules!(rules, |r| rectangle_boards(r, &spec))
        .map_err(|e| PyValueError::new_err(format!("rectangles: {e}")))?;
    let convention = if misere {
        Convention::Misere
    } else {
        Convention::Normal
    };
    let mut table = RectangleTable::new(rules.name(), convention, spec);
    for (rows, cols, board) in boards {
        let text = with_rules!(rules, |r| r.format(&board));
        let started = std::time::Instant::now();
        let ask = Ask {
            misere,
            first,
            table_mb,
            max_nodes,
            nimber,
            threads,
            checkpoint: None,
            certificate: None,
            moves: false,
        };
        match search_report(py, rules, board, store.as_deref(), ask) {
            Ok(rep) => {
                warn_all(py, &rep)?;
                table.cells.push(RectangleCell::of(rows, cols, &rep));
            }
            Err(Failure::Search(e @ SearchError::Budget(_))) => {
                table.cells.push(RectangleCell::stopped(
                    rows,
                    cols,
                    text,
                    started.elapsed().as_secs_f64() * 1e3,
                    e.to_string(),
                ));
            }
            Err(e) => return Err(e.into_py()),
        }
    }
    let text = serde_json::to_string(&table).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let dict = py.import("json")?.call_method1("loads", (text,))?;
    if let Some(format) = format {
        dict.set_item("picture", pick(table.picture(), format))?;
    }
    Ok(dict)
}

/// The picture language a `picture=` argument names (`ValueError` for
/// another).
pub fn picture_format(picture: Option<&str>) -> PyResult<Option<Format>> {
    picture
        .map(|p| p.parse::<Format>().map_err(PyValueError::new_err))
        .transpose()
}

/// The report as a dict: the fields of `partizan outcome --json`.
pub fn report_dict<'py>(py: Python<'py>, rep: &OutcomeReport) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(rep).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// Replay the certificate at `path` move by move, as `partizan check` does
/// (the checker shares with the search only the move generation, the
/// region finder, the value solver and the bounds the certificate names):
/// a dict of `partizan check --json`'s fields (`valid`, `ruleset`,
/// `board`, `convention`, `outcome`, `left_first_wins`,
/// `right_first_wins`, `check`: `positions`, `by_value`, `by_bounds`,
/// `terminal`, `records`; `time_ms`). A proof that fails, or a file that
/// does not read, is a `ValueError` naming the problem; `max_positions`
/// bounds the replay (default 100,000,000). The GIL is released while it
/// runs and Ctrl-C stops it (`KeyboardInterrupt`).
#[pyfunction]
#[pyo3(signature = (path, *, max_positions=1_000_000_000))]
pub fn check_certificate<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    max_positions: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let file = std::fs::File::open(&path).map_err(|e| {
        pyo3::exceptions::PyOSError::new_err(format!("cannot read {}: {e}", path.display()))
    })?;
    let (rep, signal) = crate::interrupt::run_watched(py, |stop| {
        check_certificate_from(
            std::io::BufReader::with_capacity(1 << 20, file),
            max_positions,
            &mut |_| {
                if stop.load(std::sync::atomic::Ordering::Acquire) {
                    std::ops::ControlFlow::Break(())
                } else {
                    std::ops::ControlFlow::Continue(())
                }
            },
        )
    });
    if let Some(e) = signal {
        return Err(e);
    }
    let rep = rep.map_err(|e| PyValueError::new_err(e.to_string()))?;
    let text = serde_json::to_string(&rep).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}
