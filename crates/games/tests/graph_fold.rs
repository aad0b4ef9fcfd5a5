//! Folding graph positions by their graph's automorphisms
//! (`Ruleset::fold_isomorphic`, `partizan_games::relabel`): the canonical
//! labelling against its brute-force twin, every relabelling of a random
//! position folding to one board, values with and without the fold, and
//! the memo saving on the cycle, complete and Petersen graphs.

use partizan_core::{Arena, GameId};
use partizan_games::relabel::{brute_canonical, ColouredGraph};
use partizan_games::{Board, ColGraph, HackenbushGraph, Ruleset, SnortGraph};
use partizan_solve::regions::canonical_key;
use partizan_solve::{Decompose, Savings, Solver, Stats};
use proptest::prelude::*;

use crate::common;
use common::rectangle;

fn solve<R: Ruleset>(r: &R, arena: &mut Arena, b: &Board, savings: Savings) -> (GameId, Stats) {
    let mut s = Solver::new(r, savings).expect("solver");
    let v = s.value(arena, b).expect("value");
    (v, s.stats())
}

/// Memo on, symmetry off: no fold at all.
const UNFOLDED: Savings = Savings {
    memo: true,
    decompose: Decompose::EveryNode,
    symmetry: false,
};

/// A random simple graph on `n` vertices (edge `k` of the upper triangle
/// present when bit `k` of `mask` is), with per-vertex colours.
fn graph(n: usize, mask: u64, colours: &[u8]) -> (Vec<u8>, Vec<(usize, usize)>) {
    let mut edges = Vec::new();
    let mut k = 0;
    for i in 0..n {
        for j in i + 1..n {
            if mask >> (k % 64) & 1 == 1 {
                edges.push((i, j));
            }
            k += 1;
        }
    }
    (colours[..n].to_vec(), edges)
}

/// A permutation of `0..n` from a list of random keys (sort order).
fn permutation(n: usize, keys: &[u32]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by_key(|&i| (keys[i], i));
    let mut p = vec![0; n];
    for (new, &old) in idx.iter().enumerate() {
        p[old] = new;
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Canonical images are equal exactly when the brute-force images
    /// (the greatest over all n! relabellings) are, and every relabelling
    /// has the same canonical image.
    #[test]
    fn canonical_labelling_matches_brute_force(
        n in 1usize..=6,
        a in any::<u64>(),
        b in any::<u64>(),
        ca in prop::collection::vec(0u8..2, 6),
        cb in prop::collection::vec(0u8..2, 6),
        keys in prop::collection::vec(any::<u32>(), 6),
    ) {
        let (col, e) = graph(n, a, &ca);
        let g = ColouredGraph::new(col, &e).unwrap();
        let p = permutation(n, &keys);
        let img = g.canonical_image();
        prop_assert_eq!(g.relabelled(&p).canonical_image(), img.clone());
        prop_assert_eq!(brute_canonical(&g.relabelled(&p)), brute_canonical(&g));
        // Sparse second graphs, so isomorphic pairs occur too.
        let (col, e) = graph(n, b & a, &cb);
        let h = ColouredGraph::new(col, &e).unwrap();
        prop_assert_eq!(
            h.canonical_image() == img,
            brute_canonical(&h) == brute_canonical(&g)
        );
    }
}

/// The edge list of a Snort/Col position: vertex `v` in state `s[v]`,
/// labels relabelled by `p`.
fn placement_text(n: usize, edges: &[(usize, usize)], states: &[u8], p: &[usize]) -> String {
    let mut items: Vec<String> = (0..n)
        .map(|v| {
            format!(
                "{}:{}",
                p[v] + 1,
                ['.', 'l', 'r', 'L', 'R'][states[v] as usize]
            )
        })
        .collect();
    items.extend(
        edges
            .iter()
            .map(|&(u, v)| format!("{}-{}", p[u] + 1, p[v] + 1)),
    );
    items.join(",")
}

fn check_placement<R: Ruleset>(
    r: &R,
    n: usize,
    mask: u64,
    states: &[u8],
    keys: &[u32],
) -> Result<(), TestCaseError> {
    let (_, edges) = graph(n, mask, &[0; 8]);
    let id: Vec<usize> = (0..n).collect();
    let p = permutation(n, keys);
    let b = r.parse(&placement_text(n, &edges, states, &id)).unwrap();
    let q = r.parse(&placement_text(n, &edges, states, &p)).unwrap();
    let kb = canonical_key(r, &b);
    prop_assert_eq!(kb, canonical_key(r, &q), "{} {}", r.name(), r.format(&b));
    // The tints exchanged: the same board, the flag flipped unless the
    // position is its own negative's relabelling.
    let swapped: Vec<u8> = states
        .iter()
        .map(|&s| [0, 2, 1, 4, 3][s as usize])
        .collect();
    let s = r.parse(&placement_text(n, &edges, &swapped, &p)).unwrap();
    let ks = canonical_key(r, &s);
    prop_assert_eq!(ks.0, kb.0);
    // Values: the fold's board is worth the position (negated by the
    // flag), and folding changes no value.
    let mut arena = Arena::new();
    let (v, _) = solve(r, &mut arena, &b, UNFOLDED);
    let (w, _) = solve(r, &mut arena, &b, Savings::ALL);
    prop_assert_eq!(v, w);
    let (k, _) = solve(r, &mut arena, &kb.0, UNFOLDED);
    prop_assert_eq!(if kb.1 { arena.neg(k) } else { k }, v);
    if ks.1 == kb.1 {
        prop_assert_eq!(v, arena.neg(v), "a self-dual fold of a non-self-dual value");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn snort_and_col_fold_every_relabelling_alike(
        n in 1usize..=7,
        mask in any::<u64>(),
        states in prop::collection::vec(prop::sample::select(vec![0u8, 0, 0, 1, 2, 3, 4]), 7),
        keys in prop::collection::vec(any::<u32>(), 7),
    ) {
        check_placement(&SnortGraph, n, mask, &states, &keys)?;
        check_placement(&ColGraph, n, mask, &states, &keys)?;
    }

    /// Hackenbush: a random connected-to-the-ground multigraph (an edge
    /// list built so each edge touches a vertex already reached), its
    /// vertices relabelled and its edges reordered.
    #[test]
    fn hackenbush_folds_every_relabelling_alike(
        spec in prop::collection::vec((0usize..4, 0usize..4, 0u8..3), 1..7),
        keys in prop::collection::vec(any::<u32>(), 8),
        order in prop::collection::vec(any::<u32>(), 8),
    ) {
        // Edge k joins a reached vertex (0 the ground) to a vertex up to
        // one past the last reached.
        let mut reached = 1;
        let mut edges = Vec::new();
        for &(a, b, c) in &spec {
            let u = a % reached;
            let v = (b % (reached + 1)).max(if u == 0 { 1 } else { 0 });
            if v == reached {
                reached += 1;
            }
            edges.push((u, v, c));
        }
        let h = HackenbushGraph;
        let text = |p: &[usize], e: &[(usize, usize, u8)], swap: bool| {
            e.iter()
                .map(|&(u, v, c)| {
                    let name = |x: usize| if x == 0 { "g".to_string() } else { (p[x - 1] + 1).to_string() };
                    let c = if swap { [1, 0, 2][c as usize] } else { c };
                    format!("{}-{}:{}", name(u), name(v), ["b", "r", "g"][c as usize])
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let nv = reached - 1;
        let id: Vec<usize> = (0..nv).collect();
        let p = permutation(nv, &keys);
        let eo = permutation(edges.len(), &order);
        let mut shuffled = edges.clone();
        for (i, &e) in edges.iter().enumerate() {
            shuffled[eo[i]] = e;
        }
        let b = h.parse(&text(&id, &edges, false)).unwrap();
        let q = h.parse(&text(&p, &shuffled, false)).unwrap();
        let s = h.parse(&text(&p, &shuffled, true)).unwrap();
        let kb = canonical_key(&h, &b);
        prop_assert_eq!(kb, canonical_key(&h, &q), "{}", h.format(&b));
        let ks = canonical_key(&h, &s);
        prop_assert_eq!(ks.0, kb.0);
        let mut arena = Arena::new();
        let (v, _) = solve(&h, &mut arena, &b, UNFOLDED);
        let (w, _) = solve(&h, &mut arena, &b, Savings::ALL);
        prop_assert_eq!(v, w);
        let (k, _) = solve(&h, &mut arena, &kb.0, UNFOLDED);
        prop_assert_eq!(if kb.1 { arena.neg(k) } else { k }, v);
        prop_assert_eq!(if ks.1 { arena.neg(k) } else { k }, arena.neg(v));
    }
}

/// The families the memo saving is measured on (10 or 11 vertices).
pub fn families() -> Vec<(&'static str, String)> {
    let cycle = |n: usize| {
        (1..=n)
            .map(|i| format!("{}-{}", i, i % n + 1))
            .collect::<Vec<_>>()
            .join(",")
    };
    let complete = |n: usize| {
        let mut e = Vec::new();
        for i in 1..=n {
            for j in i + 1..=n {
                e.push(format!("{i}-{j}"));
            }
        }
        e.join(",")
    };
    // The Petersen graph: outer 5-cycle 1..5, spokes i-(i+5), inner
    // pentagram 6..10.
    let mut petersen: Vec<String> = (1..=5).map(|i| format!("{}-{}", i, i % 5 + 1)).collect();
    petersen.extend((1..=5).map(|i| format!("{}-{}", i, i + 5)));
    petersen.extend((0..5).map(|i| format!("{}-{}", 6 + i, 6 + (i + 2) % 5)));
    vec![
        ("cycle C11", cycle(11)),
        ("complete K7", complete(7)),
        ("Petersen", petersen.join(",")),
    ]
}

/// Distinct regions valued with no fold, the rectangle fold and the
/// automorphism fold; the three values must agree.
fn savings<R: Ruleset>(r: R, b: &Board, arena: &mut Arena) -> (GameId, [u64; 3]) {
    let (v0, s0) = solve(&r, arena, b, UNFOLDED);
    let rect = rectangle(r);
    let (v1, s1) = solve(&rect, arena, b, Savings::ALL);
    let (v2, s2) = solve(&rect.inner, arena, b, Savings::ALL);
    assert_eq!((v0, v0), (v1, v2), "{}", rect.inner.format(b));
    (v0, [s0.distinct, s1.distinct, s2.distinct])
}

/// Prints the table of the report: `cargo test -p partizan-games --test
/// graph_fold saves -- --nocapture`.
#[test]
fn the_fold_saves_memo_entries_on_symmetric_graphs() {
    for (name, text) in families() {
        for rules in ["snort-graph", "col-graph"] {
            let mut arena = Arena::new();
            let (v, [plain, rect, folded]) = if rules == "snort-graph" {
                savings(SnortGraph, &SnortGraph.parse(&text).unwrap(), &mut arena)
            } else {
                savings(ColGraph, &ColGraph.parse(&text).unwrap(), &mut arena)
            };
            println!(
                "{rules} {name}: value {}; distinct regions valued: {plain} unfolded, \
                 {rect} rectangle fold, {folded} automorphism fold",
                arena.display(v),
            );
            assert!(
                folded * 2 < rect && rect <= plain,
                "{rules} {name}: {folded} folded vs {rect} rectangle vs {plain} unfolded",
            );
        }
    }
}
