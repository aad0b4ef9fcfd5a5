//! Essay 000's "finding the parts" table: what a region pass costs and
//! saves, board by board (`partizan parts`, the site's `/parts`). The rows
//! come from [`partizan_solve::parts`]; this module assembles the table the
//! front ends print: which boards, in which order, parsed and named.

use partizan_games::{Board, Ruleset};
use partizan_solve::parts::{self, PartsRow};
use partizan_solve::SolveError;
use serde::Serialize;

use crate::ReportError;

/// What a parts table is asked of.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartsAsk {
    /// Boards, one row each (only the first when `wall_positions`).
    pub boards: Vec<String>,
    /// Also each board one row down (its last row removed), after them.
    pub one_row_down: bool,
    /// Instead of the boards: a wall moved across the first board, a full
    /// column blocked at each column, then a full row at each row.
    pub wall_positions: bool,
}

/// The table: one row per board, in the order asked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PartsTable {
    /// The ruleset's name.
    pub ruleset: &'static str,
    /// The rows.
    pub rows: Vec<PartsRow>,
}

impl PartsAsk {
    /// The boards' texts in table order: the boards (or the wall's
    /// positions across the first), then each of them one row down when
    /// asked (a one-row board has none).
    #[must_use]
    pub fn texts(&self) -> Vec<String> {
        let mut texts: Vec<String> = if self.wall_positions {
            self.boards
                .first()
                .map(|b| parts::wall_positions(b))
                .unwrap_or_default()
        } else {
            self.boards.clone()
        };
        if self.one_row_down {
            let down: Vec<String> = texts
                .iter()
                .filter_map(|t| parts::one_row_down(t))
                .collect();
            texts.extend(down);
        }
        texts
    }

    /// The table's boards, parsed; a board that does not parse is named in
    /// the error.
    pub fn boards<R: Ruleset>(&self, r: &R) -> Result<Vec<Board>, ReportError> {
        self.texts()
            .iter()
            .map(|t| {
                r.parse(t).map_err(|source| ReportError::TableBoard {
                    ruleset: r.name(),
                    text: t.chars().take(200).collect(),
                    source,
                })
            })
            .collect()
    }
}

/// The parts table of `boards`, asking `stop` (a budget, a cancel flag)
/// before each row: `true` ends the table with [`SolveError::Stopped`].
pub fn parts_table<R: Ruleset>(
    r: &R,
    boards: &[Board],
    stop: Option<&dyn Fn() -> bool>,
) -> Result<PartsTable, ReportError> {
    let mut rows = Vec::with_capacity(boards.len());
    for b in boards {
        if stop.is_some_and(|s| s()) {
            return Err(SolveError::Stopped.into());
        }
        rows.push(parts::parts_row(r, b)?);
    }
    Ok(PartsTable {
        ruleset: r.name(),
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_games::Domineering;

    #[test]
    fn the_essays_rows_in_order() {
        let ask = PartsAsk {
            boards: vec!["...|...|...".into(), "..#|..#".into()],
            one_row_down: true,
            wall_positions: false,
        };
        assert_eq!(
            ask.texts(),
            ["...|...|...", "..#|..#", "...|...", "..#"].map(String::from)
        );
        let boards = ask.boards(&Domineering).unwrap();
        let t = parts_table(&Domineering, &boards, None).unwrap();
        assert_eq!(t.ruleset, "domineering");
        assert_eq!(t.rows.len(), 4);
        for (row, text) in t.rows.iter().zip(ask.texts()) {
            assert_eq!(row.board, text);
            // the regions are independent: the whole graph is their product
            assert_eq!(row.whole, row.product);
        }
        // a wall across the first board: one row per column, then per row
        let walls = PartsAsk {
            boards: vec!["...|...".into(), "ignored".into()],
            one_row_down: false,
            wall_positions: true,
        };
        assert_eq!(walls.texts().len(), 3 + 2);
    }

    #[test]
    fn names_the_bad_board_and_stops() {
        let ask = PartsAsk {
            boards: vec!["..|..".into(), "..|.Q".into()],
            ..PartsAsk::default()
        };
        let e = ask.boards(&Domineering).unwrap_err();
        assert!(
            e.to_string().starts_with("bad domineering board '..|.Q': "),
            "{e}"
        );
        let boards = PartsAsk {
            boards: vec!["..|..".into()],
            ..PartsAsk::default()
        }
        .boards(&Domineering)
        .unwrap();
        let stop = || true;
        let e = parts_table(&Domineering, &boards, Some(&stop)).unwrap_err();
        assert!(matches!(e, ReportError::Solve(SolveError::Stopped)));
    }
}
