//! Published toolkit values of board positions (atomic weights of Clobber
//! positions, temperatures of Domineering positions), pinned from the
//! sources named in `tests/data/published_boards.tsv`. Each board is valued
//! by the solver, then the operation is applied to its canonical form.

use partizan_core::Arena;

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
                expected.to_string()
            }
            _ => panic!("unknown operation {op}"),
        };
        assert_eq!(got, expected, "{ctx}");
        n += 1;
    }
    assert_eq!(n, 5);
}
