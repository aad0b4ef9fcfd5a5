//! Filling the table ahead of need: every region of up to `n` cells, every
//! filling of it by the ruleset's cell characters, evaluated through the
//! solver with the store attached.
//!
//! The shapes are the census catalogue's ([`partizan_census::Catalogue`]):
//! one representative per class under the eight symmetries of the square.
//! Every registered ruleset folds positions by all eight (Domineering's
//! transposes negating the value), so each filling of any orientation of a
//! shape is the image of a filling of its representative and lands on the
//! same folded key. Boards are built from the shape's cells directly, each
//! filling character placed in the layer the ruleset's glyph table gives it.

use partizan_census::{Catalogue, Group, Shape};
use partizan_core::Arena;
use partizan_games::{with_rules, Bits, Board, Glyph, Ruleset};
use partizan_solve::{Savings, Solver, Stats};
use serde::Serialize;

use crate::db::Store;
use crate::error::{Result, StoreError};
use crate::rules::stored_rules;
use crate::session::SessionStats;

/// The largest `--max-cells` warm accepts: the catalogue's limit.
pub const MAX_WARM_CELLS: usize = Shape::MAX_CELLS;

/// What a warm run did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WarmReport {
    /// Shapes (classes under the square's symmetries) enumerated.
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

/// The layers of each filling character (`None`: a hole).
fn filling_layers(rules: &impl Ruleset) -> Vec<Option<usize>> {
    let info = rules.info();
    info.fillings
        .iter()
        .map(|&c| match info.glyph(c) {
            Glyph::Layer(l) => Some(l),
            _ => None,
        })
        .collect()
}

/// Call `f` with every filling of a shape: each cell of the shape in one
/// of `layers` (cells outside it are holes).
fn fillings(
    s: &Shape,
    layers: &[Option<usize>],
    mut f: impl FnMut(Board) -> Result<()>,
) -> Result<()> {
    let (w, h) = (s.width(), s.height());
    let cells: Vec<usize> = (0..w * h).filter(|&i| s.bits() >> i & 1 == 1).collect();
    let mut digits = vec![0usize; cells.len()];
    loop {
        let mut l: [Bits; 3] = [0; 3];
        for (&i, &d) in cells.iter().zip(&digits) {
            if let Some(layer) = layers[d] {
                l[layer] |= 1 << i;
            }
        }
        let board = Board::new(w, h, l).map_err(|e| StoreError::Solve(e.to_string()))?;
        f(board)?;
        // Next assignment, odometer style.
        let mut p = 0;
        loop {
            if p == digits.len() {
                return Ok(());
            }
            digits[p] += 1;
            if digits[p] < layers.len() {
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
    let rules = stored_rules(ruleset).ok_or_else(|| StoreError::BadRuleset(ruleset.to_string()))?;
    with_rules!(rules, |r| warm_with(store, r, max_cells, progress))
}

fn warm_with<R: Ruleset>(
    store: &Store,
    rules: &R,
    max_cells: usize,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<WarmReport> {
    let solve_err = |e: partizan_solve::SolveError| StoreError::Solve(e.to_string());
    let catalogue = Catalogue::build(Group::Square, max_cells);
    let layers = filling_layers(rules);
    let mut session = store.session();
    session.set_label(format!("warm {} {max_cells}", rules.name()));
    let mut report = WarmReport {
        shapes: catalogue.len() as u64,
        ..WarmReport::default()
    };
    {
        let mut arena = Arena::new();
        let mut solver = Solver::new(rules, Savings::ALL)
            .map_err(solve_err)?
            .with_table(&mut session);
        for (i, s) in catalogue.iter().enumerate() {
            fillings(s, &layers, |board| {
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
    use partizan_games::{Clobber, Domineering};

    #[test]
    fn fillings_of_an_l_tromino() {
        let s = Shape::parse(".#|..").unwrap();
        let mut seen = Vec::new();
        fillings(&s, &filling_layers(&Clobber), |b| {
            seen.push(Clobber.format(&b));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen.len(), 8);
        assert!(seen.contains(&"x.|xx".to_string()), "{seen:?}");
        assert!(seen.contains(&"o.|oo".to_string()), "{seen:?}");
        let mut dom = Vec::new();
        fillings(&s, &filling_layers(&Domineering), |b| {
            dom.push(Domineering.format(&b));
            Ok(())
        })
        .unwrap();
        assert_eq!(dom, vec![".#|..".to_string()]);
    }

    #[test]
    fn warm_covers_every_orientation() {
        // Every region of up to 4 cells, in every orientation, is answered by
        // the store after a warm of 4 cells: the catalogue's classes suffice.
        let dir = std::env::temp_dir().join(format!("partizan-warm-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join("s.redb");
        let store = Store::open(&path).unwrap();
        warm(&store, "domineering", 4, &mut |_, _| {}).unwrap();
        let mut arena = Arena::new();
        let mut session = store.session();
        for text in [
            "..", ".|.", "...", ".|.|.", "..|.#", "#.|..", "....", ".|.|.|.", "..|..", ".#|..|.#",
        ] {
            let b = Domineering.parse(text).unwrap();
            let mut solver = Solver::new(&Domineering, Savings::ALL)
                .unwrap()
                .with_table(&mut session);
            solver.value(&mut arena, &b).unwrap();
            let st = solver.stats();
            assert_eq!(st.store_added, 0, "{text} was not warmed");
        }
        drop(session);
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
