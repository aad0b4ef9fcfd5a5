//! The value atlas on one and on two worker threads, asserting what it
//! measures: to 10 cells (the region counts pinned to the census, 1,042 to
//! eight cells) and to 13 cells (the classes of each size are the published
//! free-polyomino counts, A000105, and the regions the census's), both
//! thread counts giving the same values. The 13-cell run times one and two
//! threads in turn, in pairs, and prints the median of the pairs' wall
//! ratios (two threads to one).
//!
//! `find_from_the_store` answers `partizan atlas find`'s questions from a
//! 12-cell atlas directory ([`DirStore::find`], what the command line, the
//! site and Python call), with its level index files and without, each
//! answer asserted equal to the loaded atlas's.
//!
//! `atlas_scaling` builds to `PZ_CELLS` cells (default 13, at most 15) on
//! 1, 2, 4, 8 and 16 threads (those the machine has; `PZ_THREADS=1,2,4`
//! chooses), each build asserted (A000105's class counts, the values and
//! entries of the one-thread build), and prints wall seconds, speedup and
//! efficiency against one thread measured in the same run; and beside each
//! thread count `n` the machine's ceiling: `n` one-thread builds run at
//! once, independent, against one alone (`n` times one build's time over
//! theirs). Cores that share caches, memory or a clock give less than `n`
//! even to work that shares nothing (this project's 2-core machine about
//! 1.8 for two), so a build's speedup is also printed as a share of it.
//!
//! `cargo bench -p partizan-census --bench atlas` (`-- atlas_to_13` for the
//! ratio alone; `PZ_PAIRS=N` pairs, default 5; `-- find` for the finds;
//! `-- atlas_scaling` for the thread table)

use std::time::Instant;

use criterion::{criterion_group, Criterion};
use partizan_census::atlas::{Atlas, AtlasConfig, NoStore, Query};
use partizan_census::DirStore;

/// A000105, n = 1..15.
const FREE: [usize; 15] = [
    1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655, 17073, 63600, 238591, 901971, 3426576,
];
/// Regions (row-preserving classes) of 13 cells, from the census.
const REGIONS_13: u64 = 476_849;

fn config(max_cells: usize, threads: usize) -> AtlasConfig {
    AtlasConfig {
        threads,
        ..AtlasConfig::new(max_cells)
    }
}

fn atlas(c: &mut Criterion) {
    let mut g = c.benchmark_group("atlas_to_10_cells");
    g.sample_size(10);
    let reference = Atlas::build(&config(10, 1), &mut NoStore).unwrap();
    for threads in [1, 2] {
        g.bench_function(format!("{threads}_threads"), |b| {
            b.iter(|| {
                let a = Atlas::build(&config(10, threads), &mut NoStore).unwrap();
                assert_eq!((1..=8).map(|n| a.regions_of_size(n)).sum::<u64>(), 1042);
                assert_eq!(a.values(), reference.values());
                a
            })
        });
    }
    g.finish();
}

/// Finds from a 12-cell atlas directory, from its index files and from a
/// copy without them (the summaries answer the first two there; the third
/// lists more regions than they keep, so the levels are read): every
/// answer asserted equal to the loaded atlas's, and its source.
fn find_from_the_store(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let atlas = Atlas::build(&config(12, 2), &mut DirStore::new(dir.path())).unwrap();
    let plain = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(dir.path()).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".index.pzal") {
            std::fs::copy(e.path(), plain.path().join(name)).unwrap();
        }
    }
    let mut g = c.benchmark_group("find_from_the_store");
    g.sample_size(20);
    let q = |value: Option<&str>, kind: Option<&str>, t: Option<&str>, limit| Query {
        value: value.map(Into::into),
        kind: kind.map(Into::into),
        min_temperature: t.map(Into::into),
        max_cells: Some(12),
        limit,
    };
    for (name, q) in [
        ("value_star2", q(Some("*2"), None, None, 10)),
        ("temperature_at_least_2", q(None, None, Some("2"), 10)),
        ("kind_tiny_50_listed", q(None, Some("tiny"), None, 50)),
    ] {
        let want = atlas.query(&q).unwrap();
        for (how, d) in [("index", dir.path()), ("no_index", plain.path())] {
            let store = DirStore::new(d);
            g.bench_function(format!("{name}/{how}"), |b| {
                b.iter(|| {
                    let (ans, _, cells) = store.find(&q).unwrap();
                    assert_eq!(cells, 12);
                    assert_eq!((ans.total, &ans.regions), (want.total, &want.regions));
                    assert_eq!(ans.source == "index", how == "index");
                    ans
                })
            });
        }
    }
    g.finish();
}

/// One build to 13 cells on `threads` threads, asserted: wall seconds.
fn timed13(threads: usize, reference: &Atlas) -> f64 {
    let (a, wall) = timed(13, threads, Some(reference));
    assert_eq!(a.regions_of_size(13), REGIONS_13);
    wall
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The 2/1 thread ratio to 13 cells: one and two threads in turn, in
/// `PZ_PAIRS` pairs (default 5) in the same run, which goes first
/// alternating, so load from other processes falls on both alike; prints
/// every pair and the median of the pairs' ratios. Run once, outside
/// criterion's sampling.
fn atlas13() {
    let pairs: usize = std::env::var("PZ_PAIRS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5)
        .max(1);
    let reference = Atlas::build(&config(13, 2), &mut NoStore).unwrap();
    let (mut ratios, mut ones, mut twos) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..pairs {
        let (one, two) = if i % 2 == 0 {
            let one = timed13(1, &reference);
            (one, timed13(2, &reference))
        } else {
            let two = timed13(2, &reference);
            (timed13(1, &reference), two)
        };
        println!(
            "atlas to 13 cells, pair {}: 1 thread {one:.2} s, 2 threads {two:.2} s, ratio {:.3}",
            i + 1,
            two / one
        );
        ratios.push(two / one);
        ones.push(one);
        twos.push(two);
    }
    println!(
        "atlas to 13 cells: median 1 thread {:.2} s, 2 threads {:.2} s, median ratio 2/1 = {:.3} over {pairs} pairs",
        median(ones),
        median(twos),
        median(ratios)
    );
}

/// One build to `cells` on `threads` threads, asserted against A000105
/// and (when given) the one-thread build: the atlas and its wall seconds.
fn timed(cells: usize, threads: usize, reference: Option<&Atlas>) -> (Atlas, f64) {
    let t0 = Instant::now();
    let a = Atlas::build(&config(cells, threads), &mut NoStore).unwrap();
    let wall = t0.elapsed().as_secs_f64();
    let classes: Vec<usize> = (1..=cells).map(|n| a.entries(n).len()).collect();
    assert_eq!(classes, FREE[..cells]);
    if let Some(r) = reference {
        assert_eq!(a.values(), r.values());
        for n in 1..=cells {
            assert_eq!(a.entries(n), r.entries(n), "{n} cells on {threads} threads");
        }
    }
    (a, wall)
}

/// Speedup and efficiency at 1, 2, 4, 8 and 16 threads (see the module
/// documentation), one build each, in one run.
fn scaling() {
    let cells: usize = std::env::var("PZ_CELLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(13)
        .clamp(1, FREE.len());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads: Vec<usize> = match std::env::var("PZ_THREADS") {
        Ok(v) => v
            .split(',')
            .map(|t| {
                t.trim()
                    .parse()
                    .expect("PZ_THREADS: thread counts such as 1,2,4")
            })
            .collect(),
        Err(_) => [1, 2, 4, 8, 16]
            .into_iter()
            .filter(|&t| t <= cores)
            .collect(),
    };
    let (reference, one) = timed(cells, 1, None);
    println!(
        "atlas to {cells} cells on {cores} cores: threads, wall, speedup, efficiency; \
         the ceiling (that many one-thread builds at once), the speedup's share of it"
    );
    println!("atlas_scaling  1 {one:8.2} s  1.00x  100%");
    for &t in threads.iter().filter(|&&t| t > 1) {
        let (_, wall) = timed(cells, t, Some(&reference));
        let speedup = one / wall;
        let t0 = Instant::now();
        std::thread::scope(|s| {
            for _ in 0..t {
                s.spawn(|| timed(cells, 1, Some(&reference)));
            }
        });
        let together = t0.elapsed().as_secs_f64();
        let ceiling = t as f64 * one / together;
        println!(
            "atlas_scaling {t:2} {wall:8.2} s {speedup:5.2}x {:4.0}%  ceiling {ceiling:5.2}x ({t} builds at once {together:.2} s), {:3.0}% of it",
            100.0 * speedup / t as f64,
            100.0 * speedup / ceiling
        );
    }
}

criterion_group!(benches, atlas, find_from_the_store);

fn main() {
    benches();
    // the filter, if any, as criterion reads it
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if filters.is_empty()
        || filters
            .iter()
            .any(|f| "atlas_to_13_cells".contains(f.as_str()))
    {
        atlas13();
    }
    if filters.iter().any(|f| "atlas_scaling".contains(f.as_str())) {
        scaling();
    }
    Criterion::default().configure_from_args().final_summary();
}
