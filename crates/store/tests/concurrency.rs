//! Readers in one process never block on, and never see part of, a write.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use partizan_store::keys::encode_key_parts;
use partizan_store::{RawEntry, Record, Store};

const BATCH: u64 = 300;

fn entry(i: u64) -> RawEntry {
    RawEntry {
        ruleset: "domineering".into(),
        key: encode_key_parts(16, 8, [i as u128 + 1, 0, 0]),
        record: Record {
            computed_at: 0,
            version: "t",
            value: &[1, 1, 0, 0, 0],
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
                    // Every entry of the snapshot's batches is readable.
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
fn a_second_open_in_the_same_process_is_in_use() {
    let dir = common::tempdir();
    let path = dir.path().join("s.redb");
    let _store = Store::open(&path).unwrap();
    let e = Store::open_with(
        &path,
        &partizan_store::StoreOptions {
            wait: Duration::from_millis(100),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(
        matches!(e, partizan_store::StoreError::InUse { .. }),
        "{e:?}"
    );
}
