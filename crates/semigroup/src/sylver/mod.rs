//! Sylver Coinage on positions with finitely many gaps.
//!
//! Players name positive integers in turn; a number that is a sum of numbers
//! already named may not be named, and whoever names 1 loses. After the
//! first few moves the named numbers have gcd 1 and the position is a
//! numerical semigroup `S` (the sums of the named numbers); the numbers
//! still available are its gaps, and naming `x` moves to `<S, x>`
//! ([`Semigroup::adjoin`]).
//!
//! # Conventions
//!
//! * **1 is never a move.** Naming 1 loses at once, so it is left out of
//!   every move list; a position whose only gap is 1 (`<2,3>`) has no moves
//!   and is lost for the player to move. "Won" always means won for the
//!   player to move.
//! * **The pairing test** ([`pairing`]): a position whose gaps pair off around
//!   the largest (an irreducible semigroup: symmetric or pseudo-symmetric),
//!   other than `<2,3>`, is won for the player to move (Hutchings; checked
//!   against brute force in the tests). So moving *into* one loses, and the
//!   test *strikes* every move that does. Moves the test does not strike are
//!   *survivors*.
//! * **One closure per move examined.** Every search is charged one closure
//!   for each move it examines, struck or not: the closure `<S, x>` must be
//!   built before the test can strike it, and a memo hit on the resulting
//!   position is still a move examined. Closures computed only to check a
//!   result are not charged.
//! * **Depths count moves**, both players': a proof at depth 1 is a survivor
//!   whose every reply is struck, depth 3 adds a reply and an answer, and so
//!   on. The opponent's struck replies are settled (they lose), not counted.
//! * **Positions and evaluations.** A search's *positions* are the distinct
//!   positions it evaluated (looked at the moves of); its *evaluations* the
//!   number of times it did so. The finishing search evaluates each position
//!   once; a depth-bounded proof may evaluate one position at several depths.

pub mod census;
pub mod finish;
pub mod order;
pub mod pairing;
pub mod proofs;
pub mod remoteness;
pub mod trace;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde::Serialize;

pub use order::{MoveList, Moves, Order};

/// What a search did: the figures the essays count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SearchCounts {
    /// Closures `<S, x>` computed, one per move examined.
    pub closures: u64,
    /// Distinct positions evaluated.
    pub positions: u64,
    /// Evaluations (a position evaluated at two depths counts twice).
    pub evaluations: u64,
}

impl SearchCounts {
    /// Evaluations per distinct position (0 when nothing was evaluated).
    #[must_use]
    pub fn evaluations_per_position(&self) -> f64 {
        if self.positions == 0 {
            0.0
        } else {
            self.evaluations as f64 / self.positions as f64
        }
    }
}

/// An optional stop flag a search watches (raised from another thread, for
/// Ctrl-C in a front end); once raised, the search's answers are
/// meaningless and must be discarded.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Option<Arc<AtomicBool>>);

impl StopFlag {
    /// A flag watching `stop`.
    #[must_use]
    pub fn new(stop: Arc<AtomicBool>) -> StopFlag {
        StopFlag(Some(stop))
    }

    /// Whether the flag was raised.
    #[must_use]
    pub fn raised(&self) -> bool {
        self.0.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
    }
}
