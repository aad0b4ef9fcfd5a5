//! The nimber search of impartial rulesets (`search::impartial`, Cram's
//! outcome search) against three oracles: Beling's published nimbers of
//! Cram rectangles (`data/cram_nimbers.txt`), the value solver's canonical
//! forms (another algorithm: a nimber is a canonical form), and the general
//! outcome engine; and Cram's stride-8 expansion against the ruleset's own
//! moves and regions (its brute-force twin). The long rectangles are
//! behind `#[ignore]`:
//!
//! ```text
//! cargo test --release -p partizan-solve --test all impartial_nimbers:: -- --ignored --nocapture
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
/// outcome), in a release build: 4 x 8, 4 x 10, 6 x 6 (the mirror
/// strategy, at once), 4 x 9 and 5 x 7 (a few seconds), 5 x 8 (13-40 s)
/// and 4 x 11 (40-70 s); one to two minutes in all. 5 x 7's whole nimber
/// did not finish in 10 minutes before the search ordered its options
/// (session 10).
#[test]
#[ignore]
fn more_cram_rectangles_have_the_published_nimbers() {
    for (h, w) in [(4, 8), (4, 10), (6, 6), (4, 9), (5, 7), (5, 8), (4, 11)] {
        let want = cram_table()
            .into_iter()
            .find(|&(r, c, _)| (r, c) == (h, w))
            .map(|(_, _, n)| n)
            .expect("in the table");
        let start = std::time::Instant::now();
        // A 1 GB memo: in 64 MB, 5 x 8 fills it and slows past minutes.
        let got = impartial::nimber(&Cram, &empty(h, w), 1 << 30, true, &Control::default());
        assert_eq!(got.unwrap(), want, "Cram {h} x {w}");
        eprintln!("Cram {h} x {w}: {:.1} s", start.elapsed().as_secs_f64());
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
        both_paths_give_the_canonical_nimber(&mirrored(w, h, bits, t))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// The same on long boards (9 to 14 one way, at most 4 the other):
    /// their regions are keyed and expanded in Cram's tall layout (8 wide,
    /// up to 16 high, a wide region transposed first), and some are their
    /// own mirror images.
    #[test]
    fn tall_regions_have_their_canonical_nimbers(long in 9usize..=14, short in 1usize..=4, wide: bool, bits: u64, t in 0usize..4, mirror: bool) {
        let (w, h) = if wide { (long, short) } else { (short, long) };
        let b = if mirror { mirrored(w, h, bits, t) } else { board(w, h, bits) };
        both_paths_give_the_canonical_nimber(&b)?;
    }
}

/// A `w` x `h` board from `bits` ([`board`]) made its own image under
/// `t`: 0 top-bottom, 1 left-right, 2 a half turn, 3 the diagonal of its
/// top-left square (a cell stays only if its image is a cell too).
fn mirrored(w: usize, h: usize, bits: u64, t: usize) -> Board {
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
    Cram.parse(&text.join("|")).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The outcome search by nimbers (Cram's own) and the general engine
    /// agree, and a winning move leaves a position of nimber 0.
    #[test]
    fn the_nimber_search_and_the_general_engine_agree(w in 2usize..=6, h in 2usize..=5, bits: u64) {
        let b = board(w, h, bits);
        let mut cfg = SearchConfig::for_ruleset(&Cram, Convention::Normal);
        cfg.table_bytes = 1 << 20;
        cfg.nimber = true;
        let fast = solve(&Cram, &b, &cfg, &Control::default()).unwrap();
        cfg.fast = false;
        let general = solve(&Cram, &b, &cfg, &Control::default()).unwrap();
        prop_assert_eq!(fast.class(), general.class());
        // The outcome search's own nimber (on the memo it left) is the
        // twin's, and 0 exactly when the first player loses.
        let n = nimber(&b, false);
        prop_assert_eq!(fast.nimber, Some(n));
        prop_assert_eq!(general.nimber, None);
        prop_assert_eq!(fast.class() == Some("N"), n != 0);
        winning_moves_leave_zero(&b, &fast)?;
    }
}

/// Each side wins exactly when it names a move, and that move is legal
/// and leaves nimber 0.
fn winning_moves_leave_zero(
    b: &Board,
    report: &partizan_solve::search::SearchReport,
) -> Result<(), TestCaseError> {
    for side in [&report.left, &report.right] {
        prop_assert_eq!(side.wins, side.winning_move.is_some());
        if let Some(m) = side.winning_move {
            let mut legal = false;
            Cram.options(b, side.player, |o| legal |= o == m);
            prop_assert!(legal);
            prop_assert_eq!(nimber(&m, false), 0);
        }
    }
    Ok(())
}

/// The outcome search on `threads` threads with a memo of `bytes`, the
/// whole nimber asked too.
fn search(b: &Board, threads: usize, bytes: usize) -> partizan_solve::search::SearchReport {
    let mut cfg = SearchConfig::for_ruleset(&Cram, Convention::Normal);
    cfg.table_bytes = bytes;
    cfg.nimber = true;
    cfg.threads = threads;
    solve(&Cram, b, &cfg, &Control::default()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(80))]

    /// Two threads sharing the memo give one thread's outcome and nimber
    /// (the winning move may differ: it must be legal and leave nimber
    /// 0), with a roomy memo and with one whose shards fill at once; the
    /// boards are three quarters cells, to 30, so the threads meet.
    #[test]
    fn two_threads_give_the_answers_of_one(w in 3usize..=6, h in 3usize..=5, bits: u64, small: bool) {
        let b = board(w, h, bits | bits >> 11);
        let bytes = if small { 256 << 10 } else { 16 << 20 };
        let one = search(&b, 1, bytes);
        let two = search(&b, 2, bytes);
        prop_assert_eq!(two.config.threads, 2);
        prop_assert_eq!(two.class(), one.class());
        prop_assert_eq!(two.nimber, one.nimber);
        winning_moves_leave_zero(&b, &two)?;
    }
}

#[test]
fn two_threads_find_the_published_nimbers() {
    // Every rectangle of Beling's table up to 30 cells (4 x 4 .. 4 x 7,
    // 5 x 5, 5 x 6), its whole nimber by the outcome search on two
    // threads.
    let mut n = 0;
    for (h, w, want) in cram_table() {
        if h * w <= 30 {
            let rep = search(&empty(h, w), 2, 64 << 20);
            assert_eq!(rep.nimber, Some(want), "Cram {h} x {w}");
            assert_eq!(rep.class() == Some("N"), want != 0, "Cram {h} x {w}");
            n += 1;
        }
    }
    assert_eq!(n, 6);
}

/// A memo that fills drops its lightest entries and keeps learning, so a
/// search with a tenth of the room it wants costs a few times the nodes,
/// not the tens of times a memo that stops adding costs (Cram 5 x 6, one
/// thread, whole nimber: 93 K nodes with room; 256 KB: 255 K nodes with
/// entries dropped, 1.15 M without; 16 KB: 1.44 M, 6.6 M without).
#[test]
fn a_full_memo_keeps_learning() {
    let run = |bytes: usize| {
        let mut cfg = SearchConfig::for_ruleset(&Cram, Convention::Normal);
        cfg.table_bytes = bytes;
        cfg.nimber = true;
        cfg.threads = 1;
        solve(&Cram, &empty(5, 6), &cfg, &Control::default()).unwrap()
    };
    let roomy = run(64 << 20);
    let tight = run(256 << 10);
    assert_eq!((roomy.nimber, tight.nimber), (Some(2), Some(2)));
    assert_eq!(roomy.table.replaced, 0);
    assert!(tight.table.replaced > 0, "{:?}", tight.table);
    let (r, t) = (roomy.total().nodes, tight.total().nodes);
    assert!(t < 4 * r, "{t} nodes with 256 KB against {r} with room");
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
    let e = solve(&Cram, &empty(5, 7), &cfg, &Control::default()).unwrap_err();
    assert!(matches!(e, SearchError::Budget(1000)), "{e}");
    // On two threads the budget and a stop are the errors, not the
    // sibling's stop that ends the thread which did not finish.
    cfg.threads = 2;
    let e = solve(&Cram, &empty(5, 7), &cfg, &Control::default()).unwrap_err();
    assert!(matches!(e, SearchError::Budget(1000)), "{e}");
    cfg.max_nodes = None;
    let stop = std::sync::atomic::AtomicBool::new(true);
    let control = Control {
        stop: Some(&stop),
        ..Control::default()
    };
    let e = solve(&Cram, &empty(5, 7), &cfg, &control).unwrap_err();
    assert!(matches!(e, SearchError::Stopped { .. }), "{e}");
    let b = Domineering.parse("...|...").unwrap();
    let e = impartial::nimber(&Domineering, &b, 1 << 20, true, &Control::default()).unwrap_err();
    assert!(e.to_string().contains("not impartial"), "{e}");
}
