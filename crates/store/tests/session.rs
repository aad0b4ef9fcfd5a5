//! The solver reading through and writing to the store.

use crate::common;

use partizan_core::Arena;
use partizan_games::{Clobber, Domineering, Ruleset};
use partizan_solve::{RegionTable, Savings, Solver};
use partizan_store::{decode_board, verify, Store, VerifyOptions};

const BOARDS: &[&str] = &[
    "....|....|....",
    "...|...|...|..#",
    "#...|....|...#",
    "..#..|.....|..#..",
];

fn solve_all<R: Ruleset>(
    rules: &R,
    boards: &[&str],
    table: Option<&mut dyn RegionTable>,
) -> (Vec<String>, partizan_solve::Stats) {
    let mut arena = Arena::new();
    let mut solver = Solver::new(rules, Savings::ALL).unwrap();
    if let Some(t) = table {
        solver = solver.with_table(t);
    }
    let values = boards
        .iter()
        .map(|t| {
            let b = rules.parse(t).unwrap();
            let v = solver.value(&mut arena, &b).unwrap();
            arena.display(v)
        })
        .collect();
    (values, solver.stats())
}

#[test]
fn cold_then_warm_gives_the_same_values_from_the_store() {
    let dir = common::tempdir();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    let (plain, _) = solve_all(&Domineering, BOARDS, None);

    let mut session = store.session();
    let (cold, cold_stats) = solve_all(&Domineering, BOARDS, Some(&mut session));
    let cold_session = session.finish().unwrap();
    assert_eq!(cold, plain);
    assert!(cold_stats.store_added > 0);
    assert_eq!(cold_stats.store_hits, 0);
    assert_eq!(cold_session.written, cold_stats.store_added);
    assert_eq!(cold_session.added, cold_stats.store_added);

    let mut session = store.session();
    let (warm, warm_stats) = solve_all(&Domineering, BOARDS, Some(&mut session));
    let warm_session = session.finish().unwrap();
    assert_eq!(warm, plain);
    assert_eq!(warm_stats.store_added, 0, "nothing new to add");
    assert!(warm_stats.store_hits > 0);
    assert_eq!(warm_stats.distinct, 0, "the store answered every region");
    assert_eq!(warm_session.hits, warm_stats.store_hits);

    let stats = store.stats().unwrap();
    assert_eq!(stats.regions["domineering"], cold_stats.store_added);
    assert_eq!(stats.recent_runs.len(), 2);
    assert!(stats.recent_hit_rate.unwrap() > 0.0);
}

#[test]
fn batches_are_written_as_they_fill_and_on_drop() {
    let dir = common::tempdir();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    {
        let mut session = store.session_with_batch(10);
        let (_, st) = solve_all(&Domineering, &["....|....|...."], Some(&mut session));
        let s = session.stats();
        assert!(st.store_added > 10);
        assert_eq!(s.batches, st.store_added / 10);
        assert_eq!(session.pending() as u64, st.store_added % 10);
        // dropped here: the remainder is written
    }
    let counts = store.region_counts().unwrap();
    let (_, st) = solve_all(&Domineering, &["....|....|...."], None);
    assert_eq!(counts["domineering"], st.distinct);
    // The drop also remembered the run.
    assert_eq!(store.recent_runs().unwrap().len(), 1);
}

#[test]
fn keys_are_folded_regions_and_values_verify() {
    let dir = common::tempdir();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    let mut session = store.session();
    solve_all(&Domineering, BOARDS, Some(&mut session));
    solve_all(&Clobber, &["xo.|ox.", "xox|oxo"], Some(&mut session));
    session.finish().unwrap();
    for ruleset in ["domineering", "clobber"] {
        store
            .for_each_region(ruleset, |k, _| {
                let b = decode_board(k)?;
                let (key, _) = match ruleset {
                    "domineering" => partizan_solve::regions::canonical_key(&Domineering, &b),
                    _ => partizan_solve::regions::canonical_key(&Clobber, &b),
                };
                assert_eq!(key, b, "stored key is its own fold");
                Ok(())
            })
            .unwrap();
    }
    let report = verify(&store, &VerifyOptions::default()).unwrap();
    assert!(report.ok(), "{report:?}");
    assert_eq!(report.recomputed, report.entries);
    assert_eq!(store.rulesets().unwrap(), vec!["clobber", "domineering"]);
}

#[test]
fn two_sessions_share_one_store() {
    let dir = common::tempdir();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    let mut a = store.session();
    let mut b = store.clone().session();
    let (_, sa) = solve_all(&Domineering, &["...|...|..."], Some(&mut a));
    a.flush().unwrap();
    // b's snapshot is taken now, after a's flush.
    let (_, sb) = solve_all(&Domineering, &["...|...|..."], Some(&mut b));
    assert!(sa.store_added > 0);
    assert_eq!(sb.store_added, 0);
    assert!(sb.store_hits > 0);
    a.finish().unwrap();
    b.finish().unwrap();
}

#[test]
fn verify_reports_a_wrong_value_with_its_key() {
    use partizan_store::{encode_board, RawEntry, Record};
    let dir = common::tempdir();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    let mut session = store.session();
    solve_all(&Domineering, &["...|..."], Some(&mut session));
    session.finish().unwrap();
    // A 3x3 square stored with a wrong value (it is not 5).
    let board = Domineering.parse("...|...|...").unwrap();
    let key = encode_board(&board);
    store
        .insert_regions(&[RawEntry {
            ruleset: "domineering".into(),
            key: key.clone(),
            record: Record {
                provenance: partizan_store::Provenance::Computed,
                computed_at: 0,
                version: "bad",
                // The number 5 in core's encoding (zigzag 10, exponent 0).
                value: b"PZG\x01\x01\x00\x0a\x00",
            }
            .encode(),
        }])
        .unwrap();
    let report = verify(&store, &VerifyOptions::default()).unwrap();
    assert!(!report.ok());
    assert_eq!(report.mismatches.len(), 1);
    let m = &report.mismatches[0];
    assert_eq!(m.key, partizan_store::keys::to_hex(&key));
    assert_eq!(m.board, "...|...|...");
    assert_eq!(m.stored, "5");
    // A sample of one may or may not pick it; a sample of all does.
    let all = verify(
        &store,
        &VerifyOptions {
            sample: Some(1000),
            seed: 7,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(all.mismatches.len(), 1);
    let one = verify(
        &store,
        &VerifyOptions {
            sample: Some(1),
            seed: 7,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(one.recomputed, 1);
    assert_eq!(one.entries, all.entries);
}

#[test]
fn a_damaged_row_is_a_reported_miss_then_repaired() {
    let dir = common::tempdir();
    let path = dir.path().join("s.redb");
    let store = Store::open(&path).unwrap();
    let mut session = store.session();
    let (want, _) = solve_all(&Domineering, BOARDS, Some(&mut session));
    session.finish().unwrap();
    // Flip one bit in the value of every stored row, behind the store's back
    // (the last byte before the 8 checksum bytes).
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        let rows: Vec<(String, Vec<u8>, Vec<u8>)> = c
            .prepare("SELECT ruleset, key, record FROM regions")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert!(!rows.is_empty());
        for (r, k, mut rec) in rows {
            let at = rec.len() - 9;
            rec[at] ^= 1;
            c.execute(
                "UPDATE regions SET record = ?3 WHERE ruleset = ?1 AND key = ?2",
                rusqlite::params![r, k, rec],
            )
            .unwrap();
        }
    }
    let damaged = store.stats().unwrap();
    assert_eq!(damaged.checksum_failures, damaged.total_regions);
    // The values come out right: every damaged row is a miss, reported once.
    let mut session = store.session();
    let (got, stats) = solve_all(&Domineering, BOARDS, Some(&mut session));
    assert_eq!(got, want);
    assert_eq!(stats.store_hits, 0);
    assert!(session.stats().checksum_failures > 0);
    let warning = session.warning().unwrap().to_string();
    assert!(warning.contains("checksum"), "{warning}");
    let done = session.finish().unwrap();
    assert!(done.replaced > 0);
    // Recomputing replaced the damaged rows the solver met.
    let after = store.stats().unwrap();
    assert!(after.checksum_failures < damaged.checksum_failures);
    let mut session = store.session();
    let (again, stats) = solve_all(&Domineering, BOARDS, Some(&mut session));
    assert_eq!(again, want);
    assert!(stats.store_hits > 0);
    assert_eq!(session.stats().checksum_failures, 0);
}

#[test]
fn a_store_at_its_size_limit_stops_growing_and_says_so() {
    let dir = common::tempdir();
    let path = dir.path().join("s.sqlite");
    let store = Store::open(&path).unwrap();
    assert_eq!(
        store.size_limit().unwrap(),
        Some(partizan_store::DEFAULT_MAX_BYTES)
    );
    // A limit the empty store already meets: nothing is added.
    let size = store.file_bytes().unwrap();
    store.set_size_limit(Some(size)).unwrap();
    assert_eq!(store.size_limit().unwrap(), Some(size));
    let (plain, _) = solve_all(&Domineering, BOARDS, None);
    let mut session = store.session_with_batch(16);
    let (values, stats) = solve_all(&Domineering, BOARDS, Some(&mut session));
    assert!(session.is_full());
    let warning = session.warning().unwrap().to_string();
    let s = session.finish().unwrap();
    assert_eq!(
        values, plain,
        "the values do not depend on the store's room"
    );
    assert!(stats.store_added > 16);
    assert_eq!(s.written, 0);
    assert_eq!(s.not_saved, s.added);
    assert!(warning.contains("size limit"), "{warning}");
    assert_eq!(store.stats().unwrap().total_regions, 0);

    // Room for a few batches: the store keeps what fits, then stops.
    store.set_size_limit(None).unwrap();
    assert_eq!(store.size_limit().unwrap(), None);
    let mut session = store.session_with_batch(16);
    solve_all(&Domineering, &BOARDS[..1], Some(&mut session));
    let first = session.finish().unwrap();
    assert!(first.written > 0 && first.not_saved == 0);
    let size = store.file_bytes().unwrap();
    store.set_size_limit(Some(size + 1)).unwrap();
    let mut session = store.session_with_batch(16);
    solve_all(&Domineering, BOARDS, Some(&mut session));
    let second = session.finish().unwrap();
    assert!(second.not_saved > 0, "{second:?}");
    assert!(
        second.written <= 16,
        "at most one batch past the limit: {second:?}"
    );
}
