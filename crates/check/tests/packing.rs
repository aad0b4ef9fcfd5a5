//! The packing of vulnerable placements (`leaves::domineering_packing`,
//! `leaves::packing_holds`) against plain minimax on every position of
//! small rectangles: it never decides a position the wrong way, with
//! integer tails read exactly or as a range, and it decides positions the
//! counts of safe moves and protective areas alone do not.

use partizan_check::leaves::{
    decide_by_counts, decide_by_packing, domineering_counts, domineering_packing,
    domineering_packing_plain,
};
use partizan_games::{Domineering, Player, Ruleset};

/// Tails tried: free moves for Left (positive) or Right (negative).
const TAIL: i64 = 2;
const TAILS: usize = 2 * TAIL as usize + 1;

/// Every position of a `rows` x `cols` rectangle (the set of its empty
/// cells, bit `r * cols + c`) with every tail in `-TAIL..=TAIL`: bit 0 of
/// `win[(e * TAILS) + t + TAIL]` says Left moving first wins, bit 1 Right
/// moving first, by plain minimax over the rules (a move empties two
/// cells, so every option's set is a smaller number).
fn minimax(rows: usize, cols: usize) -> Vec<u8> {
    let n = rows * cols;
    // Left's dominoes are vertical, Right's horizontal.
    let mut doms = [Vec::new(), Vec::new()];
    for r in 0..rows {
        for c in 0..cols {
            let i = r * cols + c;
            if r + 1 < rows {
                doms[0].push((1u32 << i) | (1u32 << (i + cols)));
            }
            if c + 1 < cols {
                doms[1].push((1u32 << i) | (1u32 << (i + 1)));
            }
        }
    }
    let mut win = vec![0u8; (1usize << n) * TAILS];
    let idx = |e: u32, t: i64| e as usize * TAILS + (t + TAIL) as usize;
    for e in 0..(1u32 << n) {
        // Tails nearer 0 first: a tail move takes one step towards 0.
        for t in [0, 1, -1, 2, -2] {
            let mut bits = 0u8;
            for (side, ds) in doms.iter().enumerate() {
                // Does this side, moving first, win?
                let other_bit = 1u8 << (1 - side);
                let mut w = ds
                    .iter()
                    .any(|&d| e & d == d && win[idx(e & !d, t)] & other_bit == 0);
                if side == 0 && t > 0 {
                    w |= win[idx(e, t - 1)] & other_bit == 0;
                }
                if side == 1 && t < 0 {
                    w |= win[idx(e, t + 1)] & other_bit == 0;
                }
                bits |= u8::from(w) << side;
            }
            win[idx(e, t)] = bits;
        }
    }
    win
}

fn board(rows: usize, cols: usize, e: u32) -> partizan_games::Board {
    let text: Vec<String> = (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| {
                    if e >> (r * cols + c) & 1 == 1 {
                        '.'
                    } else {
                        '#'
                    }
                })
                .collect()
        })
        .collect();
    Domineering.parse(&text.join("|")).unwrap()
}

/// Check every position of a `rows` x `cols` rectangle; the numbers of
/// (mover, exact tail) questions the counts and the packing together
/// decide, and the counts of safe moves and protective areas alone.
fn exhaustive(rows: usize, cols: usize) -> (u64, u64) {
    let win = minimax(rows, cols);
    let (mut both, mut counted) = (0u64, 0u64);
    for e in 0..(1u32 << (rows * cols)) {
        let b = board(rows, cols, e);
        let (l, r) = (
            domineering_counts(&b, Player::Left),
            domineering_counts(&b, Player::Right),
        );
        for lo in -TAIL..=TAIL {
            for hi in lo..=TAIL {
                for mover in Player::BOTH {
                    let bit = if mover == Player::Left { 1 } else { 2 };
                    let truth = |t: i64| win[e as usize * TAILS + (t + TAIL) as usize] & bit != 0;
                    if let Some(w) = decide_by_packing(&b, lo, hi, mover) {
                        for t in lo..=hi {
                            assert_eq!(
                                w,
                                truth(t),
                                "{} + {t} (read as {lo}..{hi}), {mover:?} to move: {:?} {:?}",
                                Domineering.format(&b),
                                domineering_packing(&b, Player::Left),
                                domineering_packing(&b, Player::Right),
                            );
                        }
                    }
                    if lo == hi {
                        let by_counts = decide_by_counts(l, r, lo, hi, mover);
                        let by_packing = decide_by_packing(&b, lo, hi, mover);
                        counted += u64::from(by_counts.is_some());
                        both += u64::from(by_counts.is_some() || by_packing.is_some());
                    }
                }
            }
        }
    }
    eprintln!("{rows} x {cols}: counts and packing decide {both}, counts alone {counted}");
    (both, counted)
}

#[test]
fn packing_never_decides_wrongly_on_any_small_board() {
    for (rows, cols) in [
        (1, 8),
        (8, 1),
        (2, 2),
        (2, 3),
        (3, 2),
        (3, 3),
        (2, 6),
        (6, 2),
        (2, 8),
        (8, 2),
        (3, 4),
        (4, 3),
        (4, 4),
        (3, 5),
        (5, 3),
    ] {
        let (packed, counted) = exhaustive(rows, cols);
        if rows * cols >= 12 {
            assert!(packed > counted, "{rows} x {cols}: {packed} <= {counted}");
        }
    }
}

/// Rectangles of 18 to 20 cells: a million positions each, one test a
/// rectangle so that the harness runs them side by side.
macro_rules! exhaustive_test {
    ($($name:ident: $rows:literal x $cols:literal;)*) => {$(
        #[test]
        fn $name() {
            let (packed, counted) = exhaustive($rows, $cols);
            assert!(packed > counted, "{} x {}: {packed} <= {counted}", $rows, $cols);
        }
    )*};
}

exhaustive_test! {
    packing_never_decides_wrongly_on_any_4x5_board: 4 x 5;
    packing_never_decides_wrongly_on_any_5x4_board: 5 x 4;
    packing_never_decides_wrongly_on_any_3x6_board: 3 x 6;
    packing_never_decides_wrongly_on_any_6x3_board: 6 x 3;
    packing_never_decides_wrongly_on_any_2x10_board: 2 x 10;
    packing_never_decides_wrongly_on_any_10x2_board: 10 x 2;
}

/// The packing a line at a time is its cell-by-cell twin, on random
/// boards of every shape up to 128 cells (lines of one cell, of 128, and
/// everything between), for both players.
#[test]
fn packing_by_lines_is_its_cell_by_cell_twin() {
    let mut rng = fastrand::Rng::with_seed(5);
    let mut shapes = Vec::new();
    for w in 1..=128usize {
        for h in 1..=128 / w {
            shapes.push((w, h));
        }
    }
    let mut nonzero = [0usize; 6];
    for &(w, h) in &shapes {
        for _ in 0..40 {
            let holes = rng.u8(2..10);
            let text: Vec<String> = (0..h)
                .map(|_| {
                    (0..w)
                        .map(|_| if rng.u8(..holes) == 0 { '#' } else { '.' })
                        .collect()
                })
                .collect();
            let b = Domineering.parse(&text.join("|")).unwrap();
            for p in Player::BOTH {
                let (fast, plain) = (domineering_packing(&b, p), domineering_packing_plain(&b, p));
                assert_eq!(fast, plain, "{} {p:?}", Domineering.format(&b));
                for (n, x) in nonzero.iter_mut().zip([
                    fast.safe,
                    fast.areas,
                    fast.vuln_two,
                    fast.vuln_one,
                    fast.shared[2],
                    fast.waste,
                ]) {
                    *n += usize::from(x > 0);
                }
            }
        }
    }
    // Every count comes up, often.
    assert!(nonzero.iter().all(|&n| n > 1000), "{nonzero:?}");
}
