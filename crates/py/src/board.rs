//! Boards of the built-in rulesets as Python objects.

use partizan_core::Arena;
use partizan_games::{with_rules, Board as GridBoard, Player, Rules};
use partizan_solve::graph::counts_with;
use partizan_solve::regions::{region_board, regions};
use partizan_solve::{Decompose, RegionTable, Savings, Solver, Stats};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::interrupt::Interrupt;
use crate::tables::Store;
use crate::value::{adopt, py_str_repr, Value};

pub(crate) fn rules_of(name: &str) -> PyResult<Rules> {
    Rules::from_name(name).map_err(|e| PyValueError::new_err(e.to_string()))
}

pub(crate) fn player_of(p: &str) -> PyResult<Player> {
    match p.trim().to_ascii_lowercase().as_str() {
        "l" | "left" => Ok(Player::Left),
        "r" | "right" => Ok(Player::Right),
        _ => Err(PyValueError::new_err(format!(
            "unknown player '{p}' (expected 'left' or 'right')"
        ))),
    }
}

fn savings_of(memo: bool, decompose: &str, symmetry: bool) -> PyResult<Savings> {
    let decompose: Decompose = decompose
        .parse()
        .map_err(|e: partizan_solve::SolveError| PyValueError::new_err(e.to_string()))?;
    Ok(Savings {
        memo,
        decompose,
        symmetry,
    })
}

/// A position of a built-in ruleset: `Board("domineering", "...|...")`.
/// Rows are separated by `|` or newlines; `.` is empty, `#` blocked, and
/// each ruleset has its piece letters (`x`/`o` for Clobber and Kōnane,
/// `L`/`R` for Amazons).
#[pyclass(frozen, module = "partizan._partizan")]
#[derive(Clone, Copy, Debug)]
pub struct Board {
    rules: Rules,
    board: GridBoard,
}

/// What one search did, as a Python dict of counts.
fn stats_dict<'py>(py: Python<'py>, s: &Stats) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("nodes", s.nodes)?;
    d.set_item("distinct", s.distinct)?;
    d.set_item("hits", s.hits)?;
    d.set_item("passes", s.passes)?;
    d.set_item("splits", s.splits)?;
    d.set_item("regions", s.regions)?;
    d.set_item("squares_visited", s.squares_visited)?;
    d.set_item("store_hits", s.store_hits)?;
    d.set_item("store_added", s.store_added)?;
    Ok(d)
}

impl Board {
    fn wrap(&self, board: GridBoard) -> Board {
        Board {
            rules: self.rules,
            board,
        }
    }

    /// Value the board in a private arena with the GIL released, answering
    /// Ctrl-C, then move the value into the global arena.
    fn solve(
        &self,
        py: Python<'_>,
        store: Option<&Store>,
        savings: Savings,
    ) -> PyResult<(Value, Stats)> {
        let intr = Interrupt::new();
        let (rules, board) = (self.rules, self.board);
        let run = py.detach(|| {
            let store = match store.map(Store::handle).transpose() {
                Ok(s) => s,
                Err(e) => return Err(e),
            };
            let mut arena = Arena::new();
            let stop = || intr.stop();
            let res = with_rules!(rules, |r| {
                let mut session = store.as_ref().map(|s| {
                    let mut session = s.session();
                    session.set_label(format!("python value {} {}", r.name(), r.format(&board)));
                    session
                });
                let out = (|| {
                    let mut solver = Solver::new(r, savings)?;
                    if let Some(s) = session.as_mut() {
                        solver = solver.with_table(s as &mut dyn RegionTable);
                    }
                    solver = solver.with_stop(&stop);
                    let g = solver.value(&mut arena, &board)?;
                    Ok::<_, partizan_solve::SolveError>((g, solver.stats()))
                })();
                let finished = session.map(|s| s.finish());
                (out, finished)
            });
            Ok((arena, res))
        });
        let (mut arena, (out, finished)) = run?;
        let (g, mut stats) = out.map_err(|e| intr.error(e))?;
        match finished {
            Some(Err(e)) => return Err(PyRuntimeError::new_err(format!("store: {e}"))),
            // What was saved: the solver's new values less those already
            // in the file or over its size limit.
            Some(Ok(done)) => stats.store_added = done.written,
            None => {}
        }
        Ok((adopt(py, &mut arena, g)?, stats))
    }
}

#[pymethods]
impl Board {
    /// Parse `text` as a board of `ruleset` (a name or alias from
    /// `partizan.rulesets()`).
    #[new]
    fn py_new(ruleset: &str, text: &str) -> PyResult<Board> {
        let rules = rules_of(ruleset)?;
        let board = with_rules!(rules, |r| r.parse(text))
            .map_err(|e| PyValueError::new_err(format!("bad {} board: {e}", rules.name())))?;
        Ok(Board { rules, board })
    }

    /// The ruleset's name.
    #[getter]
    fn ruleset(&self) -> &'static str {
        self.rules.name()
    }

    /// Columns.
    #[getter]
    fn width(&self) -> usize {
        self.board.width()
    }

    /// Rows.
    #[getter]
    fn height(&self) -> usize {
        self.board.height()
    }

    /// The board in the ruleset's notation (rows joined by `|`).
    fn __str__(&self) -> String {
        with_rules!(self.rules, |r| r.format(&self.board))
    }

    fn __repr__(&self) -> String {
        format!(
            "Board({}, {})",
            py_str_repr(self.rules.name()),
            py_str_repr(&self.__str__())
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Board>() {
            Ok(o) => {
                let o = o.get();
                o.rules == self.rules && o.board == self.board
            }
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        self.rules.hash(&mut h);
        self.board.hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let cls = py.get_type::<Board>().into_any();
        let args = PyTuple::new(py, [self.rules.name().to_string(), self.__str__()])?;
        PyTuple::new(py, [cls, args.into_any()])
    }

    /// The board's regions: the independent parts it falls into, each on
    /// its own cropped board.
    fn regions(&self) -> Vec<Board> {
        with_rules!(self.rules, |r| regions(r, &self.board))
            .into_iter()
            .map(|m| self.wrap(region_board(&self.board, m)))
            .collect()
    }

    /// The positions `player` (`"left"` or `"right"`) can move to.
    fn options(&self, player: &str) -> PyResult<Vec<Board>> {
        let p = player_of(player)?;
        let mut out = Vec::new();
        with_rules!(self.rules, |r| r.options(&self.board, p, |b| out.push(b)));
        Ok(out.into_iter().map(|b| self.wrap(b)).collect())
    }

    /// The canonical value. `store` reads through and adds to a persistent
    /// table; `memo`, `decompose` (`"every"`, `"root"`, `"conditional"`,
    /// `"off"`) and `symmetry` switch the solver's savings. The GIL is
    /// released while it runs and Ctrl-C stops it (`KeyboardInterrupt`).
    #[pyo3(signature = (store=None, *, memo=true, decompose="every", symmetry=true))]
    fn value(
        &self,
        py: Python<'_>,
        store: Option<PyRef<'_, Store>>,
        memo: bool,
        decompose: &str,
        symmetry: bool,
    ) -> PyResult<Value> {
        let savings = savings_of(memo, decompose, symmetry)?;
        Ok(self.solve(py, store.as_deref(), savings)?.0)
    }

    /// The value with the solver's counts: `(value, stats)` where `stats`
    /// is a dict (`nodes`, `distinct`, `hits`, `passes`, `splits`,
    /// `regions`, `squares_visited`, `store_hits`, `store_added`).
    #[pyo3(signature = (store=None, *, memo=true, decompose="every", symmetry=true))]
    fn solve_with_stats<'py>(
        &self,
        py: Python<'py>,
        store: Option<PyRef<'_, Store>>,
        memo: bool,
        decompose: &str,
        symmetry: bool,
    ) -> PyResult<(Value, Bound<'py, PyDict>)> {
        let savings = savings_of(memo, decompose, symmetry)?;
        let (v, s) = self.solve(py, store.as_deref(), savings)?;
        Ok((v, stats_dict(py, &s)?))
    }

    /// The outcome class (`"L"`, `"R"`, `"N"`, `"P"`) by the outcome search
    /// (the command line's `partizan outcome`), which reaches boards too
    /// large to value; `store` answers a board solved before from the
    /// persistent store and saves a searched one there; `misere=True` for
    /// misère play, `table_mb` the transposition table's size, `max_nodes`
    /// a budget (`RuntimeError` when it runs out). `first="left"` or
    /// `"right"` searches that first player only (about half the work):
    /// the answer is then `True` or `False`, whether they win moving
    /// first, since no outcome class is known (and nothing is stored).
    /// `threads=2` uses two threads (default 1); `checkpoint="run.ckpt"`
    /// keeps a checkpoint there to resume from, as `outcome_report` does;
    /// `certificate="proof.txt"` writes the winning strategies there as a
    /// certificate that `partizan.check_certificate` (or `partizan check`)
    /// replays (gzip-compressed when the name ends in `.gz`). Runs with the
    /// GIL released; Ctrl-C stops it.
    #[pyo3(signature = (store=None, *, misere=false, first="both", table_mb=None, max_nodes=None, threads=None, checkpoint=None, certificate=None))]
    #[allow(clippy::too_many_arguments)]
    fn outcome(
        &self,
        py: Python<'_>,
        store: Option<PyRef<'_, Store>>,
        misere: bool,
        first: &str,
        table_mb: Option<usize>,
        max_nodes: Option<u64>,
        threads: Option<usize>,
        checkpoint: Option<std::path::PathBuf>,
        certificate: Option<std::path::PathBuf>,
    ) -> PyResult<Py<PyAny>> {
        let rep = crate::outcome::outcome_report(
            py,
            self.rules,
            self.board,
            store.as_deref(),
            crate::outcome::Ask {
                misere,
                first,
                table_mb,
                max_nodes,
                nimber: false,
                threads,
                checkpoint,
                certificate,
                moves: false,
            },
        )?;
        let one = rep.left_first_wins.xor(rep.right_first_wins);
        Ok(match (rep.outcome, one) {
            (Some(class), _) => class.into_pyobject(py)?.into_any().unbind(),
            (None, Some(wins)) => wins.into_pyobject(py)?.to_owned().into_any().unbind(),
            (None, None) => py.None(),
        })
    }

    /// The outcome search's whole report as a dict, the fields of
    /// `partizan outcome --json`: `outcome`, `left_first_wins`,
    /// `right_first_wins`, `first_players` (`left`/`right`: `wins`, `move`,
    /// `nodes`, `counts`, `time_ms`), `stats`, `table`, `config`,
    /// `time_ms`, `from_store`, `saved_to_store`, `first`. Arguments as
    /// `outcome`; with `first="left"|"right"`, `outcome` is `None` and
    /// the other first player is absent from `first_players`.
    /// `nimber=True` (impartial rulesets, normal play) adds `nimber`, the
    /// position's nimber, as `partizan outcome --nimber` does.
    /// `checkpoint="run.ckpt"` keeps a checkpoint there, as `partizan
    /// outcome --checkpoint` does: a search stopped (Ctrl-C, `max_nodes`)
    /// resumes from it when called again, and `resumed` says what it took
    /// over; a damaged checkpoint or one of another search is a
    /// `RuntimeError`, never believed. `certificate="proof.txt"` writes a
    /// certificate as `partizan outcome --certificate` does (searched on
    /// one thread, never answered from the store; not with `checkpoint`
    /// or `nimber`). `moves=True` adds `first_moves`: every first move of
    /// each searched first player judged (`cells`, `board`, `wins`,
    /// `nodes`, `mirror_of`), as `partizan outcome --moves` does (not with
    /// `checkpoint` or `certificate`). `picture="svg"` or `"tikz"` adds
    /// `picture`: the answer drawn for a paper, each first player's winning
    /// first move marked (every winning one with `moves=True`), as
    /// `partizan outcome --format` draws it.
    #[pyo3(signature = (store=None, *, misere=false, first="both", table_mb=None, max_nodes=None, nimber=false, threads=None, checkpoint=None, certificate=None, moves=false, picture=None))]
    #[allow(clippy::too_many_arguments)]
    fn outcome_report<'py>(
        &self,
        py: Python<'py>,
        store: Option<PyRef<'_, Store>>,
        misere: bool,
        first: &str,
        table_mb: Option<usize>,
        max_nodes: Option<u64>,
        nimber: bool,
        threads: Option<usize>,
        checkpoint: Option<std::path::PathBuf>,
        certificate: Option<std::path::PathBuf>,
        moves: bool,
        picture: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let format = crate::outcome::picture_format(picture)?;
        let rep = crate::outcome::outcome_report(
            py,
            self.rules,
            self.board,
            store.as_deref(),
            crate::outcome::Ask {
                misere,
                first,
                table_mb,
                max_nodes,
                nimber,
                threads,
                checkpoint,
                certificate,
                moves,
            },
        )?;
        let dict = crate::outcome::report_dict(py, &rep)?;
        if let Some(format) = format {
            let drawn = rep
                .picture(self.rules)
                .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
            dict.set_item("picture", partizan_report::picture::pick(drawn, format))?;
        }
        Ok(dict)
    }

    /// The position's nimber, for an impartial ruleset such as Cram under
    /// normal play (`ValueError` otherwise), by the outcome search's
    /// nimber search (`partizan outcome --nimber`): it reaches boards far
    /// too large to value, e.g. Cram 5 x 7 in seconds. `table_mb` the
    /// memo's size, `max_nodes` a budget (`RuntimeError` when it runs
    /// out), `threads=2` two threads sharing the memo (default 1),
    /// `checkpoint="run.ckpt"` a checkpoint to resume from (the memo of
    /// every region's nimber, as `partizan outcome --nimber --checkpoint`
    /// keeps it). Runs with the GIL released; Ctrl-C stops it.
    #[pyo3(signature = (*, table_mb=None, max_nodes=None, threads=None, checkpoint=None))]
    fn nimber(
        &self,
        py: Python<'_>,
        table_mb: Option<usize>,
        max_nodes: Option<u64>,
        threads: Option<usize>,
        checkpoint: Option<std::path::PathBuf>,
    ) -> PyResult<u32> {
        let rep = crate::outcome::outcome_report(
            py,
            self.rules,
            self.board,
            None,
            crate::outcome::Ask {
                misere: false,
                first: "both",
                table_mb,
                max_nodes,
                nimber: true,
                threads,
                checkpoint,
                certificate: None,
                moves: false,
            },
        )?;
        rep.nimber
            .ok_or_else(|| PyRuntimeError::new_err("the search gave no nimber"))
    }

    /// The position graph: `positions` (distinct positions reachable),
    /// `tree_nodes` (nodes of the unmemoised recursion), `regions` (each
    /// region's board and position count) and `product` (the regions'
    /// counts multiplied, asserted equal to `positions`). Ctrl-C stops it.
    fn graph<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let intr = Interrupt::new();
        let (rules, board) = (self.rules, self.board);
        let parts = self.regions();
        let res = py.detach(|| {
            let check =
                |_: partizan_solve::graph::WalkState| if intr.stop() { Err(()) } else { Ok(()) };
            with_rules!(rules, |r| {
                let whole = counts_with(r, &board, check)?;
                let mut each = Vec::with_capacity(parts.len());
                for p in &parts {
                    each.push(counts_with(r, &p.board, check)?.positions);
                }
                Ok::<_, ()>((whole, each))
            })
        });
        let (whole, each) = res.map_err(|()| {
            intr.take()
                .unwrap_or_else(|| PyRuntimeError::new_err("graph walk stopped"))
        })?;
        let product = each
            .iter()
            .try_fold(1u64, |acc, &n| acc.checked_mul(n))
            .ok_or_else(|| PyRuntimeError::new_err("product of region counts overflows"))?;
        if product != whole.positions {
            return Err(PyRuntimeError::new_err(format!(
                "position graph of the whole board ({}) is not the product of its {} regions' graphs ({product})",
                whole.positions,
                parts.len()
            )));
        }
        let d = PyDict::new(py);
        d.set_item("positions", whole.positions)?;
        d.set_item("tree_nodes", whole.tree_nodes)?;
        let regs = PyList::empty(py);
        for (p, n) in parts.iter().zip(each) {
            let r = PyDict::new(py);
            r.set_item("board", Py::new(py, *p)?)?;
            r.set_item("positions", n)?;
            regs.append(r)?;
        }
        d.set_item("regions", regs)?;
        d.set_item("product", product)?;
        Ok(d)
    }

    /// An SVG drawing of the board (notebooks show it): empty cells light,
    /// blocked cells dark, stones as discs and queens as letters.
    fn _repr_svg_(&self) -> String {
        svg(&self.rows())
    }

    /// Each cell as a character, row by row (for drawings).
    fn rows(&self) -> Vec<String> {
        self.__str__().split('|').map(str::to_string).collect()
    }
}

/// The value of a board of a built-in ruleset:
/// `value("domineering", "..|..")`. See `Board.value` for the options.
#[pyfunction]
#[pyo3(signature = (ruleset, board, store=None))]
pub fn value(
    py: Python<'_>,
    ruleset: &str,
    board: &str,
    store: Option<PyRef<'_, Store>>,
) -> PyResult<Value> {
    Board::py_new(ruleset, board)?
        .solve(py, store.as_deref(), Savings::ALL)
        .map(|(v, _)| v)
}

/// The built-in rulesets: a list of dicts with `name`, `title`, `aliases`,
/// `summary` and `example`.
#[pyfunction]
pub fn rulesets(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for &r in Rules::ALL {
        let i = r.info();
        let d = PyDict::new(py);
        d.set_item("name", i.name)?;
        d.set_item("title", i.title)?;
        d.set_item("aliases", i.aliases.to_vec())?;
        d.set_item("summary", i.summary)?;
        d.set_item("example", i.example)?;
        d.set_item("loopy", false)?;
        out.append(d)?;
    }
    for &r in partizan_loopy::LoopyRules::ALL {
        let i = r.info();
        let d = PyDict::new(py);
        d.set_item("name", i.name)?;
        d.set_item("title", i.title)?;
        d.set_item("aliases", i.aliases.to_vec())?;
        d.set_item("summary", i.rules)?;
        d.set_item("example", i.examples.first().map(|e| e.0))?;
        d.set_item("loopy", true)?;
        out.append(d)?;
    }
    Ok(out)
}

/// Side of one drawn cell, in SVG user units.
const CELL: usize = 32;

/// The SVG drawing of board rows (one character per cell).
fn svg(rows: &[String]) -> String {
    use std::fmt::Write as _;
    let h = rows.len();
    let w = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">",
        w * CELL + 2,
        h * CELL + 2,
        w * CELL + 2,
        h * CELL + 2
    );
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let (px, py) = (x * CELL + 1, y * CELL + 1);
            let fill = if c == '#' { "#444" } else { "#f4f1e8" };
            let _ = write!(
                s,
                "<rect x=\"{px}\" y=\"{py}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\" stroke=\"#999\"/>"
            );
            let (cx, cy, r) = (px + CELL / 2, py + CELL / 2, CELL * 3 / 8);
            match c {
                'x' | 'o' => {
                    let (f, st) = if c == 'x' {
                        ("#222", "#222")
                    } else {
                        ("#fff", "#222")
                    };
                    let _ = write!(
                        s,
                        "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" fill=\"{f}\" stroke=\"{st}\"/>"
                    );
                }
                '.' | '#' => {}
                other => {
                    let _ = write!(
                        s,
                        "<text x=\"{cx}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" font-family=\"sans-serif\">{}</text>",
                        cy + CELL / 5,
                        CELL / 2,
                        escape(other)
                    );
                }
            }
        }
    }
    s.push_str("</svg>");
    s
}

fn escape(c: char) -> String {
    match c {
        '<' => "&lt;".into(),
        '>' => "&gt;".into(),
        '&' => "&amp;".into(),
        c => c.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_draws_every_cell_and_piece() {
        let s = svg(&["x.#".to_string(), "oL<".to_string()]);
        assert!(s.starts_with("<svg") && s.ends_with("</svg>"));
        assert_eq!(s.matches("<rect").count(), 6);
        assert_eq!(s.matches("<circle").count(), 2);
        assert!(s.contains(">L</text>") && s.contains(">&lt;</text>"));
        assert_eq!(s.matches("fill=\"#444\"").count(), 1);
    }
}
