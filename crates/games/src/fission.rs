//! Fission: stones on a grid split. Left takes a stone whose cells directly
//! above and below are both empty, removes it and puts one stone on each of
//! them; Right does the same with the cells directly west and east. (The
//! game as CGSuite and cgt-tools define it.)
//!
//! Text format: `x` a stone, `.` an empty cell, `#` a blocked cell; rows
//! separated by `|` or newlines. Layer 0 holds the stones, layer 1 the
//! empty cells. Every move adds a stone, so play ends.
//!
//! ```text
//! ...
//! .x.       Left: x.x stacked (.x.|...|.x.); Right: ...|x.x|...
//! ...
//! ```
//!
//! Region relation: stones travel anywhere inside the connected part of
//! the board they stand in, so the footprints are the adjacent pairs of
//! cells in the parts that hold a stone. Parts without a stone never see a
//! move. Cells never change and stones never leave their part, so regions
//! never change.

use crate::board::{each_bit, flood, Bits, Board, Player};
use crate::dominoes;
use crate::ruleset::{GlyphSpec, Ruleset, RulesetInfo};
use crate::transform::Symmetry;

/// Fission. The four symmetries that keep rows as rows keep the value; the
/// four that exchange rows and columns exchange the players and negate it.
#[derive(Copy, Clone, Debug, Default)]
pub struct Fission;

const SYMMETRIES: [Symmetry; 8] = crate::transform::AXIS_SWAP_NEGATES;

static INFO: RulesetInfo = RulesetInfo {
    name: "fission",
    aliases: &[],
    title: "Fission",
    summary: "A stone splits in two onto the empty cells either side of it: above and below for Left, west and east for Right.",
    glyphs: &[
        GlyphSpec::layer('x', 0, "a stone"),
        GlyphSpec::layer('.', 1, "an empty cell"),
        GlyphSpec::hole('#', "a blocked cell"),
    ],
    edit_cycle: "x.#",
    fillings: &['x', '.'],
    example: "....|..x.|....|....",
    site_cells: 20,
};

impl Fission {
    /// Cells in the parts of the board (four-connected) that hold a stone.
    #[inline]
    fn live(b: &Board) -> Bits {
        flood(b.layer(0), b.cells(), |s| b.neighbours4(s))
    }
}

impl Ruleset for Fission {
    fn info(&self) -> &'static RulesetInfo {
        &INFO
    }

    fn options<F: FnMut(Board)>(&self, b: &Board, p: Player, mut f: F) {
        let (dr, dc) = match p {
            Player::Left => (1, 0),
            Player::Right => (0, 1),
        };
        let s = b.layer(0);
        let e = b.layer(1);
        // Stones with an empty cell on both sides along the player's axis.
        let movers = s & b.shift(e, -dr, -dc) & b.shift(e, dr, dc);
        for c in each_bit(movers) {
            let pair = b.shift(c, dr, dc) | b.shift(c, -dr, -dc);
            f(b.with_layers([(s & !c) | pair, (e & !pair) | c, 0]));
        }
    }

    #[inline]
    fn footprints<F: FnMut(Bits)>(&self, b: &Board, f: F) {
        dominoes::pair_footprints(b, Fission::live(b), f);
    }

    #[inline]
    fn related(&self, b: &Board, set: Bits) -> Bits {
        dominoes::pairs_related(b, Fission::live(b), set)
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
        b.transform(s.transform)
    }

    fn only_falls_apart(&self) -> bool {
        true
    }

    fn impartial(&self) -> bool {
        false
    }

    /// Regions never change (see the module doc).
    fn may_split(&self, _before: &Board, _after: &Board) -> bool {
        false
    }
}
