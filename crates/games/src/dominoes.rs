//! Move generation shared by the domino-placing games (Domineering, Cram):
//! layer 0 holds the empty cells and a move covers two adjacent ones.

use crate::board::{each_bit, Bits, Board};
use crate::ruleset::GlyphSpec;

/// The board glyphs of the domino games: `.` empty, `#` blocked.
pub(crate) const GLYPHS: &[GlyphSpec] = &[
    GlyphSpec::layer('.', 0, "an empty cell"),
    GlyphSpec::hole('#', "a blocked cell"),
];

/// Top cells of the vertical pairs inside `e`.
#[inline]
pub(crate) fn vertical_pairs(b: &Board, e: Bits) -> Bits {
    let w = b.width();
    if w == 0 || w >= 128 {
        return 0;
    }
    e & (e >> w)
}

/// Left cells of the horizontal pairs inside `e`.
#[inline]
pub(crate) fn horizontal_pairs(b: &Board, e: Bits) -> Bits {
    e & (e >> 1) & b.not_last_col()
}

/// Top cells of the vertical dominoes that fit on the empty cells.
#[inline]
pub(crate) fn vertical_tops(b: &Board) -> Bits {
    vertical_pairs(b, b.layer(0))
}

/// Left cells of the horizontal dominoes that fit on the empty cells.
#[inline]
pub(crate) fn horizontal_lefts(b: &Board) -> Bits {
    horizontal_pairs(b, b.layer(0))
}

/// Stream the boards after placing each vertical domino.
#[inline]
pub(crate) fn place_vertical<F: FnMut(Board)>(b: &Board, f: &mut F) {
    let e = b.layer(0);
    let w = b.width();
    for bit in each_bit(vertical_tops(b)) {
        f(b.with_layers([e & !(bit | (bit << w)), 0, 0]));
    }
}

/// Stream the boards after placing each horizontal domino.
#[inline]
pub(crate) fn place_horizontal<F: FnMut(Board)>(b: &Board, f: &mut F) {
    let e = b.layer(0);
    for bit in each_bit(horizontal_lefts(b)) {
        f(b.with_layers([e & !(bit | (bit << 1)), 0, 0]));
    }
}

/// Stream the boards after placing each domino of one direction (vertical
/// or horizontal) until `f` returns `false`; whether all were seen.
#[inline]
pub(crate) fn place_while<F: FnMut(Board) -> bool>(b: &Board, vertical: bool, f: &mut F) -> bool {
    let e = b.layer(0);
    let (tops, step) = if vertical {
        (vertical_tops(b), b.width())
    } else {
        (horizontal_lefts(b), 1)
    };
    each_bit(tops).all(|bit| f(b.with_layers([e & !(bit | (bit << step)), 0, 0])))
}

/// Every domino that fits now (cells only fill up, so none can appear
/// later): each one's two cells.
#[inline]
pub(crate) fn footprints<F: FnMut(Bits)>(b: &Board, f: F) {
    pair_footprints(b, b.layer(0), f);
}

/// Shift-based twin of the footprint-derived related set when the
/// footprints are all orthogonally adjacent pairs inside `e`.
#[inline]
pub(crate) fn pairs_related(b: &Board, e: Bits, set: Bits) -> Bits {
    let w = b.width();
    let v = vertical_pairs(b, e);
    let h = horizontal_pairs(b, e);
    let vt = set & v;
    let ht = set & h;
    let hb = set & (h << 1);
    let (down, vb, up) = if w == 0 || w >= 128 {
        (0, 0, 0)
    } else {
        let vb = set & (v << w);
        (vt << w, vb, vb >> w)
    };
    vt | down | vb | up | ht | (ht << 1) | hb | (hb >> 1)
}

/// Shift-based twin of the footprint-derived related set.
#[inline]
pub(crate) fn related(b: &Board, set: Bits) -> Bits {
    pairs_related(b, b.layer(0), set)
}

/// Every orthogonally adjacent pair inside `e`.
#[inline]
pub(crate) fn pair_footprints<F: FnMut(Bits)>(b: &Board, e: Bits, mut f: F) {
    let w = b.width();
    for bit in each_bit(vertical_pairs(b, e)) {
        f(bit | (bit << w));
    }
    for bit in each_bit(horizontal_pairs(b, e)) {
        f(bit | (bit << 1));
    }
}

/// Local test for a placement: the covered cells' remaining four-neighbours
/// are joined inside the box around the domino, so no region was cut.
pub(crate) fn may_split(before: &Board, after: &Board) -> bool {
    let covered = before.layer(0) & !after.layer(0);
    after.may_disconnect(covered, after.layer(0), false)
}
