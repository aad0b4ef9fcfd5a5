//! Helpers shared by the games played along rows (Toads and Frogs,
//! Toppling Dominoes, Hackenbush strings): a *run* is a maximal horizontal
//! stretch of cells of some set, and the footprints are horizontally
//! adjacent pairs.

use crate::board::{each_bit, Bits, Board};

/// Left cells of the horizontally adjacent pairs inside `e`.
#[inline]
pub(crate) fn pairs(b: &Board, e: Bits) -> Bits {
    e & (e >> 1) & b.not_last_col()
}

/// Every horizontally adjacent pair inside `e`.
#[inline]
pub(crate) fn pair_footprints<F: FnMut(Bits)>(b: &Board, e: Bits, mut f: F) {
    for bit in each_bit(pairs(b, e)) {
        f(bit | (bit << 1));
    }
}

/// The union of the horizontal pairs inside `e` that meet `set`: the
/// shift-based twin of the related set derived from [`pair_footprints`].
#[inline]
pub(crate) fn pairs_related(b: &Board, e: Bits, set: Bits) -> Bits {
    let h = pairs(b, e);
    let left = set & h;
    let right = set & (h << 1);
    left | (left << 1) | right | (right >> 1)
}

/// `bit` and every cell of `within` east of it in the same run.
#[inline]
pub(crate) fn run_east(b: &Board, bit: Bits, within: Bits) -> Bits {
    let mut out = bit;
    let mut cur = bit;
    let inner = b.not_last_col();
    loop {
        let next = ((cur & inner) << 1) & within;
        if next == 0 {
            return out;
        }
        out |= next;
        cur = next;
    }
}

/// `bit` and every cell of `within` west of it in the same run.
#[inline]
pub(crate) fn run_west(b: &Board, bit: Bits, within: Bits) -> Bits {
    let mut out = bit;
    let mut cur = bit;
    let inner = b.not_first_col();
    loop {
        let next = ((cur & inner) >> 1) & within;
        if next == 0 {
            return out;
        }
        out |= next;
        cur = next;
    }
}
