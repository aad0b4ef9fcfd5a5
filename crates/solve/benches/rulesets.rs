//! One mid-sized board per ruleset, timed with every saving on. Each
//! benchmark asserts its answer against the value computed (once, outside
//! the timing) with memoisation only: no decomposition, no symmetry.

use criterion::{criterion_group, criterion_main, Criterion};
use partizan_core::Arena;
use partizan_games::{Amazons, Clobber, Cram, Domineering, Konane, Ruleset};
use partizan_solve::{Decompose, Savings, Solver};

const MEMO_ONLY: Savings = Savings {
    memo: true,
    decompose: Decompose::Off,
    symmetry: false,
};

fn value_text<R: Ruleset>(r: &R, text: &str, savings: Savings) -> String {
    let b = r.parse(text).expect("board");
    let mut arena = Arena::new();
    let mut s = Solver::new(r, savings).expect("solver");
    let g = s.value(&mut arena, &b).expect("value");
    arena.display(g)
}

fn one<R: Ruleset>(c: &mut Criterion, r: &R, text: &str) {
    let want = value_text(r, text, MEMO_ONLY);
    c.bench_function(&format!("{} {}", r.name(), text), |b| {
        b.iter(|| assert_eq!(value_text(r, text, Savings::ALL), want))
    });
}

fn bench(c: &mut Criterion) {
    one(c, &Domineering, ".....|.....|.....|.....");
    one(c, &Cram, ".....|.....|.....|.....");
    one(c, &Clobber, "xoxox|oxoxo|xoxox");
    one(c, &Konane, "xoxox|o.o.o|xox.x|oxoxo");
    one(c, &Amazons, "L...|....|...R");
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
