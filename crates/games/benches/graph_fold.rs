//! The automorphism fold timed against the rectangle fold and no fold, on
//! Snort and Col on the Petersen graph and an 11-cycle. Each run asserts
//! the value computed once with no fold. Run with `cargo bench -p
//! partizan-games --bench graph_fold`; the memo counts are printed by
//! `cargo test -p partizan-games --test graph_fold saves -- --nocapture`.

use criterion::{criterion_group, criterion_main, Criterion};
use partizan_core::Arena;
use partizan_games::{Board, ColGraph, Player, Ruleset, SnortGraph, Symmetry};
use partizan_solve::{Decompose, Savings, Solver};

/// A ruleset folded by its rectangle symmetries only.
struct Rectangle<R>(R);

impl<R: Ruleset> Ruleset for Rectangle<R> {
    fn info(&self) -> &'static partizan_games::RulesetInfo {
        self.0.info()
    }
    fn options<F: FnMut(Board)>(&self, b: &Board, p: Player, f: F) {
        self.0.options(b, p, f);
    }
    fn footprints<F: FnMut(u128)>(&self, b: &Board, f: F) {
        self.0.footprints(b, f);
    }
    fn cells(&self, b: &Board) -> u128 {
        self.0.cells(b)
    }
    fn symmetries(&self) -> &'static [Symmetry] {
        self.0.symmetries()
    }
    fn apply(&self, b: &Board, s: Symmetry) -> Board {
        self.0.apply(b, s)
    }
    fn only_falls_apart(&self) -> bool {
        self.0.only_falls_apart()
    }
    fn impartial(&self) -> bool {
        self.0.impartial()
    }
    fn may_split(&self, before: &Board, after: &Board) -> bool {
        self.0.may_split(before, after)
    }
}

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
        x.iter(|| assert_eq!(value(&Rectangle(r), &b, Savings::ALL), want))
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
