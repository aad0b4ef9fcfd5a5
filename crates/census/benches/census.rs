//! The whole Domineering census to eight cells (catalogue, values,
//! readings, invariants, tables), asserting the totals it measures; and the
//! catalogue and Cram census beside it.

use criterion::{criterion_group, criterion_main, Criterion};
use partizan_census::{Catalogue, Census, CramCensus, DomineeringValues, Group};
use partizan_core::Arena;

fn census(c: &mut Criterion) {
    c.bench_function("domineering census to 8 cells", |b| {
        b.iter(|| {
            let mut arena = Arena::new();
            let census = Census::domineering(8, &mut arena, &mut DomineeringValues::new()).unwrap();
            let t = &census.report.totals;
            assert_eq!(
                (t.shapes, t.numbers, t.exact, t.contained),
                (1042, 315, 141, 209)
            );
            assert_eq!(
                (t.points, t.count_between_stops, t.interval_meets_stops),
                (505, 619, 661)
            );
            census
        })
    });
    c.bench_function("row-preserving catalogue to 10 cells", |b| {
        b.iter(|| {
            let cat = Catalogue::build(Group::RowPreserving, 10);
            assert_eq!(cat.fixed_counts()[9], 36446);
            cat
        })
    });
    c.bench_function("cram census to 10 cells", |b| {
        b.iter(|| {
            let cram = CramCensus::run(10).unwrap();
            assert_eq!(
                cram.report.totals.shapes,
                1 + 1 + 2 + 5 + 12 + 35 + 108 + 369 + 1285 + 4655
            );
            cram
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = census
}
criterion_main!(benches);
