//! Position-graph counting that a request can stop: the library's walks
//! (`partizan_solve::graph::counts_with` / `positions_with`) with a check
//! that looks at the budget as they go and refuses graphs over a size cap,
//! so a heavy board cannot hold a worker or the memory past its request.
//! The counts equal the library's (a test pins that), and a holding report
//! converts to the library's [`GraphReport`], so `/api/graph` prints what
//! `partizan graph --json` prints.

use partizan_games::{Board, Ruleset};
use partizan_solve::graph::{self, GraphCounts, GraphReport, RegionReport, WalkState};
use partizan_solve::regions::{region_board, regions};

use crate::error::WebError;
use crate::identity::{check_identity, Identity};
use crate::limits::Budget;

/// The largest position graph a request may count.
pub const MAX_POSITIONS: usize = 2_000_000;

/// How often (in positions) the walk checks its budget.
const CHECK_EVERY: usize = 1 << 12;

fn too_big(cap: usize) -> WebError {
    WebError::GraphTooLarge(cap)
}

/// The check a request's walk makes after every step: the budget every
/// [`CHECK_EVERY`] steps, and the size cap on the table and the stack.
fn guard(budget: &Budget, cap: usize) -> impl FnMut(WalkState) -> Result<(), WebError> + '_ {
    move |w: WalkState| {
        if w.steps.is_multiple_of(CHECK_EVERY) {
            budget.check()?;
        }
        if w.table > cap || w.stack > 8 * cap {
            return Err(too_big(cap));
        }
        Ok(())
    }
}

/// Positions and recursion-tree nodes of `b`, or a fault when the budget is
/// spent or the graph passes `cap` positions.
pub fn counts<R: Ruleset>(
    r: &R,
    b: &Board,
    budget: &Budget,
    cap: usize,
) -> Result<GraphCounts, WebError> {
    graph::counts_with(r, b, guard(budget, cap))
}

/// Distinct positions reachable from `b`, under the budget and cap.
pub fn positions<R: Ruleset>(
    r: &R,
    b: &Board,
    budget: &Budget,
    cap: usize,
) -> Result<u64, WebError> {
    graph::positions_with(r, b, guard(budget, cap))
}

/// The whole board's graph and each region's, counted separately, with the
/// identity check on them. Unlike the library's `region_report`, a failed
/// identity is reported (with both numbers) rather than turned into an error,
/// so the page can state it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphCheck {
    /// The whole board's counts.
    pub whole: GraphCounts,
    /// Each region's cells and position count.
    pub regions: Vec<RegionReport>,
    /// Whether the whole is the product of the parts.
    pub identity: Identity,
}

impl GraphCheck {
    /// The library's report, when the identity holds (the only case in
    /// which `partizan graph` prints one).
    pub fn report(&self) -> Option<GraphReport> {
        match self.identity {
            Identity::Holds { .. } => Some(GraphReport {
                positions: self.whole.positions,
                tree_nodes: self.whole.tree_nodes,
                regions: self.regions.clone(),
                product: self.whole.positions,
            }),
            Identity::Fails { .. } => None,
        }
    }
}

/// Count the whole board and, independently, each region on its own board.
pub fn check<R: Ruleset>(
    r: &R,
    b: &Board,
    budget: &Budget,
    cap: usize,
) -> Result<GraphCheck, WebError> {
    let whole = counts(r, b, budget, cap)?;
    let mut reports = Vec::new();
    for mask in regions(r, b) {
        let part = region_board(b, mask);
        // The same board counts the same: no need to walk it twice.
        let n = if part == *b {
            whole.positions
        } else {
            positions(r, &part, budget, cap)?
        };
        reports.push(RegionReport {
            cells: mask,
            positions: n,
        });
    }
    let each: Vec<u128> = reports.iter().map(|x| u128::from(x.positions)).collect();
    let identity = check_identity(u128::from(whole.positions), &each);
    Ok(GraphCheck {
        whole,
        regions: reports,
        identity,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_games::{Clobber, Domineering, Konane};
    use partizan_solve::graph;

    #[test]
    fn equal_to_the_library() {
        let u = Budget::unlimited();
        for text in ["..#..|..#..", "....|.#..|....", "...#|..#.|.#..|#..."] {
            let b = Domineering.parse(text).unwrap();
            let c = check(&Domineering, &b, &u, MAX_POSITIONS).unwrap();
            assert_eq!(
                c.report(),
                Some(graph::region_report(&Domineering, &b).unwrap())
            );
        }
        let b = Clobber.parse("xox.|o.ox").unwrap();
        let c = check(&Clobber, &b, &u, MAX_POSITIONS).unwrap();
        assert_eq!(
            c.report(),
            Some(graph::region_report(&Clobber, &b).unwrap())
        );
        let b = Konane.parse("xo.x|...o").unwrap();
        let c = check(&Konane, &b, &u, MAX_POSITIONS).unwrap();
        assert_eq!(c.report(), Some(graph::region_report(&Konane, &b).unwrap()));
    }

    #[test]
    fn cap_and_budget_stop_the_walk() {
        let b = Domineering.parse("....|....|....|....").unwrap();
        assert_eq!(
            counts(&Domineering, &b, &Budget::unlimited(), 100),
            Err(WebError::GraphTooLarge(100))
        );
        let spent = Budget::new(std::time::Duration::ZERO);
        assert!(matches!(
            counts(&Domineering, &b, &spent, MAX_POSITIONS),
            Err(WebError::OutOfTime(0))
        ));
    }
}
