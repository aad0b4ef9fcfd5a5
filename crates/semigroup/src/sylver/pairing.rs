//! The pairing test: moves into irreducible positions are struck.
//!
//! An irreducible position (gaps pairing off around the largest: symmetric
//! or pseudo-symmetric) other than `<2,3>` is won for the player to move, so
//! a move into one loses and need never be tried. `<2,3>` itself, whose only
//! gap is 1, is lost for the player to move (the only number left is 1), so a
//! move into it wins and is never struck.

use crate::semigroup::Semigroup;

use super::Order;

/// Whether the pairing test strikes a move that reaches `t`: `t` is
/// irreducible and not `<2,3>`.
#[inline]
#[must_use]
pub const fn is_struck(t: Semigroup) -> bool {
    t.is_irreducible() && t.gap_mask() != Semigroup::ONLY_GAP_ONE.gap_mask()
}

/// Whether the test strikes naming `x` in `s`.
#[inline]
#[must_use]
pub fn strikes(s: Semigroup, x: u32) -> bool {
    is_struck(s.adjoin(x))
}

/// The survivors of `s`: its moves the pairing test does not strike, in
/// `order`.
#[must_use]
pub fn survivors(s: Semigroup, order: Order) -> Vec<u32> {
    order.moves(s).filter(|&x| !strikes(s, x)).collect()
}
