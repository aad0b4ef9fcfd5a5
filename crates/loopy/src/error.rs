//! The one error type of the crate.

use thiserror::Error;

/// What can go wrong: bad notation, a game that is not what an operation
/// needs, or a computation past its budget.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LoopyError {
    /// Notation that does not parse, with the byte offset.
    #[error("parse error at byte {offset}: {message}")]
    Parse {
        /// Where.
        offset: usize,
        /// What.
        message: String,
    },
    /// An operation that needs a stopper was given a game that is not one.
    #[error("{0} is not a stopper (some play alternates forever), and {1} needs one")]
    NotStopper(String, &'static str),
    /// A graph past the size limit.
    #[error("the game graph needs more than {limit} positions (raise the limit)")]
    TooLarge {
        /// The limit on positions.
        limit: usize,
    },
    /// A board a ruleset cannot read.
    #[error("bad board: {0}")]
    Board(String),
    /// A short part the normal-play engine refused.
    #[error("{0}")]
    Value(String),
}
