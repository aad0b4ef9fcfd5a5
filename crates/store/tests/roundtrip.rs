//! Export → import into a fresh store → export gives the same entries, and
//! imports are checked: bounded, canonical, recomputed where small.

use crate::common;

use partizan_core::{Arena, GameId};
use partizan_store::keys::encode_key_parts;
use partizan_store::{
    encode_value, export_jsonl, import_jsonl, Provenance, RawEntry, Record, Store, StoreError,
};
use proptest::prelude::*;
use serde_json::{json, Value};

const LEAVES: &[&str] = &[
    "0", "*", "1", "-1", "1/2", "-3/4", "^", "v", "*2", "{1|-1}", "{0|*}",
];

/// Build a value from a recipe: leaves, then forms over earlier pieces.
fn build(arena: &mut Arena, recipe: &[(u8, u8, u8)]) -> GameId {
    let mut pieces: Vec<GameId> = Vec::new();
    for &(op, a, b) in recipe {
        let g = if op % 3 == 0 || pieces.is_empty() {
            arena.parse(LEAVES[a as usize % LEAVES.len()]).unwrap()
        } else {
            let x = pieces[a as usize % pieces.len()];
            let y = pieces[b as usize % pieces.len()];
            if op % 3 == 1 {
                arena.construct(&[x], &[y]).unwrap()
            } else {
                arena.construct(&[x, y], &[y]).unwrap()
            }
        };
        pieces.push(g);
    }
    *pieces.last().unwrap()
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<i64>().prop_map(|n| json!(n)),
        any::<bool>().prop_map(|b| json!(b)),
        "[a-z ]{0,8}".prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

type RegionSpec = (u8, u8, u8, u128, u128, Vec<(u8, u8, u8)>, u64);

fn region_spec() -> impl Strategy<Value = RegionSpec> {
    (
        0u8..3,
        4u8..9,
        4u8..9,
        any::<u128>(),
        any::<u128>(),
        prop::collection::vec(any::<(u8, u8, u8)>(), 1..6),
        0u64..2_000_000_000,
    )
        // More than 12 playable cells: imported as unverified, not recomputed
        // (the values are arbitrary).
        .prop_filter("large region", |(_, w, h, l0, l1, _, _)| {
            let n = u32::from(*w) * u32::from(*h);
            let mask = if n >= 128 {
                u128::MAX
            } else {
                (1u128 << n) - 1
            };
            ((l0 | l1) & mask).count_ones() > 12
        })
}

/// The lines of an export without the `provenance` field.
fn without_provenance(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            if let Some(o) = v.as_object_mut() {
                o.remove("provenance");
            }
            v
        })
        .collect()
}

fn export(store: &Store) -> String {
    let mut out = Vec::new();
    export_jsonl(store, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    #[test]
    fn export_import_export_is_identical(
        regions in prop::collection::vec(region_spec(), 0..40),
        census in prop::collection::btree_map("census/[a-z]{1,8}/max_cells=[0-9]", json_value(), 0..4),
    ) {
        let dir = common::tempdir();
        let a = Store::open(&dir.path().join("a.redb")).unwrap();
        let mut arena = Arena::new();
        let rulesets = ["domineering", "clobber", "konane"];
        let entries: Vec<RawEntry> = regions
            .iter()
            .map(|(r, w, h, l0, l1, recipe, at)| {
                let g = build(&mut arena, recipe);
                let enc = encode_value(&mut arena, g);
                RawEntry {
                    ruleset: rulesets[*r as usize].to_string(),
                    key: encode_key_parts(*w as usize, *h as usize, [*l0, *l1 & !*l0, 0]),
                    record: Record {
                        provenance: Provenance::Computed,
                        computed_at: *at,
                        version: "0.1.0",
                        value: &enc,
                    }
                    .encode(),
                }
            })
            .collect();
        a.insert_regions(&entries).unwrap();
        for (k, v) in &census {
            a.put_census(k, v).unwrap();
        }
        let first = export(&a);

        let b = Store::open(&dir.path().join("b.redb")).unwrap();
        let rep = import_jsonl(&b, &mut first.as_bytes()).unwrap();
        prop_assert_eq!(rep.census_added as usize, census.len());
        let second = export(&b);
        prop_assert_eq!(without_provenance(&first), without_provenance(&second));
        // Large imported regions are unverified until `verify` recomputes them.
        prop_assert_eq!(rep.regions_unverified, rep.regions_added);
        prop_assert_eq!(b.stats().unwrap().unverified, rep.regions_added);

        // Importing again changes nothing; a further store reads the same.
        let again = import_jsonl(&b, &mut first.as_bytes()).unwrap();
        prop_assert_eq!(again.regions_added, 0);
        prop_assert_eq!(again.census_added, 0);
        prop_assert_eq!(again.regions_conflicting, 0);
        prop_assert_eq!(&export(&b), &second);
        let c = Store::open(&dir.path().join("c.redb")).unwrap();
        import_jsonl(&c, &mut second.as_bytes()).unwrap();
        prop_assert_eq!(export(&c), second);
    }
}

#[test]
fn census_results_round_trip() {
    let dir = common::tempdir();
    let s = Store::open(&dir.path().join("s.redb")).unwrap();
    let key = "census/domineering/max_cells=9";
    assert_eq!(s.get_census(key).unwrap(), None);
    let v = json!({"shapes": 9910, "tally": [1, 2, 3], "note": "ok"});
    s.put_census(key, &v).unwrap();
    assert_eq!(s.get_census(key).unwrap(), Some(v.clone()));
    let v2 = json!({"shapes": 1});
    s.put_census(key, &v2).unwrap();
    assert_eq!(s.get_census(key).unwrap(), Some(v2.clone()));
    assert!(!s.insert_census(key, &v).unwrap());
    assert_eq!(s.census_entries().unwrap(), vec![(key.to_string(), v2)]);
    assert_eq!(s.stats().unwrap().census_entries, 1);
}

#[test]
fn bad_import_lines_name_the_line_and_write_nothing() {
    let dir = common::tempdir();
    let s = Store::open(&dir.path().join("s.redb")).unwrap();
    let header = r#"{"kind":"header","format":"partizan-store","version":2}"#;
    // The 1x2 Domineering strip `..` (key 01 02 01 03 00 00) is -1: Right's move.
    let minus_one = hex(&enc("-1"));
    let good = format!(
        r#"{{"kind":"region","ruleset":"domineering","key":"010201030000","computed_at":5,"version":"0.1.0","encoding":"{minus_one}"}}"#
    );
    let cases = [
        (format!("{good}\n"), 1, "header".to_string()),
        (format!("{header}\n{good}\nnot json\n"), 3, String::new()),
        (
            format!(
                "{header}\n{}\n",
                good.replace("010201030000", "010201070000")
            ),
            2,
            "bits beyond".into(),
        ),
        (
            format!(
                "{header}\n{}\n",
                good.replace(&minus_one, "505a470101000001")
            ),
            2,
            String::new(),
        ),
        (
            format!("{header}\n{}\n", good.replace("domineering", "Dom/ino")),
            2,
            "invalid ruleset".into(),
        ),
        (
            header.replace("\"version\":2", "\"version\":3"),
            1,
            "newer".into(),
        ),
        // Poisoning: a well-formed but wrong value of a small region.
        (
            format!(
                "{header}\n{good}\n{}\n",
                good.replace("010201030000", "010102030000")
                    .replace(&minus_one, &hex(&enc("-7")))
            ),
            3,
            "is 1, not the -7".into(),
        ),
        // Non-canonical bytes: {0|0} written raw (it is *, encoded as a nimber).
        (
            format!(
                "{header}\n{}\n",
                good.replace(&minus_one, "505a4701020000000201010000")
            ),
            2,
            String::new(),
        ),
        // A nimber far beyond any region's.
        (
            format!(
                "{header}\n{}\n",
                good.replace(&minus_one, "505a47010101000000ac02")
            ),
            2,
            "nimber".into(),
        ),
    ];
    for (text, line, needle) in cases {
        let e = import_jsonl(&s, &mut text.as_bytes()).unwrap_err();
        match &e {
            StoreError::Import { line: l, detail } => {
                assert_eq!(*l, line, "{e}");
                assert!(detail.contains(needle.as_str()), "{e}");
            }
            other => panic!("{other:?}"),
        }
        assert!(!e.to_string().contains('\n'));
    }
    assert_eq!(s.stats().unwrap().total_regions, 0);
    let ok = format!("{header}\n{good}\n");
    let r = import_jsonl(&s, &mut ok.as_bytes()).unwrap();
    assert_eq!((r.regions_added, r.regions_recomputed), (1, 1));
}

fn enc(text: &str) -> Vec<u8> {
    let mut a = Arena::new();
    let g = a.parse(text).unwrap();
    encode_value(&mut a, g)
}

fn hex(b: &[u8]) -> String {
    partizan_store::keys::to_hex(b)
}

#[test]
fn unbounded_input_is_refused_by_line() {
    let dir = common::tempdir();
    let s = Store::open(&dir.path().join("s.redb")).unwrap();
    // /dev/zero: one endless line.
    let mut zeros = std::io::BufReader::new(std::io::repeat(0).take_bytes(64 << 20));
    let e = import_jsonl(&s, &mut zeros).unwrap_err();
    assert!(
        matches!(&e, StoreError::Import { line: 1, detail } if detail.contains("longer than")),
        "{e}"
    );
    // `*100000` in 179 bytes: refused by the value bounds, at once.
    // tag 1 (number+ups+nimber): 0, 0, 0 ups, nimber 100000 = LEB128 a0 8d 06
    let big = "505a47010101000000a08d06";
    let text = format!(
        "{}\n{{\"kind\":\"region\",\"ruleset\":\"domineering\",\"key\":\"010201030000\",\"computed_at\":5,\"version\":\"x\",\"encoding\":\"{big}\"}}\n",
        r#"{"kind":"header","format":"partizan-store","version":2}"#
    );
    let t = std::time::Instant::now();
    let e = import_jsonl(&s, &mut text.as_bytes()).unwrap_err();
    assert!(t.elapsed() < std::time::Duration::from_secs(1));
    assert!(matches!(&e, StoreError::Import { line: 2, .. }), "{e}");
}

trait TakeBytes: std::io::Read + Sized {
    fn take_bytes(self, n: u64) -> std::io::Take<Self> {
        self.take(n)
    }
}
impl<R: std::io::Read> TakeBytes for R {}

#[test]
fn large_imports_are_unverified_until_verify_recomputes_them() {
    use partizan_games::{Domineering, Ruleset};
    let dir = common::tempdir();
    let s = Store::open(&dir.path().join("s.redb")).unwrap();
    // The 4x4 square (16 cells) is its own transpose, so its value is its own
    // negative: never 7.
    let board = Domineering.parse("....|....|....|....").unwrap();
    let key = hex(&partizan_store::encode_board(&board));
    let line = |enc: &str| {
        format!(
            "{}\n{{\"kind\":\"region\",\"ruleset\":\"domineering\",\"key\":\"{key}\",\"computed_at\":5,\"version\":\"x\",\"encoding\":\"{enc}\"}}\n",
            r#"{"kind":"header","format":"partizan-store","version":2}"#
        )
    };
    let r = import_jsonl(&s, &mut line(&hex(&enc("7"))).as_bytes()).unwrap();
    assert_eq!((r.regions_added, r.regions_unverified), (1, 1));
    // A session never answers from it: it computes, and replaces the row.
    let mut arena = Arena::new();
    let mut session = s.session();
    assert_eq!(
        session.lookup(&mut arena, "domineering", &board).unwrap(),
        None
    );
    assert_eq!(session.stats().unverified, 1);
    assert!(session.warning().unwrap().contains("not yet verified"));
    drop(session);
    // Verify recomputes it and reports the mismatch.
    let v = partizan_store::verify(&s, &Default::default()).unwrap();
    assert_eq!(v.unverified_checked, 1);
    assert_eq!(v.mismatches.len(), 1);
    assert!(v.promotable.is_empty());
}
