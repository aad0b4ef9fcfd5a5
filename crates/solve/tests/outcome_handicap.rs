//! Handicap keys (`SearchConfig::handicap`) against brute force: on random
//! small boards of rulesets whose small regions are often integers
//! (Toads and Frogs, Kōnane, Amazons), searched with small regions valued
//! so that tails are integers, the search with handicap keys, without
//! them, and the outcome of the board's exact value all agree, with a
//! table small enough that entries are merged and replaced; for Toads and
//! Frogs and Amazons some look-ups must be answered at another handicap
//! than the one searched (few: 6 on each set of boards, measured).

use partizan_core::{Arena, Outcome};
use partizan_games::{Amazons, Board, Konane, Ruleset, ToadsAndFrogs};
use partizan_solve::outcome::Convention;
use partizan_solve::search::{solve, Control, Knowledge, SearchConfig};
use partizan_solve::{Savings, Solver};

use crate::common;
use common::Rng;

/// `h` x `w` cells, each one of `glyphs` drawn with the given weights.
fn random_text(rng: &mut Rng, h: usize, w: usize, glyphs: &[(char, u64)]) -> String {
    let total: u64 = glyphs.iter().map(|g| g.1).sum();
    (0..h)
        .map(|_| {
            (0..w)
                .map(|_| {
                    let mut x = rng.below(total);
                    glyphs
                        .iter()
                        .find(|&&(_, p)| {
                            let hit = x < p;
                            x = x.saturating_sub(p);
                            hit
                        })
                        .unwrap()
                        .0
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("|")
}

fn wins(o: Outcome) -> (bool, bool) {
    (
        matches!(o, Outcome::L | Outcome::N),
        matches!(o, Outcome::R | Outcome::N),
    )
}

/// Each board of `boards` searched with handicap keys on and off, at two
/// region sizes and two table sizes, against its value's outcome. Returns
/// the searches and the look-ups answered at another handicap than the
/// one found (none without handicap keys).
fn agree<R: Knowledge>(rules: &R, boards: &[Board]) -> (usize, u64) {
    let mut solver = Solver::new(rules, Savings::ALL).unwrap();
    let mut arena = Arena::new();
    let mut searched = 0;
    let mut handicap_hits = 0;
    for b in boards {
        let v = solver.value(&mut arena, b).unwrap();
        let want = wins(arena.outcome(v));
        for value_cells in [3, 5] {
            for table_bytes in [1 << 10, 1 << 16] {
                for handicap in [true, false] {
                    let mut cfg = SearchConfig::for_ruleset(rules, Convention::Normal);
                    cfg.value_cells = value_cells;
                    cfg.handicap = handicap;
                    cfg.threads = 1;
                    cfg.table_bytes = table_bytes;
                    let r = solve(rules, b, &cfg, &Control::default()).unwrap();
                    let got = r
                        .outcomes()
                        .map(|o| (o.left_first, o.right_first))
                        .expect("both first players searched");
                    assert_eq!(got, want, "{} {} {cfg:?}", rules.name(), rules.format(b));
                    searched += 1;
                    let h = r.table.handicap_hits;
                    assert!(
                        handicap || h == 0,
                        "{h} handicap hits with handicap keys off"
                    );
                    handicap_hits += h;
                }
            }
        }
    }
    (searched, handicap_hits)
}

#[test]
fn toads_and_frogs_agree_with_and_without_handicap_keys() {
    let mut rng = Rng(0x70AD_5EED);
    let boards: Vec<Board> = (0..40)
        .filter_map(|k| {
            let (h, w) = [(1, 9), (2, 5), (1, 11), (3, 4)][k % 4];
            let t = random_text(&mut rng, h, w, &[('.', 4), ('T', 3), ('F', 3), ('#', 1)]);
            ToadsAndFrogs.parse(&t).ok()
        })
        .collect();
    assert!(boards.len() >= 30, "only {} boards parsed", boards.len());
    let (n, hits) = agree(&ToadsAndFrogs, &boards);
    assert!(n >= 240 && hits > 0, "{n} searches, {hits} handicap hits");
}

#[test]
fn konane_agrees_with_and_without_handicap_keys() {
    let mut rng = Rng(0x0C0A_7A7E);
    let boards: Vec<Board> = (0..30)
        .filter_map(|k| {
            let (h, w) = [(4, 4), (3, 6), (4, 5)][k % 3];
            let t = random_text(&mut rng, h, w, &[('.', 2), ('x', 4), ('o', 4)]);
            Konane.parse(&t).ok()
        })
        .collect();
    assert!(boards.len() >= 20, "only {} boards parsed", boards.len());
    // Kōnane's small regions are rarely integers next to a big region
    // that recurs: no handicap hit on these boards (measured), so only
    // the agreement is asked.
    let (n, _) = agree(&Konane, &boards);
    assert!(n >= 160, "{n} searches");
}

#[test]
fn amazons_agrees_with_and_without_handicap_keys() {
    let mut rng = Rng(0xA3A2_4A4D);
    let boards: Vec<Board> = (0..24)
        .filter_map(|k| {
            let (h, w) = [(3, 3), (2, 4), (3, 4)][k % 3];
            let t = random_text(&mut rng, h, w, &[('.', 14), ('#', 4), ('L', 1), ('R', 1)]);
            Amazons.parse(&t).ok()
        })
        .collect();
    assert!(boards.len() >= 20, "only {} boards parsed", boards.len());
    let (n, hits) = agree(&Amazons, &boards);
    assert!(n >= 160 && hits > 0, "{n} searches, {hits} handicap hits");
}
