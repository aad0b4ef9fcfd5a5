//! The automorphism fold timed against the rectangle fold and no fold, on
//! Snort and Col on the Petersen graph and an 11-cycle. Each run asserts
//! the value computed once with no fold. Run with `cargo bench -p
//! partizan-games --bench graph_fold`; the memo counts are printed by
//! `cargo test -p partizan-games --test all saves -- --nocapture`.

use criterion::{criterion_group, criterion_main, Criterion};
use partizan_core::Arena;
use partizan_games::{Board, ColGraph, Ruleset, SnortGraph};
use partizan_solve::{Decompose, Savings, Solver};

#[path = "../tests/common/mod.rs"]
mod common;
use common::rectangle;

const UNFOLDED: Savings = Savings {
    memo: true,
    decompose: Decompose::EveryNode,
    symmetry: false,
};

fn value<R: Ruleset>(r: &R, b: &Board, savings: Savings) -> String {
    let mut arena = Arena::new();
    let g = Solver::new(r, savings)
        .expect("solver")
        .value(&mut arena, b)
        .expect("value");
    arena.display(g)
}

fn three<R: Ruleset + Copy>(c: &mut Criterion, r: R, name: &str, text: &str) {
    let b = r.parse(text).expect("board");
    let want = value(&r, &b, UNFOLDED);
    let mut g = c.benchmark_group(format!("{} {name}", r.name()));
    g.sample_size(10);
    g.bench_function("no fold", |x| {
        x.iter(|| assert_eq!(value(&r, &b, UNFOLDED), want))
    });
    g.bench_function("rectangle fold", |x| {
        x.iter(|| assert_eq!(value(&rectangle(r), &b, Savings::ALL), want))
    });
    g.bench_function("automorphism fold", |x| {
        x.iter(|| assert_eq!(value(&r, &b, Savings::ALL), want))
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    let petersen = "1-2,2-3,3-4,4-5,5-1,1-6,2-7,3-8,4-9,5-10,6-8,8-10,10-7,7-9,9-6";
    let c11 = "1-2,2-3,3-4,4-5,5-6,6-7,7-8,8-9,9-10,10-11,11-1";
    three(c, SnortGraph, "Petersen", petersen);
    three(c, ColGraph, "Petersen", petersen);
    three(c, SnortGraph, "C11", c11);
}

criterion_group!(benches, bench);
criterion_main!(benches);
