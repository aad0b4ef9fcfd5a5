//! Readers never block on, and never see part of, a write; several
//! processes read and add to one store at once.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use partizan_store::keys::encode_key_parts;
use partizan_store::{Provenance, RawEntry, Record, Store};

const BATCH: u64 = 300;

/// The core encoding of the value 0.
const ZERO: &[u8] = b"PZG\x01\x01\x00\x00\x00";

fn entry(i: u64) -> RawEntry {
    RawEntry {
        ruleset: "domineering".into(),
        key: encode_key_parts(16, 8, [i as u128 + 1, 0, 0]),
        record: Record {
            provenance: Provenance::Computed,
            computed_at: 0,
            version: "t",
            value: ZERO,
        }
        .encode(),
    }
}

#[test]
fn readers_see_whole_batches_and_do_not_wait() {
    let dir = common::tempdir();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let writer = {
        let store = store.clone();
        let done = done.clone();
        std::thread::spawn(move || {
            for b in 0..40u64 {
                let batch: Vec<RawEntry> = (b * BATCH..(b + 1) * BATCH).map(entry).collect();
                store.insert_regions(&batch).unwrap();
                store
                    .put_census("progress", &serde_json::json!({ "batches": b + 1 }))
                    .unwrap();
            }
            done.store(true, Ordering::SeqCst);
        })
    };
    let readers: Vec<_> = (0..2)
        .map(|_| {
            let store = store.clone();
            let done = done.clone();
            std::thread::spawn(move || {
                let mut reads = 0u64;
                let mut slowest = Duration::ZERO;
                let mut last = 0;
                while !done.load(Ordering::SeqCst) || reads < 10 {
                    let t = Instant::now();
                    let n = store
                        .region_counts()
                        .unwrap()
                        .get("domineering")
                        .copied()
                        .unwrap_or(0);
                    slowest = slowest.max(t.elapsed());
                    assert_eq!(n % BATCH, 0, "a reader saw part of a batch: {n}");
                    assert!(n >= last, "counts went backwards");
                    last = n;
                    if n > 0 {
                        assert!(store
                            .get_region_record("domineering", &entry(n - 1).key)
                            .unwrap()
                            .is_some());
                    }
                    reads += 1;
                }
                (reads, slowest)
            })
        })
        .collect();
    writer.join().unwrap();
    for r in readers {
        let (reads, slowest) = r.join().unwrap();
        assert!(reads >= 10);
        assert!(
            slowest < Duration::from_millis(500),
            "a read took {slowest:?}"
        );
    }
    assert_eq!(store.region_counts().unwrap()["domineering"], 40 * BATCH);
    assert_eq!(
        store.get_census("progress").unwrap().unwrap(),
        serde_json::json!({ "batches": 40 })
    );
}

#[test]
fn two_processes_and_this_one_read_and_add_at_once() {
    let dir = common::tempdir();
    let path = dir.path().join("s.redb");
    let store = Store::open(&path).unwrap();
    let exe = common::writer_exe();
    // Two writer processes on disjoint key ranges, plus a holder that keeps
    // a long-lived handle open the whole time (as `partizan serve` does).
    let spawn = |args: &[&str]| {
        Command::new(&exe)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn helper")
    };
    let p = path.to_str().unwrap();
    let mut holder = spawn(&["hold", p]);
    let mut line = String::new();
    BufReader::new(holder.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "open");
    let mut a = spawn(&["write", p, "200", "0"]);
    let mut b = spawn(&["write", p, "200", "1000000"]);
    let mut lines_a = BufReader::new(a.stdout.take().unwrap()).lines();
    let mut lines_b = BufReader::new(b.stdout.take().unwrap()).lines();
    // Meanwhile this process reads (never slowly) and adds its own batches.
    let mut slowest = Duration::ZERO;
    for i in 0..20u64 {
        let t = Instant::now();
        store.region_counts().unwrap();
        slowest = slowest.max(t.elapsed());
        let batch: Vec<RawEntry> = (0..50)
            .map(|j| RawEntry {
                ruleset: "scratch".into(),
                ..entry(i * 50 + j)
            })
            .collect();
        assert_eq!(store.insert_regions(&batch).unwrap().added, 50);
    }
    let last = |lines: &mut std::io::Lines<BufReader<std::process::ChildStdout>>| {
        let mut n = None;
        for _ in 0..3 {
            let l = lines.next().expect("writer alive").unwrap();
            n = l
                .strip_prefix("committed ")
                .and_then(|x| x.parse::<u64>().ok());
        }
        n.expect("committed line")
    };
    let na = last(&mut lines_a);
    let nb = last(&mut lines_b);
    a.kill().unwrap();
    b.kill().unwrap();
    let _ = (a.wait(), b.wait());
    drop(holder.stdin.take());
    let _ = holder.wait();
    assert!(
        slowest < Duration::from_millis(500),
        "a read took {slowest:?}"
    );
    // Every batch either writer reported, and all of ours, is there.
    for (start, n) in [(0u64, na), (1_000_000, nb)] {
        for m in [start, start + (n + 1) * 200 - 1] {
            let k = partizan_store::encode_board(
                &partizan_games::Board::new(5, 5, [(m as u128) & ((1 << 25) - 1), 0, 0]).unwrap(),
            );
            assert!(
                store
                    .get_region_record("domineering", &k)
                    .unwrap()
                    .is_some(),
                "mask {m}"
            );
        }
    }
    let stats = store.stats().unwrap();
    assert_eq!(stats.checksum_failures, 0);
    assert_eq!(stats.regions["scratch"], 1000);
    assert!(stats.regions["domineering"] >= (na + nb + 2) * 200);
    // The values the writers stored are right.
    let v = partizan_store::verify(
        &store,
        &partizan_store::VerifyOptions {
            sample: Some(100),
            seed: 3,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(v.ok(), "{v:?}");
}
