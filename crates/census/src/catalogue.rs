//! Every region of up to `n` cells, one representative per symmetry class.
//!
//! Classes of size `n` are grown from the representatives of size `n - 1`:
//! every connected region has a cell whose removal leaves it connected (a
//! leaf of a spanning tree), so adding each neighbouring cell to each smaller
//! representative and canonicalising reaches every class. Children are
//! produced in parallel, then sorted and deduplicated. An independent
//! Redelmeier count of fixed polyominoes ([`count_fixed`]) is the twin check:
//! the orbit sizes of the representatives must add up to it.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::shape::{flood, neighbours, Group, Shape};

/// How many classes of `n` cells there are under the square's eight
/// symmetries (free polyominoes), for `n` from 0 to [`Shape::MAX_CELLS`]:
/// OEIS A000105, copied from oeis.org as data. A store's level is believed
/// to be the whole catalogue of its size when its shapes are distinct
/// canonical regions of that size and there are this many of them (see
/// `CatalogueCheck` in the atlas), without growing the catalogue again.
pub const FREE_POLYOMINOES: [u64; Shape::MAX_CELLS + 1] = [
    1,
    1,
    1,
    2,
    5,
    12,
    35,
    108,
    369,
    1_285,
    4_655,
    17_073,
    63_600,
    238_591,
    901_971,
    3_426_576,
    13_079_255,
    50_107_909,
    192_622_052,
    742_624_232,
    2_870_671_950,
    11_123_060_678,
];

/// The representatives of every class of regions up to `max_cells` cells,
/// grouped by size.
///
/// ```
/// use partizan_census::{Catalogue, Group};
/// let dom = Catalogue::build(Group::RowPreserving, 8);
/// assert_eq!(dom.len(), 1042);
/// let free = Catalogue::build(Group::Square, 8);
/// assert_eq!(free.counts(), [1, 1, 2, 5, 12, 35, 108, 369]);
/// ```
#[derive(Clone, Debug)]
pub struct Catalogue {
    group: Group,
    /// `by_size[k]` holds the representatives with `k + 1` cells, sorted.
    by_size: Vec<Vec<Shape>>,
}

impl Catalogue {
    /// Enumerate every region of `1..=max_cells` cells under `group`.
    ///
    /// Panics if `max_cells > Shape::MAX_CELLS`; [`crate::Census`] checks the
    /// bound and returns a typed error instead.
    #[must_use]
    pub fn build(group: Group, max_cells: usize) -> Catalogue {
        assert!(
            max_cells <= Shape::MAX_CELLS,
            "max_cells above Shape::MAX_CELLS"
        );
        let mut by_size: Vec<Vec<Shape>> = Vec::with_capacity(max_cells);
        if max_cells >= 1 {
            by_size.push(vec![Shape::from_cells([(0, 0)]).expect("one cell")]);
        }
        for _ in 2..=max_cells {
            let prev = by_size.last().expect("size one present");
            let next = Catalogue::grow_from(prev, group);
            by_size.push(next);
        }
        Catalogue { group, by_size }
    }

    /// The classes one cell larger than `parents` (every class of one size,
    /// canonical under `group`), sorted: one step of [`Catalogue::build`],
    /// for callers that keep only the sizes they are working on.
    #[must_use]
    pub fn grow_from(parents: &[Shape], group: Group) -> Vec<Shape> {
        grow(parents, group, &AtomicBool::new(false)).expect("never stopped")
    }

    /// [`Catalogue::grow_from`] that gives up, with `None`, soon after
    /// `stop` is raised (each parent asks it before growing its children,
    /// and the sort is skipped): how a build with a memory budget or a
    /// Ctrl-C handler stops during a growth step of a large size (18 cells:
    /// 192.6 M classes from 50.1 M parents) rather than after it.
    #[must_use]
    pub fn grow_from_until(
        parents: &[Shape],
        group: Group,
        stop: &AtomicBool,
    ) -> Option<Vec<Shape>> {
        grow(parents, group, stop)
    }

    /// The symmetry group the classes are taken under.
    #[must_use]
    pub fn group(&self) -> Group {
        self.group
    }

    /// The largest size enumerated.
    #[must_use]
    pub fn max_cells(&self) -> usize {
        self.by_size.len()
    }

    /// The representatives with exactly `cells` cells (empty outside
    /// `1..=max_cells`).
    #[must_use]
    pub fn of_size(&self, cells: usize) -> &[Shape] {
        if cells == 0 || cells > self.by_size.len() {
            return &[];
        }
        &self.by_size[cells - 1]
    }

    /// Total number of representatives.
    #[must_use]
    pub fn len(&self) -> usize {
        self.by_size.iter().map(Vec::len).sum()
    }

    /// Whether the catalogue holds no shape (only for `max_cells == 0`).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every representative, smallest sizes first, sorted within a size.
    pub fn iter(&self) -> impl Iterator<Item = &Shape> + '_ {
        self.by_size.iter().flatten()
    }

    /// Number of classes per size, index 0 = one cell.
    #[must_use]
    pub fn counts(&self) -> Vec<usize> {
        self.by_size.iter().map(Vec::len).collect()
    }

    /// Fixed placements per size: the orbit sizes of the representatives
    /// under the catalogue's group added up (each class stands for that many
    /// translation classes). Equals [`count_fixed`].
    #[must_use]
    pub fn fixed_counts(&self) -> Vec<u64> {
        let g = self.group;
        self.by_size
            .par_iter()
            .map(|v| v.iter().map(|s| s.orbit_len(g) as u64).sum::<u64>())
            .collect()
    }
}

/// Children of `parents` (one cell more), canonical under `group`, sorted and
/// deduplicated.
///
/// Each class is kept only by its *canonical parent* ([`canonical_parent`]),
/// so no child is produced by two parents and the list never holds the
/// duplicates a grow-then-deduplicate step would (about six per class at 16
/// cells: 13 M classes would pass through 80 M entries, 2 GB).
/// `None` when `stop` was raised before the last parent was grown.
fn grow(parents: &[Shape], group: Group, stop: &AtomicBool) -> Option<Vec<Shape>> {
    let mut children: Vec<Shape> = parents
        .par_iter()
        .fold(Vec::new, |mut acc, p| {
            if stop.load(Ordering::Relaxed) {
                return acc;
            }
            let start = acc.len();
            children_of(p, group, |c| {
                if canonical_parent(&c, group).as_ref() == Some(p) {
                    acc.push(c);
                }
            });
            // one parent can reach a child by two added cells
            acc[start..].sort_unstable();
            let mut tail = acc.split_off(start);
            tail.dedup();
            acc.extend(tail);
            acc
        })
        .flatten()
        .collect();
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    children.par_sort_unstable();
    debug_assert!(children.windows(2).all(|w| w[0] != w[1]));
    Some(children)
}

/// The class a canonical shape is grown from: the canonical form of `c`
/// without its last cell (highest bit) whose removal leaves it connected.
/// A function of the class alone, so each class has exactly one parent
/// class; `None` for a single cell.
fn canonical_parent(c: &Shape, group: Group) -> Option<Shape> {
    let (w, h) = (c.width(), c.height());
    let m = c.bits();
    if m.count_ones() < 2 {
        return None;
    }
    let mut s = m;
    while s != 0 {
        let bit = 1u128 << (127 - s.leading_zeros());
        s &= !bit;
        let rest = m & !bit;
        if flood(rest & rest.wrapping_neg(), rest, w, h) == rest {
            return Some(Shape::from_mask(rest, w).canonical(group));
        }
    }
    // a connected shape of two or more cells always has a non-cut cell
    None
}

/// The twin of [`grow`]: every child of every parent, then one global
/// sort and deduplication.
#[cfg(test)]
fn grow_by_dedup(parents: &[Shape], group: Group) -> Vec<Shape> {
    let mut children = Vec::new();
    for p in parents {
        children_of(p, group, |c| children.push(c));
    }
    children.sort_unstable();
    children.dedup();
    children
}

/// Call `f` on the canonical form of every shape made by adding one
/// neighbouring cell to `p`.
///
/// A new cell lies inside `p`'s box, or in the row just above or below it,
/// or in the column just left or right of it, so each child is built in a
/// box one row taller or one column wider than `p`'s, never in a frame a
/// cell wider on every side: a shape of `n` cells has `w + h <= n + 1`, so
/// `(w + 1) * h` and `w * (h + 1)` stay within 128 bits up to parents of 20
/// cells (11 x 11 = 121 bits), where a full frame would need 11 x 12 = 132
/// bits for parents of 18 cells already.
fn children_of<F: FnMut(Shape)>(p: &Shape, group: Group, mut f: F) {
    let (w, h) = (p.width(), p.height());
    debug_assert!((w + 1) * h <= 128 && w * (h + 1) <= 128);
    let m = p.bits();
    let mut each = |mut bits: u128, base: u128, width: usize| {
        while bits != 0 {
            let bit = bits & bits.wrapping_neg();
            bits &= bits - 1;
            f(Shape::from_mask(base | bit, width).canonical(group));
        }
    };
    // inside the box
    let area = w * h;
    let all: u128 = if area == 128 {
        u128::MAX
    } else {
        (1u128 << area) - 1
    };
    each(neighbours(m, all, w, h), m, w);
    // a row above (every row moved down one) or below
    let row = (1u128 << w) - 1;
    each(m & row, m << w, w);
    each(((m >> ((h - 1) * w)) & row) << (h * w), m, w);
    // a column left (every cell moved right one) or right
    let mut wide = 0u128;
    let (mut first_col, mut last_col) = (0u128, 0u128);
    for r in 0..h {
        let cells = (m >> (r * w)) & row;
        wide |= cells << (r * (w + 1));
        first_col |= (cells & 1) << (r * (w + 1));
        last_col |= ((cells >> (w - 1)) & 1) << (r * (w + 1) + w);
    }
    each(first_col, wide << 1, w + 1);
    each(last_col, wide, w + 1);
}

/// Redelmeier's count of fixed polyominoes (translations only) of each size
/// `1..=max_cells`; index 0 = one cell. Independent of [`Catalogue`].
#[must_use]
pub fn count_fixed(max_cells: usize) -> Vec<u64> {
    let n = max_cells;
    let mut counts = vec![0u64; n];
    if n == 0 {
        return counts;
    }
    // cells (x, y) with y >= 0, and x >= 0 when y == 0; x in [-(n-1), n-1]
    let width = 2 * n + 1;
    let height = n + 1;
    let idx = |x: isize, y: isize| -> usize { (y as usize) * width + (x + n as isize) as usize };
    let mut marked = vec![false; width * height];
    let origin = (0isize, 0isize);
    marked[idx(0, 0)] = true;
    let mut untried = vec![origin];
    redelmeier(&mut untried, 0, n, &mut marked, &mut counts, &idx);
    counts
}

fn redelmeier(
    untried: &mut Vec<(isize, isize)>,
    size: usize,
    n: usize,
    marked: &mut [bool],
    counts: &mut [u64],
    idx: &dyn Fn(isize, isize) -> usize,
) {
    while let Some((x, y)) = untried.pop() {
        counts[size] += 1;
        if size + 1 < n {
            let mut next = untried.clone();
            let mut added = Vec::with_capacity(4);
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (nx, ny) = (x + dx, y + dy);
                let valid = ny > 0 || (ny == 0 && nx >= 0);
                if !valid || nx.unsigned_abs() >= n || ny as usize >= n {
                    continue;
                }
                let i = idx(nx, ny);
                if !marked[i] {
                    marked[i] = true;
                    next.push((nx, ny));
                    added.push(i);
                }
            }
            redelmeier(&mut next, size + 1, n, marked, counts, idx);
            for i in added {
                marked[i] = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXED: [u64; 10] = [1, 2, 6, 19, 63, 216, 760, 2725, 9910, 36446];
    const FREE: [usize; 10] = [1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655];

    #[test]
    fn redelmeier_counts_fixed_polyominoes() {
        assert_eq!(count_fixed(10), FIXED.to_vec());
    }

    #[test]
    fn children_match_a_cell_by_cell_twin() {
        // The twin: cells as coordinates, every free neighbour of every
        // cell added, the result cropped by `from_cells`.
        fn twin(p: &Shape, group: Group) -> Vec<Shape> {
            let w = p.width();
            let cells: Vec<(usize, usize)> = (0..w * p.height())
                .filter(|&i| p.bits() >> i & 1 == 1)
                .map(|i| (i / w + 1, i % w + 1))
                .collect();
            let mut out = Vec::new();
            for &(r, c) in &cells {
                for (nr, nc) in [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)] {
                    if !cells.contains(&(nr, nc)) {
                        let mut more = cells.clone();
                        more.push((nr, nc));
                        out.push(Shape::from_cells(more).unwrap().canonical(group));
                    }
                }
            }
            out.sort_unstable();
            out.dedup();
            out
        }
        fn fast(p: &Shape, group: Group) -> Vec<Shape> {
            let mut out = Vec::new();
            children_of(p, group, |c| out.push(c));
            out.sort_unstable();
            out.dedup();
            out
        }
        for group in [Group::RowPreserving, Group::Square] {
            for p in Catalogue::build(group, 8).iter() {
                assert_eq!(fast(p, group), twin(p, group), "{p:?}");
            }
        }
        // The widest boxes of the largest parents: staircases of n cells in
        // a box with w + h = n + 1, which a frame a cell wider on every side
        // could not hold from 18 cells on; and a line of 20.
        for n in [17usize, 18, 19, 20] {
            for w in [n / 2, n / 2 + 1] {
                let h = n + 1 - w;
                let stairs = (0..n).map(|i| (i.min(h - 1), i.saturating_sub(h - 1)));
                let p = Shape::from_cells(stairs).unwrap();
                assert_eq!((p.width(), p.height(), p.len()), (w, h, n));
                for group in [Group::RowPreserving, Group::Square] {
                    let kids = fast(&p, group);
                    assert_eq!(kids, twin(&p, group), "{n} cells, {w} x {h}");
                    assert!(kids.iter().all(|k| k.len() == n + 1));
                }
            }
        }
        let line = Shape::from_cells((0..20).map(|c| (0, c))).unwrap();
        assert_eq!(fast(&line, Group::Square), twin(&line, Group::Square));
    }

    #[test]
    fn canonical_parent_growth_matches_grow_then_dedup() {
        for group in [Group::Square, Group::RowPreserving] {
            let mut level = vec![Shape::from_cells([(0, 0)]).unwrap()];
            for _ in 2..=10 {
                let fast = grow(&level, group, &AtomicBool::new(false)).expect("not stopped");
                assert_eq!(fast, grow_by_dedup(&level, group), "{group:?}");
                level = fast;
            }
        }
    }

    #[test]
    fn a_raised_stop_ends_a_growth_step() {
        let level = Catalogue::build(Group::Square, 9).of_size(9).to_vec();
        let raised = AtomicBool::new(true);
        assert_eq!(
            Catalogue::grow_from_until(&level, Group::Square, &raised),
            None
        );
        let lowered = AtomicBool::new(false);
        assert_eq!(
            Catalogue::grow_from_until(&level, Group::Square, &lowered).map(|v| v.len()),
            Some(FREE[9])
        );
    }

    #[test]
    fn free_polyominoes() {
        let c = Catalogue::build(Group::Square, 10);
        assert_eq!(c.counts(), FREE.to_vec());
        assert_eq!(c.fixed_counts(), FIXED.to_vec());
    }

    #[test]
    fn domineering_catalogue_has_1042_shapes_to_eight() {
        let c = Catalogue::build(Group::RowPreserving, 8);
        assert_eq!(c.len(), 1042);
        assert!(c.iter().all(Shape::is_connected));
        assert!(c.iter().all(|s| s.canonical(Group::RowPreserving) == *s));
        assert_eq!(c.fixed_counts(), FIXED[..8].to_vec());
        // each square-group class splits into one or two row-preserving ones
        let free = Catalogue::build(Group::Square, 8);
        let mut expanded: Vec<Shape> = free
            .iter()
            .flat_map(|s| {
                [
                    s.canonical(Group::RowPreserving),
                    s.transform(crate::shape::Sym::Transpose)
                        .canonical(Group::RowPreserving),
                ]
            })
            .collect();
        expanded.sort_unstable();
        expanded.dedup();
        let mut mine: Vec<Shape> = c.iter().copied().collect();
        mine.sort_unstable();
        assert_eq!(expanded, mine);
    }
}
