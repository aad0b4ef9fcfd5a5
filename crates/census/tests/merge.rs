//! The merge of a level's shards (`DirStore::merge_shards`): the shards
//! repeat the values they share, and the merge keeps each once; what it
//! writes is the unsharded level, summary and index, byte for byte; a shard
//! whose value list points outside itself is refused.

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
    let (dir, base) = sharded(cells, n);
    let mut store = DirStore::new(dir.path());
    let mut shard = store.load_shard(cells, base, 1, n).unwrap().unwrap();
    let beyond = base + shard.values.len() as u32 + 5;
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
