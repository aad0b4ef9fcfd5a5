//! Grundy engines timed on answers they must get right.
//!
//! Run with `cargo bench -p partizan-impartial`.

use criterion::{criterion_group, criterion_main, Criterion};
use partizan_impartial::engine::{naive_values, FastEngine};
use partizan_impartial::{GrundySequence, HeapGame, OctalCode, SearchOptions};

/// `partizan grundy 0.07 --up-to 1000000`: prove the period, then read a
/// million values from it.
fn dawsons_kayles_to_a_million(c: &mut Criterion) {
    let game = HeapGame::parse("0.07").unwrap();
    c.bench_function("0.07 up to 1,000,000 (prove + read)", |b| {
        b.iter(|| {
            let s = GrundySequence::compute(
                &game,
                SearchOptions {
                    up_to: 1_000_000,
                    search: 10_000,
                    ..SearchOptions::default()
                },
            );
            let p = s.periodicity().expect("proved");
            assert_eq!((p.period, p.preperiod), (34, 53));
            let v = s.values_through(1_000_000).expect("known");
            assert_eq!(v[1_000_000], 2);
            assert_eq!(v[999_999], 0);
            v.len()
        })
    });
}

/// The recurrence itself, no periodicity: Kayles to 20,000 by the bitset
/// engine and by the plain recurrence; both checked against the proved
/// period (12 from 71).
fn recurrence_fast_against_naive(c: &mut Criterion) {
    let code = OctalCode::parse("0.77").unwrap();
    let period = |n: usize, g: &[u32]| if n < 71 { g[n] } else { g[71 + (n - 71) % 12] };
    let check = |g: &[u32]| {
        for n in (0..g.len()).step_by(7) {
            assert_eq!(g[n], period(n, g), "G({n})");
        }
    };
    let len = 20_000;
    let mut group = c.benchmark_group("0.77 recurrence to 20,000");
    group.sample_size(10);
    group.bench_function("bitset engine", |b| {
        b.iter(|| {
            let mut e = FastEngine::new(&code);
            e.extend_to(len);
            check(e.values());
            e.words_scanned()
        })
    });
    group.bench_function("naive recurrence", |b| {
        b.iter(|| {
            let g = naive_values(&code, len);
            check(&g);
            g.len()
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    dawsons_kayles_to_a_million,
    recurrence_fast_against_naive
);
criterion_main!(benches);
