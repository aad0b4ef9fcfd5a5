//! Which saving pays how much, per ruleset: one mid-sized board each,
//! evaluated with memoisation only, then adding decomposition, then adding
//! symmetry folding. Prints the solver's counts and CPU time.
//!
//! `cargo run --release -p partizan-solve --example savings`

use std::time::Instant;

use partizan_core::Arena;
use partizan_games::{Amazons, Clobber, Cram, Domineering, Konane, Ruleset};
use partizan_solve::{Decompose, Savings, Solver};

fn row<R: Ruleset>(r: &R, text: &str) {
    let b = r.parse(text).expect("board");
    println!("{} {}", r.name(), text);
    let configs = [
        (
            "memo",
            Savings {
                memo: true,
                decompose: Decompose::Off,
                symmetry: false,
            },
        ),
        (
            "memo+symmetry",
            Savings {
                memo: true,
                decompose: Decompose::Off,
                symmetry: true,
            },
        ),
        (
            "memo+decompose",
            Savings {
                memo: true,
                decompose: Decompose::EveryNode,
                symmetry: false,
            },
        ),
        ("all three", Savings::ALL),
    ];
    let mut first = None;
    for (name, s) in configs {
        let mut arena = Arena::new();
        let mut solver = Solver::new(r, s).expect("solver");
        let t = Instant::now();
        let g = solver.value(&mut arena, &b).expect("value");
        let secs = t.elapsed().as_secs_f64();
        let st = solver.stats();
        let shown = arena.display(g);
        let base = first.get_or_insert((shown.clone(), st.distinct, secs));
        assert_eq!(base.0, shown, "savings must not change the value");
        println!(
            "  {name:<15} searched {:>9} ({:>6.2}x fewer)  nodes {:>10}  hits {:>10}  {:>8.3} s ({:>6.2}x)",
            st.distinct,
            base.1 as f64 / st.distinct.max(1) as f64,
            st.nodes,
            st.hits,
            secs,
            base.2 / secs.max(1e-9)
        );
    }
}

fn main() {
    row(&Domineering, ".....|.....|.....|.....");
    row(&Cram, ".....|.....|.....|.....");
    row(&Clobber, "xoxox|oxoxo|xoxox");
    row(&Konane, "xoxox|o.o.o|xox.x|oxoxo");
    row(&Amazons, "L...|....|...R");
}
