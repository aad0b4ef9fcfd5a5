//! Konane (Hawaiian checkers): a player jumps one of their stones over an
//! orthogonally adjacent opposing stone into the empty cell beyond,
//! removing the jumped stone, and may go on jumping in the same direction;
//! each stopping point is a separate option.
//!
//! Text format: `x` a Left stone, `o` a Right stone, `.` an empty cell,
//! `#` a hole; rows separated by `|` or newlines. Layers: 0 = `x`,
//! 1 = `o`, 2 = empty.
//!
//! ```text
//! xo.o.     Left may jump to column 3, or on to column 5.
//! ```
//!
//! A hop reads three cells in a line, so the footprint relation reaches two
//! cells away: a single empty cell (or a run of them) does not separate
//! regions, which is why a flood fill over emptiness is wrong here.

use crate::board::{each_bit, Bits, Board, Player};
use crate::ruleset::{GlyphSpec, MoveBounds, Ruleset, RulesetInfo};
use crate::transform::{Symmetry, GEOMETRIC_AND_COLOUR_SWAP};

/// Konane. Eight geometric symmetries keep the value; the same eight with
/// `x` and `o` exchanged negate it.
#[derive(Copy, Clone, Debug, Default)]
pub struct Konane;

impl Konane {
    /// Starting cells of the horizontal and vertical runs of three
    /// non-hole cells, or none once a colour is gone (no hop is ever
    /// possible again).
    #[inline]
    fn triples(b: &Board) -> (Bits, Bits) {
        if b.layer(0) == 0 || b.layer(1) == 0 {
            return (0, 0);
        }
        let c = b.cells();
        let w = b.width();
        let h = c & (c >> 1) & (c >> 2) & b.cols(0, w.saturating_sub(2));
        let v = if 2 * w >= 128 {
            0
        } else {
            c & (c >> w) & (c >> (2 * w))
        };
        (h, v)
    }
}

static INFO: RulesetInfo = RulesetInfo {
    name: "konane",
    aliases: &["kōnane"],
    title: "Kōnane",
    summary: "A stone jumps an adjacent opposing stone into an empty cell beyond, removing it; jumps may continue in a line.",
    glyphs: &[
        GlyphSpec::layer('x', 0, "a Left stone"),
        GlyphSpec::layer('o', 1, "a Right stone"),
        GlyphSpec::layer('.', 2, "an empty cell"),
        GlyphSpec::hole('#', "a blocked cell"),
    ],
    edit_cycle: "xo.#",
    fillings: &['x', 'o', '.'],
    example: "xox.|o.ox|x.xo",
    site_cells: 20,
};

impl Ruleset for Konane {
    fn info(&self) -> &'static RulesetInfo {
        &INFO
    }

    /// The opening: the checkerboard (`x` in the top-left corner) with two
    /// adjacent stones taken from the middle — the middle stone of the
    /// middle row (the upper of two, the left of two) and the one to its
    /// right (on a single column, the one below it; a 1 x 1 board loses
    /// its only stone). So `xoxo|o..x|xoxo|oxox` for 4 x 4.
    fn rectangle(&self, rows: usize, cols: usize) -> Option<String> {
        let mut grid: Vec<Vec<char>> = crate::ruleset::checkerboard(rows, cols, 'x', 'o')
            .split('|')
            .map(|row| row.chars().collect())
            .collect();
        let (r, c) = ((rows.max(1) - 1) / 2, (cols.max(1) - 1) / 2);
        grid[r][c] = '.';
        if c + 1 < cols {
            grid[r][c + 1] = '.';
        } else if r + 1 < rows {
            grid[r + 1][c] = '.';
        }
        Some(
            grid.iter()
                .map(|row| row.iter().collect::<String>())
                .collect::<Vec<_>>()
                .join("|"),
        )
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
        for k in [0usize, 1, 4, 5] {
            let step = dirs[k];
            let back = dirs[(k + 4) % 8];
            // Stones with an opposing stone next door and an empty cell
            // beyond it.
            let starters = m & back.apply(t & back.apply(e));
            for from in each_bit(starters) {
                let mut at = from;
                let mut taken: Bits = 0;
                loop {
                    let over = step.apply(at);
                    let land = step.apply(over);
                    if over & t == 0 || land & e == 0 {
                        break;
                    }
                    taken |= over;
                    at = land;
                    let mut layers = [0; 3];
                    layers[mine] = (m & !from) | at;
                    layers[theirs] = t & !taken;
                    layers[2] = (e & !at) | from | taken;
                    f(b.with_layers(layers));
                }
            }
        }
    }

    /// Every run of three non-hole cells in a row or column (a hop reads
    /// the mover, the jumped stone and the landing cell; a multiple jump is
    /// a chain of such runs). Holes never change, so these are all the hops
    /// there could ever be; none once a colour has gone.
    #[inline]
    fn footprints<F: FnMut(Bits)>(&self, b: &Board, mut f: F) {
        let (h, v) = Konane::triples(b);
        let w = b.width();
        for bit in each_bit(h) {
            f(bit | (bit << 1) | (bit << 2));
        }
        for bit in each_bit(v) {
            f(bit | (bit << w) | (bit << (2 * w)));
        }
    }

    #[inline]
    fn related(&self, b: &Board, set: Bits) -> Bits {
        let (h, v) = Konane::triples(b);
        let w = b.width();
        let hs = h & (set | (set >> 1) | (set >> 2));
        let mut out = hs | (hs << 1) | (hs << 2);
        if v != 0 {
            let vs = v & (set | (set >> w) | (set >> (2 * w)));
            out |= vs | (vs << w) | (vs << (2 * w));
        }
        out
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

    /// True, and not by the "gaps only widen" argument (a landing stone
    /// can close a gap): the footprint relation is built over the non-hole
    /// cells, which never change, and vanishes once a colour has gone, so
    /// the relation below a position is contained in the relation at it.
    fn only_falls_apart(&self) -> bool {
        true
    }

    fn impartial(&self) -> bool {
        false
    }

    /// Only the loss of a whole colour changes the relation.
    fn may_split(&self, before: &Board, after: &Board) -> bool {
        let alive = |b: &Board| b.layer(0) != 0 && b.layer(1) != 0;
        alive(before) && !alive(after)
    }

    /// The options counted without making them: per direction, the cells
    /// from which `k` hops in a row are possible (a hop's cells ahead are
    /// untouched by the hops before it), intersected with `p`'s stones.
    #[inline]
    fn mobility(&self, b: &Board, p: Player) -> u32 {
        let (m, t) = match p {
            Player::Left => (b.layer(0), b.layer(1)),
            Player::Right => (b.layer(1), b.layer(0)),
        };
        let e = b.layer(2);
        let dirs = b.directions();
        let mut n = 0;
        for k in [0usize, 1, 4, 5] {
            let back = dirs[(k + 4) % 8];
            // Cells with an opposing stone ahead and an empty cell beyond.
            let hop = back.apply(t & back.apply(e));
            let mut chain = hop;
            while m & chain != 0 {
                n += (m & chain).count_ones();
                chain = hop & back.apply(back.apply(chain));
            }
        }
        n
    }

    /// As Clobber: a capturing game whose small regions are costly to value.
    fn default_value_cells(&self) -> u32 {
        8
    }

    /// One thread per first player: measured on 5 x 6, best of 5 wall
    /// times on the shared machine, one thread 0.57 s, two splitting the
    /// root 0.56 s, one per first player 0.42 s (`partizan outcome konane
    /// BOARD --threads 1|2 --parallel ...`; the bench `outcome -- threads`
    /// has the same three).
    fn default_parallel(&self) -> crate::TwoThreads {
        crate::TwoThreads::FirstPlayers
    }

    /// Every move captures at least one of the opponent's stones.
    fn move_bounds(&self, b: &Board, p: Player) -> Option<MoveBounds> {
        Some(crate::ruleset::capture_bounds(b, p))
    }
}
