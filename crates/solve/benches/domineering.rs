//! Domineering values of full rectangles, timed. Each benchmark asserts its
//! answer, so a faster wrong answer cannot pass as progress.
//!
//! The 5 x 5 value is the published 0. The 5 rows x 6 columns value is the
//! published -3/2 (Left playing vertically), and it is also checked against
//! an independent computation: the negative of the 6 rows x 5 columns
//! board's value computed with symmetry folding off (a different memo key
//! set and search order; computed once, untimed, before the benchmarks).
//!
//! The solver's counts are printed with each answer: a change that moves
//! the time should say whether it moved the work.

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use partizan_core::Arena;
use partizan_games::{Domineering, Ruleset};
use partizan_solve::{Decompose, Savings, Solver, Stats};
use std::time::{Duration, Instant};

/// `cols` columns by `rows` rows, all empty.
fn rect(cols: usize, rows: usize) -> String {
    vec![".".repeat(cols); rows].join("|")
}

/// The value of an empty rectangle, printed, with the solver's counts.
fn value_of(cols: usize, rows: usize, savings: Savings) -> (String, Stats) {
    let b = Domineering.parse(&rect(cols, rows)).expect("board");
    let mut arena = Arena::new();
    let mut s = Solver::new(&Domineering, savings).expect("solver");
    let g = s.value(&mut arena, &b).expect("value");
    (arena.display(g), s.stats())
}

/// The negated value, printed: the value of the transposed board.
fn negated_value_of(cols: usize, rows: usize, savings: Savings) -> (String, Stats) {
    let b = Domineering.parse(&rect(cols, rows)).expect("board");
    let mut arena = Arena::new();
    let mut s = Solver::new(&Domineering, savings).expect("solver");
    let g = s.value(&mut arena, &b).expect("value");
    let neg = arena.neg(g);
    (arena.display(neg), s.stats())
}

fn report(label: &str, value: &str, st: &Stats, took: Duration) {
    eprintln!(
        "{label}: value {value} in {:.2?}; nodes {} distinct {} hits {} passes {} splits {} regions {} squares {}",
        took, st.nodes, st.distinct, st.hits, st.passes, st.splits, st.regions, st.squares_visited
    );
}

fn bench(c: &mut Criterion) {
    // The answers and the counts, once, untimed by criterion.
    let t = Instant::now();
    let (v55, st55) = value_of(5, 5, Savings::ALL);
    report("5x5", &v55, &st55, t.elapsed());
    assert_eq!(v55, "0", "5 x 5 is the published 0");

    let no_sym = Savings {
        memo: true,
        decompose: Decompose::EveryNode,
        symmetry: false,
    };
    let t = Instant::now();
    let (want, st_check) = negated_value_of(5, 6, no_sym);
    report(
        "-(6 rows x 5 cols), no symmetry",
        &want,
        &st_check,
        t.elapsed(),
    );
    let t = Instant::now();
    let (v56, st56) = value_of(6, 5, Savings::ALL);
    report("5 rows x 6 cols", &v56, &st56, t.elapsed());
    assert_eq!(v56, want, "5 x 6 disagrees with the negated 6 x 5");
    assert_eq!(v56, "-3/2", "5 rows x 6 columns is the published -3/2");

    let mut group = c.benchmark_group("domineering");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .sampling_mode(SamplingMode::Flat);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("5x5", |bch| {
        bch.iter(|| {
            let (v, st) = value_of(5, 5, Savings::ALL);
            assert_eq!(v, "0");
            assert_eq!(st, st55, "the counts of a run do not vary");
        })
    });
    group.measurement_time(Duration::from_secs(40));
    group.bench_function("5rows_x_6cols", |bch| {
        bch.iter(|| {
            let (v, st) = value_of(6, 5, Savings::ALL);
            assert_eq!(v, want);
            assert_eq!(st, st56, "the counts of a run do not vary");
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
