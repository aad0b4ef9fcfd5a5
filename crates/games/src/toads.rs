//! Toads and Frogs: toads (Left) move one cell east onto an empty cell or
//! jump east over one frog onto the empty cell beyond it; frogs (Right) do
//! the same westwards over toads. Nobody moves backwards or jumps two.
//!
//! Text format: `T` a toad, `F` a frog, `.` an empty cell, `#` a wall;
//! rows separated by `|` or newlines. Every row is its own strip (moves
//! are horizontal only) and a wall ends a strip like its edge does, so a
//! board is a sum of strips. Layer 0 holds the toads, layer 1 the frogs,
//! layer 2 the empty cells.
//!
//! ```text
//! T.TF.F    Left: .TTF.F (slide) or T..FTF (jump);
//!           Right: TFT..F (jump) or T.TFF. (slide).
//! ```
//!
//! Region relation: a toad only ever occupies cells at or east of where it
//! stands, a frog cells at or west of it. So every move the game could ever
//! offer lies inside a strip's *toad span* (from its westmost toad to the
//! strip's east end) or its *frog span* (from the west end to its eastmost
//! frog); the footprints are the adjacent pairs inside each span. When
//! every frog stands west of every toad the strip falls apart into two
//! parts that never meet again. Spans only shrink.

use crate::board::{each_bit, Bits, Board, Player};
use crate::ruleset::{GlyphSpec, Ruleset, RulesetInfo};
use crate::runs;
use crate::transform::{Symmetry, Transform};

/// Toads and Frogs. A row mirror keeps the value (strips are independent);
/// a column mirror with toads and frogs exchanged negates it. Transposes
/// turn strips into columns and are no symmetry.
#[derive(Copy, Clone, Debug, Default)]
pub struct ToadsAndFrogs;

const SYMMETRIES: [Symmetry; 4] = [
    Symmetry::new(Transform::Identity, false),
    Symmetry::new(Transform::FlipRows, false),
    Symmetry::new(Transform::FlipCols, true),
    Symmetry::new(Transform::Rot180, true),
];

static INFO: RulesetInfo = RulesetInfo {
    name: "toads-and-frogs",
    aliases: &["toads", "toadsandfrogs", "toads_and_frogs"],
    title: "Toads and Frogs",
    summary: "Toads (Left) step or jump a frog eastwards onto an empty cell; frogs (Right) do the same westwards.",
    glyphs: &[
        GlyphSpec::layer('T', 0, "a toad (Left, moves east)"),
        GlyphSpec::layer('F', 1, "a frog (Right, moves west)"),
        GlyphSpec::layer('.', 2, "an empty cell"),
        GlyphSpec::hole('#', "a wall: ends the strip"),
    ],
    edit_cycle: "TF.#",
    fillings: &['T', 'F', '.'],
    example: "TT..FF",
    site_cells: 16,
};

impl ToadsAndFrogs {
    /// Cells a toad could ever stand on or jump over: from each strip's
    /// westmost toad to its east end.
    #[inline]
    fn toad_span(b: &Board) -> Bits {
        runs::run_east(b, b.layer(0), b.cells())
    }

    /// Cells a frog could ever stand on or jump over: from each strip's
    /// west end to its eastmost frog.
    #[inline]
    fn frog_span(b: &Board) -> Bits {
        runs::run_west(b, b.layer(1), b.cells())
    }
}

impl Ruleset for ToadsAndFrogs {
    fn info(&self) -> &'static RulesetInfo {
        &INFO
    }

    fn options<F: FnMut(Board)>(&self, b: &Board, p: Player, mut f: F) {
        let (mine, theirs) = match p {
            Player::Left => (0, 1),
            Player::Right => (1, 0),
        };
        let m = b.layer(mine);
        let t = b.layer(theirs);
        let e = b.layer(2);
        let w = b.width();
        let east = p == Player::Left;
        // A step by `k` cells in the mover's direction, staying in the row.
        let step = |s: Bits, k: usize| -> Bits {
            let keep = if east {
                b.cols(0, w.saturating_sub(k))
            } else {
                b.cols(k, w)
            };
            let s = s & keep;
            if east {
                s << k
            } else {
                s >> k
            }
        };
        // Movers whose next cell is empty, and whose next is theirs and the
        // one beyond empty; `back` maps a target set to its movers.
        let back = |s: Bits, k: usize| -> Bits {
            let keep = if east {
                b.cols(k, w)
            } else {
                b.cols(0, w.saturating_sub(k))
            };
            let s = s & keep;
            if east {
                s >> k
            } else {
                s << k
            }
        };
        let slides = m & back(e, 1);
        for from in each_bit(slides) {
            let to = step(from, 1);
            let mut layers = [0; 3];
            layers[mine] = (m & !from) | to;
            layers[theirs] = t;
            layers[2] = (e & !to) | from;
            f(b.with_layers(layers));
        }
        let jumps = m & back(t, 1) & back(e, 2);
        for from in each_bit(jumps) {
            let to = step(from, 2);
            let mut layers = [0; 3];
            layers[mine] = (m & !from) | to;
            layers[theirs] = t;
            layers[2] = (e & !to) | from;
            f(b.with_layers(layers));
        }
    }

    /// The adjacent pairs inside the toad spans, and inside the frog spans
    /// (kept apart: a toad span and a frog span that only touch never meet).
    fn footprints<F: FnMut(Bits)>(&self, b: &Board, mut f: F) {
        runs::pair_footprints(b, Self::toad_span(b), &mut f);
        runs::pair_footprints(b, Self::frog_span(b), &mut f);
    }

    #[inline]
    fn related(&self, b: &Board, set: Bits) -> Bits {
        runs::pairs_related(b, Self::toad_span(b), set)
            | runs::pairs_related(b, Self::frog_span(b), set)
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

    /// Cells never change and the spans only shrink.
    fn only_falls_apart(&self) -> bool {
        true
    }

    fn impartial(&self) -> bool {
        false
    }

    /// Regions depend only on the spans (cells never change), so a move
    /// that leaves both spans alone splits nothing.
    fn may_split(&self, before: &Board, after: &Board) -> bool {
        Self::toad_span(before) != Self::toad_span(after)
            || Self::frog_span(before) != Self::frog_span(after)
    }
}
