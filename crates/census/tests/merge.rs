//! The merge of a level's shards (`DirStore::merge_shards`): the shards
//! repeat the values they share, and the merge keeps each once; what it
//! writes is the unsharded level, summary and index, byte for byte; a shard
//! whose value list points outside itself is refused; a shard that gives a
//! class another value, its checksum right, is caught by the board engine.

use std::path::Path;

use partizan_census::atlas::{Atlas, AtlasConfig, AtlasStore};
use partizan_census::atlas_store::encode_shard;
use partizan_census::DirStore;

fn files(dir: &Path, cells: usize) -> Vec<Vec<u8>> {
    ["pzal", "summary.pzal", "index.pzal"]
        .iter()
        .map(|ext| std::fs::read(dir.join(format!("level-{cells:02}.{ext}"))).unwrap())
        .collect()
}

/// Shards of 9 cells in 6, built in a directory holding sizes 1 to 8.
fn sharded(cells: usize, n: usize) -> (tempfile::TempDir, u32) {
    let dir = tempfile::tempdir().unwrap();
    let built = Atlas::build(&AtlasConfig::new(cells - 1), &mut DirStore::new(dir.path())).unwrap();
    let base: u64 = built.stats.iter().map(|s| s.new_values).sum();
    for k in 0..n {
        let cfg = AtlasConfig {
            threads: 1,
            shard: Some((k, n)),
            keep_entries: false,
            ..AtlasConfig::new(cells)
        };
        Atlas::build(&cfg, &mut DirStore::new(dir.path())).unwrap();
    }
    (dir, base as u32)
}

/// Shards of `cells` in 3, and shard 1 read back (to be forged).
fn shard_one_of_three(
    cells: usize,
) -> (tempfile::TempDir, DirStore, partizan_census::atlas::Level) {
    let (dir, base) = sharded(cells, 3);
    let mut store = DirStore::new(dir.path());
    let shard = store.load_shard(cells, base, 1, 3).unwrap().unwrap();
    (dir, store, shard)
}

#[test]
fn shards_sharing_values_merge_into_the_unsharded_level() {
    let (cells, n) = (9, 6);
    let (dir, base) = sharded(cells, n);
    let mut store = DirStore::new(dir.path());
    let listed: usize = (0..n)
        .map(|k| {
            let shard = store.load_shard(cells, base, k, n).unwrap().unwrap();
            shard.values.len()
        })
        .sum();
    let merged = store.merge_shards(cells, n).unwrap();
    assert!(
        listed as u64 > merged.new_values,
        "the shards list {listed} values for {} distinct ones: shared values are exercised",
        merged.new_values
    );
    let whole = tempfile::tempdir().unwrap();
    let built = Atlas::build(&AtlasConfig::new(cells), &mut DirStore::new(whole.path())).unwrap();
    assert_eq!(merged.new_values, built.stats[cells - 1].new_values);
    assert_eq!(merged.classes, built.stats[cells - 1].classes);
    assert_eq!(
        files(dir.path(), cells),
        files(whole.path(), cells),
        "level, summary and index, byte for byte"
    );
}

#[test]
fn a_shard_whose_negative_is_outside_its_values_is_refused() {
    let (cells, n) = (8, 3);
    let (dir, mut store, mut shard) = shard_one_of_three(cells);
    let beyond = shard.value_base + shard.values.len() as u32 + 5;
    shard.values.last_mut().unwrap().facts.neg = beyond;
    let path = dir
        .path()
        .join(format!("level-{cells:02}.shard-1-of-{n}.pzal"));
    std::fs::write(&path, encode_shard(&shard, (1, n))).unwrap();
    let err = store.merge_shards(cells, n).unwrap_err().to_string();
    assert!(
        err.contains("shard-1-of-3") && err.contains(&beyond.to_string()),
        "{err}"
    );
    assert!(
        !dir.path().join(format!("level-{cells:02}.pzal")).exists(),
        "nothing merged"
    );
}

/// A lying worker: shard 1 gives one class the value of another class (a
/// well-formed file, its checksum right). Valuing every class again, the
/// merge names the shard and the class and writes nothing; with no classes
/// valued again the same shard is merged, so it is the check that caught
/// it.
#[test]
fn a_shard_that_lies_about_a_value_is_caught() {
    let (cells, n) = (8, 3);
    let (dir, mut store, mut shard) = shard_one_of_three(cells);
    let (victim, honest) = shard.entries[shard.entries.len() / 2];
    let other = shard
        .entries
        .iter()
        .map(|e| e.1)
        .find(|&v| v != honest)
        .unwrap();
    let at = shard.entries.iter().position(|e| e.0 == victim).unwrap();
    shard.entries[at].1 = other;
    let path = dir
        .path()
        .join(format!("level-{cells:02}.shard-1-of-{n}.pzal"));
    std::fs::write(&path, encode_shard(&shard, (1, n))).unwrap();
    let err = store
        .merge_shards_with(cells, n, usize::MAX, &mut |_| {})
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("shard 1") && err.contains(&victim.to_text()) && err.contains("board engine"),
        "{err}"
    );
    for ext in ["pzal", "summary.pzal", "index.pzal"] {
        assert!(
            !dir.path().join(format!("level-{cells:02}.{ext}")).exists(),
            "nothing written: {ext}"
        );
    }
    let merged = store.merge_shards_with(cells, n, 0, &mut |_| {}).unwrap();
    assert_eq!(merged.verified, 0);
}

/// An honest merge values the sample it is asked for: every class when the
/// sample is larger than the shards.
#[test]
fn an_honest_merge_values_its_sample_again() {
    let (cells, n) = (7, 2);
    let (dir, _) = sharded(cells, n);
    let merged = DirStore::new(dir.path())
        .merge_shards_with(cells, n, 5, &mut |_| {})
        .unwrap();
    assert_eq!(merged.verified, 10);
    let (dir, _) = sharded(cells, n);
    let merged = DirStore::new(dir.path())
        .merge_shards_with(cells, n, usize::MAX, &mut |_| {})
        .unwrap();
    assert_eq!(merged.verified, merged.classes);
}
