//! Property tests: symmetry laws of shapes, readings and values on random
//! regions, and the fast paths against their definitions.

use partizan_census::{read, DomineeringValues, Group, Shape, ShapeValues, Sym};
use partizan_core::Arena;
use proptest::prelude::*;

/// A random connected region inside a `w x h` box: the component of the
/// lowest cell of a random mask.
fn region(max_w: usize, max_h: usize) -> impl Strategy<Value = Shape> {
    (1..=max_w, 1..=max_h, any::<u64>()).prop_filter_map("empty", |(w, h, bits)| {
        let area = w * h;
        let mask = bits & ((1u64 << area) - 1);
        if mask == 0 {
            return None;
        }
        let cells: Vec<(usize, usize)> = (0..area)
            .filter(|&i| mask >> i & 1 == 1)
            .map(|i| (i / w, i % w))
            .collect();
        let s = Shape::from_cells(cells)?;
        s.components().into_iter().next()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn readings_agree_and_follow_symmetry(s in region(6, 5)) {
        let r = read(&s).unwrap();
        prop_assert!(r.low <= r.count && r.count <= r.high);
        for sym in Sym::ALL {
            let t = read(&s.transform(sym)).unwrap();
            if sym.swaps_axes() {
                prop_assert_eq!((t.count, t.low, t.high), (-r.count, -r.high, -r.low));
            } else {
                prop_assert_eq!(t, r);
            }
        }
    }

    #[test]
    fn canonical_forms_are_invariant(s in region(6, 5)) {
        for g in [Group::RowPreserving, Group::Square] {
            let c = s.canonical(g);
            for &sym in g.syms() {
                prop_assert_eq!(s.transform(sym).canonical(g), c);
            }
        }
        prop_assert_eq!(s.to_text().parse::<Shape>().unwrap(), s);
    }

    #[test]
    fn values_follow_symmetry_and_add(a in region(4, 3), b in region(3, 3)) {
        let mut arena = Arena::new();
        let mut v = DomineeringValues::new();
        let va = v.value(&mut arena, &a).unwrap();
        for sym in Sym::ALL {
            let t = v.value(&mut arena, &a.transform(sym)).unwrap();
            let want = if sym.swaps_axes() { arena.neg(va) } else { va };
            prop_assert_eq!(t, want);
        }
        // a beside b with a gap column: the sum of the two
        let mut cells = Vec::new();
        for r in 0..a.height() {
            for c in 0..a.width() {
                if a.contains(r, c) { cells.push((r, c)); }
            }
        }
        for r in 0..b.height() {
            for c in 0..b.width() {
                if b.contains(r, c) { cells.push((r, a.width() + 1 + c)); }
            }
        }
        let both = Shape::from_cells(cells).unwrap();
        let vb = v.value(&mut arena, &b).unwrap();
        let sum = arena.sum(va, vb).unwrap();
        prop_assert_eq!(v.value(&mut arena, &both).unwrap(), sum);
    }
}

/// A random (not necessarily connected) cell set in a box of up to
/// `max_w x max_h` cells, area above 64 allowed.
fn wide_shape(max_w: usize, max_h: usize) -> impl Strategy<Value = Shape> {
    (1..=max_w, 1..=max_h, any::<u128>()).prop_filter_map("empty", |(w, h, bits)| {
        let area = w * h;
        let mask = if area >= 128 {
            bits
        } else {
            bits & ((1u128 << area) - 1)
        };
        if mask == 0 {
            return None;
        }
        let cells: Vec<(usize, usize)> = (0..area)
            .filter(|&i| mask >> i & 1 == 1)
            .map(|i| (i / w, i % w))
            .collect();
        Shape::from_cells(cells)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Past 64 bits: the word-level images equal the games crate's
    /// cell-by-cell `Transform::map_cell`, and components partition the
    /// cells.
    #[test]
    fn wide_transforms_match_the_games_primitive(s in wide_shape(11, 11)) {
        for &a in &Sym::ALL {
            prop_assert_eq!(s.transform(a), s.transform_by_cells(a));
        }
        for g in [Group::RowPreserving, Group::Square] {
            let (c, sym) = s.canonical_with(g);
            let slow = g.syms().iter().map(|&a| s.transform_by_cells(a)).min().unwrap();
            prop_assert_eq!(c, slow);
            prop_assert_eq!(s.transform(sym), c);
        }
        let parts = s.components();
        prop_assert_eq!(parts.iter().map(Shape::len).sum::<usize>(), s.len());
        prop_assert!(parts.iter().all(Shape::is_connected));
    }
}
