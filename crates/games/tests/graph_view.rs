//! The drawn graph of a graph position (`graph_view`): every click's move
//! is one of the mover's options and every option is one click; edits
//! give boards that print and read back.

use partizan_games::graph_view::{graph_view, moves_are_options};
use partizan_games::{ColGraph, HackenbushGraph, Rules, Ruleset, SnortGraph};
use proptest::prelude::*;

fn placement(n: usize, mask: u64, states: &[u8]) -> String {
    let mut items: Vec<String> = (0..n)
        .map(|v| {
            format!(
                "{}:{}",
                v + 1,
                ['.', 'l', 'r', 'L', 'R', '#'][states[v] as usize]
            )
        })
        .collect();
    let mut k = 0;
    for i in 0..n {
        for j in i + 1..n {
            if mask >> (k % 64) & 1 == 1 {
                items.push(format!("{}-{}", i + 1, j + 1));
            }
            k += 1;
        }
    }
    items.join(",")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn clicks_are_the_options(
        n in 1usize..=9,
        mask in any::<u64>(),
        states in prop::collection::vec(prop::sample::select(vec![0u8, 0, 0, 1, 2, 3, 4, 5]), 9),
        spec in prop::collection::vec((0usize..5, 0usize..5, 0u8..3), 1..9),
    ) {
        let text = placement(n, mask, &states);
        for rules in [Rules::SnortGraph, Rules::ColGraph] {
            let b = if rules == Rules::SnortGraph {
                SnortGraph.parse(&text).unwrap()
            } else {
                ColGraph.parse(&text).unwrap()
            };
            let view = graph_view(rules, &b).unwrap();
            let ok = if rules == Rules::SnortGraph {
                moves_are_options(&SnortGraph, &b, &view)
            } else {
                moves_are_options(&ColGraph, &b, &view)
            };
            prop_assert!(ok, "{rules} {text}");
        }
        // Hackenbush: each edge touches a vertex already reached.
        let mut reached = 1;
        let mut items = Vec::new();
        for &(a, b, c) in &spec {
            let u = a % reached;
            let v = b % (reached + 1);
            let v = if u == 0 && v == 0 { 1 } else { v };
            if v == reached {
                reached += 1;
            }
            let name = |x: usize| if x == 0 { "g".to_string() } else { x.to_string() };
            items.push(format!("{}-{}:{}", name(u), name(v), ["b", "r", "g"][c as usize]));
        }
        let text = items.join(",");
        let b = HackenbushGraph.parse(&text).unwrap();
        let view = graph_view(Rules::HackenbushGraph, &b).unwrap();
        prop_assert!(moves_are_options(&HackenbushGraph, &b, &view), "{text}");
        prop_assert_eq!(view.edges.len(), spec.len());
    }
}

#[test]
fn grid_rulesets_have_no_graph() {
    for &rules in Rules::ALL {
        let name = rules.name();
        let graph = graph_view(rules, &partizan_games::Board::new(1, 1, [1, 0, 0]).unwrap());
        assert_eq!(graph.is_some(), name.ends_with("-graph"), "{name}");
    }
}
