//! The level index files: a find from them answers exactly as the scan of
//! the loaded atlas, and an index that is missing, stale or damaged is
//! passed over (with a note), never believed.

use partizan_census::atlas::{Atlas, AtlasConfig, Query, ValueKind};
use partizan_census::rng::SplitMix64;
use partizan_census::DirStore;

/// An atlas of `n` cells built into a fresh directory.
fn built(n: usize) -> (tempfile::TempDir, Atlas) {
    let dir = tempfile::tempdir().unwrap();
    let atlas = Atlas::build(&AtlasConfig::new(n), &mut DirStore::new(dir.path())).unwrap();
    (dir, atlas)
}

/// A random query: a value of the atlas (or its negative, or one it does
/// not hold), a kind, a temperature threshold, or two of them; a size
/// bound and a limit.
fn random_query(rng: &mut SplitMix64, atlas: &Atlas, max: usize) -> Query {
    const KINDS: [&str; 13] = ValueKind::NAMES;
    const TEMPS: [&str; 8] = ["-1", "-1/2", "0", "1/4", "1/2", "1", "3/2", "2"];
    let pick = |rng: &mut SplitMix64, n: usize| (rng.next_u64() % n as u64) as usize;
    let values = atlas.values();
    let mut q = Query {
        max_cells: if pick(rng, 3) == 0 {
            None
        } else {
            Some(1 + pick(rng, max))
        },
        limit: [0, 1, 3, 10, 40, 500][pick(rng, 6)],
        ..Query::default()
    };
    let which = pick(rng, 6);
    if which < 3 {
        q.value = Some(if pick(rng, 20) == 0 {
            "*40".into()
        } else {
            values[pick(rng, values.len())].facts.display.clone()
        });
    }
    if which == 1 || which == 3 || which == 5 {
        q.kind = Some(KINDS[pick(rng, KINDS.len())].into());
    }
    if which == 2 || which >= 4 {
        q.min_temperature = Some(TEMPS[pick(rng, TEMPS.len())].into());
    }
    q
}

#[test]
fn index_answers_equal_the_scan_for_random_queries() {
    let (dir, atlas) = built(11);
    let store = DirStore::new(dir.path());
    let mut rng = SplitMix64::new(42);
    let mut listed = 0;
    for _ in 0..400 {
        let q = random_query(&mut rng, &atlas, 11);
        let (fast, _, _) = store.find(&q).unwrap();
        assert_eq!(fast.source, "index", "{q:?}: {:?}", fast.note);
        let full = atlas.query(&q).unwrap();
        assert_eq!(fast.total, full.total, "{q:?}");
        assert_eq!(fast.regions, full.regions, "{q:?}");
        listed += fast.regions.len();
    }
    assert!(listed > 2000, "the queries list regions: {listed}");
}

/// Queries whose answers are checked against each damage below.
fn sample_queries() -> Vec<Query> {
    let q = |value: Option<&str>, kind: Option<&str>, t: Option<&str>, limit| Query {
        value: value.map(String::from),
        kind: kind.map(String::from),
        min_temperature: t.map(String::from),
        max_cells: None,
        limit,
    };
    vec![
        q(Some("^"), None, None, 20),
        q(Some("*"), None, None, 100),
        q(Some("{1|-1}"), None, None, 5),
        q(None, Some("tiny"), None, 10),
        q(None, Some("hot"), None, 50),
        q(None, None, Some("3/2"), 1000),
    ]
}

/// Every sample query answered by `store` equals the scan; returns the
/// notes of those that did not use the index.
fn answers_are_right(store: &DirStore, atlas: &Atlas) -> Vec<String> {
    let mut notes = Vec::new();
    for q in sample_queries() {
        let (ans, _, _) = store.find(&q).unwrap();
        let full = atlas.query(&q).unwrap();
        assert_eq!(
            (ans.total, &ans.regions),
            (full.total, &full.regions),
            "{q:?}"
        );
        if ans.source != "index" {
            notes.push(ans.note.expect("a fallback says why"));
        }
    }
    notes
}

#[test]
fn a_missing_stale_or_damaged_index_is_passed_over_and_rewritten() {
    let (dir, atlas) = built(10);
    let store = DirStore::new(dir.path());
    assert!(answers_are_right(&store, &atlas).is_empty());
    let path = |c: usize| dir.path().join(format!("level-{c:02}.index.pzal"));
    let good: Vec<Vec<u8>> = (1..=10).map(|c| std::fs::read(path(c)).unwrap()).collect();
    let restore = || {
        for c in 1..=10 {
            std::fs::write(path(c), &good[c - 1]).unwrap();
        }
    };
    // missing
    std::fs::remove_file(path(7)).unwrap();
    let notes = answers_are_right(&store, &atlas);
    assert_eq!(notes.len(), sample_queries().len());
    assert!(
        notes[0].contains("level-07.index.pzal is missing"),
        "{}",
        notes[0]
    );
    // another level's index under this name (stale)
    std::fs::copy(path(8), path(7)).unwrap();
    let notes = answers_are_right(&store, &atlas);
    assert_eq!(notes.len(), sample_queries().len());
    assert!(notes[0].contains("level-07.index.pzal"), "{}", notes[0]);
    restore();
    // truncated
    let b = &good[9];
    std::fs::write(path(10), &b[..b.len() - 100]).unwrap();
    assert_eq!(
        answers_are_right(&store, &atlas).len(),
        sample_queries().len()
    );
    restore();
    // a flipped bit in any page: never a wrong answer; in the header page
    // (read by every find) or a page a query reads, a note
    let b = &good[9];
    let pages = b.len() / partizan_census::atlas_index::PAGE;
    let mut noticed = 0;
    for k in 0..pages {
        let mut bad = b.clone();
        bad[k * partizan_census::atlas_index::PAGE + 77] ^= 0x04;
        std::fs::write(path(10), &bad).unwrap();
        let notes = answers_are_right(&store, &atlas);
        if k == pages - 1 {
            assert_eq!(notes.len(), sample_queries().len(), "header page");
        }
        if let Some(n) = notes.iter().find(|n| !n.contains("does not belong")) {
            assert!(n.contains("checksum"), "{n}");
        }
        noticed += usize::from(!notes.is_empty());
    }
    assert!(noticed >= 2, "{noticed} of {pages} damaged pages noticed");
    // a level damaged under its index: the index no longer belongs to it
    std::fs::remove_file(path(3)).unwrap();
    let l4 = std::fs::read(dir.path().join("level-04.pzal")).unwrap();
    let mut l4b = l4.clone();
    let n = l4b.len();
    l4b[n - 1] ^= 1; // the level's own checksum: the level is now bad too
    std::fs::write(dir.path().join("level-04.pzal"), &l4b).unwrap();
    let (ans, _, _) = store.find(&sample_queries()[0]).unwrap_or_else(|e| {
        // the slow path reads the damaged level and refuses it: an error,
        // not a wrong answer
        assert!(e.to_string().contains("level-04"), "{e}");
        (atlas.query(&sample_queries()[0]).unwrap(), 0.0, 10)
    });
    assert_ne!(ans.source, "index");
    std::fs::write(dir.path().join("level-04.pzal"), &l4).unwrap();
    // `write_indexes` rewrites what is missing or damaged, and only that,
    // to the same bytes
    let mut bad = good[9].clone();
    bad[100] ^= 1;
    std::fs::write(path(10), &bad).unwrap();
    let done = store.write_indexes(None).unwrap();
    let written: Vec<usize> = done.iter().filter(|d| d.1).map(|d| d.0).collect();
    assert_eq!(written, [3, 10], "every page of every index is checked");
    for c in 1..=10 {
        assert_eq!(std::fs::read(path(c)).unwrap(), good[c - 1], "level {c}");
    }
    assert!(answers_are_right(&store, &atlas).is_empty());
}

/// A build resumed from levels without indexes (a directory from before
/// them) writes them as it loads the levels.
#[test]
fn a_resumed_build_writes_missing_indexes() {
    let (dir, atlas) = built(9);
    let path = |c: usize| dir.path().join(format!("level-{c:02}.index.pzal"));
    let good: Vec<Vec<u8>> = (1..=9).map(|c| std::fs::read(path(c)).unwrap()).collect();
    for c in [2, 5, 9] {
        std::fs::remove_file(path(c)).unwrap();
    }
    let mut store = DirStore::new(dir.path());
    let again = Atlas::build(&AtlasConfig::new(10), &mut store).unwrap();
    assert_eq!(&again.values()[..atlas.values().len()], atlas.values());
    for c in 1..=9 {
        assert_eq!(std::fs::read(path(c)).unwrap(), good[c - 1], "level {c}");
    }
    assert!(answers_are_right(&store, &again).is_empty());
}

/// Two users' builds of one size write the same level bytes; their indexes
/// differ in their keyed tags, so one user's index (or one edited by hand,
/// its checksums computed again) is passed over by the other, never
/// believed, and the answer comes from the summaries.
#[test]
fn an_index_made_with_another_key_is_passed_over() {
    static OTHER: partizan_seal::Key = partizan_seal::Key::from_bytes([0x5c; 32]);
    let (dir, atlas) = built(9);
    let theirs = tempfile::tempdir().unwrap();
    Atlas::build(
        &AtlasConfig::new(9),
        &mut DirStore::new(theirs.path()).with_key(&OTHER),
    )
    .unwrap();
    let name = |c: usize| format!("level-{c:02}");
    for c in 1..=9 {
        let file = |d: &std::path::Path, ext: &str| {
            std::fs::read(d.join(format!("{}.{ext}", name(c)))).unwrap()
        };
        assert!(
            file(dir.path(), "pzal") == file(theirs.path(), "pzal"),
            "level {c}"
        );
        assert!(
            file(dir.path(), "index.pzal") != file(theirs.path(), "index.pzal"),
            "index {c}"
        );
    }
    // their level 8 index in our directory: passed over
    std::fs::copy(
        theirs.path().join("level-08.index.pzal"),
        dir.path().join("level-08.index.pzal"),
    )
    .unwrap();
    let notes = answers_are_right(&DirStore::new(dir.path()), &atlas);
    assert_eq!(notes.len(), sample_queries().len());
    assert!(notes[0].contains("your key"), "{}", notes[0]);
    // and their whole directory is not believed by us
    let err = DirStore::new(theirs.path()).load_atlas(None).unwrap_err();
    assert!(err.to_string().contains("not made with your key"), "{err}");
}
