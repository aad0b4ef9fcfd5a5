//! Published toolkit values of board positions (atomic weights of Clobber
//! positions, temperatures and values of Domineering and Amazons
//! positions), pinned from the sources named in
//! `tests/data/published_boards.tsv`. Each board is valued by the solver,
//! then the operation is applied to its canonical form; a published value
//! also has the board's thermograph read against it.

use partizan_core::{Arena, Dyadic, GameId};

#[test]
fn published_board_values() {
    let text = include_str!("data/published_boards.tsv");
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 5, "{line}");
        let (op, ruleset, board, expected, source) = (f[0], f[1], f[2], f[3], f[4]);
        let ctx = format!("{op} of {ruleset} {board} ({source})");
        let mut a = Arena::new();
        let g = partizan_report::term_value(&mut a, &format!("{ruleset}:{board}"), 1)
            .unwrap_or_else(|e| panic!("{ctx}: {e}"));
        let got = match op {
            "atomic_weight" => {
                let w = a.atomic_weight(g).unwrap_or_else(|e| panic!("{ctx}: {e}"));
                a.display(w)
            }
            "temperature" => a.temperature(g).to_string(),
            "mean" => a.mean(g).to_string(),
            "thermograph" => a.thermograph(g).unwrap().cgsuite(),
            // the same game, whatever the source's notation
            "value" => {
                let want = a.parse(expected).unwrap_or_else(|e| panic!("{ctx}: {e}"));
                assert_eq!(want, g, "{ctx}: {}", a.display(g));
                thermograph_agrees(&mut a, g, want, &ctx);
                expected.to_string()
            }
            _ => panic!("unknown operation {op}"),
        };
        assert_eq!(got, expected, "{ctx}");
        n += 1;
    }
    assert_eq!(n, 8);
}

/// The thermograph of the board's value `g` read against the published form
/// `want`: walls at `t = 0` on the form's stops, the mast on its mean, and
/// both walls on the mast from the temperature up.
fn thermograph_agrees(a: &mut Arena, g: GameId, want: GameId, ctx: &str) {
    let th = a.thermograph(g).unwrap_or_else(|e| panic!("{ctx}: {e}"));
    let zero = Dyadic::ZERO;
    let (ls, rs) = (a.left_stop(want), a.right_stop(want));
    assert_eq!(th.left.value_at(zero).unwrap(), ls, "{ctx}: left wall at 0");
    assert_eq!(
        th.right.value_at(zero).unwrap(),
        rs,
        "{ctx}: right wall at 0"
    );
    assert_eq!(th.mast, a.mean(want), "{ctx}: mast");
    let t = a.temperature(want);
    assert_eq!(th.temperature, t, "{ctx}: temperature");
    for above in [t, t.checked_add(Dyadic::ONE).unwrap()] {
        assert_eq!(
            th.left.value_at(above).unwrap(),
            th.mast,
            "{ctx}: left wall at {above}"
        );
        assert_eq!(
            th.right.value_at(above).unwrap(),
            th.mast,
            "{ctx}: right wall at {above}"
        );
    }
    // a hot game's walls part below the temperature, by the stops' gap at 0
    if t > zero {
        assert!(ls > rs, "{ctx}: hot, yet stops {ls} / {rs}");
    }
}
