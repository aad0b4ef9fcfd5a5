//! The census of empty regions for any grid ruleset whose regions are
//! empty shapes (Snort, Col, NoGo, and Domineering and Cram beside their
//! own censuses): every shape of up to `n` cells, once per symmetry class,
//! valued by the generic solver with every saving on, and tallied by size
//! into outcome classes and kinds of value.
//!
//! A ruleset qualifies when its first filling character is an empty cell
//! and it reads back its own empty rectangles (graph rulesets, whose boards
//! are matrices, do not). The symmetry group of the catalogue is the one
//! the ruleset's declared symmetries allow: all eight transforms when each
//! keeps the value, the four that keep rows as rows otherwise.
//!
//! Invariants asserted before anything is reported: on shapes of up to
//! [`TWIN_CELLS`] cells the value equals the plain solver's (no region or
//! symmetry saving trusted), every transform of the group keeps the value
//! of the representative, and, for Col, every value is a number or a number
//! plus `*` (Winning Ways, ch. 2).
//!
//! ```text
//!   snort, regions up to 6 cells: 35 shapes; by size the outcome classes
//!   (L, R, N, P) and value kinds (numbers, nimbers, infinitesimals, hot)
//! ```

use partizan_core::{Arena, Dyadic, Outcome};
use partizan_games::{Board, Glyph, Ruleset, Transform};
use partizan_solve::{Decompose, Savings, Solver};
use serde::Serialize;

use crate::atlas::{classify, ValueKind};
use crate::catalogue::Catalogue;
use crate::shape::{Group, Shape};

/// Shapes of up to this many cells are also valued by the plain solver.
pub const TWIN_CELLS: usize = 6;

/// The plain solver: memo on, no region or symmetry saving.
const PLAIN: Savings = Savings {
    memo: true,
    decompose: Decompose::Off,
    symmetry: false,
};

/// Why an empty-region census could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum EmptyRegionError {
    /// The ruleset's regions are not empty grid shapes.
    #[error("no empty-region census for {0}: its boards are not empty grid shapes")]
    NotGridPlacement(&'static str),
    /// `--max-cells` out of range.
    #[error("--max-cells {requested} is out of range (1 to {max})")]
    MaxCells {
        /// Asked for.
        requested: usize,
        /// The largest allowed.
        max: usize,
    },
    /// The solver failed or was stopped.
    #[error("solver: {0}")]
    Solve(String),
    /// An invariant failed: nothing is reported.
    #[error("invariant failed on {ruleset} shape {shape}: {what}")]
    Invariant {
        /// The ruleset.
        ruleset: &'static str,
        /// The shape as board text.
        shape: String,
        /// What failed.
        what: String,
    },
}

/// One size's (or the total's) tally.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SizeRow {
    /// Cells per shape (0 in the total row).
    pub cells: usize,
    /// Shapes (symmetry classes).
    pub shapes: u64,
    /// Outcome classes: Left wins, Right wins, first player, second player.
    pub left: u64,
    /// See `left`.
    pub right: u64,
    /// See `left`.
    pub next: u64,
    /// See `left`.
    pub previous: u64,
    /// Values that are numbers (zero included).
    pub numbers: u64,
    /// Nimbers `*n`, `n >= 1`.
    pub nimbers: u64,
    /// Other infinitesimals and numbers plus infinitesimals (ups, tinies...).
    pub infinitesimals: u64,
    /// Hot values (left stop above right stop).
    pub hot: u64,
    /// The hottest shape's temperature, and the shape (board text).
    pub max_temperature: String,
    /// See `max_temperature`.
    pub hottest: String,
}

/// The census's report.
#[derive(Clone, Debug, Serialize)]
pub struct EmptyRegionReport {
    /// The ruleset.
    pub ruleset: &'static str,
    /// Largest shape size.
    pub max_cells: usize,
    /// `square` (eight transforms) or `row-preserving` (four).
    pub group: &'static str,
    /// One row per size, smallest first.
    pub by_size: Vec<SizeRow>,
    /// Every size together.
    pub total: SizeRow,
    /// Shapes also valued by the plain solver.
    pub twin_checked: u64,
    /// The invariants that held.
    pub invariants: Vec<String>,
}

/// The largest `--max-cells` this census takes (the solver values each
/// shape from scratch; larger runs belong in `store warm`).
pub const MAX_CELLS: usize = 12;

/// Whether `r`'s regions are empty grid shapes (see the module doc).
#[must_use]
pub fn qualifies<R: Ruleset>(r: &R) -> bool {
    empty_layer(r).is_some()
}

/// The layer of the ruleset's empty cell, if its regions are empty grid
/// shapes.
fn empty_layer<R: Ruleset>(r: &R) -> Option<usize> {
    let info = r.info();
    let first = *info.fillings.first()?;
    let Glyph::Layer(k) = info.glyph(first) else {
        return None;
    };
    (first == '.').then_some(())?;
    let mut layers = [0; 3];
    layers[k] = 0b11;
    let b = Board::new(2, 1, layers).ok()?;
    (r.parse(&r.format(&b)).ok()? == b).then_some(k)
}

/// Which catalogue the ruleset's symmetries allow.
fn group<R: Ruleset>(r: &R) -> Option<Group> {
    let keeps = |t: Transform| {
        r.symmetries()
            .iter()
            .any(|s| s.transform == t && !s.negates)
    };
    if Transform::ALL.iter().all(|&t| keeps(t)) {
        Some(Group::Square)
    } else if [Transform::FlipRows, Transform::FlipCols, Transform::Rot180]
        .iter()
        .all(|&t| keeps(t))
    {
        Some(Group::RowPreserving)
    } else {
        None
    }
}

/// Take the census of `r`'s empty regions up to `max_cells` cells; `stop`
/// is asked before each shape.
pub fn census<R: Ruleset>(
    r: &R,
    max_cells: usize,
    stop: &dyn Fn() -> bool,
) -> Result<EmptyRegionReport, EmptyRegionError> {
    let name = r.name();
    if max_cells == 0 || max_cells > MAX_CELLS {
        return Err(EmptyRegionError::MaxCells {
            requested: max_cells,
            max: MAX_CELLS,
        });
    }
    let layer = empty_layer(r).ok_or(EmptyRegionError::NotGridPlacement(name))?;
    let group = group(r).ok_or(EmptyRegionError::NotGridPlacement(name))?;
    let catalogue = Catalogue::build(group, max_cells);
    let solve_err = |e: partizan_solve::SolveError| EmptyRegionError::Solve(e.to_string());
    let mut arena = Arena::new();
    let mut solver = Solver::new(r, Savings::ALL).map_err(solve_err)?;
    let mut plain = Solver::new(r, PLAIN).map_err(solve_err)?;
    let board = |s: &Shape| {
        let mut layers = [0; 3];
        layers[layer] = s.bits();
        Board::new(s.width(), s.height(), layers)
    };
    let col_rule = name == "col";
    let mut rows: Vec<SizeRow> = (1..=max_cells)
        .map(|cells| SizeRow {
            cells,
            ..SizeRow::default()
        })
        .collect();
    let mut hottest: Vec<Option<Dyadic>> = vec![None; max_cells];
    let mut twin_checked = 0;
    let star = arena.star();
    for s in catalogue.iter() {
        if stop() {
            return Err(EmptyRegionError::Solve("stopped".into()));
        }
        let b = board(s).map_err(|e| EmptyRegionError::Solve(e.to_string()))?;
        let text = r.format(&b);
        let fail = |what: String| EmptyRegionError::Invariant {
            ruleset: name,
            shape: text.clone(),
            what,
        };
        let v = solver.value(&mut arena, &b).map_err(solve_err)?;
        if s.len() <= TWIN_CELLS {
            let p = plain.value(&mut arena, &b).map_err(solve_err)?;
            if p != v {
                return Err(fail(format!(
                    "the savings give {}, the plain solver {}",
                    arena.display(v),
                    arena.display(p)
                )));
            }
            // The catalogue's group: each transform keeps the value.
            for &t in Transform::ALL.iter() {
                let kept = group == Group::Square || !t.swaps_axes();
                if kept {
                    let img = plain
                        .value(&mut arena, &b.transform(t))
                        .map_err(solve_err)?;
                    if img != v {
                        return Err(fail(format!("{t:?} changes the value")));
                    }
                }
            }
            twin_checked += 1;
        }
        if col_rule {
            let shifted = arena.sum(v, star).map_err(|e| fail(e.to_string()))?;
            if !arena.is_number(v) && !arena.is_number(shifted) {
                return Err(fail(format!(
                    "Col value {} is neither a number nor a number plus *",
                    arena.display(v)
                )));
            }
        }
        let row = &mut rows[s.len() - 1];
        row.shapes += 1;
        match arena.outcome(v) {
            Outcome::L => row.left += 1,
            Outcome::R => row.right += 1,
            Outcome::N => row.next += 1,
            Outcome::P => row.previous += 1,
        }
        match classify(&mut arena, v) {
            ValueKind::Integer | ValueKind::Fraction { .. } => row.numbers += 1,
            ValueKind::Nimber { .. } => row.nimbers += 1,
            ValueKind::Switch | ValueKind::Hot => row.hot += 1,
            _ => row.infinitesimals += 1,
        }
        let t = arena.temperature(v);
        if hottest[s.len() - 1].is_none_or(|h| t > h) {
            hottest[s.len() - 1] = Some(t);
            row.max_temperature = t.to_string();
            row.hottest = text.clone();
        }
    }
    let mut total = SizeRow::default();
    let mut best: Option<Dyadic> = None;
    for (row, h) in rows.iter().zip(&hottest) {
        total.shapes += row.shapes;
        total.left += row.left;
        total.right += row.right;
        total.next += row.next;
        total.previous += row.previous;
        total.numbers += row.numbers;
        total.nimbers += row.nimbers;
        total.infinitesimals += row.infinitesimals;
        total.hot += row.hot;
        if let Some(h) = *h {
            if best.is_none_or(|b| h > b) {
                best = Some(h);
                total.max_temperature = row.max_temperature.clone();
                total.hottest = row.hottest.clone();
            }
        }
    }
    let mut invariants = vec![
        format!("savings = plain solver on the {twin_checked} shapes of up to {TWIN_CELLS} cells"),
        format!(
            "each of the group's {} transforms keeps those values",
            if group == Group::Square { 8 } else { 4 }
        ),
    ];
    if col_rule {
        invariants.push("every value a number or a number plus * (Winning Ways)".into());
    }
    Ok(EmptyRegionReport {
        ruleset: name,
        max_cells,
        group: if group == Group::Square {
            "square"
        } else {
            "row-preserving"
        },
        by_size: rows,
        total,
        twin_checked,
        invariants,
    })
}

impl EmptyRegionReport {
    /// The report as a text table.
    #[must_use]
    pub fn render_text(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} empty regions up to {} cells ({} shapes, {} symmetry classes)",
            self.ruleset, self.max_cells, self.total.shapes, self.group
        );
        let _ = writeln!(
            s,
            "{:>5} {:>7} {:>6} {:>6} {:>6} {:>6} {:>8} {:>8} {:>8} {:>6}  hottest: temperature (shape)",
            "cells", "shapes", "L", "R", "N", "P", "numbers", "nimbers", "infinit.", "hot"
        );
        // (The last column: the highest temperature and a shape with it;
        // numbers have negative temperatures, integers -1.)
        for r in self.by_size.iter().chain(std::iter::once(&self.total)) {
            let cells = if r.cells == 0 {
                "all".to_string()
            } else {
                r.cells.to_string()
            };
            let _ = writeln!(
                s,
                "{:>5} {:>7} {:>6} {:>6} {:>6} {:>6} {:>8} {:>8} {:>8} {:>6}  {} ({})",
                cells,
                r.shapes,
                r.left,
                r.right,
                r.next,
                r.previous,
                r.numbers,
                r.nimbers,
                r.infinitesimals,
                r.hot,
                r.max_temperature,
                r.hottest
            );
        }
        for i in &self.invariants {
            let _ = writeln!(s, "checked: {i}");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_games::{Col, Cram, Domineering, HackenbushGraph, NoGo, Snort, SnortGraph};

    #[test]
    fn which_rulesets_qualify() {
        assert!(qualifies(&Snort) && qualifies(&Col) && qualifies(&NoGo));
        assert!(qualifies(&Domineering) && qualifies(&Cram));
        assert!(!qualifies(&SnortGraph) && !qualifies(&HackenbushGraph));
        assert!(matches!(
            census(&SnortGraph, 4, &|| false),
            Err(EmptyRegionError::NotGridPlacement("snort-graph"))
        ));
        assert!(census(&Snort, 0, &|| false).is_err());
        assert!(census(&Snort, MAX_CELLS + 1, &|| false).is_err());
    }

    #[test]
    fn small_censuses_add_up() {
        // Shapes of up to 4 cells: 1, 1, 2, 5 under the square's group.
        let r = census(&Snort, 4, &|| false).unwrap();
        let shapes: Vec<u64> = r.by_size.iter().map(|row| row.shapes).collect();
        assert_eq!(shapes, vec![1, 1, 2, 5]);
        // One cell is * (N), a domino {1|-1} (N, hot, temperature 1).
        assert_eq!(r.by_size[0].next, 1);
        assert_eq!(r.by_size[0].nimbers, 1);
        assert_eq!(r.by_size[1].hot, 1);
        assert_eq!(r.by_size[1].max_temperature, "1");
        for row in r.by_size.iter().chain([&r.total]) {
            assert_eq!(row.left + row.right + row.next + row.previous, row.shapes);
            assert_eq!(
                row.numbers + row.nimbers + row.infinitesimals + row.hot,
                row.shapes
            );
        }
        // Col: one cell *, a domino 0; never hot.
        let c = census(&Col, 5, &|| false).unwrap();
        assert_eq!(c.by_size[1].previous, 1);
        assert_eq!(c.total.hot, 0);
        // Domineering's transposes negate: the row-preserving catalogue.
        let d = census(&Domineering, 3, &|| false).unwrap();
        assert_eq!(d.group, "row-preserving");
        assert_eq!(d.by_size[1].shapes, 2);
    }
}
