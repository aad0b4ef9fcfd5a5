//! Export → import into a fresh store → export gives identical output.

mod common;

use partizan_core::{Arena, GameId};
use partizan_store::keys::encode_key_parts;
use partizan_store::{
    encode_value, export_jsonl, import_jsonl, RawEntry, Record, Store, StoreError,
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
        1u8..5,
        1u8..5,
        any::<u128>(),
        any::<u128>(),
        prop::collection::vec(any::<(u8, u8, u8)>(), 1..6),
        0u64..2_000_000_000,
    )
}

fn export(store: &Store) -> String {
    let mut out = Vec::new();
    export_jsonl(store, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

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
                let enc = encode_value(&arena, g);
                RawEntry {
                    ruleset: rulesets[*r as usize].to_string(),
                    key: encode_key_parts(*w as usize, *h as usize, [*l0, *l1 & !*l0, 0]),
                    record: Record { computed_at: *at, version: "0.1.0", value: &enc }.encode(),
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
        prop_assert_eq!(&first, &second);

        // Importing again changes nothing.
        let again = import_jsonl(&b, &mut first.as_bytes()).unwrap();
        prop_assert_eq!(again.regions_added, 0);
        prop_assert_eq!(again.census_added, 0);
        prop_assert_eq!(again.regions_conflicting, 0);
        prop_assert_eq!(export(&b), first);
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
    let header = r#"{"kind":"header","format":"partizan-store","version":1}"#;
    let good = r#"{"kind":"region","ruleset":"domineering","key":"010201030000","computed_at":5,"version":"0.1.0","encoding":"0101000000"}"#;
    let cases = [
        (format!("{good}\n"), 1, "header"),
        (format!("{header}\n{good}\nnot json\n"), 3, ""),
        (
            format!(
                "{header}\n{}\n",
                good.replace("010201030000", "010201070000")
            ),
            2,
            "bits beyond",
        ),
        (
            format!("{header}\n{}\n", good.replace("0101000000", "0101000001")),
            2,
            "",
        ),
        (
            format!("{header}\n{}\n", good.replace("domineering", "Dom/ino")),
            2,
            "invalid ruleset",
        ),
        (header.replace("\"version\":1", "\"version\":3"), 1, "newer"),
    ];
    for (text, line, needle) in cases {
        let e = import_jsonl(&s, &mut text.as_bytes()).unwrap_err();
        match &e {
            StoreError::Import { line: l, detail } => {
                assert_eq!(*l, line, "{e}");
                assert!(detail.contains(needle), "{e}");
            }
            other => panic!("{other:?}"),
        }
        assert!(!e.to_string().contains('\n'));
    }
    assert_eq!(s.stats().unwrap().total_regions, 0);
    let ok = format!("{header}\n{good}\n");
    let r = import_jsonl(&s, &mut ok.as_bytes()).unwrap();
    assert_eq!(r.regions_added, 1);
    // A conflicting value for the same key keeps the stored one.
    let conflict = format!("{header}\n{}\n", good.replace("0101000000", "01010101"));
    let r = import_jsonl(&s, &mut conflict.as_bytes()).unwrap();
    assert_eq!((r.regions_added, r.regions_conflicting), (0, 1));
}
