//! Counting the tree of numerical semigroups, asserting every count against
//! the published sequence (OEIS A007323), so a faster wrong walk cannot pass.
//!
//! `cargo bench -p partizan-semigroup --bench tree` runs all four; add
//! `-- genus_30` to skip the genus-40 runs (each takes seconds per sample).

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use partizan_semigroup::tree::A007323;
use partizan_semigroup::{count_by_genus, count_by_genus_on};

fn genus_30(c: &mut Criterion) {
    let mut g = c.benchmark_group("tree_genus_30");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for parallel in [false, true] {
        let name = if parallel { "parallel" } else { "single" };
        g.bench_function(name, |b| {
            b.iter(|| {
                let counts = count_by_genus(30, parallel).unwrap();
                assert_eq!(counts, A007323[..=30]);
                counts
            })
        });
    }
    g.finish();
}

fn genus_40(c: &mut Criterion) {
    let mut g = c.benchmark_group("tree_genus_40");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(30));
    for threads in [1, 2] {
        g.bench_function(format!("shared_{threads}_threads"), |b| {
            b.iter(|| {
                let t = count_by_genus_on(40, threads).unwrap();
                assert_eq!(t.counts, A007323);
                t
            })
        });
    }
    for parallel in [false, true] {
        let name = if parallel { "parallel" } else { "single" };
        g.bench_function(name, |b| {
            b.iter(|| {
                let counts = count_by_genus(40, parallel).unwrap();
                assert_eq!(counts, A007323);
                assert_eq!(counts.iter().sum::<u64>(), 1_998_799_015);
                counts
            })
        });
    }
    g.finish();
}

criterion_group!(benches, genus_30, genus_40);
criterion_main!(benches);
