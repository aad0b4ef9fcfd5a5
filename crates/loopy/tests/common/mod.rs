//! Shared by the loopy test binaries.

use partizan_loopy::Graph;

/// A random graph of `n` nodes, each with up to two options a side (every
/// node kept: the root is 0, nothing trimmed).
pub fn random_graph_untrimmed(rng: &mut fastrand::Rng, n: u32) -> Graph {
    let mut gr = Graph::default();
    for _ in 0..n {
        gr.add();
    }
    for x in 0..n {
        let mut pick = || -> Vec<u32> { (0..rng.u32(0..3)).map(|_| rng.u32(0..n)).collect() };
        let (l, r) = (pick(), pick());
        gr.set(x, l, r);
    }
    gr.set_root(0);
    gr
}

/// A random graph of `n` nodes, trimmed to what its root reaches.
#[allow(dead_code)]
pub fn random_graph(rng: &mut fastrand::Rng, n: u32) -> Graph {
    random_graph_untrimmed(rng, n).trimmed()
}
