//! Grundy sequences against the OEIS: the published terms, and the
//! published periods and exceptions, extended by the published formula to
//! thousands of terms. The data files under `tests/data/` cite their pages.

use std::collections::BTreeSet;

use partizan_impartial::engine::naive_values;
use partizan_impartial::{GrundySequence, HeapGame, OctalCode, SearchOptions};

/// One data file: a code, the OEIS offset, the published terms and, when
/// published, the period with its exceptions or its last exception.
struct Published {
    code: String,
    offset: usize,
    values: Vec<u32>,
    period: Option<usize>,
    exceptions: Option<Vec<usize>>,
    last_exception: Option<usize>,
}

fn load(name: &str) -> Published {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("data file");
    let mut p = Published {
        code: String::new(),
        offset: 0,
        values: Vec::new(),
        period: None,
        exceptions: None,
        last_exception: None,
    };
    let list =
        |s: &str| -> Vec<usize> { s.split(',').map(|x| x.trim().parse().unwrap()).collect() };
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (key, rest) = line.split_once(' ').expect("key value");
        match key {
            "code" => p.code = rest.trim().into(),
            "offset" => p.offset = rest.trim().parse().unwrap(),
            "period" => p.period = Some(rest.trim().parse().unwrap()),
            "exceptions" => p.exceptions = Some(list(rest)),
            "last_exception" => p.last_exception = Some(rest.trim().parse().unwrap()),
            "values" => p.values = list(rest).into_iter().map(|v| v as u32).collect(),
            other => panic!("{name}: unknown key {other}"),
        }
    }
    p
}

/// The published sequence `G(offset..upto)`, extended past the published
/// terms by the published period: `a(n) = a(n - p)` wherever `n - p` is
/// past the last exception. `None` when the published terms stop before
/// the exceptions do.
fn extended(p: &Published, upto: usize) -> Option<Vec<u32>> {
    let period = p.period.expect("a period");
    let last = p
        .exceptions
        .as_ref()
        .and_then(|e| e.last().copied())
        .or(p.last_exception)
        .expect("exceptions");
    let mut a = p.values.clone(); // a[i] = G(offset + i)
    while a.len() + p.offset < upto {
        let n = a.len() + p.offset;
        if n - period <= last {
            return None;
        }
        a.push(a[n - period - p.offset]);
    }
    Some(a)
}

fn sequence(code: &str, search: usize) -> GrundySequence {
    GrundySequence::compute(
        &HeapGame::Octal(OctalCode::parse(code).unwrap()),
        SearchOptions {
            up_to: 0,
            search,
            max_work: u64::MAX,
        },
    )
}

fn check_head(p: &Published, s: &GrundySequence) {
    for (i, &v) in p.values.iter().enumerate() {
        assert_eq!(
            s.get(p.offset + i),
            Some(v),
            "{} G({})",
            p.code,
            p.offset + i
        );
    }
}

#[test]
fn published_heads() {
    for file in [
        "a002186_kayles.txt",
        "a002187_dawsons_chess.txt",
        "a071434_01377.txt",
        "a071435_0177.txt",
        "a071452_011377.txt",
        "a071453_0117.txt",
        "a125920_0176.txt",
        "a071464_0127.txt",
        "a071436_056.txt",
        "a071509_01777.txt",
    ] {
        let p = load(file);
        // The head alone, from the naive engine (no periodicity involved).
        let naive = naive_values(
            &OctalCode::parse(&p.code).unwrap(),
            p.offset + p.values.len(),
        );
        assert_eq!(&naive[p.offset..], &p.values[..], "{file}");
        check_head(&p, &sequence(&p.code, 2048));
    }
}

/// Period, pre-period and exceptions against the published ones, and 5,000
/// terms against the published formula.
#[test]
fn published_periods_to_thousands_of_terms() {
    for file in [
        "a002186_kayles.txt",
        "a002187_dawsons_chess.txt",
        "a071434_01377.txt",
        "a071435_0177.txt",
        "a071452_011377.txt",
        "a071453_0117.txt",
        "a125920_0176.txt",
    ] {
        let p = load(file);
        let s = sequence(&p.code, 10_000);
        let per = s
            .periodicity()
            .unwrap_or_else(|| panic!("{file}: not proved"));
        assert_eq!(Some(per.period), p.period, "{file}");
        // OEIS sequences with offset 1 say nothing about G(0).
        let ours: Vec<usize> = per
            .exceptions
            .iter()
            .copied()
            .filter(|&n| n >= p.offset)
            .collect();
        if let Some(e) = &p.exceptions {
            assert_eq!(&ours, e, "{file}: exceptions");
        }
        if let Some(last) = p.last_exception {
            assert_eq!(ours.last(), Some(&last), "{file}: last exception");
            assert_eq!(per.preperiod, last + 1, "{file}");
        }
        let Some(a) = extended(&p, 5_000) else {
            // Terms end before the exceptions: the naive twin covers these
            // far out (below).
            continue;
        };
        for (i, &v) in a.iter().enumerate() {
            assert_eq!(s.get(p.offset + i), Some(v), "{file}: G({})", p.offset + i);
        }
    }
}

#[test]
fn kayles_period_12_from_71() {
    let s = sequence("0.77", 10_000);
    let per = s.periodicity().unwrap();
    assert_eq!((per.period, per.preperiod), (12, 71));
    assert_eq!(
        per.exceptions,
        [0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70]
    );
    // The proof needed 2*71 + 12 + 2 values plus one period.
    assert_eq!(per.proof_length, 2 * 71 + 12 + 2 + 12);
}

/// Dawson's Kayles 0.07 has the values of Dawson's Chess 0.137 shifted by
/// one (OEIS A002187: "0.07 has values a(n-1)"). So its period is 34 and
/// its exceptions are those of A002187 plus one, and n = 0 as well (G(0) =
/// 0 but G(34) = a(33) = 4): periodic from 53 in 0.07's own indexing,
/// which is "from 52" in Dawson's Chess indexing.
#[test]
fn dawsons_kayles_is_dawsons_chess_shifted() {
    let chess = load("a002187_dawsons_chess.txt");
    let s = sequence("0.07", 10_000);
    assert_eq!(s.get(0), Some(0));
    let a = extended(&chess, 5_000).unwrap();
    for n in 1..5_000 {
        assert_eq!(s.get(n), Some(a[n - 1]), "G_0.07({n})");
    }
    let per = s.periodicity().unwrap();
    assert_eq!(per.period, 34);
    let expected: BTreeSet<usize> = std::iter::once(0)
        .chain(chess.exceptions.unwrap().into_iter().map(|e| e + 1))
        .collect();
    assert_eq!(
        per.exceptions.iter().copied().collect::<BTreeSet<_>>(),
        expected
    );
    assert_eq!(per.preperiod, 53);
    // Dawson's Chess itself: period 34 from 52.
    let chess_seq = sequence("0.137", 10_000);
    let cp = chess_seq.periodicity().unwrap();
    assert_eq!((cp.period, cp.preperiod), (34, 52));
}

/// 3,000 terms of each proved game by the naive engine, no
/// periodicity used, against the proved sequence.
#[test]
fn proved_sequences_match_the_plain_recurrence_far_out() {
    for code in [
        "0.77", "0.07", "0.137", "0.177", "0.1377", "0.11377", "0.117", "0.176",
    ] {
        let naive = naive_values(&OctalCode::parse(code).unwrap(), 3_000);
        let s = sequence(code, 10_000);
        assert!(s.computed().len() < 3_000, "{code} stopped early");
        for (n, &v) in naive.iter().enumerate() {
            assert_eq!(s.get(n), Some(v), "{code} G({n})");
        }
    }
}

/// 0.127 is periodic with period 4 only after n = 46577 (OEIS A071464,
/// Gangolli and Plambeck): the proof needs about 93,200 values.
/// Run with `cargo test -p partizan-impartial --release -- --ignored`.
#[test]
#[ignore = "long: computes about 131,000 values of 0.127"]
fn octal_0127_period_4_after_46577() {
    let p = load("a071464_0127.txt");
    let s = sequence("0.127", 200_000);
    let per = s.periodicity().expect("proved");
    assert_eq!((per.period, per.preperiod), (4, 46_578));
    assert_eq!(per.exceptions.last(), Some(&46_577));
    check_head(&p, &s);
}
