//! Amazons: a move slides one of the mover's queens like a chess queen
//! through empty cells, then fires an arrow, again like a queen, from where
//! it landed (the vacated cell counts as empty); the arrow's cell burns.
//!
//! Text format: `L` a Left queen, `R` a Right queen, `.` an empty cell,
//! `#` a burnt cell or hole; rows separated by `|` or newlines. Layers:
//! 0 = `L`, 1 = `R`, 2 = empty. A board with no queen at all is a legal
//! position in which nobody can move (value 0).
//!
//! ```text
//! L...      2 rows x 4 columns: 2,784 positions can follow.
//! R...
//! ```

use crate::board::{each_bit, flood, Bits, Board, Player};
use crate::ruleset::{GlyphSpec, MoveBounds, Ruleset, RulesetInfo};
use crate::transform::{Symmetry, GEOMETRIC_AND_COLOUR_SWAP};

/// Amazons. Eight geometric symmetries keep the value; the same eight with
/// `L` and `R` exchanged negate it.
#[derive(Copy, Clone, Debug, Default)]
pub struct Amazons;

impl Amazons {
    /// Non-burnt cells some queen could ever reach or shoot at: the
    /// king-move components of the non-burnt cells that hold a queen.
    /// Queens move, so a queen never separates regions.
    #[inline]
    fn live(b: &Board) -> Bits {
        let queens = b.layer(0) | b.layer(1);
        if queens == 0 {
            return 0;
        }
        flood(queens, b.cells(), |s| b.neighbours8(s))
    }
}

static INFO: RulesetInfo = RulesetInfo {
    name: "amazons",
    aliases: &[],
    title: "Amazons",
    summary: "A queen slides like a chess queen, then shoots an arrow like a queen; the arrow's cell burns.",
    glyphs: &[
        GlyphSpec::layer('L', 0, "a Left queen"),
        GlyphSpec::layer('R', 1, "a Right queen"),
        GlyphSpec::layer('.', 2, "an empty cell"),
        GlyphSpec::hole('#', "a burnt cell"),
    ],
    edit_cycle: ".#LR",
    fillings: &['L', 'R', '.'],
    example: "L...|.#..|...R",
    site_cells: 12,
};

impl Ruleset for Amazons {
    fn info(&self) -> &'static RulesetInfo {
        &INFO
    }

    #[inline]
    fn options<F: FnMut(Board)>(&self, b: &Board, p: Player, mut f: F) {
        let (mine, theirs) = match p {
            Player::Left => (0, 1),
            Player::Right => (1, 0),
        };
        let m = b.layer(mine);
        let t = b.layer(theirs);
        let e = b.layer(2);
        let dirs = b.directions();
        for from in each_bit(m) {
            for step in dirs {
                let mut to = step.apply(from);
                while to & e != 0 {
                    // The queen stands on `to`; `from` is empty now.
                    let open = (e | from) & !to;
                    let queens = (m & !from) | to;
                    for shot in dirs {
                        let mut arrow = shot.apply(to);
                        while arrow & open != 0 {
                            let mut layers = [0; 3];
                            layers[mine] = queens;
                            layers[theirs] = t;
                            layers[2] = open & !arrow;
                            f(b.with_layers(layers));
                            arrow = shot.apply(arrow);
                        }
                    }
                    to = step.apply(to);
                }
            }
        }
    }

    /// Every king-move pair of live cells (queen slides and arrow flights
    /// are chains of such steps, joined at the landing cell). Burnt cells
    /// never recover, so no other step can ever be taken.
    #[inline]
    fn footprints<F: FnMut(Bits)>(&self, b: &Board, mut f: F) {
        let live = Amazons::live(b);
        let dirs = b.directions();
        // East, south, south-east, south-west: each pair once.
        for k in 0..4 {
            let (step, back) = (dirs[k], dirs[k + 4]);
            for bit in each_bit(live & back.apply(live)) {
                f(bit | step.apply(bit));
            }
        }
    }

    #[inline]
    fn related(&self, b: &Board, set: Bits) -> Bits {
        let live = Amazons::live(b);
        let s = set & live;
        (b.neighbours8(s) & live) | (s & b.neighbours8(live))
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

    /// Cells only burn; queens stay inside their component.
    fn only_falls_apart(&self) -> bool {
        true
    }

    fn impartial(&self) -> bool {
        false
    }

    /// Only the arrow's cell can complete a wall (king-move connectivity).
    fn may_split(&self, before: &Board, after: &Board) -> bool {
        let burnt = before.cells() & !after.cells();
        after.may_disconnect(burnt, after.cells(), true)
    }

    /// Valuing 12-cell Amazons regions stalls the 5 x 5 search.
    fn default_value_cells(&self) -> u32 {
        6
    }

    /// Every move burns one empty cell, so no player can make more moves
    /// than there are empty cells.
    fn move_bounds(&self, b: &Board, _p: Player) -> Option<MoveBounds> {
        Some(MoveBounds {
            safe: 0,
            max: b.layer(2).count_ones(),
        })
    }
}
