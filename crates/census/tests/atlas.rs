//! The value atlas against the census, an independent solver, its own
//! store, shards and queries.

use std::collections::BTreeMap;

use partizan_census::atlas::{Atlas, AtlasConfig, NoStore, Query, ValueKind};
use partizan_census::{classify, Census, DirStore, DomineeringValues, Group, Shape};
use partizan_core::Arena;
use partizan_games::Domineering;
use partizan_solve::{Savings, Solver};

fn build(n: usize, threads: usize) -> Atlas {
    let cfg = AtlasConfig {
        max_cells: n,
        threads,
        shard: None,
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

/// Kind totals by size from the solve crate's general solver on the games
/// crate's Domineering (move generation, regions, memo and symmetry all its
/// own), for every region of 9 and 10 cells.
#[test]
fn totals_at_nine_and_ten_cells_match_an_independent_solver() {
    let atlas = build(10, 2);
    let report = atlas.report(5);
    let rules = Domineering;
    let mut solver = Solver::new(&rules, Savings::ALL).unwrap();
    let mut arena = Arena::new();
    for n in [9usize, 10] {
        let mut fam: BTreeMap<String, u64> = BTreeMap::new();
        let mut regions = 0u64;
        let cat = partizan_census::Catalogue::build(Group::RowPreserving, n);
        for s in cat.of_size(n) {
            let g = solver.value(&mut arena, &s.to_board()).unwrap();
            *fam.entry(classify(&mut arena, g).label()).or_default() += 1;
            regions += 1;
        }
        let t = &report.by_size[&n];
        assert_eq!(t.regions, regions, "regions at {n}");
        let mut mine: BTreeMap<String, u64> = BTreeMap::new();
        for (s, v) in atlas.regions().filter(|(s, _)| s.len() == n) {
            let _ = s;
            *mine
                .entry(atlas.values()[v as usize].facts.kind.label())
                .or_default() += 1;
        }
        assert_eq!(mine, fam, "kinds at {n} cells");
        let ints = fam.get("integer").copied().unwrap_or(0);
        assert_eq!(t.integers, ints);
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
        max_cells: 8,
        threads: 2,
        shard: None,
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
            max_cells: 9,
            threads: 1,
            shard: Some((k, 3)),
        };
        Atlas::build(&cfg, &mut ps).unwrap();
    }
    assert_eq!(ps.levels_present(), 8);
    ps.merge_shards(9, 3).unwrap();
    let a = std::fs::read(whole.path().join("level-09.pzal")).unwrap();
    let b = std::fs::read(parts.path().join("level-09.pzal")).unwrap();
    assert_eq!(a, b, "merged shards = the unsharded level, byte for byte");
    // a missing shard is an error
    std::fs::remove_file(parts.path().join("level-09.shard-1-of-3.pzal")).unwrap();
    assert!(ps.merge_shards(9, 3).is_err());
    assert!(Atlas::build(
        &AtlasConfig {
            max_cells: 9,
            threads: 1,
            shard: Some((3, 3))
        },
        &mut NoStore
    )
    .is_err());
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
