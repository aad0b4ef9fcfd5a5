//! Faults and bad input: killed writers, damaged files, files from the
//! future, paths that cannot be stores, and a second process.

use crate::common;

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use partizan_games::Board;
use partizan_store::{
    encode_board, set_format_version_for_tests, verify, Store, StoreError, StoreOptions,
    VerifyOptions,
};

fn no_wait() -> StoreOptions {
    StoreOptions {
        wait: Duration::ZERO,
        ..StoreOptions::default()
    }
}

/// The key of mask `m` in the writer example's batches.
fn batch_key(m: u64) -> Vec<u8> {
    encode_board(&Board::new(5, 5, [(m as u128) & ((1 << 25) - 1), 0, 0]).unwrap())
}

/// A small store with some real values in it.
fn small_store(path: &Path) {
    let store = Store::open(path).unwrap();
    let out = partizan_store::warm(&store, "domineering", 5, &mut |_, _| {}).unwrap();
    assert!(out.session.written > 0);
}

fn one_line(e: &StoreError) -> String {
    let s = e.to_string();
    assert!(!s.contains('\n'), "message spans lines: {s}");
    s
}

#[test]
fn sigkill_mid_run_loses_nothing_committed() {
    let dir = common::tempdir();
    let path = dir.path().join("store.redb");
    let exe = common::writer_exe();
    let mut last_committed: Option<u64> = None;
    // Three writers in turn, each killed at a different point.
    for (round, want) in [(0u64, 3u64), (1, 5), (2, 4)] {
        let mut child = Command::new(&exe)
            .args(["write", path.to_str().unwrap(), "500"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn writer");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut seen = 0;
        let mut committed_this_round = None;
        while seen < want {
            let line = lines
                .next()
                .expect("writer ended early")
                .expect("read writer output");
            let n: u64 = line
                .strip_prefix("committed ")
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("unexpected writer line {line:?}"));
            committed_this_round = Some(n);
            seen += 1;
        }
        // Let it get some way into the next batch before the kill.
        std::thread::sleep(Duration::from_millis(7 * round));
        child.kill().expect("SIGKILL the writer");
        let _ = child.wait();
        last_committed = last_committed.max(committed_this_round);

        let store = Store::open_with(&path, &no_wait()).expect("store opens after SIGKILL");
        let last = last_committed.unwrap();
        for m in 0..(last + 1) * 500 {
            assert!(
                store
                    .get_region_record("domineering", &batch_key(m))
                    .unwrap()
                    .is_some(),
                "round {round}: entry {m} of a committed batch is missing"
            );
        }
        let report = verify(
            &store,
            &VerifyOptions {
                sample: Some(200),
                seed: round,
                ..Default::default()
            },
        )
        .unwrap();
        assert!(report.ok(), "verify after SIGKILL: {report:?}");
        assert!(report.entries >= (last + 1) * 500);
    }
}

#[test]
fn a_second_process_holding_the_store_does_not_lock_others_out() {
    let dir = common::tempdir();
    let path = dir.path().join("store.redb");
    small_store(&path);
    let mut child = Command::new(common::writer_exe())
        .args(["hold", path.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn holder");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "open");
    // While the other process holds it, this one opens, reads and adds at once.
    let t = Instant::now();
    let store = Store::open_with(&path, &no_wait()).expect("open beside the holder");
    assert!(store.stats().unwrap().total_regions > 0);
    let out = partizan_store::warm(&store, "cram", 4, &mut |_, _| {}).unwrap();
    assert!(out.session.written > 0);
    assert!(t.elapsed() < Duration::from_secs(10));
    drop(child.stdin.take()); // holder exits
    let _ = child.wait();
}

#[test]
fn truncated_files_are_refused_and_left_alone() {
    let dir = common::tempdir();
    let good = dir.path().join("good.redb");
    small_store(&good);
    let bytes = fs::read(&good).unwrap();
    for cut in [
        1usize,
        8,
        100,
        511,
        4096,
        bytes.len() / 3,
        bytes.len() / 2,
        bytes.len() - 1,
    ] {
        let path = dir.path().join(format!("cut{cut}.redb"));
        fs::write(&path, &bytes[..cut]).unwrap();
        match Store::open_with(&path, &no_wait()) {
            Err(e) => {
                let msg = one_line(&e);
                eprintln!("cut {cut}: {msg}");
                assert!(
                    matches!(e, StoreError::Corrupt { .. } | StoreError::NotAStore { .. }),
                    "cut {cut}: {msg}"
                );
            }
            Ok(store) => {
                // The engine recovered a consistent earlier state: reading
                // it must not panic, and whatever it holds must decode.
                let r = verify(&store, &VerifyOptions::default());
                if let Ok(r) = r {
                    assert!(r.bad_entries.is_empty(), "cut {cut}: {r:?}");
                }
            }
        }
        // Never replaced by a new empty store.
        let after = fs::read(&path).unwrap();
        if after.len() < cut {
            panic!("cut {cut}: file shrank to {}", after.len());
        }
        assert!(after.len() >= cut.min(512), "cut {cut}");
    }
}

#[test]
fn corrupted_files_never_panic() {
    let dir = common::tempdir();
    let good = dir.path().join("good.redb");
    small_store(&good);
    let bytes = fs::read(&good).unwrap();
    let mut seed = 12345u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for round in 0..40 {
        let mut b = bytes.clone();
        // Scribble over a run of bytes somewhere in the file (round 0: the header).
        let at = if round == 0 {
            0
        } else {
            (next() as usize) % b.len()
        };
        for i in at..(at + 64).min(b.len()) {
            b[i] = next() as u8;
        }
        let path = dir.path().join(format!("bad{round}.redb"));
        fs::write(&path, &b).unwrap();
        let outcome = std::panic::catch_unwind(|| match Store::open_with(&path, &no_wait()) {
            Err(e) => {
                eprintln!("round {round}: {}", one_line(&e));
            }
            Ok(mut store) => {
                let _ = store.check_integrity();
                let _ = store.stats();
                let _ = verify(&store, &VerifyOptions::default());
                let _ = partizan_store::export_jsonl(&store, &mut std::io::sink());
            }
        });
        assert!(outcome.is_ok(), "round {round} (bytes {at}..): panicked");
    }
}

#[test]
fn foreign_and_empty_files_are_not_stores() {
    let dir = common::tempdir();
    let text = dir.path().join("notes.txt");
    fs::write(&text, "these are my notes, not a store\n").unwrap();
    let e = Store::open_with(&text, &no_wait()).unwrap_err();
    assert!(matches!(e, StoreError::NotAStore { .. }), "{e:?}");
    assert!(one_line(&e).contains("not a partizan store"));
    assert_eq!(
        fs::read_to_string(&text).unwrap(),
        "these are my notes, not a store\n"
    );

    let empty = dir.path().join("empty.redb");
    fs::write(&empty, b"").unwrap();
    let e = Store::open_with(&empty, &no_wait()).unwrap_err();
    assert!(one_line(&e).contains("empty file"), "{e}");
    assert_eq!(fs::metadata(&empty).unwrap().len(), 0);
}

#[test]
fn a_newer_format_is_refused() {
    let dir = common::tempdir();
    let path = dir.path().join("store.redb");
    small_store(&path);
    {
        let store = Store::open(&path).unwrap();
        set_format_version_for_tests(&store, 4).unwrap();
    }
    let e = Store::open_with(&path, &no_wait()).unwrap_err();
    assert!(
        matches!(
            e,
            StoreError::NewerFormat {
                found: 4,
                supported: 3,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        one_line(&e).starts_with("store format v4 is newer than this build's v3"),
        "{e}"
    );
}

#[test]
fn a_directory_is_not_a_store() {
    let dir = common::tempdir();
    let e = Store::open_with(dir.path(), &no_wait()).unwrap_err();
    assert!(matches!(e, StoreError::IsDirectory { .. }), "{e:?}");
    assert!(one_line(&e).contains("is a directory"));
}

#[test]
fn unwritable_places_are_clear_errors() {
    let dir = common::tempdir();
    // A parent that is a file: no one, root included, can create under it.
    let file = dir.path().join("plain");
    fs::write(&file, "x").unwrap();
    let e = Store::open_with(&file.join("store.redb"), &no_wait()).unwrap_err();
    assert!(matches!(e, StoreError::Io { .. }), "{e:?}");
    assert!(one_line(&e).contains("Not a directory"), "{e}");

    #[cfg(target_os = "linux")]
    {
        // /proc refuses new files even to root.
        let e =
            Store::open_with(Path::new("/proc/partizan-test/store.redb"), &no_wait()).unwrap_err();
        assert!(matches!(e, StoreError::Io { .. }), "{e:?}");
        one_line(&e);
    }

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.path().join("ro.redb");
        small_store(&path);
        let mut perm = fs::metadata(&path).unwrap().permissions();
        perm.set_mode(0o444);
        fs::set_permissions(&path, perm).unwrap();
        // Root ignores permission bits; the check only means something otherwise.
        if fs::OpenOptions::new().write(true).open(&path).is_err() {
            let e = Store::open_with(&path, &no_wait()).unwrap_err();
            assert!(matches!(e, StoreError::Io { .. }), "{e:?}");
            assert!(one_line(&e).contains("ermission denied"), "{e}");
        }
    }
}

#[test]
fn a_missing_path_is_created_with_its_folder() {
    let dir = common::tempdir();
    let path = dir.path().join("a").join("b").join("store.redb");
    let store = Store::open(&path).unwrap();
    assert_eq!(store.format_version(), 3);
    assert!(path.exists());
    drop(store);
    // Without `create`, a missing file is an error.
    let missing = dir.path().join("missing.redb");
    let e = Store::open_with(
        &missing,
        &StoreOptions {
            create: false,
            ..no_wait()
        },
    )
    .unwrap_err();
    assert!(matches!(e, StoreError::Missing { .. }), "{e:?}");
    assert!(one_line(&e).starts_with("no store at "), "{e}");
    assert!(!missing.exists());
    let _ = std::io::stdout().flush();
}
