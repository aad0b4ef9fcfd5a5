//! Counting the tree of numerical semigroups, asserting every count against
//! the published sequence (OEIS A007323), so a faster wrong walk cannot pass.
//!
//! `cargo bench -p partizan-semigroup --bench tree` runs them all; add
//! `-- genus_30` to skip the genus-40 runs (each takes seconds per sample).
//! `-- threads_ratio` times one and two threads in turn, in pairs, in the
//! same run (so load from other processes falls on both alike), at genus
//! `PZ_GENUS` (default 40, up to 45: the published table's end) for
//! `PZ_PAIRS` pairs (default 3), and prints the median of the pairs' wall
//! ratios with each thread's CPU seconds.

use std::time::{Duration, Instant};

use criterion::{criterion_group, Criterion};
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
                assert_eq!(t.counts, A007323[..=40]);
                t
            })
        });
    }
    for parallel in [false, true] {
        let name = if parallel { "parallel" } else { "single" };
        g.bench_function(name, |b| {
            b.iter(|| {
                let counts = count_by_genus(40, parallel).unwrap();
                assert_eq!(counts, A007323[..=40]);
                assert_eq!(counts.iter().sum::<u64>(), 1_998_799_015);
                counts
            })
        });
    }
    g.finish();
}

fn env_or(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One count on `threads` threads, asserted: wall seconds and each
/// thread's CPU seconds.
fn timed(genus: u32, threads: usize) -> (f64, Vec<f64>) {
    let t0 = Instant::now();
    let t = count_by_genus_on(genus, threads).unwrap();
    let wall = t0.elapsed().as_secs_f64();
    assert_eq!(t.counts, A007323[..=genus as usize], "published counts");
    let cpu = t.threads.iter().map(|w| w.cpu_seconds.unwrap_or(f64::NAN));
    (wall, cpu.collect())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// One and two threads in turn, in pairs (see the module's notes): run
/// once, outside criterion's sampling (a pair at genus 45 takes a minute).
fn threads_ratio() {
    let genus = env_or("PZ_GENUS", 40).min(A007323.len() as u32 - 1);
    let pairs = env_or("PZ_PAIRS", 3).max(1);
    let (mut ratios, mut ones, mut twos) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..pairs {
        // alternate which goes first, so a change of load favours neither
        let (one, two) = if i % 2 == 0 {
            let one = timed(genus, 1);
            (one, timed(genus, 2))
        } else {
            let two = timed(genus, 2);
            (timed(genus, 1), two)
        };
        println!(
            "genus {genus} pair {}: 1 thread {:.2} s wall (cpu {:.2} s), 2 threads {:.2} s wall (cpu {:.2} + {:.2} s), ratio {:.3}",
            i + 1,
            one.0,
            one.1[0],
            two.0,
            two.1[0],
            two.1[1],
            two.0 / one.0
        );
        ratios.push(two.0 / one.0);
        ones.push(one.0);
        twos.push(two.0);
    }
    println!(
        "genus {genus}: median 1 thread {:.2} s, 2 threads {:.2} s, median ratio 2/1 = {:.3} over {pairs} pairs",
        median(ones),
        median(twos),
        median(ratios)
    );
}

/// Whether the command line's filter (if any) names `name`.
fn wanted(name: &str) -> bool {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()))
}

criterion_group!(benches, genus_30, genus_40);

fn main() {
    benches();
    if wanted("threads_ratio") {
        threads_ratio();
    }
    Criterion::default().configure_from_args().final_summary();
}
