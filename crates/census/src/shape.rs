//! Compact regions: a set of grid cells cropped to its bounding box.
//!
//! A [`Shape`] is the census's own small key: width, height and a row-major
//! 128-bit mask (cell `row * width + col`). A connected region of `n` cells
//! has `width + height <= n + 1`, so an area of at most 121 when `n <= 21`
//! ([`Shape::MAX_CELLS`]). The catalogue grows a region one cell at a time
//! in a box one row taller or one column wider than its own (never a frame
//! a cell wider on every side, which would need 132 bits at 18 cells), so
//! it too reaches 21 cells on `u128` words. (Up to 15 cells, the limit of
//! the earlier `u64` shape, every count is unchanged.)
//!
//! ```text
//!   .#      width 2, height 3, cells 0b11_1101 (rows top to bottom:
//!   ..      ".#", "..", ".."), five cells: an L with a notch
//!   ..
//! ```

use std::fmt;

use thiserror::Error;

/// Why a text or bit pattern could not become a [`Shape`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShapeError {
    /// No cell at all: a region has at least one cell.
    #[error("a shape needs at least one cell")]
    Empty,
    /// Width times height above 128, or a zero dimension.
    #[error("a {width}x{height} box does not fit in 128 bits")]
    TooLarge {
        /// Requested width.
        width: usize,
        /// Requested height.
        height: usize,
    },
    /// Rows of the text have different lengths.
    #[error("row {row} has {found} characters, expected {expected}")]
    Ragged {
        /// Zero-based row index.
        row: usize,
        /// Length of the first row.
        expected: usize,
        /// Length of this row.
        found: usize,
    },
    /// A character other than `.` (cell) or `#` (hole).
    #[error("unexpected character {found:?} at offset {offset}")]
    BadChar {
        /// Byte offset in the input.
        offset: usize,
        /// The character found.
        found: char,
    },
    /// A border row or column of the box holds no cell.
    #[error("the {width}x{height} box is not cropped to its cells")]
    NotCropped {
        /// Width of the box.
        width: usize,
        /// Height of the box.
        height: usize,
    },
    /// Bits set outside the `width * height` box.
    #[error("cells outside the {width}x{height} box")]
    OutOfBox {
        /// Width of the box.
        width: usize,
        /// Height of the box.
        height: usize,
    },
}

/// One of the eight symmetries of the square, acting on a shape's cells:
/// the games crate's [`partizan_games::Transform`] (the census used to keep
/// its own copy). The four that swap rows and columns
/// ([`Sym::swaps_axes`]) exchange the Domineering players. [`Shape`]'s own
/// word-level images are checked against [`Sym::map_cell`] cell by cell
/// ([`Shape::transform_by_cells`]).
pub use partizan_games::Transform as Sym;

/// A symmetry group under which catalogue entries are identified.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub enum Group {
    /// The four symmetries that keep rows as rows (identity, both mirrors,
    /// half turn): Domineering's, since a transpose swaps the players.
    RowPreserving,
    /// All eight symmetries of the square: Cram's, and free polyominoes.
    Square,
}

impl Group {
    /// The symmetries in the group.
    #[must_use]
    pub fn syms(self) -> &'static [Sym] {
        match self {
            Group::RowPreserving => &Sym::ALL[..4],
            Group::Square => &Sym::ALL,
        }
    }
}

/// A region: cells of a `width x height` box, row-major in a 128-bit mask,
/// cropped so that every row and every column of the box holds a cell.
///
/// Ordering is by width, then height, then the bitmask; canonical forms are
/// minima in this order. The mask is kept as two `u64` halves (high half
/// first, so the derived order is the order of the 128-bit mask): 24 bytes
/// a shape instead of the 32 an aligned `u128` field would take.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd)]
pub struct Shape {
    width: u8,
    height: u8,
    hi: u64,
    lo: u64,
}

/// A shape from its parts (no checks).
#[inline(always)]
const fn mk(width: usize, height: usize, cells: u128) -> Shape {
    Shape {
        width: width as u8,
        height: height as u8,
        hi: (cells >> 64) as u64,
        lo: cells as u64,
    }
}

/// The low `n` bits (all 128 from `n = 128` on): a row of an `n`-wide box.
#[inline]
fn low_bits(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// Bits of the cells in column 0 of a `w`-wide box of `h` rows.
#[inline]
fn col0_mask(w: usize, h: usize) -> u128 {
    let mut m = 0u128;
    for r in 0..h {
        m |= 1u128 << (r * w);
    }
    m
}

/// Grow `seed` inside `within` (a `w`-wide box) to its four-connected
/// component: the games crate's frontier flood with a word-level step.
///
/// A box of at most 64 cells (nearly every shape to 15 cells, and the
/// regions its moves leave) floods on one machine word.
#[inline]
pub(crate) fn flood(seed: u128, within: u128, w: usize, h: usize) -> u128 {
    if w * h <= 64 {
        return u128::from(flood64(seed as u64, within as u64, w, h));
    }
    let c0 = col0_mask(w, h);
    let not_first = !c0;
    let not_last = !(c0 << (w - 1));
    partizan_games::flood(seed, within, |x| {
        x | ((x << 1) & not_first) | ((x >> 1) & not_last) | (x << w) | (x >> w)
    })
}

/// [`flood`] on a box of at most 64 cells.
#[inline]
fn flood64(seed: u64, within: u64, w: usize, h: usize) -> u64 {
    let c0 = col0_mask(w, h) as u64;
    let not_first = !c0;
    let not_last = !(c0 << (w - 1));
    let mut comp = seed & within;
    let mut frontier = comp;
    while frontier != 0 {
        let x = frontier;
        // a 64-wide box has one row: nothing above or below
        let (up, down) = (
            x.checked_shl(w as u32).unwrap_or(0),
            x.checked_shr(w as u32).unwrap_or(0),
        );
        let grown =
            (x | ((x << 1) & not_first) | ((x >> 1) & not_last) | up | down) & within & !comp;
        comp |= grown;
        frontier = grown;
    }
    comp
}

/// Mirror a `w`-wide box of `h` rows (at most 64 cells) top to bottom.
#[inline]
fn flip_rows64(x: u64, w: usize, h: usize) -> u64 {
    if h == 1 {
        return x;
    }
    // h >= 2, so w <= 32
    let row = (1u64 << w) - 1;
    let mut out = 0u64;
    for r in 0..h {
        out |= ((x >> (r * w)) & row) << ((h - 1 - r) * w);
    }
    out
}

/// Reflect a `w`-wide box of `h` rows (at most 64 cells) in its main
/// diagonal: the result is `h` wide.
#[inline]
fn transpose64(x: u64, w: usize, h: usize) -> u64 {
    let mut out = 0u64;
    let mut m = x;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        out |= 1 << ((i % w) * h + i / w);
    }
    out
}

/// Cells of `within` four-adjacent to some cell of `x` but not in `x`.
#[inline]
pub(crate) fn neighbours(x: u128, within: u128, w: usize, h: usize) -> u128 {
    let c0 = col0_mask(w, h);
    (((x << 1) & !c0) | ((x >> 1) & !(c0 << (w - 1))) | (x << w) | (x >> w)) & within & !x
}

impl Shape {
    /// The largest region size a `Shape` is guaranteed to hold.
    pub const MAX_CELLS: usize = 21;

    /// The largest box area a `Shape` holds.
    pub const MAX_AREA: usize = 128;

    /// A shape from a cropped bitmask; fails if the box is too large, bits
    /// lie outside it, or a border row or column is empty.
    pub fn new(width: usize, height: usize, cells: u128) -> Result<Shape, ShapeError> {
        if width == 0 || height == 0 || width * height > 128 {
            return Err(ShapeError::TooLarge { width, height });
        }
        if cells == 0 {
            return Err(ShapeError::Empty);
        }
        let area = width * height;
        if area < 128 && cells >> area != 0 {
            return Err(ShapeError::OutOfBox { width, height });
        }
        // cropped: a cell in the first and last row and column (what
        // cropping with `from_mask` would find, without moving a row)
        let col0 = col0_mask(width, height);
        let cropped = cells & low_bits(width) != 0
            && cells >> ((height - 1) * width) != 0
            && cells & col0 != 0
            && cells & (col0 << (width - 1)) != 0;
        if !cropped {
            return Err(ShapeError::NotCropped { width, height });
        }
        Ok(mk(width, height, cells))
    }

    /// Crop an arbitrary non-empty mask of a `w`-wide box (up to
    /// 128 cells) to its bounding box. Panics only on an empty mask, which
    /// callers rule out.
    #[inline]
    pub(crate) fn from_mask(mask: u128, w: usize) -> Shape {
        debug_assert!(mask != 0);
        let row_mask = low_bits(w);
        let min_r = mask.trailing_zeros() as usize / w;
        let max_r = (127 - mask.leading_zeros() as usize) / w;
        let mut cols = 0u128;
        for r in min_r..=max_r {
            cols |= (mask >> (r * w)) & row_mask;
        }
        let min_c = cols.trailing_zeros() as usize;
        let max_c = 127 - cols.leading_zeros() as usize;
        let nw = max_c - min_c + 1;
        let nh = max_r - min_r + 1;
        if min_c == 0 && nw == w {
            // full width: the rows are already in place
            return mk(nw, nh, mask >> (min_r * w));
        }
        let mut out = 0u128;
        for r in min_r..=max_r {
            let row = ((mask >> (r * w)) & row_mask) >> min_c;
            out |= row << ((r - min_r) * nw);
        }
        mk(nw, nh, out)
    }

    /// The row-major mask of the cells.
    #[inline(always)]
    fn cells(&self) -> u128 {
        (u128::from(self.hi) << 64) | u128::from(self.lo)
    }

    /// A shape from `(row, col)` pairs (any offset; cropped). `None` if the
    /// list is empty or the bounding box is above 128 cells.
    pub fn from_cells<I: IntoIterator<Item = (usize, usize)>>(cells: I) -> Option<Shape> {
        let v: Vec<(usize, usize)> = cells.into_iter().collect();
        let min_r = v.iter().map(|p| p.0).min()?;
        let min_c = v.iter().map(|p| p.1).min()?;
        let max_r = v.iter().map(|p| p.0).max()?;
        let max_c = v.iter().map(|p| p.1).max()?;
        let (w, h) = (max_c - min_c + 1, max_r - min_r + 1);
        if w * h > 128 {
            return None;
        }
        let mut m = 0u128;
        for (r, c) in v {
            m |= 1 << ((r - min_r) * w + (c - min_c));
        }
        Some(mk(w, h, m))
    }

    /// Parse rows of `.` (cell) and `#` (hole) separated by `|` or newlines;
    /// the result is cropped to its cells.
    pub fn parse(text: &str) -> Result<Shape, ShapeError> {
        let mut cells = Vec::new();
        let mut width = None;
        let mut offset = 0;
        let rows: Vec<&str> = text
            .trim()
            .split(['|', '\n'])
            .map(|r| r.trim_end_matches('\r'))
            .collect();
        for (r, row) in rows.iter().enumerate() {
            let len = row.chars().count();
            match width {
                None => width = Some(len),
                Some(w) if w != len => {
                    return Err(ShapeError::Ragged {
                        row: r,
                        expected: w,
                        found: len,
                    })
                }
                _ => {}
            }
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    '.' => cells.push((r, c)),
                    '#' => {}
                    other => {
                        return Err(ShapeError::BadChar {
                            offset: offset + c,
                            found: other,
                        })
                    }
                }
            }
            offset += row.len() + 1;
        }
        if cells.is_empty() {
            return Err(ShapeError::Empty);
        }
        let w = width.unwrap_or(0);
        let h = rows.len();
        Shape::from_cells(cells).ok_or(ShapeError::TooLarge {
            width: w,
            height: h,
        })
    }

    /// Width of the bounding box.
    #[inline]
    #[must_use]
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Height of the bounding box.
    #[inline]
    #[must_use]
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// The row-major bitmask of cells (`row * width + col`).
    #[inline]
    #[must_use]
    pub fn bits(&self) -> u128 {
        self.cells()
    }

    /// Number of cells.
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        (self.hi.count_ones() + self.lo.count_ones()) as usize
    }

    /// Always false: a shape has at least one cell.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.cells() == 0
    }

    /// Whether `(row, col)` is a cell.
    #[inline]
    #[must_use]
    pub fn contains(&self, row: usize, col: usize) -> bool {
        row < self.height()
            && col < self.width()
            && self.cells() >> (row * self.width() + col) & 1 == 1
    }

    /// One row or one column: the strips.
    #[must_use]
    pub fn is_strip(&self) -> bool {
        self.width == 1 || self.height == 1
    }

    /// Whether the cells are four-connected.
    #[must_use]
    pub fn is_connected(&self) -> bool {
        let m = self.cells();
        flood(m & m.wrapping_neg(), m, self.width(), self.height()) == m
    }

    /// The image of this shape under a symmetry (cropped; the box of a
    /// cropped shape maps onto the cropped box of the image).
    ///
    /// Row-major order makes the half turn a bit reversal of the box, and
    /// every other symmetry a composition of it with a row flip and a
    /// transpose.
    #[must_use]
    pub fn transform(&self, s: Sym) -> Shape {
        match s {
            Sym::Identity => *self,
            Sym::Rot180 => self.rot180(),
            Sym::FlipRows => self.flip_rows(),
            Sym::FlipCols => self.rot180().flip_rows(),
            Sym::Transpose => self.transpose(),
            Sym::AntiTranspose => self.transpose().rot180(),
            Sym::Rot90 => self.transpose().rot180().flip_rows(),
            Sym::Rot270 => self.transpose().flip_rows(),
        }
    }

    /// Half turn: cell `i` of the box goes to `area - 1 - i`.
    #[inline]
    fn rot180(&self) -> Shape {
        let area = self.width() * self.height();
        if area <= 64 {
            // one word's bit reversal instead of two
            return mk(
                self.width(),
                self.height(),
                u128::from(self.lo.reverse_bits() >> (64 - area)),
            );
        }
        mk(
            self.width(),
            self.height(),
            self.cells().reverse_bits() >> (128 - area),
        )
    }

    /// Mirror top to bottom, a row at a time.
    #[inline]
    fn flip_rows(&self) -> Shape {
        let (w, h) = (self.width(), self.height());
        let row_mask = low_bits(w);
        let cells = self.cells();
        let mut out = 0u128;
        for r in 0..h {
            out |= ((cells >> (r * w)) & row_mask) << ((h - 1 - r) * w);
        }
        mk(w, h, out)
    }

    /// Reflect in the main diagonal, a cell at a time.
    #[inline]
    fn transpose(&self) -> Shape {
        let (w, h) = (self.width(), self.height());
        let mut out = 0u128;
        let mut m = self.cells();
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            out |= 1 << ((i % w) * h + i / w);
        }
        mk(h, w, out)
    }

    /// The image under a symmetry computed cell by cell from its definition
    /// (the twin of [`Shape::transform`] in tests).
    #[must_use]
    pub fn transform_by_cells(&self, s: Sym) -> Shape {
        let (w, h) = (self.width(), self.height());
        let nw = if s.swaps_axes() { h } else { w };
        let mut out = 0u128;
        let mut m = self.cells();
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let (r, c) = s.map_cell(i / w, i % w, w, h);
            out |= 1 << (r * nw + c);
        }
        let (nw, nh) = if s.swaps_axes() { (h, w) } else { (w, h) };
        mk(nw, nh, out)
    }

    /// The canonical representative under `group`: the minimum image.
    #[must_use]
    pub fn canonical(&self, group: Group) -> Shape {
        self.canonical_with(group).0
    }

    /// The canonical representative and a symmetry taking `self` to it. When
    /// several do, the one listed first in [`Sym::ALL`] is returned, so a
    /// row-preserving one is preferred.
    ///
    /// Images compare by width first, so when the box is wider than high
    /// only the axis-swapping images can win, and when it is higher than
    /// wide only the row-preserving ones.
    #[must_use]
    pub fn canonical_with(&self, group: Group) -> (Shape, Sym) {
        if self.width() * self.height() <= 64 {
            return self.canonical_with64(group);
        }
        let (w, h) = (self.width, self.height);
        let mut best: Option<(Shape, Sym)> = None;
        let mut offer = |t: Shape, s: Sym| {
            if best.is_none_or(|b| t < b.0) {
                best = Some((t, s));
            }
        };
        if group == Group::RowPreserving || w <= h {
            let r = self.rot180();
            offer(*self, Sym::Identity);
            offer(self.flip_rows(), Sym::FlipRows);
            offer(r.flip_rows(), Sym::FlipCols);
            offer(r, Sym::Rot180);
        }
        if group == Group::Square && w >= h {
            let t = self.transpose();
            let tr = t.rot180();
            offer(t, Sym::Transpose);
            offer(tr, Sym::AntiTranspose);
            offer(tr.flip_rows(), Sym::Rot90);
            offer(t.flip_rows(), Sym::Rot270);
        }
        best.expect("at least one image offered")
    }

    /// [`Shape::canonical_with`] for a box of at most 64 cells, on one
    /// machine word. Every image it offers has the same box (the
    /// row-preserving ones keep it; the axis-swapping ones, offered only
    /// when `w >= h`, and alone when `w > h`, swap it), so the least image
    /// is the least mask: one `u64` comparison instead of the derived
    /// order's four fields. (The 128-bit shape made the census 19% slower
    /// through this function; this is the mend.)
    fn canonical_with64(&self, group: Group) -> (Shape, Sym) {
        let (w, h) = (self.width(), self.height());
        let area = w * h;
        let m = self.lo;
        let rev = |x: u64| x.reverse_bits() >> (64 - area);
        let mut best = (m, Sym::Identity);
        let mut any = false;
        let mut offer = |bits: u64, sym: Sym| {
            if !any || bits < best.0 {
                best = (bits, sym);
                any = true;
            }
        };
        if group == Group::RowPreserving || w <= h {
            let r = rev(m);
            offer(m, Sym::Identity);
            offer(flip_rows64(m, w, h), Sym::FlipRows);
            offer(flip_rows64(r, w, h), Sym::FlipCols);
            offer(r, Sym::Rot180);
        }
        if group == Group::Square && w >= h {
            let t = transpose64(m, w, h);
            let tr = rev(t);
            offer(t, Sym::Transpose);
            offer(tr, Sym::AntiTranspose);
            offer(flip_rows64(tr, h, w), Sym::Rot90);
            offer(flip_rows64(t, h, w), Sym::Rot270);
        }
        let (nw, nh) = if best.1.swaps_axes() { (h, w) } else { (w, h) };
        (mk(nw, nh, u128::from(best.0)), best.1)
    }

    /// Number of distinct images under `group` (the orbit size): how many
    /// fixed placements the class stands for.
    #[must_use]
    pub fn orbit_len(&self, group: Group) -> usize {
        let mut seen: Vec<Shape> = group.syms().iter().map(|&s| self.transform(s)).collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    }

    /// The four-connected components, each cropped, in order of their lowest
    /// cell.
    pub fn components(&self) -> Vec<Shape> {
        let mut out = Vec::new();
        split_mask(self.cells(), self.width(), self.height(), |s| out.push(s));
        out
    }

    /// Run lengths along rows (horizontal runs), row by row, left to right.
    /// A cell with no horizontal neighbour is a run of length one.
    pub fn horizontal_runs(&self) -> Vec<u32> {
        let (w, h) = (self.width(), self.height());
        let mut runs = Vec::new();
        for r in 0..h {
            let mut len = 0;
            for c in 0..w {
                if self.contains(r, c) {
                    len += 1;
                } else if len > 0 {
                    runs.push(len);
                    len = 0;
                }
            }
            if len > 0 {
                runs.push(len);
            }
        }
        runs
    }

    /// Run lengths along columns (vertical runs), column by column.
    pub fn vertical_runs(&self) -> Vec<u32> {
        self.transform(Sym::Transpose).horizontal_runs()
    }

    /// Bits of the cells whose right-hand neighbour is also a cell: the left
    /// halves of the places a horizontal domino fits.
    #[inline]
    #[must_use]
    pub fn horizontal_slots(&self) -> u128 {
        let w = self.width();
        let c0 = col0_mask(w, self.height());
        let cells = self.cells();
        cells & (cells >> 1) & !(c0 << (w - 1))
    }

    /// Bits of the cells whose lower neighbour is also a cell: the top halves
    /// of the places a vertical domino fits.
    #[inline]
    #[must_use]
    pub fn vertical_slots(&self) -> u128 {
        let cells = self.cells();
        cells & cells.checked_shr(self.width() as u32).unwrap_or(0)
    }

    /// Rows of `.` (cell) and `#` (hole) joined by `|`.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity((self.width() + 1) * self.height());
        for r in 0..self.height() {
            if r > 0 {
                s.push('|');
            }
            for c in 0..self.width() {
                s.push(if self.contains(r, c) { '.' } else { '#' });
            }
        }
        s
    }
}

impl Shape {
    /// The Domineering/Cram position of this region: layer 0 (empty cells)
    /// is the shape's cells, the rest of the box is holes.
    #[must_use]
    pub fn to_board(&self) -> partizan_games::Board {
        partizan_games::Board::new(self.width(), self.height(), [self.cells(), 0, 0])
            .expect("a shape's box of at most 128 cells is a valid board")
    }

    /// The region of a Domineering/Cram board's empty cells (layer 0),
    /// cropped; `None` if there are none or their bounding box is above 128
    /// cells.
    #[must_use]
    pub fn from_board(b: &partizan_games::Board) -> Option<Shape> {
        let (w, h) = (b.width(), b.height());
        let m = b.layer(0);
        if m == 0 || w == 0 {
            return None;
        }
        let cells = (0..w * h)
            .filter(|&i| m >> i & 1 == 1)
            .map(|i| (i / w, i % w));
        Shape::from_cells(cells)
    }
}

/// A hasher for [`Shape`] keys: folds the words written and finishes with
/// the SplitMix64 mixer, so every output bit depends on every cell (Fx alone
/// leaves the low bits of a row-major mask poorly spread).
#[derive(Default, Clone, Copy, Debug)]
pub struct ShapeHasher(u64);

impl std::hash::Hasher for ShapeHasher {
    #[inline]
    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(23) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    #[inline]
    fn write_u128(&mut self, x: u128) {
        self.write_u64((x >> 64) as u64);
        self.write_u64(x as u64);
    }
}

/// A `HashMap` keyed by shapes with [`ShapeHasher`].
pub type ShapeMap<V> =
    std::collections::HashMap<Shape, V, std::hash::BuildHasherDefault<ShapeHasher>>;

/// Split a mask of a `w`-wide box into its cropped four-connected
/// components, calling `f` on each.
#[inline]
pub(crate) fn split_mask<F: FnMut(Shape)>(mask: u128, w: usize, h: usize, mut f: F) {
    let mut rest = mask;
    while rest != 0 {
        let comp = flood(rest & rest.wrapping_neg(), rest, w, h);
        rest &= !comp;
        f(Shape::from_mask(comp, w));
    }
}

impl fmt::Debug for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Shape({})", self.to_text())
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl std::str::FromStr for Shape {
    type Err = ShapeError;
    fn from_str(s: &str) -> Result<Shape, ShapeError> {
        Shape::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Shape::new` accepts a mask exactly when cropping it (its twin,
    /// `from_mask`) keeps its box, and then gives the cropped shape: sparse
    /// and dense masks in boxes from 1×1 to 128×1 and 1×128.
    #[test]
    fn new_accepts_exactly_the_cropped_masks() {
        let mut rng = crate::rng::SplitMix64::new(42);
        let mut accepted = 0;
        for _ in 0..200_000 {
            let w = 1 + rng.below(16) as usize;
            let h = 1 + rng.below(16) as usize;
            let (w, h) = match rng.below(50) {
                0 => (128, 1),
                1 => (1, 128),
                2 => (8, 16),
                _ if w * h > 128 => (w, 128 / w),
                _ => (w, h),
            };
            let area = w * h;
            let inside = low_bits(area);
            let r = (u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64());
            let m = match rng.below(3) {
                0 => r,
                1 => r & (r >> 3) & (r >> 7),
                _ => r | (r >> 5),
            } & inside;
            if m == 0 {
                continue;
            }
            let twin = Shape::from_mask(m, w);
            let is_box = usize::from(twin.width) == w && usize::from(twin.height) == h;
            match Shape::new(w, h, m) {
                Ok(s) => {
                    assert!(is_box, "{w}x{h} {m:#x}");
                    assert_eq!(s, twin);
                    accepted += 1;
                }
                Err(e) => {
                    assert!(!is_box, "{w}x{h} {m:#x}: {e}");
                    assert!(matches!(e, ShapeError::NotCropped { .. }), "{e}");
                }
            }
        }
        assert!(accepted > 10_000, "{accepted}");
    }

    #[test]
    fn parse_and_print_round_trip() {
        let s = Shape::parse(".#|..|..").unwrap();
        assert_eq!((s.width(), s.height(), s.len()), (2, 3, 5));
        assert_eq!(s.to_text(), ".#|..|..");
        assert_eq!(Shape::parse("###|#.#|###").unwrap().to_text(), ".");
        assert!(matches!(Shape::parse("#"), Err(ShapeError::Empty)));
        assert!(matches!(
            Shape::parse("..|."),
            Err(ShapeError::Ragged { .. })
        ));
        assert!(matches!(
            Shape::parse(".x"),
            Err(ShapeError::BadChar { found: 'x', .. })
        ));
    }

    #[test]
    fn transforms_form_a_group() {
        let s = Shape::parse("..#|.##|...").unwrap();
        for &a in &Sym::ALL {
            let t = s.transform(a);
            assert_eq!(t.len(), s.len());
            // every element has an inverse in the group
            assert!(Sym::ALL.iter().any(|&b| t.transform(b) == s));
        }
        assert_eq!(s.transform(Sym::Transpose).transform(Sym::Transpose), s);
        assert_eq!(
            s.transform(Sym::Rot90).transform(Sym::Rot90),
            s.transform(Sym::Rot180)
        );
        assert_eq!(s.transform(Sym::Rot90).transform(Sym::Rot270), s);
        assert_eq!(
            Shape::parse("..|.#")
                .unwrap()
                .transform(Sym::Rot90)
                .to_text(),
            "..|#."
        );
    }

    #[test]
    fn one_word_canonical_forms_match_the_definition() {
        let mut shapes: Vec<Shape> = crate::Catalogue::build(Group::Square, 8)
            .iter()
            .copied()
            .collect();
        // wide boxes, a 64-cell row and a box past one word
        for text in [
            "................................................................",
            ".|.|.|.|.|.|.|.|.",
            "........#|#........",
            "..........|#.........",
            "#########|.#######.|##.####..|###.###.#|####.#.##|#####.###|######.##|.#######.",
        ] {
            shapes.push(Shape::parse(text).unwrap());
        }
        for s0 in shapes {
            for &a in &Sym::ALL {
                let s = s0.transform_by_cells(a);
                for g in [Group::RowPreserving, Group::Square] {
                    let (c, sym) = s.canonical_with(g);
                    let slow = g
                        .syms()
                        .iter()
                        .map(|&b| s.transform_by_cells(b))
                        .min()
                        .unwrap();
                    assert_eq!(c, slow, "{s} {g:?}");
                    assert_eq!(s.transform(sym), c, "{s} {g:?} {sym:?}");
                    // the first symmetry in Sym::ALL order reaching it
                    let first = g
                        .syms()
                        .iter()
                        .find(|&&b| s.transform_by_cells(b) == c)
                        .unwrap();
                    assert_eq!(sym, *first, "{s} {g:?}");
                }
            }
        }
    }

    #[test]
    fn fast_transforms_match_the_definition() {
        for text in [
            "..#|.##|...",
            ".",
            "....",
            ".|.|.",
            "..|.#|.#|.#",
            "#..|..#",
        ] {
            let s = Shape::parse(text).unwrap();
            for &a in &Sym::ALL {
                assert_eq!(s.transform(a), s.transform_by_cells(a), "{text} {a:?}");
            }
            for g in [Group::RowPreserving, Group::Square] {
                let (c, sym) = s.canonical_with(g);
                let slow = g
                    .syms()
                    .iter()
                    .map(|&a| s.transform_by_cells(a))
                    .min()
                    .unwrap();
                assert_eq!(c, slow);
                assert_eq!(s.transform(sym), c);
                assert!(g.syms().contains(&sym));
            }
        }
    }

    #[test]
    fn components_and_slots() {
        let s = Shape::parse(".#.|.#.|...").unwrap();
        assert!(s.is_connected());
        let split = Shape::new(3, 2, s.bits() & 0b111_111).unwrap();
        assert_eq!(split.components().len(), 2);
        assert_eq!(s.vertical_slots().count_ones(), 4);
        assert_eq!(s.horizontal_slots().count_ones(), 2);
        assert_eq!(s.vertical_runs(), vec![3, 1, 3]);
        assert_eq!(s.horizontal_runs(), vec![1, 1, 1, 1, 3]);
    }

    #[test]
    fn board_round_trip() {
        use partizan_games::{Domineering, Ruleset};
        let s = Shape::parse(".#.|.#.|...").unwrap();
        let b = s.to_board();
        assert_eq!(Domineering.format(&b), s.to_text());
        assert_eq!(Shape::from_board(&b), Some(s));
        let parsed = Domineering.parse("###|#..|#.#").unwrap();
        assert_eq!(Shape::from_board(&parsed).unwrap().to_text(), "..|.#");
    }

    #[test]
    fn new_validates() {
        assert!(Shape::new(2, 2, 0b1111).is_ok());
        assert!(Shape::new(3, 2, 0b011_011).is_err());
        assert!(Shape::new(9, 8, 1).is_err());
        assert!(Shape::new(2, 2, 0).is_err());
        assert!(Shape::new(2, 2, 1 << 4).is_err());
        let wide = Shape::new(64, 1, u128::from(u64::MAX)).unwrap();
        assert_eq!(wide.vertical_slots(), 0);
        assert_eq!(wide.horizontal_slots().count_ones(), 63);
        assert_eq!(wide.transform(Sym::Rot90).width(), 1);
        assert_eq!(wide.canonical(Group::Square).width(), 1);
    }
}
