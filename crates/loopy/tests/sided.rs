//! Sides by their definition (the comparison of sides, a Büchi game) and
//! by deleting edges, against sidling, the survival order of stoppers and
//! CGSuite's sided values.
//!
//! Sources: CGSuite's `SidedValueTestCase.scala` and `GameStripTest.scala`
//! (aaron-siegel/cgsuite), Winning Ways ch. 11.

use crate::common;

use common::{random_graph, random_stoppers};
use partizan_core::Arena;
use partizan_loopy::display::display;
use partizan_loopy::parse::parse;
use partizan_loopy::sided::{side_by_deletion, side_eq, side_le};
use partizan_loopy::sides::{side, Side};
use partizan_loopy::stopper::{compare, ge};
use partizan_loopy::{Graph, LoopyRules, Relation};

const MAX: usize = 100_000;

fn g(core: &mut Arena, s: &str) -> Graph {
    parse(s, core, MAX).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn sides_of(core: &mut Arena, x: &Graph) -> (Option<String>, Option<String>) {
    let on = side_by_deletion(x, Side::On, MAX).unwrap();
    let off = side_by_deletion(x, Side::Off, MAX).unwrap();
    (
        on.map(|s| display(&s, core)),
        off.map(|s| display(&s, core)),
    )
}

#[test]
fn cgsuites_sided_values() {
    let mut c = Arena::new();
    for (text, on, off) in [
        // SidedValueTestCase: dud = on & off; {0|{dud|},*} = ^ & v*.
        ("dud", "on", "off"),
        ("{0|{dud|},*}", "^", "v*"),
        // Winning Ways ch. 11: tis = 1 & 0, tisn = 0 & -1.
        ("tis", "1", "0"),
        ("tisn", "0", "-1"),
        ("a{{|a}|}", "1", "0"),
    ] {
        let x = g(&mut c, text);
        let (a, b) = sides_of(&mut c, &x);
        assert_eq!(a.as_deref(), Some(on), "{text}");
        assert_eq!(b.as_deref(), Some(off), "{text}");
    }
}

#[test]
fn the_comparison_of_sides() {
    let mut c = Arena::new();
    let (dud, on, off) = (g(&mut c, "dud"), g(&mut c, "on"), g(&mut c, "off"));
    assert!(side_eq(&dud, &on, Side::On));
    assert!(side_eq(&dud, &off, Side::Off));
    assert!(!side_le(&dud, &off, Side::On));
    assert!(!side_le(&on, &dud, Side::Off));
    // For stoppers, both sides are the survival order.
    let mut rng = fastrand::Rng::with_seed(11);
    let stoppers = random_stoppers(&mut rng, 25, 6);
    for x in &stoppers {
        for y in &stoppers {
            let survival = ge(y, x, MAX).unwrap();
            assert_eq!(side_le(x, y, Side::On), survival);
            assert_eq!(side_le(x, y, Side::Off), survival);
        }
        assert!(side_le(x, &on, Side::On) && side_le(&off, x, Side::Off));
    }
}

/// Random games, stoppers or not: where sidling settles, deleting edges
/// finds the same sides; every side found is a stopper equal to the game
/// on its side; and onside >= offside.
#[test]
fn deletion_agrees_with_sidling() {
    let mut rng = fastrand::Rng::with_seed(5);
    let mut compared = 0;
    for _ in 0..300 {
        let n = rng.u32(1..6);
        let x = random_graph(&mut rng, n);
        for which in [Side::On, Side::Off] {
            let by_deletion = side_by_deletion(&x, which, MAX).unwrap();
            if let Some(s) = &by_deletion {
                assert!(s.is_stopper());
                assert!(side_eq(s, &x, which));
            }
            if let (Some(s), Some((t, _))) = (&by_deletion, side(&x, which, 30, MAX).unwrap()) {
                assert_eq!(compare(s, &t, MAX).unwrap(), Relation::Equal);
                compared += 1;
            }
        }
        if let (Some(a), Some(b)) = (
            side_by_deletion(&x, Side::On, MAX).unwrap(),
            side_by_deletion(&x, Side::Off, MAX).unwrap(),
        ) {
            assert!(ge(&a, &b, MAX).unwrap(), "onside >= offside");
        }
    }
    assert!(compared > 200, "{compared}");
}

/// Backsliding Toads and Frogs: small strips by deletion against sidling
/// where the rounds settle.
#[test]
fn backsliding_toads_sides() {
    let mut c = Arena::new();
    for (board, on, off) in [
        ("T..F", "*", "*"),
        ("T...F", "0", "0"),
        ("TT..F", "on", "on"),
        ("T..FF", "off", "off"),
        ("T.T.F", "on", "on"),
        ("TT..FF", "*", "*"),
    ] {
        let (x, _) = LoopyRules::BackslidingToads
            .explore(board, MAX, &mut |_| {})
            .unwrap();
        let (a, b) = sides_of(&mut c, &x);
        assert_eq!(
            (a.as_deref(), b.as_deref()),
            (Some(on), Some(off)),
            "{board}"
        );
    }
    let (x, _) = LoopyRules::BackslidingToads
        .explore("T..F", MAX, &mut |_| {})
        .unwrap();
    let (s, _) = side(&x, Side::On, 60, MAX).unwrap().unwrap();
    assert_eq!(display(&s, &mut c), "*");
}

/// CGSuite's GameStripTest: Backsliding Toads and Frogs `ttt..fff` is
/// `{on||0|-1/2} & {1/2|0||off}` (560 positions; minutes in release:
/// `cargo test --release -p partizan-loopy --test all sided:: -- --ignored`).
#[test]
#[ignore = "minutes in release; run with --ignored"]
fn cgsuites_ttt_ff_f() {
    let mut c = Arena::new();
    let (x, _) = LoopyRules::BackslidingToads
        .explore("TTT..FFF", MAX, &mut |_| {})
        .unwrap();
    let on = side_by_deletion(&x, Side::On, MAX).unwrap().unwrap();
    let off = side_by_deletion(&x, Side::Off, MAX).unwrap().unwrap();
    let (want_on, want_off) = (g(&mut c, "{on||0|-1/2}"), g(&mut c, "{1/2|0||off}"));
    assert_eq!(compare(&on, &want_on, MAX).unwrap(), Relation::Equal);
    assert_eq!(compare(&off, &want_off, MAX).unwrap(), Relation::Equal);
}

/// The two-graph survival pass against the all-pairs table.
#[test]
fn stopper_le_is_the_survival_order() {
    let mut rng = fastrand::Rng::with_seed(23);
    let stoppers = random_stoppers(&mut rng, 30, 7);
    for x in &stoppers {
        for y in &stoppers {
            assert_eq!(
                partizan_loopy::stopper::stopper_le(x, y),
                ge(y, x, MAX).unwrap()
            );
        }
    }
}
