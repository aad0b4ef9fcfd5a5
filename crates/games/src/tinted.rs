//! Placement on a *tinted* grid, shared by Snort and Col: a player colours
//! one empty cell, and the colour constrains the cell's four neighbours.
//! Coloured cells themselves never matter again, so a position is kept as
//! its live cells and what each still allows (the "tinted graph" of
//! Winning Ways): layer 0 a cell either player may colour, layer 1 a cell
//! only Left may colour, layer 2 a cell only Right may colour. A cell
//! neither may colour is dead and becomes a hole.
//!
//! Text: `.`, `l`, `r` for the three layers, `#` for a hole; the input may
//! also hold coloured cells `L` (Left's) and `R` (Right's), which are read
//! as holes that tint their live neighbours by the ruleset's rule, so
//! `L..` reads as `#l.` in Snort and `#r.` in Col.

use crate::board::{each_bit, Bits, Board, Player};
use crate::dominoes;
use crate::error::BoardError;
use crate::ruleset::{parse_grid, Glyph};

/// Which player a coloured cell forbids from its neighbours: the opponent
/// (Snort) or the colourer (Col).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) enum Forbids {
    /// Snort: no cell next to the opponent's colour.
    Opponent,
    /// Col: no cell next to your own colour.
    Own,
}

/// The player a colour of `p` forbids from its neighbours.
#[inline]
pub(crate) fn forbidden(rule: Forbids, p: Player) -> Player {
    match rule {
        Forbids::Opponent => p.opponent(),
        Forbids::Own => p,
    }
}

/// Forbid `who` on the live cells of `near`: an open cell becomes the other
/// player's alone, a cell only `who` could take dies.
#[inline]
pub(crate) fn forbid(layers: [Bits; 3], near: Bits, who: Player) -> [Bits; 3] {
    let [open, left, right] = layers;
    match who {
        Player::Right => [open & !near, left | (open & near), right & !near],
        Player::Left => [open & !near, left & !near, right | (open & near)],
    }
}

/// Stream the boards after each colouring by `p`.
#[inline]
pub(crate) fn options<F: FnMut(Board)>(rule: Forbids, b: &Board, p: Player, mut f: F) {
    let own = match p {
        Player::Left => b.layer(1),
        Player::Right => b.layer(2),
    };
    let who = forbidden(rule, p);
    for c in each_bit(b.layer(0) | own) {
        let near = b.neighbours4(c);
        let layers = b.layers().map(|l| l & !c);
        f(b.with_layers(forbid(layers, near, who)));
    }
}

/// Every orthogonally adjacent pair of live cells: a colouring writes its
/// cell and the tints of its neighbours (pieces of the star, joined at the
/// coloured cell). Cells only die, so no pair appears later.
#[inline]
pub(crate) fn footprints<F: FnMut(Bits)>(b: &Board, f: F) {
    dominoes::pair_footprints(b, b.cells(), f);
}

/// Shift-based twin of the related set derived from [`footprints`].
#[inline]
pub(crate) fn related(b: &Board, set: Bits) -> Bits {
    dominoes::pairs_related(b, b.cells(), set)
}

/// A colouring removes its cell and perhaps kills neighbours; only a cut
/// through the cells removed can split.
pub(crate) fn may_split(before: &Board, after: &Board) -> bool {
    let removed = before.cells() & !after.cells();
    after.may_disconnect(removed, after.cells(), false)
}

/// Parse tinted text, reading `L` and `R` as coloured cells (see the module
/// doc); errors name `ruleset` and the row and column.
pub(crate) fn parse(text: &str, ruleset: &'static str, rule: Forbids) -> Result<Board, BoardError> {
    let pieces = parse_grid(text, ruleset, |ch| match ch {
        'L' => Glyph::Layer(0),
        'R' => Glyph::Layer(1),
        '.' | 'l' | 'r' | '#' => Glyph::Hole,
        'x' | 'o' => Glyph::Foreign("stones"),
        _ => Glyph::Unknown,
    })?;
    let tinted = parse_grid(text, ruleset, |ch| match ch {
        '.' => Glyph::Layer(0),
        'l' => Glyph::Layer(1),
        'r' => Glyph::Layer(2),
        _ => Glyph::Hole,
    })?;
    let mut layers = tinted.layers();
    for p in Player::BOTH {
        let colour = match p {
            Player::Left => pieces.layer(0),
            Player::Right => pieces.layer(1),
        };
        let near = tinted.neighbours4(colour);
        layers = forbid(layers, near, forbidden(rule, p));
    }
    Board::new(tinted.width(), tinted.height(), layers)
}

/// The board glyphs of the tinted placement games (Snort, Col).
pub(crate) const GLYPHS: &[crate::ruleset::GlyphSpec] = &[
    crate::ruleset::GlyphSpec::layer('.', 0, "an empty cell either player may colour"),
    crate::ruleset::GlyphSpec::layer('l', 1, "an empty cell only Left may colour"),
    crate::ruleset::GlyphSpec::layer('r', 2, "an empty cell only Right may colour"),
    crate::ruleset::GlyphSpec::hole('#', "a hole, or a cell nobody may colour"),
    crate::ruleset::GlyphSpec::hole(
        'L',
        "a cell Left coloured (read as a hole; tints its neighbours)",
    ),
    crate::ruleset::GlyphSpec::hole(
        'R',
        "a cell Right coloured (read as a hole; tints its neighbours)",
    ),
];

/// The [`Ruleset`](crate::Ruleset) of a tinted placement game: everything
/// but which neighbours forbid a move is shared, so Snort and Col are each
/// their description and this one line.
macro_rules! tinted_ruleset {
    ($ty:ty, $rule:expr, $info:expr) => {
        impl $crate::ruleset::Ruleset for $ty {
            fn info(&self) -> &'static $crate::ruleset::RulesetInfo {
                &$info
            }

            fn rectangle(&self, rows: usize, cols: usize) -> Option<String> {
                Some($crate::ruleset::empty_rectangle(rows, cols))
            }

            /// Reads `L` and `R` as coloured cells (see the module doc).
            fn parse(&self, text: &str) -> Result<$crate::board::Board, $crate::error::BoardError> {
                $crate::tinted::parse(text, $info.name, $rule)
            }

            #[inline]
            fn options<F: FnMut($crate::board::Board)>(
                &self,
                b: &$crate::board::Board,
                p: $crate::board::Player,
                f: F,
            ) {
                $crate::tinted::options($rule, b, p, f);
            }

            #[inline]
            fn footprints<F: FnMut($crate::board::Bits)>(&self, b: &$crate::board::Board, f: F) {
                $crate::tinted::footprints(b, f);
            }

            #[inline]
            fn related(
                &self,
                b: &$crate::board::Board,
                set: $crate::board::Bits,
            ) -> $crate::board::Bits {
                $crate::tinted::related(b, set)
            }

            #[inline]
            fn cells(&self, b: &$crate::board::Board) -> $crate::board::Bits {
                b.cells()
            }

            fn symmetries(&self) -> &'static [$crate::transform::Symmetry] {
                &$crate::transform::GEOMETRIC_AND_COLOUR_SWAP
            }

            #[inline]
            fn apply(
                &self,
                b: &$crate::board::Board,
                s: $crate::transform::Symmetry,
            ) -> $crate::board::Board {
                s.apply_swapping(b, 1, 2)
            }

            /// Live cells only die.
            fn only_falls_apart(&self) -> bool {
                true
            }

            fn impartial(&self) -> bool {
                false
            }

            fn may_split(
                &self,
                before: &$crate::board::Board,
                after: &$crate::board::Board,
            ) -> bool {
                $crate::tinted::may_split(before, after)
            }
        }
    };
}
pub(crate) use tinted_ruleset;
