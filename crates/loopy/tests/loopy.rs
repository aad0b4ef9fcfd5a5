//! Loopy games against published values and brute-force twins.
//!
//! Sources on each line: CGSuite's own test cases
//! (`lib/core/src/test/scala/org/cgsuite/lang/CanonicalStopperTestCase.scala`
//! and `SidedValueTestCase.scala`, aaron-siegel/cgsuite), Winning Ways
//! ch. 11 ("Games Infinite and Indefinite"), Siegel, *Combinatorial Game
//! Theory* ch. VI.

use partizan_core::Arena;
use partizan_loopy::display::display;
use partizan_loopy::parse::parse;
use partizan_loopy::stopper::{as_short, compare, ge, simplest};
use partizan_loopy::{Graph, Play, Relation};

use crate::common;
use common::random_stoppers;

const MAX: usize = 100_000;

fn g(core: &mut Arena, s: &str) -> Graph {
    parse(s, core, MAX).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn form(core: &mut Arena, s: &str) -> String {
    let x = g(core, s);
    assert!(x.is_stopper(), "{s} is a stopper");
    let y = simplest(&x, MAX).unwrap();
    display(&y, core)
}

fn rel(core: &mut Arena, a: &str, b: &str) -> Relation {
    let (x, y) = (g(core, a), g(core, b));
    compare(&x, &y, MAX).unwrap()
}

#[test]
fn named_stoppers_print_by_name() {
    let mut c = Arena::new();
    // CanonicalStopperTestCase: {pass|} is on, {|pass} off, {0|pass} over.
    assert_eq!(form(&mut c, "{pass|}"), "on");
    assert_eq!(form(&mut c, "{|pass}"), "off");
    assert_eq!(form(&mut c, "{0|pass}"), "over");
    // WW ch. 11: under = {pass|0}, upon = {pass|*}.
    assert_eq!(form(&mut c, "{pass|0}"), "under");
    assert_eq!(form(&mut c, "{pass|*}"), "upon");
    for name in ["on", "off", "over", "under", "upon"] {
        assert_eq!(form(&mut c, name), name);
    }
    // Sums simplify: over + over = over (idempotent, CanonicalStopperTestCase),
    // on + on = on, and upon + * is upon* = {0, upon* | 0} (WW ch. 11).
    assert_eq!(form(&mut c, "over + over"), "over");
    assert_eq!(form(&mut c, "on + on + 3"), "on");
    assert_eq!(form(&mut c, "upon + *"), "{0,pass|0}");
    // A position that only leads back to itself through * is *.
    assert_eq!(form(&mut c, "a{0|{*|a}}"), "*");
    // Two positions that are each other's Right option are one: over.
    assert_eq!(form(&mut c, "a{0|{0|a}}"), "over");
    assert_eq!(form(&mut c, "a{0,{-1|}|b{0|a}}"), "over");
}

#[test]
fn stoppers_and_non_stoppers() {
    let mut c = Arena::new();
    for s in [
        "on",
        "off",
        "over",
        "under",
        "upon",
        "{pass|3/2}",
        "a{0||||0|||a|*||*}",
    ] {
        assert!(g(&mut c, s).is_stopper(), "{s}");
    }
    // dud, tis = 1 & 0 and Bach's Carousel are not stoppers
    // (SidedValueTestCase: IsStopper false).
    for s in [
        "dud",
        "tis",
        "tisn",
        "a{{|a}|}",
        "a{0,{1|1,{*,{1+*|1+*,a}|*}}|0}",
        "on + off",
    ] {
        assert!(!g(&mut c, s).is_stopper(), "{s}");
    }
}

#[test]
fn outcomes_with_draws() {
    let mut c = Arena::new();
    let o = |c: &mut Arena, s: &str| g(c, s).outcome();
    // SidedValueTestCase: dud's outcome class is D (a draw either way).
    assert_eq!(o(&mut c, "dud").class(), "D");
    // Bach's Carousel: N (SidedValueTestCase).
    assert_eq!(o(&mut c, "a{0,{1|1,{*,{1+*|1+*,a}|*}}|0}").class(), "N");
    // tis = a{{|a}|}: Left moving first plays forever, Right moving first
    // has no move (CGSuite's class PHat).
    let t = o(&mut c, "a{{|a}|}");
    assert_eq!((t.left_first, t.right_first), (Play::Draw, Play::Loss));
    // {0|{dud|},*}: Left moving first wins; Right moving first can only
    // draw (CGSuite's NHat).
    let t = o(&mut c, "{0|{dud|},*}");
    assert_eq!((t.left_first, t.right_first), (Play::Win, Play::Draw));
    // on: Left always has a move, Right never: L. off: R. over: Left
    // moving first moves to 0 and wins; Right moving first passes forever
    // into over... but then Left moves to 0: L.
    assert_eq!(o(&mut c, "on").class(), "L");
    assert_eq!(o(&mut c, "off").class(), "R");
    assert_eq!(o(&mut c, "over").class(), "L");
    assert_eq!(o(&mut c, "under").class(), "R");
    // on + off = dud's play: a draw either way (WW ch. 11).
    assert_eq!(o(&mut c, "on + off").class(), "D");
}

#[test]
fn order_of_named_values() {
    let mut c = Arena::new();
    // WW ch. 11 / Siegel VI: on is the largest stopper, off the least;
    // over is positive but less than every positive number; under = -over.
    for x in ["0", "5", "-3", "1/2", "^", "*", "over", "upon", "{2|-2}"] {
        assert_eq!(rel(&mut c, "on", x), Relation::Greater, "on vs {x}");
        assert_eq!(rel(&mut c, "off", x), Relation::Less, "off vs {x}");
    }
    assert_eq!(rel(&mut c, "over", "0"), Relation::Greater);
    for k in [1, 2, 4, 64, 1024] {
        let x = format!("1/{k}");
        assert_eq!(rel(&mut c, "over", &x), Relation::Less, "over vs {x}");
    }
    assert_eq!(rel(&mut c, "under", "-over"), Relation::Equal);
    assert_eq!(rel(&mut c, "under", "0"), Relation::Less);
    assert_eq!(rel(&mut c, "upon", "0"), Relation::Greater);
    // * is confused with 0 and so is upon* (= upon + *).
    assert_eq!(rel(&mut c, "*", "0"), Relation::Confused);
}

#[test]
fn idempotents_and_sums() {
    let mut c = Arena::new();
    // CanonicalStopperTestCase: on, off, over, Miny(on) = {{pass|}|0||0} and
    // Tiny(over) = {0|||0||pass|0} are idempotent: G + G = G; 3/2under
    // = {pass|3/2} is not.
    for s in ["on", "off", "over", "{{pass|}|0||0}", "{0|||0||pass|0}"] {
        let twice = format!("({s}) + ({s})");
        assert_eq!(rel(&mut c, &twice, s), Relation::Equal, "{s}");
    }
    assert_ne!(
        rel(&mut c, "{pass|3/2} + {pass|3/2}", "{pass|3/2}"),
        Relation::Equal
    );
    // {pass|3/2} is 3/2under, {0|||0||pass|0} is Tiny(over) = {0||0|under}.
    assert_eq!(rel(&mut c, "{pass|3/2}", "3/2 + under"), Relation::Equal);
    assert_eq!(
        rel(&mut c, "{0|||0||pass|0}", "{0||0|under}"),
        Relation::Equal
    );
    // on + 5 = on, off - 7 = off, over + 1 > 1.
    assert_eq!(rel(&mut c, "on + 5", "on"), Relation::Equal);
    assert_eq!(rel(&mut c, "off - 7", "off"), Relation::Equal);
    assert_eq!(rel(&mut c, "over + 1", "1"), Relation::Greater);
}

#[test]
fn short_games_keep_their_canonical_forms() {
    // A short game is a stopper; through this engine its form is the
    // normal-play canonical form.
    let mut c = Arena::new();
    for s in [
        "0",
        "1/2",
        "^*",
        "{2|0||-1}",
        "{1|1}",
        "+-1",
        "{0,*|0,*}",
        "{3|{1|-1}}",
        "v3*2",
    ] {
        let x = g(&mut c, s);
        let y = simplest(&x, MAX).unwrap();
        let short = as_short(&y, &mut c).unwrap().expect("short");
        let v = c.parse(s).unwrap();
        assert_eq!(short, v, "{s}");
        assert_eq!(display(&y, &mut c), c.display(v), "{s}");
    }
}

#[test]
fn printed_forms_parse_back() {
    let mut c = Arena::new();
    for s in [
        "a{0||||0|||a|*||*}",
        "{0|{0||||-1|||-1+*,a{0||0|a|||-1+*||||-1+*}||-2|b{-2,{-1,-1+*||-1+*|b|||-2}|-2}}}",
        "{pass|3/2}",
        "a{0|{*|a}}",
        "{0,on|over}",
    ] {
        let x = g(&mut c, s);
        let y = simplest(&x, MAX).unwrap();
        let text = display(&y, &mut c);
        let z = g(&mut c, &text);
        assert_eq!(
            compare(&x, &z, MAX).unwrap(),
            Relation::Equal,
            "{s} printed {text}"
        );
        // Simplest forms are fixed points.
        let again = display(&simplest(&z, MAX).unwrap(), &mut c);
        assert_eq!(again, text, "{s}");
    }
}

#[test]
fn random_stoppers_obey_the_laws() {
    let mut rng = fastrand::Rng::with_seed(39);
    let stoppers = random_stoppers(&mut rng, 60, 6);
    for x in &stoppers {
        // The table's G >= H against a search of the one sum G - H, and
        // G - G survived by both players (G >= G).
        let diff = x.sum(&x.neg(), MAX).unwrap().outcome();
        assert_ne!(diff.right_first, Play::Win, "Left survives G - G");
        assert_ne!(diff.left_first, Play::Win, "Right survives G - G");
        let s = simplest(x, MAX).unwrap();
        assert_eq!(compare(x, &s, MAX).unwrap(), Relation::Equal);
        assert!(s.len() <= x.len());
        let again = simplest(&s, MAX).unwrap();
        assert_eq!(again.len(), s.len());
    }
    for (i, x) in stoppers.iter().enumerate() {
        for y in &stoppers[i + 1..i + 8.min(stoppers.len() - i)] {
            let by_table = ge(x, y, MAX).unwrap();
            let sum = x.sum(&y.neg(), MAX).unwrap();
            let by_search = sum.outcome().right_first != Play::Win;
            assert_eq!(by_table, by_search);
        }
    }
    // Transitivity.
    for a in &stoppers[..20] {
        for b in &stoppers[..20] {
            for c in &stoppers[..20] {
                if ge(a, b, MAX).unwrap() && ge(b, c, MAX).unwrap() {
                    assert!(ge(a, c, MAX).unwrap());
                }
            }
        }
    }
}

#[test]
fn bad_notation_is_named() {
    let mut c = Arena::new();
    for (s, needle) in [
        ("{pass|", "unclosed"),
        ("a", "unknown name"),
        ("pass", "pass outside braces"),
        ("{0|1|2}", "ambiguous"),
        ("{0 1}", "expected"),
        ("", "empty"),
    ] {
        let e = parse(s, &mut c, MAX).unwrap_err().to_string();
        assert!(e.contains(needle), "{s}: {e}");
    }
}

#[test]
fn sides_by_sidling() {
    use partizan_loopy::sides::{side, Side};
    let mut c = Arena::new();
    let mut sides = |s: &str| -> Option<(String, String)> {
        let x = g(&mut c, s);
        let on = side(&x, Side::On, 60, MAX).unwrap()?;
        let off = side(&x, Side::Off, 60, MAX).unwrap()?;
        Some((display(&on.0, &mut c), display(&off.0, &mut c)))
    };
    // SidedValueTestCase: dud = on & off, tis = 1 & 0, {0|{dud|},*} = ^ & v*.
    for (s, on, off) in [
        ("dud", "on", "off"),
        ("a{{|a}|}", "1", "0"),
        ("{0|{dud|},*}", "^", "v*"),
    ] {
        assert_eq!(sides(s), Some((on.to_string(), off.to_string())), "{s}");
    }
    // Bach's Carousel is not stopper-sided (SidedValueTestCase: its sides
    // are not stoppers): sidling does not settle within 60 rounds.
    assert_eq!(sides("a{0,{1|1,{*,{1+*|1+*,a}|*}}|0}"), None);
    // A stopper is its own onside and offside (its positions start at
    // their own values; from on, over would pass through 1, 1/2, 1/4, ...).
    assert_eq!(sides("over"), Some(("over".into(), "over".into())));
    assert_eq!(sides("a{0|{*|a}}"), Some(("*".into(), "*".into())));
}

#[test]
fn cgsuites_game_test_loopy_values() {
    // lib/core/src/test/scala/org/cgsuite/lang/GameTest.scala and
    // CanonicalStopperTestCase.scala (aaron-siegel/cgsuite).
    let mut c = Arena::new();
    // uponth := {0||0|0,pass} is ^<on>; {0|uponth||-uponth} prints as
    // {0|^<on>||v<on>}: a stopper already in simplest form.
    let uponth = "{0||0|0,pass}";
    assert!(g(&mut c, uponth).is_stopper());
    let x = format!("{{{{0|{uponth}}}|-{uponth}}}");
    let fx = form(&mut c, &x);
    assert_eq!(rel(&mut c, &fx, &x), Relation::Equal);
    // ^.Pow({1|pass}) = {0||0,pass|0,*} and {0||0|-2}.Pow(on) =
    // {0||0|-2,pass}: stoppers whose simplest forms are themselves.
    for s in [
        "{0||0,pass|0,*}",
        "{0||0|-2,pass}",
        "{pass|*,^}",
        "{^|*,pass}",
    ] {
        let f = form(&mut c, s);
        assert_eq!(rel(&mut c, &f, s), Relation::Equal, "{s}");
        let (nf, ns) = (g(&mut c, &f).len(), g(&mut c, s).len());
        assert!(nf <= ns, "{s}: {f}");
    }
    // StopperSidedValue: ^<on> + {0|upon} = {0||0|^<on>*} & {0|^[on]}
    // (upon = ^[on]), outcome L.
    use partizan_loopy::sides::{side, Side};
    let sum = g(&mut c, &format!("{uponth} + {{0|upon}}"));
    assert!(!sum.is_stopper());
    assert_eq!(sum.outcome().class(), "L");
    let on = side(&sum, Side::On, 60, MAX)
        .unwrap()
        .expect("onside settles")
        .0;
    let off = side(&sum, Side::Off, 60, MAX)
        .unwrap()
        .expect("offside settles")
        .0;
    let want_on = g(&mut c, &format!("{{0||0|{uponth} + *}}"));
    let want_off = g(&mut c, "{0|upon}");
    assert_eq!(compare(&on, &want_on, MAX).unwrap(), Relation::Equal);
    assert_eq!(compare(&off, &want_off, MAX).unwrap(), Relation::Equal);
}
