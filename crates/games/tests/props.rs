//! Property tests: fast paths against their brute-force twins, and text
//! round trips, on random boards of every ruleset.

use partizan_games::{
    derived_related, Amazons, Bits, Board, Clobber, Cram, Domineering, Konane, Player, Ruleset,
    Transform,
};
use proptest::prelude::*;

/// A random board: each cell picks a layer (0..3) or a hole (3), with
/// `kinds` layers in use.
fn board(kinds: usize) -> impl Strategy<Value = Board> {
    (1usize..=12, 1usize..=10).prop_flat_map(move |(w, h)| {
        let h = h.min(128 / w);
        proptest::collection::vec(0usize..=kinds, w * h).prop_map(move |cells| {
            let mut layers = [0 as Bits; 3];
            for (i, &k) in cells.iter().enumerate() {
                if k < kinds {
                    layers[k] |= 1 << i;
                }
            }
            Board::new(w, h, layers).expect("in range")
        })
    })
}

fn related_matches<R: Ruleset>(r: &R, b: &Board, set: Bits) {
    let set = set & b.full();
    assert_eq!(
        r.related(b, set),
        derived_related(r, b, set),
        "{}",
        r.format(b)
    );
    // Single cells too, which is how the flood uses it.
    let mut s = b.full();
    while s != 0 {
        let one = s & s.wrapping_neg();
        s &= s - 1;
        assert_eq!(r.related(b, one), derived_related(r, b, one));
    }
}

fn round_trip<R: Ruleset>(r: &R, b: &Board) {
    assert_eq!(r.parse(&r.format(b)).as_ref(), Ok(b));
}

/// Every move's changed cells lie inside one footprint-connected set.
fn moves_within_relation<R: Ruleset>(r: &R, b: &Board) {
    for p in Player::BOTH {
        r.options(b, p, |o| {
            let changed = (0..3).fold(0, |acc, k| acc | (b.layer(k) ^ o.layer(k)));
            let seed = changed & changed.wrapping_neg();
            let comp = partizan_games::flood(seed, r.cells(b), |s| r.related(b, s) | s);
            assert_eq!(changed & !comp, 0, "{} -> {}", r.format(b), r.format(&o));
        });
    }
}

/// The bit-parallel mobility counts exactly the options (its twin).
fn mobility_counts_options<R: Ruleset>(r: &R, b: &Board) {
    for p in Player::BOTH {
        let mut n = 0;
        r.options(b, p, |_| n += 1);
        assert_eq!(r.mobility(b, p), n, "{} {p:?}", r.format(b));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn mobility_is_the_option_count(b1 in board(1), b2 in board(2), b3 in board(3)) {
        mobility_counts_options(&Domineering, &b1);
        mobility_counts_options(&Cram, &b1);
        mobility_counts_options(&Clobber, &b2);
        mobility_counts_options(&Konane, &b3);
    }

    #[test]
    fn konane_mobility_counts_multiple_jumps(w in 3usize..=12, row in any::<u64>()) {
        // One row of alternating stones and gaps: long chains of hops.
        let text: String = (0..w)
            .map(|i| match (row >> (2 * i)) & 3 {
                0 | 1 if i % 2 == 1 => 'o',
                0 | 1 => '.',
                2 => 'x',
                _ => '.',
            })
            .collect();
        let b = Konane.parse(&text).unwrap();
        mobility_counts_options(&Konane, &b);
    }

    #[test]
    fn domineering_related(b in board(1), set in any::<u128>()) {
        related_matches(&Domineering, &b, set);
        round_trip(&Domineering, &b);
        moves_within_relation(&Domineering, &b);
    }

    #[test]
    fn cram_related(b in board(1), set in any::<u128>()) {
        related_matches(&Cram, &b, set);
        moves_within_relation(&Cram, &b);
    }

    #[test]
    fn clobber_related(b in board(2), set in any::<u128>()) {
        related_matches(&Clobber, &b, set);
        round_trip(&Clobber, &b);
        moves_within_relation(&Clobber, &b);
    }

    #[test]
    fn konane_related(b in board(3), set in any::<u128>()) {
        related_matches(&Konane, &b, set);
        round_trip(&Konane, &b);
        moves_within_relation(&Konane, &b);
    }

    #[test]
    fn amazons_related(b in board(3), set in any::<u128>()) {
        related_matches(&Amazons, &b, set);
        if b.layer(0) | b.layer(1) != 0 {
            round_trip(&Amazons, &b);
        }
        moves_within_relation(&Amazons, &b);
    }

    #[test]
    fn transforms_compose(b in board(3)) {
        for t in Transform::ALL {
            let tb = b.transform(t);
            prop_assert_eq!(tb.cells().count_ones(), b.cells().count_ones());
            prop_assert_eq!(tb.transform(t.inverse()), b);
            for u in Transform::ALL {
                prop_assert_eq!(tb.transform(u), b.transform(t.then(u)));
            }
        }
    }

    #[test]
    fn crop_keeps_cells(b in board(3)) {
        let c = b.crop();
        prop_assert_eq!(c.cells().count_ones(), b.cells().count_ones());
        prop_assert_eq!(c.crop(), c);
        for t in Transform::ALL {
            prop_assert_eq!(b.transform(t).crop(), c.transform(t));
        }
    }
}

/// `options_while` sees the options `options` gives, in the same order, and
/// stops when told, for every registered ruleset.
#[test]
fn options_while_agrees_with_options_and_stops() {
    use partizan_games::{with_rules, Player, Rules};
    for &rules in Rules::ALL {
        with_rules!(rules, |r| {
            let b = r.parse(rules.info().example).unwrap();
            for p in [Player::Left, Player::Right] {
                let mut all = Vec::new();
                r.options(&b, p, |o| all.push(o));
                let mut seen = Vec::new();
                assert!(r.options_while(&b, p, |o| {
                    seen.push(o);
                    true
                }));
                assert_eq!(seen, all, "{rules}");
                if all.len() >= 2 {
                    let mut first = Vec::new();
                    assert!(!r.options_while(&b, p, |o| {
                        first.push(o);
                        first.len() < 2
                    }));
                    assert_eq!(first, all[..2].to_vec(), "{rules}");
                }
            }
        });
    }
}
