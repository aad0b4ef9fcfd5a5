//! The store's speed and size, with the answers asserted.
//!
//! * `store/cold`: a dozen Domineering boards of 12–20 cells solved with an
//!   empty store attached (every region searched, every value written and
//!   committed; creating the file is not timed);
//! * `store/warm`: the same boards with a fresh solver and arena on the
//!   store the cold run filled, so the store answers the regions;
//! * `store/none`: the same boards with no store, for reference.
//!
//! After the timings it prints the cold/warm ratio and the file size per
//! million region values, measured by filling a store with many small regions.
//!
//! ```sh
//! cargo bench -p partizan-store --bench store
//! ```

use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use partizan_core::Arena;
use partizan_games::{Domineering, Ruleset};
use partizan_solve::{RegionTable, Savings, Solver, Stats};
use partizan_store::keys::encode_key_parts;
use partizan_store::{RawEntry, Record, Store};

/// Twelve Domineering boards of 12 to 20 cells.
const BOARDS: &[&str] = &[
    "....|....|....",
    "......|......",
    "...|...|...|...",
    "#...|....|....|...#",
    "....|....|....|....",
    ".....|.....|.....",
    "..#..|.....|.....|..#..",
    "....#|.....|.....|#....",
    "......|......|...###",
    "#....|.....|.....|....#",
    "...|...|...|...|...|...",
    "....|....|....|....|....",
];

fn run(table: Option<&mut dyn RegionTable>) -> (Vec<String>, Stats) {
    let mut arena = Arena::new();
    let mut solver = Solver::new(&Domineering, Savings::ALL).expect("solver");
    if let Some(t) = table {
        solver = solver.with_table(t);
    }
    let values = BOARDS
        .iter()
        .map(|t| {
            let b = Domineering.parse(t).expect("board");
            let v = solver.value(&mut arena, &b).expect("value");
            arena.display(v)
        })
        .collect();
    (values, solver.stats())
}

/// A new, empty store (creating the file is not part of the timings).
fn empty_store(dir: &Path) -> Store {
    Store::open(&dir.join("cold.redb")).expect("store")
}

fn cold(store: &Store, expect: &[String]) -> Stats {
    let mut session = store.session();
    let (values, stats) = run(Some(&mut session));
    session.finish().expect("flush");
    assert_eq!(values, expect);
    assert_eq!(stats.store_hits, 0);
    assert_eq!(stats.store_added, stats.distinct);
    stats
}

/// A warm run: fresh solver and arena, the store answering. Returns the
/// counts and how long the solving took before the session's `finish`
/// (which commits the run's record).
fn warm(store: &Store, expect: &[String]) -> (Stats, Duration) {
    let t = Instant::now();
    let mut session = store.session();
    let (values, stats) = run(Some(&mut session));
    let solving = t.elapsed();
    session.finish().expect("finish");
    assert_eq!(values, expect);
    assert_eq!(stats.store_added, 0, "the warm run computes nothing new");
    assert_eq!(stats.distinct, 0, "the store answers every region");
    assert!(stats.store_hits > 0);
    (stats, solving)
}

fn time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let t = Instant::now();
    let r = f();
    (r, t.elapsed())
}

fn bench(c: &mut Criterion) {
    let (expect, plain) = run(None);
    let mut group = c.benchmark_group("store");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("none", |b| b.iter(|| run(None)));
    group.bench_function("cold", |b| {
        b.iter_batched(
            || {
                let dir = tempfile::tempdir().expect("tempdir");
                let store = empty_store(dir.path());
                (dir, store)
            },
            |(dir, store)| {
                cold(&store, &expect);
                (dir, store)
            },
            BatchSize::PerIteration,
        )
    });
    let dir = tempfile::tempdir().expect("tempdir");
    let store = empty_store(dir.path());
    let cold_stats = cold(&store, &expect);
    group.bench_function("warm", |b| b.iter(|| warm(&store, &expect)));
    group.finish();

    // One more timed pass of each, for the ratio.
    let (_, t_none) = time(|| run(None));
    let d2 = tempfile::tempdir().expect("tempdir");
    let s2 = empty_store(d2.path());
    let (_, t_cold) = time(|| cold(&s2, &expect));
    let ((warm_stats, t_warm_solve), t_warm) = time(|| warm(&s2, &expect));
    println!(
        "boards {}; regions searched cold {} (plain {}), store hits warm {}",
        BOARDS.len(),
        cold_stats.distinct,
        plain.distinct,
        warm_stats.store_hits
    );
    println!(
        "no store {:?}, cold {:?}, warm {:?} (of which solving {:?}, the rest committing the run record)",
        t_none, t_cold, t_warm, t_warm_solve
    );
    println!(
        "cold/warm = {:.1}x, none/warm = {:.1}x; solving alone: cold/warm = {:.0}x",
        t_cold.as_secs_f64() / t_warm.as_secs_f64(),
        t_none.as_secs_f64() / t_warm.as_secs_f64(),
        t_cold.as_secs_f64() / t_warm_solve.as_secs_f64()
    );
    size_per_million();
}

/// Fill a store with many small regions: every Domineering region of up to
/// 10 cells and every Clobber region of up to 7 (genuine keys and values),
/// then a million synthetic small entries of the same shape.
fn size_per_million() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("size.redb");
    let store = Store::open(&path).expect("store");
    let empty = store.file_bytes().expect("size");
    let mut real = 0;
    for (r, n) in [("domineering", 10), ("clobber", 7), ("konane", 6)] {
        let rep = partizan_store::warm(&store, r, n, &mut |_, _| {}).expect("warm");
        real += rep.session.written;
    }
    let real_bytes = store.file_bytes().expect("size");
    let total = store.stats().expect("stats").total_regions;
    assert_eq!(total, real);
    let per_real = (real_bytes - empty) as f64 / real as f64;
    println!(
        "real regions: {real} values in {} bytes ({} empty): {:.0} bytes per value = {:.0} MB per million",
        real_bytes,
        empty,
        per_real,
        per_real * 1e6 / 1e6
    );

    // Synthetic: a million distinct 5x4 keys, each with a small number value.
    const N: u64 = 1_000_000;
    // The number 1 in core's encoding.
    let value = *b"PZG\x01\x01\x00\x02\x00";
    let mut batch = Vec::with_capacity(4096);
    let (_, t) = time(|| {
        for i in 0..N {
            batch.push(RawEntry {
                ruleset: "cram".into(),
                key: encode_key_parts(5, 4, [i as u128, 0, 0]),
                record: Record {
                    provenance: partizan_store::Provenance::Computed,
                    computed_at: 1_800_000_000,
                    version: "0.1.0",
                    value: &value,
                }
                .encode(),
            });
            if batch.len() == 4096 || i + 1 == N {
                store.insert_regions(&batch).expect("insert");
                batch.clear();
            }
        }
    });
    let after = store.file_bytes().expect("size");
    let n = store.region_counts().expect("counts")["cram"];
    assert_eq!(n, N);
    println!(
        "synthetic: {N} values in {:.1} MB ({:.0} bytes per value), written in {:?} ({:.0} values/s)",
        (after - real_bytes) as f64 / 1e6,
        (after - real_bytes) as f64 / N as f64,
        t,
        N as f64 / t.as_secs_f64()
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
