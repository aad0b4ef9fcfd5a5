//! The tree of numerical semigroups, walked depth first.
//!
//! Every numerical semigroup `S` other than the naturals has exactly one
//! parent, `S ∪ {F(S)}`; so the children of `S` are `S \ {x}` for the minimal
//! generators `x` larger than the Frobenius number, and the semigroups of
//! genus `g` are the nodes at depth `g`.
//!
//! # Representation: bit-sliced decomposition numbers
//!
//! Following Fromentin and Hivert, a node carries its *decomposition
//! numbers*: `d[y]` is the number of unordered pairs `{a, y - a}` of elements
//! adding up to `y` (with `0 + y` counted). Gaps have `d = 0`, minimal
//! generators `d = 1`, and removing a generator `x` lowers `d[y]` by one
//! exactly where `y - x` is an element. Instead of a byte per number (and
//! SIMD byte lanes), the counters are *bit-sliced*: plane `j` holds bit `j`
//! of every `d[y]` for `y < 128`, so
//!
//! * a child is `planes - ((S << x) as a 0/1 vector)`: one 128-bit shift and
//!   a borrow chain of one XOR and one AND-NOT per plane;
//! * the minimal generators are `plane0 & !plane1 & !(planes 2..)`, masked to
//!   the window `[c, c + m)`, so the children are the set bits of one word.
//!
//! Six planes suffice: walking from `<2,3>`, every `d[y]` with `y < 128` is
//! at most 63. Only numbers below `2G` matter to a walk to genus `G`
//! (a child of a genus-`g` node has Frobenius number at most `2g + 1`), so a
//! 128-bit plane serves every genus up to 64.
//!
//! # Counting the last three levels without building them
//!
//! Let `S` be non-ordinary with multiplicity `m`, and `x` one of its `k`
//! generators in the window. The child `S \ {x}` keeps every generator of
//! `S` above `x` and gains exactly one more, `x + m`, when `d[x + m] = 2`
//! (every other new decomposition loss lands on a number with a summand
//! below `m`, which is a gap). So
//!
//! * a node two levels above the target has `k` children and
//!   `k(k-1)/2 + |(gens << m) & eq2|` grandchildren, and
//! * a node three levels above applies the same rule to each child, with
//!   the child's `eq2` obtained from `eq2`/`eq3` and the shift `S << x`.
//!
//! The deepest three levels (about 85% of the nodes) are therefore counted
//! with a handful of word operations each and never materialised.
//! Ordinary semigroups (where removing `m` changes the multiplicity) are
//! expanded normally.

use rayon::prelude::*;

use crate::error::SemigroupError;
use crate::semigroup::{Semigroup, MAX_GENUS};

/// Number of bit planes of the decomposition counters (values up to 63).
const PLANES: usize = 6;

/// The largest genus [`count_by_genus`] accepts.
pub const MAX_TREE_GENUS: u32 = MAX_GENUS;

/// The published numbers of numerical semigroups by genus (OEIS A007323),
/// genus 0 to 40, used by tests and benchmarks.
pub const A007323: [u64; 41] = [
    1, 1, 2, 4, 7, 12, 23, 39, 67, 118, 204, 343, 592, 1001, 1693, 2857, 4806, 8045, 13467, 22464,
    37396, 62194, 103246, 170963, 282828, 467224, 770832, 1270267, 2091030, 3437839, 5646773,
    9266788, 15195070, 24896206, 40761087, 66687201, 109032500, 178158289, 290939807, 474851445,
    774614284,
];

/// A node of the walk: decomposition numbers, bit-sliced, plus the set.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Plane `j` holds bit `j` of `d[y]` at bit `y`.
    planes: [u128; PLANES],
    /// Bit `y` set when `y` is an element (`y < 128`).
    members: u128,
    /// `F + 1`.
    conductor: u32,
    /// The least positive element.
    multiplicity: u32,
}

impl Node {
    /// The node of a semigroup, with its decomposition numbers computed
    /// directly (used only at the start of a walk).
    fn new(s: Semigroup) -> Node {
        let members = !s.gap_mask();
        let mut planes = [0u128; PLANES];
        for y in 0..128u32 {
            if members & (1u128 << y) == 0 {
                continue;
            }
            let d = (0..=y / 2)
                .filter(|&a| members & (1u128 << a) != 0 && members & (1u128 << (y - a)) != 0)
                .count() as u32;
            let d = d.min((1 << PLANES) - 1);
            for (j, plane) in planes.iter_mut().enumerate() {
                if d >> j & 1 == 1 {
                    *plane |= 1u128 << y;
                }
            }
        }
        Node {
            planes,
            members,
            conductor: s.conductor().max(1),
            multiplicity: s.multiplicity(),
        }
    }

    #[inline(always)]
    fn high(&self) -> u128 {
        let mut hi = 0;
        for p in &self.planes[2..] {
            hi |= *p;
        }
        hi
    }

    /// The minimal generators in the window `[c, c + m)`.
    #[inline(always)]
    fn generators(&self, hi: u128) -> u128 {
        let eq1 = self.planes[0] & !self.planes[1] & !hi;
        eq1 & window(self.conductor, self.multiplicity)
    }

    #[inline(always)]
    fn is_ordinary(&self) -> bool {
        self.conductor == self.multiplicity
    }

    /// The child `S \ {x}` for a generator `x > F`.
    #[inline(always)]
    fn remove(&self, x: u32) -> Node {
        let mut borrow = self.members << x;
        let mut planes = self.planes;
        for p in &mut planes {
            let old = *p;
            *p = old ^ borrow;
            borrow &= !old;
        }
        Node {
            planes,
            members: self.members & !(1u128 << x),
            conductor: x + 1,
            multiplicity: if x == self.multiplicity {
                x + 1
            } else {
                self.multiplicity
            },
        }
    }

    /// The semigroup of the node.
    #[inline]
    fn semigroup(&self) -> Semigroup {
        let below = if self.conductor >= 128 {
            u128::MAX
        } else {
            (1u128 << self.conductor) - 1
        };
        Semigroup::from_mask_trusted(!self.members & below & !1)
    }
}

/// The bits `[start, start + len)` of a 128-bit word.
#[inline(always)]
fn window(start: u32, len: u32) -> u128 {
    if start >= 128 {
        return 0;
    }
    let ones = if len >= 128 {
        u128::MAX
    } else {
        (1u128 << len) - 1
    };
    ones << start
}

/// Bit `i` of a word, or 0 when `i` is past the end.
#[inline(always)]
fn bit(i: u32) -> u128 {
    if i < 128 {
        1u128 << i
    } else {
        0
    }
}

/// Per-genus counts, indexed by genus.
type Counts = [u64; MAX_TREE_GENUS as usize + 1];

/// Remaining depth at and below which non-ordinary nodes are walked in the
/// light one-hot form instead of the bit-sliced one.
const LIGHT: u32 = 5;

/// A depth-first counting walk to a fixed genus.
struct Counter {
    target: u32,
    counts: Counts,
}

impl Counter {
    fn new(target: u32) -> Counter {
        Counter {
            target,
            counts: [0; MAX_TREE_GENUS as usize + 1],
        }
    }

    #[inline(always)]
    fn add(&mut self, genus: u32, levels: &[u64]) {
        let g = genus as usize;
        for (c, v) in self.counts[g..g + levels.len()].iter_mut().zip(levels) {
            *c += v;
        }
    }

    /// Counts `node` (of genus `genus`) and its descendants up to the target.
    fn walk(&mut self, node: &Node, genus: u32) {
        self.counts[genus as usize] += 1;
        let rem = self.target - genus;
        if rem == 0 {
            return;
        }
        let hi = node.high();
        let gens = node.generators(hi);
        if rem == 1 {
            self.counts[self.target as usize] += u64::from(gens.count_ones());
            return;
        }
        if rem <= 6 && !node.is_ordinary() {
            let light = Light::of(node, gens);
            match rem {
                2 => self.add(genus + 1, &light.two()),
                3 => self.add(genus + 1, &light.three()),
                4 => self.add(genus + 1, &light.four()),
                5 => self.add(genus + 1, &light.five()),
                _ => self.add(genus + 1, &light.six()),
            }
            return;
        }
        let mut rest = gens;
        while rest != 0 {
            let x = rest.trailing_zeros();
            rest &= rest - 1;
            let child = node.remove(x);
            self.walk(&child, genus + 1);
        }
    }
}

/// A non-ordinary node in one-hot form: `eq[j]` marks the numbers with
/// exactly `j + 2` decompositions. A node `r` levels above the target only
/// needs counts up to `r` (larger ones cannot fall to 1 in time), and its
/// generators, which for a child `S \ {x}` are the generators above `x`
/// plus `x + m` when `d[x + m] = 2`.
#[derive(Clone, Copy)]
struct Light {
    eq: [u128; LIGHT as usize],
    gens: u128,
    k: u64,
    members: u128,
    m: u32,
}

impl Light {
    #[inline(always)]
    fn of(node: &Node, gens: u128) -> Light {
        let [p0, p1, p2, p3, p4, p5] = node.planes;
        let hi = p3 | p4 | p5;
        let (n0, n1, n2) = (!p0, !p1, !p2);
        Light {
            eq: [
                n0 & p1 & n2 & !hi,
                p0 & p1 & n2 & !hi,
                n0 & n1 & p2 & !hi,
                p0 & n1 & p2 & !hi,
                n0 & p1 & p2 & !hi,
            ],
            gens,
            k: u64::from(gens.count_ones()),
            members: node.members,
            m: node.multiplicity,
        }
    }

    /// Calls `f` on every child, in light form (counts beyond `depth` are
    /// not carried).
    #[inline(always)]
    fn for_each_child<const DEPTH: usize>(&self, mut f: impl FnMut(&Light)) {
        let mut rest = self.gens;
        let mut above = self.k;
        while rest != 0 {
            let x = rest.trailing_zeros();
            rest &= rest - 1;
            above -= 1;
            let shifted = self.members << x;
            let new = self.eq[0] & bit(x + self.m);
            let mut eq = [0u128; LIGHT as usize];
            for j in 0..DEPTH {
                eq[j] = (self.eq[j] & !shifted) | (self.eq[j + 1] & shifted);
            }
            let child = Light {
                eq,
                gens: rest | new,
                k: above + u64::from(new != 0),
                members: self.members & !(1u128 << x),
                m: self.m,
            };
            f(&child);
        }
    }

    /// Children and grandchildren.
    #[inline(always)]
    fn two(&self) -> [u64; 2] {
        let k = self.k;
        let new = ((self.gens << self.m) & self.eq[0]).count_ones();
        [k, k * k.saturating_sub(1) / 2 + u64::from(new)]
    }

    /// Counts of the next three levels.
    #[inline(always)]
    fn three(&self) -> [u64; 3] {
        let mut out = [self.k, 0, 0];
        self.for_each_child::<1>(|c| {
            let [a, b] = c.two();
            out[1] += a;
            out[2] += b;
        });
        out
    }

    /// Counts of the next four levels.
    #[inline(always)]
    fn four(&self) -> [u64; 4] {
        let mut out = [self.k, 0, 0, 0];
        self.for_each_child::<2>(|c| {
            let [a, b, d] = c.three();
            out[1] += a;
            out[2] += b;
            out[3] += d;
        });
        out
    }

    /// Counts of the next five levels.
    #[inline(never)]
    fn five(&self) -> [u64; 5] {
        let mut out = [self.k, 0, 0, 0, 0];
        self.for_each_child::<3>(|c| {
            let [a, b, d, e] = c.four();
            out[1] += a;
            out[2] += b;
            out[3] += d;
            out[4] += e;
        });
        out
    }

    /// Counts of the next six levels.
    #[inline(never)]
    fn six(&self) -> [u64; 6] {
        let mut out = [self.k, 0, 0, 0, 0, 0];
        self.for_each_child::<4>(|c| {
            let [a, b, d, e, f] = c.five();
            out[1] += a;
            out[2] += b;
            out[3] += d;
            out[4] += e;
            out[5] += f;
        });
        out
    }
}

/// How many levels below a node a parallel walk keeps splitting into tasks.
const SEQUENTIAL_DEPTH: u32 = 16;

fn par_walk(node: &Node, genus: u32, target: u32) -> Counts {
    if target - genus <= SEQUENTIAL_DEPTH {
        let mut c = Counter::new(target);
        c.walk(node, genus);
        return c.counts;
    }
    let hi = node.high();
    let mut gens = node.generators(hi);
    let mut children = Vec::with_capacity(gens.count_ones() as usize);
    while gens != 0 {
        let x = gens.trailing_zeros();
        gens &= gens - 1;
        children.push(node.remove(x));
    }
    let mut counts = children
        .par_iter()
        .map(|child| par_walk(child, genus + 1, target))
        .reduce(
            || [0; MAX_TREE_GENUS as usize + 1],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b.iter()) {
                    *x += y;
                }
                a
            },
        );
    counts[genus as usize] += 1;
    counts
}

/// The number of numerical semigroups of each genus `0..=max_genus`
/// (index = genus), by walking the tree depth first; with `parallel`, the
/// subtrees are spread over rayon's thread pool.
///
/// Fails with [`SemigroupError::GenusTooLarge`] beyond genus 64 (the
/// 128-bit planes hold the numbers below `2 * 64`).
pub fn count_by_genus(max_genus: u32, parallel: bool) -> Result<Vec<u64>, SemigroupError> {
    if max_genus > MAX_TREE_GENUS {
        return Err(SemigroupError::GenusTooLarge {
            requested: max_genus,
            max: MAX_TREE_GENUS,
        });
    }
    if max_genus == 0 {
        return Ok(vec![1]);
    }
    let root = Node::new(Semigroup::ONLY_GAP_ONE);
    let counts = if parallel {
        par_walk(&root, 1, max_genus)
    } else {
        let mut c = Counter::new(max_genus);
        c.walk(&root, 1);
        c.counts
    };
    let mut out = vec![1u64];
    out.extend_from_slice(&counts[1..=max_genus as usize]);
    Ok(out)
}

/// Calls `visit` on every numerical semigroup of genus `1..=max_genus`, in
/// depth-first order (children by increasing removed generator).
///
/// Fails with [`SemigroupError::GenusTooLarge`] beyond genus 64.
pub fn for_each_semigroup(
    max_genus: u32,
    mut visit: impl FnMut(Semigroup),
) -> Result<(), SemigroupError> {
    if max_genus > MAX_TREE_GENUS {
        return Err(SemigroupError::GenusTooLarge {
            requested: max_genus,
            max: MAX_TREE_GENUS,
        });
    }
    if max_genus == 0 {
        return Ok(());
    }
    fn go(node: &Node, genus: u32, target: u32, visit: &mut dyn FnMut(Semigroup)) {
        visit(node.semigroup());
        if genus == target {
            return;
        }
        let mut gens = node.generators(node.high());
        while gens != 0 {
            let x = gens.trailing_zeros();
            gens &= gens - 1;
            go(&node.remove(x), genus + 1, target, visit);
        }
    }
    go(&Node::new(Semigroup::ONLY_GAP_ONE), 1, max_genus, &mut visit);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_counts() {
        let c = count_by_genus(20, false).unwrap();
        assert_eq!(c, A007323[..=20].to_vec());
        let p = count_by_genus(20, true).unwrap();
        assert_eq!(p, c);
        assert_eq!(count_by_genus(0, false).unwrap(), vec![1]);
        assert_eq!(count_by_genus(1, false).unwrap(), vec![1, 1]);
        assert_eq!(count_by_genus(2, false).unwrap(), vec![1, 1, 2]);
        assert_eq!(count_by_genus(3, false).unwrap(), vec![1, 1, 2, 4]);
        assert!(count_by_genus(65, false).is_err());
    }

    #[test]
    fn walk_matches_simple_tree() {
        // The node walk against Semigroup::children.
        let mut fast = Vec::new();
        for_each_semigroup(12, |s| fast.push(s)).unwrap();
        let mut slow = Vec::new();
        fn go(s: Semigroup, g: u32, out: &mut Vec<Semigroup>) {
            out.push(s);
            if g < 12 {
                for c in s.children() {
                    go(c, g + 1, out);
                }
            }
        }
        go(Semigroup::ONLY_GAP_ONE, 1, &mut slow);
        assert_eq!(fast, slow);
        let mut by_genus = [0u64; 13];
        for s in &fast {
            by_genus[s.genus() as usize] += 1;
        }
        assert_eq!(by_genus[1..], A007323[1..=12]);
    }
}
