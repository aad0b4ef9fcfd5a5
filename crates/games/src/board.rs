//! Grid positions as three 128-bit layers, with the shift-based helpers the
//! rulesets generate moves with.

use crate::error::BoardError;
use crate::transform::Transform;

/// A set of cells; cell `i` is at row `i / width`, column `i % width`.
pub type Bits = u128;

/// The most cells a board can have (one bit each in a [`Bits`]).
pub const MAX_CELLS: usize = 128;

/// The two players. Left plays vertical dominoes, `x` stones and `L` queens;
/// Right plays horizontal dominoes, `o` stones and `R` queens.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Ord, PartialOrd)]
pub enum Player {
    /// The vertical / `x` / `L` player.
    Left,
    /// The horizontal / `o` / `R` player.
    Right,
}

impl Player {
    /// Both players, Left first.
    pub const BOTH: [Player; 2] = [Player::Left, Player::Right];

    /// The other player.
    #[must_use]
    #[inline]
    pub const fn opponent(self) -> Player {
        match self {
            Player::Left => Player::Right,
            Player::Right => Player::Left,
        }
    }
}

/// A grid position: width, height (width*height <= 128) and three bit layers
/// whose meaning belongs to the ruleset (Domineering/Cram: layer 0 = empty
/// cells; Clobber: 0 = x, 1 = o; Konane: 0 = x, 1 = o, 2 = empty;
/// Amazons: 0 = L, 1 = R, 2 = empty). A cell in no layer is a hole/blocked.
///
/// Layers are disjoint and lie inside the rectangle; the only way to build a
/// board from raw parts is the validating [`Board::new`]. `Ord` compares
/// width, then height, then the layers, and is what symmetry folding
/// minimises.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Ord, PartialOrd)]
pub struct Board {
    width: u8,
    height: u8,
    layers: [Bits; 3],
}

/// All cells of a `width` x `height` rectangle.
#[must_use]
#[inline]
pub const fn rect_mask(width: usize, height: usize) -> Bits {
    let n = width * height;
    if n >= 128 {
        !0
    } else {
        (1u128 << n) - 1
    }
}

/// Cells of a `width` x `height` rectangle whose column lies in `lo..hi`.
#[must_use]
#[inline]
pub const fn col_range_mask(width: usize, height: usize, lo: usize, hi: usize) -> Bits {
    if lo >= hi || width == 0 || height == 0 {
        return 0;
    }
    let hi = if hi > width { width } else { hi };
    let below_hi: Bits = if hi >= 128 { !0 } else { (1u128 << hi) - 1 };
    let below_lo: Bits = if lo >= 128 { !0 } else { (1u128 << lo) - 1 };
    // Replicate the one-row pattern down the rows by doubling.
    let mut m = below_hi & !below_lo;
    let mut filled = 1;
    while filled < height {
        let sh = filled * width;
        if sh >= 128 {
            break;
        }
        m |= m << sh;
        filled *= 2;
    }
    m & rect_mask(width, height)
}

impl Board {
    /// A board from its parts; fails if the rectangle has more than 128
    /// cells, a layer strays outside it, or two layers overlap.
    pub fn new(width: usize, height: usize, layers: [Bits; 3]) -> Result<Board, BoardError> {
        let cells = width.saturating_mul(height);
        if cells > MAX_CELLS || width > MAX_CELLS || height > MAX_CELLS {
            return Err(BoardError::TooManyCells {
                width,
                height,
                cells,
            });
        }
        let full = rect_mask(width, height);
        let full = if cells == 0 { 0 } else { full };
        for (layer, &l) in layers.iter().enumerate() {
            if l & !full != 0 {
                return Err(BoardError::OutOfBounds {
                    layer,
                    width,
                    height,
                });
            }
        }
        for a in 0..3 {
            for b in a + 1..3 {
                let both = layers[a] & layers[b];
                if both != 0 {
                    let i = both.trailing_zeros() as usize;
                    return Err(BoardError::Overlap {
                        a,
                        b,
                        row: i / width + 1,
                        col: i % width + 1,
                    });
                }
            }
        }
        Ok(Board {
            width: width as u8,
            height: height as u8,
            layers,
        })
    }

    /// Unchecked constructor for callers that already hold valid parts.
    #[inline]
    pub(crate) const fn from_parts(width: usize, height: usize, layers: [Bits; 3]) -> Board {
        Board {
            width: width as u8,
            height: height as u8,
            layers,
        }
    }

    /// The board with 0 columns and 0 rows (what cropping an empty board
    /// gives).
    pub const EMPTY: Board = Board {
        width: 0,
        height: 0,
        layers: [0; 3],
    };

    /// Number of columns.
    #[must_use]
    #[inline]
    pub const fn width(&self) -> usize {
        self.width as usize
    }

    /// Number of rows.
    #[must_use]
    #[inline]
    pub const fn height(&self) -> usize {
        self.height as usize
    }

    /// Layer `i` (0, 1 or 2).
    #[must_use]
    #[inline]
    pub const fn layer(&self, i: usize) -> Bits {
        self.layers[i]
    }

    /// All three layers.
    #[must_use]
    #[inline]
    pub const fn layers(&self) -> [Bits; 3] {
        self.layers
    }

    /// The same rectangle with new layers: the move generator's constructor.
    /// Unchecked, for speed: the caller keeps the layers inside the
    /// rectangle and disjoint (a ruleset's moves only rearrange cells it was
    /// given; [`Board::new`] is the checked constructor).
    #[must_use]
    #[inline]
    pub const fn with_layers(&self, layers: [Bits; 3]) -> Board {
        Board {
            width: self.width,
            height: self.height,
            layers,
        }
    }

    /// Union of the layers: every cell that is not a hole.
    #[must_use]
    #[inline]
    pub const fn cells(&self) -> Bits {
        self.layers[0] | self.layers[1] | self.layers[2]
    }

    /// Every cell of the rectangle, holes included.
    #[must_use]
    #[inline]
    pub const fn full(&self) -> Bits {
        if self.width == 0 || self.height == 0 {
            0
        } else {
            rect_mask(self.width(), self.height())
        }
    }

    /// Index of the cell at (row, col).
    #[must_use]
    #[inline]
    pub const fn index(&self, row: usize, col: usize) -> usize {
        row * self.width() + col
    }

    /// The single-cell set at (row, col).
    #[must_use]
    #[inline]
    pub const fn bit(&self, row: usize, col: usize) -> Bits {
        1u128 << self.index(row, col)
    }

    /// Cells whose column lies in `lo..hi`.
    #[must_use]
    #[inline]
    pub const fn cols(&self, lo: usize, hi: usize) -> Bits {
        col_range_mask(self.width(), self.height(), lo, hi)
    }

    /// Cells not in the last column: those with an east neighbour.
    #[must_use]
    #[inline]
    pub const fn not_last_col(&self) -> Bits {
        self.cols(0, self.width().saturating_sub(1))
    }

    /// Cells not in the first column: those with a west neighbour.
    #[must_use]
    #[inline]
    pub const fn not_first_col(&self) -> Bits {
        self.cols(1, self.width())
    }

    /// Move every cell of `s` by `dr` rows and `dc` columns, dropping those
    /// that leave the rectangle.
    #[must_use]
    #[inline]
    pub const fn shift(&self, s: Bits, dr: i32, dc: i32) -> Bits {
        let w = self.width() as i32;
        let h = self.height() as i32;
        if w == 0 || dc.abs() >= w || dr.abs() >= h {
            return 0;
        }
        let keep = if dc > 0 {
            self.cols(0, (w - dc) as usize)
        } else if dc < 0 {
            self.cols((-dc) as usize, w as usize)
        } else {
            self.full()
        };
        let s = s & keep;
        let amount = dr * w + dc;
        let moved = if amount >= 0 {
            if amount >= 128 {
                0
            } else {
                s << amount
            }
        } else if -amount >= 128 {
            0
        } else {
            s >> (-amount)
        };
        moved & self.full()
    }

    /// Orthogonal (four-) neighbours of `s` inside the rectangle.
    #[must_use]
    #[inline]
    pub const fn neighbours4(&self, s: Bits) -> Bits {
        let w = self.width();
        if w == 0 {
            return 0;
        }
        let east = (s & self.not_last_col()) << 1;
        let west = (s & self.not_first_col()) >> 1;
        let south = if w >= 128 { 0 } else { s << w };
        let north = if w >= 128 { 0 } else { s >> w };
        (east | west | south | north) & self.full()
    }

    /// King-move (eight-) neighbours of `s` inside the rectangle.
    #[must_use]
    #[inline]
    pub const fn neighbours8(&self, s: Bits) -> Bits {
        let w = self.width();
        if w == 0 {
            return 0;
        }
        let horiz = ((s & self.not_last_col()) << 1) | ((s & self.not_first_col()) >> 1);
        let row = s | horiz;
        let south = if w >= 128 { 0 } else { row << w };
        let north = if w >= 128 { 0 } else { row >> w };
        (horiz | south | north) & self.full()
    }

    /// Cheap local test: could removing `removed` from a set have cut a
    /// connected part of it, `remaining` being the set afterwards? Joined
    /// through four-neighbours, or king-move neighbours when `eight`.
    /// `false` is a promise (the remaining neighbours of `removed` are joined
    /// inside the box around it); `true` only means "look".
    #[must_use]
    pub fn may_disconnect(&self, removed: Bits, remaining: Bits, eight: bool) -> bool {
        let near = |s: Bits| {
            if eight {
                self.neighbours8(s)
            } else {
                self.neighbours4(s)
            }
        };
        let touching = near(removed) & remaining;
        if touching.count_ones() <= 1 {
            return false;
        }
        let window = (removed | self.neighbours8(removed)) & remaining;
        let seed = touching & touching.wrapping_neg();
        let joined = flood(seed, window, near);
        touching & !joined != 0
    }

    /// The single-cell steps in the eight king directions, for walking rays.
    #[must_use]
    pub fn directions(&self) -> [Step; 8] {
        const D: [(i32, i32); 8] = [
            (0, 1),
            (1, 0),
            (1, 1),
            (1, -1),
            (0, -1),
            (-1, 0),
            (-1, -1),
            (-1, 1),
        ];
        let mut out = [Step { from: 0, amount: 0 }; 8];
        for (k, &(dr, dc)) in D.iter().enumerate() {
            out[k] = Step::new(self, dr, dc);
        }
        out
    }

    /// Cells outside `mask` become holes (removed from every layer).
    #[must_use]
    #[inline]
    pub const fn restrict(&self, mask: Bits) -> Board {
        self.with_layers([
            self.layers[0] & mask,
            self.layers[1] & mask,
            self.layers[2] & mask,
        ])
    }

    /// Shrink the rectangle to the bounding box of [`cells`](Self::cells),
    /// re-striding the rows; an empty board crops to [`Board::EMPTY`].
    #[must_use]
    pub fn crop(&self) -> Board {
        let cells = self.cells();
        if cells == 0 {
            return Board::EMPTY;
        }
        let w = self.width();
        let h = self.height();
        let row_bits = rect_mask(w, 1);
        let mut fold: Bits = 0;
        let mut min_r = usize::MAX;
        let mut max_r = 0;
        for r in 0..h {
            let row = (cells >> (r * w)) & row_bits;
            if row != 0 {
                fold |= row;
                min_r = min_r.min(r);
                max_r = r;
            }
        }
        let min_c = fold.trailing_zeros() as usize;
        let max_c = 127 - fold.leading_zeros() as usize;
        let nw = max_c - min_c + 1;
        let nh = max_r - min_r + 1;
        if nw == w && nh == h {
            return *self;
        }
        let new_row = rect_mask(nw, 1);
        let mut layers = [0; 3];
        for (k, out) in layers.iter_mut().enumerate() {
            let l = self.layers[k];
            if l == 0 {
                continue;
            }
            for r in min_r..=max_r {
                let bits = (l >> (r * w + min_c)) & new_row;
                *out |= bits << ((r - min_r) * nw);
            }
        }
        Board::from_parts(nw, nh, layers)
    }

    /// The image of the board under a geometric transform (layers move with
    /// their cells; an axis-swapping transform swaps width and height).
    #[must_use]
    pub fn transform(&self, t: Transform) -> Board {
        let w = self.width();
        let h = self.height();
        if w == 0 || h == 0 {
            return *self;
        }
        let (fr, fc, tr) = t.parts();
        if !tr {
            if !fr && !fc {
                return *self;
            }
            // Row by row: move each row, reversing its bits for FlipCols.
            let row_bits = rect_mask(w, 1);
            let mut layers = [0; 3];
            for (k, out) in layers.iter_mut().enumerate() {
                let l = self.layers[k];
                if l == 0 {
                    continue;
                }
                for r in 0..h {
                    let mut row = (l >> (r * w)) & row_bits;
                    if row == 0 {
                        continue;
                    }
                    if fc {
                        row = row.reverse_bits() >> (128 - w);
                    }
                    let nr = if fr { h - 1 - r } else { r };
                    *out |= row << (nr * w);
                }
            }
            return Board::from_parts(w, h, layers);
        }
        // Axis swap: row by row, then bit by bit within a row (no division);
        // the flips are folded into the destination index.
        let (nw, nh) = (h, w);
        let row_bits = rect_mask(w, 1);
        let mut layers = [0; 3];
        for (k, out) in layers.iter_mut().enumerate() {
            let l = self.layers[k];
            if l == 0 {
                continue;
            }
            for r in 0..h {
                let mut row = (l >> (r * w)) & row_bits;
                let nc = if fr { h - 1 - r } else { r };
                while row != 0 {
                    let c = row.trailing_zeros() as usize;
                    row &= row - 1;
                    let nr = if fc { w - 1 - c } else { c };
                    *out |= 1u128 << (nr * nw + nc);
                }
            }
        }
        Board::from_parts(nw, nh, layers)
    }

    /// The board with two layers exchanged (a colour swap).
    #[must_use]
    #[inline]
    pub const fn swap_layers(&self, a: usize, b: usize) -> Board {
        let mut layers = self.layers;
        layers[a] = self.layers[b];
        layers[b] = self.layers[a];
        self.with_layers(layers)
    }
}

/// One step in a fixed direction on a fixed board: the cells it may start
/// from (those whose target is on the board) and the index offset.
/// The first four of [`Board::directions`] are east, south, south-east,
/// south-west; the last four are their opposites in the same order.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Step {
    from: Bits,
    amount: i32,
}

impl Step {
    /// The step by `dr` rows and `dc` columns on `b`.
    #[must_use]
    pub fn new(b: &Board, dr: i32, dc: i32) -> Step {
        let from = b.shift(b.full(), -dr, -dc);
        Step {
            from,
            amount: dr * b.width() as i32 + dc,
        }
    }

    /// Move every cell of `s` one step, dropping those that would leave the
    /// board.
    #[must_use]
    #[inline]
    pub const fn apply(self, s: Bits) -> Bits {
        let s = s & self.from;
        if s == 0 {
            0
        } else if self.amount >= 0 {
            s << self.amount
        } else {
            s >> (-self.amount)
        }
    }

    /// Cells from which the step stays on the board.
    #[must_use]
    #[inline]
    pub const fn sources(self) -> Bits {
        self.from
    }
}

/// Grow `seed` to everything reachable inside `within` through `step`
/// (which returns a superset-closed neighbourhood of its argument).
#[must_use]
#[inline]
pub fn flood<F: FnMut(Bits) -> Bits>(seed: Bits, within: Bits, mut step: F) -> Bits {
    let mut comp = seed & within;
    let mut frontier = comp;
    while frontier != 0 {
        let grown = step(frontier) & within & !comp;
        comp |= grown;
        frontier = grown;
    }
    comp
}

/// Iterate over the single-cell sets of `s`, lowest first.
#[inline]
pub fn each_bit(mut s: Bits) -> impl Iterator<Item = Bits> {
    std::iter::from_fn(move || {
        if s == 0 {
            None
        } else {
            let b = s & s.wrapping_neg();
            s &= s - 1;
            Some(b)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(w: usize, h: usize, l0: Bits, l1: Bits) -> Board {
        Board::new(w, h, [l0, l1, 0]).unwrap()
    }

    #[test]
    fn masks() {
        let b = board(3, 2, 0, 0);
        assert_eq!(b.full(), 0b111_111);
        assert_eq!(b.not_last_col(), 0b011_011);
        assert_eq!(b.not_first_col(), 0b110_110);
        assert_eq!(b.cols(1, 2), 0b010_010);
        let big = Board::new(16, 8, [0; 3]).unwrap();
        assert_eq!(big.full(), !0);
        assert_eq!(big.not_last_col().count_ones(), 15 * 8);
        let tall = Board::new(1, 128, [0; 3]).unwrap();
        assert_eq!(tall.not_last_col(), 0);
        assert_eq!(tall.shift(1, 127, 0), 1 << 127);
    }

    #[test]
    fn new_rejects() {
        assert!(matches!(
            Board::new(12, 11, [0; 3]),
            Err(BoardError::TooManyCells { cells: 132, .. })
        ));
        assert!(matches!(
            Board::new(2, 2, [1 << 4, 0, 0]),
            Err(BoardError::OutOfBounds { layer: 0, .. })
        ));
        assert!(matches!(
            Board::new(2, 2, [0b10, 0b11, 0]),
            Err(BoardError::Overlap {
                a: 0,
                b: 1,
                row: 1,
                col: 2
            })
        ));
    }

    #[test]
    fn shift_and_neighbours() {
        // 3x3, centre cell 4.
        let b = board(3, 3, 0, 0);
        assert_eq!(
            b.neighbours4(1 << 4),
            (1 << 1) | (1 << 3) | (1 << 5) | (1 << 7)
        );
        assert_eq!(b.neighbours8(1 << 4), 0b111_101_111);
        assert_eq!(b.neighbours4(1), (1 << 1) | (1 << 3));
        assert_eq!(b.neighbours8(1), (1 << 1) | (1 << 3) | (1 << 4));
        // a cell in a set with its neighbour keeps the neighbour listed
        assert_eq!(b.neighbours4(0b11), 0b11 | (1 << 2) | (1 << 3) | (1 << 4));
        assert_eq!(b.shift(1 << 4, 1, 1), 1 << 8);
        assert_eq!(b.shift(1 << 2, 0, 1), 0);
        assert_eq!(b.shift(1 << 3, 0, -1), 0);
        assert_eq!(b.shift(1 << 0, 2, 2), 1 << 8);
    }

    #[test]
    fn crop_and_restrict() {
        // 4 wide, 3 high; cells at (1,1), (2,2).
        let b = board(4, 3, (1 << 5) | (1 << 10), 0);
        let c = b.crop();
        assert_eq!((c.width(), c.height()), (2, 2));
        assert_eq!(c.layer(0), 0b1001);
        assert_eq!(b.restrict(1 << 5).crop().layer(0), 1);
        assert_eq!(b.restrict(0).crop(), Board::EMPTY);
    }

    #[test]
    fn transforms_on_non_square() {
        // 3 wide, 2 high, distinct marks: layer0 at (0,0), layer1 at (0,1).
        let b = board(3, 2, 1, 1 << 1);
        let t = b.transform(Transform::Transpose);
        assert_eq!((t.width(), t.height()), (2, 3));
        assert_eq!(t.layer(0), 1);
        assert_eq!(t.layer(1), 1 << 2); // (1,0) in a 2-wide board
        let r = b.transform(Transform::Rot90);
        assert_eq!(r.layer(0), 1 << 1); // (0,1)
        assert_eq!(r.layer(1), 1 << 3); // (1,1)
        for t1 in Transform::ALL {
            for t2 in Transform::ALL {
                assert_eq!(
                    b.transform(t1).transform(t2),
                    b.transform(t1.then(t2)),
                    "{t1:?} then {t2:?}"
                );
            }
            assert_eq!(b.transform(t1).transform(t1.inverse()), b);
        }
        let mut x = b;
        for _ in 0..4 {
            x = x.transform(Transform::Rot90);
        }
        assert_eq!(x, b);
        assert_eq!(
            b.transform(Transform::Transpose)
                .transform(Transform::Transpose),
            b
        );
        // The 8 images of an asymmetric board are distinct.
        let mut imgs: Vec<Board> = Transform::ALL.iter().map(|&t| b.transform(t)).collect();
        imgs.sort();
        imgs.dedup();
        assert_eq!(imgs.len(), 8);
    }

    #[test]
    fn transforms_at_128_cells() {
        for (w, h) in [(128, 1), (1, 128), (16, 8), (8, 16), (11, 11)] {
            let full = rect_mask(w, h);
            let l0 = full & 0xaaaa_aaaa_aaaa_aaaa_aaaa_aaaa_aaaa_aaaa & !(1 << 3);
            let b = Board::new(w, h, [l0, 1 | (1 << 3), 0]).unwrap();
            for t in Transform::ALL {
                let tb = b.transform(t);
                assert_eq!(tb.cells().count_ones(), b.cells().count_ones());
                assert_eq!(tb.transform(t.inverse()), b, "{w}x{h} {t:?}");
                assert_eq!(tb.crop(), tb);
            }
        }
    }

    #[test]
    fn flood_grows() {
        let b = board(3, 3, 0, 0);
        let within = 0b111_000_111;
        assert_eq!(flood(1 << 1, within, |s| b.neighbours4(s)), 0b111);
        assert_eq!(
            flood(1 << 1, within | (1 << 3), |s| b.neighbours4(s)),
            within | (1 << 3)
        );
    }
}
