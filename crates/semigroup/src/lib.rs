//! Numerical semigroups, the tree of semigroups, and Sylver Coinage.
//!
//! * [`Semigroup`]: a numerical semigroup stored by its gaps as a `u128`
//!   bitset (every semigroup of genus up to 64 fits, since `F <= 2g - 1`),
//!   with genus, Frobenius number, multiplicity, conductor, minimal
//!   generators, the symmetric / pseudo-symmetric / irreducible tests and
//!   the closure `<S, x>` by shifts and ORs of the word
//!   ([`Semigroup::adjoin`]).
//! * [`tree`]: the depth-first walk of the tree of semigroups, counting
//!   every semigroup by genus ([`count_by_genus`]) with bit-sliced
//!   decomposition numbers, closed-form counting of the last levels, and
//!   threads sharing work on demand ([`tree::count_by_genus_on`]).
//! * [`sylver`]: Sylver Coinage: the pairing test, the finishing search,
//!   the four depth-bounded proofs, remoteness, and the census
//!   ([`census`], [`outcomes`], [`play`]).
//!
//! # Counting conventions (pinned by the tests)
//!
//! These are the readings of the essay *A different question at every
//! depth* under which every one of its figures comes out (see
//! `tests/census.rs`):
//!
//! * **Moves.** The moves of a position are its gaps other than 1 (naming 1
//!   loses, so it is never listed). `<2,3>` (only the gap 1) has no moves and
//!   is lost for the player to move.
//! * **Struck.** The pairing test strikes a move whose position is
//!   irreducible (symmetric or pseudo-symmetric) and not `<2,3>`: such a
//!   position is won for the player to move *next*, so moving into it loses.
//!   Checked against a brute-force twin on every position of genus up to 13.
//! * **Closures.** One closure per move *examined*, in the search's order,
//!   whether the pairing test then strikes it or not, and whether or not the
//!   position it reaches is already in the table. Nothing else is charged:
//!   table look-ups, the irreducibility test, and the closures used to check
//!   a returned move are free.
//! * **Finishing search.** Memoised on positions (one table per census
//!   position), stops at the first winning move, never recurses into a struck
//!   move.
//! * **Depth.** A proof's depth counts moves of both players: depth 1 is a
//!   survivor whose every reply is struck; depth `d + 2` is a survivor whose
//!   every surviving reply leads to a position proved within `d`. The fresh
//!   proof's table is keyed on (position, depth left) and cleared at each new
//!   depth; the opponent's turn is walked inline (not memoised) in the fresh
//!   and kept proofs. The proof depth of a position is the first odd depth
//!   that proves it.
//! * **Positions, evaluations.** A search's positions are the distinct
//!   positions whose moves it looked at (both players' positions for the
//!   proofs); evaluations count every such look (the told proof may look at
//!   one position at several depths).
//! * **Medians** of an even number of values are the mean of the middle two;
//!   ratios are medians of per-position ratios.
//!
//! # Bad input
//!
//! Constructors and parsers return [`SemigroupError`]: an empty list, a
//! non-numeric, negative, zero or too-large entry, generators with a common
//! divisor (infinitely many gaps: only numerical semigroups are supported), a
//! gap at or beyond 128 (beyond the representation), a gap list whose
//! complement is not closed under addition, and a genus beyond what an
//! operation supports.

pub mod bits;
pub mod error;
pub mod semigroup;
pub mod sylver;
pub mod tree;

pub use error::SemigroupError;
pub use semigroup::Semigroup;
pub use sylver::census::{
    census, census_until, census_with, outcomes, play, play_until, CensusReport, CensusSummary,
    Outcome, OutcomesReport, PlayReport,
};
pub use sylver::trace::{trace, TraceReport};
pub use sylver::Order;
pub use tree::{count_by_genus, count_by_genus_on, for_each_semigroup, ThreadWork, TreeCount};
