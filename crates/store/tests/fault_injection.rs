//! Fault injection: bit flips in every page of a small store, truncations
//! at every page boundary, and a full disk. The one assertion that matters
//! throughout: **the store never hands out a wrong value** — a read is the
//! true value, a reported miss, or a clean error; an export never contains
//! a wrong entry; nothing panics.
//!
//! The disk-full test needs to mount a small tmpfs (root on Linux); where
//! it cannot, it prints why and passes without running.

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;

use partizan_core::Arena;
use partizan_store::keys::{from_hex, to_hex};
use partizan_store::{
    decode_board, encode_value, export_jsonl, verify, Store, StoreError, StoreOptions,
    VerifyOptions,
};

/// (ruleset, key) → value encoding, from a clean store.
type Truth = BTreeMap<(String, Vec<u8>), Vec<u8>>;

fn build_small_store(path: &Path) -> Truth {
    let store = Store::open(path).unwrap();
    partizan_store::warm(&store, "domineering", 7, &mut |_, _| {}).unwrap();
    partizan_store::warm(&store, "clobber", 4, &mut |_, _| {}).unwrap();
    store
        .put_census("census/test", &serde_json::json!({"shapes": [1, 2, 3]}))
        .unwrap();
    let mut truth = Truth::new();
    for r in store.rulesets().unwrap() {
        store
            .for_each_region(&r, |k, body| {
                let rec = partizan_store::Record::decode(body.unwrap()).unwrap();
                truth.insert((r.clone(), k.to_vec()), rec.value.to_vec());
                Ok(())
            })
            .unwrap();
    }
    assert!(truth.len() > 150, "{}", truth.len());
    drop(store);
    truth
}

#[derive(Default, Debug)]
struct Tally {
    cases: u64,
    refused: u64,
    opened: u64,
    reads_right: u64,
    misses: u64,
    export_lines: u64,
    export_errors: u64,
}

/// Open a damaged copy and read everything every way; panic on any wrong value.
fn check_damaged(path: &Path, truth: &Truth, what: &str, tally: &mut Tally) {
    tally.cases += 1;
    for read_only in [true, false] {
        let opts = StoreOptions {
            read_only,
            create: false,
            wait: std::time::Duration::from_millis(200),
            ..StoreOptions::default()
        };
        let outcome = std::panic::catch_unwind(|| {
            let mut t = Tally::default();
            let store = match Store::open_with(path, &opts) {
                Ok(s) => s,
                Err(e) => {
                    assert!(!e.to_string().contains('\n'), "{what}: {e}");
                    t.refused += 1;
                    return t;
                }
            };
            t.opened += 1;
            // Every key through a session: the true value or a miss.
            let mut session = store.session();
            let mut arena = Arena::new();
            for ((r, k), want) in truth {
                let board = decode_board(k).unwrap();
                match session.lookup(&mut arena, r, &board) {
                    Ok(Some(g)) => {
                        assert_eq!(
                            &encode_value(&mut arena, g),
                            want,
                            "{what}: WRONG VALUE for {r} {}",
                            to_hex(k)
                        );
                        t.reads_right += 1;
                    }
                    Ok(None) => t.misses += 1,
                    Err(e) => {
                        assert!(!e.to_string().contains('\n'), "{what}: {e}");
                        t.misses += 1;
                    }
                }
            }
            // (Dropping it may record the run in the copy: a write into a
            // damaged file must be clean too.)
            drop(session);
            // An export holds only true entries.
            let mut out = Vec::new();
            match export_jsonl(&store, &mut out) {
                Ok(_) => {
                    for line in String::from_utf8(out).unwrap().lines().skip(1) {
                        let v: serde_json::Value = serde_json::from_str(line).unwrap();
                        t.export_lines += 1;
                        if v["kind"] == "region" {
                            let key = (
                                v["ruleset"].as_str().unwrap().to_string(),
                                from_hex(v["key"].as_str().unwrap()).unwrap(),
                            );
                            let enc = from_hex(v["encoding"].as_str().unwrap()).unwrap();
                            assert_eq!(
                                truth.get(&key),
                                Some(&enc),
                                "{what}: export holds a wrong entry {line}"
                            );
                        } else {
                            assert_eq!(v["key"], "census/test", "{what}: {line}");
                            assert_eq!(v["value"]["shapes"][2], 3, "{what}: {line}");
                        }
                    }
                }
                Err(e) => {
                    assert!(!e.to_string().contains('\n'), "{what}: {e}");
                    t.export_errors += 1;
                }
            }
            let _ = store.stats();
            let _ = verify(
                &store,
                &VerifyOptions {
                    sample: Some(20),
                    seed: 1,
                    ..Default::default()
                },
            );
            t
        });
        match outcome {
            Ok(t) => {
                tally.refused += t.refused;
                tally.opened += t.opened;
                tally.reads_right += t.reads_right;
                tally.misses += t.misses;
                tally.export_lines += t.export_lines;
                tally.export_errors += t.export_errors;
            }
            Err(p) => {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                panic!("{what} (read_only {read_only}): {msg}");
            }
        }
        // Sidecars of this open must not leak into the next case.
        for s in ["-wal", "-shm"] {
            let _ = fs::remove_file(format!("{}{s}", path.display()));
        }
    }
}

fn page_size(bytes: &[u8]) -> usize {
    match u16::from_be_bytes([bytes[16], bytes[17]]) {
        1 => 65536,
        n => n as usize,
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn bit_flips_in_every_page_never_give_a_wrong_value() {
    let dir = common::tempdir();
    let good = dir.path().join("good.redb");
    let truth = build_small_store(&good);
    let bytes = fs::read(&good).unwrap();
    let page = page_size(&bytes);
    let pages = bytes.len() / page;
    assert!(pages >= 3, "{pages} pages");
    let mut rng = Rng(0x5eed);
    let mut tally = Tally::default();
    let path = dir.path().join("bad.redb");
    for p in 0..pages {
        // Eight single-bit flips in each page, anywhere in it.
        for _ in 0..8 {
            let bit = (rng.next() as usize) % (page * 8);
            let at = p * page + bit / 8;
            let mut b = bytes.clone();
            b[at] ^= 1 << (bit % 8);
            fs::write(&path, &b).unwrap();
            check_damaged(
                &path,
                &truth,
                &format!("page {p} byte {at} bit {}", bit % 8),
                &mut tally,
            );
        }
    }
    eprintln!("bit flips over {pages} pages of {page} bytes: {tally:?}");
    assert_eq!(tally.cases, pages as u64 * 8);
    // Most damaged copies still answer most reads (rightly).
    assert!(tally.reads_right > tally.misses, "{tally:?}");
}

#[test]
fn flips_in_record_bytes_are_caught_by_the_checksum() {
    // Flip every bit of one record's stored bytes in place: the page stays a
    // valid page, so only the row checksum stands between the flip and a
    // wrong answer.
    let dir = common::tempdir();
    let good = dir.path().join("good.redb");
    let truth = build_small_store(&good);
    let bytes = fs::read(&good).unwrap();
    // The encoding of `..|..` (±1) followed by its 8 checksum bytes.
    let mut arena = Arena::new();
    let pm = arena.parse("±1").unwrap();
    let enc = encode_value(&mut arena, pm);
    // Every copy of it (live rows, and stale copies in free pages).
    let at: Vec<usize> = bytes
        .windows(enc.len())
        .enumerate()
        .filter(|(_, w)| *w == enc.as_slice())
        .map(|(i, _)| i)
        .filter(|&i| i + enc.len() + 8 <= bytes.len())
        .collect();
    assert!(!at.is_empty(), "a ±1 record in the file");
    let path = dir.path().join("bad.redb");
    let mut tally = Tally::default();
    // Every third bit of the value and its checksum, in every copy at once.
    for bit in (0..(enc.len() + 8) * 8).step_by(3) {
        let mut b = bytes.clone();
        for &a in &at {
            b[a + bit / 8] ^= 1 << (bit % 8);
        }
        fs::write(&path, &b).unwrap();
        check_damaged(&path, &truth, &format!("record bit {bit}"), &mut tally);
    }
    eprintln!("record flips: {tally:?}");
    assert!(tally.misses > 0);
}

#[test]
fn truncations_at_every_page_never_give_a_wrong_value() {
    let dir = common::tempdir();
    let good = dir.path().join("good.redb");
    let truth = build_small_store(&good);
    let bytes = fs::read(&good).unwrap();
    let page = page_size(&bytes);
    let path = dir.path().join("cut.redb");
    let mut tally = Tally::default();
    let mut cuts: Vec<usize> = vec![1, 15, 16, 99, 100];
    for p in 1..bytes.len() / page {
        cuts.extend([p * page, p * page + page / 2]);
    }
    cuts.push(bytes.len() - 1);
    for cut in cuts {
        fs::write(&path, &bytes[..cut]).unwrap();
        check_damaged(&path, &truth, &format!("cut at {cut}"), &mut tally);
        // A damaged file is never replaced by a new empty store.
        assert!(fs::metadata(&path).unwrap().len() >= cut as u64);
    }
    eprintln!("truncations: {tally:?}");
}

/// Mount a small tmpfs at `dir`, or say why not.
fn mount_tmpfs(dir: &Path, size: &str) -> Result<(), String> {
    if !cfg!(target_os = "linux") {
        return Err("not Linux".into());
    }
    let out = Command::new("mount")
        .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
        .arg(dir)
        .output()
        .map_err(|e| format!("cannot run mount: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "mount failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

struct Unmount<'a>(&'a Path);
impl Drop for Unmount<'_> {
    fn drop(&mut self) {
        let ok = Command::new("umount")
            .arg(self.0)
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            let _ = Command::new("umount").arg("-l").arg(self.0).status();
        }
    }
}

fn fill(path: &Path) {
    use std::io::Write;
    let mut f = fs::File::create(path).unwrap();
    let chunk = vec![0u8; 4096];
    while f.write_all(&chunk).is_ok() {}
    let _ = f.sync_all();
}

#[test]
fn a_full_disk_gives_clean_errors_and_no_wrong_values() {
    let dir = common::tempdir();
    let mnt = dir.path().join("small");
    fs::create_dir(&mnt).unwrap();
    if let Err(why) = mount_tmpfs(&mnt, "1m") {
        eprintln!("skipped: cannot make a small tmpfs ({why})");
        return;
    }
    let _guard = Unmount(&mnt);
    // 1. Creation on a full disk leaves no file behind.
    let filler = mnt.join("filler");
    fill(&filler);
    let path = mnt.join("s.redb");
    let e = Store::open(&path).unwrap_err();
    assert!(!e.to_string().contains('\n'), "{e}");
    let left: Vec<_> = fs::read_dir(&mnt)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, vec!["filler".to_string()], "{e}");
    // 2. A store that fills the disk mid-run: clean errors, nothing wrong.
    fs::remove_file(&filler).unwrap();
    let store = Store::open(&path).unwrap();
    let mut first_error: Option<StoreError> = None;
    let mut truth = Truth::new();
    let mut arena = Arena::new();
    let mut solver =
        partizan_solve::Solver::new(&partizan_games::Domineering, partizan_solve::Savings::ALL)
            .unwrap();
    'outer: for n in 0u64.. {
        let mut batch = Vec::new();
        for m in n * 500..(n + 1) * 500 {
            let b =
                partizan_games::Board::new(6, 5, [(m as u128) * 7919 % (1 << 30), 0, 0]).unwrap();
            let v = solver.value(&mut arena, &b).unwrap();
            let enc = encode_value(&mut arena, v);
            let key = partizan_store::encode_board(&b);
            truth.insert(("domineering".into(), key.clone()), enc.clone());
            batch.push(partizan_store::RawEntry {
                ruleset: "domineering".into(),
                key,
                record: partizan_store::Record::computed(&enc).encode(),
            });
        }
        if let Err(e) = store.insert_regions(&batch) {
            first_error = Some(e);
            break 'outer;
        }
        if n > 400 {
            break;
        }
    }
    let e = first_error.expect("the disk never filled");
    assert!(!e.to_string().contains('\n'), "{e}");
    eprintln!("disk full: {e}");
    drop(store);
    // Reading what is there gives only true values (a batch is all or nothing).
    let mut tally = Tally::default();
    check_damaged(&path, &truth, "after disk full", &mut tally);
    eprintln!("after disk full: {tally:?}");
    assert!(tally.reads_right > 0);
}
