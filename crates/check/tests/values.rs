//! The checker's own value engine against plain minimax on the games'
//! trees, and, as a second opinion, against `partizan_core`'s arena (the
//! engine the search uses: two implementations written apart must agree
//! form for form).

use partizan_check::leaves::RegionValues;
use partizan_check::values::{Id, Values};
use partizan_core::{Arena, GameId};
use partizan_games::{
    Board, Clobber, Cram, Domineering, Player, Ruleset, Snort, ToadsAndFrogs, TopplingDominoes,
};
use proptest::prelude::*;
use rustc_hash::FxHashMap;

/// Whether `mover` wins the sum of `boards` moving first, by minimax over
/// every board's moves (normal play).
fn minimax<R: Ruleset>(
    rules: &R,
    boards: &[Board],
    mover: Player,
    memo: &mut FxHashMap<(Vec<Board>, bool), bool>,
) -> bool {
    let key = (boards.to_vec(), mover == Player::Left);
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let mut win = false;
    'all: for i in 0..boards.len() {
        let mut opts = Vec::new();
        rules.options(&boards[i], mover, |o| opts.push(o));
        for o in opts {
            let mut next = boards.to_vec();
            next[i] = o;
            if !minimax(rules, &next, mover.opponent(), memo) {
                win = true;
                break 'all;
            }
        }
    }
    memo.insert(key, win);
    win
}

fn value<R: Ruleset>(rules: &R, v: &mut Values, rv: &mut RegionValues, b: &Board) -> Id {
    rv.value(rules, v, b, &mut u64::MAX.clone()).unwrap()
}

/// Random small boards of `rules` from its glyphs.
fn board<R: Ruleset>(rules: &R, glyphs: &[char], rows: usize, cols: usize, seed: u64) -> Board {
    let mut rng = fastrand::Rng::with_seed(seed);
    let text: Vec<String> = (0..rows)
        .map(|_| {
            (0..cols)
                .map(|_| glyphs[rng.usize(..glyphs.len())])
                .collect()
        })
        .collect();
    rules.parse(&text.join("|")).unwrap()
}

/// For each ruleset: the outcome of one board's value and of the sum of
/// two boards' values is minimax's.
fn outcomes_agree<R: Ruleset>(rules: &R, glyphs: &[char], rows: usize, cols: usize) {
    let mut v = Values::new();
    let mut rv = RegionValues::default();
    let mut memo = FxHashMap::default();
    for seed in 0..24u64 {
        let a = board(rules, glyphs, rows, cols, seed);
        let b = board(rules, glyphs, rows, cols, seed + 1000);
        let (ga, gb) = (
            value(rules, &mut v, &mut rv, &a),
            value(rules, &mut v, &mut rv, &b),
        );
        let sum = v.sum(ga, gb);
        for (g, boards) in [(ga, vec![a]), (sum, vec![a, b])] {
            assert_eq!(
                v.left_first_wins(g),
                minimax(rules, &boards, Player::Left, &mut memo),
                "{} {boards:?} Left first",
                rules.name()
            );
            assert_eq!(
                v.right_first_wins(g),
                minimax(rules, &boards, Player::Right, &mut memo),
                "{} {boards:?} Right first",
                rules.name()
            );
        }
    }
}

#[test]
fn outcomes_of_values_and_sums_are_minimaxs() {
    outcomes_agree(&Domineering, &['.', '.', '.', '#'], 3, 3);
    outcomes_agree(&Cram, &['.', '.', '.', '#'], 3, 3);
    outcomes_agree(&Clobber, &['x', 'o', '.'], 2, 3);
    outcomes_agree(&ToadsAndFrogs, &['T', 'F', '.', '.'], 1, 6);
    outcomes_agree(&TopplingDominoes, &['L', 'R', 'G'], 1, 5);
    outcomes_agree(&Snort, &['.', '.', '#'], 2, 3);
}

/// Every form the engine makes is canonical and one of a kind: remaking
/// it from its options gives it back, no two forms are equal, and the
/// arena of `partizan_core` (canonicalising the same options by its own
/// code) builds the same forms.
#[test]
fn forms_are_canonical_and_agree_with_the_arena() {
    let mut v = Values::new();
    let mut rv = RegionValues::default();
    for seed in 0..16u64 {
        for (rows, cols) in [(3, 3), (2, 4), (3, 4)] {
            let b = board(&Domineering, &['.', '.', '.', '#'], rows, cols, seed);
            value(&Domineering, &mut v, &mut rv, &b);
        }
        let c = board(&Clobber, &['x', 'o', 'x', 'o', '.'], 3, 3, seed);
        value(&Clobber, &mut v, &mut rv, &c);
    }
    let n = v.len() as Id;
    assert!(n > 50, "only {n} forms");
    for g in 0..n {
        let (l, r) = (v.left(g).to_vec(), v.right(g).to_vec());
        assert_eq!(v.make(l, r), g, "form {g} is not canonical");
    }
    for a in 0..n {
        for b in 0..n {
            if a != b {
                assert!(!(v.le(a, b) && v.le(b, a)), "forms {a} and {b} are equal");
            }
        }
    }
    // Into the arena and back: the same form.
    let mut arena = Arena::new();
    let mut to_core: Vec<GameId> = Vec::new();
    for g in 0..n {
        // Options are made before the forms that use them.
        let l: Vec<GameId> = v.left(g).iter().map(|&x| to_core[x as usize]).collect();
        let r: Vec<GameId> = v.right(g).iter().map(|&x| to_core[x as usize]).collect();
        let c = arena.construct(&l, &r).unwrap();
        assert_eq!(arena.left_options(c).len(), l.len(), "form {g}");
        assert_eq!(arena.right_options(c).len(), r.len(), "form {g}");
        to_core.push(c);
    }
    let distinct: std::collections::HashSet<GameId> = to_core.iter().copied().collect();
    assert_eq!(
        distinct.len(),
        n as usize,
        "the arena merges forms the engine keeps apart"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// Sums commute and associate, 0 is neutral, and `a <= a + b` exactly
    /// when Right loses `b` moving first (`b >= 0`).
    #[test]
    fn sums_obey_their_laws(s1 in 0u64..500, s2 in 0u64..500, s3 in 0u64..500) {
        let mut v = Values::new();
        let mut rv = RegionValues::default();
        let g = |v: &mut Values, rv: &mut RegionValues, s: u64| {
            let b = board(&Domineering, &['.', '.', '#'], 2, 3, s);
            value(&Domineering, v, rv, &b)
        };
        let (a, b, c) = (g(&mut v, &mut rv, s1), g(&mut v, &mut rv, s2), g(&mut v, &mut rv, s3));
        let zero = v.zero();
        prop_assert_eq!(v.sum(a, zero), a);
        let ab = v.sum(a, b);
        prop_assert_eq!(ab, v.sum(b, a));
        let ab_c = v.sum(ab, c);
        let bc = v.sum(b, c);
        prop_assert_eq!(ab_c, v.sum(a, bc));
        let b_nonneg = !v.right_first_wins(b);
        prop_assert_eq!(v.le(a, ab), b_nonneg);
    }
}

#[test]
fn integers_are_what_they_say() {
    let mut v = Values::new();
    let (two, three, minus) = (v.integer(2), v.integer(3), v.integer(-1));
    let five = v.integer(5);
    assert_eq!(v.sum(two, three), five);
    assert_eq!(v.sum(five, minus), v.integer(4));
    assert!(v.le(minus, two) && !v.le(two, minus));
    assert!(v.left_first_wins(two) && !v.right_first_wins(two));
    let zero = v.zero();
    let one = v.integer(1);
    assert_eq!(v.sum(one, minus), zero);
}
