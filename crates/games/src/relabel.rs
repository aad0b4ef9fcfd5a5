//! Folding graph positions by their graph's automorphisms: a canonical
//! labelling of small vertex-coloured graphs, so that isomorphic positions
//! of a graph ruleset share one memo entry
//! ([`Ruleset::fold_isomorphic`](crate::Ruleset::fold_isomorphic)).
//!
//! The labelling is the `canonical-form` crate's (colour refinement, then
//! individualisation and refinement with automorphism pruning, like
//! nauty); a [`ColouredGraph`] is what it acts on. A graph ruleset turns a
//! position into one (Snort and Col: vertices coloured by who may still
//! colour them; Hackenbush: the ground, the other vertices and one node
//! per edge coloured by the edge's colour), takes the canonical image,
//! and prints that back as a board. The twin is [`brute_canonical`]: the
//! greatest image over every permutation.

use canonical_form::Canonize;

use crate::board::Bits;

/// Most vertices a [`ColouredGraph`] holds (one `u128` of neighbours each).
pub const MAX_NODES: usize = 128;

/// A simple undirected graph on `0..n` whose vertices carry colours
/// (small integers); permutations act on both. Ordered by colours, then
/// by neighbour masks, so the canonical image is a definite graph.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ColouredGraph {
    colour: Vec<u8>,
    adj: Vec<Bits>,
}

impl ColouredGraph {
    /// A graph on `colours.len()` vertices (at most [`MAX_NODES`]) with
    /// the given edges; `None` if too many vertices, an end out of range
    /// or a loop.
    #[must_use]
    pub fn new(colours: Vec<u8>, edges: &[(usize, usize)]) -> Option<ColouredGraph> {
        let n = colours.len();
        if n > MAX_NODES {
            return None;
        }
        let mut adj = vec![0; n];
        for &(u, v) in edges {
            if u >= n || v >= n || u == v {
                return None;
            }
            adj[u] |= 1 << v;
            adj[v] |= 1 << u;
        }
        Some(ColouredGraph {
            colour: colours,
            adj,
        })
    }

    /// Number of vertices.
    #[must_use]
    pub fn len(&self) -> usize {
        self.colour.len()
    }

    /// Whether the graph has no vertex.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.colour.is_empty()
    }

    /// The colour of vertex `u`.
    #[must_use]
    pub fn colour(&self, u: usize) -> u8 {
        self.colour[u]
    }

    /// The neighbours of `u`, as a mask.
    #[must_use]
    pub fn neighbours(&self, u: usize) -> Bits {
        self.adj[u]
    }

    /// The canonical image: isomorphic graphs (colours kept) and only they
    /// have equal images.
    #[must_use]
    pub fn canonical_image(&self) -> ColouredGraph {
        if self.len() < 2 {
            return self.clone();
        }
        self.canonical()
    }

    /// The image under `p` (`p[u]` the new label of `u`); the permutation
    /// must be one of `0..len()`.
    #[must_use]
    pub fn relabelled(&self, p: &[usize]) -> ColouredGraph {
        self.apply_morphism(p)
    }
}

impl Canonize for ColouredGraph {
    fn size(&self) -> usize {
        self.colour.len()
    }

    fn apply_morphism(&self, p: &[usize]) -> Self {
        let n = self.len();
        let mut colour = vec![0; n];
        let mut adj = vec![0; n];
        for u in 0..n {
            colour[p[u]] = self.colour[u];
            adj[p[u]] = bits(self.adj[u]).fold(0, |m, v| m | 1 << p[v]);
        }
        ColouredGraph { colour, adj }
    }

    fn invariant_color(&self, u: usize) -> u64 {
        u64::from(self.colour[u])
    }

    fn invariant_neighborhood(&self, u: usize) -> impl Iterator<Item = (usize, u64)> {
        bits(self.adj[u]).map(|v| (v, 0))
    }
}

/// The indices of the set bits of `m`, lowest first.
fn bits(mut m: Bits) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            i
        })
    })
}

/// The brute-force twin of [`ColouredGraph::canonical_image`]: the
/// greatest image over all `n!` permutations (a different canonical form,
/// with the same classes: two graphs get equal brute images exactly when
/// they get equal canonical images). For tests on graphs of a few
/// vertices.
#[must_use]
pub fn brute_canonical(g: &ColouredGraph) -> ColouredGraph {
    let n = g.len();
    let mut p: Vec<usize> = (0..n).collect();
    let mut best = g.clone();
    // Heap's algorithm over every permutation.
    let mut c = vec![0; n];
    let mut i = 0;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                p.swap(0, i);
            } else {
                p.swap(c[i], i);
            }
            let img = g.apply_morphism(&p);
            if img > best {
                best = img;
            }
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    best
}

/// The canonical image of `g` or of `swapped` (the same graph with the two
/// players' colours exchanged), whichever is greater, and whether it was
/// the swapped one (the fold then negates the value). Ties keep `g`.
#[must_use]
pub(crate) fn fold_with_swap(g: &ColouredGraph, swapped: &ColouredGraph) -> (ColouredGraph, bool) {
    let a = g.canonical_image();
    let b = swapped.canonical_image();
    if b > a {
        (b, true)
    } else {
        (a, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cycle(n: usize) -> ColouredGraph {
        let e: Vec<_> = (0..n).map(|i| (i, (i + 1) % n)).collect();
        ColouredGraph::new(vec![0; n], &e).unwrap()
    }

    #[test]
    fn relabellings_share_an_image() {
        let c6 = cycle(6);
        let p = [3, 0, 4, 1, 5, 2];
        assert_eq!(c6.relabelled(&p).canonical_image(), c6.canonical_image());
        assert_eq!(brute_canonical(&c6.relabelled(&p)), brute_canonical(&c6));
        // Two triangles are not a hexagon.
        let tt = ColouredGraph::new(
            vec![0; 6],
            &[(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3)],
        )
        .unwrap();
        assert_ne!(tt.canonical_image(), c6.canonical_image());
        // Colours count: a path coloured at an end is not one coloured in
        // the middle.
        let end = ColouredGraph::new(vec![1, 0, 0], &[(0, 1), (1, 2)]).unwrap();
        let mid = ColouredGraph::new(vec![0, 1, 0], &[(0, 1), (1, 2)]).unwrap();
        assert_ne!(end.canonical_image(), mid.canonical_image());
        assert!(ColouredGraph::new(vec![0; 2], &[(1, 1)]).is_none());
        assert!(ColouredGraph::new(vec![0; 2], &[(0, 2)]).is_none());
    }
}
