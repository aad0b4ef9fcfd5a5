//! The nimber search of impartial rulesets (`search::impartial`, Cram's
//! outcome search) against three oracles: Beling's published nimbers of
//! Cram rectangles (`data/cram_nimbers.txt`), the value solver's canonical
//! forms (another algorithm: a nimber is a canonical form), and the general
//! outcome engine; and Cram's stride-8 expansion against the ruleset's own
//! moves and regions (its brute-force twin). The long rectangles are
//! behind `#[ignore]`:
//!
//! ```text
//! cargo test --release -p partizan-solve --test impartial_nimbers -- --ignored --nocapture
//! ```

use partizan_core::Arena;
use partizan_games::{Board, Cram, Domineering, Ruleset};
use partizan_solve::outcome::Convention;
use partizan_solve::search::{impartial, solve, Control, SearchConfig, SearchError};
use partizan_solve::{Savings, Solver};
use proptest::prelude::*;

const CRAM: &str = include_str!("data/cram_nimbers.txt");

/// The published Cram nimbers: (rows, columns, nimber).
fn cram_table() -> Vec<(usize, usize, u32)> {
    CRAM.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<u32> = l.split('\t').map(|x| x.parse().unwrap()).collect();
            (f[0] as usize, f[1] as usize, f[2])
        })
        .collect()
}

fn empty(h: usize, w: usize) -> Board {
    Cram.parse(&vec![".".repeat(w); h].join("|")).unwrap()
}

fn nimber(b: &Board, fast: bool) -> u32 {
    impartial::nimber(&Cram, b, 64 << 20, fast, &Control::default()).unwrap()
}

/// A `w` x `h` Cram board whose cells are the bits of `bits` (a hole where
/// a bit is clear).
fn board(w: usize, h: usize, bits: u64) -> Board {
    let rows: Vec<String> = (0..h)
        .map(|r| {
            (0..w)
                .map(|c| {
                    if bits >> (r * w + c) & 1 == 1 {
                        '.'
                    } else {
                        '#'
                    }
                })
                .collect()
        })
        .collect();
    Cram.parse(&rows.join("|")).unwrap()
}

/// Cram's stride-8 expansion and the ruleset's own moves and regions give
/// `b` the same nimber, and it is the canonical form's.
fn both_paths_give_the_canonical_nimber(b: &Board) -> Result<(), TestCaseError> {
    let fast = nimber(b, true);
    prop_assert_eq!(fast, nimber(b, false));
    let mut arena = Arena::new();
    let g = Solver::new(&Cram, Savings::ALL)
        .unwrap()
        .value(&mut arena, b)
        .unwrap();
    prop_assert_eq!(Some(fast), arena.as_nimber(g));
    Ok(())
}

fn published(min_cells: usize, max_cells: usize) -> usize {
    let mut n = 0;
    for (h, w, want) in cram_table() {
        if h * w < min_cells || h * w > max_cells {
            continue;
        }
        let start = std::time::Instant::now();
        let got = nimber(&empty(h, w), true);
        eprintln!(
            "Cram {h} x {w}: nimber {got} ({:.2} s)",
            start.elapsed().as_secs_f64()
        );
        assert_eq!(got, want, "Cram {h} x {w}");
        n += 1;
    }
    n
}

#[test]
fn cram_rectangles_have_the_published_nimbers() {
    // 4 x 4 .. 4 x 7, 5 x 5, 5 x 6.
    assert_eq!(published(0, 30), 6);
}

/// More published rectangles, each a whole nimber (not only the
/// outcome): 4 x 8 (0.00 s), 4 x 9 (6 s) and 6 x 6 (the mirror strategy)
/// in a release build. Not 5 x 7: its outcome takes 4 s, but its whole
/// nimber (1) asks every option to be shown not to be 1, and did not
/// finish in 10 minutes (session 9).
#[test]
#[ignore]
fn more_cram_rectangles_have_the_published_nimbers() {
    for (h, w) in [(4, 8), (4, 9), (6, 6)] {
        let want = cram_table()
            .into_iter()
            .find(|&(r, c, _)| (r, c) == (h, w))
            .map(|(_, _, n)| n)
            .expect("in the table");
        assert_eq!(nimber(&empty(h, w), true), want, "Cram {h} x {w}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Cram's stride-8 expansion and the ruleset's own moves and regions
    /// give the same nimber, and it is the canonical form's.
    #[test]
    fn fast_and_general_nimbers_are_the_canonical_forms(w in 1usize..=6, h in 1usize..=5, bits: u64) {
        let b = board(w, h, bits);
        both_paths_give_the_canonical_nimber(&b)?;
    }

    /// The same on boards that are their own mirror image (top-bottom,
    /// left-right, half turn or a diagonal), where the mirror strategy
    /// answers some regions.
    #[test]
    fn mirrored_regions_have_their_canonical_nimbers(w in 1usize..=6, h in 1usize..=5, bits: u64, t in 0usize..4) {
        let half = board(w, h, bits);
        let mut cells: Vec<Vec<bool>> = Cram
            .format(&half)
            .split('|')
            .map(|r| r.chars().map(|c| c == '.').collect())
            .collect();
        let n = w.min(h);
        for r in 0..h {
            for c in 0..w {
                let (r2, c2) = match t {
                    0 => (h - 1 - r, c),
                    1 => (r, w - 1 - c),
                    2 => (h - 1 - r, w - 1 - c),
                    _ if r < n && c < n => (c, r),
                    _ => (r, c),
                };
                let both = cells[r][c] && cells[r2][c2];
                cells[r][c] = both;
                cells[r2][c2] = both;
            }
        }
        let text: Vec<String> = cells
            .iter()
            .map(|r| r.iter().map(|&x| if x { '.' } else { '#' }).collect())
            .collect();
        let b = Cram.parse(&text.join("|")).unwrap();
        both_paths_give_the_canonical_nimber(&b)?;
    }

    /// The outcome search by nimbers (Cram's own) and the general engine
    /// agree, and a winning move leaves a position of nimber 0.
    #[test]
    fn the_nimber_search_and_the_general_engine_agree(w in 2usize..=6, h in 2usize..=5, bits: u64) {
        let b = board(w, h, bits);
        let mut cfg = SearchConfig::for_ruleset(&Cram, Convention::Normal);
        cfg.table_bytes = 1 << 20;
        let fast = solve(&Cram, &b, &cfg, &Control::default()).unwrap();
        cfg.fast = false;
        let general = solve(&Cram, &b, &cfg, &Control::default()).unwrap();
        prop_assert_eq!(fast.class(), general.class());
        prop_assert_eq!(fast.class() == Some("N"), nimber(&b, true) != 0);
        for side in [&fast.left, &fast.right] {
            prop_assert_eq!(side.wins, side.winning_move.is_some());
            if let Some(m) = side.winning_move {
                let mut legal = false;
                Cram.options(&b, side.player, |o| legal |= o == m);
                prop_assert!(legal);
                prop_assert_eq!(nimber(&m, false), 0);
            }
        }
    }
}

#[test]
fn a_full_memo_slows_the_search_but_never_changes_an_answer() {
    for (h, w, want) in [(4, 5, 2), (5, 5, 0), (4, 6, 0)] {
        for bytes in [1 << 10, 16 << 10, 256 << 10] {
            let got = impartial::nimber(&Cram, &empty(h, w), bytes, true, &Control::default());
            assert_eq!(got.unwrap(), want, "{h} x {w} in {bytes} bytes");
        }
    }
}

#[test]
fn limits_and_partizan_rulesets_are_errors() {
    let mut cfg = SearchConfig::for_ruleset(&Cram, Convention::Normal);
    cfg.max_nodes = Some(1000);
    let e = solve(&Cram, &empty(5, 5), &cfg, &Control::default()).unwrap_err();
    assert!(matches!(e, SearchError::Budget(1000)), "{e}");
    let b = Domineering.parse("...|...").unwrap();
    let e = impartial::nimber(&Domineering, &b, 1 << 20, true, &Control::default()).unwrap_err();
    assert!(e.to_string().contains("not impartial"), "{e}");
}
