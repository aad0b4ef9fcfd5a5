//! Fuzz target (issue 38): JSON Lines imports (`partizan store import`),
//! read by `import_jsonl` into one store. A proptest-driven corpus run with
//! a fixed seed and a fixed number of cases, so it runs in `cargo test`:
//! inputs are raw bytes, the committed v2 export's lines mutated field by
//! field (values, boards, keys, encodings, rulesets, kinds replaced by
//! strangers), mutated byte by byte, repeated and reordered, under a
//! header that is sometimes wrong. Each case asserts:
//!
//! * no panic, and an answer within [`PER_CASE`] (documents of at most a
//!   few kilobytes);
//! * a report or a typed [`StoreError`] naming a line of the document;
//! * the store still opens and reads afterwards.
//!
//! At the end, every value the store holds is recomputed (`verify`): no
//! import, however mangled, may have put a wrong value among the ones the
//! store answers from.
//!
//! The long run, with the case count from `PARTIZAN_FUZZ_CASES`:
//!
//! ```sh
//! PARTIZAN_FUZZ_CASES=20000 cargo test --release -p partizan-store --test all fuzz_import:: -- --ignored
//! ```

use crate::common;

use std::time::Duration;

use partizan_fuzzkit::{long_run_cases, run, within, MAIN_STACK};
use partizan_store::{import_jsonl, verify, Store, StoreError, VerifyOptions};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::Value;

/// How long one case may take before it counts as unbounded work.
const PER_CASE: Duration = Duration::from_secs(30);
/// Cases of the run in `cargo test`.
const CASES: u32 = 10_000;

const EXPORT: &str = include_str!("data/store_v2.jsonl");

fn corpus() -> Vec<&'static str> {
    EXPORT.lines().collect()
}

/// Values that replace a field: wrong types, wrong values, limits.
fn stranger() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        any::<bool>().prop_map(Value::from),
        prop::sample::select(vec![
            "0",
            "*",
            "^",
            "{1|-1}",
            "{2|0||-1}",
            "1048575",
            "*1024",
            "Tiny(2)",
            "{",
            "x|o",
            "....|....",
            "R|.",
            "domineering",
            "clobber",
            "amazons",
            "nosuch",
            "outcome",
            "region",
            "census",
            "header",
            "",
            "505a470101000000",
            "505a4701010100000001",
            "zz",
            "00",
            "010101000100",
            "01010200030",
            "computed",
            "imported",
            "verified",
            "0.1.0",
            "99.0.0",
        ])
        .prop_map(Value::from),
        "[0-9a-f]{0,40}".prop_map(Value::from),
        "\\PC{0,40}".prop_map(Value::from),
        Just(serde_json::json!([1, [2, [3]]])),
        Just(serde_json::json!({"a": {"b": null}})),
    ]
}

/// One line of the corpus, as it is (most often: a document fails on
/// one bad line, and a mostly good one gets further) or changed.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(corpus()).prop_map(str::to_string),
        1 => changed_line(),
    ]
}

/// One line of the corpus, changed.
fn changed_line() -> impl Strategy<Value = String> {
    let lines = corpus();
    (
        prop::sample::select(lines),
        0u8..6,
        prop::sample::select(vec![
            "kind",
            "ruleset",
            "key",
            "board",
            "value",
            "provenance",
            "computed_at",
            "version",
            "encoding",
            "format",
        ]),
        stranger(),
        prop::collection::vec((any::<u16>(), any::<u8>()), 0..4),
    )
        .prop_map(|(base, op, field, with, bytes)| {
            let mut v: Value = serde_json::from_str(base).expect("corpus line is JSON");
            match op {
                0 => {}
                1 | 2 => {
                    v[field] = with;
                }
                3 => {
                    if let Some(o) = v.as_object_mut() {
                        o.remove(field);
                    }
                }
                _ => {
                    // a field of another line's kind
                    v["kind"] = Value::from(if op == 4 { "outcome" } else { "census" });
                    v[field] = with;
                }
            }
            let mut text = v.to_string().into_bytes();
            for (at, b) in bytes {
                if text.is_empty() {
                    break;
                }
                let at = at as usize % text.len();
                match b % 3 {
                    0 => text[at] = b,
                    1 => text.insert(at, b),
                    _ => {
                        text.remove(at);
                    }
                }
            }
            String::from_utf8_lossy(&text).into_owned()
        })
}

/// A whole document: a header (right, wrong or missing) and lines.
fn document() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => (
            prop::sample::select(vec![
                r#"{"kind":"header","format":"partizan-store","version":2}"#,
                r#"{"kind":"header","format":"partizan-store","version":2}"#,
                r#"{"kind":"header","format":"partizan-store","version":2}"#,
                r#"{"kind":"header","format":"partizan-store","version":1}"#,
                r#"{"kind":"header","format":"partizan-store","version":99}"#,
                r#"{"kind":"header","format":"other","version":2}"#,
                "",
            ]),
            prop::collection::vec(line(), 0..6),
        )
            .prop_map(|(header, lines)| {
                let mut doc = String::from(header);
                for l in lines {
                    doc.push('\n');
                    doc.push_str(&l);
                }
                doc.into_bytes()
            }),
        1 => prop::collection::vec(any::<u8>(), 0..600),
    ]
}

/// Import `doc` on a guarded thread: `Ok(true)`: imported; `Ok(false)`:
/// refused with a typed, one-line error.
fn import(store: &Store, doc: Vec<u8>) -> Result<bool, TestCaseError> {
    let s = store.clone();
    match within(PER_CASE, MAIN_STACK, move || {
        Ok(import_jsonl(&s, &mut doc.as_slice()))
    })? {
        Ok(_report) => Ok(true),
        Err(e) => {
            let said = e.to_string();
            if said.is_empty() || said.contains('\n') {
                return Err(TestCaseError::fail(format!("error not one line: {said:?}")));
            }
            // an empty document is refused as "line 0: empty input"
            if let StoreError::Import { line: 0, detail } = &e {
                if !detail.starts_with("empty input") {
                    return Err(TestCaseError::fail(format!("line 0: {detail}")));
                }
            }
            Ok(false)
        }
    }
}

fn fuzz(cases: u32) -> (u32, u32) {
    let dir = common::tempdir();
    let store = Store::open(&dir.path().join("fuzz.sqlite")).expect("a new store");
    let mut imported = 0u32;
    let seen = run(0x5EED_1390, cases, &document(), |doc| {
        if import(&store, doc)? {
            imported += 1;
        }
        store
            .stats()
            .map_err(|e| TestCaseError::fail(format!("the store no longer reads: {e}")))?;
        Ok(())
    });
    let report = verify(&store, &VerifyOptions::default()).expect("verify runs");
    assert!(
        report.mismatches.is_empty(),
        "a wrong value got in: {:?}",
        report.mismatches
    );
    eprintln!(
        "fuzz_import: {seen} cases, {imported} imported, {} refused; {} entries in the store, {} recomputed, 0 mismatches",
        seen - imported,
        report.entries,
        report.recomputed
    );
    (seen, imported)
}

#[test]
fn imports_never_panic_and_never_poison_the_store() {
    let (cases, imported) = fuzz(CASES);
    assert_eq!(cases, CASES);
    assert!(imported > 0 && imported < CASES, "{imported} imported");
}

/// The long run: `PARTIZAN_FUZZ_CASES` cases (default 20,000).
#[test]
#[ignore = "long fuzz run: PARTIZAN_FUZZ_CASES=N cargo test --release -p partizan-store --test all fuzz_import:: -- --ignored"]
fn imports_long_run() {
    fuzz(long_run_cases(20_000));
}
