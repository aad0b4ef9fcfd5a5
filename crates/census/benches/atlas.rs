//! The value atlas on one and on two worker threads, asserting what it
//! measures: to 10 cells (the region counts pinned to the census, 1,042 to
//! eight cells) and to 13 cells (the classes of each size are the published
//! free-polyomino counts, A000105, and the regions the census's), both
//! thread counts giving the same values. The 13-cell group ends by printing
//! the wall-time ratio of two threads to one, from the same run.
//!
//! `cargo bench -p partizan-census --bench atlas`

use std::sync::Mutex;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use partizan_census::atlas::{Atlas, AtlasConfig, NoStore};

/// A000105, n = 1..13.
const FREE: [usize; 13] = [
    1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655, 17073, 63600, 238591,
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

/// Mean seconds per build, by thread count, for the ratio.
static MEANS: Mutex<[f64; 3]> = Mutex::new([0.0; 3]);

fn atlas13(c: &mut Criterion) {
    let mut g = c.benchmark_group("atlas_to_13_cells");
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(1));
    g.measurement_time(Duration::from_secs(30));
    let reference = Atlas::build(&config(13, 2), &mut NoStore).unwrap();
    for threads in [1usize, 2] {
        g.bench_function(format!("{threads}_threads"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let t0 = Instant::now();
                    let a = Atlas::build(&config(13, threads), &mut NoStore).unwrap();
                    total += t0.elapsed();
                    let classes: Vec<usize> = (1..=13).map(|n| a.entries(n).len()).collect();
                    assert_eq!(classes, FREE);
                    assert_eq!(a.regions_of_size(13), REGIONS_13);
                    assert_eq!(a.values(), reference.values());
                    assert_eq!(a.entries(13), reference.entries(13));
                }
                let mut m = MEANS.lock().unwrap();
                m[threads] = total.as_secs_f64() / iters as f64;
                total
            })
        });
    }
    g.finish();
    let m = MEANS.lock().unwrap();
    println!(
        "atlas to 13 cells: 1 thread {:.2} s, 2 threads {:.2} s, ratio 2/1 = {:.3}",
        m[1],
        m[2],
        m[2] / m[1]
    );
}

criterion_group!(benches, atlas, atlas13);
criterion_main!(benches);
