//! The value atlas to 10 cells on one and on two worker threads, asserting
//! the region counts (pinned to the census: 1,042 regions to eight cells)
//! and that both give the same values.
//!
//! `cargo bench -p partizan-census --bench atlas`

use criterion::{criterion_group, criterion_main, Criterion};
use partizan_census::atlas::{Atlas, AtlasConfig, NoStore};

fn atlas(c: &mut Criterion) {
    let mut g = c.benchmark_group("atlas_to_10_cells");
    g.sample_size(10);
    let reference = Atlas::build(
        &AtlasConfig {
            max_cells: 10,
            threads: 1,
            shard: None,
        },
        &mut NoStore,
    )
    .unwrap();
    for threads in [1, 2] {
        g.bench_function(format!("{threads}_threads"), |b| {
            b.iter(|| {
                let a = Atlas::build(
                    &AtlasConfig {
                        max_cells: 10,
                        threads,
                        shard: None,
                    },
                    &mut NoStore,
                )
                .unwrap();
                assert_eq!((1..=8).map(|n| a.regions_of_size(n)).sum::<u64>(), 1042);
                assert_eq!(a.values(), reference.values());
                a
            })
        });
    }
    g.finish();
}

criterion_group!(benches, atlas);
criterion_main!(benches);
