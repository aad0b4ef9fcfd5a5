//! End-to-end check on a real ruleset: Domineering values computed through
//! `construct`/`sum` (with board splitting) agree with a brute-force minimax
//! on the board itself, for every small rectangle and for sums of boards.

use partizan_core::{Arena, GameId, Outcome};
use rustc_hash::FxHashMap;

/// Empty cells as bits `row * w + col`; Left places vertical dominoes.
fn moves(mask: u64, w: u32, h: u32, left: bool) -> Vec<u64> {
    let mut out = Vec::new();
    for i in 0..w * h {
        let c = 1u64 << i;
        if mask & c == 0 {
            continue;
        }
        let other = if left {
            (i + w < w * h).then_some(c << w)
        } else {
            (i % w + 1 < w).then_some(c << 1)
        };
        if let Some(o) = other {
            if mask & o != 0 {
                out.push(mask & !(c | o));
            }
        }
    }
    out
}

/// Does the player to move win? Plain minimax, no values.
fn wins(mask: u64, w: u32, h: u32, left: bool, memo: &mut FxHashMap<(u64, bool), bool>) -> bool {
    if let Some(&v) = memo.get(&(mask, left)) {
        return v;
    }
    let v = moves(mask, w, h, left)
        .into_iter()
        .any(|m| !wins(m, w, h, !left, memo));
    memo.insert((mask, left), v);
    v
}

/// Value by construct, splitting off the top row's connected pieces is not
/// needed here: memo on the mask only.
fn value(a: &mut Arena, mask: u64, w: u32, h: u32, memo: &mut FxHashMap<u64, GameId>) -> GameId {
    if let Some(&g) = memo.get(&mask) {
        return g;
    }
    let l: Vec<GameId> = moves(mask, w, h, true)
        .into_iter()
        .map(|m| value(a, m, w, h, memo))
        .collect();
    let r: Vec<GameId> = moves(mask, w, h, false)
        .into_iter()
        .map(|m| value(a, m, w, h, memo))
        .collect();
    let g = a.construct(&l, &r).unwrap();
    memo.insert(mask, g);
    g
}

fn outcome_by_play(mask: u64, w: u32, h: u32) -> Outcome {
    let mut memo = FxHashMap::default();
    match (
        wins(mask, w, h, true, &mut memo),
        wins(mask, w, h, false, &mut memo),
    ) {
        (true, true) => Outcome::N,
        (true, false) => Outcome::L,
        (false, true) => Outcome::R,
        (false, false) => Outcome::P,
    }
}

#[test]
fn rectangles_and_their_sums_agree_with_minimax() {
    let mut a = Arena::new();
    let mut vals = Vec::new();
    for w in 1..=4u32 {
        for h in 1..=4u32 {
            let full = (1u64 << (w * h)) - 1;
            let g = value(&mut a, full, w, h, &mut FxHashMap::default());
            assert_eq!(a.outcome(g), outcome_by_play(full, w, h), "{w}x{h}");
            vals.push((w, h, g));
        }
    }
    let text = |a: &mut Arena, w: u32, h: u32| {
        let g = vals.iter().find(|v| v.0 == w && v.1 == h).unwrap().2;
        a.display(g)
    };
    assert_eq!(text(&mut a, 2, 2), "±1");
    assert_eq!(text(&mut a, 3, 3), "±1");
    assert_eq!(text(&mut a, 1, 2), "1");
    assert_eq!(text(&mut a, 2, 1), "-1");
    assert_eq!(text(&mut a, 1, 1), "0");
    assert_eq!(text(&mut a, 3, 2), "{2|-1/2}");
    assert_eq!(text(&mut a, 2, 3), "{1/2|-2}");
    // sums of two rectangles: play them side by side on a 9-wide board with a
    // blocked column between (cells of the gap are never empty)
    for &(w1, h1, g1) in &vals {
        for &(w2, h2, g2) in &vals {
            if w1 + w2 + 1 > 9 || (w1 * h1 + w2 * h2) > 14 {
                continue;
            }
            let w = 9;
            let h = h1.max(h2);
            let mut mask = 0u64;
            for r in 0..h1 {
                for c in 0..w1 {
                    mask |= 1 << (r * w + c);
                }
            }
            for r in 0..h2 {
                for c in 0..w2 {
                    mask |= 1 << (r * w + w1 + 1 + c);
                }
            }
            let s = a.sum(g1, g2).unwrap();
            assert_eq!(
                a.outcome(s),
                outcome_by_play(mask, w, h),
                "{w1}x{h1} + {w2}x{h2}"
            );
        }
    }
}
