//! Golden tests: the exact bytes of keys and values, and a store file
//! written by an earlier build that every later build must read back
//! identically.
//!
//! The committed store is `tests/data/store_v1.redb.gz` (gzip: the redb file
//! is 2.6 MB, mostly preallocated space) with its export
//! `tests/data/store_v1.jsonl`. They are written once per store format, by
//!
//! ```sh
//! PARTIZAN_WRITE_GOLDEN=1 cargo test -p partizan-store --test golden -- --ignored
//! ```
//!
//! and must never be regenerated for the same format: a later build that
//! cannot read them has broken the format.

mod common;

use std::io::{Read, Write};
use std::path::PathBuf;

use partizan_core::Arena;
use partizan_games::{Amazons, Clobber, Domineering, Konane, Ruleset};
use partizan_solve::{Savings, Solver};
use partizan_store::keys::to_hex;
use partizan_store::{
    decode_board, decode_value, encode_board, encode_value, export_jsonl, verify, Record, Store,
    VerifyOptions,
};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(name)
}

fn key_hex<R: Ruleset>(r: &R, text: &str) -> String {
    let b = r.parse(text).unwrap();
    let k = encode_board(&b);
    assert_eq!(decode_board(&k).unwrap(), b);
    to_hex(&k)
}

#[test]
fn board_keys() {
    // version, width, height, then layers 0, 1, 2 (⌈cells/8⌉ bytes each)
    assert_eq!(key_hex(&Domineering, "..|.#"), "010202070000");
    assert_eq!(key_hex(&Domineering, "...|...|..."), "010303ff0100000000");
    assert_eq!(key_hex(&Clobber, "xo|ox"), "010202090600");
    assert_eq!(key_hex(&Konane, "xo.|#.x"), "010302210214");
    assert_eq!(key_hex(&Amazons, "L.|.R"), "010202010806");
}

fn value_hex<R: Ruleset>(r: &R, text: &str) -> (String, String) {
    let mut arena = Arena::new();
    let mut solver = Solver::new(r, Savings::ALL).unwrap();
    let v = solver.value(&mut arena, &r.parse(text).unwrap()).unwrap();
    let bytes = encode_value(&arena, v);
    let mut other = Arena::new();
    let back = decode_value(&mut other, &bytes).unwrap();
    assert_eq!(other.display(back), arena.display(v));
    (arena.display(v), to_hex(&bytes))
}

#[test]
fn values_of_boards() {
    let cases = [
        (
            value_hex(&Domineering, "..|.."),
            ("±1", "01030002000001000201000101"),
        ),
        (value_hex(&Domineering, ".|."), ("1", "0101000200")),
        (value_hex(&Domineering, "...."), ("-2", "0101000300")),
        (value_hex(&Clobber, "xo"), ("*", "01010101")),
        (
            value_hex(&Clobber, "x|o|o"),
            ("v", "010301010000000201000101"),
        ),
    ];
    for ((shown, hex), (want_shown, want_hex)) in cases {
        assert_eq!(shown, want_shown);
        assert_eq!(hex, want_hex, "{shown}");
    }
}

#[test]
fn committed_store_reads_back_identically() {
    let want = std::fs::read_to_string(data("store_v1.jsonl")).unwrap();
    // Opening marks the file in use, so work on an unpacked copy.
    let dir = common::tempdir();
    let path = dir.path().join("store.redb");
    let gz = std::fs::File::open(data("store_v1.redb.gz")).unwrap();
    let mut unpacked = Vec::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_end(&mut unpacked)
        .unwrap();
    std::fs::write(&path, unpacked).unwrap();
    let store = Store::open(&path).unwrap();
    assert_eq!(store.format_version(), 1);
    let mut out = Vec::new();
    export_jsonl(&store, &mut out).unwrap();
    // Compare what the store holds; the `board` and `value` text fields are
    // for people and follow the games' and values' notation, which may change.
    let strip = |text: &str| -> Vec<serde_json::Value> {
        text.lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                if let Some(o) = v.as_object_mut() {
                    o.remove("board");
                    if o.get("kind").and_then(|k| k.as_str()) == Some("region") {
                        o.remove("value");
                    }
                }
                v
            })
            .collect()
    };
    let got = String::from_utf8(out).unwrap();
    assert_eq!(strip(&got), strip(&want));
    assert_eq!(got.lines().count(), want.lines().count());
    let report = verify(&store, &VerifyOptions::default()).unwrap();
    assert!(report.ok(), "{report:?}");
    assert!(report.recomputed > 0);
    // One entry read directly: the 2x2 Domineering square is ±1.
    let k = encode_board(&Domineering.parse("..|..").unwrap());
    let rec = store.get_region_record("domineering", &k).unwrap().unwrap();
    let rec = Record::decode(&rec).unwrap();
    let mut arena = Arena::new();
    let v = decode_value(&mut arena, rec.value).unwrap();
    assert_eq!(arena.display(v), "±1");
    assert_eq!(rec.version, "0.1.0");
    assert!(store
        .get_census("census/domineering/max_cells=4")
        .unwrap()
        .is_some());
}

/// Writes the committed golden store. Run only when a new store format is
/// introduced (see the module comment).
#[test]
#[ignore]
fn write_golden_store() {
    if std::env::var_os("PARTIZAN_WRITE_GOLDEN").is_none() {
        return;
    }
    let dir = common::tempdir();
    let path = dir.path().join("store.redb");
    {
        let store = Store::open(&path).unwrap();
        for (ruleset, cells) in [
            ("domineering", 4),
            ("clobber", 3),
            ("konane", 3),
            ("amazons", 2),
        ] {
            partizan_store::warm(&store, ruleset, cells, &mut |_, _| {}).unwrap();
        }
        store
            .put_census(
                "census/domineering/max_cells=4",
                &serde_json::json!({"shapes": [1, 1, 2, 5], "note": "golden"}),
            )
            .unwrap();
    }
    let mut store = Store::open(&path).unwrap();
    assert!(store.compact().unwrap());
    let mut out = Vec::new();
    export_jsonl(&store, &mut out).unwrap();
    drop(store);
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(data("store_v1.redb.gz")).unwrap(),
        flate2::Compression::best(),
    );
    gz.write_all(&std::fs::read(&path).unwrap()).unwrap();
    gz.finish().unwrap();
    std::fs::write(data("store_v1.jsonl"), out).unwrap();
}
