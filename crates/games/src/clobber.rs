//! Clobber: a player moves one of their stones onto an orthogonally
//! adjacent opposing stone, which is removed.
//!
//! Text format: `x` a Left stone, `o` a Right stone, `.` (or `#`) a cell
//! with no stone; rows separated by `|` or newlines. Layer 0 holds `x`,
//! layer 1 holds `o`. Empty cells never matter again (stones never move onto
//! them), so they are holes and print as `.`.
//!
//! ```text
//! xox       Left has two moves (x onto the o), Right two (o onto an x).
//! ```

use crate::board::{each_bit, Bits, Board, Player};
use crate::dominoes;
use crate::ruleset::{GlyphSpec, MoveBounds, Ruleset, RulesetInfo};
use crate::transform::{Symmetry, GEOMETRIC_AND_COLOUR_SWAP};

/// Clobber. Eight geometric symmetries keep the value; the same eight
/// with `x` and `o` exchanged negate it.
#[derive(Copy, Clone, Debug, Default)]
pub struct Clobber;

impl Clobber {
    /// Occupied cells that can still take part in a move: none once a
    /// colour has gone from the board.
    #[inline]
    fn live(b: &Board) -> Bits {
        if b.layer(0) == 0 || b.layer(1) == 0 {
            0
        } else {
            b.layer(0) | b.layer(1)
        }
    }
}

static INFO: RulesetInfo = RulesetInfo {
    name: "clobber",
    aliases: &[],
    title: "Clobber",
    summary:
        "A player moves a stone onto an orthogonally adjacent opposing stone, which is removed.",
    glyphs: &[
        GlyphSpec::layer('x', 0, "a Left stone"),
        GlyphSpec::layer('o', 1, "a Right stone"),
        GlyphSpec::hole('.', "no stone"),
        GlyphSpec::hole('#', "no stone"),
    ],
    edit_cycle: "xo.",
    fillings: &['x', 'o'],
    example: "xoxo|oxox",
    site_cells: 20,
};

impl Ruleset for Clobber {
    fn info(&self) -> &'static RulesetInfo {
        &INFO
    }

    /// The checkerboard, Left's `x` in the top-left corner.
    fn rectangle(&self, rows: usize, cols: usize) -> Option<String> {
        Some(crate::ruleset::checkerboard(rows, cols, 'x', 'o'))
    }

    #[inline]
    fn options<F: FnMut(Board)>(&self, b: &Board, p: Player, mut f: F) {
        let (mine, theirs) = match p {
            Player::Left => (0, 1),
            Player::Right => (1, 0),
        };
        let m = b.layer(mine);
        let t = b.layer(theirs);
        let dirs = b.directions();
        // East, south, west, north.
        for k in [0usize, 1, 4, 5] {
            let step = dirs[k];
            let back = dirs[(k + 4) % 8];
            let movers = m & back.apply(t);
            for from in each_bit(movers) {
                let to = step.apply(from);
                let mut layers = [0; 3];
                layers[mine] = (m & !from) | to;
                layers[theirs] = t & !to;
                f(b.with_layers(layers));
            }
        }
    }

    /// Every orthogonally adjacent pair of stones, whatever their colours
    /// now (a cell's colour can change as stones capture), and none once a
    /// colour is gone.
    #[inline]
    fn footprints<F: FnMut(Bits)>(&self, b: &Board, f: F) {
        dominoes::pair_footprints(b, Clobber::live(b), f);
    }

    #[inline]
    fn related(&self, b: &Board, set: Bits) -> Bits {
        dominoes::pairs_related(b, Clobber::live(b), set)
    }

    #[inline]
    fn cells(&self, b: &Board) -> Bits {
        b.layer(0) | b.layer(1)
    }

    fn symmetries(&self) -> &'static [Symmetry] {
        &GEOMETRIC_AND_COLOUR_SWAP
    }

    #[inline]
    fn apply(&self, b: &Board, s: Symmetry) -> Board {
        s.apply_swapping(b, 0, 1)
    }

    /// Stones only disappear, so pairs of stones only disappear.
    fn only_falls_apart(&self) -> bool {
        true
    }

    fn impartial(&self) -> bool {
        false
    }

    /// The vacated cell may have been a bridge, or a colour may have gone.
    fn may_split(&self, before: &Board, after: &Board) -> bool {
        if Clobber::live(after) == 0 {
            return Clobber::live(before) != 0;
        }
        let vacated = self.cells(before) & !self.cells(after);
        after.may_disconnect(vacated, self.cells(after), false)
    }

    /// The options counted without making them: a stone of `p`'s per
    /// opponent's stone beside it, in each of the four directions (the
    /// move generator's own loop).
    #[inline]
    fn mobility(&self, b: &Board, p: Player) -> u32 {
        let (m, t) = match p {
            Player::Left => (b.layer(0), b.layer(1)),
            Player::Right => (b.layer(1), b.layer(0)),
        };
        let dirs = b.directions();
        [0usize, 1, 4, 5]
            .iter()
            .map(|&k| (m & dirs[(k + 4) % 8].apply(t)).count_ones())
            .sum()
    }

    /// A footprint is one move's pair of cells, and the move needs only them.
    fn footprints_whole(&self) -> bool {
        true
    }

    /// 4 x 5 checkerboard: 12 cells 18 s, 8 cells 0.86 s (load average 20).
    fn default_value_cells(&self) -> u32 {
        8
    }

    /// One thread per first player: on the 4 x 5 checkerboard two threads
    /// that split the root were no faster than one (0.98x), one per first
    /// player 1.43x (`cargo bench -p partizan-solve --bench outcome --
    /// threads`).
    fn default_parallel(&self) -> crate::TwoThreads {
        crate::TwoThreads::FirstPlayers
    }

    /// Every move removes one of the opponent's stones, so `p` can make at
    /// most as many moves as the opponent has stones. No safe moves.
    fn move_bounds(&self, b: &Board, p: Player) -> Option<MoveBounds> {
        Some(crate::ruleset::capture_bounds(b, p))
    }
}
