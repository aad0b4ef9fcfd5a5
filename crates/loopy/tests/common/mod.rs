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

/// `count` random stoppers of 1 to `max_nodes - 1` nodes (graphs drawn by
/// [`random_graph`] until enough are stoppers).
#[allow(dead_code)]
pub fn random_stoppers(rng: &mut fastrand::Rng, count: usize, max_nodes: u32) -> Vec<Graph> {
    let mut stoppers = Vec::new();
    while stoppers.len() < count {
        let n = rng.u32(1..max_nodes);
        let x = random_graph(rng, n);
        if x.is_stopper() {
            stoppers.push(x);
        }
    }
    stoppers
}
