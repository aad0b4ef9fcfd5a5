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
    let mut best: Option<(Board, bool)> = None;
    for &s in r.symmetries() {
        let img = r.apply(&c, s);
        if best.is_none_or(|(b, _)| img < b) {
            best = Some((img, s.negates));
        }
    }
    best.unwrap_or((c, false))
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
}
