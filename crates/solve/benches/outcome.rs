//! The outcome search, timed; every iteration asserts the published (or
//! brute-force) answer, so a faster wrong answer cannot pass as progress.
//!
//! ```sh
//! cargo bench -p partizan-solve --bench outcome
//! ```
//!
//! Groups: Domineering rectangles up to 8 x 8 (published outcomes,
//! Bullock's Obsequi table; Left vertical) through Domineering's own fast
//! path, node counts per first player printed once per board; the fast
//! path against the general engine on one board (their ratio in the same
//! run); the general engine's three move orderings; one thread against two
//! (both ways of sharing); and Clobber checkerboards.

use criterion::{criterion_group, criterion_main, Criterion};
use partizan_games::{Clobber, Domineering, Ruleset};
use partizan_solve::outcome::Convention;
use partizan_solve::search::{solve, Control, Knowledge, MoveOrdering, Parallel, SearchConfig};

fn rect(rows: usize, cols: usize) -> String {
    vec![".".repeat(cols); rows].join("|")
}

fn checkerboard(rows: usize, cols: usize) -> String {
    (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| if (r + c) % 2 == 0 { 'x' } else { 'o' })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("|")
}

fn run<R: Knowledge>(r: &R, text: &str, cfg: &SearchConfig, want: &str) -> (u64, u64) {
    let b = r.parse(text).expect("board");
    let rep = solve(r, &b, cfg, &Control::default()).expect("search");
    assert_eq!(rep.outcomes.class(), want, "{} {text}", r.name());
    (rep.left.counts.nodes, rep.right.counts.nodes)
}

fn config(ordering: MoveOrdering, threads: usize) -> SearchConfig {
    let mut c = SearchConfig::new(Convention::Normal);
    c.ordering = ordering;
    c.threads = threads;
    c.table_bytes = 32 << 20;
    c
}

fn bench(c: &mut Criterion) {
    let safety = config(MoveOrdering::Safety, 1);
    let mut g = c.benchmark_group("domineering");
    g.sample_size(10);
    for (rows, cols, want) in [
        (5, 5, "P"),
        (6, 6, "N"),
        (5, 6, "R"),
        (6, 7, "L"),
        (6, 8, "R"),
        (7, 7, "N"),
        (7, 8, "R"),
        (8, 8, "N"),
    ] {
        let text = rect(rows, cols);
        let (l, r) = run(&Domineering, &text, &safety, want);
        eprintln!("domineering {rows}x{cols} {want}: nodes left-first {l}, right-first {r}");
        g.bench_function(format!("{rows}x{cols}"), |b| {
            b.iter(|| run(&Domineering, &text, &safety, want))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("fast path vs general 5x6 domineering");
    g.sample_size(10);
    let text = rect(5, 6);
    for fast in [true, false] {
        let mut cfg = safety;
        cfg.fast = fast;
        g.bench_function(if fast { "fast" } else { "general" }, |b| {
            b.iter(|| run(&Domineering, &text, &cfg, "R"))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("ordering 5x6 domineering");
    g.sample_size(10);
    let text = rect(5, 6);
    for ordering in [
        MoveOrdering::Natural,
        MoveOrdering::Mobility,
        MoveOrdering::Safety,
    ] {
        let mut cfg = config(ordering, 1);
        cfg.fast = false;
        let (l, r) = run(&Domineering, &text, &cfg, "R");
        eprintln!("ordering {ordering:?}: 5x6 nodes left-first {l}, right-first {r}");
        g.bench_function(format!("{ordering:?}"), |b| {
            b.iter(|| run(&Domineering, &text, &cfg, "R"))
        });
    }
    g.finish();

    // One thread against two on the boards whose search is long (8 x 8:
    // the headline; 7 x 8: both first players take real work), with the
    // ratio of their best wall times printed from the same run.
    for (rows, cols, want) in [(8, 8, "N"), (7, 8, "R")] {
        let text = rect(rows, cols);
        let mut g = c.benchmark_group(format!("threads {rows}x{cols} domineering"));
        g.sample_size(10);
        let mut best = Vec::new();
        for (threads, parallel) in [
            (1, Parallel::RootSplit),
            (2, Parallel::RootSplit),
            (2, Parallel::FirstPlayers),
        ] {
            let mut cfg = config(MoveOrdering::Safety, threads);
            cfg.parallel = parallel;
            let t = (0..3)
                .map(|_| {
                    let t = std::time::Instant::now();
                    run(&Domineering, &text, &cfg, want);
                    t.elapsed()
                })
                .min()
                .expect("three runs");
            best.push((format!("{threads} {parallel:?}"), t));
            g.bench_function(format!("{threads} {parallel:?}"), |b| {
                b.iter(|| run(&Domineering, &text, &cfg, want))
            });
        }
        g.finish();
        let one = best[0].1.as_secs_f64();
        for (name, t) in &best[1..] {
            eprintln!(
                "domineering {rows}x{cols} threads: {name} {:.2?} against 1 thread {:.2?}: {:.2}x",
                t,
                best[0].1,
                one / t.as_secs_f64()
            );
        }
    }

    let mut g = c.benchmark_group("clobber");
    g.sample_size(10);
    // 3 x 4 and 4 x 4 checkerboards: their outcomes are checked against
    // the exhaustive twin in tests/outcome_search.rs (3 x 4) and here
    // against the value solver's outcome (computed once, untimed).
    for (rows, cols) in [(3, 4), (4, 4)] {
        let text = checkerboard(rows, cols);
        let b = Clobber.parse(&text).expect("board");
        let mut arena = partizan_core::Arena::new();
        let mut s =
            partizan_solve::Solver::new(&Clobber, partizan_solve::Savings::ALL).expect("solver");
        let v = s.value(&mut arena, &b).expect("value");
        let want = arena.outcome(v).to_string();
        g.bench_function(format!("{rows}x{cols}"), |bch| {
            bch.iter(|| run(&Clobber, &text, &safety, &want))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
