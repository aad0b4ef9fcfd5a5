//! Domineering values of full rectangles, timed. Each benchmark asserts its
//! answer, so a faster wrong answer cannot pass as progress.
//!
//! The 5 x 5 value is the published 0. The 5 rows x 6 columns value is
//! checked against an independent computation: the negative of the
//! 6 rows x 5 columns board's value computed with symmetry folding off.

use criterion::{criterion_group, criterion_main, Criterion};
use partizan_core::Arena;
use partizan_games::{Domineering, Ruleset};
use partizan_solve::{Decompose, Savings, Solver};
use std::time::Duration;

fn rect(cols: usize, rows: usize) -> String {
    vec![".".repeat(cols); rows].join("|")
}

fn value_of(text: &str, savings: Savings) -> (String, partizan_solve::Stats, Arena, partizan_core::GameId) {
    let b = Domineering.parse(text).expect("board");
    let mut arena = Arena::new();
    let mut s = Solver::new(&Domineering, savings).expect("solver");
    let g = s.value(&mut arena, &b).expect("value");
    (arena.display(g), s.stats(), arena, g)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("domineering");
    group.sample_size(10).measurement_time(Duration::from_secs(20));
    group.bench_function("5x5", |bch| {
        bch.iter(|| {
            let (v, _, _, _) = value_of(&rect(5, 5), Savings::ALL);
            assert_eq!(v, "0");
        })
    });

    // Independent check value for 5 rows x 6 columns.
    let no_sym = Savings {
        memo: true,
        decompose: Decompose::EveryNode,
        symmetry: false,
    };
    let (_, _, mut arena, g) = value_of(&rect(5, 6), no_sym);
    let neg = arena.neg(g);
    let want = arena.display(neg);
    group.bench_function("5rows_x_6cols", |bch| {
        bch.iter(|| {
            let (v, _, _, _) = value_of(&rect(6, 5), Savings::ALL);
            assert_eq!(v, want);
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
