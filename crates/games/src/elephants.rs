//! Elephants and Rhinos (the strip game of MCGS, the Alberta sum-of-games
//! solver): Left's elephants step one cell east onto an empty cell,
//! Right's rhinos one cell west. Nobody jumps: Toads and Frogs without its
//! jumps.
//!
//! Text format: `X` an elephant, `O` a rhino, `.` an empty cell, `#` a
//! wall; rows separated by `|` or newlines. Every row is its own strip and
//! a wall ends a strip like its edge does. Layer 0 holds the elephants,
//! layer 1 the rhinos, layer 2 the empty cells (the layers of
//! [`toads`](crate::toads)).
//!
//! ```text
//! X.O.X.X   1* (MCGS's own test says so); Left: .XO.X.X or X.O..XX,
//!           Right: XO..X.X.
//! ```
//!
//! Region relation: an elephant only ever stands on cells at or east of
//! where it is and a rhino at or west, so every move lies in a strip's
//! elephant span (its westmost elephant to its east end) or its rhino span
//! (its west end to its eastmost rhino) — the spans of Toads and Frogs,
//! whose footprints, symmetries and split test this ruleset shares.
//!
//! **Do boards only fall apart?** Yes, and the ruleset says so. A moving
//! piece frees its cell, but that cell stays inside the span it was in:
//! cells never change and spans only shrink, so a partition valid at a
//! position stays valid below it. (Issue 18 wanted a ruleset for which
//! root-only decomposition is refused; this is not one, and declaring
//! `false` would only be a caution, not the truth.)

use crate::board::{each_bit, Bits, Board, Player};
use crate::ruleset::{GlyphSpec, Ruleset, RulesetInfo};
use crate::toads::ToadsAndFrogs;
use crate::transform::Symmetry;

/// Elephants and Rhinos on strips.
#[derive(Copy, Clone, Debug, Default)]
pub struct Elephants;

static INFO: RulesetInfo = RulesetInfo {
    name: "elephants",
    aliases: &["elephants-and-rhinos", "elephants_and_rhinos"],
    title: "Elephants and Rhinos",
    summary:
        "Elephants (Left) step one cell east onto an empty cell, rhinos (Right) one cell west.",
    glyphs: &[
        GlyphSpec::layer('X', 0, "an elephant (Left, steps east)"),
        GlyphSpec::layer('O', 1, "a rhino (Right, steps west)"),
        GlyphSpec::layer('.', 2, "an empty cell"),
        GlyphSpec::hole('#', "a wall: ends the strip"),
    ],
    edit_cycle: "XO.#",
    fillings: &['X', 'O', '.'],
    example: "X.O.X.X",
    site_cells: 24,
};

impl Ruleset for Elephants {
    fn info(&self) -> &'static RulesetInfo {
        &INFO
    }

    fn options<F: FnMut(Board)>(&self, b: &Board, p: Player, mut f: F) {
        let (mine, dc) = match p {
            Player::Left => (0, 1),
            Player::Right => (1, -1),
        };
        let empty = b.layer(2);
        for to in each_bit(b.shift(b.layer(mine), 0, dc) & empty) {
            let from = b.shift(to, 0, -dc);
            let mut layers = b.layers();
            layers[mine] = (layers[mine] & !from) | to;
            layers[2] = (empty & !to) | from;
            f(b.with_layers(layers));
        }
    }

    /// The Toads and Frogs spans (an over-approximation: elephants and
    /// rhinos move like toads and frogs that never jump).
    #[inline]
    fn footprints<F: FnMut(Bits)>(&self, b: &Board, f: F) {
        ToadsAndFrogs.footprints(b, f);
    }

    #[inline]
    fn related(&self, b: &Board, set: Bits) -> Bits {
        ToadsAndFrogs.related(b, set)
    }

    #[inline]
    fn cells(&self, b: &Board) -> Bits {
        b.cells()
    }

    fn symmetries(&self) -> &'static [Symmetry] {
        ToadsAndFrogs.symmetries()
    }

    #[inline]
    fn apply(&self, b: &Board, s: Symmetry) -> Board {
        ToadsAndFrogs.apply(b, s)
    }

    /// Cells never change and the spans only shrink (see the module doc).
    fn only_falls_apart(&self) -> bool {
        true
    }

    fn impartial(&self) -> bool {
        false
    }

    fn may_split(&self, before: &Board, after: &Board) -> bool {
        ToadsAndFrogs.may_split(before, after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_of_the_mcgs_examples() {
        let count = |text: &str, p| {
            let b = Elephants.parse(text).unwrap();
            let mut n = 0;
            Elephants.options(&b, p, |_| n += 1);
            n
        };
        // MCGS's unit tests: simple1, simple2, zero1, zero2, zero4.
        assert_eq!(count("X.X.X.X.O.O.O", Player::Left), 4);
        assert_eq!(count("X.X.X.X.O.O.O", Player::Right), 3);
        assert_eq!(count("X..X.O..O.O", Player::Left), 2);
        assert_eq!(count("X..X.O..O.O", Player::Right), 3);
        assert_eq!(count("XO", Player::Left) + count("XO", Player::Right), 0);
        assert_eq!(count(".....XOXOXOXOXO....", Player::Left), 0);
        assert_eq!(count("X.....XO.....O", Player::Right), 1);
        // MCGS manual1: X..X.X.O.OO.XX.O, Left 3->4, then Right 7->6.
        let b = Elephants.parse("X..X.X.O.OO.XX.O").unwrap();
        let mut after = Vec::new();
        Elephants.options(&b, Player::Left, |o| after.push(Elephants.format(&o)));
        assert!(after.contains(&"X...XX.O.OO.XX.O".to_string()), "{after:?}");
        // Strips end at walls and row ends.
        assert_eq!(count("X#.", Player::Left), 0);
        assert_eq!(count("#X|..", Player::Left), 0);
    }
}
