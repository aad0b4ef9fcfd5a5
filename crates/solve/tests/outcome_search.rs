//! The large-board outcome search against its brute-force twin
//! ([`wins_plain`]: exhaustive search on whole boards, no regions, no
//! values, no bounds, no ordering) on random small boards of every
//! ruleset, under both conventions and every switch; and each pruning rule
//! (the move-bound cutoff, answering by region values) against brute force.

use partizan_core::{Arena, Dyadic};
use partizan_games::{Amazons, Clobber, Cram, Domineering, Konane, Player, Ruleset};
use partizan_solve::outcome::{wins_plain, Convention};
use partizan_solve::search::{
    decide_by_bounds, solve, tail_bounds, Control, Knowledge, MoveOrdering, Parallel, SearchConfig,
};
use partizan_solve::{Savings, Solver};
use rustc_hash::FxHashMap;

use crate::common;
use common::Rng;

/// A random board text of `glyphs`, the first glyph weighted `w0` of 10.
fn random_text(rng: &mut Rng, h: usize, w: usize, glyphs: &[char], w0: u64) -> String {
    let mut rows = Vec::new();
    for _ in 0..h {
        let row: String = (0..w)
            .map(|_| {
                if rng.below(10) < w0 {
                    glyphs[0]
                } else {
                    glyphs[1 + rng.below(glyphs.len() as u64 - 1) as usize]
                }
            })
            .collect();
        rows.push(row);
    }
    rows.join("|")
}

fn configs(convention: Convention) -> Vec<SearchConfig> {
    let mut out = Vec::new();
    for value_cells in [0, 3, 6, 12] {
        for ordering in [
            MoveOrdering::Natural,
            MoveOrdering::Mobility,
            MoveOrdering::Safety,
            MoveOrdering::History,
        ] {
            for bounds in [false, true] {
                let mut c = SearchConfig::new(convention);
                c.value_cells = if convention == Convention::Normal {
                    value_cells
                } else {
                    0
                };
                c.ordering = ordering;
                c.bounds = bounds;
                // A tiny table: entries are pushed out all the time.
                c.table_bytes = if bounds { 1 << 10 } else { 1 << 20 };
                // Shared roots: 3 threads on one first player after the
                // other, or 2 on each at once (4 in all).
                c.threads = match value_cells {
                    6 => 3,
                    3 => 4,
                    _ => 1,
                };
                c.parallel = if value_cells == 6 {
                    Parallel::RootSplit
                } else {
                    Parallel::FirstPlayers
                };
                c.symmetry = ordering != MoveOrdering::Natural;
                out.push(c);
            }
        }
    }
    out
}

/// Compare the search with the twin on `n` random boards from `gen`.
fn twin<R: Knowledge>(rules: &R, n: usize, seed: u64, gen: impl Fn(&mut Rng) -> String) {
    let mut rng = Rng(seed);
    for _ in 0..n {
        let text = gen(&mut rng);
        let b = rules.parse(&text).expect("generated boards parse");
        for convention in [Convention::Normal, Convention::Misere] {
            let mut memo = FxHashMap::default();
            let want_l = wins_plain(rules, convention, &b, Player::Left, &mut memo);
            let want_r = wins_plain(rules, convention, &b, Player::Right, &mut memo);
            for cfg in configs(convention) {
                let r = solve(rules, &b, &cfg, &Control::default()).expect("search runs");
                assert_eq!(
                    r.outcomes()
                        .map(|o| (o.left_first, o.right_first))
                        .expect("both first players searched"),
                    (want_l, want_r),
                    "{} {text:?} {convention:?} {cfg:?}",
                    rules.name()
                );
                // Each reported winning move wins: the opponent loses after it.
                for (fp, opp) in [(&r.left, Player::Right), (&r.right, Player::Left)] {
                    match fp.winning_move {
                        Some(m) => {
                            assert!(fp.wins);
                            assert!(
                                !wins_plain(rules, convention, &m, opp, &mut memo),
                                "{text:?}: the winning move loses"
                            );
                        }
                        None => {
                            // Only a misère player without a move wins
                            // without moving.
                            let mut any = false;
                            rules.options(&b, fp.player, |_| any = true);
                            assert!(
                                !fp.wins || (convention == Convention::Misere && !any),
                                "{text:?}: a win with no move"
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn domineering_matches_the_twin() {
    twin(&Domineering, 40, 1, |r| {
        let (h, w) = (2 + r.below(4) as usize, 2 + r.below(4) as usize);
        random_text(r, h, w, &['.', '#'], 8)
    });
}

#[test]
fn cram_matches_the_twin() {
    twin(&Cram, 25, 2, |r| {
        let (h, w) = (2 + r.below(3) as usize, 2 + r.below(3) as usize);
        random_text(r, h, w, &['.', '#'], 8)
    });
}

/// Cram is impartial: the table key leaves the mover out, so Right's
/// search (after Left's, one thread) finds each of its first moves in the
/// table, and the answers still match the twin.
#[test]
fn cram_right_first_is_answered_from_left_first_entries() {
    // Odd sides (no mirror strategy): 5 x 5 is P (Beling's nimber 0).
    for text in [
        ".....|.....|.....",
        ".......|.......|.......",
        ".....|.....|.....|.....|.....",
    ] {
        let b = Cram.parse(text).unwrap();
        let mut cfg = SearchConfig::for_ruleset(&Cram, Convention::Normal);
        cfg.threads = 1;
        let r = solve(&Cram, &b, &cfg, &Control::default()).unwrap();
        assert_eq!(
            r.outcomes()
                .expect("both first players searched")
                .left_first,
            r.outcomes()
                .expect("both first players searched")
                .right_first,
            "{text}"
        );
        if text.len() == 29 {
            assert!(
                !r.outcomes()
                    .expect("both first players searched")
                    .left_first
            );
        }
        let moves = u64::from(Cram.mobility(&b, Player::Right));
        assert!(
            r.left.counts.nodes > moves + 1,
            "{text}: {:?}",
            r.left.counts
        );
        assert!(
            r.right.counts.nodes <= moves + 1,
            "{text}: {:?}",
            r.right.counts
        );
    }
}

/// A random board text kept by an involution: the half-turn (`turn`) or
/// the left-right flip. With stones, the image has `x` and `o` exchanged
/// (a Clobber position the mirror strategy may use) and a cell that is its
/// own image is left empty.
fn mirrored_text(rng: &mut Rng, h: usize, w: usize, glyphs: &[char], turn: bool) -> String {
    let text = random_text(rng, h, w, glyphs, 3);
    let mut g: Vec<Vec<char>> = text.split('|').map(|r| r.chars().collect()).collect();
    let swap = |c: char| match c {
        'x' => 'o',
        'o' => 'x',
        c => c,
    };
    let colours = glyphs.contains(&'x');
    for r in 0..h {
        for c in 0..w {
            let (r2, c2) = if turn {
                (h - 1 - r, w - 1 - c)
            } else {
                (r, w - 1 - c)
            };
            if (r2, c2) == (r, c) {
                if colours {
                    g[r][c] = '.';
                }
            } else if (r2, c2) > (r, c) {
                g[r2][c2] = if colours { swap(g[r][c]) } else { g[r][c] };
            }
        }
    }
    g.iter()
        .map(|r| r.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("|")
}

/// Outcomes for both first players and the knowledge cutoffs, for every
/// configuration, against brute force.
fn against_brute_force<R: Knowledge>(rules: &R, text: &str) -> u64 {
    let b = rules.parse(text).unwrap();
    let mut memo = FxHashMap::default();
    let want = (
        wins_plain(rules, Convention::Normal, &b, Player::Left, &mut memo),
        wins_plain(rules, Convention::Normal, &b, Player::Right, &mut memo),
    );
    let mut cut = 0;
    for cfg in configs(Convention::Normal) {
        let r = solve(rules, &b, &cfg, &Control::default()).unwrap();
        assert_eq!(
            r.outcomes()
                .map(|o| (o.left_first, o.right_first))
                .expect("both first players searched"),
            want,
            "{} {text:?} {cfg:?}",
            rules.name()
        );
        cut += r.total().by_bounds;
    }
    cut
}

/// The mirror strategy (a position kept by a player-swapping involution,
/// no footprint meeting its image, tail 0: the mover loses) against brute
/// force on random mirrored Cram and Clobber boards, where it fires.
#[test]
fn mirror_strategy_matches_brute_force() {
    let mut rng = Rng(77);
    let mut fired = 0;
    for k in 0..120 {
        let (h, w) = (2 + rng.below(3) as usize, 2 + rng.below(3) as usize);
        let turn = k % 2 == 0;
        fired += if k % 3 != 0 {
            against_brute_force(&Cram, &mirrored_text(&mut rng, h, w, &['.', '#'], turn))
        } else {
            against_brute_force(
                &Clobber,
                &mirrored_text(&mut rng, h, w, &['.', 'x', 'o'], turn),
            )
        };
    }
    // Cram's move bounds claim no safe moves, so its cutoffs are mirrors.
    assert!(fired > 0, "the mirror strategy never fired");
    // 6 x 6 Cram: each first move is refuted by its mirror image, tried
    // first, after which the mirror strategy answers (24 M nodes without).
    let b = Cram
        .parse("......|......|......|......|......|......")
        .unwrap();
    // (The general engine's: Cram's own search goes by nimbers.)
    let mut cfg = SearchConfig::for_ruleset(&Cram, Convention::Normal);
    cfg.fast = false;
    let r = solve(&Cram, &b, &cfg, &Control::default()).unwrap();
    assert!(
        !r.outcomes()
            .expect("both first players searched")
            .left_first
            && !r
                .outcomes()
                .expect("both first players searched")
                .right_first
    );
    assert!(r.left.counts.by_bounds > 0, "{:?}", r.left.counts);
    assert!(r.left.counts.nodes < 1000, "{:?}", r.left.counts);
}

#[test]
fn clobber_matches_the_twin() {
    twin(&Clobber, 25, 3, |r| {
        let (h, w) = (2 + r.below(2) as usize, 2 + r.below(3) as usize);
        random_text(r, h, w, &['.', 'x', 'o'], 2)
    });
}

#[test]
fn konane_matches_the_twin() {
    twin(&Konane, 25, 4, |r| {
        let (h, w) = (2 + r.below(3) as usize, 2 + r.below(3) as usize);
        random_text(r, h, w, &['.', 'x', 'o'], 3)
    });
}

#[test]
fn amazons_matches_the_twin() {
    twin(&Amazons, 12, 5, |r| {
        let (h, w) = (2 + r.below(2) as usize, 2 + r.below(2) as usize);
        let mut t: Vec<char> = random_text(r, h, w, &['.', '#'], 8).chars().collect();
        // One queen each on distinct cells.
        let cells: Vec<usize> = (0..t.len()).filter(|&i| t[i] != '|').collect();
        let a = cells[r.below(cells.len() as u64) as usize];
        let mut b = a;
        while b == a {
            b = cells[r.below(cells.len() as u64) as usize];
        }
        t[a] = 'L';
        t[b] = 'R';
        t.into_iter().collect()
    });
}

/// The move-bound cutoff against brute force: on random Domineering
/// boards plus an integer `n` (Left has `n` free moves; Right `-n`), a
/// decided claim must agree with the outcome of value(board) + n, and on
/// the board alone with the exhaustive twin.
#[test]
fn move_bound_cutoff_matches_brute_force() {
    let mut rng = Rng(11);
    let mut decided = 0;
    let mut solver = Solver::new(&Domineering, Savings::ALL).unwrap();
    let mut arena = Arena::new();
    for _ in 0..400 {
        let (h, w) = (1 + rng.below(5) as usize, 1 + rng.below(5) as usize);
        let text = random_text(&mut rng, h, w, &['.', '#'], 7);
        let b = Domineering.parse(&text).unwrap();
        let lb = Domineering.move_bounds(&b, Player::Left).unwrap();
        let rb = Domineering.move_bounds(&b, Player::Right).unwrap();
        let mut memo = FxHashMap::default();
        let v = solver.value(&mut arena, &b).unwrap();
        for n in -3i64..=3 {
            let t = arena.integer(n).unwrap();
            let g = arena.sum(v, t).unwrap();
            let o = arena.outcome(g);
            let lw = matches!(o, partizan_core::Outcome::L | partizan_core::Outcome::N);
            let rw = matches!(o, partizan_core::Outcome::R | partizan_core::Outcome::N);
            for (mover, want) in [(Player::Left, lw), (Player::Right, rw)] {
                if let Some(claim) = decide_by_bounds(lb, rb, n, n, mover) {
                    decided += 1;
                    assert_eq!(claim, want, "{text:?} + {n}, {mover:?}");
                    if n == 0 {
                        let plain =
                            wins_plain(&Domineering, Convention::Normal, &b, mover, &mut memo);
                        assert_eq!(claim, plain, "{text:?}, {mover:?}");
                    }
                }
            }
        }
        // A fractional tail: bounds with floor and ceil of x = n + 1/2.
        let half = Dyadic::new(1, 1).unwrap();
        for n in -2i64..=2 {
            let x = Dyadic::from_int(n).checked_add(half).unwrap();
            let t = arena.number(x).unwrap();
            let g = arena.sum(v, t).unwrap();
            let o = arena.outcome(g);
            let lw = matches!(o, partizan_core::Outcome::L | partizan_core::Outcome::N);
            let rw = matches!(o, partizan_core::Outcome::R | partizan_core::Outcome::N);
            for (mover, want) in [(Player::Left, lw), (Player::Right, rw)] {
                if let Some(claim) = decide_by_bounds(lb, rb, x.floor(), x.ceil(), mover) {
                    decided += 1;
                    assert_eq!(claim, want, "{text:?} + {x}, {mover:?}");
                }
            }
        }
    }
    // The rule must actually fire for the test to mean anything.
    assert!(decided > 500, "only {decided} claims decided");
}

/// The same cutoff with tails that are not numbers (integer bounds from
/// the stops): `lo <= tail <= hi` holds, and every decided claim agrees
/// with the outcome of value(board) + tail.
#[test]
fn move_bound_cutoff_with_infinitesimal_and_hot_tails() {
    let mut rng = Rng(12);
    let mut decided = 0;
    let mut solver = Solver::new(&Domineering, Savings::ALL).unwrap();
    let mut arena = Arena::new();
    let tails: Vec<_> = [
        "*",
        "^",
        "v*",
        "{1|-1}",
        "{2|0||-1}",
        "{3|1}",
        "{-1|-3}",
        "2*",
        "-1^",
    ]
    .iter()
    .map(|t| arena.parse(t).unwrap())
    .collect();
    for &t in &tails {
        let (lo, hi) = tail_bounds(&mut arena, t);
        let l = arena.integer(lo).unwrap();
        let h = arena.integer(hi).unwrap();
        assert!(arena.leq(l, t) && arena.leq(t, h), "{}", arena.display(t));
    }
    for _ in 0..300 {
        let (h, w) = (1 + rng.below(5) as usize, 1 + rng.below(5) as usize);
        let text = random_text(&mut rng, h, w, &['.', '#'], 7);
        let b = Domineering.parse(&text).unwrap();
        let lb = Domineering.move_bounds(&b, Player::Left).unwrap();
        let rb = Domineering.move_bounds(&b, Player::Right).unwrap();
        let v = solver.value(&mut arena, &b).unwrap();
        for &t in &tails {
            let (lo, hi) = tail_bounds(&mut arena, t);
            let g = arena.sum(v, t).unwrap();
            let o = arena.outcome(g);
            let lw = matches!(o, partizan_core::Outcome::L | partizan_core::Outcome::N);
            let rw = matches!(o, partizan_core::Outcome::R | partizan_core::Outcome::N);
            for (mover, want) in [(Player::Left, lw), (Player::Right, rw)] {
                if let Some(claim) = decide_by_bounds(lb, rb, lo, hi, mover) {
                    decided += 1;
                    assert_eq!(claim, want, "{text:?} + {}, {mover:?}", arena.display(t));
                }
            }
        }
    }
    assert!(decided > 500, "only {decided} claims decided");
}

/// Known rectangles from the outcome search (small enough for the default
/// suite); the published table covers them all (see outcome_domineering.rs).
#[test]
fn small_rectangles() {
    for (text, class) in [
        ("..|..", "N"),
        ("...|...|...", "N"),
        ("....|....|....|....", "N"),
        ("....|....|....", "R"),
        ("...|...|...|...", "L"),
    ] {
        let b = Domineering.parse(text).unwrap();
        let r = solve(
            &Domineering,
            &b,
            &SearchConfig::new(Convention::Normal),
            &Control::default(),
        )
        .unwrap();
        let mut memo = FxHashMap::default();
        let l = wins_plain(
            &Domineering,
            Convention::Normal,
            &b,
            Player::Left,
            &mut memo,
        );
        let rr = wins_plain(
            &Domineering,
            Convention::Normal,
            &b,
            Player::Right,
            &mut memo,
        );
        assert_eq!(
            r.outcomes()
                .map(|o| (o.left_first, o.right_first))
                .expect("both first players searched"),
            (l, rr)
        );
        assert_eq!(
            r.outcomes().expect("both first players searched").class(),
            class,
            "{text}"
        );
    }
}

/// Whole rectangles (where mirror images meet all the time, so the
/// symmetric table keys are exercised) against the twin: Domineering up
/// to 16 cells, Cram up to 12, Clobber checkerboards up to 3 x 4.
#[test]
fn rectangles_match_the_twin() {
    fn check<R: Knowledge>(rules: &R, text: &str) {
        let b = rules.parse(text).unwrap();
        let mut memo = FxHashMap::default();
        let l = wins_plain(rules, Convention::Normal, &b, Player::Left, &mut memo);
        let r = wins_plain(rules, Convention::Normal, &b, Player::Right, &mut memo);
        for symmetry in [false, true] {
            for value_cells in [0, 6] {
                let mut c = SearchConfig::new(Convention::Normal);
                c.symmetry = symmetry;
                c.value_cells = value_cells;
                c.table_bytes = 1 << 20;
                let got = solve(rules, &b, &c, &Control::default()).unwrap();
                assert_eq!(
                    got.outcomes()
                        .map(|o| (o.left_first, o.right_first))
                        .expect("both first players searched"),
                    (l, r),
                    "{} {text} {c:?}",
                    rules.name()
                );
            }
        }
    }
    for h in 1..=4 {
        for w in 1..=5 {
            let t = vec![".".repeat(w); h].join("|");
            if h * w <= 16 {
                check(&Domineering, &t);
            }
            if h * w <= 12 {
                check(&Cram, &t);
            }
            if h <= 3 && w <= 4 {
                let rows: Vec<String> = (0..h)
                    .map(|r| {
                        (0..w)
                            .map(|c| if (r + c) % 2 == 0 { 'x' } else { 'o' })
                            .collect()
                    })
                    .collect();
                check(&Clobber, &rows.join("|"));
            }
        }
    }
}
