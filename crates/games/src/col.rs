//! Col: a player colours an empty cell that is not orthogonally next to a cell
//! of their own colour (Left colours blue, Right red).
//!
//! Text format (a tinted grid: coloured cells are gone and each live cell remembers
//! who may still colour it):
//! `.` an empty cell either player may colour, `l` only Left (it is next to Right's colour), `r` only
//! Right, `#` a hole or a dead cell; rows separated by `|` or newlines.
//! Coloured cells may be written `L` (Left's) and `R` (Right's): they are
//! read as holes that tint their neighbours, and print as `#`.
//!
//! ```text
//! L..R      reads as #rl# : the two live cells left after two moves.
//! ```

use crate::board::{Bits, Board, Player};
use crate::error::BoardError;
use crate::ruleset::{GlyphSpec, Ruleset, RulesetInfo};
use crate::tinted::{self, Forbids};
use crate::transform::{Symmetry, GEOMETRIC_AND_COLOUR_SWAP};

/// Col on a grid. The eight geometric symmetries keep the value; the same
/// eight with the tints `l` and `r` exchanged negate it.
#[derive(Copy, Clone, Debug, Default)]
pub struct Col;

static INFO: RulesetInfo = RulesetInfo {
    name: "col",
    aliases: &[],
    title: "Col",
    summary: "A player colours an empty cell that is not next to a cell of their own colour.",
    glyphs: &[
        GlyphSpec::layer('.', 0, "an empty cell either player may colour"),
        GlyphSpec::layer('l', 1, "an empty cell only Left may colour"),
        GlyphSpec::layer('r', 2, "an empty cell only Right may colour"),
        GlyphSpec::hole('#', "a hole, or a cell nobody may colour"),
        GlyphSpec::hole(
            'L',
            "a cell Left coloured (read as a hole; tints its neighbours)",
        ),
        GlyphSpec::hole(
            'R',
            "a cell Right coloured (read as a hole; tints its neighbours)",
        ),
    ],
    edit_cycle: ".lr#",
    fillings: &['.', 'l', 'r'],
    example: "....|....|....",
    site_cells: 20,
};

impl Ruleset for Col {
    fn info(&self) -> &'static RulesetInfo {
        &INFO
    }

    /// Reads `L` and `R` as coloured cells (see the module doc).
    fn parse(&self, text: &str) -> Result<Board, BoardError> {
        tinted::parse(text, INFO.name, Forbids::Own)
    }

    #[inline]
    fn options<F: FnMut(Board)>(&self, b: &Board, p: Player, f: F) {
        tinted::options(Forbids::Own, b, p, f);
    }

    #[inline]
    fn footprints<F: FnMut(Bits)>(&self, b: &Board, f: F) {
        tinted::footprints(b, f);
    }

    #[inline]
    fn related(&self, b: &Board, set: Bits) -> Bits {
        tinted::related(b, set)
    }

    #[inline]
    fn cells(&self, b: &Board) -> Bits {
        b.cells()
    }

    fn symmetries(&self) -> &'static [Symmetry] {
        &GEOMETRIC_AND_COLOUR_SWAP
    }

    #[inline]
    fn apply(&self, b: &Board, s: Symmetry) -> Board {
        let t = b.transform(s.transform);
        if s.negates {
            t.swap_layers(1, 2)
        } else {
            t
        }
    }

    /// Live cells only die.
    fn only_falls_apart(&self) -> bool {
        true
    }

    fn impartial(&self) -> bool {
        false
    }

    fn may_split(&self, before: &Board, after: &Board) -> bool {
        tinted::may_split(before, after)
    }
}
