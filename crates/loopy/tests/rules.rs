//! Loopy rulesets, the part-by-part valuation and stops, against the
//! loopy engine's own whole-graph reading (brute-force twins) and
//! published values.
//!
//! Sources: Winning Ways 2nd ed. vol. 3 ch. 20 (Fox and Geese: the value
//! of the 8×8 start is 2 + over, after John Tromp and Jonathan Welton;
//! 1 + over on a board indefinitely long), Siegel, *Combinatorial Game
//! Theory* ch. VI (stoppers, sides).

use partizan_core::Arena;
use partizan_loopy::display::display;
use partizan_loopy::parse::parse;
use partizan_loopy::rules::{explore, fox_geese::FoxAndGeese, toads::BackslidingToads};
use partizan_loopy::stopper::{compare, simplest};
use partizan_loopy::stops::{stops, Stop};
use partizan_loopy::valuation::{strongly_connected, value_all};
use partizan_loopy::{Graph, LoopyError, LoopyRules, LoopyRuleset, Play, Relation};

use crate::common;
use common::random_graph_untrimmed;

const MAX: usize = 100_000;

fn g(core: &mut Arena, s: &str) -> Graph {
    parse(s, core, MAX).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn options<R: LoopyRuleset>(r: &R, board: &str, left: bool) -> Vec<String> {
    let p = r.parse(board).unwrap();
    let mut out = Vec::new();
    r.options(&p, left, &mut |q| out.push(r.format(&q)));
    out.sort();
    out
}

#[test]
fn fox_and_geese_moves() {
    let r = FoxAndGeese;
    // Geese step diagonally up only, into empty squares; the fox steps
    // diagonally either way.
    assert_eq!(
        options(&r, "F..|...|G.G", true),
        vec!["F..|.G.|..G", "F..|.G.|G.."]
    );
    assert_eq!(options(&r, "F..|...|G.G", false), vec!["...|.F.|G.G"]);
    assert_eq!(
        options(&r, "...|.F.|G.G", false),
        vec!["..F|...|G.G", "F..|...|G.G"]
    );
    // The fox blocks both geese; a goose on the top row cannot move.
    assert_eq!(options(&r, "...|.F.|G.G", true), Vec::<String>::new());
    assert_eq!(options(&r, "G.|.F", true), Vec::<String>::new());
    assert_eq!(r.format(&r.parse(" .f | g. ").unwrap()), ".F|G.");
    for bad in ["", "F|G|F", "G..|...", "FG|.", "F.|..G"] {
        assert!(matches!(r.parse(bad), Err(LoopyError::Board(_))), "{bad}");
    }
}

#[test]
fn backsliding_toads_moves() {
    let r = BackslidingToads;
    // Toads: forward one, jump one frog, back one; never a backward jump.
    assert_eq!(options(&r, ".TF.", true), vec!["..FT", "T.F."]);
    assert_eq!(options(&r, ".TF.", false), vec![".T.F", "FT.."]);
    assert_eq!(options(&r, "FT.", true), vec!["F.T"]);
    // Strips do not touch: no move crosses '|'.
    assert_eq!(options(&r, "T|.F", true), Vec::<String>::new());
    assert_eq!(options(&r, "T|.F", false), vec!["T|F."]);
    assert_eq!(r.format(&r.parse("t..f|tf.").unwrap()), "T..F|TF.");
    for bad in ["", "TX", "T||F"] {
        assert!(matches!(r.parse(bad), Err(LoopyError::Board(_))), "{bad}");
    }
    assert!(r.parse(&"T".repeat(65)).is_err());
}

#[test]
fn registry_names() {
    assert_eq!(LoopyRules::ALL.len(), 2);
    for &r in LoopyRules::ALL {
        assert_eq!(LoopyRules::from_name(r.name()), Some(r));
        for a in r.info().aliases {
            assert_eq!(LoopyRules::from_name(a), Some(r), "{a}");
        }
        for (board, _) in r.info().examples {
            match r.explore(board, MAX, &mut |_| {}) {
                Ok((graph, text)) => {
                    assert_eq!(&text, board);
                    assert!(!graph.is_empty());
                }
                // The 8×8 start: see fox_and_geese_8x8_is_2_over.
                Err(e) => assert!(board.len() > 60, "{board}: {e}"),
            }
        }
    }
    assert_eq!(
        LoopyRules::from_name("Fox-And-Geese"),
        Some(LoopyRules::FoxAndGeese)
    );
    assert_eq!(LoopyRules::from_name("domineering"), None);
    assert!(matches!(
        LoopyRules::FoxAndGeese.explore("F.......|.......G", 10, &mut |_| {}),
        Err(LoopyError::TooLarge { limit: 10 })
    ));
}

/// The part-by-part values against the simplest form of each position
/// read from the whole graph.
fn twin(graph: &Graph) {
    let v = value_all(graph, MAX, &mut |_, _| {}).unwrap();
    let mut forms = std::collections::HashSet::new();
    for x in 0..graph.len() as u32 {
        let mut whole = graph.clone();
        whole.set_root(x);
        let s = simplest(&whole, MAX).unwrap();
        let f = v.forms.form(v.values[x as usize]);
        assert_eq!(compare(&s, f, MAX).unwrap(), Relation::Equal, "node {x}");
        assert_eq!(s.len(), f.len(), "node {x}: simplest forms are unique");
        forms.insert(v.values[x as usize]);
    }
    assert_eq!(forms.len(), v.forms.len(), "one id per distinct value");
}

#[test]
fn part_by_part_values_match_the_whole_graph() {
    for board in [
        ".F..|....|....|G.G.",
        "..F.|....|.G.G",
        ".F.|...|G.G",
        "F.|..|G.",
    ] {
        let (graph, _) = LoopyRules::FoxAndGeese
            .explore(board, MAX, &mut |_| {})
            .unwrap();
        twin(&graph);
    }
    // Random stopper graphs.
    let mut rng = fastrand::Rng::with_seed(7);
    let mut done = 0;
    while done < 80 {
        let n = rng.u32(1..9);
        let gr = random_graph_untrimmed(&mut rng, n);
        let all: Vec<u32> = (0..n).collect();
        if gr.is_stopper_from(&all) {
            twin(&gr);
            done += 1;
        }
    }
}

#[test]
fn parts_come_after_the_parts_they_reach() {
    let (graph, _) = LoopyRules::FoxAndGeese
        .explore(".F..|....|....|G.G.", MAX, &mut |_| {})
        .unwrap();
    let parts = strongly_connected(&graph);
    let mut when = vec![usize::MAX; graph.len()];
    for (i, p) in parts.iter().enumerate() {
        for &x in p {
            assert_eq!(when[x as usize], usize::MAX, "each node in one part");
            when[x as usize] = i;
        }
    }
    for x in 0..graph.len() as u32 {
        for &y in graph.left(x).iter().chain(graph.right(x)) {
            assert!(when[y as usize] <= when[x as usize]);
        }
    }
    // Fox moves only inside a part: every part is one arrangement of geese.
    assert!(parts.iter().all(|p| p.len() <= 8));
}

#[test]
fn a_non_stopper_graph_is_refused() {
    let mut c = Arena::new();
    let dud = g(&mut c, "dud");
    assert!(matches!(
        value_all(&dud, MAX, &mut |_, _| {}),
        Err(LoopyError::NotStopper(..))
    ));
}

/// A position reached only with Left to move can still alternate forever
/// in a sum: `{{a{|{a|}}|}|}` is not a stopper although no play of it
/// alone, alternating from its root, goes on forever.
#[test]
fn stoppers_are_checked_at_every_position() {
    let mut c = Arena::new();
    let x = g(&mut c, "{{a{|{a|}}|}|}");
    assert!(!x.is_stopper());
    assert!(g(&mut c, "{{0|pass}|}").is_stopper());
}

#[test]
fn stops_of_stoppers() {
    let mut c = Arena::new();
    let n = |x: i64| Stop::Number(partizan_core::Dyadic::from_int(x));
    let cases: [(&str, Stop, Stop); 8] = [
        ("on", Stop::On, Stop::On),
        ("off", Stop::Off, Stop::Off),
        ("over", n(0), n(0)),
        ("upon", n(0), n(0)),
        ("2 + over", n(2), n(2)),
        (
            "{pass|3/2}",
            Stop::Number("3/2".parse().unwrap()),
            Stop::Number("3/2".parse().unwrap()),
        ),
        ("{1|-1}", n(1), n(-1)),
        ("{on|0}", Stop::On, n(0)),
    ];
    for (text, l, r) in cases {
        let s = simplest(&g(&mut c, text), MAX).unwrap();
        assert_eq!(stops(&s, &mut c).unwrap(), (l, r), "{text}");
    }
    // Short games: the stops of the normal-play engine.
    for text in ["{3||2*|1*}", "^*", "{2|-1/2}", "{1/2|{0|-4}}", "*2"] {
        let v = c.parse(text).unwrap();
        let s = simplest(&g(&mut c, text), MAX).unwrap();
        let (l, r) = stops(&s, &mut c).unwrap();
        assert_eq!(l, Stop::Number(c.left_stop(v)), "{text}");
        assert_eq!(r, Stop::Number(c.right_stop(v)), "{text}");
    }
    assert!(stops(&g(&mut c, "dud"), &mut c).is_err());
}

/// Winning Ways, 2nd ed., vol. 3, ch. 20: the 8×8 start (geese on a1, c1,
/// e1, g1; the fox on the far side, on the geese's colour) is 2 + over.
/// About 17 s in a release build (966,123 positions, 47,776 parts):
/// `cargo test --release -p partizan-loopy --test all rules:: -- --ignored`.
#[test]
#[ignore = "17 s in release; run with --ignored"]
fn fox_and_geese_8x8_is_2_over() {
    let start = ".F......|........|........|........|........|........|........|G.G.G.G.";
    let (graph, _) = LoopyRules::FoxAndGeese
        .explore(start, 2_000_000, &mut |_| {})
        .unwrap();
    assert_eq!(graph.len(), 966_123);
    let o = graph.outcome();
    assert_eq!((o.left_first, o.right_first), (Play::Win, Play::Loss));
    let v = value_all(&graph, 2_000, &mut |_, _| {}).unwrap();
    let mut c = Arena::new();
    let two_over = g(&mut c, "2 + over");
    let f = v.forms.form(v.values[0]);
    assert_eq!(
        compare(f, &two_over, MAX).unwrap(),
        Relation::Equal,
        "{}",
        display(f, &mut c)
    );
}

/// The explorer counts what it reaches, and refuses past the limit.
#[test]
fn explore_is_bounded() {
    let r = FoxAndGeese;
    let p = r.parse(".F..|....|....|G.G.").unwrap();
    assert_eq!(explore(&r, p, MAX, &mut |_| {}).unwrap().len(), 160);
    assert!(explore(&r, p, 159, &mut |_| {}).is_err());
}

/// CGSuite's own Fox and Geese values (aaron-siegel/cgsuite,
/// `lib/core/src/test/scala/org/cgsuite/lang/GameGridTest.scala`), its
/// coordinates `(row, col)` from the bottom left, geese moving down: here
/// row 1 is the top row as written (the geese move up), and two rows are
/// added behind the geese, where CGSuite's board goes on (a fox that gets
/// behind the geese is free for ever there as it is in CGSuite).
#[test]
fn cgsuites_fox_and_geese_values() {
    let mut c = Arena::new();
    // Geese on (3,1), (3,3), (3,5), (3,7), board width 8 (the ValuesTable
    // test): the fox's square, then CGSuite's value.
    let geese = "G.G.G.G.|........|........";
    let table = [
        ("F.......|........", "{6|2 + over}"),
        ("..F.....|........", "{2 + over|2}"),
        ("....F...|........", "{4|3||2}"),
        ("......F.|........", "{4 + over|3*}"),
        ("........|.F......", "2 + over"),
        ("........|...F....", "2"),
        ("........|.....F..", "3*"),
        ("........|.......F", "4 + over"),
        // FoxAndGeese({(4,2),(4,4),(4,6),(4,8)}, (1,1)).
        (
            "F.......|........|........|.G.G.G.G|........|........",
            "{4*|7/2}",
        ),
        // GenFoxAndGeese(boardWidth => 10) with five geese on row 3, fox (1,9).
        (
            "........F.|..........|G.G.G.G.G.|..........|..........",
            "{6 + over|5*}",
        ),
    ];
    for (fox, value) in table {
        let board = if fox.len() < 20 {
            format!("{fox}|{geese}")
        } else {
            fox.to_string()
        };
        let (graph, _) = LoopyRules::FoxAndGeese
            .explore(&board, MAX, &mut |_| {})
            .unwrap();
        let v = value_all(&graph, 2_000, &mut |_, _| {}).unwrap();
        let f = v.forms.form(v.values[0]);
        let want = g(&mut c, value);
        assert_eq!(
            compare(f, &want, MAX).unwrap(),
            Relation::Equal,
            "{board}: {} against CGSuite's {value}",
            display(f, &mut c)
        );
    }
    // A fox on the other colour never meets a goose: off.
    let (graph, _) = LoopyRules::FoxAndGeese
        .explore(
            ".F......|........|G.G.G.G.|........|........",
            MAX,
            &mut |_| {},
        )
        .unwrap();
    let v = value_all(&graph, 2_000, &mut |_, _| {}).unwrap();
    assert_eq!(display(v.forms.form(v.values[0]), &mut c), "off");
}
