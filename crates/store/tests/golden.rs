//! Golden tests: the exact bytes of keys and values, and a store file
//! written by an earlier build that every later build must read back
//! identically.
//!
//! The committed stores are `tests/data/store_v1.redb.gz` (format v1, redb;
//! gzip: the file is 2.6 MB, mostly preallocated space) and
//! `tests/data/store_v2.sqlite.gz` (format v2, SQLite), each with its export
//! (`store_v1.jsonl`, `store_v2.jsonl`). A v1 file must migrate forward to
//! the same entries; a v2 file must read back identically. The v2 pair is
//! written once, by
//!
//! ```sh
//! PARTIZAN_WRITE_GOLDEN=1 cargo test -p partizan-store --test all golden:: -- --ignored
//! ```
//!
//! and must never be regenerated for the same format: a later build that
//! cannot read them has broken the format.

use crate::common;

use std::io::{Read, Write};
use std::path::PathBuf;

use partizan_core::Arena;
use partizan_games::{Amazons, Clobber, Domineering, Konane, Ruleset};
use partizan_solve::{Savings, Solver};
use partizan_store::keys::to_hex;
use partizan_store::v1::decode_value_v1;
use partizan_store::{
    decode_board, decode_value, encode_board, encode_value, export_jsonl, verify, Provenance,
    Record, Store, StoreOptions, VerifyOptions,
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
    let bytes = encode_value(&mut arena, v);
    let mut other = Arena::new();
    let back = decode_value(&mut other, &bytes).unwrap();
    assert_eq!(other.display(back), arena.display(v));
    (arena.display(v), to_hex(&bytes))
}

#[test]
fn values_of_boards() {
    let cases = [
        // "PZG", version 1, node count, nodes (children first): 0x00 number
        // (zigzag numerator, exponent), 0x01 number+ups+nimber, 0x02 form
        // (#left, #right, indices).
        (
            value_hex(&Domineering, "..|.."),
            ("±1", "505a4701030002000001000201010001"),
        ),
        (value_hex(&Domineering, ".|."), ("1", "505a470101000200")),
        (value_hex(&Domineering, "...."), ("-2", "505a470101000300")),
        (
            value_hex(&Clobber, "xo"),
            ("*", "505a47010101000000 01".replace(' ', "").leak()),
        ),
        (
            value_hex(&Clobber, "x|o|o"),
            ("v", "505a47010101000001 00".replace(' ', "").leak()),
        ),
    ];
    for ((shown, hex), (want_shown, want_hex)) in cases {
        assert_eq!(shown, want_shown);
        assert_eq!(hex, want_hex, "{shown}");
    }
}

/// The v1 value encodings of the same values still decode (migration and
/// v1 imports read them).
#[test]
fn v1_value_encodings_still_decode() {
    let mut a = Arena::new();
    for (hex, shown) in [
        ("01030002000001000201000101", "±1"),
        ("0101000200", "1"),
        ("0101000300", "-2"),
        ("01010101", "*"),
        ("010301010000000201000101", "v"),
    ] {
        let bytes = partizan_store::keys::from_hex(hex).unwrap();
        let g = decode_value_v1(&mut a, &bytes).unwrap();
        assert_eq!(a.display(g), shown);
    }
}

fn unpack(name: &str, to: &std::path::Path) -> Vec<u8> {
    let gz = std::fs::File::open(data(name)).unwrap();
    let mut unpacked = Vec::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_end(&mut unpacked)
        .unwrap();
    std::fs::write(to, &unpacked).unwrap();
    unpacked
}

fn lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn export_text(store: &Store) -> String {
    let mut out = Vec::new();
    export_jsonl(store, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// The v1 export's entries, with v1 encodings turned into v2 ones: what a
/// migrated store must hold.
fn v1_as_v2() -> Vec<serde_json::Value> {
    let want = std::fs::read_to_string(data("store_v1.jsonl")).unwrap();
    let mut arena = Arena::new();
    lines(&want)
        .into_iter()
        .map(|mut v| {
            let o = v.as_object_mut().unwrap();
            o.remove("board");
            match o.get("kind").and_then(|k| k.as_str()) {
                Some("header") => {
                    o.insert("version".into(), 2.into());
                }
                Some("region") => {
                    o.remove("value");
                    let hex = o["encoding"].as_str().unwrap();
                    let g =
                        decode_value_v1(&mut arena, &partizan_store::keys::from_hex(hex).unwrap())
                            .unwrap();
                    o.insert(
                        "encoding".into(),
                        to_hex(&encode_value(&mut arena, g)).into(),
                    );
                    o.insert("provenance".into(), "computed".into());
                }
                _ => {}
            }
            v
        })
        .collect()
}

fn strip_text(v: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
    v.into_iter()
        .map(|mut v| {
            if let Some(o) = v.as_object_mut() {
                o.remove("board");
                if o.get("kind").and_then(|k| k.as_str()) == Some("region") {
                    o.remove("value");
                }
            }
            v
        })
        .collect()
}

#[test]
fn committed_v1_store_migrates_forward_with_every_entry() {
    let dir = common::tempdir();
    let path = dir.path().join("store.redb");
    let original = unpack("store_v1.redb.gz", &path);
    // Read-only: served from a migrated copy, the file itself untouched.
    {
        let ro = Store::open_with(&path, &StoreOptions::read_only()).unwrap();
        assert_eq!(ro.migration().unwrap().from, 1);
        assert_eq!(strip_text(lines(&export_text(&ro))), v1_as_v2());
    }
    assert_eq!(
        std::fs::read(&path).unwrap(),
        original,
        "read-only open changed the v1 file"
    );
    // Read-write: migrated in place, the v1 file kept beside it.
    let store = Store::open(&path).unwrap();
    assert_eq!(store.format_version(), 3);
    let m = store.migration().unwrap().clone();
    assert_eq!((m.from, m.skipped), (1, 0));
    assert_eq!(std::fs::read(m.backup.unwrap()).unwrap(), original);
    let got = export_text(&store);
    assert_eq!(strip_text(lines(&got)), v1_as_v2());
    let report = verify(&store, &VerifyOptions::default()).unwrap();
    assert!(report.ok(), "{report:?}");
    assert!(report.recomputed > 0);
    let k = encode_board(&Domineering.parse("..|..").unwrap());
    let rec = store.get_region_record("domineering", &k).unwrap().unwrap();
    let rec = Record::decode(&rec).unwrap();
    let mut arena = Arena::new();
    let v = decode_value(&mut arena, rec.value).unwrap();
    assert_eq!(arena.display(v), "±1");
    assert_eq!(
        (rec.version, rec.provenance),
        ("0.1.0", Provenance::Computed)
    );
    assert!(store
        .get_census("census/domineering/max_cells=4")
        .unwrap()
        .is_some());
    drop(store);
    // Opening again does not migrate again.
    let again = Store::open(&path).unwrap();
    assert!(again.migration().is_none());
    assert_eq!(export_text(&again), got);
}

#[test]
fn a_v1_export_imports_with_every_small_value_recomputed() {
    let dir = common::tempdir();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    let text = std::fs::read_to_string(data("store_v1.jsonl")).unwrap();
    let regions = text
        .lines()
        .filter(|l| l.contains("\"kind\":\"region\""))
        .count() as u64;
    let r = partizan_store::import_jsonl(&store, &mut text.as_bytes()).unwrap();
    assert_eq!((r.regions_added, r.regions_recomputed), (regions, regions));
    assert_eq!(r.regions_unverified, 0);
    let mut want = v1_as_v2();
    let mut got = strip_text(lines(&export_text(&store)));
    for v in want.iter_mut().chain(got.iter_mut()) {
        if let Some(o) = v.as_object_mut() {
            o.remove("provenance");
        }
    }
    assert_eq!(got, want);
}

#[test]
fn two_openers_of_a_v1_file_migrate_it_once() {
    let dir = common::tempdir();
    let path = dir.path().join("store.redb");
    unpack("store_v1.redb.gz", &path);
    let openers: Vec<_> = (0..3)
        .map(|_| {
            let p = path.clone();
            std::thread::spawn(move || {
                let s = Store::open(&p).unwrap();
                (s.migration().is_some(), export_text(&s))
            })
        })
        .collect();
    let results: Vec<(bool, String)> = openers.into_iter().map(|t| t.join().unwrap()).collect();
    assert_eq!(
        results.iter().filter(|r| r.0).count(),
        1,
        "migrated more than once"
    );
    for (_, text) in &results {
        assert_eq!(strip_text(lines(text)), v1_as_v2());
    }
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with("-wal") && !n.ends_with("-shm"))
        .collect();
    let mut names = names;
    names.sort();
    assert_eq!(names, vec!["store.redb", "store.redb.v1"]);
}

#[test]
fn committed_v2_store_reads_back_identically() {
    let dir = common::tempdir();
    let path = dir.path().join("store.redb");
    let original = unpack("store_v2.sqlite.gz", &path);
    let want = std::fs::read_to_string(data("store_v2.jsonl")).unwrap();
    {
        let store = Store::open_with(&path, &StoreOptions::read_only()).unwrap();
        assert_eq!(store.format_version(), 3);
        assert_eq!(
            strip_text(lines(&export_text(&store))),
            strip_text(lines(&want))
        );
        let report = verify(&store, &VerifyOptions::default()).unwrap();
        assert!(report.ok() && report.recomputed > 0, "{report:?}");
        let stats = store.stats().unwrap();
        assert_eq!((stats.checksum_failures, stats.unverified), (0, 0));
    }
    assert_eq!(
        std::fs::read(&path).unwrap(),
        original,
        "read-only commands wrote"
    );
}

/// Writes the committed v2 golden store. Run only when a new store format
/// is introduced (see the module comment).
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
    let out = export_text(&store);
    drop(store);
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(data("store_v2.sqlite.gz")).unwrap(),
        flate2::Compression::best(),
    );
    gz.write_all(&std::fs::read(&path).unwrap()).unwrap();
    gz.finish().unwrap();
    std::fs::write(data("store_v2.jsonl"), out).unwrap();
}

/// A damaged v1 file on which redb panics (one bit flipped in its
/// allocator state: byte 580,229, bit 7, of the committed v1 store) is a
/// clear error, and the panic inside the engine prints nothing: opening it
/// once printed a Rust panic message and a backtrace before the error. The
/// opening runs in a child process (the test below), whose stderr is read.
#[test]
fn a_damaged_v1_store_is_an_error_without_a_panic_message() {
    let dir = common::tempdir();
    let path = dir.path().join("store.redb");
    let mut bytes = unpack("store_v1.redb.gz", &path);
    bytes[580_229] ^= 0x80;
    std::fs::write(&path, &bytes).unwrap();
    // The child's full name: this module's path less the test binary's name.
    let child = module_path!()
        .split_once("::")
        .map_or(String::new(), |(_, m)| format!("{m}::"))
        + "open_the_damaged_v1_store";
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            &child,
            "--ignored",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env("PARTIZAN_TEST_DAMAGED_V1", &path)
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{err}");
    assert!(text.contains("1 passed"), "{text}");
    assert!(
        !err.contains("panicked"),
        "a panic message was printed: {err}"
    );
    assert!(!err.contains("stack backtrace"), "{err}");
}

/// Not a test by itself: the child half of the test above.
#[test]
#[ignore = "the child half of a_damaged_v1_store_is_an_error_without_a_panic_message"]
fn open_the_damaged_v1_store() {
    let path = PathBuf::from(std::env::var_os("PARTIZAN_TEST_DAMAGED_V1").expect("a path"));
    for opts in [StoreOptions::read_only(), StoreOptions::default()] {
        let err = Store::open_with(&path, &opts).expect_err("an error");
        let text = err.to_string();
        assert!(text.contains("v1 store"), "{text}");
        assert_eq!(text.lines().count(), 1, "{text}");
    }
}
