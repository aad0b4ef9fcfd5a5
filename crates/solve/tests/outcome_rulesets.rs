//! Outcomes of whole rectangles of the other rulesets against independent
//! sources: Cram against published nimbers (`data/cram_nimbers.txt`) and
//! the symmetry strategy (an even side: P when both are even, N otherwise);
//! Clobber checkerboards against published outcomes (Grossman 2004 and
//! MCGS, `data/clobber_published.txt`) and positions of 6 x 6 Clobber MCGS
//! decided (`data/clobber_6x6_mcgs.txt`); NoGo on empty rectangles against
//! Du, Wei and Müller's outcomes (`data/nogo_published.txt`); Kōnane and
//! Clobber against the
//! outcome of the exact canonical value (the value solver, another
//! algorithm). The small ones run always; the long ones (the README's
//! table) are behind `#[ignore]`:
//!
//! ```text
//! cargo test --release -p partizan-solve --test all outcome_rulesets:: -- --ignored --nocapture
//! ```

use partizan_core::{Arena, Outcome};
use partizan_games::{Clobber, Cram, Konane, NoGo, Ruleset};
use partizan_solve::outcome::Convention;
use partizan_solve::search::{solve, Control, Knowledge, MoveOrdering, SearchConfig};
use partizan_solve::{Savings, Solver};

const CRAM: &str = include_str!("data/cram_nimbers.txt");
const CLOBBER: &str = include_str!("data/clobber_published.txt");
const CLOBBER_6X6: &str = include_str!("data/clobber_6x6_mcgs.txt");
const NOGO: &str = include_str!("data/nogo_published.txt");

/// The data lines of a tab-separated table, split into fields.
fn rows(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
}

/// The published Clobber checkerboard outcomes: (rows, columns, class).
fn clobber_table() -> Vec<(usize, usize, String)> {
    rows(CLOBBER)
        .map(|f| {
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].to_string(),
            )
        })
        .collect()
}

/// Check every board of a table of published outcome classes (rows, columns,
/// class) of `min_cells` to `max_cells` cells, the board of a rectangle
/// made by `board`; how many there were.
fn check_published<R: Knowledge>(
    rules: &R,
    table: &str,
    board: fn(usize, usize) -> String,
    min_cells: usize,
    max_cells: usize,
) -> usize {
    let mut n = 0;
    for f in rows(table) {
        let (h, w): (usize, usize) = (f[0].parse().unwrap(), f[1].parse().unwrap());
        if h * w < min_cells || h * w > max_cells {
            continue;
        }
        assert_eq!(
            searched(rules, &board(h, w)),
            f[2],
            "{} {h} x {w}",
            rules.name()
        );
        n += 1;
    }
    n
}

/// The published Cram nimbers: (rows, columns, nimber).
fn cram_table() -> Vec<(usize, usize, u32)> {
    rows(CRAM)
        .map(|f| {
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

fn empty(h: usize, w: usize) -> String {
    vec![".".repeat(w); h].join("|")
}

fn checkerboard(h: usize, w: usize) -> String {
    (0..h)
        .map(|r| {
            (0..w)
                .map(|c| if (r + c) % 2 == 0 { 'x' } else { 'o' })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("|")
}

/// The search's outcome class of `text`, on two threads.
fn searched<R: Knowledge>(rules: &R, text: &str) -> &'static str {
    let b = rules.parse(text).unwrap();
    let mut cfg = SearchConfig::for_ruleset(rules, Convention::Normal);
    cfg.threads = 2;
    let rep = solve(rules, &b, &cfg, &Control::default()).unwrap();
    let (nodes, secs) = (rep.total().nodes, rep.elapsed.as_secs_f64());
    eprintln!(
        "{} {text}: {} ({nodes} nodes, {secs:.2} s)",
        rules.name(),
        rep.outcomes().expect("both first players searched").class()
    );
    rep.outcomes().expect("both first players searched").class()
}

/// The outcome class of the exact canonical value of `text`.
fn by_value<R: Knowledge>(rules: &R, text: &str) -> &'static str {
    let b = rules.parse(text).unwrap();
    let mut arena = Arena::new();
    let g = Solver::new(rules, Savings::ALL)
        .unwrap()
        .value(&mut arena, &b)
        .unwrap();
    match arena.outcome(g) {
        Outcome::L => "L",
        Outcome::R => "R",
        Outcome::N => "N",
        Outcome::P => "P",
    }
}

fn cram_published(max_cells: usize, min_cells: usize) -> usize {
    let mut n = 0;
    for (h, w, nimber) in cram_table() {
        if h * w > max_cells || h * w < min_cells {
            continue;
        }
        let want = if nimber == 0 { "P" } else { "N" };
        assert_eq!(searched(&Cram, &empty(h, w)), want, "Cram {h} x {w}");
        n += 1;
    }
    n
}

#[test]
fn cram_rectangles_match_the_symmetry_strategy_and_published_nimbers() {
    // An even side: the mirror strategy decides (P if both are even).
    for h in 1..=4 {
        for w in h..=6 {
            if (h * w) % 2 == 1 || h * w > 20 {
                continue;
            }
            let want = if h % 2 == 0 && w % 2 == 0 { "P" } else { "N" };
            assert_eq!(searched(&Cram, &empty(h, w)), want, "Cram {h} x {w}");
        }
    }
    assert_eq!(cram_published(25, 0), 4);
}

#[test]
fn konane_and_clobber_rectangles_match_their_values() {
    for (h, w) in [(2, 3), (3, 3), (3, 4), (4, 4)] {
        let mut t = checkerboard(h, w);
        // Kōnane opens with two adjacent stones taken from the middle (the
        // ruleset's own rectangle, which tables over rectangles search).
        let k = Konane.rectangle(h, w).unwrap();
        let (r, c) = ((h - 1) / 2, (w - 1) / 2);
        let mut rows: Vec<Vec<char>> = t.split('|').map(|s| s.chars().collect()).collect();
        rows[r][c] = '.';
        rows[r][c + 1] = '.';
        let opening: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
        assert_eq!(k, opening.join("|"));
        assert_eq!(searched(&Konane, &k), by_value(&Konane, &k), "Kōnane {k}");
        if h * w <= 12 {
            t = checkerboard(h, w);
            assert_eq!(searched(&Clobber, &t), by_value(&Clobber, &t), "{t}");
        }
    }
}

/// NoGo's published outcomes to 16 cells: 1 x 1 to 1 x 16 (Du and
/// Müller) and the rectangles 2 x 2 to 2 x 8, 3 x 3 to 3 x 5 and 4 x 4 (Du,
/// Wei and Müller).
#[test]
fn nogo_rectangles_have_their_published_outcomes() {
    assert_eq!(check_published(&NoGo, NOGO, empty, 0, 16), 27);
}

/// NoGo's published outcomes of 17 to 20 cells: 1 x 17 to 1 x 20, 2 x 9,
/// 2 x 10, 3 x 6 and 4 x 5 (2 x 10 and 4 x 5 a minute or two each; the
/// larger boards of the data file are not run here yet):
///
/// ```text
/// cargo test --release -p partizan-solve --test all outcome_rulesets::nogo_rectangles_to -- --ignored --nocapture
/// ```
#[test]
#[ignore]
fn nogo_rectangles_to_20_cells_have_their_published_outcomes() {
    assert_eq!(check_published(&NoGo, NOGO, empty, 17, 20), 8);
}

/// Every published Clobber checkerboard up to 20 cells (2 x 2 to 2 x 10,
/// 3 x 3 to 3 x 6, 4 x 4 and 4 x 5), with its published outcome class.
#[test]
fn clobber_checkerboards_have_their_published_outcomes() {
    assert_eq!(check_published(&Clobber, CLOBBER, checkerboard, 0, 20), 15);
}

/// The published Clobber checkerboards of 21 to 28 cells (2 x 11 to
/// 2 x 14, 3 x 7 to 3 x 9, 4 x 6, 4 x 7 and 5 x 5; README row). 5 x 6 has a
/// test of its own; 2 x 15 to 2 x 17 and 3 x 10 are run from the CLI
/// (README row):
///
/// ```text
/// cargo test --release -p partizan-solve --test all outcome_rulesets::clobber_checkerboards_to -- --ignored --nocapture
/// ```
#[test]
#[ignore]
fn clobber_checkerboards_to_28_cells_have_their_published_outcomes() {
    assert_eq!(check_published(&Clobber, CLOBBER, checkerboard, 21, 28), 10);
}

/// Positions a few moves into 6 x 6 Clobber that MCGS decided (its
/// "Solving 6x6 Clobber" page, 839 to 62,910 s each there), searched here
/// for the same first player on two threads: the same answer for each.
/// Tens of minutes in all in a release build (README row):
///
/// ```text
/// cargo test --release -p partizan-solve --test all outcome_rulesets::clobber_six -- --ignored --nocapture
/// ```
#[test]
#[ignore]
fn clobber_six_by_six_positions_match_mcgs() {
    use partizan_solve::search::First;
    let mut n = 0;
    for f in rows(CLOBBER_6X6) {
        let (name, text, first, want) = (f[0], f[1], f[2], f[3] == "wins");
        let b = Clobber.parse(text).unwrap();
        let mut cfg = SearchConfig::for_ruleset(&Clobber, Convention::Normal);
        cfg.threads = 2;
        cfg.table_bytes = 4 << 30;
        cfg.first = match first {
            "left" => First::Left,
            "right" => First::Right,
            other => panic!("{name}: first player {other}"),
        };
        let rep = solve(&Clobber, &b, &cfg, &Control::default()).unwrap();
        let side = if first == "left" {
            &rep.left
        } else {
            &rep.right
        };
        eprintln!(
            "{name} {text} {first} first: wins {} ({} nodes, {:.1} s)",
            side.wins,
            rep.total().nodes,
            rep.elapsed.as_secs_f64()
        );
        assert_eq!(side.wins, want, "{name}");
        n += 1;
    }
    assert_eq!(n, 12);
}

/// The README's Cram rows: every published board up to 35 cells (5 x 7,
/// 4 x 8, 6 x 6); minutes in a release build.
#[test]
#[ignore]
fn cram_published_rectangles_to_35_cells() {
    assert!(cram_published(35, 26) >= 4);
}

/// The Clobber 5 x 5 checkerboard is P, as published (Grossman 2004; README:
/// 11.7 M nodes on one thread with the default safety ordering), and two
/// searches that order their moves differently (safety; history) agree on
/// it. About a minute of CPU in a test build:
///
/// ```text
/// cargo test --release -p partizan-solve --test all outcome_rulesets::clobber_five -- --ignored --nocapture
/// ```
#[test]
#[ignore]
fn clobber_five_by_five_checkerboard_is_a_second_player_win() {
    let want = clobber_table()
        .into_iter()
        .find(|&(h, w, _)| (h, w) == (5, 5))
        .map(|(_, _, c)| c)
        .expect("5 x 5 is in the table");
    assert_eq!(want, "P");
    let t = checkerboard(5, 5);
    let b = Clobber.parse(&t).unwrap();
    for ordering in [MoveOrdering::Safety, MoveOrdering::History] {
        let mut cfg = SearchConfig::for_ruleset(&Clobber, Convention::Normal);
        cfg.ordering = ordering;
        cfg.table_bytes = 256 << 20;
        let rep = solve(&Clobber, &b, &cfg, &Control::default()).unwrap();
        eprintln!("{t} {ordering:?}: {} nodes", rep.total().nodes);
        assert_eq!(
            rep.outcomes().expect("both first players searched").class(),
            "P",
            "{ordering:?}"
        );
    }
}

/// The Clobber 5 x 6 checkerboard is P, as published (Grossman 2004, whose
/// program took about 43 hours; MCGS again in 2026, 43,797 s). README:
/// first computed here over five resumed runs, 4.08 G nodes, with 64-bit
/// table keys, before the published result was found; then Left first
/// again with 96-bit keys and the colour-swapping symmetries keyed, 1.74 G
/// nodes over two runs, 2,265 + about 600 s CPU. The board is its own
/// mirror image with the colours swapped (a negation), so its value is 0
/// or fuzzy, and Left moving first losing makes it P; the search with both
/// first players checks Right's side too. Hours of CPU and a 4 GB table:
/// run it with a checkpoint from the CLI instead (README row), or
///
/// ```text
/// cargo test --release -p partizan-solve --test all outcome_rulesets::clobber_five_by_six -- --ignored --nocapture
/// ```
#[test]
#[ignore]
fn clobber_five_by_six_checkerboard_is_a_second_player_win() {
    use partizan_games::{Symmetry, Transform};
    assert!(clobber_table().contains(&(5, 6, "P".to_string())));
    let t = checkerboard(5, 6);
    let b = Clobber.parse(&t).unwrap();
    let swapped = Clobber.apply(&b, Symmetry::new(Transform::FlipCols, true));
    assert_eq!(
        swapped, b,
        "the board is its own colour-swapped mirror image"
    );
    let mut cfg = SearchConfig::for_ruleset(&Clobber, Convention::Normal);
    cfg.table_bytes = 4 << 30;
    cfg.threads = 1;
    let rep = solve(&Clobber, &b, &cfg, &Control::default()).unwrap();
    eprintln!("{t}: {} nodes", rep.total().nodes);
    assert_eq!(
        rep.outcomes().expect("both first players searched").class(),
        "P"
    );
}

/// The Clobber 4 x 8 checkerboard is N (README row, session 31: 975 M
/// nodes, 932 s on two threads, 8.5 GB): no published outcome was found
/// (MCGS lists it unsolved after 100,000 s), so this pins partizan's own
/// answer, both first players searched. Run it alone:
///
/// ```text
/// cargo test --release -p partizan-solve --test all outcome_rulesets::clobber_four_by_eight -- --ignored --nocapture
/// ```
#[test]
#[ignore]
fn clobber_four_by_eight_checkerboard_is_a_first_player_win() {
    assert!(!clobber_table().iter().any(|&(h, w, _)| (h, w) == (4, 8)));
    let b = Clobber.parse(&checkerboard(4, 8)).unwrap();
    let mut cfg = SearchConfig::for_ruleset(&Clobber, Convention::Normal);
    cfg.table_bytes = 8 << 30;
    cfg.threads = 2;
    let rep = solve(&Clobber, &b, &cfg, &Control::default()).unwrap();
    eprintln!(
        "Clobber 4 x 8: {} nodes, {:.0} s",
        rep.total().nodes,
        rep.elapsed.as_secs_f64()
    );
    assert_eq!(
        rep.outcomes().expect("both first players searched").class(),
        "N"
    );
}

/// Cram 7 x 7 is a first-player win, as its published nimber (1; Lemoine
/// and Viennot's Glop, confirmed by Beling) says. README: 131.9 M nodes
/// and 412 s wall on two threads with a 2.3 GB memo (session 13, the first
/// time it finished here). Run it alone:
///
/// ```text
/// cargo test --release -p partizan-solve --test all outcome_rulesets::cram_seven -- --ignored --nocapture
/// ```
#[test]
#[ignore]
fn cram_seven_by_seven_has_the_published_outcome() {
    let want = cram_table()
        .into_iter()
        .find(|&(h, w, _)| (h, w) == (7, 7))
        .map(|(_, _, n)| if n == 0 { "P" } else { "N" })
        .expect("7 x 7 is in the table");
    let b = Cram.parse(&empty(7, 7)).unwrap();
    let mut cfg = SearchConfig::for_ruleset(&Cram, Convention::Normal);
    cfg.table_bytes = 6 << 30;
    cfg.threads = 2;
    let rep = solve(&Cram, &b, &cfg, &Control::default()).unwrap();
    eprintln!(
        "Cram 7 x 7: {} nodes, {:.0} s",
        rep.total().nodes,
        rep.elapsed.as_secs_f64()
    );
    assert_eq!(
        rep.outcomes().expect("both first players searched").class(),
        want
    );
}
