//! Kayles and Node Kayles on graph families against published sequences
//! (`tests/data/graph_values.tsv`, the source cited on each line): OEIS's
//! Node Kayles sequences on paths, lattices, the scalloped path P_n(3) and
//! linked 4-cycles, and CGSuite's own test of Kayles on paths.

use partizan_impartial::graph::GraphSolver;
use partizan_impartial::{Graph, GraphGame};

/// The graph of `family` with parameter `n` (see the data file's header).
fn family(name: &str, n: usize) -> Graph {
    let mut edges = Vec::new();
    let vertices = match name {
        "path" => return Graph::path(n).unwrap(),
        "ladder" => return Graph::grid(2, n).unwrap(),
        "grid3" => return Graph::grid(3, n).unwrap(),
        "grid4" => return Graph::grid(4, n).unwrap(),
        "scallop3" => {
            for i in 0..n {
                for d in [1, 3] {
                    if i + d < n {
                        edges.push((i, i + d));
                    }
                }
            }
            n
        }
        "linked4" | "linked4b" => {
            // u_i = i (0..=n), v_i = n + 1 + 2i, w_i = n + 2 + 2i.
            for i in 0..n {
                let (u, u1, v, w) = (i, i + 1, n + 1 + 2 * i, n + 2 + 2 * i);
                if name == "linked4" {
                    edges.extend([(u, u1), (u, v), (v, w), (w, u1)]);
                } else {
                    edges.extend([(u, v), (u, w), (v, u1), (w, u1)]);
                }
            }
            3 * n + 1
        }
        other => panic!("unknown family {other}"),
    };
    Graph::from_edges(vertices, &edges).unwrap()
}

#[test]
fn graph_families_have_their_published_values() {
    let data = include_str!("data/graph_values.tsv");
    let mut checked = 0;
    for (k, line) in data.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(
            f.len(),
            5,
            "line {}: game, family, offset, terms, source",
            k + 1
        );
        let game = GraphGame::from_name(f[0]).expect("a graph game");
        let offset: usize = f[2].parse().unwrap();
        let terms: Vec<u32> = f[3].split(',').map(|t| t.parse().unwrap()).collect();
        let got: Vec<u32> = (0..terms.len())
            .map(|i| {
                let g = family(f[1], offset + i);
                GraphSolver::new(game, &g).solve().value
            })
            .collect();
        assert_eq!(
            got,
            terms,
            "line {}: {} on {} ({})",
            k + 1,
            f[0],
            f[1],
            f[4]
        );
        checked += terms.len();
    }
    assert!(checked > 250, "{checked} terms checked");
}

#[test]
fn families_are_the_graphs_described() {
    // P_n(3) on 7 vertices: 6 path edges and 4 edges {i, i+3}.
    assert_eq!(family("scallop3", 7).edges().len(), 10);
    // n linked 4-cycles: 3n + 1 vertices, 4n edges.
    let g = family("linked4", 3);
    assert_eq!((g.vertices(), g.edges().len()), (10, 12));
    let g = family("linked4b", 3);
    assert_eq!((g.vertices(), g.edges().len()), (10, 12));
    assert_eq!(family("grid3", 2).edges().len(), 7);
}
