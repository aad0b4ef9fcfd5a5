//! A shard task (`AtlasConfig::shard`, one task of a cluster build) on a
//! directory that holds the sizes below its top: it streams them instead of
//! growing the catalogue, keeps only its parents of the size below, and
//! believes a level only when its shapes are the whole catalogue.

use std::path::Path;

use partizan_census::atlas::{
    Atlas, AtlasConfig, AtlasError, AtlasStore, BuildStep, Level, StoredValue,
};
use partizan_census::atlas_store::{decode_level, encode_level};
use partizan_census::{DirStore, Group, Shape, Sym, FREE_POLYOMINOES};

/// A directory store that logs which levels are loaded whole and which
/// are streamed.
struct Logged {
    inner: DirStore,
    log: Vec<String>,
}

impl AtlasStore for Logged {
    fn load_level(&mut self, cells: usize, base: u32) -> Result<Option<Level>, AtlasError> {
        self.log.push(format!("load {cells}"));
        self.inner.load_level(cells, base)
    }
    fn has_level(&mut self, cells: usize) -> bool {
        self.inner.has_level(cells)
    }
    fn stream_level(
        &mut self,
        cells: usize,
        base: u32,
        each: &mut dyn FnMut(Shape, u32) -> Result<(), AtlasError>,
    ) -> Result<Option<Vec<StoredValue>>, AtlasError> {
        self.log.push(format!("stream {cells}"));
        self.inner.stream_level(cells, base, each)
    }
    fn save_level(&mut self, level: &Level) -> Result<(), AtlasError> {
        self.inner.save_level(level)
    }
    fn save_shard(&mut self, level: &Level, k: usize, n: usize) -> Result<(), AtlasError> {
        self.inner.save_shard(level, k, n)
    }
    fn load_shard(
        &mut self,
        cells: usize,
        base: u32,
        k: usize,
        n: usize,
    ) -> Result<Option<Level>, AtlasError> {
        self.inner.load_shard(cells, base, k, n)
    }
    fn merge_level(&mut self, cells: usize, n: usize) -> Result<(u64, u64), AtlasError> {
        self.inner.merge_level(cells, n)
    }
    fn progress(&mut self, _step: BuildStep) {}
}

fn shard_cfg(cells: usize, k: usize, n: usize) -> AtlasConfig {
    AtlasConfig {
        threads: 2,
        shard: Some((k, n)),
        keep_entries: false,
        ..AtlasConfig::new(cells)
    }
}

fn shard_path(dir: &Path, cells: usize, k: usize, n: usize) -> std::path::PathBuf {
    dir.join(format!("level-{cells:02}.shard-{k}-of-{n}.pzal"))
}

fn level_path(dir: &Path, cells: usize) -> std::path::PathBuf {
    dir.join(format!("level-{cells:02}.pzal"))
}

fn level_seal(dir: &Path, cells: usize) -> std::path::PathBuf {
    dir.join(format!("level-{cells:02}.pzal.seal"))
}

/// A directory holding the sizes below `cells` (where shards of `cells` are
/// built) and one holding the unsharded atlas to `cells` (what they must
/// merge into).
fn below_and_whole(cells: usize) -> (tempfile::TempDir, tempfile::TempDir) {
    let below = tempfile::tempdir().unwrap();
    let whole = tempfile::tempdir().unwrap();
    Atlas::build(
        &AtlasConfig::new(cells - 1),
        &mut DirStore::new(below.path()),
    )
    .unwrap();
    Atlas::build(&AtlasConfig::new(cells), &mut DirStore::new(whole.path())).unwrap();
    (below, whole)
}

/// Every shard of 10 cells in 4, taken by a task on a directory holding
/// sizes 1 to 9 (streamed, nothing grown below the top), is the same file
/// byte for byte as the shard a task writes growing everything itself in
/// an empty directory; merged, they are the unsharded level.
#[test]
fn a_shard_task_streams_the_sizes_below_and_writes_the_same_shard() {
    let (cells, n) = (10, 4);
    let (below, whole) = below_and_whole(cells);
    for k in 0..n {
        let mut store = Logged {
            inner: DirStore::new(below.path()),
            log: Vec::new(),
        };
        let built = Atlas::build(&shard_cfg(cells, k, n), &mut store).unwrap();
        let streamed: Vec<String> = (1..cells).map(|c| format!("stream {c}")).collect();
        assert_eq!(
            store.log, streamed,
            "shard {k}: every size below streamed, none loaded"
        );
        assert!(built.stats[..cells - 1].iter().all(|s| s.loaded));
        let classes: Vec<u64> = built.stats.iter().map(|s| s.classes).collect();
        assert_eq!(classes[..cells - 1], FREE_POLYOMINOES[1..cells]);
        // the same shard from an empty directory: everything grown
        let fresh = tempfile::tempdir().unwrap();
        let mut grown = Logged {
            inner: DirStore::new(fresh.path()),
            log: Vec::new(),
        };
        Atlas::build(&shard_cfg(cells, k, n), &mut grown).unwrap();
        assert!(
            !grown.log.iter().any(|l| l.starts_with("stream")),
            "{:?}",
            grown.log
        );
        assert_eq!(
            std::fs::read(shard_path(below.path(), cells, k, n)).unwrap(),
            std::fs::read(shard_path(fresh.path(), cells, k, n)).unwrap(),
            "shard {k} of {n}: streamed = grown, byte for byte"
        );
        // valued 320 classes at a time: the same file again
        let parts = AtlasConfig {
            part_size: 320,
            ..shard_cfg(cells, k, n)
        };
        Atlas::build(&parts, &mut DirStore::new(below.path())).unwrap();
        assert_eq!(
            std::fs::read(shard_path(below.path(), cells, k, n)).unwrap(),
            std::fs::read(shard_path(fresh.path(), cells, k, n)).unwrap(),
            "shard {k} of {n} in parts of 320"
        );
    }
    DirStore::new(below.path()).merge_shards(cells, n).unwrap();
    assert_eq!(
        std::fs::read(level_path(below.path(), cells)).unwrap(),
        std::fs::read(level_path(whole.path(), cells)).unwrap(),
        "the merged shards = the unsharded level"
    );
}

/// Shards in turn in one process (`AtlasConfig::shards`) on a directory
/// holding the sizes below stream them too (every parent kept) and merge
/// into the unsharded level.
#[test]
fn shards_in_turn_stream_the_sizes_below() {
    let cells = 10;
    let (below, whole) = below_and_whole(cells);
    let mut store = Logged {
        inner: DirStore::new(below.path()),
        log: Vec::new(),
    };
    let cfg = AtlasConfig {
        threads: 2,
        shards: Some(3),
        keep_entries: false,
        ..AtlasConfig::new(cells)
    };
    let built = Atlas::build(&cfg, &mut store).unwrap();
    // every size below streamed; the top looked for (merged already?)
    let mut expected: Vec<String> = (1..cells).map(|c| format!("stream {c}")).collect();
    expected.push(format!("load {cells}"));
    assert_eq!(store.log, expected);
    assert!(built.stats[..cells - 1].iter().all(|s| s.loaded));
    assert!(!built.stats[cells - 1].loaded);
    assert_eq!(
        std::fs::read(level_path(below.path(), cells)).unwrap(),
        std::fs::read(level_path(whole.path(), cells)).unwrap()
    );
}

/// More shards than parents: empty slices stream to empty shards, and the
/// merge is the level all the same.
#[test]
fn a_shard_task_with_an_empty_slice() {
    let (below, whole) = below_and_whole(4);
    for k in 0..5 {
        Atlas::build(&shard_cfg(4, k, 5), &mut DirStore::new(below.path())).unwrap();
    }
    DirStore::new(below.path()).merge_shards(4, 5).unwrap();
    assert_eq!(
        std::fs::read(level_path(below.path(), 4)).unwrap(),
        std::fs::read(level_path(whole.path(), 4)).unwrap()
    );
}

/// Rewrite level `cells` of `dir` with its entries changed by `edit` (a
/// well-formed, checksummed file: only the catalogue check can tell).
fn forge(dir: &Path, cells: usize, base: u32, edit: impl FnOnce(&mut Vec<(Shape, u32)>)) {
    let path = level_path(dir, cells);
    let bytes = std::fs::read(&path).unwrap();
    let mut level = decode_level(&bytes, "forged", cells, None, base).unwrap();
    edit(&mut level.entries);
    level.entries.sort_unstable();
    std::fs::write(&path, encode_level(&level, None)).unwrap();
    // sealed as a holder of the key could (unsealed, the seal refuses it
    // first: `streamed_report`), so that the catalogue check is what refuses
    DirStore::new(dir).seal_as_written(&path).unwrap();
}

/// A disconnected shape of `cells` cells in canonical form (two cells
/// apart from a strip).
fn disconnected(cells: usize) -> Shape {
    let mut c: Vec<(usize, usize)> = (0..cells - 1).map(|i| (0, i)).collect();
    c.push((2, 0));
    Shape::from_cells(c).unwrap().canonical(Group::Square)
}

/// Forged levels below a shard task's top, each a well-formed file with a
/// right checksum, each refused (by the catalogue check, or by the stream
/// for entries out of order) at the size below the
/// top, whose parents the shard keeps, and at a size two below, which goes
/// into the table; no shard written.
#[test]
fn a_shard_task_refuses_levels_that_are_not_the_catalogue() {
    let (top, n) = (9, 3);
    let good = tempfile::tempdir().unwrap();
    let atlas = Atlas::build(
        &AtlasConfig {
            keep_entries: true,
            ..AtlasConfig::new(top - 1)
        },
        &mut DirStore::new(good.path()),
    )
    .unwrap();
    let base = |cells: usize| -> u32 {
        let below: u64 = atlas.stats[..cells - 1].iter().map(|s| s.new_values).sum();
        below as u32
    };
    type Edit = fn(&mut Vec<(Shape, u32)>, usize);
    let forgeries: [(&str, Edit, &str); 5] = [
        (
            "a class left out",
            |e, _| {
                e.remove(e.len() / 2);
            },
            "classes, where there are",
        ),
        (
            "a class twice",
            |e, _| {
                let i = e.len() / 2;
                e[i] = e[i - 1];
            },
            "not sorted",
        ),
        (
            "a disconnected shape for a class",
            |e, cells| {
                let v = e[0].1;
                e[0] = (disconnected(cells), v);
            },
            "not a region",
        ),
        (
            "a class turned out of canonical form",
            |e, _| {
                // a class's image under a symmetry that moves it
                let (i, image) = e
                    .iter()
                    .enumerate()
                    .find_map(|(i, (s, _))| {
                        Sym::ALL
                            .iter()
                            .map(|&y| s.transform(y))
                            .find(|t| t != s)
                            .map(|t| (i, t))
                    })
                    .unwrap();
                e[i].0 = image;
            },
            "canonical form",
        ),
        (
            "an extra class",
            |e, cells| {
                let v = e[0].1;
                e.push((disconnected(cells), v));
            },
            "differs from the catalogue",
        ),
    ];
    for cells in [top - 1, top - 2] {
        for (what, edit, says) in forgeries {
            let dir = tempfile::tempdir().unwrap();
            for c in 1..top {
                for p in [level_path(good.path(), c), level_seal(good.path(), c)] {
                    std::fs::copy(&p, dir.path().join(p.file_name().unwrap())).unwrap();
                }
            }
            forge(dir.path(), cells, base(cells), |e| edit(e, cells));
            let err = Atlas::build(&shard_cfg(top, 1, n), &mut DirStore::new(dir.path()))
                .expect_err(what)
                .to_string();
            // named by the catalogue check or, for what the stream sees
            // first (entries out of order), by the file
            let named = err.contains(&format!("level {cells}"))
                || err.contains(&format!("level-{cells:02}"));
            assert!(
                named && err.contains(says),
                "{what} at {cells} cells: {err}"
            );
            assert!(!shard_path(dir.path(), top, 1, n).exists(), "{what}");
        }
    }
}

/// A flipped bit in a level below is refused by the stream (its checksum),
/// naming the file.
#[test]
fn a_shard_task_refuses_a_damaged_level_below() {
    let dir = tempfile::tempdir().unwrap();
    Atlas::build(&AtlasConfig::new(8), &mut DirStore::new(dir.path())).unwrap();
    let path = level_path(dir.path(), 8);
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x20;
    std::fs::write(&path, &bytes).unwrap();
    let err = Atlas::build(&shard_cfg(9, 0, 2), &mut DirStore::new(dir.path()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("level-08"), "{err}");
    assert!(!shard_path(dir.path(), 9, 0, 2).exists());
}
