//! The essays' figures for the Domineering census to eight cells, and the
//! Cram catalogue beside it.

use std::collections::BTreeMap;

use partizan_census::{
    board_census, BoardConfig, Census, CensusError, CramCensus, DomineeringValues, Invariant,
    Shape, ShapeValues,
};
use partizan_core::{Arena, GameId, ValueError};

fn census8() -> (Census, Arena) {
    let mut arena = Arena::new();
    let c = Census::domineering(8, &mut arena, &mut DomineeringValues::new()).unwrap();
    (c, arena)
}

#[test]
fn totals_to_eight_cells() {
    let (c, _) = census8();
    let t = &c.report.totals;
    assert_eq!(t.shapes, 1042);
    assert_eq!(t.numbers, 315);
    assert_eq!(t.hot, 727);
    assert_eq!(t.exact, 141);
    assert_eq!(t.contained, 209);
    assert_eq!(t.points, 505);
    assert_eq!((t.misses_above, t.misses_below), (53, 53));
    assert_eq!(t.count_between_stops, 619);
    assert_eq!(t.interval_meets_stops, 661);
    assert_eq!((t.strips, t.strips_exact), (15, 15));
    assert_eq!((t.count_zero, t.count_zero_exact), (121, 37));
    assert_eq!(t.exaggerations + t.understatements + t.opposite_sign, 90);
    assert_eq!(t.exaggerations, 72);
}

#[test]
fn errors_take_seven_values() {
    let (c, _) = census8();
    let keys: Vec<String> = c.report.errors.0.keys().map(|d| d.to_string()).collect();
    assert_eq!(keys, ["-1", "-1/2", "-1/4", "0", "1/4", "1/2", "1"]);
    // symmetric by the transpose
    let e = &c.report.errors.0;
    for (k, v) in e {
        assert_eq!(e.get(&k.checked_neg().unwrap()), Some(v));
    }
}

#[test]
fn by_size() {
    let (c, _) = census8();
    let got: BTreeMap<usize, (u64, u64, u64)> = c
        .report
        .by_size
        .iter()
        .map(|(k, t)| (*k, (t.numbers, t.exact, t.contained)))
        .collect();
    assert_eq!(got[&6].1, 10);
    assert_eq!(got[&7].1, 25);
    assert_eq!(got[&8].1, 96);
    assert_eq!(got[&6].2, 14);
    assert_eq!(got[&7].2, 37);
    assert_eq!(got[&8].2, 148);
    // below six cells the interval adds nothing
    for k in 1..=5 {
        assert_eq!(got[&k].1, got[&k].2, "size {k}");
    }
}

#[test]
fn hit_rates_by_what_the_count_says() {
    let (c, _) = census8();
    let one = &c.report.by_count["1"];
    let two = &c.report.by_count["2"];
    let zero = &c.report.by_count["0"];
    assert_eq!((zero.shapes, zero.exact), (121, 37));
    // "exact on 70 per cent" and "7 per cent"
    assert_eq!((100 * one.exact + one.shapes / 2) / one.shapes, 70);
    assert_eq!((100 * two.exact + two.shapes / 2) / two.shapes, 7);
    let one8 = &c.report.by_count_largest["1"];
    let two8 = &c.report.by_count_largest["2"];
    assert_eq!((one8.shapes, one8.exact), (86, 78));
    assert_eq!((two8.shapes, two8.exact), (42, 0));
}

#[test]
fn renders_and_writes() {
    let (c, _) = census8();
    let text = c.report.render_text();
    assert!(text.contains("1042 shapes"));
    let json: serde_json::Value = serde_json::from_str(&c.report.to_json().unwrap()).unwrap();
    for key in [
        "shapes",
        "numbers",
        "exact",
        "contained",
        "points",
        "hot",
        "count_between_stops",
        "interval_meets_stops",
    ] {
        assert!(json["totals"][key].is_u64(), "{key}");
        assert!(json["by_size"]["8"][key].is_u64(), "{key}");
    }
    let dir = std::env::temp_dir().join(format!("census-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("shapes.csv");
    partizan_census::write_csv(&path, &c.records).unwrap();
    let csv = std::fs::read_to_string(&path).unwrap();
    assert_eq!(csv.lines().count(), 1043);
    assert!(csv.lines().nth(1).unwrap().starts_with("1,.,0,true,0,0,"));
    // nothing left behind but the file itself
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn max_cells_bounds() {
    let mut arena = Arena::new();
    for bad in [0, Shape::MAX_CELLS + 1] {
        let e = Census::domineering(bad, &mut arena, &mut DomineeringValues::new());
        assert!(matches!(e, Err(CensusError::MaxCells { .. })));
        assert!(matches!(
            CramCensus::run(bad),
            Err(CensusError::MaxCells { .. })
        ));
    }
}

/// A value source that is wrong on one shape: the census must refuse.
struct Liar(DomineeringValues);

impl ShapeValues for Liar {
    type Error = ValueError;
    fn value(&mut self, arena: &mut Arena, shape: &Shape) -> Result<GameId, ValueError> {
        let g = self.0.value(arena, shape)?;
        if shape.to_text() == "..|.." {
            return arena.integer(1);
        }
        Ok(g)
    }
}

#[test]
fn a_wrong_value_is_refused_naming_the_shape() {
    let mut arena = Arena::new();
    let e = Census::domineering(4, &mut arena, &mut Liar(DomineeringValues::new()));
    match e {
        Err(CensusError::Invariant {
            invariant, shape, ..
        }) => {
            assert_eq!(invariant, Invariant::TransposeNegates);
            assert_eq!(shape, "..|..");
        }
        other => panic!("expected an invariant failure, got {other:?}"),
    }
}

/// `--max-regions 18446744073709551615` once sampled boards of every
/// region count up to it, without end; past the cap it is an error now.
#[test]
fn boards_of_too_many_regions_are_refused() {
    let (c, mut arena) = census8();
    for max_regions in [partizan_census::MAX_BOARD_REGIONS + 1, usize::MAX] {
        let cfg = BoardConfig {
            max_regions,
            ..BoardConfig::default()
        };
        let e = board_census(&c, &mut arena, &cfg).unwrap_err();
        assert!(matches!(e, CensusError::Config(_)), "{e}");
        assert!(e.to_string().contains("at most 16"), "{e}");
    }
}

#[test]
fn boards_are_reproducible() {
    let (c, mut arena) = census8();
    let cfg = BoardConfig {
        max_regions: 3,
        samples: 2000,
        seed: 42,
        exhaustive_limit: 2000,
        numbers_only: false,
    };
    let a = board_census(&c, &mut arena, &cfg).unwrap();
    let b = board_census(&c, &mut arena, &cfg).unwrap();
    assert_eq!(a.by_regions, b.by_regions);
    let one = &a.by_regions[&1];
    assert!(one.exhaustive);
    assert_eq!(
        (one.boards, one.numbers, one.exact, one.contained),
        (1042, 315, 141, 209)
    );
    assert_eq!(one.count_between_stops, 619);
    assert!(!a.by_regions[&2].exhaustive);
    assert_eq!(a.by_regions[&2].boards, 2000);
    // the essay's boards: number-valued regions only, pairs exhaustively
    let cfg = BoardConfig {
        max_regions: 2,
        samples: 0,
        seed: 42,
        exhaustive_limit: 315 * 315,
        numbers_only: true,
    };
    let n = board_census(&c, &mut arena, &cfg).unwrap();
    assert_eq!(n.catalogue, 315);
    let two = &n.by_regions[&2];
    assert!(two.exhaustive);
    assert_eq!(
        (two.boards, two.numbers, two.hot),
        (315 * 315, 315 * 315, 0)
    );
}

#[test]
fn cram_catalogue() {
    let c = CramCensus::run(8).unwrap();
    assert_eq!(c.report.totals.shapes, 533);
    let sizes: Vec<u64> = c.report.by_size.values().map(|t| t.shapes).collect();
    assert_eq!(sizes, [1, 1, 2, 5, 12, 35, 108, 369]);
    // one cell is 0, a domino is *
    assert_eq!(c.records[0].nim, 0);
    assert_eq!(c.records[1].nim, 1);
    assert!(c.report.render_text().contains("533 shapes"));
}

#[test]
fn census_to_ten_holds_its_invariants() {
    let mut arena = Arena::new();
    let mut values = DomineeringValues::new();
    let c = Census::domineering(10, &mut arena, &mut values).unwrap();
    let t = &c.report.totals;
    assert_eq!(t.shapes, 12871);
    assert_eq!(t.misses_above, t.misses_below);
    assert_eq!(values.stats().component_misses, 0);
    // the first eight sizes are the eight-cell census
    assert_eq!(c.report.by_size[&8].exact, 96);
    assert_eq!(t.strips, t.strips_exact);
}
