//! Toppling Dominoes: a row of standing dominoes, blue (Left's), red
//! (Right's) and green (either player's). A player topples one of the
//! dominoes they may topple, east or west; it falls and takes with it every
//! domino beyond it in that direction, all of which leave the game.
//!
//! Text format: `L` a blue domino, `R` a red one, `G` a green one, `.` (or
//! `#`) a gap; rows separated by `|` or newlines. A gap stops a toppling
//! like the end of the row does, so every maximal run of dominoes in a row
//! is its own game and a board is their sum. Layer 0 holds the blue
//! dominoes, layer 1 the red, layer 2 the green.
//!
//! ```text
//! LRRLL     Left may topple the first L east (leaving nothing) or west
//!           (RRLL), the fourth east (LRR) or west (L), the fifth east
//!           (LRRL) or west (nothing). Value {1|*}.
//! ```

use crate::board::{each_bit, Bits, Board, Player};
use crate::ruleset::{GlyphSpec, Ruleset, RulesetInfo};
use crate::runs;
use crate::transform::{Symmetry, Transform};

/// Toppling Dominoes. Both mirrors and the half turn keep the value (a row
/// read backwards is the same game); the same four with blue and red
/// exchanged negate it. Transposes turn rows into columns and are none.
#[derive(Copy, Clone, Debug, Default)]
pub struct TopplingDominoes;

const SYMMETRIES: [Symmetry; 8] = [
    Symmetry::new(Transform::Identity, false),
    Symmetry::new(Transform::FlipRows, false),
    Symmetry::new(Transform::FlipCols, false),
    Symmetry::new(Transform::Rot180, false),
    Symmetry::new(Transform::Identity, true),
    Symmetry::new(Transform::FlipRows, true),
    Symmetry::new(Transform::FlipCols, true),
    Symmetry::new(Transform::Rot180, true),
];

static INFO: RulesetInfo = RulesetInfo {
    name: "toppling-dominoes",
    aliases: &["toppling", "topplingdominoes", "toppling_dominoes"],
    title: "Toppling Dominoes",
    summary: "A player topples one of their dominoes east or west; it and every domino beyond it in that direction leave the game.",
    glyphs: &[
        GlyphSpec::layer('L', 0, "a blue domino (Left's)"),
        GlyphSpec::layer('R', 1, "a red domino (Right's)"),
        GlyphSpec::layer('G', 2, "a green domino (either player's)"),
        GlyphSpec::hole('.', "a gap: ends the row"),
        GlyphSpec::hole('#', "a gap: ends the row"),
    ],
    edit_cycle: "LRG.",
    fillings: &['L', 'R', 'G'],
    example: "LRRLL|RLG..",
    site_cells: 24,
};

impl Ruleset for TopplingDominoes {
    fn info(&self) -> &'static RulesetInfo {
        &INFO
    }

    fn options<F: FnMut(Board)>(&self, b: &Board, p: Player, mut f: F) {
        let own = match p {
            Player::Left => 0,
            Player::Right => 1,
        };
        let all = b.cells();
        for c in each_bit(b.layer(own) | b.layer(2)) {
            for gone in [runs::run_east(b, c, all), runs::run_west(b, c, all)] {
                f(b.restrict(!gone));
            }
        }
    }

    /// Horizontally adjacent dominoes: a toppling removes a stretch of its
    /// run, joined through them. Dominoes only leave.
    #[inline]
    fn footprints<F: FnMut(Bits)>(&self, b: &Board, f: F) {
        runs::pair_footprints(b, b.cells(), f);
    }

    #[inline]
    fn related(&self, b: &Board, set: Bits) -> Bits {
        runs::pairs_related(b, b.cells(), set)
    }

    #[inline]
    fn cells(&self, b: &Board) -> Bits {
        b.cells()
    }

    fn symmetries(&self) -> &'static [Symmetry] {
        &SYMMETRIES
    }

    #[inline]
    fn apply(&self, b: &Board, s: Symmetry) -> Board {
        s.apply_swapping(b, 0, 1)
    }

    fn only_falls_apart(&self) -> bool {
        true
    }

    fn impartial(&self) -> bool {
        false
    }

    /// A toppling removes an end of its run, never a middle: no run is cut.
    fn may_split(&self, _before: &Board, _after: &Board) -> bool {
        false
    }
}
