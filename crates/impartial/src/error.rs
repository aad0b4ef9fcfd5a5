//! The one error type of the crate: every way input text can be wrong.

use thiserror::Error;

/// What went wrong reading a game description (an octal code, a
/// subtraction set, a graph) or a position in it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ImpartialError {
    /// The game description was empty.
    #[error("empty {what}")]
    Empty {
        /// Which kind of text was expected (`"octal code"`, `"subtraction set"`, ...).
        what: &'static str,
    },
    /// An octal or hexadecimal code without its point, such as `07`.
    #[error("octal code {code:?} has no point (write it like 0.07 or 4.7)")]
    CodeWithoutPoint {
        /// The code as given.
        code: String,
    },
    /// A character of a code that is not a hexadecimal digit.
    #[error("octal code {code:?}: {found:?} at character {offset} is not a digit")]
    CodeDigit {
        /// The code as given.
        code: String,
        /// Byte offset of the offending character.
        offset: usize,
        /// The character found there.
        found: char,
    },
    /// The digit before the point allows a move that takes nothing and
    /// leaves one heap (or none): only 0, 4, 8 and 12 make sense there.
    #[error(
        "octal code {code:?}: the digit before the point must be 0, 4, 8 or c (taking nothing must split the heap), found {found}"
    )]
    LeadingDigit {
        /// The code as given.
        code: String,
        /// The digit before the point.
        found: u8,
    },
    /// A code with more digits after the point than the engine accepts.
    #[error("octal code {code:?} has {digits} digits after the point; at most {max} are allowed")]
    CodeTooLong {
        /// The code as given.
        code: String,
        /// Digits after the point.
        digits: usize,
        /// The limit.
        max: usize,
    },
    /// A number in a list (subtraction set, heaps, vertex) that does not parse.
    #[error("{what}: {found:?} is not a number")]
    BadNumber {
        /// Which list was being read.
        what: &'static str,
        /// The offending text.
        found: String,
    },
    /// A subtraction set containing 0.
    #[error("subtraction set: 0 is not a move (elements must be at least 1)")]
    ZeroInSubtractionSet,
    /// A subtraction set element larger than the engine accepts.
    #[error("subtraction set: {found} is larger than the limit {max}")]
    SubtractionTooLarge {
        /// The element.
        found: u64,
        /// The limit.
        max: u64,
    },
    /// A graph over the vertex limit.
    #[error("graph has {found} vertices; at most {max} are allowed")]
    TooManyVertices {
        /// Vertices asked for.
        found: usize,
        /// The limit (64).
        max: usize,
    },
    /// An edge naming a vertex that does not exist.
    #[error("graph: edge {edge:?} names vertex {vertex}, but the vertices are 0..{vertices}")]
    VertexOutOfRange {
        /// The edge text.
        edge: String,
        /// The vertex.
        vertex: usize,
        /// Number of vertices.
        vertices: usize,
    },
    /// An edge from a vertex to itself.
    #[error("graph: edge {edge:?} is a loop")]
    Loop {
        /// The edge text.
        edge: String,
    },
    /// Graph text that does not follow the documented format.
    #[error("graph: {message}")]
    GraphSyntax {
        /// What is wrong, naming the offending text.
        message: String,
    },
    /// An unknown game name.
    #[error("unknown impartial game {name:?} (try an octal code like 0.07, nim, kayles, dawsons-kayles, sub:1,2,3)")]
    UnknownGame {
        /// The name given.
        name: String,
    },
}
