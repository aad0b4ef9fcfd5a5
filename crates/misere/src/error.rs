//! The one error type of the crate.

use thiserror::Error;

/// What can go wrong: bad input, or a computation that outgrew its budget
/// (a budget running out is an error only where an answer was demanded;
/// the quotient search reports it as an outcome, see
/// [`crate::quotient::Stability`]).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MisereError {
    /// A game description the impartial crate refused.
    #[error(transparent)]
    Game(#[from] partizan_impartial::ImpartialError),
    /// The arena of canonical forms would pass its size limit.
    #[error("misère canonical forms need more than {limit} distinct games (raise the limit)")]
    TooManyGames {
        /// The limit on interned canonical forms.
        limit: usize,
    },
    /// A position search visited more positions than allowed.
    #[error("the search needs more than {limit} positions (raise the limit)")]
    TooManyPositions {
        /// The limit on positions.
        limit: usize,
    },
    /// A heap larger than the computation covers.
    #[error("heap {heap} is past the largest heap computed ({max})")]
    HeapOutOfRange {
        /// The heap asked about.
        heap: usize,
        /// The largest heap known.
        max: usize,
    },
    /// A game this engine does not play (a ruleset that is not impartial, a
    /// game without a finite description).
    #[error("{0}")]
    Unsupported(String),
}
