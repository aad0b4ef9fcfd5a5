//! The misère quotient of Kayles, timed on answers it must get right, side
//! by side with the brute-force search of the same sums.
//!
//! Run with `cargo bench -p partizan-misere`.

use criterion::{criterion_group, criterion_main, Criterion};
use partizan_impartial::HeapGame;
use partizan_misere::brute::HeapSearch;
use partizan_misere::quotient::{MisereQuotient, QuotientOptions, Stability};
use partizan_misere::Outcome;

/// Every sum of up to four heaps of at most `max` tokens.
fn sums(max: usize) -> Vec<[usize; 4]> {
    let mut out = Vec::new();
    for a in 0..=max {
        for b in 0..=a {
            for c in 0..=b {
                for d in 0..=c {
                    out.push([a, b, c, d]);
                }
            }
        }
    }
    out
}

fn kayles() -> MisereQuotient {
    let q = MisereQuotient::compute(
        &HeapGame::parse("0.77").unwrap(),
        QuotientOptions {
            up_to: 300,
            ..QuotientOptions::default()
        },
    )
    .unwrap();
    assert_eq!((q.order(), q.p_portion_size()), (40, 9));
    assert!(matches!(
        q.stability(),
        Stability::Periodic {
            from: 71,
            period: 12,
            ..
        }
    ));
    q
}

fn kayles_quotient_against_search(c: &mut Criterion) {
    for max in [12, 16] {
        against_search(c, max);
    }
}

/// Compute the quotient and read every sum, against searching every sum
/// (the search's memo shared across the sums, fresh per run).
fn against_search(c: &mut Criterion, max: usize) {
    let sums = sums(max);
    // The answers, from the search once, for every timed run to match.
    let mut search = HeapSearch::new(&HeapGame::parse("0.77").unwrap(), 50_000_000);
    let want: Vec<Outcome> = sums.iter().map(|h| search.outcome(h).unwrap()).collect();
    let p_count = want.iter().filter(|&&o| o == Outcome::P).count();

    let mut group = c.benchmark_group(format!(
        "misère Kayles, the {} sums of four heaps to {max}",
        sums.len()
    ));
    group.sample_size(10);
    group.bench_function(
        "quotient: compute (proved to heap 167) and read every sum",
        |b| {
            b.iter(|| {
                let q = kayles();
                let got: Vec<Outcome> = sums.iter().map(|h| q.outcome(h).unwrap()).collect();
                assert_eq!(got, want);
                got.len()
            })
        },
    );
    let q = kayles();
    group.bench_function("quotient: read every sum", |b| {
        b.iter(|| {
            let got: Vec<Outcome> = sums.iter().map(|h| q.outcome(h).unwrap()).collect();
            assert_eq!(got, want);
            got.len()
        })
    });
    group.bench_function("brute-force search of the same sums", |b| {
        b.iter(|| {
            let mut s = HeapSearch::new(&HeapGame::parse("0.77").unwrap(), 50_000_000);
            let got: Vec<Outcome> = sums.iter().map(|h| s.outcome(h).unwrap()).collect();
            assert_eq!(got, want);
            assert_eq!(got.iter().filter(|&&o| o == Outcome::P).count(), p_count);
            s.positions()
        })
    });
    group.finish();
}

criterion_group!(benches, kayles_quotient_against_search);
criterion_main!(benches);
