//! The Sylver Coinage census to twenty gaps, asserting the essay's figures.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use partizan_semigroup::{census, Order};

fn census_20(c: &mut Criterion) {
    let mut g = c.benchmark_group("census");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("to_20_gaps", |b| {
        b.iter(|| {
            let r = census(20, Order::Increasing).unwrap();
            assert_eq!(r.totals.positions, 1766);
            let at = |gaps: &str| {
                r.by_genus
                    .iter()
                    .find(|s| s.label == gaps)
                    .unwrap()
                    .finishing_median_closures
            };
            assert_eq!((at("16"), at("20")), (269.0, 967.0));
            assert_eq!(r.totals.told.cheaper_than_finishing, 7);
            assert_eq!(r.totals.kept_cheaper_than_fresh, 1610);
            r.totals.positions
        })
    });
    g.finish();
}

criterion_group!(benches, census_20);
criterion_main!(benches);
