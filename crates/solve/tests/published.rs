//! Values against published ones: a data file of Domineering positions with
//! canonical forms confirmed by CGSuite (as collected in cgt-tools' tests),
//! valued under every combination of the three savings; and linear Clobber
//! against published theorems, conjectures verified by computation, and
//! bounds.

use partizan_core::Arena;
use partizan_games::{Domineering, Ruleset};
use partizan_solve::{Decompose, Savings, Solver};

const DATA: &str = include_str!("data/domineering_published.txt");

#[test]
fn domineering_positions_match_cgsuite() {
    let mut n = 0;
    for line in DATA
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (board, want) = line.split_once('\t').expect("board<TAB>value");
        let b = Domineering.parse(board).unwrap();
        for savings in [
            Savings::ALL,
            Savings::NONE,
            Savings {
                memo: true,
                decompose: Decompose::Off,
                symmetry: true,
            },
        ] {
            let mut arena = Arena::new();
            let g = Solver::new(&Domineering, savings)
                .unwrap()
                .value(&mut arena, &b)
                .unwrap();
            // Notations differ (cgt-tools prints ±1 as {1|-1}): compare values.
            let w = arena.parse(want).unwrap();
            assert_eq!(g, w, "{board} under {savings:?}: {}", arena.display(g));
        }
        n += 1;
    }
    assert_eq!(n, 10);
}

#[test]
fn domineering_4x4_canonical_form_is_pinned() {
    let b = Domineering.parse("....|....|....|....").unwrap();
    let mut arena = Arena::new();
    let g = Solver::new(&Domineering, Savings::ALL)
        .unwrap()
        .value(&mut arena, &b)
        .unwrap();
    // The square is its own transpose, and a transpose negates: G = -G.
    assert_eq!(arena.neg(g), g);
    // As CGSuite prints it (its own 4 x 4 form, pinned in core's test data).
    assert_eq!(arena.display(g), "±{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}");
    // The printed form parses back to the same value.
    let shown = arena.display(g);
    assert_eq!(arena.parse(&shown).unwrap(), g);
    // With no savings at all the same form comes out.
    let mut a2 = Arena::new();
    let h = Solver::new(&Domineering, Savings::NONE)
        .unwrap()
        .value(&mut a2, &b)
        .unwrap();
    assert_eq!(a2.display(h), arena.display(g));
}

/// Linear Clobber against published results, as the MCGS results page
/// (ualberta-mueller-group/MCGS, `docs/MCGS-results.html`, "1xn Clobber")
/// collects them, x being Left (Black):
/// * Albert, Grossman, Nowakowski and Wolfe's conjecture 2 (Integers 5,
///   2005), verified by Folkersen et al. (ACG 2025) for n <= 28:
///   `(xxo)^n = floor((n + 1) / 2).↑`;
/// * `(xo)^n` is a first-player win for every n but 3 (their conjecture 1,
///   proved by Chen et al., arXiv 2509.08985), and `(xo)^3 = 0`;
/// * MCGS's bounds (2026): for n = 1, 2, 4, 5, `↓↓ < (xo)^n < ↑↑` and
///   `(xo)^n` is confused with ↓, 0 and ↑; for 5 < n < 25, `↓ < (xo)^n < ↑`.
///
/// `(xxo)^n` to 20 and `(xo)^n` to 12 here (seconds; the forms of `(xo)^n`
/// grow fast: n = 14 prints 12 M characters).
#[test]
fn linear_clobber_matches_published_results() {
    use partizan_core::{Comparison, Outcome};
    use partizan_games::Clobber;
    let mut arena = Arena::new();
    let mut solver = Solver::new(&Clobber, Savings::ALL).unwrap();
    let up = arena.up();
    let down = arena.neg(up);
    let zero = arena.zero();
    let up2 = arena.sum(up, up).unwrap();
    let down2 = arena.neg(up2);
    let mut multiple = zero;
    for n in 1..=20 {
        if n % 2 == 1 {
            multiple = arena.sum(multiple, up).unwrap();
        }
        let b = Clobber.parse(&"xxo".repeat(n)).unwrap();
        let g = solver.value(&mut arena, &b).unwrap();
        assert_eq!(g, multiple, "(xxo)^{n} = {}", arena.display(g));
    }
    for n in 1..=12 {
        let b = Clobber.parse(&"xo".repeat(n)).unwrap();
        let g = solver.value(&mut arena, &b).unwrap();
        let shown = format!("(xo)^{n}");
        if n == 3 {
            assert_eq!(g, zero, "{shown}");
            continue;
        }
        assert_eq!(arena.outcome(g), Outcome::N, "{shown}");
        if n <= 5 {
            assert_eq!(arena.compare(down2, g), Comparison::Less, "{shown}");
            assert_eq!(arena.compare(g, up2), Comparison::Less, "{shown}");
            for h in [down, zero, up] {
                assert_eq!(arena.compare(g, h), Comparison::Confused, "{shown}");
            }
        } else {
            assert_eq!(arena.compare(down, g), Comparison::Less, "{shown}");
            assert_eq!(arena.compare(g, up), Comparison::Less, "{shown}");
        }
    }
}
