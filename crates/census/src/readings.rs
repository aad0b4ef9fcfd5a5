//! Packing readings of a region, each computed two independent ways.
//!
//! Left places vertical dominoes (V), Right horizontal ones (H). For each
//! orientation:
//!
//! * the optimistic packing is a maximum matching in the graph of cells
//!   joined when adjacent in that direction, found by a search over the
//!   edges, and in closed form `(cells - odd runs) / 2`;
//! * the pessimistic packing is a minimum maximal matching in the same graph,
//!   found by a search that branches on how the first free edge gets
//!   blocked, and in closed form `sum over runs of ceil((len - 1) / 3)`.
//!
//! The point count is `optV - optH` and the interval is
//! `[pessV - optH, optV - pessH]`.
//!
//! ```text
//!   ..        2x2 square: two vertical runs of 2, two horizontal runs of 2
//!   ..        optV = optH = pessV = pessH = 2, count 0, interval [0, 0]
//! ```

use serde::Serialize;
use thiserror::Error;

use crate::shape::Shape;

/// Domino orientation, which is also the player in Domineering.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize)]
pub enum Orientation {
    /// Vertical dominoes: Left's.
    Vertical,
    /// Horizontal dominoes: Right's.
    Horizontal,
}

/// The four packings of a region.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default, Serialize)]
pub struct Packings {
    /// Largest set of disjoint vertical dominoes.
    pub opt_v: u32,
    /// Largest set of disjoint horizontal dominoes.
    pub opt_h: u32,
    /// Smallest maximal set of disjoint vertical dominoes.
    pub pess_v: u32,
    /// Smallest maximal set of disjoint horizontal dominoes.
    pub pess_h: u32,
}

/// A region's packing reading: the packings, the point count and interval.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default, Serialize)]
pub struct Reading {
    /// The four packings.
    pub packings: Packings,
    /// `optV - optH`.
    pub count: i64,
    /// `pessV - optH`, the bottom of the interval.
    pub low: i64,
    /// `optV - pessH`, the top of the interval.
    pub high: i64,
}

impl Reading {
    /// From packings alone (no cross-check).
    #[must_use]
    pub fn from_packings(p: Packings) -> Reading {
        Reading {
            packings: p,
            count: i64::from(p.opt_v) - i64::from(p.opt_h),
            low: i64::from(p.pess_v) - i64::from(p.opt_h),
            high: i64::from(p.opt_v) - i64::from(p.pess_h),
        }
    }

    /// Whether the interval is a single point.
    #[must_use]
    pub fn is_point(&self) -> bool {
        self.low == self.high
    }

    /// Width of the interval, `high - low`.
    #[must_use]
    pub fn width(&self) -> i64 {
        self.high - self.low
    }
}

/// The two computations of a reading disagree on a shape.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{reading} disagrees on {shape}: search {search}, closed form {closed}")]
pub struct ReadingMismatch {
    /// Which packing (`"optV"`, `"optH"`, `"pessV"`, `"pessH"`).
    pub reading: &'static str,
    /// The shape, as board text.
    pub shape: String,
    /// What the matching search found.
    pub search: u32,
    /// What the closed form over runs gives.
    pub closed: u32,
}

/// Domino slots of one orientation as two-bit masks over the shape's cells.
fn edges(shape: &Shape, o: Orientation) -> Vec<u128> {
    let (mut slots, step) = match o {
        Orientation::Vertical => (shape.vertical_slots(), shape.width()),
        Orientation::Horizontal => (shape.horizontal_slots(), 1),
    };
    let mut out = Vec::with_capacity(slots.count_ones() as usize);
    while slots != 0 {
        let i = slots.trailing_zeros();
        slots &= slots - 1;
        out.push((1u128 << i) | (1u128 << (i as usize + step)));
    }
    out
}

/// Domino slots of both orientations (Cram's moves) as two-bit masks.
#[must_use]
pub fn all_edges(shape: &Shape) -> Vec<u128> {
    let mut e = edges(shape, Orientation::Vertical);
    e.extend(edges(shape, Orientation::Horizontal));
    e
}

/// Maximum matching of a set of edges (two-bit masks) by brute force:
/// include or skip each, pruned by the cells the remaining edges could
/// still cover.
#[must_use]
pub fn max_matching(e: &[u128]) -> u32 {
    fn go(e: &[u128], used: u128, count: u32, best: &mut u32) {
        if count > *best {
            *best = count;
        }
        let Some((&first, rest)) = e.split_first() else {
            return;
        };
        // even covering every free cell the remaining edges touch cannot beat best
        let reach = e.iter().fold(0u128, |a, &x| a | x) & !used;
        if count + reach.count_ones() / 2 <= *best {
            return;
        }
        if first & used == 0 {
            go(rest, used | first, count + 1, best);
        }
        go(rest, used, count, best);
    }
    let mut best = 0;
    go(e, 0, 0, &mut best);
    best
}

/// Minimum maximal matching of a set of edges by search: find the first
/// edge still free; in any maximal set it is either taken or blocked by a
/// taken edge sharing a cell with it, so branch over those; prune on the
/// best found so far.
#[must_use]
pub fn min_maximal_matching(e: &[u128]) -> u32 {
    fn go(e: &[u128], used: u128, count: u32, best: &mut u32) {
        let Some(&free) = e.iter().find(|&&x| x & used == 0) else {
            *best = (*best).min(count);
            return;
        };
        if count + 1 >= *best {
            return;
        }
        for &f in e {
            if f & used == 0 && f & free != 0 {
                go(e, used | f, count + 1, best);
            }
        }
    }
    let mut best = u32::MAX;
    go(e, 0, 0, &mut best);
    best
}

/// Maximum matching of one orientation's slots ([`max_matching`]).
#[must_use]
pub fn max_packing_search(shape: &Shape, o: Orientation) -> u32 {
    max_matching(&edges(shape, o))
}

/// Minimum maximal matching of one orientation's slots
/// ([`min_maximal_matching`]).
#[must_use]
pub fn min_maximal_packing_search(shape: &Shape, o: Orientation) -> u32 {
    min_maximal_matching(&edges(shape, o))
}

fn runs(shape: &Shape, o: Orientation) -> Vec<u32> {
    match o {
        Orientation::Vertical => shape.vertical_runs(),
        Orientation::Horizontal => shape.horizontal_runs(),
    }
}

/// Closed form of the optimistic packing: `(cells - odd runs) / 2`.
#[must_use]
pub fn max_packing_closed(shape: &Shape, o: Orientation) -> u32 {
    let odd = runs(shape, o).iter().filter(|&&l| l % 2 == 1).count() as u32;
    (shape.len() as u32 - odd) / 2
}

/// Closed form of the pessimistic packing: `sum of ceil((len - 1) / 3)`.
#[must_use]
pub fn min_maximal_packing_closed(shape: &Shape, o: Orientation) -> u32 {
    runs(shape, o).iter().map(|&l| (l - 1).div_ceil(3)).sum()
}

/// The reading of a shape, every packing computed both ways; a disagreement
/// is returned as an error naming the packing and the shape.
pub fn read(shape: &Shape) -> Result<Reading, ReadingMismatch> {
    let check = |name: &'static str, search: u32, closed: u32| {
        if search == closed {
            Ok(search)
        } else {
            Err(ReadingMismatch {
                reading: name,
                shape: shape.to_text(),
                search,
                closed,
            })
        }
    };
    use Orientation::{Horizontal as H, Vertical as V};
    let p = Packings {
        opt_v: check(
            "optV",
            max_packing_search(shape, V),
            max_packing_closed(shape, V),
        )?,
        opt_h: check(
            "optH",
            max_packing_search(shape, H),
            max_packing_closed(shape, H),
        )?,
        pess_v: check(
            "pessV",
            min_maximal_packing_search(shape, V),
            min_maximal_packing_closed(shape, V),
        )?,
        pess_h: check(
            "pessH",
            min_maximal_packing_search(shape, H),
            min_maximal_packing_closed(shape, H),
        )?,
    };
    Ok(Reading::from_packings(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Catalogue, Group};

    #[test]
    fn u_shape() {
        // the U: a vertical domino across the bottom row's middle spoils
        let s = Shape::parse(".#.|.#.|...").unwrap();
        let r = read(&s).unwrap();
        assert_eq!(
            r.packings,
            Packings {
                opt_v: 2,
                opt_h: 1,
                pess_v: 2,
                pess_h: 1
            }
        );
        let strip = Shape::parse(".....").unwrap();
        let r = read(&strip).unwrap();
        assert_eq!((r.count, r.low, r.high), (-2, -2, -2));
        let l4 = Shape::parse("....").unwrap();
        assert_eq!(min_maximal_packing_search(&l4, Orientation::Horizontal), 1);
    }

    #[test]
    fn both_ways_agree_on_every_shape_to_ten() {
        let c = Catalogue::build(Group::RowPreserving, 10);
        for s in c.iter() {
            let r = read(s).unwrap();
            assert!(r.low <= r.count && r.count <= r.high);
        }
    }

    #[test]
    fn point_intervals_to_eight() {
        let c = Catalogue::build(Group::RowPreserving, 8);
        let points = c.iter().filter(|s| read(s).unwrap().is_point()).count();
        assert_eq!(points, 505);
    }
}
