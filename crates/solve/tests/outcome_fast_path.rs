//! Domineering's own outcome search (`search::domineering`, the fast path
//! `solve` takes for Domineering) against its brute-force twin
//! (`wins_plain`: exhaustive search, no table, no bounds, no ordering) on
//! random small boards with holes: the whole search with each rule alone
//! and with all of them, and each cutoff rule position by position (a
//! decided position is decided the way brute force says).

use common::{random_board, Rng};
use partizan_games::{Board, Domineering, Player, Ruleset};
use partizan_solve::outcome::{wins_plain, Convention};
use partizan_solve::search::domineering::{solve_with, Pos, Rules};
use partizan_solve::search::{solve, Control, First, Parallel, SearchConfig, SearchError};
use rustc_hash::FxHashMap;

use crate::common;

fn brute(b: &Board, memo: &mut FxHashMap<(Board, bool), bool>) -> (bool, bool) {
    (
        wins_plain(&Domineering, Convention::Normal, b, Player::Left, memo),
        wins_plain(&Domineering, Convention::Normal, b, Player::Right, memo),
    )
}

fn rule_sets() -> Vec<(&'static str, Rules)> {
    let one = |f: fn(&mut Rules)| {
        let mut r = Rules::NONE;
        f(&mut r);
        r
    };
    vec![
        ("none", Rules::NONE),
        ("simple bound", one(|r| r.simple_bound = true)),
        ("fine bound", one(|r| r.fine_bound = true)),
        ("skip safe moves", one(|r| r.skip_safe = true)),
        ("ordering", one(|r| r.ordering = true)),
        ("symmetry", one(|r| r.symmetry = true)),
        ("small values", one(|r| r.value_cells = 12)),
        ("tiny values", one(|r| r.value_cells = 4)),
        ("all", Rules::ALL),
        (
            "all, portable copy",
            Rules {
                hardware: false,
                ..Rules::ALL
            },
        ),
    ]
}

#[test]
fn every_rule_alone_and_all_together_match_brute_force() {
    let mut rng = Rng(0x5EED_0011);
    let mut cfg = SearchConfig::new(Convention::Normal);
    cfg.table_bytes = 1 << 16;
    for case in 0..150 {
        // Squares too, so that the transposing symmetries are used.
        let h = 1 + rng.below(5) as usize;
        let w = if case % 3 == 0 {
            h
        } else {
            1 + rng.below(5) as usize
        };
        let holes = rng.below(4);
        let b = random_board(&mut rng, h, w, holes);
        let mut memo = FxHashMap::default();
        let want = brute(&b, &mut memo);
        for (name, rules) in rule_sets() {
            let r = solve_with(&b, &cfg, &Control::default(), rules)
                .expect("the fast path takes Domineering")
                .expect("search runs");
            let got = r
                .outcomes()
                .map(|o| (o.left_first, o.right_first))
                .expect("both first players searched");
            assert_eq!(got, want, "{name}: {}", Domineering.format(&b));
            for (fp, opp) in [(&r.left, Player::Right), (&r.right, Player::Left)] {
                if let Some(m) = fp.winning_move {
                    assert!(fp.wins);
                    let mut legal = false;
                    Domineering.options(&b, fp.player, |o| legal |= o == m);
                    assert!(legal, "{name}: the winning move is not a move");
                    assert!(
                        !wins_plain(&Domineering, Convention::Normal, &m, opp, &mut memo),
                        "{name}: the winning move loses on {}",
                        Domineering.format(&b)
                    );
                } else {
                    assert!(!fp.wins, "{name}: a win without a move");
                }
            }
        }
    }
}

/// Every position a cutoff rule decides, decided as brute force says; on
/// boards up to 5 x 6, where the rules fire often.
#[test]
fn each_cutoff_rule_decides_as_brute_force_does() {
    let mut rng = Rng(0xC0FF_EE00);
    let (mut simple, mut fine, mut valued) = (0, 0, 0);
    for _ in 0..400 {
        let h = 2 + rng.below(4) as usize;
        let w = 2 + rng.below(5) as usize;
        let holes = 2 + rng.below(4);
        let b = random_board(&mut rng, h, w, holes);
        if b.layer(0).count_ones() > 22 {
            continue;
        }
        let mut memo = FxHashMap::default();
        let (l, r) = brute(&b, &mut memo);
        let p = Pos::new(&b).expect("fits");
        for (mover, want) in [(Player::Left, l), (Player::Right, r)] {
            if let Some(w) = p.simple_cut_for(mover) {
                simple += 1;
                assert_eq!(
                    w,
                    want,
                    "simple, {mover:?} first: {}",
                    Domineering.format(&b)
                );
            }
            if let Some(w) = p.fine_cut_for(mover) {
                fine += 1;
                assert_eq!(w, want, "fine, {mover:?} first: {}", Domineering.format(&b));
            }
            for cells in [6, 12] {
                if let Some(w) = p.value_cut_for(mover, cells).expect("values") {
                    valued += 1;
                    assert_eq!(
                        w,
                        want,
                        "values to {cells} cells, {mover:?} first: {}",
                        Domineering.format(&b)
                    );
                }
            }
        }
    }
    // The rules were exercised, not vacuously true.
    assert!(
        simple > 50 && fine > 100 && valued > 100,
        "simple {simple}, fine {fine}, valued {valued}"
    );
}

/// The fast path and the general engine agree, through `solve`, with one
/// thread and with two in both modes.
#[test]
fn the_fast_path_agrees_with_the_general_engine() {
    let mut rng = Rng(77);
    for _ in 0..25 {
        let h = 2 + rng.below(4) as usize;
        let w = 2 + rng.below(4) as usize;
        let b = random_board(&mut rng, h, w, 1);
        let mut general = SearchConfig::new(Convention::Normal);
        general.fast = false;
        general.table_bytes = 1 << 20;
        let want = solve(&Domineering, &b, &general, &Control::default())
            .expect("general")
            .outcomes();
        for (threads, parallel) in [
            (1, Parallel::RootSplit),
            (2, Parallel::RootSplit),
            (2, Parallel::FirstPlayers),
        ] {
            let mut fast = general;
            fast.fast = true;
            fast.threads = threads;
            fast.parallel = parallel;
            let got = solve(&Domineering, &b, &fast, &Control::default())
                .expect("fast")
                .outcomes();
            assert_eq!(
                got,
                want,
                "{} {threads} {parallel:?}",
                Domineering.format(&b)
            );
        }
    }
}

/// Rectangles to 5 x 6 against the published table (Bullock's; Left is
/// vertical), through the fast path.
#[test]
fn small_rectangles_match_the_published_table() {
    let mut seen = 0;
    for (r, c, want) in common::domineering_table() {
        if r * c > 36 || r > 8 || c > 8 {
            continue;
        }
        let b = Domineering
            .parse(&vec![".".repeat(c); r].join("|"))
            .expect("parses");
        let rep = solve(
            &Domineering,
            &b,
            &SearchConfig::new(Convention::Normal),
            &Control::default(),
        )
        .expect("search");
        assert_eq!(
            rep.outcomes().expect("both first players searched").class(),
            want,
            "{r} x {c}"
        );
        seen += 1;
    }
    assert!(seen >= 30);
}

/// The copy of the search compiled for popcount and BMI (taken where the
/// processor has them) and the portable copy visit the same nodes and
/// answer the same, on boards where the bounds and ordering do real work.
#[test]
fn the_hardware_copy_searches_node_for_node_like_the_portable_one() {
    let mut cfg = SearchConfig::new(Convention::Normal);
    cfg.table_bytes = 1 << 22;
    eprintln!(
        "hardware copy available: {}",
        partizan_solve::search::domineering::hardware_search()
    );
    for text in [
        "......|......|......|......|......",
        ".......|.......|.......|.......|.......",
    ] {
        let b = Domineering.parse(text).expect("board");
        let run = |hardware| {
            let rules = Rules {
                hardware,
                ..Rules::ALL
            };
            let r = solve_with(&b, &cfg, &Control::default(), rules)
                .expect("fast path")
                .expect("search");
            (
                r.outcomes().expect("both first players searched").class(),
                r.left.counts,
                r.right.counts,
            )
        };
        assert_eq!(run(true), run(false), "{text}");
    }
}

/// A first player's search on 2 to 8 threads, which deal the replies to
/// each first move out among them (free threads helping with the last
/// ones, all of them putting off what another is searching), agrees with one thread on boards big
/// enough for replies to be searched, and every winning first move it
/// reports wins: the opponent, moving first after it, loses.
#[test]
fn threads_dealing_replies_agree_with_one_thread() {
    let mut rng = Rng(2027);
    let mut expanded = 0;
    for _ in 0..16 {
        let h = 5 + rng.below(3) as usize;
        let w = 5 + rng.below(3) as usize;
        let holes = 1 + rng.below(2);
        let b = random_board(&mut rng, h, w, holes);
        let mut one = SearchConfig::new(Convention::Normal);
        one.threads = 1;
        one.table_bytes = 1 << 22;
        let want = solve(&Domineering, &b, &one, &Control::default()).expect("one thread");
        for threads in [2, 3, 4, 8] {
            let mut many = one;
            many.threads = threads;
            many.parallel = Parallel::RootSplit;
            let got = solve(&Domineering, &b, &many, &Control::default()).expect("threads");
            let text = Domineering.format(&b);
            assert_eq!(
                got.outcomes(),
                want.outcomes(),
                "{text} on {threads} threads"
            );
            for fp in [&got.left, &got.right] {
                expanded += fp.counts.expanded;
                let Some(after) = &fp.winning_move else {
                    assert!(!fp.wins, "{text}: a win without its move");
                    continue;
                };
                let mut reply = one;
                reply.first = match fp.player {
                    Player::Left => First::Right,
                    Player::Right => First::Left,
                };
                let r = solve(&Domineering, after, &reply, &Control::default()).expect("reply");
                let opponent = if fp.player == Player::Left {
                    &r.right
                } else {
                    &r.left
                };
                assert!(
                    !opponent.wins,
                    "{text} on {threads} threads: {:?} after the winning move {} wins",
                    opponent.player,
                    Domineering.format(after)
                );
            }
        }
    }
    assert!(
        expanded > 10_000,
        "only {expanded} positions expanded: replies hardly searched"
    );
}

/// A node budget stops every thread of a first player's search, the ones
/// waiting for a reply another holds included: an error, not a hang.
#[test]
fn a_budget_stops_threads_dealing_replies() {
    let b = Domineering.parse(&["........."; 9].join("|")).unwrap();
    for threads in [2, 3] {
        let mut cfg = SearchConfig::new(Convention::Normal);
        cfg.threads = threads;
        cfg.parallel = Parallel::RootSplit;
        cfg.first = First::Left;
        cfg.max_nodes = Some(300_000);
        cfg.table_bytes = 1 << 22;
        match solve(&Domineering, &b, &cfg, &Control::default()) {
            Err(SearchError::Budget(_)) => {}
            other => panic!("{threads} threads: {:?}", other.map(|r| r.outcomes())),
        }
    }
}
