//! Playing a position: each player's options with their values, the cells
//! each move changes (so a click on the board can pick it), incentives,
//! the dominated and reversible options, the best moves (all from the
//! report layer's [`partizan_report::board_options_in`]), and a game tree
//! a few plies deep built from the same report. Generic over [`Ruleset`]:
//! a move is the set of cells that differ between the board and the
//! option, so every ruleset in the registry gets click-to-move without a
//! line of its own.

use partizan_core::Arena;
use partizan_games::{Board, Player, Ruleset};
use partizan_report::{BoardOption, OptionsReport};
use partizan_solve::{RegionTable, Savings, Solver};
use serde::Serialize;

use crate::error::WebError;
use crate::limits::Budget;
use crate::report::{report_error, solve_error};

/// A cell's name: column letter, row number from the top (`a1` is the top
/// left corner).
pub fn cell_name(width: usize, i: usize) -> String {
    let w = width.max(1);
    let col = i % w;
    let mut letters = String::new();
    let mut c = col;
    loop {
        letters.insert(0, char::from(b'a' + (c % 26) as u8));
        if c < 26 {
            break;
        }
        c = c / 26 - 1;
    }
    format!("{letters}{}", i / w + 1)
}

/// One node of a game tree: a position, its value, and (if expanded) the
/// options of both players below it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TreeNode {
    /// The board.
    pub board: String,
    /// Its value.
    pub value: String,
    /// Left's options (empty when not expanded or when Left has none).
    pub left: Vec<(BoardOption, TreeNode)>,
    /// Right's options.
    pub right: Vec<(BoardOption, TreeNode)>,
    /// Whether the children were expanded.
    pub expanded: bool,
}

/// The options report of `b` (the report layer's): every move of both
/// players, valued through `table` when given, under the budget.
pub fn options_report<R: Ruleset>(
    r: &R,
    b: &Board,
    table: Option<&mut dyn RegionTable>,
    budget: &Budget,
) -> Result<OptionsReport, WebError> {
    let stop = || budget.expired();
    let opts = partizan_report::Options {
        savings: Savings::ALL,
        store: None,
        stop: Some(&stop),
    };
    partizan_report::board_options_in(r, b, &opts, table).map_err(|e| report_error(e, budget))
}

fn tree<R: Ruleset>(
    r: &R,
    solver: &mut Solver<'_, R>,
    arena: &mut Arena,
    b: &Board,
    depth: usize,
    budget_nodes: &mut usize,
    budget: &Budget,
) -> Result<TreeNode, WebError> {
    budget.check()?;
    let g = solver.value(arena, b).map_err(|e| solve_error(e, budget))?;
    let mut node = TreeNode {
        board: r.format(b),
        value: arena.display(g),
        left: Vec::new(),
        right: Vec::new(),
        expanded: false,
    };
    if depth == 0 || *budget_nodes == 0 {
        return Ok(node);
    }
    node.expanded = true;
    for p in Player::BOTH {
        let opts = partizan_report::player_options(r, solver, arena, b, g, p)
            .map_err(|e| report_error(e, budget))?;
        let mut out = Vec::with_capacity(opts.len());
        for row in opts {
            *budget_nodes = budget_nodes.saturating_sub(1);
            let child = r
                .parse(&row.board)
                .map_err(|e| WebError::Internal(e.to_string()))?;
            let sub = tree(r, solver, arena, &child, depth - 1, budget_nodes, budget)?;
            out.push((row, sub));
        }
        match p {
            Player::Left => node.left = out,
            Player::Right => node.right = out,
        }
    }
    Ok(node)
}

/// The game tree of `b` to `depth` plies, expanding at most `max_nodes`
/// options in all (deeper nodes are listed unexpanded).
pub fn game_tree<R: Ruleset>(
    r: &R,
    b: &Board,
    depth: usize,
    max_nodes: usize,
    table: Option<&mut dyn RegionTable>,
    budget: &Budget,
) -> Result<TreeNode, WebError> {
    let mut arena = Arena::new();
    let stop = || budget.expired();
    let mut solver = Solver::new(r, Savings::ALL)
        .map_err(|e| solve_error(e, budget))?
        .with_stop(&stop);
    if let Some(t) = table {
        solver = solver.with_table(t);
    }
    let mut left = max_nodes;
    tree(r, &mut solver, &mut arena, b, depth, &mut left, budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_core::GameId;
    use partizan_games::{Amazons, Clobber, Domineering, Konane};

    fn report<R: Ruleset>(r: &R, text: &str) -> OptionsReport {
        let b = r.parse(text).unwrap();
        options_report(r, &b, None, &Budget::unlimited()).unwrap()
    }

    #[test]
    fn a_domino_changes_two_cells() {
        // 2x2: Left (vertical) has two moves, each leaving one column
        // where Left has one more move: each option is 1.
        let rep = report(&Domineering, "..|..");
        assert_eq!(rep.value.value, "±1");
        assert_eq!(rep.left.len(), 2);
        for o in &rep.left {
            assert_eq!(o.cells.len(), 2);
            // Vertical: the two cells are one row apart.
            assert_eq!(o.cells[1] - o.cells[0], 2);
            assert_eq!(o.value, "1");
            // Incentive of a Left option: GL - G = 1 - ±1 = {2|0}.
            assert_eq!(o.incentive, "{2|0}");
            assert!(o.best && !o.dominated);
        }
        for o in &rep.right {
            assert_eq!(o.cells[1] - o.cells[0], 1);
            assert_eq!(o.value, "-1");
        }
        assert_eq!(cell_name(rep.width, rep.left[0].cells[0]), "a1");
        assert_eq!(cell_name(rep.width, rep.left[0].cells[1]), "a2");
    }

    #[test]
    fn marks_dominated_options() {
        // A 1x4 strip for Right (horizontal): the middle domino leaves two
        // single cells (0), an end domino leaves a 1x2 strip (-1): better
        // for Right, so the middle move is dominated.
        let rep = report(&Domineering, "....");
        assert_eq!(rep.right.len(), 3);
        let mid = rep.right.iter().find(|o| o.cells == vec![1, 2]).unwrap();
        assert_eq!(mid.value, "0");
        assert!(mid.dominated && !mid.best);
        let end = rep.right.iter().find(|o| o.cells == vec![0, 1]).unwrap();
        assert_eq!(end.value, "-1");
        assert!(!end.dominated && end.best);
        assert!(rep.left.is_empty());
        assert!(rep.right.iter().any(|o| o.dominant));
    }

    #[test]
    fn option_values_agree_with_the_canonical_form() {
        // Oracle: the canonical form built from the listed options' values
        // equals the position's value, on every ruleset.
        fn check<R: Ruleset>(r: &R, text: &str) {
            let rep = report(r, text);
            let mut a = Arena::new();
            let l: Vec<GameId> = rep
                .left
                .iter()
                .map(|o| a.parse(&o.value).unwrap())
                .collect();
            let rr: Vec<GameId> = rep
                .right
                .iter()
                .map(|o| a.parse(&o.value).unwrap())
                .collect();
            let g = a.construct(&l, &rr).unwrap();
            assert_eq!(a.display(g), rep.value.value, "{} {text}", r.name());
            // An option that is neither dominated nor reversible survives
            // in the canonical form's options.
            let canon_left: Vec<String> = {
                let v = a.parse(&rep.value.value).unwrap();
                a.left_options(v)
                    .to_vec()
                    .into_iter()
                    .map(|x| a.display(x))
                    .collect()
            };
            for o in rep.left.iter().filter(|o| !o.dominated && !o.reversible) {
                assert!(
                    canon_left.contains(&o.value),
                    "{} {text}: {}",
                    r.name(),
                    o.value
                );
            }
        }
        check(&Domineering, "...|...|..#");
        check(&Clobber, "xox|oxo");
        check(&Konane, "xo.|.ox|x..");
        check(&Amazons, "L..|..R");
    }

    #[test]
    fn moves_by_cells() {
        // Clobber: a move changes the mover's cell and the captured one.
        let rep = report(&Clobber, "xo");
        assert_eq!(rep.left.len(), 1);
        assert_eq!(rep.left[0].cells, vec![0, 1]);
        // Amazons: from, to and the arrow (which may land on `from`).
        let rep = report(&Amazons, "L..");
        assert!(rep.left.iter().all(|m| m.cells.contains(&0)));
        assert!(
            rep.left.iter().any(|m| m.cells.len() == 2),
            "arrow shot back"
        );
        assert!(rep.left.iter().any(|m| m.cells.len() == 3));
        assert_eq!(cell_name(3, 5), "c2");
        assert_eq!(cell_name(30, 27), "ab1");
    }

    #[test]
    fn tree_is_bounded() {
        let b = Domineering.parse("...|...").unwrap();
        let t = game_tree(&Domineering, &b, 2, 4, None, &Budget::unlimited()).unwrap();
        assert!(t.expanded);
        assert_eq!(t.value, "{2|-1/2}");
        let expanded = t
            .left
            .iter()
            .chain(&t.right)
            .filter(|(_, n)| n.expanded)
            .count();
        assert!(expanded <= 4);
    }
}
