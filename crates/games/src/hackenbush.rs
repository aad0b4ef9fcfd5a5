//! Hackenbush strings: each string is a path of edges standing on the
//! ground, blue (Left may cut), red (Right may cut) or green (either may).
//! Cutting an edge removes it and every edge above it, which has lost its
//! connection to the ground.
//!
//! Text format: `L` a blue edge, `R` a red one, `G` a green one, `.` (or
//! `#`) no edge; rows separated by `|` or newlines. Every maximal run of
//! edges in a row is one string, grounded at its west end and read
//! eastwards (the first letter touches the ground), so a board is a sum of
//! strings. Layer 0 holds the blue edges, layer 1 the red, layer 2 the
//! green. Hackenbush on arbitrary graphs does not fit a grid and is not
//! here.
//!
//! ```text
//! LLR       2 - 1/2 = 3/2 (Berlekamp's rule for blue-red strings)
//! GGG       *3 (a green string of n edges is the nimber *n)
//! ```

use crate::board::{each_bit, Bits, Board, Player};
use crate::ruleset::{GlyphSpec, Ruleset, RulesetInfo};
use crate::runs;
use crate::transform::{Symmetry, Transform};

/// Hackenbush strings. A row mirror keeps the value; the same with blue and
/// red exchanged negates it. Column mirrors would move the ground and are
/// no symmetry.
#[derive(Copy, Clone, Debug, Default)]
pub struct HackenbushStrings;

const SYMMETRIES: [Symmetry; 4] = [
    Symmetry::new(Transform::Identity, false),
    Symmetry::new(Transform::FlipRows, false),
    Symmetry::new(Transform::Identity, true),
    Symmetry::new(Transform::FlipRows, true),
];

static INFO: RulesetInfo = RulesetInfo {
    name: "hackenbush",
    aliases: &["hackenbush-strings", "hackenbush_strings"],
    title: "Hackenbush strings",
    summary: "A player cuts an edge of their colour (green: either's); it and every edge above it on its string are gone.",
    glyphs: &[
        GlyphSpec::layer('L', 0, "a blue edge (Left's)"),
        GlyphSpec::layer('R', 1, "a red edge (Right's)"),
        GlyphSpec::layer('G', 2, "a green edge (either player's)"),
        GlyphSpec::hole('.', "no edge: ends the string"),
        GlyphSpec::hole('#', "no edge: ends the string"),
    ],
    edit_cycle: "LRG.",
    fillings: &['L', 'R', 'G'],
    example: "LLR|RL.|GG.",
    site_cells: 24,
};

impl Ruleset for HackenbushStrings {
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
            f(b.restrict(!runs::run_east(b, c, all)));
        }
    }

    /// Adjacent edges of a string: a cut removes a top stretch of its
    /// string, joined through them. Edges only go.
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

    /// A cut removes the top of its string, never a middle.
    fn may_split(&self, _before: &Board, _after: &Board) -> bool {
        false
    }
}
