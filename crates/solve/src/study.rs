//! Decomposition statistics: what the pass costs and what it saves, for one
//! board and every decomposition mode its ruleset allows.
//!
//! For the board itself: the position graph of the whole, of each region,
//! their sum and product, and the squares the pass visits. For each mode: a
//! full evaluation with the mode's counts and where positions fell apart.
//! The positions a mode saved are the distinct regions searched without
//! decomposition less those searched with it.

use partizan_core::Arena;
use partizan_games::Ruleset;
use serde::Serialize;

use crate::graph::{self, GraphReport};
use crate::regions::regions_with_cost;
use crate::value::{Decompose, Savings, SolveError, Solver, SplitDetail, Stats};

/// One mode's run.
#[derive(Clone, Debug, Serialize)]
pub struct ModeRun {
    /// The decomposition mode.
    pub mode: Decompose,
    /// The value found (CGSuite notation); equal across modes.
    pub value: String,
    /// The solver's counts.
    pub stats: Stats,
    /// Where positions fell apart.
    pub detail: SplitDetail,
    /// Distinct regions searched without decomposition, less this mode's
    /// (positive: searches saved).
    pub positions_saved: i64,
    /// Squares visited by this mode's passes.
    pub pass_cost: u64,
}

/// The whole study of one board.
#[derive(Clone, Debug, Serialize)]
pub struct Study {
    /// The ruleset's name.
    pub ruleset: &'static str,
    /// The board, formatted.
    pub board: String,
    /// The root board's graph and its regions' graphs.
    pub graph: GraphReport,
    /// Sum of the regions' position counts (what solving them apart costs).
    pub region_sum: u64,
    /// Squares the root pass visits.
    pub root_pass_squares: u64,
    /// One run per mode the ruleset allows (root-only only where boards only
    /// fall apart), memo and symmetry on.
    pub modes: Vec<ModeRun>,
}

/// Run the study. Errors if the modes disagree on the value (they must not).
pub fn study<R: Ruleset>(rules: &R, board: &partizan_games::Board) -> Result<Study, StudyError> {
    let graph = graph::region_report(rules, board).map_err(StudyError::Graph)?;
    let region_sum = graph.regions.iter().map(|r| r.positions).sum();
    let (_, root_pass_squares) = regions_with_cost(rules, board);
    let mut modes = Vec::new();
    let mut all = vec![Decompose::Off, Decompose::EveryNode, Decompose::Conditional];
    if rules.only_falls_apart() {
        all.push(Decompose::RootOnly);
    }
    let mut arena = Arena::new();
    let mut baseline: Option<(u64, partizan_core::GameId)> = None;
    for mode in all {
        let savings = Savings {
            memo: true,
            decompose: mode,
            symmetry: true,
        };
        let mut solver = Solver::new(rules, savings)?.with_detail();
        let v = solver.value(&mut arena, board)?;
        let stats = solver.stats();
        let detail = solver.detail().cloned().unwrap_or_default();
        let base = *baseline.get_or_insert((stats.distinct, v));
        if base.1 != v {
            return Err(StudyError::Disagree(mode));
        }
        modes.push(ModeRun {
            mode,
            value: arena.display(v),
            stats,
            detail,
            positions_saved: base.0 as i64 - stats.distinct as i64,
            pass_cost: stats.squares_visited,
        });
    }
    Ok(Study {
        ruleset: rules.name(),
        board: rules.format(board),
        graph,
        region_sum,
        root_pass_squares,
        modes,
    })
}

/// Errors of a decomposition study.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    /// The position-graph report failed (its identity did not hold).
    #[error("{0}")]
    Graph(graph::GraphError),
    /// The solver failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// Two modes gave different values: a decomposition is unsound.
    #[error("decomposition mode {0:?} gave a different value from no decomposition")]
    Disagree(Decompose),
}
