//! The position graph and the recursion tree of a board, counted exactly.
//!
//! The graph holds every distinct position reachable by any sequence of
//! either player's moves; the tree is what a search without memoisation
//! expands. Both are counted by walking the graph once (iteratively, so deep
//! games cannot overflow the stack), never by walking the tree.

use std::convert::Infallible;

use partizan_games::{Bits, Board, Player, Ruleset};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;
use thiserror::Error;

use crate::regions::{region_board, regions};

/// Number of distinct positions reachable from `b` by any sequence of
/// either player's moves, `b` included.
#[must_use]
pub fn positions<R: Ruleset>(r: &R, b: &Board) -> u64 {
    match positions_with(r, b, |_| Ok::<(), Infallible>(())) {
        Ok(n) => n,
        Err(never) => match never {},
    }
}

/// How far a walk has got: handed to the caller's check after every step,
/// so a caller with a budget or a size cap can stop it.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct WalkState {
    /// Positions taken off the stack so far.
    pub steps: usize,
    /// Positions in the walk's table.
    pub table: usize,
    /// Positions waiting on the stack.
    pub stack: usize,
}

/// [`positions`], calling `check` after every step; the first error it
/// returns stops the walk.
pub fn positions_with<R: Ruleset, E>(
    r: &R,
    b: &Board,
    mut check: impl FnMut(WalkState) -> Result<(), E>,
) -> Result<u64, E> {
    let mut seen: FxHashSet<Board> = FxHashSet::default();
    let mut stack = vec![*b];
    seen.insert(*b);
    let mut steps = 0;
    while let Some(p) = stack.pop() {
        steps += 1;
        for player in Player::BOTH {
            r.options(&p, player, |o| {
                if seen.insert(o) {
                    stack.push(o);
                }
            });
        }
        check(WalkState {
            steps,
            table: seen.len(),
            stack: stack.len(),
        })?;
    }
    Ok(seen.len() as u64)
}

/// Position count and recursion-tree size, from one walk of the graph.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize)]
pub struct GraphCounts {
    /// Distinct positions reachable (see [`positions`]).
    pub positions: u64,
    /// Nodes of the unmemoised recursion (see [`tree_nodes`]).
    pub tree_nodes: u128,
}

/// Both counts of `b` in one memoised walk.
#[must_use]
pub fn counts<R: Ruleset>(r: &R, b: &Board) -> GraphCounts {
    match counts_with(r, b, |_| Ok::<(), Infallible>(())) {
        Ok(c) => c,
        Err(never) => match never {},
    }
}

/// [`counts`], calling `check` after every step; the first error it returns
/// stops the walk.
pub fn counts_with<R: Ruleset, E>(
    r: &R,
    b: &Board,
    mut check: impl FnMut(WalkState) -> Result<(), E>,
) -> Result<GraphCounts, E> {
    let mut memo: FxHashMap<Board, u128> = FxHashMap::default();
    // (position, children pushed?)
    let mut stack: Vec<(Board, bool)> = vec![(*b, false)];
    let mut steps = 0;
    while let Some((p, expanded)) = stack.pop() {
        steps += 1;
        if memo.contains_key(&p) {
            continue;
        }
        if expanded {
            let mut total: u128 = 1;
            for player in Player::BOTH {
                r.options(&p, player, |o| {
                    // Every child is finished: games are finite, so the
                    // graph has no cycles.
                    let t = memo.get(&o).copied().unwrap_or(0);
                    total = total.saturating_add(t);
                });
            }
            memo.insert(p, total);
        } else {
            stack.push((p, true));
            for player in Player::BOTH {
                r.options(&p, player, |o| {
                    if !memo.contains_key(&o) {
                        stack.push((o, false));
                    }
                });
            }
        }
        check(WalkState {
            steps,
            table: memo.len(),
            stack: stack.len(),
        })?;
    }
    Ok(GraphCounts {
        positions: memo.len() as u64,
        tree_nodes: memo.get(b).copied().unwrap_or(1),
    })
}

/// Nodes of the recursion that expands every option of both players
/// without memoisation: `T(p) = 1 + sum of T(o)` over all left and right
/// options `o`, counted with multiplicity (two moves reaching the same
/// position count twice). Computed by memoising over the graph; saturates at
/// `u128::MAX`.
#[must_use]
pub fn tree_nodes<R: Ruleset>(r: &R, b: &Board) -> u128 {
    counts(r, b).tree_nodes
}

/// One region's share of a [`GraphReport`]. In JSON: `cells` is the number
/// of cells, `mask` the cells on the original board as a decimal string (a
/// `u128` does not fit a JSON number exactly), `positions` the count.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct RegionReport {
    /// The region's cells on the original board.
    pub cells: Bits,
    /// Distinct positions of the region on its own.
    pub positions: u64,
}

impl Serialize for RegionReport {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("RegionReport", 3)?;
        st.serialize_field("cells", &self.cells.count_ones())?;
        st.serialize_field("mask", &self.cells.to_string())?;
        st.serialize_field("positions", &self.positions)?;
        st.end()
    }
}

/// The position graph of a board and of each of its regions.
#[derive(Clone, Debug, Eq, PartialEq, Serialize)]
pub struct GraphReport {
    /// Distinct positions of the whole board.
    pub positions: u64,
    /// Recursion-tree nodes of the whole board.
    pub tree_nodes: u128,
    /// Each region, with its own position count.
    pub regions: Vec<RegionReport>,
    /// Product of the regions' position counts; equal to `positions`.
    pub product: u64,
}

/// The product identity failed: the regions were not independent.
#[derive(Clone, Debug, Eq, PartialEq, Error)]
pub enum GraphError {
    /// The whole board's graph is not the product of its regions' graphs.
    #[error(
        "position graph of the whole board ({whole}) is not the product of its {regions} regions' graphs ({product})"
    )]
    ProductMismatch {
        /// Positions of the whole board.
        whole: u64,
        /// Product of the regions' positions (saturating).
        product: u128,
        /// Number of regions.
        regions: usize,
    },
}

/// Count the whole board's graph and, independently, each region's (on its
/// own [`region_board`]); fail if the whole is not the product of the parts.
pub fn region_report<R: Ruleset>(r: &R, b: &Board) -> Result<GraphReport, GraphError> {
    match region_report_with(r, b, |_| Ok::<(), Infallible>(())) {
        Ok(rep) => Ok(rep),
        Err(WalkStop::Identity(e)) => Err(e),
        Err(WalkStop::Check(never)) => match never {},
    }
}

/// Why [`region_report_with`] stopped.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum WalkStop<E> {
    /// The caller's check stopped a walk (a budget, a cancel).
    Check(E),
    /// The walks finished and the product identity failed.
    Identity(GraphError),
}

/// [`region_report`], calling `check` after every step of every walk (the
/// whole board's, then each region's); the first error it returns stops.
pub fn region_report_with<R: Ruleset, E>(
    r: &R,
    b: &Board,
    mut check: impl FnMut(WalkState) -> Result<(), E>,
) -> Result<GraphReport, WalkStop<E>> {
    let whole = counts_with(r, b, &mut check).map_err(WalkStop::Check)?;
    let parts = regions(r, b);
    let mut product: u128 = 1;
    let mut reports = Vec::with_capacity(parts.len());
    for mask in parts {
        let n = positions_with(r, &region_board(b, mask), &mut check).map_err(WalkStop::Check)?;
        product = product.saturating_mul(u128::from(n));
        reports.push(RegionReport {
            cells: mask,
            positions: n,
        });
    }
    if product != u128::from(whole.positions) {
        return Err(WalkStop::Identity(GraphError::ProductMismatch {
            whole: whole.positions,
            product,
            regions: reports.len(),
        }));
    }
    Ok(GraphReport {
        positions: whole.positions,
        tree_nodes: whole.tree_nodes,
        regions: reports,
        product: whole.positions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_games::{Clobber, Cram, Domineering};

    #[test]
    fn small_counts() {
        let d = Domineering;
        // 1x2: the empty strip and the covered one.
        let b = d.parse("..").unwrap();
        assert_eq!(positions(&d, &b), 2);
        assert_eq!(tree_nodes(&d, &b), 2);
        // 2x2: start; 2 vertical, 2 horizontal placements; then the
        // last domino the other way: 2 (both columns / both rows covered),
        // and the full board.
        let b = d.parse("..|..").unwrap();
        assert_eq!(positions(&d, &b), 1 + 4 + 1);
        // T = 1 + 4 * (1 + 1) = 9 (each placement leaves one move, whose
        // result has none).
        assert_eq!(tree_nodes(&d, &b), 9);
    }

    #[test]
    fn both_players_counted() {
        // Cram "..": one move for each player, to the same position: the
        // graph has 2 positions, the tree 1 + 1 + 1 nodes.
        let c = Cram;
        let b = c.parse("..").unwrap();
        assert_eq!(positions(&c, &b), 2);
        assert_eq!(tree_nodes(&c, &b), 3);
        let k = Clobber;
        let b = k.parse("xo").unwrap();
        assert_eq!(positions(&k, &b), 3);
        assert_eq!(tree_nodes(&k, &b), 3);
    }

    #[test]
    fn report_identity() {
        let d = Domineering;
        let b = d.parse("..#..|..#..").unwrap();
        let rep = region_report(&d, &b).unwrap();
        assert_eq!(rep.regions.len(), 2);
        let each = positions(&d, &d.parse("..|..").unwrap());
        assert_eq!(rep.positions, each * each);
        assert_eq!(rep.product, rep.positions);
    }
}
