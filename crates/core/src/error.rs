//! Error types of the value engine.

use thiserror::Error;

/// An arithmetic or construction failure: a value outside the exact range the
/// engine represents, or an argument that does not name a game of the arena.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ValueError {
    /// A dyadic numerator left the `i64` range.
    #[error("dyadic rational overflow (numerator outside the 64-bit range)")]
    Overflow,
    /// A dyadic denominator exponent above [`crate::dyadic::MAX_EXP`].
    #[error(
        "dyadic rational needs a denominator above 2^{}",
        crate::dyadic::MAX_EXP
    )]
    ExponentTooLarge,
    /// A number whose canonical form would be too large to intern (integer
    /// part above [`crate::game::MAX_INTEGER`] in magnitude), or an up
    /// multiple above [`crate::game::MAX_UP`].
    #[error("{0} is too large to build as a canonical form")]
    TooLarge(String),
    /// A [`crate::GameId`] that does not belong to this arena.
    #[error("game id {0} does not belong to this arena")]
    InvalidId(u32),
}

/// A syntax error in CGSuite notation, naming the byte offset where it was found.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("parse error at byte {offset}: {message}")]
pub struct ParseError {
    /// Byte offset into the input string.
    pub offset: usize,
    /// What was wrong there.
    pub message: String,
}

impl ParseError {
    /// Builds an error at `offset`.
    pub fn new(offset: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            offset,
            message: message.into(),
        }
    }
}

/// A failure to decode a serialised game (see [`crate::serial`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DecodeError {
    /// The input ended in the middle of an item.
    #[error("truncated input at byte {0}")]
    Truncated(usize),
    /// The input does not start with the expected magic bytes.
    #[error("not a partizan game encoding (bad magic)")]
    BadMagic,
    /// The format version is newer (or otherwise unknown) than this build reads.
    #[error("unsupported encoding version {0}")]
    UnsupportedVersion(u8),
    /// The bytes are well framed but describe no valid canonical form.
    #[error("corrupt input at byte {offset}: {message}")]
    Corrupt {
        /// Byte offset of the offending item.
        offset: usize,
        /// What was wrong.
        message: String,
    },
    /// Building the value failed.
    #[error("value error while decoding: {0}")]
    Value(#[from] ValueError),
}

/// An operation of the toolkit (atomic weight, cooling, ...) that is not
/// defined on its input, or whose arithmetic left the exact range.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OpError {
    /// Atomic weight asked of a game whose stops are not both zero.
    #[error("atomic weight is defined only for infinitesimals, and {0} has stops {1} and {2}")]
    NotInfinitesimal(String, String, String),
    /// Atomic weight asked of an infinitesimal that is not atomic
    /// (it differs from its naive weight times up by more than `^*` plus a
    /// remote kite: CGSuite's test).
    #[error("{0} is infinitesimal but not atomic")]
    NotAtomic(String),
    /// Cooling (or freezing) at a temperature at or below `-1`.
    #[error("cooling is defined only above temperature -1, not at {0}")]
    CoolingTemperature(String),
    /// Arithmetic failure underneath.
    #[error(transparent)]
    Value(#[from] ValueError),
}
