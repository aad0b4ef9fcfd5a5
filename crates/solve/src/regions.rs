//! Regions: the connected components of a ruleset's footprint relation,
//! and the folding of a region over the ruleset's symmetries.
//!
//! Nothing here knows an adjacency: two cells share a region when some move
//! the rules could ever offer touches both, as the ruleset's
//! [`Ruleset::related`] says. Four-adjacency for Domineering, runs of three
//! for Konane and king moves for Amazons all come from the rulesets.

use partizan_games::{Bits, Board, Ruleset};

/// The regions of `b`: components of the footprint relation over
/// `r.cells(b)`, lowest cell first; a cell no footprint touches is a region
/// of its own.
///
/// ```
/// use partizan_games::{Domineering, Ruleset};
/// use partizan_solve::regions::regions;
/// let b = Domineering.parse("..#..|..#..").unwrap();
/// assert_eq!(regions(&Domineering, &b).len(), 2);
/// ```
#[must_use]
pub fn regions<R: Ruleset>(r: &R, b: &Board) -> Vec<Bits> {
    regions_with_cost(r, b).0
}

/// [`regions`] together with the number of squares the pass visited
/// (each cell of the position is taken into a region once: the pass's
/// price is the board's size, whatever it finds).
#[must_use]
pub fn regions_with_cost<R: Ruleset>(r: &R, b: &Board) -> (Vec<Bits>, u64) {
    let mut out = Vec::new();
    let visited = push_regions(r, b, &mut out);
    (out, visited)
}

/// [`regions_with_cost`] appending the regions to `out` (no allocation
/// once `out` has room); returns the squares visited.
pub fn push_regions<R: Ruleset>(r: &R, b: &Board, out: &mut Vec<Bits>) -> u64 {
    fill_regions(r, b, out, false)
}

/// The same pass in no particular order: each fill starts from a cell in
/// the middle of what is left, so a fill takes fewer steps (one
/// [`Ruleset::related`] call per step) than from a corner. The regions
/// and the squares visited are those of [`push_regions`].
pub fn push_regions_unordered<R: Ruleset>(r: &R, b: &Board, out: &mut Vec<Bits>) -> u64 {
    fill_regions(r, b, out, true)
}

#[inline]
fn fill_regions<R: Ruleset>(r: &R, b: &Board, out: &mut Vec<Bits>, central: bool) -> u64 {
    let cells = r.cells(b);
    let mut left = cells;
    while left != 0 {
        let seed = if central {
            // The lowest cell at or above the middle bit of what is left.
            let mid = (128 - left.leading_zeros() + left.trailing_zeros()) / 2;
            let upper = left & (!0u128 << mid);
            upper & upper.wrapping_neg()
        } else {
            left & left.wrapping_neg()
        };
        let mut comp = seed;
        let mut frontier = seed;
        // A fill that has taken every cell left is done without the step
        // that would find nothing more.
        while frontier != 0 && comp != left {
            let grown = r.related(b, frontier) & left & !comp;
            comp |= grown;
            frontier = grown;
        }
        left &= !comp;
        out.push(comp);
    }
    // Every cell joins exactly one frontier.
    u64::from(cells.count_ones())
}

/// The board of one region: cells outside `mask` become holes and the
/// rectangle is cropped to what is left.
#[must_use]
#[inline]
pub fn region_board(b: &Board, mask: Bits) -> Board {
    b.restrict(mask).crop()
}

/// The canonical representative of `b` under the ruleset's symmetries:
/// crop, apply every symmetry to that (original, cropped) board and keep the
/// least image (`Ord` on [`Board`]). The flag says whether the chosen
/// symmetry negates the value; on ties the earlier symmetry (identity
/// first) wins.
#[must_use]
pub fn canonical_key<R: Ruleset>(r: &R, b: &Board) -> (Board, bool) {
    let c = b.crop();
    // A ruleset that folds by relabelling (graph automorphisms) gives the
    // representative of the whole class itself.
    if let Some(k) = r.fold_isomorphic(&c) {
        return k;
    }
    // `Board` orders by width first, then height: an image whose width is
    // larger than the smallest width on offer cannot be the least, so it is
    // never built (half the images of any non-square board).
    let (w, h) = (c.width(), c.height());
    let best_width = w.min(h);
    let mut best: Option<(Board, bool)> = None;
    for &s in r.symmetries() {
        let img_width = if s.transform.swaps_axes() { h } else { w };
        if img_width != best_width {
            continue;
        }
        let img = r.apply(&c, s);
        if best.is_none_or(|(b, _)| img < b) {
            best = Some((img, s.negates));
        }
    }
    best.unwrap_or((c, false))
}

/// The same fold, building every image: the brute-force twin of
/// [`canonical_key`].
#[must_use]
pub fn canonical_key_all<R: Ruleset>(r: &R, b: &Board) -> (Board, bool) {
    let c = b.crop();
    if let Some(k) = r.fold_isomorphic(&c) {
        return k;
    }
    let mut best: Option<(Board, bool)> = None;
    for &s in r.symmetries() {
        let img = r.apply(&c, s);
        if best.is_none_or(|(b, _)| img < b) {
            best = Some((img, s.negates));
        }
    }
    best.unwrap_or((c, false))
}

/// Small boards: at most 8 x 8, only layer 0 occupied. Such a board is held
/// as a `u64` in *stride 8* (cell (r, c) at bit `8 r + c`), where the eight
/// symmetries are a handful of word operations and a cropped board is its
/// own memo key (its bounding box is read off its bits).
///
/// Stride 8 orders like the board's own stride: both are row-major, so the
/// integer order of two images of equal shape is the order of their layer 0
/// (the order [`canonical_key`] minimises).
pub mod small {
    use partizan_games::{Bits, Board, Ruleset, Transform};

    /// Largest width and height of a small board.
    pub const SIDE: usize = 8;

    /// Layer 0 of a `w` x `h` board (`w, h <= 8`) re-strided to 8.
    #[must_use]
    #[inline]
    pub fn to8(l: Bits, w: usize, h: usize) -> u64 {
        debug_assert!(w <= SIDE && h <= SIDE);
        if w == SIDE {
            return l as u64;
        }
        // At most 7 x 8 = 56 cells: the board fits a word already.
        let l = l as u64;
        let row: u64 = (1 << w) - 1;
        let mut m = 0u64;
        for r in 0..h {
            m |= ((l >> (r * w)) & row) << (8 * r);
        }
        m
    }

    /// The stride-8 board back in stride `w`.
    #[must_use]
    #[inline]
    pub fn from8(m: u64, w: usize, h: usize) -> Bits {
        if w == SIDE {
            return Bits::from(m);
        }
        let mut l = 0u64;
        for r in 0..h {
            l |= ((m >> (8 * r)) & 0xff) << (r * w);
        }
        Bits::from(l)
    }

    /// The union of the rows (the occupied columns) of a stride-8 set.
    #[inline]
    fn columns(m: u64) -> u64 {
        let f = m | (m >> 32);
        let f = f | (f >> 16);
        (f | (f >> 8)) & 0xff
    }

    /// Width and height of the bounding box of a cropped stride-8 set
    /// (`(0, 0)` for the empty set).
    #[must_use]
    #[inline]
    pub fn dims(m: u64) -> (usize, usize) {
        if m == 0 {
            return (0, 0);
        }
        let w = 64 - columns(m).leading_zeros() as usize;
        let h = (64 - m.leading_zeros() as usize).div_ceil(8);
        (w, h)
    }

    /// Shift a stride-8 set to the top-left corner (the crop).
    #[must_use]
    #[inline]
    pub fn crop(m: u64) -> u64 {
        if m == 0 {
            return 0;
        }
        let top = m.trailing_zeros() & !7;
        let left = columns(m).trailing_zeros();
        m >> (top + left)
    }

    /// Mirror top-bottom a cropped set `h` rows high.
    #[inline]
    fn flip_rows(m: u64, h: usize) -> u64 {
        m.swap_bytes() >> (8 * (SIDE - h))
    }

    /// Mirror left-right a cropped set `w` columns wide.
    #[inline]
    fn flip_cols(m: u64, w: usize) -> u64 {
        m.reverse_bits().swap_bytes() >> (SIDE - w)
    }

    /// Mirror in the main diagonal (row r, col c) -> (row c, col r).
    #[inline]
    fn transpose(mut x: u64) -> u64 {
        const K1: u64 = 0x5500_5500_5500_5500;
        const K2: u64 = 0x3333_0000_3333_0000;
        const K4: u64 = 0x0f0f_0f0f_0000_0000;
        let t = K4 & (x ^ (x << 28));
        x ^= t ^ (t >> 28);
        let t = K2 & (x ^ (x << 14));
        x ^= t ^ (t >> 14);
        let t = K1 & (x ^ (x << 7));
        x ^= t ^ (t >> 7);
        x
    }

    /// The image of a cropped `w` x `h` set under `t` (cropped again).
    #[must_use]
    #[inline]
    pub fn transform(m: u64, w: usize, h: usize, t: Transform) -> u64 {
        if m == 0 {
            return 0;
        }
        let (fr, fc, tr) = t.parts();
        let mut x = m;
        if fr {
            x = flip_rows(x, h);
        }
        if fc {
            x = flip_cols(x, w);
        }
        if tr {
            x = transpose(x);
        }
        x
    }

    /// Whether the ruleset's symmetries act on boards holding only layer 0
    /// as their bare geometric transforms (so a [`Folder`] folds such
    /// boards exactly as [`canonical_key`](super::canonical_key) does).
    ///
    /// [`Ruleset::apply`] is the transform plus, for a negating symmetry, the
    /// ruleset's colour swap; this checks on asymmetric probe boards of
    /// several shapes that the colour swap leaves layer-0 boards alone
    /// (true of Domineering and Cram, false of the stone and queen games).
    #[must_use]
    pub fn geometric_on_layer0<R: Ruleset>(r: &R) -> bool {
        const PROBES: [(usize, usize, Bits); 5] = [
            (1, 1, 0b1),
            (3, 2, 0b011_110),
            (2, 3, 0b11_10_01),
            (4, 3, 0b0111_1101_0011),
            (5, 4, 0b01111_11011_10110_00111),
        ];
        PROBES.iter().all(|&(w, h, l)| {
            let Ok(b) = Board::new(w, h, [l, 0, 0]) else {
                return false;
            };
            // A ruleset folding by relabelling is not folded by transforms.
            r.fold_isomorphic(&b).is_none()
                && r.symmetries()
                    .iter()
                    .all(|&s| r.apply(&b, s) == b.transform(s.transform))
        })
    }

    /// Index of a transform among the images [`Folder::canonical`] builds:
    /// bit 0 flips rows, bit 1 flips columns, bit 2 transposes (last).
    #[inline]
    fn image_index(t: Transform) -> u8 {
        let (fr, fc, tr) = t.parts();
        u8::from(fr) | (u8::from(fc) << 1) | (u8::from(tr) << 2)
    }

    /// Folds small boards over a ruleset's symmetries with word operations.
    #[derive(Clone, Debug)]
    pub struct Folder {
        /// The ruleset's symmetries in order: image index and negation.
        order: Vec<(u8, bool)>,
    }

    impl Folder {
        /// The folder of a ruleset whose symmetries act geometrically on
        /// layer-0 boards (see [`geometric_on_layer0`]); `None` otherwise.
        #[must_use]
        pub fn new<R: Ruleset>(r: &R) -> Option<Folder> {
            geometric_on_layer0(r).then(|| Folder {
                order: r
                    .symmetries()
                    .iter()
                    .map(|s| (image_index(s.transform), s.negates))
                    .collect(),
            })
        }

        /// The least image of a cropped stride-8 set and whether its
        /// symmetry negates. Candidates, order and tie-breaking are those
        /// of [`canonical_key`](super::canonical_key): only images of the
        /// least width count, and the earlier symmetry wins a tie.
        #[must_use]
        #[inline]
        pub fn canonical(&self, m: u64) -> (u64, bool) {
            if m == 0 {
                // Every image of the empty board is itself: the first wins.
                return (0, self.order.first().is_some_and(|&(_, n)| n));
            }
            let (w, h) = dims(m);
            let mut img = [0u64; 8];
            if w <= h {
                img[0] = m;
                img[1] = flip_rows(m, h);
                img[2] = flip_cols(m, w);
                img[3] = flip_rows(img[2], h);
            }
            if h <= w {
                // Flipping before the transpose is flipping the other axis
                // after it (the transpose is h wide and w high).
                let t = transpose(m);
                img[4] = t;
                img[5] = flip_cols(t, h);
                img[6] = flip_rows(t, w);
                img[7] = flip_rows(img[5], w);
            }
            let mut best = (m, false);
            let mut found = false;
            for &(i, negates) in &self.order {
                let swaps = i >= 4;
                if (swaps && h > w) || (!swaps && w > h) {
                    continue;
                }
                let x = img[i as usize];
                if !found || x < best.0 {
                    best = (x, negates);
                    found = true;
                }
            }
            best
        }
    }

    /// The stride-8 key of a cropped board, if it is small.
    #[must_use]
    #[inline]
    pub fn key(c: &Board) -> Option<u64> {
        let (w, h) = (c.width(), c.height());
        (w <= SIDE && h <= SIDE && c.layer(1) == 0 && c.layer(2) == 0)
            .then(|| to8(c.layer(0), w, h))
    }

    /// The cropped stride-8 key of a board of any frame, if its crop is
    /// small.
    #[must_use]
    #[inline]
    pub fn crop_key(b: &Board) -> Option<u64> {
        if b.layer(1) != 0 || b.layer(2) != 0 {
            return None;
        }
        let (w, h) = (b.width(), b.height());
        if w <= SIDE && h <= SIDE {
            Some(crop(to8(b.layer(0), w, h)))
        } else {
            key(&b.crop())
        }
    }

    /// The board a key stands for.
    #[must_use]
    pub fn board(m: u64) -> Board {
        let (w, h) = dims(m);
        if w == 0 {
            return Board::EMPTY;
        }
        Board::new(w, h, [from8(m, w, h), 0, 0]).expect("a stride-8 key fits its box")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_games::{Amazons, Clobber, Cram, Domineering, Konane, Player};

    #[test]
    fn domineering_regions() {
        let d = Domineering;
        let b = d.parse("..#..|..#..|.....").unwrap();
        assert_eq!(regions(&d, &b).len(), 1);
        let b = d.parse("..#..|..#..|..#..").unwrap();
        let rs = regions(&d, &b);
        assert_eq!(rs.len(), 2);
        assert_eq!(rs.iter().map(|m| m.count_ones()).sum::<u32>(), 12);
        // An isolated cell is a region of its own.
        let b = d.parse(".#.|###|..#").unwrap();
        let rs = regions(&d, &b);
        assert_eq!(rs.len(), 3);
        let (_, cost) = regions_with_cost(&d, &b);
        assert_eq!(cost, 4);
    }

    #[test]
    fn konane_single_gap_joins() {
        let k = Konane;
        let b = k.parse("xo.ox").unwrap();
        assert_eq!(regions(&k, &b), vec![0b11111]);
        // A hole does separate.
        let b = k.parse("xo.#.ox").unwrap();
        assert_eq!(regions(&k, &b), vec![0b000_0111, 0b111_0000]);
    }

    #[test]
    fn amazons_regions_by_king_moves() {
        let a = Amazons;
        let b = a.parse("L.#..|..#.R|..#..").unwrap();
        assert_eq!(regions(&a, &b).len(), 2);
        // Diagonal gaps join.
        let b = a.parse("L.#..|..##R|.#...").unwrap();
        assert_eq!(regions(&a, &b).len(), 1);
    }

    #[test]
    fn region_board_crops() {
        let d = Domineering;
        let b = d.parse("..#..|..#..").unwrap();
        let rs = regions(&d, &b);
        let sub = region_board(&b, rs[1]);
        assert_eq!(d.format(&sub), "..|..");
    }

    #[test]
    fn canonical_key_folds() {
        let d = Domineering;
        let a = d.parse("...|.#.").unwrap();
        let b = d.parse(".#.|...").unwrap();
        assert_eq!(canonical_key(&d, &a), canonical_key(&d, &b));
        // A transposed board folds to the same key, negated.
        let t = d.parse("..|.#|..").unwrap();
        let (ka, na) = canonical_key(&d, &a);
        let (kt, nt) = canonical_key(&d, &t);
        assert_eq!(ka, kt);
        assert_ne!(na, nt);
        // Cropping comes first.
        let padded = d.parse("####|#...|#.#.|####").unwrap();
        assert_eq!(canonical_key(&d, &padded).0, ka);
        for t in ["...|.#.", "..|.#|..", "#..|...|..#", "....|.#..|...."] {
            let b = d.parse(t).unwrap();
            assert_eq!(canonical_key(&d, &b), canonical_key_all(&d, &b), "{t}");
        }
        // Clobber colour swap negates.
        let c = Clobber;
        let (k1, n1) = canonical_key(&c, &c.parse("xxo").unwrap());
        let (k2, n2) = canonical_key(&c, &c.parse("oox").unwrap());
        assert_eq!(k1, k2);
        assert_ne!(n1, n2);
    }

    /// Without a split flagged, the regions after a move are those before,
    /// restricted to what is left.
    fn may_split_is_sound<R: Ruleset>(r: &R, text: &str) {
        let b = r.parse(text).unwrap();
        let before = regions(r, &b);
        for p in Player::BOTH {
            r.options(&b, p, |o| {
                if !r.may_split(&b, &o) {
                    let mut want: Vec<Bits> = before
                        .iter()
                        .map(|m| m & r.cells(&o))
                        .filter(|&m| m != 0)
                        .collect();
                    want.sort_unstable();
                    let mut got = regions(r, &o);
                    got.sort_unstable();
                    assert_eq!(got, want, "{} -> {}", r.format(&b), r.format(&o));
                }
            });
        }
    }

    #[test]
    fn may_split_sound() {
        for t in ["....|.#..|....|..#.", ".....|.....", "..#..|.....|#...."] {
            may_split_is_sound(&Domineering, t);
            may_split_is_sound(&Cram, t);
        }
        may_split_is_sound(&Clobber, "xox.|oxox|.xo.");
        may_split_is_sound(&Clobber, "xo|ox");
        may_split_is_sound(&Konane, "xo.o|.x.x|o.ox");
        may_split_is_sound(&Konane, "xo.");
        may_split_is_sound(&Amazons, "L..#|.#..|..#R");
        may_split_is_sound(&Amazons, "L.#.|.#..");
    }

    #[test]
    fn small_symmetries_act_geometrically_only_where_they_should() {
        assert!(small::geometric_on_layer0(&Domineering));
        assert!(small::geometric_on_layer0(&Cram));
        assert!(!small::geometric_on_layer0(&Clobber));
        assert!(!small::geometric_on_layer0(&Konane));
        assert!(!small::geometric_on_layer0(&Amazons));
        assert!(small::Folder::new(&Clobber).is_none());
    }

    /// A layer-0 board of `w` x `h` from random bits.
    fn layer0_board(w: usize, h: usize, bits: u64) -> Board {
        let l = Bits::from(bits) & partizan_games::board::rect_mask(w, h);
        Board::new(w, h, [l, 0, 0]).unwrap()
    }

    /// The word-operation twins against the board operations, on every
    /// shape up to 8 x 8 and on boards too wide or tall to be small.
    fn small_twin(w: usize, h: usize, bits: u64) {
        use partizan_games::Transform;
        let b = layer0_board(w, h, bits);
        let c = b.crop();
        let Some(m) = small::crop_key(&b) else {
            assert!(c.width() > small::SIDE || c.height() > small::SIDE);
            return;
        };
        assert_eq!(small::key(&c), Some(m));
        assert_eq!(small::board(m), c);
        assert_eq!(small::dims(m), (c.width(), c.height()));
        for t in Transform::ALL {
            let img = c.transform(t);
            assert_eq!(
                small::transform(m, c.width(), c.height(), t),
                small::key(&img).unwrap(),
                "{t:?} of {}",
                Domineering.format(&c)
            );
        }
        for (folder, r) in [
            (
                small::Folder::new(&Domineering),
                canonical_key_all(&Domineering, &b),
            ),
            (small::Folder::new(&Cram), canonical_key_all(&Cram, &b)),
        ] {
            let (k, negated) = folder.unwrap().canonical(m);
            assert_eq!((small::board(k), negated), r, "{}", Domineering.format(&b));
        }
    }

    #[test]
    fn small_boards_every_shape() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for w in 0..=9 {
            for h in 0..=9 {
                if w * h > 64 || (w == 0) != (h == 0) {
                    continue;
                }
                for _ in 0..40 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    small_twin(w, h, x);
                    small_twin(w, h, x & (x >> 3));
                    small_twin(w, h, !0);
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        #[test]
        fn small_fold_is_the_board_fold(w in 1usize..=8, h in 1usize..=8, bits: u64) {
            small_twin(w, h, bits);
        }
    }

    /// The pass as first written: fill from the lowest cell until a step
    /// finds nothing, paying for every cell of every frontier.
    fn reference_regions<R: Ruleset>(r: &R, b: &Board) -> (Vec<Bits>, u64) {
        let mut left = r.cells(b);
        let mut out = Vec::new();
        let mut visited = 0u64;
        while left != 0 {
            let seed = left & left.wrapping_neg();
            let mut comp = seed;
            let mut frontier = seed;
            while frontier != 0 {
                visited += u64::from(frontier.count_ones());
                let grown = r.related(b, frontier) & left & !comp;
                comp |= grown;
                frontier = grown;
            }
            left &= !comp;
            out.push(comp);
        }
        (out, visited)
    }

    /// Both passes find the regions of the pass as first written, at its
    /// price; the lowest-first one in its order too.
    fn unordered_twin<R: Ruleset>(r: &R, b: &Board) {
        let (mut want, cost) = reference_regions(r, b);
        assert_eq!(regions_with_cost(r, b), (want.clone(), cost));
        let mut got = vec![0b101];
        let got_cost = push_regions_unordered(r, b, &mut got);
        assert_eq!(got.remove(0), 0b101, "appends");
        want.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, want, "{}", r.format(b));
        assert_eq!(got_cost, cost, "{}", r.format(b));
        let mut lowest_first = Vec::new();
        assert_eq!(push_regions(r, b, &mut lowest_first), cost);
        assert_eq!(lowest_first, regions(r, b));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        #[test]
        fn unordered_regions_are_the_regions(w in 1usize..=9, h in 1usize..=7, a: u64, b: u64) {
            let l0 = (Bits::from(a) | (Bits::from(b) << 64)) & partizan_games::board::rect_mask(w, h);
            let holes = Bits::from(b.rotate_left(17) & a.rotate_left(5)) & l0;
            let dom = Board::new(w, h, [l0 & !holes, 0, 0]).unwrap();
            unordered_twin(&Domineering, &dom);
            unordered_twin(&Cram, &dom);
            // Two colours and holes for the stone games.
            let x = l0 & Bits::from(a.rotate_left(23));
            let stones = Board::new(w, h, [x & !holes, l0 & !x & !holes, 0]).unwrap();
            unordered_twin(&Clobber, &stones);
            let k = Board::new(w, h, [x & !holes, l0 & !x & !holes & Bits::from(b), holes]).unwrap();
            unordered_twin(&Konane, &k);
            unordered_twin(&Amazons, &k);
        }
    }
}
