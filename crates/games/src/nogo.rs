//! NoGo on a grid: players place stones on empty cells (Left `x`, Right
//! `o`), as in Go, but nothing is ever captured: a move is illegal if
//! afterwards the placed stone's group, or a group next to it, has no
//! liberty (no empty cell orthogonally next to it). On a position reached
//! by play every group has a liberty, and then this is the usual rule "no
//! move may leave any group without a liberty"; on a position given with a
//! group already without liberties, only the groups a move touches are
//! asked (so distant cells cannot forbid a move).
//!
//! Text format: `x` a Left stone, `o` a Right stone, `.` an empty cell,
//! `#` a cell off the board; rows separated by `|` or newlines. Layer 0
//! holds `x`, layer 1 `o`, layer 2 the empty cells.
//!
//! ```text
//! .x.       Left may play either end; Right may play neither (the o
//!           would have no liberty).
//! ```
//!
//! Region relation: a move reads whole groups and their liberties, and
//! groups grow through any empty cell, so every move lies inside one
//! (four-)connected part of the board; the footprints are the adjacent pairs
//! of cells in the parts that still hold an empty cell. Cells never change,
//! so regions only fall apart (when a part fills up).

use crate::board::{each_bit, flood, Bits, Board, Player};
use crate::dominoes;
use crate::ruleset::{GlyphSpec, Ruleset, RulesetInfo};
use crate::transform::{Symmetry, GEOMETRIC_AND_COLOUR_SWAP};

/// NoGo. The eight geometric symmetries keep the value; the same eight
/// with `x` and `o` exchanged negate it.
#[derive(Copy, Clone, Debug, Default)]
pub struct NoGo;

static INFO: RulesetInfo = RulesetInfo {
    name: "nogo",
    aliases: &["no-go"],
    title: "NoGo",
    summary: "Players place stones as in Go, but a move may not leave a group it touches without a liberty.",
    glyphs: &[
        GlyphSpec::layer('x', 0, "a Left stone"),
        GlyphSpec::layer('o', 1, "a Right stone"),
        GlyphSpec::layer('.', 2, "an empty cell"),
        GlyphSpec::hole('#', "a cell off the board"),
    ],
    edit_cycle: ".xo#",
    fillings: &['.', 'x', 'o'],
    example: "...|...",
    site_cells: 16,
};

impl NoGo {
    /// Cells in the parts of the board that still hold an empty cell.
    #[inline]
    fn live(b: &Board) -> Bits {
        flood(b.layer(2), b.cells(), |s| b.neighbours4(s))
    }
}

impl Ruleset for NoGo {
    fn info(&self) -> &'static RulesetInfo {
        &INFO
    }

    fn rectangle(&self, rows: usize, cols: usize) -> Option<String> {
        Some(crate::ruleset::empty_rectangle(rows, cols))
    }

    fn options<F: FnMut(Board)>(&self, b: &Board, p: Player, mut f: F) {
        let (mine, theirs) = match p {
            Player::Left => (0, 1),
            Player::Right => (1, 0),
        };
        let t = b.layer(theirs);
        let e = b.layer(2);
        let near = |s: Bits| b.neighbours4(s);
        for c in each_bit(e) {
            let m = b.layer(mine) | c;
            let empty = e & !c;
            let group = flood(c, m, near);
            if near(group) & empty == 0 {
                continue;
            }
            // Every opposing group next to the stone keeps a liberty.
            let mut touched = near(c) & t;
            let mut ok = true;
            while touched != 0 {
                let g = flood(touched & touched.wrapping_neg(), t, near);
                if near(g) & empty == 0 {
                    ok = false;
                    break;
                }
                touched &= !g;
            }
            if ok {
                let mut layers = [0; 3];
                layers[mine] = m;
                layers[theirs] = t;
                layers[2] = empty;
                f(b.with_layers(layers));
            }
        }
    }

    #[inline]
    fn footprints<F: FnMut(Bits)>(&self, b: &Board, f: F) {
        dominoes::pair_footprints(b, NoGo::live(b), f);
    }

    #[inline]
    fn related(&self, b: &Board, set: Bits) -> Bits {
        dominoes::pairs_related(b, NoGo::live(b), set)
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
        s.apply_swapping(b, 0, 1)
    }

    fn only_falls_apart(&self) -> bool {
        true
    }

    fn impartial(&self) -> bool {
        false
    }

    /// Regions change only when a part of the board fills up.
    fn may_split(&self, before: &Board, after: &Board) -> bool {
        NoGo::live(before) != NoGo::live(after)
    }
}
