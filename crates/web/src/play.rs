//! Playing a position: each player's options with their values, the cells
//! each move changes (so a click on the board can pick it), incentives,
//! the dominated and reversible options, the best moves, and a game tree
//! a few plies deep. Generic over [`Ruleset`]: a move is recovered as the
//! difference between the board and the option, so every ruleset in the
//! registry gets click-to-move without a line of its own.
//!
//! Candidates to move into a library crate later: [`moves`] (options as
//! (cells changed, child board) pairs) belongs beside the `Ruleset` trait.

use partizan_core::{Arena, GameId};
use partizan_games::{Board, Player, Ruleset};
use partizan_solve::{RegionTable, Savings, Solver, Stats};
use serde::Serialize;

use crate::error::WebError;
use crate::limits::Budget;
use crate::report::solve_error;

/// One move: the option it reaches and the cells (`row * width + col`)
/// whose contents differ between the board and the option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    /// Cells the move changes, ascending.
    pub cells: Vec<usize>,
    /// The position after the move.
    pub child: Board,
}

/// The cells whose glyph differs between two board texts of one shape
/// (rows joined by `|`); `None` when the shapes differ.
pub fn changed_cells(before: &str, after: &str) -> Option<Vec<usize>> {
    let a: Vec<char> = before.chars().filter(|&c| c != '|').collect();
    let b: Vec<char> = after.chars().filter(|&c| c != '|').collect();
    if a.len() != b.len() || before.matches('|').count() != after.matches('|').count() {
        return None;
    }
    Some((0..a.len()).filter(|&i| a[i] != b[i]).collect())
}

/// Every distinct move of `p` from `b`, in the ruleset's option order (two
/// moves reaching the same board are one move).
pub fn moves<R: Ruleset>(r: &R, b: &Board, p: Player) -> Vec<Move> {
    let text = r.format(b);
    let mut out: Vec<Move> = Vec::new();
    r.options(b, p, |child| {
        if out.iter().any(|m| m.child == child) {
            return;
        }
        let cells = changed_cells(&text, &r.format(&child)).unwrap_or_default();
        out.push(Move { cells, child });
    });
    out
}

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

/// One option of a position, as the explorer lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OptionRow {
    /// The player moving: `"left"` or `"right"`.
    pub player: &'static str,
    /// The option's board in the ruleset's notation.
    pub board: String,
    /// The cells the move changes (`row * width + col`).
    pub cells: Vec<usize>,
    /// The same cells by name (`a1 a2`).
    pub notation: String,
    /// The option's value (canonical form, CGSuite notation).
    pub value: String,
    /// The incentive: `GL - G` for a Left option, `G - GR` for a Right one.
    pub incentive: String,
    /// Another option of the same player is strictly better.
    pub dominated: bool,
    /// The option is reversible: some reply from it (in its canonical
    /// form) is at least as good for the opponent as the position itself.
    pub reversible: bool,
    /// No other option of the same player has a strictly larger incentive.
    pub best: bool,
}

/// What one player can do from a position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerOptions {
    /// The options, in the ruleset's order.
    pub options: Vec<OptionRow>,
    /// Indices of the best options: those whose incentive no other beats.
    pub best: Vec<usize>,
    /// Whether one best option's incentive is at least every other's (a
    /// single dominant incentive), as opposed to incomparable candidates.
    pub best_is_dominant: bool,
}

/// The options of both players, with the position's value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OptionsReport {
    /// The ruleset's name.
    pub ruleset: &'static str,
    /// The board in the ruleset's notation.
    pub board: String,
    /// Columns of the board (cells are numbered `row * width + col`).
    pub width: usize,
    /// The position's value.
    pub value: String,
    /// Left's options.
    pub left: PlayerOptions,
    /// Right's options.
    pub right: PlayerOptions,
    /// What the solver did.
    pub stats: Stats,
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
    pub left: Vec<(OptionRow, TreeNode)>,
    /// Right's options.
    pub right: Vec<(OptionRow, TreeNode)>,
    /// Whether the children were expanded.
    pub expanded: bool,
}

/// Values a position's options under a solver; used by the report, the
/// tree and tests.
struct Valuer<'s, 'r, R: Ruleset> {
    solver: Solver<'r, R>,
    arena: &'s mut Arena,
    budget: &'r Budget,
}

impl<R: Ruleset> Valuer<'_, '_, R> {
    fn value(&mut self, b: &Board) -> Result<GameId, WebError> {
        self.solver
            .value(self.arena, b)
            .map_err(|e| solve_error(e, self.budget))
    }

    fn rows(
        &mut self,
        r: &R,
        b: &Board,
        g: GameId,
        p: Player,
    ) -> Result<(PlayerOptions, Vec<Board>), WebError> {
        let width = b.width();
        let ms = moves(r, b, p);
        let mut ids = Vec::with_capacity(ms.len());
        for m in &ms {
            self.budget.check()?;
            ids.push(self.value(&m.child)?);
        }
        let a = &mut *self.arena;
        let err = |e: partizan_core::ValueError| WebError::Internal(e.to_string());
        let mut incs = Vec::with_capacity(ids.len());
        for &x in &ids {
            incs.push(match p {
                Player::Left => a.sub(x, g).map_err(err)?,
                Player::Right => a.sub(g, x).map_err(err)?,
            });
        }
        let mut rows = Vec::with_capacity(ms.len());
        for (i, m) in ms.iter().enumerate() {
            let x = ids[i];
            let dominated = ids.iter().any(|&y| match p {
                Player::Left => a.lt(x, y),
                Player::Right => a.gt(x, y),
            });
            let reversible = match p {
                Player::Left => {
                    let replies = a.right_options(x).to_vec();
                    replies.into_iter().any(|y| a.leq(y, g))
                }
                Player::Right => {
                    let replies = a.left_options(x).to_vec();
                    replies.into_iter().any(|y| a.geq(y, g))
                }
            };
            let best = !incs.iter().any(|&j| a.gt(j, incs[i]));
            rows.push(OptionRow {
                player: match p {
                    Player::Left => "left",
                    Player::Right => "right",
                },
                board: r.format(&m.child),
                cells: m.cells.clone(),
                notation: m
                    .cells
                    .iter()
                    .map(|&c| cell_name(width, c))
                    .collect::<Vec<_>>()
                    .join(" "),
                value: a.display(x),
                incentive: a.display(incs[i]),
                dominated,
                reversible,
                best,
            });
        }
        let best: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].best).collect();
        let best_is_dominant = best
            .iter()
            .any(|&i| incs.iter().all(|&j| a.geq(incs[i], j)));
        let children = ms.into_iter().map(|m| m.child).collect();
        Ok((
            PlayerOptions {
                options: rows,
                best,
                best_is_dominant,
            },
            children,
        ))
    }

    fn tree(
        &mut self,
        r: &R,
        b: &Board,
        depth: usize,
        budget_nodes: &mut usize,
    ) -> Result<TreeNode, WebError> {
        let g = self.value(b)?;
        let mut node = TreeNode {
            board: r.format(b),
            value: self.arena.display(g),
            left: Vec::new(),
            right: Vec::new(),
            expanded: false,
        };
        if depth == 0 || *budget_nodes == 0 {
            return Ok(node);
        }
        node.expanded = true;
        for p in Player::BOTH {
            let (opts, children) = self.rows(r, b, g, p)?;
            let mut out = Vec::with_capacity(children.len());
            for (row, child) in opts.options.into_iter().zip(children) {
                *budget_nodes = budget_nodes.saturating_sub(1);
                let sub = self.tree(r, &child, depth - 1, budget_nodes)?;
                out.push((row, sub));
            }
            match p {
                Player::Left => node.left = out,
                Player::Right => node.right = out,
            }
        }
        Ok(node)
    }
}

/// The options report of `b`: every move of both players, valued through
/// `table` when given, under the budget.
pub fn options_report<R: Ruleset>(
    r: &R,
    b: &Board,
    table: Option<&mut dyn RegionTable>,
    budget: &Budget,
) -> Result<OptionsReport, WebError> {
    let mut arena = Arena::new();
    let stop = || budget.expired();
    let mut solver = Solver::new(r, Savings::ALL)
        .map_err(|e| solve_error(e, budget))?
        .with_stop(&stop);
    if let Some(t) = table {
        solver = solver.with_table(t);
    }
    let mut v = Valuer {
        solver,
        arena: &mut arena,
        budget,
    };
    let g = v.value(b)?;
    let (left, _) = v.rows(r, b, g, Player::Left)?;
    let (right, _) = v.rows(r, b, g, Player::Right)?;
    let stats = v.solver.stats();
    Ok(OptionsReport {
        ruleset: r.name(),
        board: r.format(b),
        width: b.width(),
        value: arena.display(g),
        left,
        right,
        stats,
    })
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
    let mut v = Valuer {
        solver,
        arena: &mut arena,
        budget,
    };
    let mut left = max_nodes;
    v.tree(r, b, depth, &mut left)
}

#[cfg(test)]
mod tests {
    use super::*;
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
        assert_eq!(rep.value, "±1");
        assert_eq!(rep.left.options.len(), 2);
        for o in &rep.left.options {
            assert_eq!(o.cells.len(), 2);
            // Vertical: the two cells are one row apart.
            assert_eq!(o.cells[1] - o.cells[0], 2);
            assert_eq!(o.value, "1");
            // Incentive of a Left option: GL - G = 1 - ±1 = {2|0}.
            assert_eq!(o.incentive, "{2|0}");
            assert!(o.best && !o.dominated);
        }
        for o in &rep.right.options {
            assert_eq!(o.cells[1] - o.cells[0], 1);
            assert_eq!(o.value, "-1");
        }
        assert_eq!(rep.left.options[0].notation, "a1 a2");
    }

    #[test]
    fn marks_dominated_options() {
        // A 1x4 strip for Right (horizontal): the middle domino leaves two
        // single cells (0), an end domino leaves a 1x2 strip (-1): better
        // for Right, so the middle move is dominated.
        let rep = report(&Domineering, "....");
        assert_eq!(rep.right.options.len(), 3);
        let mid = rep
            .right
            .options
            .iter()
            .find(|o| o.cells == vec![1, 2])
            .unwrap();
        assert_eq!(mid.value, "0");
        assert!(mid.dominated && !mid.best);
        let end = rep
            .right
            .options
            .iter()
            .find(|o| o.cells == vec![0, 1])
            .unwrap();
        assert_eq!(end.value, "-1");
        assert!(!end.dominated && end.best);
        assert!(rep.left.options.is_empty());
        assert!(rep.right.best_is_dominant);
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
                .options
                .iter()
                .map(|o| a.parse(&o.value).unwrap())
                .collect();
            let rr: Vec<GameId> = rep
                .right
                .options
                .iter()
                .map(|o| a.parse(&o.value).unwrap())
                .collect();
            let g = a.construct(&l, &rr).unwrap();
            assert_eq!(a.display(g), rep.value, "{} {text}", r.name());
            // An option that is neither dominated nor reversible survives
            // in the canonical form's options.
            let canon_left: Vec<String> = {
                let v = a.parse(&rep.value).unwrap();
                a.left_options(v)
                    .to_vec()
                    .into_iter()
                    .map(|x| a.display(x))
                    .collect()
            };
            for o in rep
                .left
                .options
                .iter()
                .filter(|o| !o.dominated && !o.reversible)
            {
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
        let b = Clobber.parse("xo").unwrap();
        let m = moves(&Clobber, &b, Player::Left);
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].cells, vec![0, 1]);
        // Amazons: from, to and the arrow (which may land on `from`).
        let b = Amazons.parse("L..").unwrap();
        let m = moves(&Amazons, &b, Player::Left);
        assert!(m.iter().all(|m| m.cells.contains(&0)));
        assert!(m.iter().any(|m| m.cells.len() == 2), "arrow shot back");
        assert!(m.iter().any(|m| m.cells.len() == 3));
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
