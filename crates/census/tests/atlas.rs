//! The value atlas against the census, an independent solver, its own
//! store, shards and queries.

use std::collections::{BTreeMap, BTreeSet};

use partizan_census::atlas::{Atlas, AtlasConfig, AtlasError, NoStore, Query, ValueKind};
use partizan_census::{classify, Census, DirStore, DomineeringValues, Shape};
use partizan_core::Arena;
use partizan_games::Domineering;
use partizan_solve::{Savings, Solver};

fn build(n: usize, threads: usize) -> Atlas {
    let cfg = AtlasConfig {
        threads,
        ..AtlasConfig::new(n)
    };
    Atlas::build(&cfg, &mut NoStore).unwrap()
}

fn region_values(a: &Atlas) -> BTreeMap<Shape, String> {
    a.regions()
        .map(|(s, v)| (s, a.values()[v as usize].facts.display.clone()))
        .collect()
}

#[test]
fn one_and_two_threads_agree_and_match_the_census() {
    let one = build(9, 1);
    let two = build(9, 2);
    assert_eq!(one.values(), two.values());
    for n in 1..=9 {
        assert_eq!(one.entries(n), two.entries(n));
    }
    // every region of the census, with the census's value
    let mut arena = Arena::new();
    let census = Census::domineering(9, &mut arena, &mut DomineeringValues::new()).unwrap();
    let mine = region_values(&one);
    assert_eq!(mine.len(), census.records.len());
    for r in &census.records {
        assert_eq!(mine.get(&r.shape), Some(&r.value_text), "{}", r.shape);
    }
    assert_eq!(
        (1..=8).map(|n| one.regions_of_size(n)).sum::<u64>(),
        1042,
        "the census's regions to eight cells"
    );
}

/// The interning runs beside the valuing, on whichever worker finds it
/// free; the values' indices must not depend on which: one thread against
/// three and eight (more threads than chunks at the small sizes, and
/// parts that cut chunks), the same values and entries.
#[test]
fn any_number_of_threads_and_parts_intern_the_same_indices() {
    let one = build(10, 1);
    for (threads, part_size) in [(3, 1 << 20), (8, 1 << 20), (8, 700), (5, 37)] {
        let cfg = AtlasConfig {
            threads,
            part_size,
            ..AtlasConfig::new(10)
        };
        let many = Atlas::build(&cfg, &mut NoStore).unwrap();
        assert_eq!(
            one.values(),
            many.values(),
            "{threads} threads, parts of {part_size}"
        );
        for n in 1..=10 {
            assert_eq!(
                one.entries(n),
                many.entries(n),
                "{n} cells on {threads} threads"
            );
        }
        assert_eq!(
            many.stats.iter().map(|s| s.per_thread.len()).max(),
            Some(threads)
        );
    }
}

type Cells = Vec<(i32, i32)>;

/// Shift to row 0 and column 0, sorted.
fn normalise(mut v: Cells) -> Cells {
    let r0 = v.iter().map(|p| p.0).min().unwrap();
    let c0 = v.iter().map(|p| p.1).min().unwrap();
    for p in &mut v {
        *p = (p.0 - r0, p.1 - c0);
    }
    v.sort_unstable();
    v
}

/// The least of the four row-preserving images (identity, both mirrors,
/// half turn), by sorted cell list.
fn row_canonical(v: &Cells) -> Cells {
    [(1, 1), (-1, 1), (1, -1), (-1, -1)]
        .iter()
        .map(|&(a, b)| normalise(v.iter().map(|&(r, c)| (a * r, b * c)).collect()))
        .min()
        .unwrap()
}

/// Every Domineering region of `n` cells by brute force, sharing no code
/// with the catalogue: grow every fixed polyomino of `n - 1` cells by each
/// free neighbour, normalise into a set, then keep one representative per
/// row-preserving class.
fn brute_regions(n: usize) -> BTreeSet<Cells> {
    let mut level: BTreeSet<Cells> = [vec![(0, 0)]].into();
    for _ in 1..n {
        let mut next = BTreeSet::new();
        for p in &level {
            for &(r, c) in p {
                for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                    let q = (r + dr, c + dc);
                    if !p.contains(&q) {
                        let mut v = p.clone();
                        v.push(q);
                        next.insert(normalise(v));
                    }
                }
            }
        }
        level = next;
    }
    level.iter().map(row_canonical).collect()
}

/// A shape's cells read back from its text (rows of `.` and `#`).
fn cells_of_text(text: &str) -> Cells {
    let mut v = Vec::new();
    for (r, row) in text.split('|').enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch == '.' {
                v.push((r as i32, c as i32));
            }
        }
    }
    normalise(v)
}

fn board_of(cells: &Cells) -> partizan_games::Board {
    let w = cells.iter().map(|p| p.1).max().unwrap() as usize + 1;
    let h = cells.iter().map(|p| p.0).max().unwrap() as usize + 1;
    let mask = cells
        .iter()
        .fold(0u128, |m, &(r, c)| m | 1 << (r as usize * w + c as usize));
    partizan_games::Board::new(w, h, [mask, 0, 0]).unwrap()
}

/// The totals at 9 and 10 cells from an independent implementation: the
/// regions enumerated by brute force ([`brute_regions`], not the
/// catalogue), valued by the solve crate's general solver on the games
/// crate's Domineering (move generation, regions, memo and symmetry all its
/// own), and tallied by kind.
#[test]
fn totals_at_nine_and_ten_cells_match_an_independent_implementation() {
    let atlas = build(10, 2);
    let report = atlas.report(5);
    let rules = Domineering;
    let mut solver = Solver::new(&rules, Savings::ALL).unwrap();
    let mut arena = Arena::new();
    // the published counts of regions (fixed polyominoes up to the four
    // row-preserving symmetries) at 9 and 10 cells
    for (n, want) in [(9usize, 2542u64), (10, 9287)] {
        let regions = brute_regions(n);
        assert_eq!(regions.len() as u64, want, "brute-force regions at {n}");
        let mine: BTreeSet<Cells> = atlas
            .regions()
            .filter(|(s, _)| s.len() == n)
            .map(|(s, _)| row_canonical(&cells_of_text(&s.to_text())))
            .collect();
        assert_eq!(mine, regions, "the atlas's regions of {n} cells");
        let mut fam: BTreeMap<String, u64> = BTreeMap::new();
        let mut hot_over_two = 0u64;
        for cells in &regions {
            let g = solver.value(&mut arena, &board_of(cells)).unwrap();
            *fam.entry(classify(&mut arena, g).label()).or_default() += 1;
            if arena.try_temperature(g).unwrap() > partizan_core::Dyadic::from_int(2) {
                hot_over_two += 1;
            }
        }
        let t = &report.by_size[&n];
        assert_eq!(t.regions, want, "regions at {n}");
        let mut mine: BTreeMap<String, u64> = BTreeMap::new();
        for (_, v) in atlas.regions().filter(|(s, _)| s.len() == n) {
            *mine
                .entry(atlas.values()[v as usize].facts.kind.label())
                .or_default() += 1;
        }
        assert_eq!(mine, fam, "kinds at {n} cells");
        assert_eq!(t.integers, fam.get("integer").copied().unwrap_or(0));
        assert_eq!(t.hotter_than_two, hot_over_two);
    }
}

#[test]
fn classification() {
    let mut a = Arena::new();
    let mut k = |s: &str| {
        let g = a.parse(s).unwrap();
        classify(&mut a, g)
    };
    assert_eq!(
        k("{0|^}"),
        ValueKind::Ups {
            multiple: 2,
            nim: 1
        }
    );
    assert_eq!(k("0"), ValueKind::Integer);
    assert_eq!(k("-3"), ValueKind::Integer);
    assert_eq!(k("3/4"), ValueKind::Fraction { denominator: 4 });
    assert_eq!(k("*"), ValueKind::Nimber { n: 1 });
    assert_eq!(k("*2"), ValueKind::Nimber { n: 2 });
    assert_eq!(
        k("^"),
        ValueKind::Ups {
            multiple: 1,
            nim: 0
        }
    );
    assert_eq!(
        k("v*"),
        ValueKind::Ups {
            multiple: -1,
            nim: 1
        }
    );
    assert_eq!(k("{0||0|-1}"), ValueKind::Tiny);
    assert_eq!(k("{1|0||0}"), ValueKind::Miny);
    assert_eq!(k("1*"), ValueKind::NumberPlusInfinitesimal);
    assert_eq!(k("{1|-1}"), ValueKind::Switch);
    assert_eq!(k("{2|0||-1}"), ValueKind::Hot);
    let (t, u) = (a.parse("{0||0|-1}").unwrap(), a.up());
    let tu = a.sum(t, u).unwrap();
    assert_eq!(classify(&mut a, tu), ValueKind::Infinitesimal, "tiny + up");
    assert!(ValueKind::Switch.matches("hot").unwrap());
    assert!(ValueKind::Integer.matches("number").unwrap());
    assert!(ValueKind::Integer.matches("bogus").is_err());
}

#[test]
fn store_round_trip_resume_and_corruption() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = AtlasConfig {
        threads: 2,
        ..AtlasConfig::new(8)
    };
    let mut store = DirStore::new(dir.path());
    let built = Atlas::build(&cfg, &mut store).unwrap();
    assert!(built.stats.iter().all(|s| !s.loaded));
    let loaded = Atlas::load(&mut store, 8).unwrap();
    assert_eq!(loaded.values(), built.values());
    assert_eq!(region_values(&loaded), region_values(&built));
    // a killed build: the last two levels are gone; resume computes only them
    let l8 = dir.path().join("level-08.pzal");
    let bytes8 = std::fs::read(&l8).unwrap();
    std::fs::remove_file(&l8).unwrap();
    std::fs::remove_file(dir.path().join("level-07.pzal")).unwrap();
    let resumed = Atlas::build(&cfg, &mut store).unwrap();
    let loaded_flags: Vec<bool> = resumed.stats.iter().map(|s| s.loaded).collect();
    assert_eq!(
        loaded_flags,
        [true, true, true, true, true, true, false, false]
    );
    assert_eq!(
        std::fs::read(&l8).unwrap(),
        bytes8,
        "same bytes after resume"
    );
    // a flipped bit is refused, naming the file
    let mut bad = bytes8.clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 0x10;
    std::fs::write(&l8, &bad).unwrap();
    let err = Atlas::load(&mut store, 8).unwrap_err().to_string();
    assert!(
        err.contains("level-08") && err.contains("checksum"),
        "{err}"
    );
    assert!(Atlas::load(&mut store, 9).is_err());
}

#[test]
fn shards_merge_into_the_unsharded_level() {
    let whole = tempfile::tempdir().unwrap();
    let mut ws = DirStore::new(whole.path());
    Atlas::build(&AtlasConfig::new(9), &mut ws).unwrap();
    let parts = tempfile::tempdir().unwrap();
    let mut ps = DirStore::new(parts.path());
    for k in 0..3 {
        let cfg = AtlasConfig {
            threads: 1,
            shard: Some((k, 3)),
            ..AtlasConfig::new(9)
        };
        Atlas::build(&cfg, &mut ps).unwrap();
    }
    assert_eq!(ps.levels_present().unwrap(), 8);
    ps.merge_shards(9, 3).unwrap();
    assert_eq!(
        level_files(whole.path(), 9),
        level_files(parts.path(), 9),
        "merged shards = the unsharded level, byte for byte (level, summary, index)"
    );
    // a missing shard is an error
    std::fs::remove_file(parts.path().join("level-09.shard-1-of-3.pzal")).unwrap();
    assert!(ps.merge_shards(9, 3).is_err());
    assert!(Atlas::build(
        &AtlasConfig {
            threads: 1,
            shard: Some((3, 3)),
            ..AtlasConfig::new(9)
        },
        &mut NoStore
    )
    .is_err());
}

/// Level, summary and index files of `cells` in `dir`.
fn level_files(dir: &std::path::Path, cells: usize) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    (
        std::fs::read(dir.join(format!("level-{cells:02}.pzal"))).unwrap(),
        std::fs::read(dir.join(format!("level-{cells:02}.summary.pzal"))).unwrap(),
        std::fs::read(dir.join(format!("level-{cells:02}.index.pzal"))).unwrap(),
    )
}

/// The top size in `k` shards one after another (grown from slices of the
/// size below, merged by streaming) against the unsharded build, byte for
/// byte, level and summary.
fn shards_in_turn_match(cells: usize, k: usize, part_size: usize) {
    let whole = tempfile::tempdir().unwrap();
    let mut ws = DirStore::new(whole.path());
    let plain = Atlas::build(&AtlasConfig::new(cells), &mut ws).unwrap();
    let sharded = tempfile::tempdir().unwrap();
    let mut ss = DirStore::new(sharded.path());
    let cfg = AtlasConfig {
        shards: Some(k),
        part_size,
        ..AtlasConfig::new(cells)
    };
    let built = Atlas::build(&cfg, &mut ss).unwrap();
    assert_eq!(
        level_files(whole.path(), cells),
        level_files(sharded.path(), cells),
        "{cells} cells in {k} shards (parts of {part_size}) = unsharded, byte for byte"
    );
    assert_eq!(built.values(), plain.values());
    assert_eq!(built.entries(cells), plain.entries(cells));
    let top = built.stats.last().unwrap();
    assert_eq!(top.classes as usize, plain.entries(cells).len());
    // the shards are merged and gone
    let left: Vec<_> = std::fs::read_dir(sharded.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.contains("shard"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn shards_in_turn_equal_the_unsharded_level() {
    let whole = partizan_census::atlas::PART_SIZE;
    shards_in_turn_match(10, 3, whole);
    // each shard valued in five parts
    shards_in_turn_match(10, 3, 320);
    // more shards than parents: some slices empty
    shards_in_turn_match(3, 4, whole);
    shards_in_turn_match(1, 2, whole);
}

/// 11 and 12 cells in 3 shards: `cargo test -p partizan-census --test all
/// shards_in_turn_at_12 -- --ignored` (about a minute).
#[test]
#[ignore]
fn shards_in_turn_at_12_cells() {
    shards_in_turn_match(11, 3, partizan_census::atlas::PART_SIZE);
    shards_in_turn_match(12, 3, partizan_census::atlas::PART_SIZE);
}

/// Sizes of the `n` shard files of `cells` cells (built one by one, kept)
/// in the compact format, as version 1 would have written them, and of
/// their head and values alone; the shards' levels for a check.
struct ShardSizes {
    compact: u64,
    full: u64,
    values: u64,
    dir: tempfile::TempDir,
    base: u32,
}

fn shard_sizes(cells: usize, n: usize) -> ShardSizes {
    use partizan_census::atlas::AtlasStore;
    use partizan_census::atlas_store::encode_level;
    let dir = tempfile::tempdir().unwrap();
    let mut store = DirStore::new(dir.path());
    for k in 0..n {
        let cfg = AtlasConfig {
            threads: 2,
            shard: Some((k, n)),
            keep_entries: false,
            ..AtlasConfig::new(cells)
        };
        Atlas::build(&cfg, &mut store).unwrap();
    }
    let base = Atlas::load(&mut store, cells - 1).unwrap().values().len() as u32;
    let (mut compact, mut full, mut values) = (0, 0, 0);
    for k in 0..n {
        let path = dir
            .path()
            .join(format!("level-{cells:02}.shard-{k}-of-{n}.pzal"));
        compact += std::fs::metadata(&path).unwrap().len();
        let mut level = store.load_shard(cells, base, k, n).unwrap().unwrap();
        full += encode_level(&level, Some((k, n))).len() as u64;
        level.entries.clear();
        values += encode_level(&level, Some((k, n))).len() as u64;
    }
    ShardSizes {
        compact,
        full,
        values,
        dir,
        base,
    }
}

/// Shard files refer to their values and step from mask to mask: several
/// times smaller than version 1's 22 bytes an entry; a version-1 shard (a
/// build from before) is still read and merges to the same level.
#[test]
fn compact_shards_are_smaller_and_old_ones_still_merge() {
    use partizan_census::atlas::AtlasStore;
    use partizan_census::atlas_store::encode_level;
    let sz = shard_sizes(10, 3);
    assert!(
        sz.compact * 3 < sz.full,
        "compact {} bytes, version 1 {} bytes",
        sz.compact,
        sz.full
    );
    // the same shards in version 1, beside the same levels below
    let old = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(sz.dir.path()).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), old.path().join(e.file_name())).unwrap();
    }
    let mut new_store = DirStore::new(sz.dir.path());
    for k in 0..3 {
        let level = new_store.load_shard(10, sz.base, k, 3).unwrap().unwrap();
        let name = format!("level-10.shard-{k}-of-3.pzal");
        std::fs::write(old.path().join(&name), encode_level(&level, Some((k, 3)))).unwrap();
        let again = DirStore::new(old.path())
            .load_shard(10, sz.base, k, 3)
            .unwrap()
            .unwrap();
        assert_eq!(again, level, "{name} read back by the version-1 reader");
    }
    new_store.merge_shards(10, 3).unwrap();
    DirStore::new(old.path()).merge_shards(10, 3).unwrap();
    assert_eq!(level_files(sz.dir.path(), 10), level_files(old.path(), 10));
    // and the unsharded build
    let whole = tempfile::tempdir().unwrap();
    Atlas::build(&AtlasConfig::new(10), &mut DirStore::new(whole.path())).unwrap();
    assert_eq!(level_files(whole.path(), 10), level_files(old.path(), 10));
}

/// The sizes at 12 to 14 cells (3 shards), printed: `cargo test -p
/// partizan-census --test atlas -- --ignored shard_sizes --nocapture` (13
/// cells: seconds; `PZ_CELLS=14` for 14, about two minutes loaded).
#[test]
#[ignore]
fn shard_sizes_at_13_cells() {
    let cells = std::env::var("PZ_CELLS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(13);
    let sz = shard_sizes(cells, 3);
    println!(
        "{cells} cells, 3 shards: compact {} bytes, version 1 {} bytes (ratio {:.2}; version 1's values alone {} bytes)",
        sz.compact,
        sz.full,
        sz.full as f64 / sz.compact as f64,
        sz.values
    );
    assert!(sz.compact * 3 < sz.full);
}

#[test]
fn shards_in_turn_resume_and_refuse_a_bad_shard() {
    let whole = tempfile::tempdir().unwrap();
    Atlas::build(&AtlasConfig::new(9), &mut DirStore::new(whole.path())).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut store = DirStore::new(dir.path());
    let cfg = AtlasConfig {
        threads: 2,
        shards: Some(3),
        keep_entries: false,
        ..AtlasConfig::new(9)
    };
    // killed after one shard
    let stopped = Atlas::build(
        &AtlasConfig {
            part_budget: Some(1),
            ..cfg
        },
        &mut store,
    );
    assert!(matches!(stopped, Err(AtlasError::Stopped { parts: 1 })));
    let s0 = dir.path().join("level-09.shard-0-of-3.pzal");
    assert!(s0.exists());
    assert!(!dir.path().join("level-09.shard-1-of-3.pzal").exists());
    // a flipped bit in the saved shard is refused, naming it
    let good = std::fs::read(&s0).unwrap();
    let mut bad = good.clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 0x04;
    std::fs::write(&s0, &bad).unwrap();
    let err = Atlas::build(&cfg, &mut store).unwrap_err().to_string();
    assert!(err.contains("shard-0-of-3"), "{err}");
    // the resumed build computes only the other two and merges
    std::fs::write(&s0, &good).unwrap();
    let done = Atlas::build(
        &AtlasConfig {
            part_budget: Some(2),
            ..cfg
        },
        &mut store,
    )
    .unwrap();
    assert!(!done.stats.last().unwrap().loaded);
    assert_eq!(level_files(whole.path(), 9), level_files(dir.path(), 9));
    // once merged, a rerun loads the level (checked shard by shard)
    let again = Atlas::build(&cfg, &mut store).unwrap();
    assert!(again.stats.iter().all(|s| s.loaded));
    // the shards went with the merge: merging again is refused
    let err = store.merge_shards(9, 3).unwrap_err().to_string();
    assert!(err.contains("missing"), "{err}");
    // the one-shard-at-a-time flags are refused together
    assert!(Atlas::build(
        &AtlasConfig {
            shard: Some((0, 3)),
            ..cfg
        },
        &mut NoStore
    )
    .is_err());
    assert!(Atlas::build(
        &AtlasConfig {
            shards: Some(0),
            ..AtlasConfig::new(5)
        },
        &mut NoStore
    )
    .is_err());
    assert!(
        Atlas::build(
            &AtlasConfig {
                shards: Some(2),
                ..AtlasConfig::new(5)
            },
            &mut NoStore
        )
        .is_err(),
        "a store without shards cannot merge"
    );
}

#[test]
fn queries_answer_from_the_atlas() {
    let atlas = build(10, 2);
    let report = atlas.report(3);
    for (text, n) in [("*2", 2u32), ("*", 1)] {
        let ans = atlas
            .query(&Query {
                value: Some(text.into()),
                limit: 0,
                ..Query::default()
            })
            .unwrap();
        let want: u64 = report
            .by_size
            .values()
            .map(|t| t.nimbers.get(&n).copied().unwrap_or(0))
            .sum();
        assert_eq!(ans.total, want, "{text}");
    }
    let q = Query {
        value: Some("*".into()),
        max_cells: Some(10),
        limit: 1000,
        ..Query::default()
    };
    let ans = atlas.query(&q).unwrap();
    let want: u64 = report
        .by_size
        .values()
        .map(|t| t.nimbers.get(&1).copied().unwrap_or(0))
        .sum();
    assert_eq!(ans.total, want);
    assert!(ans.total > 0, "* occurs by ten cells");
    // each answer really has value *2 (census evaluator, another arena)
    let mut arena = Arena::new();
    let mut dv = DomineeringValues::new();
    let star2 = arena.star();
    for r in &ans.regions {
        let s: Shape = r.board.parse().unwrap();
        use partizan_census::ShapeValues;
        assert_eq!(dv.value(&mut arena, &s).unwrap(), star2, "{}", r.board);
    }
    // temperature and kind queries agree with the report
    let hot = atlas
        .query(&Query {
            min_temperature: Some("1".into()),
            limit: 0,
            ..Query::default()
        })
        .unwrap();
    let want: u64 = report
        .by_size
        .values()
        .flat_map(|t| t.hot_by_temperature.iter())
        .filter(|tc| {
            tc.temperature.parse::<partizan_core::Dyadic>().unwrap() >= partizan_core::Dyadic::ONE
        })
        .map(|tc| tc.regions)
        .sum();
    assert_eq!(hot.total, want);
    let tiny = atlas
        .query(&Query {
            kind: Some("tiny".into()),
            limit: 5,
            ..Query::default()
        })
        .unwrap();
    assert_eq!(
        tiny.total,
        report.by_size.values().map(|t| t.tinies).sum::<u64>()
    );
    assert!(atlas
        .query(&Query {
            value: Some("{1|".into()),
            ..Query::default()
        })
        .is_err());
    let none = atlas
        .query(&Query {
            value: Some("*40".into()),
            ..Query::default()
        })
        .unwrap();
    assert_eq!(none.total, 0);
}

/// The store's summary files answer queries exactly as the loaded atlas
/// does, and say so when they cannot.
#[test]
fn summaries_answer_like_the_atlas() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = DirStore::new(dir.path());
    let atlas = Atlas::build(&AtlasConfig::new(11), &mut store).unwrap();
    let mut answered = 0;
    for (value, kind, t) in [
        (Some("*"), None, None),
        (Some("*2"), None, None),
        (Some("^"), None, None),
        (Some("{1|-1}"), None, None),
        (Some("0"), None, None),
        (None, Some("tiny"), None),
        (None, Some("hot"), Some("1")),
        (None, Some("number"), None),
        (None, None, Some("3/2")),
    ] {
        for limit in [0, 5, 100, 5000] {
            for max in [None, Some(9)] {
                let q = Query {
                    value: value.map(String::from),
                    kind: kind.map(String::from),
                    min_temperature: t.map(String::from),
                    max_cells: max,
                    limit,
                };
                let full = atlas.query(&q).unwrap();
                if let Some(fast) = store.query(&q, 11).unwrap() {
                    assert_eq!(fast.total, full.total, "{q:?}");
                    assert_eq!(fast.regions, full.regions, "{q:?}");
                    answered += 1;
                } else {
                    assert!(
                        limit > partizan_census::atlas_store::SUMMARY_LIST,
                        "{q:?} refused with a small limit"
                    );
                }
            }
        }
    }
    assert!(answered >= 50, "{answered}");
}

#[test]
fn a_build_stopped_inside_a_level_resumes_to_the_same_atlas() {
    // the reference: one build, in memory, no parts
    let whole = tempfile::tempdir().unwrap();
    Atlas::build(&AtlasConfig::new(10), &mut DirStore::new(whole.path())).unwrap();
    // the same in parts of 300 classes (size 8 has 369: 2 parts; size 9
    // has 1,285: 5; size 10 has 4,655: 16), stopped after 9 computed
    // parts: inside size 10
    let dir = tempfile::tempdir().unwrap();
    let mut store = DirStore::new(dir.path());
    let cfg = AtlasConfig {
        threads: 2,
        part_size: 300,
        part_budget: Some(9),
        keep_entries: false,
        ..AtlasConfig::new(10)
    };
    let err = Atlas::build(&cfg, &mut store).unwrap_err();
    assert!(matches!(err, AtlasError::Stopped { parts: 9 }), "{err}");
    assert_eq!(
        store.levels_present().unwrap(),
        9,
        "size 9 finished, its parts gone"
    );
    let parts = |d: &std::path::Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".part-"))
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        parts(dir.path()),
        [
            "level-10.part-0-of-16.pzal",
            "level-10.part-0-of-16.pzal.seal",
            "level-10.part-1-of-16.pzal",
            "level-10.part-1-of-16.pzal.seal"
        ]
    );
    // a rerun takes the two parts from the store and computes the rest
    let resumed = Atlas::build(
        &AtlasConfig {
            part_budget: None,
            ..cfg
        },
        &mut store,
    )
    .unwrap();
    let loaded: Vec<bool> = resumed.stats.iter().map(|s| s.loaded).collect();
    assert_eq!(loaded, [[true; 9].as_slice(), &[false]].concat());
    assert_eq!(resumed.stats[9].per_thread.iter().sum::<u64>(), 4655 - 600);
    assert!(parts(dir.path()).is_empty());
    for n in 1..=10 {
        assert_eq!(
            level_files(dir.path(), n),
            level_files(whole.path(), n),
            "level {n}: the same bytes (level, summary, index) as the build without parts or stop"
        );
    }
    // a damaged part is refused, not believed
    let err = Atlas::build(
        &AtlasConfig {
            max_cells: 11,
            part_size: 5000,
            part_budget: Some(1),
            ..cfg
        },
        &mut store,
    )
    .unwrap_err();
    assert!(matches!(err, AtlasError::Stopped { parts: 1 }), "{err}");
    let p = dir.path().join("level-11.part-0-of-4.pzal");
    let mut bytes = std::fs::read(&p).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(&p, bytes).unwrap();
    let err = Atlas::build(
        &AtlasConfig {
            max_cells: 11,
            part_size: 5000,
            ..cfg
        },
        &mut store,
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("part-0-of-4") && err.contains("checksum"),
        "{err}"
    );
    // a part with a value forged, its checksum right but not the file its
    // seal names, is valued again, not believed: the level comes out right
    // (the damaged part above first made again by the build)
    std::fs::remove_file(&p).unwrap();
    let eleven = |budget| AtlasConfig {
        max_cells: 11,
        part_size: 5000,
        part_budget: budget,
        ..cfg
    };
    let _ = Atlas::build(&eleven(Some(1)), &mut store);
    let base = store.load_atlas(Some(10)).unwrap().values().len() as u32;
    let part = partizan_census::atlas_store::decode_level(
        &std::fs::read(&p).unwrap(),
        "part",
        11,
        Some((0, 4)),
        base,
    );
    let mut part = part.unwrap();
    let (first, second) = (part.entries[0].1, part.entries[1].1);
    assert_ne!(first, second, "two classes of different values to swap");
    part.entries[0].1 = second;
    std::fs::write(
        &p,
        partizan_census::atlas_store::encode_shard(&part, (0, 4)),
    )
    .unwrap();
    Atlas::build(&eleven(None), &mut store).unwrap();
    let whole11 = tempfile::tempdir().unwrap();
    Atlas::build(&AtlasConfig::new(11), &mut DirStore::new(whole11.path())).unwrap();
    let level11 = |d: &std::path::Path| std::fs::read(d.join("level-11.pzal")).unwrap();
    assert!(
        level11(dir.path()) == level11(whole11.path()),
        "level 11 as the build without parts"
    );
}

/// A level file deleted below the top one: the directory used to answer as
/// a smaller atlas, silently. Now every reader refuses it, naming the file.
#[test]
fn a_missing_level_below_the_top_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = DirStore::new(dir.path());
    Atlas::build(&AtlasConfig::new(6), &mut store).unwrap();
    assert_eq!(store.levels_present().unwrap(), 6);
    std::fs::remove_file(dir.path().join("level-03.pzal")).unwrap();
    let err = store.levels_present().unwrap_err();
    assert!(
        matches!(
            err,
            AtlasError::MissingLevel {
                missing: 3,
                top: 6,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("level-03.pzal"), "{err}");
    assert!(matches!(
        store.load_atlas(None),
        Err(AtlasError::MissingLevel { .. })
    ));
    assert!(matches!(
        store.load_atlas(Some(2)),
        Err(AtlasError::MissingLevel { .. })
    ));
    assert!(matches!(
        store.find(&Query::default()),
        Err(AtlasError::MissingLevel { .. })
    ));
    // the top level gone is only a smaller atlas
    Atlas::build(&AtlasConfig::new(6), &mut store).unwrap();
    assert_eq!(store.levels_present().unwrap(), 6);
    std::fs::remove_file(dir.path().join("level-06.pzal")).unwrap();
    assert_eq!(store.levels_present().unwrap(), 5);
}

/// `atlas build --threads 18446744073709551615` aborted on its workers'
/// allocation and `--shards 4294967296` ran shard after shard without end:
/// both are errors before any work.
#[test]
fn build_settings_past_their_limits_are_refused() {
    use partizan_census::atlas::{MAX_SHARDS, MAX_THREADS};
    for cfg in [
        AtlasConfig {
            threads: usize::MAX,
            ..AtlasConfig::new(4)
        },
        AtlasConfig {
            threads: MAX_THREADS + 1,
            ..AtlasConfig::new(4)
        },
        AtlasConfig {
            shards: Some(MAX_SHARDS + 1),
            ..AtlasConfig::new(4)
        },
        AtlasConfig {
            shards: Some(usize::MAX),
            ..AtlasConfig::new(4)
        },
    ] {
        let err = Atlas::build(&cfg, &mut NoStore).unwrap_err();
        assert!(matches!(err, AtlasError::Limit(_)), "{err}");
    }
    let ok = AtlasConfig {
        threads: 2,
        ..AtlasConfig::new(4)
    };
    assert!(Atlas::build(&ok, &mut NoStore).is_ok());
}

/// A store that raises `stop` when the build is about to value `at`, or
/// once it has been asked for level `on_load` (everything else: the
/// directory store's); `loads` lists the levels it was asked for.
struct StopAt {
    inner: DirStore,
    at: Option<partizan_census::atlas::BuildStep>,
    on_load: Option<usize>,
    loads: Vec<String>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl StopAt {
    /// The store over `dir` and the flag it raises (lowered).
    fn new(
        dir: &std::path::Path,
        at: Option<partizan_census::atlas::BuildStep>,
        on_load: Option<usize>,
    ) -> (StopAt, std::sync::Arc<std::sync::atomic::AtomicBool>) {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let store = StopAt {
            inner: DirStore::new(dir),
            at,
            on_load,
            loads: Vec::new(),
            stop: std::sync::Arc::clone(&stop),
        };
        (store, stop)
    }
}

impl partizan_census::atlas::AtlasStore for StopAt {
    fn load_level(
        &mut self,
        cells: usize,
        base: u32,
    ) -> Result<Option<partizan_census::atlas::Level>, AtlasError> {
        self.loads.push(format!("level {cells}"));
        let level = self.inner.load_level(cells, base);
        if self.on_load == Some(cells) {
            self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        level
    }
    fn save_level(&mut self, level: &partizan_census::atlas::Level) -> Result<(), AtlasError> {
        self.inner.save_level(level)
    }
    fn load_shard(
        &mut self,
        cells: usize,
        base: u32,
        k: usize,
        n: usize,
    ) -> Result<Option<partizan_census::atlas::Level>, AtlasError> {
        self.loads.push(format!("shard {k} of {n}"));
        self.inner.load_shard(cells, base, k, n)
    }
    fn save_shard(
        &mut self,
        level: &partizan_census::atlas::Level,
        k: usize,
        n: usize,
    ) -> Result<(), AtlasError> {
        self.inner.save_shard(level, k, n)
    }
    fn load_part(
        &mut self,
        cells: usize,
        base: u32,
        k: usize,
        n: usize,
    ) -> Result<Option<partizan_census::atlas::Level>, AtlasError> {
        self.inner.load_part(cells, base, k, n)
    }
    fn save_part(
        &mut self,
        part: &partizan_census::atlas::Level,
        k: usize,
        n: usize,
    ) -> Result<(), AtlasError> {
        self.inner.save_part(part, k, n)
    }
    fn remove_parts(&mut self, cells: usize, n: usize) -> Result<(), AtlasError> {
        self.inner.remove_parts(cells, n)
    }
    fn progress(&mut self, step: partizan_census::atlas::BuildStep) {
        if Some(step) == self.at {
            self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// A caller's stop flag ([`Atlas::build_until`]: what Python's memory
/// budget and Ctrl-C raise) ends a build between chunks with `Interrupted`,
/// the parts finished before it kept, the part it was valuing not; a rerun
/// resumes to the same bytes as a build never stopped.
#[test]
fn a_build_stopped_by_its_caller_resumes_to_the_same_atlas() {
    let whole = tempfile::tempdir().unwrap();
    Atlas::build(&AtlasConfig::new(10), &mut DirStore::new(whole.path())).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cfg = AtlasConfig {
        threads: 2,
        part_size: 1200,
        keep_entries: false,
        ..AtlasConfig::new(10)
    };
    // size 10 has 4,655 classes: 4 parts of 1,200; stopped in the third
    let third = partizan_census::atlas::BuildStep {
        cells: 10,
        shard: None,
        part: (2, 4),
    };
    let (mut store, stop) = StopAt::new(dir.path(), Some(third), None);
    let err = Atlas::build_until(&cfg, &mut store, stop).unwrap_err();
    assert!(matches!(err, AtlasError::Interrupted), "{err}");
    assert!(err.to_string().contains("a rerun resumes"), "{err}");
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("level-10"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "level-10.part-0-of-4.pzal",
            "level-10.part-0-of-4.pzal.seal",
            "level-10.part-1-of-4.pzal",
            "level-10.part-1-of-4.pzal.seal"
        ]
    );
    let resumed = Atlas::build(&cfg, &mut DirStore::new(dir.path())).unwrap();
    assert_eq!(resumed.stats[9].per_thread.iter().sum::<u64>(), 4655 - 2400);
    for n in 1..=10 {
        assert_eq!(
            level_files(dir.path(), n),
            level_files(whole.path(), n),
            "level {n}"
        );
    }
}

/// A stop raised while a size is grown ends the build in the growth step,
/// before the size is looked up or valued: a large level's growth (18
/// cells: 192.6 M classes from 50.1 M) is not something Ctrl-C or a
/// memory budget should have to wait out. The whole size's growth
/// (level 9, raised when level 8 is read) and a shard's (level 10 in 3
/// shards, raised when the merged level 10 is looked for); a rerun builds
/// the same atlas.
#[test]
fn a_build_stops_during_a_growth_step() {
    let whole = tempfile::tempdir().unwrap();
    Atlas::build(&AtlasConfig::new(10), &mut DirStore::new(whole.path())).unwrap();
    for (shards, built, stop_at) in [(None, 8, 8), (Some(3), 9, 10)] {
        let dir = tempfile::tempdir().unwrap();
        Atlas::build(&AtlasConfig::new(built), &mut DirStore::new(dir.path())).unwrap();
        let cfg = AtlasConfig {
            shards,
            ..AtlasConfig::new(10)
        };
        let (mut store, stop) = StopAt::new(dir.path(), None, Some(stop_at));
        let err = Atlas::build_until(&cfg, &mut store, stop).unwrap_err();
        assert!(matches!(err, AtlasError::Interrupted), "{err}");
        let asked: Vec<String> = (1..=stop_at).map(|n| format!("level {n}")).collect();
        // nothing looked up or valued past the stop: no shard asked for
        assert_eq!(store.loads, asked, "{shards:?}");
        let past = |n: usize| format!("level-{n:02}");
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| (built + 1..=10).any(|n| name.starts_with(&past(n))))
            .collect();
        assert!(names.is_empty(), "{names:?}");
        Atlas::build(&cfg, &mut DirStore::new(dir.path())).unwrap();
        for n in 1..=10 {
            assert_eq!(
                level_files(dir.path(), n),
                level_files(whole.path(), n),
                "level {n}, {shards:?}"
            );
        }
    }
}
