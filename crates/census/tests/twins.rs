//! Fast paths against brute-force twins: the bottom-up evaluators against a
//! naive recursion over whole bitboards (no splitting, no symmetry), and the
//! census's move convention against the games crate.

use std::collections::HashMap;

use partizan_census::{Catalogue, CramValues, DomineeringValues, Group, Shape, ShapeValues};
use partizan_core::{Arena, GameId};
use partizan_games::{Domineering, Player, Ruleset};

/// Naive Domineering: memo on (width, bitboard), options by removing every
/// vertical (Left) or horizontal (Right) domino, values by `construct`.
struct Naive {
    memo: HashMap<(usize, u64), GameId>,
}

impl Naive {
    fn value(&mut self, arena: &mut Arena, w: usize, cells: u64) -> GameId {
        if let Some(&g) = self.memo.get(&(w, cells)) {
            return g;
        }
        let mut left = Vec::new();
        let mut right = Vec::new();
        for i in 0..64usize {
            if cells >> i & 1 == 0 {
                continue;
            }
            // vertical: i and i + w
            if i + w < 64 && cells >> (i + w) & 1 == 1 {
                let child = cells & !(1 << i) & !(1 << (i + w));
                left.push(self.value(arena, w, child));
            }
            // horizontal: i and i + 1 in the same row
            if i % w + 1 < w && cells >> (i + 1) & 1 == 1 {
                let child = cells & !(1 << i) & !(1 << (i + 1));
                right.push(self.value(arena, w, child));
            }
        }
        let g = arena.construct(&left, &right).unwrap();
        self.memo.insert((w, cells), g);
        g
    }
}

#[test]
fn bottom_up_domineering_matches_naive_recursion() {
    let cat = Catalogue::build(Group::RowPreserving, 8);
    let mut arena = Arena::new();
    let mut fast = DomineeringValues::new();
    let mut naive = Naive {
        memo: HashMap::new(),
    };
    for size in 1..=8 {
        for s in cat.of_size(size) {
            let a = fast.value(&mut arena, s).unwrap();
            let b = naive.value(&mut arena, s.width(), s.bits() as u64);
            assert_eq!(a, b, "{s}: {} vs {}", arena.display(a), arena.display(b));
        }
    }
    assert_eq!(fast.stats().component_misses, 0);
    // fewer canonical forms computed than row-preserving shapes: the
    // transpose trick halves the work
    assert!(fast.stats().computed < cat.len() as u64);
}

#[test]
fn known_domineering_values() {
    let mut arena = Arena::new();
    let mut v = DomineeringValues::new();
    let mut val = |text: &str| {
        let s = Shape::parse(text).unwrap();
        let g = v.value(&mut arena, &s).unwrap();
        arena.display(g)
    };
    assert_eq!(val("."), "0");
    assert_eq!(val(".."), "-1");
    assert_eq!(val(".|."), "1");
    assert_eq!(val("..|.."), "±1");
    // a disconnected shape is the sum of its parts
    assert_eq!(val(".#..|.###"), "0");
}

#[test]
fn left_moves_vertically_like_the_games_crate() {
    let cat = Catalogue::build(Group::RowPreserving, 6);
    for s in cat.iter() {
        let b = s.to_board();
        let mut l = 0;
        let mut r = 0;
        Domineering.options(&b, Player::Left, |_| l += 1);
        Domineering.options(&b, Player::Right, |_| r += 1);
        assert_eq!(l, s.vertical_slots().count_ones(), "{s}");
        assert_eq!(r, s.horizontal_slots().count_ones(), "{s}");
    }
}

/// Naive Cram nim-values: mex over every domino of the whole bitboard.
fn naive_nim(memo: &mut HashMap<(usize, u64), u32>, w: usize, cells: u64) -> u32 {
    if let Some(&v) = memo.get(&(w, cells)) {
        return v;
    }
    let mut seen = Vec::new();
    for i in 0..64usize {
        if cells >> i & 1 == 0 {
            continue;
        }
        if i + w < 64 && cells >> (i + w) & 1 == 1 {
            seen.push(naive_nim(memo, w, cells & !(1 << i) & !(1 << (i + w))));
        }
        if i % w + 1 < w && cells >> (i + 1) & 1 == 1 {
            seen.push(naive_nim(memo, w, cells & !(1 << i) & !(1 << (i + 1))));
        }
    }
    let v = (0..).find(|x| !seen.contains(x)).unwrap();
    memo.insert((w, cells), v);
    v
}

#[test]
fn bottom_up_cram_matches_naive_mex() {
    let cat = Catalogue::build(Group::Square, 9);
    let mut fast = CramValues::new();
    let mut memo = HashMap::new();
    for s in cat.iter() {
        assert_eq!(
            fast.nim_value(s),
            naive_nim(&mut memo, s.width(), s.bits() as u64),
            "{s}"
        );
    }
    assert_eq!(fast.stats().component_misses, 0);
}

#[test]
fn cram_nimbers_match_the_arena() {
    // impartial construct {opts | opts} agrees with the mex evaluator
    let cat = Catalogue::build(Group::Square, 6);
    let mut arena = Arena::new();
    let mut fast = CramValues::new();
    let mut memo: HashMap<(usize, u64), GameId> = HashMap::new();
    fn value(
        arena: &mut Arena,
        memo: &mut HashMap<(usize, u64), GameId>,
        w: usize,
        cells: u64,
    ) -> GameId {
        if let Some(&g) = memo.get(&(w, cells)) {
            return g;
        }
        let mut opts = Vec::new();
        for i in 0..64usize {
            if cells >> i & 1 == 0 {
                continue;
            }
            if i + w < 64 && cells >> (i + w) & 1 == 1 {
                opts.push(value(arena, memo, w, cells & !(1 << i) & !(1 << (i + w))));
            }
            if i % w + 1 < w && cells >> (i + 1) & 1 == 1 {
                opts.push(value(arena, memo, w, cells & !(1 << i) & !(1 << (i + 1))));
            }
        }
        let g = arena.construct(&opts, &opts).unwrap();
        memo.insert((w, cells), g);
        g
    }
    for s in cat.iter() {
        let g = value(&mut arena, &mut memo, s.width(), s.bits() as u64);
        assert_eq!(arena.as_nimber(g), Some(fast.nim_value(s)), "{s}");
    }
}
