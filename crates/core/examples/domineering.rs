//! Stress driver for the value engine: the canonical value of an empty
//! `w x h` Domineering board (Left plays vertical dominoes), with the board
//! split into connected components and each component memoised by its
//! translated bit pattern. Not the project's solver; a benchmark of
//! construct / sum / leq under a realistic load.
//!
//! `cargo run --release -p partizan-core --example domineering -- 5 5`

use std::time::Instant;

use partizan_core::{Arena, GameId};
use rustc_hash::FxHashMap;

struct Dom {
    w: u32,
    h: u32,
    memo: FxHashMap<u64, GameId>,
    arena: Arena,
    col_mask: Vec<u64>,
}

impl Dom {
    fn component(&self, mask: u64) -> u64 {
        let start = mask & mask.wrapping_neg();
        let mut comp = start;
        loop {
            let w = self.w;
            let left_ok = !self.col_mask[0]; // cells not in column 0 can move left
            let right_ok = !self.col_mask[(w - 1) as usize];
            let grow = comp
                | (comp << w)
                | (comp >> w)
                | ((comp & right_ok) << 1)
                | ((comp & left_ok) >> 1);
            let next = grow & mask;
            if next == comp {
                return comp;
            }
            comp = next;
        }
    }

    fn normalise(&self, mask: u64) -> u64 {
        let mut min_col = self.w;
        for c in 0..self.w {
            if mask & self.col_mask[c as usize] != 0 {
                min_col = c;
                break;
            }
        }
        let min_row = mask.trailing_zeros() / self.w;
        mask >> (min_row * self.w + min_col)
    }

    fn value(&mut self, mask: u64) -> GameId {
        if mask == 0 {
            return self.arena.zero();
        }
        let comp = self.component(mask);
        if comp != mask {
            let a = self.value(comp);
            let b = self.value(mask & !comp);
            return self.arena.sum(a, b).unwrap();
        }
        let key = self.normalise(mask);
        if let Some(&g) = self.memo.get(&key) {
            return g;
        }
        let (w, h) = (self.w, self.h);
        let mut l = Vec::new();
        let mut r = Vec::new();
        for i in 0..w * h {
            let cell = 1u64 << i;
            if mask & cell == 0 {
                continue;
            }
            // vertical (Left)
            if i + w < w * h && mask & (cell << w) != 0 {
                l.push(mask & !(cell | cell << w));
            }
            // horizontal (Right)
            if i % w + 1 < w && mask & (cell << 1) != 0 {
                r.push(mask & !(cell | cell << 1));
            }
        }
        let l: Vec<GameId> = l.into_iter().map(|m| self.value(m)).collect();
        let r: Vec<GameId> = r.into_iter().map(|m| self.value(m)).collect();
        let g = self.arena.construct(&l, &r).unwrap();
        self.memo.insert(key, g);
        g
    }
}

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|s| s.parse().ok())
        .collect();
    let (w, h) = (
        args.first().copied().unwrap_or(4),
        args.get(1).copied().unwrap_or(4),
    );
    assert!(w * h <= 64);
    let col_mask = (0..w)
        .map(|c| (0..h).fold(0u64, |m, r| m | 1 << (r * w + c)))
        .collect();
    let mut d = Dom {
        w,
        h,
        memo: FxHashMap::default(),
        arena: Arena::new(),
        col_mask,
    };
    let full = if w * h == 64 {
        u64::MAX
    } else {
        (1u64 << (w * h)) - 1
    };
    let t = Instant::now();
    let g = d.value(full);
    let el = t.elapsed();
    let text = d.arena.display(g);
    println!(
        "{w}x{h}: {}  ({} positions, {} forms, {:.3}s)",
        if text.len() > 300 {
            format!("{}... ({} chars)", &text[..300], text.len())
        } else {
            text
        },
        d.memo.len(),
        d.arena.len(),
        el.as_secs_f64()
    );
    let (m, t) = (d.arena.mean(g), d.arena.temperature(g));
    println!("mean {m}, temperature {t}");
    // a benchmark must not pass with a wrong answer: known values (5x6 and
    // 6x5 are each other's negatives, by transposition)
    let known = [
        (2, 2, "±1"),
        (3, 3, "±1"),
        (3, 2, "{2|-1/2}"),
        (5, 5, "0"),
        (6, 5, "-3/2"),
        (5, 6, "3/2"),
    ];
    for (kw, kh, v) in known {
        if (kw, kh) == (w, h) {
            assert_eq!(d.arena.display(g), v, "wrong value for {w}x{h}");
        }
    }
}
