//! Published values of positions on graphs (`tests/data/graph_values.tsv`,
//! the source cited on each line): every saving, the automorphism fold
//! among them, against the plain solver and the published value.

use partizan_core::{Arena, GameId};
use partizan_games::{with_rules, Board, Rules, Ruleset};
use partizan_solve::{Decompose, Savings, Solver};

fn value<R: Ruleset>(r: &R, arena: &mut Arena, b: &Board, savings: Savings) -> GameId {
    Solver::new(r, savings)
        .expect("solver")
        .value(arena, b)
        .expect("value")
}

#[test]
fn graph_positions_have_their_published_values() {
    let plain = Savings {
        memo: true,
        decompose: Decompose::Off,
        symmetry: false,
    };
    let data = include_str!("data/graph_values.tsv");
    let mut checked = 0;
    for (n, line) in data.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(
            f.len(),
            4,
            "line {}: ruleset, position, value, source",
            n + 1
        );
        let rules: Rules = f[0].parse().expect("known ruleset");
        let mut arena = Arena::new();
        let want = arena.parse(f[2]).expect("value notation");
        let (all, plain) = with_rules!(rules, |r| {
            let b = r.parse(f[1]).expect("position parses");
            (
                value(r, &mut arena, &b, Savings::ALL),
                value(r, &mut arena, &b, plain),
            )
        });
        assert_eq!(all, plain, "line {}: savings change the value", n + 1);
        assert_eq!(
            all,
            want,
            "line {}: {} {} is {}, published {} ({})",
            n + 1,
            f[0],
            f[1],
            arena.display(all),
            f[2],
            f[3]
        );
        checked += 1;
    }
    assert!(checked >= 10, "{checked} positions checked");
}
