//! Errors raised while building or parsing a [`Board`](crate::Board).

use thiserror::Error;

/// Why a board could not be built or parsed. Each message is one line that
/// names what went wrong and where (rows and columns are 1-based).
#[derive(Clone, Debug, Eq, PartialEq, Error)]
pub enum BoardError {
    /// The text holds no rows at all.
    #[error("empty board: the text holds no rows")]
    Empty,
    /// A row has a different number of cells from the first row.
    #[error("ragged rows: row {row} has {len} cells, expected {expected}")]
    Ragged {
        /// 1-based row number.
        row: usize,
        /// Cells found in that row.
        len: usize,
        /// Cells in the first row.
        expected: usize,
    },
    /// A character that no ruleset uses.
    #[error("unknown character {ch:?} at row {row}, column {col}")]
    UnknownChar {
        /// The offending character.
        ch: char,
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
    },
    /// A piece letter that belongs to another ruleset (e.g. stones on a
    /// Domineering board).
    #[error("{what} not allowed on a {ruleset} board: {ch:?} at row {row}, column {col}")]
    PieceNotAllowed {
        /// The ruleset's name.
        ruleset: &'static str,
        /// What kind of piece the letter denotes ("stones", "queens").
        what: &'static str,
        /// The offending character.
        ch: char,
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
    },
    /// The rectangle holds more cells than a board can index.
    #[error("too many cells: {width}x{height} = {cells} > 128")]
    TooManyCells {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
        /// width * height.
        cells: usize,
    },
    /// A layer has a bit set outside the width*height rectangle.
    #[error("layer {layer} has cells outside the {width}x{height} rectangle")]
    OutOfBounds {
        /// The layer index (0..3).
        layer: usize,
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// Two layers claim the same cell.
    #[error("layers {a} and {b} overlap at row {row}, column {col}")]
    Overlap {
        /// First layer.
        a: usize,
        /// Second layer.
        b: usize,
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
    },
    /// Graph text (an edge list or its matrix) that does not describe a
    /// position of a graph ruleset; `at` says where ("item 2, column 7",
    /// "row 3").
    #[error("{why} at {at}")]
    Graph {
        /// The ruleset's name.
        ruleset: &'static str,
        /// What is wrong.
        why: String,
        /// Where in the text.
        at: String,
    },
}
