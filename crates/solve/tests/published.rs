//! Values against published ones: a data file of Domineering positions with
//! canonical forms confirmed by CGSuite (as collected in cgt-tools' tests),
//! valued under every combination of the three savings.

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
