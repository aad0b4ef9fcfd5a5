//! Typed errors for everything that takes user input.

use thiserror::Error;

/// Why a semigroup, a position or a request could not be built.
///
/// Every message is one line, so a binary can print it as is (the CLI maps
/// every variant to exit code 2).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SemigroupError {
    /// The text was empty or held no numbers.
    #[error("no numbers given: expected a comma-separated list such as \"5,7\"")]
    Empty,
    /// A list entry is not a whole number.
    #[error("\"{0}\" is not a whole number: expected a comma-separated list such as \"5,7\"")]
    NotANumber(String),
    /// A list entry does not fit in 64 bits.
    #[error("{0} is too large: numbers must be below 2^64")]
    TooLarge(String),
    /// A list entry is negative.
    #[error("{0} is negative: generators and gaps are positive integers")]
    Negative(String),
    /// A generator was 0, which generates nothing.
    #[error("0 is not a valid generator: generators are positive integers")]
    ZeroGenerator,
    /// A gap was 0, which belongs to every semigroup.
    #[error("0 cannot be a gap: every semigroup contains 0")]
    ZeroGap,
    /// The generators share a divisor, so infinitely many numbers are left out.
    #[error(
        "generators have common divisor {0}, so infinitely many numbers are gaps; \
         only numerical semigroups (generators with gcd 1, finitely many gaps) are supported"
    )]
    CommonDivisor(u64),
    /// The semigroup has a gap at or above 128, beyond the 128-bit gap set.
    #[error(
        "the semigroup has gap {0}, beyond the representation: gaps must be below 128 \
         (every semigroup of genus up to 64 fits)"
    )]
    BeyondRepresentation(u64),
    /// A set of gaps whose complement is not closed under addition.
    #[error("{gap} cannot be a gap: it is {a} + {b}, a sum of non-gaps")]
    NotClosed {
        /// The offending gap.
        gap: u32,
        /// A non-gap summand.
        a: u32,
        /// The other non-gap summand.
        b: u32,
    },
    /// A genus bound beyond what a walk or a census supports.
    #[error("genus {requested} is beyond the supported maximum of {max}")]
    GenusTooLarge {
        /// The genus asked for.
        requested: u32,
        /// The largest genus supported by this operation.
        max: u32,
    },
    /// The position has no gaps: 1 has already been named and the game is over.
    #[error("the position has no gaps: 1 has been named and the game is over")]
    GameOver,
    /// A proof was asked of a position lost for the player to move.
    #[error("the position with gaps {{{position}}} is lost for the player to move: there is no proof to trace")]
    Lost {
        /// The position's gaps, comma-separated.
        position: String,
    },
    /// A check the census or the outcome table asserts failed: it refuses to
    /// report.
    #[error("invariant failed ({invariant}) at the position with gaps {{{position}}}")]
    InvariantFailed {
        /// The invariant, in words.
        invariant: String,
        /// The position's gaps, comma-separated.
        position: String,
    },
    /// A move-order name that is not one of `increasing`, `decreasing`,
    /// `scored`, `reverse-scored`.
    #[error(
        "unknown move order \"{0}\": expected increasing, decreasing, scored or reverse-scored"
    )]
    UnknownOrder(String),
}
