//! Fast paths against brute-force twins on random games, and the classical
//! identities between graph games and octal games.

use partizan_impartial::brute::Brute;
use partizan_impartial::engine::{fast_values, naive_values};
use partizan_impartial::graph::{brute_value, GraphSolver};
use partizan_impartial::{
    Graph, GraphGame, GrundySequence, HeapGame, OctalCode, SearchOptions, SubtractionSet,
};
use proptest::prelude::*;

/// Random codes: a leading 0 or 4 (or 8 for hexadecimal), up to four
/// digits after the point.
fn codes(max_digit: u8) -> impl Strategy<Value = OctalCode> {
    (
        prop::sample::select(vec![0u8, 0, 4, if max_digit > 7 { 8 } else { 4 }]),
        prop::collection::vec(0..=max_digit, 1..=4),
    )
        .prop_map(|(lead, rest)| {
            let mut d = vec![lead];
            d.extend(rest);
            OctalCode::from_digits(d)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// The bitset engine equals the plain recurrence.
    #[test]
    fn fast_engine_equals_naive(code in codes(15)) {
        prop_assert_eq!(fast_values(&code, 400), naive_values(&code, 400));
    }

    /// Whole positions (multisets of heaps) valued by plain recursion equal
    /// the nim-sum of the sequence's values: checks the engine and the
    /// Sprague-Grundy theorem together.
    #[test]
    fn multiset_twin_equals_the_sequence(code in codes(15), heaps in prop::collection::vec(0u16..7, 1..=3)) {
        let s = GrundySequence::compute(&HeapGame::Octal(code.clone()), SearchOptions { up_to: 20, search: 64, ..SearchOptions::default() });
        let mut b = Brute::new(&code);
        for n in 0..11u16 {
            prop_assert_eq!(Some(b.value(&[n])), s.get(usize::from(n)), "{} G({})", code, n);
        }
        let hs: Vec<usize> = heaps.iter().map(|&h| usize::from(h)).collect();
        prop_assert_eq!(Some(b.value(&heaps)), s.sum_value(&hs));
    }

    /// A proved period predicts values well past the proof: checked by the
    /// plain recurrence to three times the proof's length (at most 1,500).
    #[test]
    fn proved_periods_hold_far_beyond_the_proof(code in codes(15)) {
        let s = GrundySequence::compute(&HeapGame::Octal(code.clone()), SearchOptions { up_to: 0, search: 600, ..SearchOptions::default() });
        if let Some(p) = s.periodicity() {
            let far = (3 * p.proof_length).clamp(200, 1_500);
            let naive = naive_values(&code, far);
            for (n, &v) in naive.iter().enumerate() {
                prop_assert_eq!(s.get(n), Some(v), "{} G({}) period {:?}", code, n, p);
            }
        }
    }

    /// Subtraction games: proved by the window theorem, checked far out.
    #[test]
    fn subtraction_periods_hold(set in prop::collection::btree_set(1usize..=9, 1..=4)) {
        let set = SubtractionSet::new(set.into_iter().collect()).unwrap();
        let s = GrundySequence::compute(&HeapGame::Subtraction(set.clone()), SearchOptions { up_to: 0, search: 2_000, ..SearchOptions::default() });
        let p = s.periodicity().expect("finite subtraction games are periodic");
        let naive = naive_values(&set.code(), 2_000.max(4 * p.proof_length));
        for (n, &v) in naive.iter().enumerate() {
            prop_assert_eq!(s.get(n), Some(v), "{} G({})", set, n);
        }
        let mut b = Brute::new(&set.code());
        for n in 0..14u16 {
            prop_assert_eq!(Some(b.value(&[n])), s.get(usize::from(n)));
        }
    }

    /// Component splitting and memoisation against whole-graph recursion.
    #[test]
    fn graph_solver_equals_the_whole_graph_twin(
        n in 1usize..=10,
        edges in prop::collection::vec((0usize..10, 0usize..10), 0..16),
    ) {
        let edges: Vec<_> = edges.into_iter().filter(|&(a, b)| a < n && b < n && a != b).collect();
        let g = Graph::from_edges(n, &edges).unwrap();
        prop_assert_eq!(Graph::parse(&g.to_string()).unwrap(), g.clone());
        for game in [GraphGame::Kayles, GraphGame::NodeKayles] {
            let v = GraphSolver::new(game, &g).solve();
            prop_assert_eq!(v.value, brute_value(game, &g), "{:?} on {}", game, g);
        }
    }
}

#[test]
fn subtraction_classics() {
    // {1, 2, 3}: G(n) = n mod 4, purely periodic.
    let s = GrundySequence::compute(
        &HeapGame::parse("sub:1,2,3").unwrap(),
        SearchOptions::default(),
    );
    let p = s.periodicity().unwrap();
    assert_eq!((p.period, p.preperiod), (4, 0));
    assert_eq!(s.get(999_999), Some(3));
    // {2, 5, 7} by hand: G0 = G1 = 0, G2 = mex{G0} = 1, G3 = mex{G1} = 1,
    // G4 = mex{G2} = 0, G5 = mex{G3, G0} = 2, G6 = mex{G4, G1} = 1,
    // G7 = mex{G5, G2, G0} = 3.
    let s = GrundySequence::compute(
        &HeapGame::parse("sub:2,5,7").unwrap(),
        SearchOptions::default(),
    );
    let head: Vec<u32> = (0..8).map(|n| s.get(n).unwrap()).collect();
    assert_eq!(head, [0, 0, 1, 1, 0, 2, 1, 3]);
    assert!(s.periodicity().is_some());
}

/// Kayles on a path of n vertices is the octal game 0.77 on a heap of n.
#[test]
fn kayles_on_paths_is_0_77() {
    let s = GrundySequence::compute(&HeapGame::parse("0.77").unwrap(), SearchOptions::default());
    for n in 0..=64 {
        let g = Graph::path(n).unwrap();
        assert_eq!(
            Some(GraphSolver::new(GraphGame::Kayles, &g).solve().value),
            s.get(n),
            "P_{n}"
        );
    }
}

/// Node Kayles on a path of n vertices is Dawson's Chess 0.137 on n, which
/// is Dawson's Kayles 0.07 on n + 1 (the classical shift by one).
#[test]
fn node_kayles_on_paths_is_dawsons_kayles_shifted() {
    let dk = GrundySequence::compute(&HeapGame::parse("0.07").unwrap(), SearchOptions::default());
    let dc = GrundySequence::compute(&HeapGame::parse("0.137").unwrap(), SearchOptions::default());
    for n in 0..=64 {
        let g = Graph::path(n).unwrap();
        let v = GraphSolver::new(GraphGame::NodeKayles, &g).solve().value;
        assert_eq!(Some(v), dc.get(n), "P_{n} against 0.137({n})");
        assert_eq!(Some(v), dk.get(n + 1), "P_{n} against 0.07({})", n + 1);
    }
}

/// On a cycle every first move leaves a path, so the cycle's value is the
/// mex of those paths' values.
#[test]
fn cycles_open_into_paths() {
    let k = GrundySequence::compute(&HeapGame::parse("0.77").unwrap(), SearchOptions::default());
    let dc = GrundySequence::compute(&HeapGame::parse("0.137").unwrap(), SearchOptions::default());
    let mex = |xs: &[u32]| (0..).find(|x| !xs.contains(x)).unwrap();
    for n in 3..=40 {
        let c = Graph::cycle(n).unwrap();
        let kv = GraphSolver::new(GraphGame::Kayles, &c).solve().value;
        assert_eq!(
            kv,
            mex(&[k.get(n - 1).unwrap(), k.get(n - 2).unwrap()]),
            "C_{n}"
        );
        let nv = GraphSolver::new(GraphGame::NodeKayles, &c).solve().value;
        assert_eq!(nv, mex(&[dc.get(n - 3).unwrap()]), "C_{n}");
    }
}
