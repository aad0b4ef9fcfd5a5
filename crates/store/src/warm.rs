//! Filling the table ahead of need: every region of up to `n` cells, every
//! filling of it in the ruleset's notation, evaluated through the solver
//! with the store attached.
//!
//! Shapes are grown one cell at a time from the monomino and deduplicated
//! up to translation (the fixed polyominoes: 1, 2, 6, 19, 63, 216, 760,
//! 2725, 9910, 36446, … for 1, 2, 3, … cells); the solver's symmetry folding
//! and memo table absorb the rest of the repetition.

use partizan_core::Arena;
use partizan_games::Ruleset;
use partizan_solve::{Savings, Solver, Stats};
use rustc_hash::FxHashSet;
use serde::Serialize;

use crate::db::Store;
use crate::error::{Result, StoreError};
use crate::rules::{cell_alphabet, with_rules};
use crate::session::SessionStats;

/// The largest `--max-cells` warm accepts (the shape count grows about
/// fourfold per cell).
pub const MAX_WARM_CELLS: usize = 16;

/// What a warm run did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WarmReport {
    /// Shapes (fixed polyominoes) enumerated.
    pub shapes: u64,
    /// Boards (shape fillings) evaluated.
    pub boards: u64,
    /// Fillings that are not positions of the game (skipped).
    pub skipped: u64,
    /// The solver's counts (store hits and values added among them).
    pub solver: Stats,
    /// The store session's counts.
    pub session: SessionStats,
}

/// A shape: width, height and occupied cells (bit `row * width + col`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    /// Columns of the bounding box.
    pub width: usize,
    /// Rows of the bounding box.
    pub height: usize,
    /// Occupied cells.
    pub cells: u128,
}

fn normalise(cells: &[(i32, i32)]) -> Option<Shape> {
    let r0 = cells.iter().map(|c| c.0).min()?;
    let c0 = cells.iter().map(|c| c.1).min()?;
    let h = (cells.iter().map(|c| c.0).max()? - r0 + 1) as usize;
    let w = (cells.iter().map(|c| c.1).max()? - c0 + 1) as usize;
    if w * h > 128 {
        return None;
    }
    let mut bits = 0u128;
    for &(r, c) in cells {
        bits |= 1 << ((r - r0) as usize * w + (c - c0) as usize);
    }
    Some(Shape {
        width: w,
        height: h,
        cells: bits,
    })
}

fn cells_of(s: &Shape) -> Vec<(i32, i32)> {
    (0..s.width * s.height)
        .filter(|i| s.cells >> i & 1 == 1)
        .map(|i| ((i / s.width) as i32, (i % s.width) as i32))
        .collect()
}

/// Every connected shape of exactly `k` cells for `k` in `1..=max_cells`,
/// up to translation, smallest first (each size in sorted order).
pub fn shapes(max_cells: usize) -> Vec<Shape> {
    let mut out = Vec::new();
    if max_cells == 0 {
        return out;
    }
    let mut level: Vec<Shape> = vec![Shape {
        width: 1,
        height: 1,
        cells: 1,
    }];
    for k in 1..=max_cells {
        out.extend_from_slice(&level);
        if k == max_cells {
            break;
        }
        let mut next: FxHashSet<Shape> = FxHashSet::default();
        for s in &level {
            let cells = cells_of(s);
            for &(r, c) in &cells {
                for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                    let n = (r + dr, c + dc);
                    if cells.contains(&n) {
                        continue;
                    }
                    let mut grown = cells.clone();
                    grown.push(n);
                    if let Some(g) = normalise(&grown) {
                        next.insert(g);
                    }
                }
            }
        }
        level = next.into_iter().collect();
        level.sort();
    }
    out
}

/// Call `f` with every filling of a shape by the given cell characters,
/// as board text (cells outside the shape are `#`).
fn fillings(s: &Shape, alphabet: &[char], mut f: impl FnMut(&str) -> Result<()>) -> Result<()> {
    let idx: Vec<usize> = (0..s.width * s.height)
        .filter(|i| s.cells >> i & 1 == 1)
        .collect();
    let mut digits = vec![0usize; idx.len()];
    let mut text = String::new();
    loop {
        text.clear();
        let mut d = 0;
        for row in 0..s.height {
            if row > 0 {
                text.push('|');
            }
            for col in 0..s.width {
                let i = row * s.width + col;
                if s.cells >> i & 1 == 1 {
                    text.push(alphabet[digits[d]]);
                    d += 1;
                } else {
                    text.push('#');
                }
            }
        }
        f(&text)?;
        // Next assignment, odometer style.
        let mut p = 0;
        loop {
            if p == digits.len() {
                return Ok(());
            }
            digits[p] += 1;
            if digits[p] < alphabet.len() {
                break;
            }
            digits[p] = 0;
            p += 1;
        }
    }
}

/// Evaluate every region of up to `max_cells` cells of a ruleset through
/// the solver with the store attached. `progress(done, total)` is called
/// after each shape.
pub fn warm(
    store: &Store,
    ruleset: &str,
    max_cells: usize,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<WarmReport> {
    if max_cells > MAX_WARM_CELLS {
        return Err(StoreError::Solve(format!(
            "--max-cells {max_cells} is above the limit of {MAX_WARM_CELLS}"
        )));
    }
    let alphabet =
        cell_alphabet(ruleset).ok_or_else(|| StoreError::BadRuleset(ruleset.to_string()))?;
    with_rules!(
        ruleset,
        |r| warm_with(store, r, alphabet, max_cells, progress),
        Err(StoreError::BadRuleset(ruleset.to_string()))
    )
}

fn warm_with<R: Ruleset>(
    store: &Store,
    rules: &R,
    alphabet: &[char],
    max_cells: usize,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<WarmReport> {
    let solve_err = |e: partizan_solve::SolveError| StoreError::Solve(e.to_string());
    let all = shapes(max_cells);
    let mut session = store.session();
    session.set_label(format!("warm {} {max_cells}", rules.name()));
    let mut report = WarmReport {
        shapes: all.len() as u64,
        ..WarmReport::default()
    };
    {
        let mut arena = Arena::new();
        let mut solver = Solver::new(rules, Savings::ALL)
            .map_err(solve_err)?
            .with_table(&mut session);
        for (i, s) in all.iter().enumerate() {
            fillings(s, alphabet, |text| {
                // Some fillings are no position of the game (an Amazons
                // region without queens): those are skipped.
                let Ok(board) = rules.parse(text) else {
                    report.skipped += 1;
                    return Ok(());
                };
                solver.value(&mut arena, &board).map_err(solve_err)?;
                report.boards += 1;
                Ok(())
            })?;
            progress(i as u64 + 1, report.shapes);
        }
        report.solver = solver.stats();
    }
    report.session = session.finish()?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_polyomino_counts() {
        let all = shapes(8);
        let mut counts = [0usize; 9];
        for s in &all {
            counts[s.cells.count_ones() as usize] += 1;
        }
        assert_eq!(&counts[1..], &[1, 2, 6, 19, 63, 216, 760, 2725]);
    }

    #[test]
    fn fillings_of_a_domino() {
        let s = Shape {
            width: 2,
            height: 2,
            cells: 0b1011,
        };
        let mut seen = Vec::new();
        fillings(&s, &['x', 'o'], |t| {
            seen.push(t.to_string());
            Ok(())
        })
        .unwrap();
        assert_eq!(seen.len(), 8);
        assert_eq!(seen[0], "xx|#x");
        assert_eq!(seen[7], "oo|#o");
    }
}
