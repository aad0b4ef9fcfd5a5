//! The checker's leaf rules against plain minimax: Domineering's move
//! counts (with integer tails) never decide a position the wrong way, and
//! regions partition the cells with every footprint inside one.

use partizan_check::leaves::{
    decide_by_counts, domineering_counts, domineering_counts_plain, integer_bounds, regions,
};
use partizan_check::values::Values;
use partizan_games::{Board, Clobber, Domineering, Konane, Player, Ruleset};
use rustc_hash::FxHashMap;

/// Whether `mover` wins `b` plus the integer `n` (free moves for Left
/// when positive, for Right when negative), by minimax.
fn wins(b: &Board, n: i64, mover: Player, memo: &mut FxHashMap<(Board, i64, bool), bool>) -> bool {
    let key = (*b, n, mover == Player::Left);
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let mut opts = Vec::new();
    Domineering.options(b, mover, |o| opts.push((o, n)));
    match mover {
        Player::Left if n > 0 => opts.push((*b, n - 1)),
        Player::Right if n < 0 => opts.push((*b, n + 1)),
        _ => {}
    }
    let w = opts
        .iter()
        .any(|(o, m)| !wins(o, *m, mover.opponent(), memo));
    memo.insert(key, w);
    w
}

fn random_board(rng: &mut fastrand::Rng) -> Board {
    let rows = rng.usize(2..=5);
    let cols = rng.usize(2..=5);
    let holes = rng.u8(3..8);
    board_with_holes(rng, rows, cols, holes)
}

/// A `rows` x `cols` board, each cell blocked with chance `1 / holes`.
fn board_with_holes(rng: &mut fastrand::Rng, rows: usize, cols: usize, holes: u8) -> Board {
    let text: Vec<String> = (0..rows)
        .map(|_| {
            (0..cols)
                .map(|_| if rng.u8(..holes) == 0 { '#' } else { '.' })
                .collect()
        })
        .collect();
    Domineering.parse(&text.join("|")).unwrap()
}

#[test]
fn counting_moves_never_decides_wrongly() {
    let mut rng = fastrand::Rng::with_seed(7);
    let mut memo = FxHashMap::default();
    let mut values = Values::new();
    let (mut decided, mut tried, mut with_areas) = (0, 0, 0);
    for _ in 0..1500 {
        let b = random_board(&mut rng);
        let n = rng.i64(-2..=2);
        let t = values.integer(n);
        let (lo, hi) = integer_bounds(&mut values, t, 64).unwrap();
        assert_eq!((lo, hi), (n, n));
        let left = domineering_counts(&b, Player::Left);
        let right = domineering_counts(&b, Player::Right);
        with_areas += usize::from(left.areas + right.areas > 0);
        for mover in Player::BOTH {
            tried += 1;
            if let Some(w) = decide_by_counts(left, right, lo, hi, mover) {
                decided += 1;
                assert_eq!(
                    w,
                    wins(&b, n, mover, &mut memo),
                    "{} + {n}, {mover:?} to move: {left:?} {right:?}",
                    Domineering.format(&b)
                );
            }
        }
    }
    // The rule must decide something to be worth testing, and protective
    // areas must come up.
    assert!(decided > tried / 8, "decided {decided} of {tried}");
    assert!(with_areas > 200, "{with_areas} boards with areas");
    eprintln!("decided {decided} of {tried}; {with_areas} boards with areas");
}

/// With a tail known only to lie between `lo` and `hi`, a decision must
/// hold whichever integer between them the tail is: each claim reads the
/// bound that is worse for it (a mix-up of the two is caught here, where
/// the tests above, with `lo == hi`, cannot see it).
#[test]
fn counting_moves_with_a_wide_tail_never_decides_wrongly() {
    let mut rng = fastrand::Rng::with_seed(11);
    let mut memo = FxHashMap::default();
    let (mut decided, mut tried) = (0, 0);
    for _ in 0..1500 {
        let b = random_board(&mut rng);
        let lo = rng.i64(-3..=2);
        let hi = lo + rng.i64(1..=3);
        let left = domineering_counts(&b, Player::Left);
        let right = domineering_counts(&b, Player::Right);
        for mover in Player::BOTH {
            tried += 1;
            if let Some(w) = decide_by_counts(left, right, lo, hi, mover) {
                decided += 1;
                for n in lo..=hi {
                    assert_eq!(
                        w,
                        wins(&b, n, mover, &mut memo),
                        "{} + {n} (read as {lo}..{hi}), {mover:?} to move: {left:?} {right:?}",
                        Domineering.format(&b)
                    );
                }
            }
        }
    }
    assert!(decided > tried / 10, "decided {decided} of {tried}");
}

/// A tail between two integers is read as the one that makes each claim
/// harder, so a switch's bounds are its stops' integers around it.
#[test]
fn a_tail_between_integers_is_bounded_by_them() {
    let mut v = Values::new();
    let (three, minus_three) = (v.integer(3), v.integer(-3));
    let switch = v.make(vec![three], vec![minus_three]);
    assert_eq!(integer_bounds(&mut v, switch, 64), Some((-4, 4)));
    let half = {
        let one = v.integer(1);
        let zero = v.zero();
        v.make(vec![zero], vec![one])
    };
    assert_eq!(integer_bounds(&mut v, half, 64), Some((0, 1)));
    let big = v.integer(70);
    assert_eq!(integer_bounds(&mut v, big, 64), None);
}

/// The counts by hand on one board: Left's safe moves are the vertical
/// pairs walled in across (both sides blocked), her most moves the
/// vertical pairs that fit.
#[test]
fn counts_by_hand() {
    let b = Domineering.parse("#.#.|#.#.|....").unwrap();
    let l = domineering_counts(&b, Player::Left);
    assert_eq!((l.safe, l.max, l.areas), (2, 2, 0));
    let r = domineering_counts(&b, Player::Right);
    assert_eq!((r.safe, r.max, r.areas), (0, 2, 0));
    // An empty 2 x 2 walled on the west: one area for Left (and one for
    // Right, walled by the board's edges above and below).
    let b = Domineering.parse("#..|#..").unwrap();
    let l = domineering_counts(&b, Player::Left);
    assert_eq!((l.safe, l.max, l.areas, l.usable), (0, 2, 1, 4));
    // Left moving first takes it: two moves, Right none.
    assert_eq!(
        decide_by_counts(l, domineering_counts(&b, Player::Right), 0, 0, Player::Left),
        Some(true)
    );
}

/// The bitboard counts are the cell-by-cell twin's, on boards of every
/// shape up to 128 cells (one row, one column, the widest and tallest).
#[test]
fn bitboard_counts_are_the_plain_ones() {
    let mut rng = fastrand::Rng::with_seed(23);
    let mut with_areas = 0;
    let shapes = [
        (1, 1),
        (1, 9),
        (9, 1),
        (2, 64),
        (64, 2),
        (1, 128),
        (128, 1),
        (8, 16),
        (11, 11),
    ];
    for i in 0..4000 {
        let (rows, cols) = if i < shapes.len() * 40 {
            shapes[i / 40]
        } else {
            (rng.usize(1..=10), rng.usize(1..=10))
        };
        let holes = rng.u8(2..9);
        let b = board_with_holes(&mut rng, rows, cols, holes);
        for p in Player::BOTH {
            with_areas += usize::from(domineering_counts_plain(&b, p).areas > 1);
            assert_eq!(
                domineering_counts(&b, p),
                domineering_counts_plain(&b, p),
                "{p:?} on {}",
                Domineering.format(&b)
            );
        }
    }
    assert!(with_areas > 500, "only {with_areas} boards with two areas");
}

#[test]
fn regions_partition_the_cells_and_hold_every_footprint() {
    let mut rng = fastrand::Rng::with_seed(11);
    for i in 0..300 {
        let b = random_board(&mut rng);
        check_regions(&Domineering, &b, i);
        let c = Clobber
            .parse(&Domineering.format(&b).replace('#', "x").replace('.', "o"))
            .unwrap();
        check_regions(&Clobber, &c, i);
    }
    let k = Konane.parse("xox.|o.ox|x.xo").unwrap();
    check_regions(&Konane, &k, 0);
}

fn check_regions<R: Ruleset>(rules: &R, b: &Board, i: usize) {
    let parts = regions(rules, b);
    let mut union = 0u128;
    for &p in &parts {
        assert_eq!(union & p, 0, "{i}: regions overlap");
        union |= p;
    }
    assert_eq!(union, rules.cells(b), "{i}: regions miss cells");
    rules.footprints(b, |f| {
        let f = f & rules.cells(b);
        if f != 0 {
            assert_eq!(
                parts.iter().filter(|&&p| p & f != 0).count(),
                1,
                "{i}: a footprint spans regions"
            );
        }
    });
}

/// The counts attacked through the replay: a certificate of a random
/// board with no records (whole positions, `value-cells 0`, as the prover
/// writes them now: the counts end every line they can) makes the checker
/// search every position itself, deciding by its counts wherever they
/// reach. Each false claim must be refused and each true one accepted, the
/// truth by plain minimax: counts that misjudged a position for the
/// claimed winner would let a false claim through.
#[test]
fn record_less_claims_stand_or_fall_with_minimax() {
    use partizan_check::{check, Certificate, Claims, Header};
    let mut rng = fastrand::Rng::with_seed(31);
    let mut memo = FxHashMap::default();
    let (mut refused, mut by_counts) = (0, 0);
    for _ in 0..300 {
        let rows = rng.usize(2..=4);
        let cols = rng.usize(2..=5);
        let holes = rng.u8(4..9);
        let b = board_with_holes(&mut rng, rows, cols, holes);
        let left = wins(&b, 0, Player::Left, &mut memo);
        let right = wins(&b, 0, Player::Right, &mut memo);
        for (l, r) in [(left, right), (!left, right), (left, !right)] {
            let cert = Certificate {
                header: Header::whole_by_bounds(
                    Domineering.name(),
                    Domineering.format(&b),
                    Claims {
                        left_first: Some(l),
                        right_first: Some(r),
                    },
                ),
                records: Vec::new(),
            };
            let got = check(&Domineering, &cert, 1_000_000);
            if (l, r) == (left, right) {
                let rep = got.unwrap_or_else(|e| panic!("{}: {e}", Domineering.format(&b)));
                by_counts += rep.by_bounds;
            } else {
                assert!(
                    got.is_err(),
                    "a false claim ({l}, {r}) on {} passed",
                    Domineering.format(&b)
                );
                refused += 1;
            }
        }
    }
    assert_eq!(refused, 600);
    assert!(by_counts > 1000, "the counts decided only {by_counts}");
}
