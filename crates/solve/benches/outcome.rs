//! The outcome search, timed; every iteration asserts the published (or
//! brute-force) answer, so a faster wrong answer cannot pass as progress.
//!
//! ```sh
//! cargo bench -p partizan-solve --bench outcome
//! ```
//!
//! Groups: Domineering rectangles up to 8 x 8 (published outcomes,
//! Bullock's Obsequi table; Left vertical) through Domineering's own fast
//! path, node counts per first player printed once per board; the fast
//! path against the general engine on one board (their ratio in the same
//! run); Domineering's search copy for popcount/BMI against its portable
//! copy (8 x 8); the general engine's three move orderings; one thread against two
//! (both ways of sharing) on Domineering 8 x 8, Clobber 4 x 5 and the
//! Kōnane 5 x 6 opening, with the ratios and each one's share of the
//! machine's ceiling printed (as many one-thread searches at once); Cram's nimber search
//! on one thread against two and against the general engine (Cram 5 x 7
//! and 3 x 11); and Clobber
//! checkerboards. With `PARTIZAN_BENCH_MIXED=1` also one thread against
//! two on nine Domineering searches of 1 to 7 s (8 x 8, 7 x 9 and random
//! boards with holes), the total speedup printed, and its share of two
//! one-thread searches at once (about two minutes). With
//! `PARTIZAN_BENCH_GENERAL=1` also the general engine's shared root: eight
//! one-first-player searches of 1 to 15 s (Clobber, Kōnane, NoGo) on 1,
//! 2, 4, 8 and 16 threads (as many as there are cores, 2 always), the
//! total speedup printed (about two minutes here). Each thread count's
//! speedup is also printed as a share of the machine's ceiling: as many
//! one-thread searches run at once, independent, against one alone (cores
//! that share caches, memory or a clock give less than their number even
//! to work that shares nothing; this machine about 1.8 for two). With
//! `PARTIZAN_BENCH_9X9=1` also Domineering 9 x 9
//! Left first (a win) on 1, 2, 4, 8 and 16 threads (as many as there are
//! cores, 2 always), one timed run each with speedup and efficiency
//! printed: about 9 minutes on one thread of this project's 2-core
//! machine, 4 GB of table, so it is left out unless asked for.

use criterion::{criterion_group, criterion_main, Criterion};
use partizan_games::{Clobber, Cram, Domineering, Konane, NoGo, Ruleset};
use partizan_solve::outcome::Convention;
use partizan_solve::search::{
    domineering, solve, Control, First, Knowledge, MoveOrdering, Parallel, SearchConfig,
};

fn rect(rows: usize, cols: usize) -> String {
    vec![".".repeat(cols); rows].join("|")
}

fn checkerboard(rows: usize, cols: usize) -> String {
    (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| if (r + c) % 2 == 0 { 'x' } else { 'o' })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("|")
}

/// A Kōnane opening: the checkerboard with two adjacent stones of the
/// middle row taken.
fn konane_opening(rows: usize, cols: usize) -> String {
    let mut lines: Vec<Vec<char>> = checkerboard(rows, cols)
        .split('|')
        .map(|l| l.chars().collect())
        .collect();
    let (r, c) = (rows / 2, cols / 2 - 1);
    lines[r][c] = '.';
    lines[r][c + 1] = '.';
    lines
        .into_iter()
        .map(|l| l.into_iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("|")
}

fn run<R: Knowledge>(r: &R, text: &str, cfg: &SearchConfig, want: &str) -> (u64, u64) {
    let b = r.parse(text).expect("board");
    let rep = solve(r, &b, cfg, &Control::default()).expect("search");
    assert_eq!(
        rep.outcomes().expect("both first players searched").class(),
        want,
        "{} {text}",
        r.name()
    );
    (rep.left.counts.nodes, rep.right.counts.nodes)
}

/// A table that may grow to 1 GB (it starts at 1 MB and doubles as it
/// fills, as the CLI's default does).
fn config(ordering: MoveOrdering, threads: usize) -> SearchConfig {
    let mut c = SearchConfig::new(Convention::Normal);
    c.ordering = ordering;
    c.threads = threads;
    c.table_bytes = 1 << 30;
    c
}

/// The machine's ceiling for `n` threads on `go` (one search on one
/// thread, whose best time alone is `one`): `n` copies of it run at once
/// on `n` threads, independent (a table each), best of three wall times;
/// `n` times `one` over theirs. Cores that share caches, memory or a clock
/// give less than `n` even to work that shares nothing (this project's
/// 2-core machine about 1.8 for two), so no way of sharing one search
/// beats this by more than the work the sharing saves.
fn ceiling(n: usize, one: std::time::Duration, go: impl Fn() + Sync) -> f64 {
    let t = (0..3).map(|_| at_once(n, &go)).min().expect("three runs");
    n as f64 * one.as_secs_f64() / t.as_secs_f64()
}

/// The wall time of `n` copies of `go` run at once, one thread each.
fn at_once(n: usize, go: &(dyn Fn() + Sync)) -> std::time::Duration {
    let t = std::time::Instant::now();
    std::thread::scope(|s| {
        for _ in 0..n {
            s.spawn(go);
        }
    });
    t.elapsed()
}

/// One thread against 2, 4, 8 and 16 (as many as the machine has cores,
/// and 2 always), both ways of sharing, on `text`, with the speedup and
/// the efficiency (speedup per thread) of the best of three wall times
/// printed, and the speedup's share of the machine's [`ceiling`].
fn threads<R: Knowledge>(c: &mut Criterion, name: &str, r: &R, text: &str, want: &str) {
    let mut g = c.benchmark_group(format!("threads {name}"));
    g.sample_size(10);
    let mut best = Vec::new();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut plan = vec![(1, Parallel::RootSplit)];
    for n in [2usize, 4, 8, 16] {
        if n == 2 || n <= cores {
            plan.push((n, Parallel::RootSplit));
            plan.push((n, Parallel::FirstPlayers));
        }
    }
    for (threads, parallel) in plan {
        let mut cfg = SearchConfig::for_ruleset(r, Convention::Normal);
        cfg.table_bytes = 1 << 30;
        cfg.threads = threads;
        cfg.parallel = parallel;
        let t = (0..3)
            .map(|_| {
                let t = std::time::Instant::now();
                run(r, text, &cfg, want);
                t.elapsed()
            })
            .min()
            .expect("three runs");
        best.push((format!("{threads} {parallel:?}"), t));
        g.bench_function(format!("{threads} {parallel:?}"), |b| {
            b.iter(|| run(r, text, &cfg, want))
        });
    }
    g.finish();
    let one = best[0].1.as_secs_f64();
    let mut single = SearchConfig::for_ruleset(r, Convention::Normal);
    single.table_bytes = 1 << 30;
    single.threads = 1;
    let mut ceilings = Vec::new();
    for (mode, t) in &best[1..] {
        let n: usize = mode
            .split(' ')
            .next()
            .and_then(|x| x.parse().ok())
            .unwrap_or(1);
        let ceiling = match ceilings.iter().find(|(k, _)| *k == n) {
            Some(&(_, c)) => c,
            None => {
                let c = ceiling(n, best[0].1, || {
                    run(r, text, &single, want);
                });
                eprintln!(
                    "{name} threads: ceiling {c:.2}x on {n} threads ({n} one-thread searches at once)"
                );
                ceilings.push((n, c));
                c
            }
        };
        let speedup = one / t.as_secs_f64();
        eprintln!(
            "{name} threads: {mode} {t:.2?} against 1 thread {:.2?}: {speedup:.2}x, efficiency {:.0}%, {:.0}% of the ceiling",
            best[0].1,
            100.0 * speedup / n as f64,
            100.0 * speedup / ceiling
        );
    }
}

/// Domineering 9 x 9 Left first (a win: Breuker et al., Bullock) on 1, 2,
/// 4, 8 and 16 threads (as many as there are cores, 2 always), one timed
/// run each asserting the win, speedup and efficiency printed; only with
/// `PARTIZAN_BENCH_9X9` set (minutes a run).
fn nine_by_nine_scaling() {
    if std::env::var_os("PARTIZAN_BENCH_9X9").is_none() {
        return;
    }
    let b = Domineering.parse(&rect(9, 9)).expect("board");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut one = None;
    for n in [1usize, 2, 4, 8, 16] {
        if n > 2 && n > cores {
            break;
        }
        let mut cfg = SearchConfig::for_ruleset(&Domineering, Convention::Normal);
        cfg.table_bytes = 4 << 30;
        cfg.threads = n;
        cfg.first = First::Left;
        let t = std::time::Instant::now();
        let rep = solve(&Domineering, &b, &cfg, &Control::default()).expect("search");
        let took = t.elapsed();
        assert!(rep.left.wins, "9 x 9: Left first wins");
        let base = *one.get_or_insert(took);
        let speedup = base.as_secs_f64() / took.as_secs_f64();
        eprintln!(
            "domineering 9x9 Left first threads: {n} {took:.2?}, {} nodes: {speedup:.2}x, efficiency {:.0}%",
            rep.left.counts.nodes,
            100.0 * speedup / n as f64
        );
    }
}

/// One first player's search by `r` of `text` on `threads` threads (the
/// root shared): whether it wins, its nodes and wall time.
fn one_first<R: Knowledge>(
    r: &R,
    text: &str,
    first: First,
    threads: usize,
) -> (bool, u64, std::time::Duration) {
    let b = r.parse(text).expect("board");
    let mut cfg = SearchConfig::for_ruleset(r, Convention::Normal);
    cfg.table_bytes = 1 << 30;
    cfg.threads = threads;
    cfg.first = first;
    let t = std::time::Instant::now();
    let rep = solve(r, &b, &cfg, &Control::default()).expect("search");
    let took = t.elapsed();
    let fp = if first == First::Left {
        rep.left
    } else {
        rep.right
    };
    (fp.wins, fp.counts.nodes, took)
}

/// The general engine's shared root (one first player on several
/// threads): eight searches of 1 to 15 s on one thread here, on 1, 2, 4,
/// 8 and 16 threads (as many as there are cores, 2 always), each answer
/// asserted: Clobber checkerboards of published outcome (Grossman 2004
/// and MCGS 2026, `tests/data/clobber_published.txt`: 3 x 9 and 2 x 14
/// are first-player wins, 3 x 8 and 2 x 12 second-player wins), empty
/// 4 x 4 NoGo (P, Du, Wei and Müller 2023) and the Kōnane 6 x 6 opening
/// (each thread count's answer asserted to be one thread's). The total
/// wall time per thread count and the speedup printed; only with
/// `PARTIZAN_BENCH_GENERAL` set.
fn general_shared_root() {
    if std::env::var_os("PARTIZAN_BENCH_GENERAL").is_none() {
        return;
    }
    let clobber = [
        (3, 9, First::Left, true),
        (3, 9, First::Right, true),
        (2, 14, First::Left, true),
        (2, 14, First::Right, true),
        (3, 8, First::Left, false),
        (2, 12, First::Left, false),
    ];
    let konane = "xoxoxo|oxoxox|xoxoxo|ox..ox|xoxoxo|oxoxox";
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut one = None;
    let mut konane_one = None;
    for n in [1usize, 2, 4, 8, 16] {
        if n > 2 && n > cores {
            break;
        }
        let mut total = std::time::Duration::ZERO;
        let mut nodes = 0;
        for &(rows, cols, first, want) in &clobber {
            let (wins, k, took) = one_first(&Clobber, &checkerboard(rows, cols), first, n);
            assert_eq!(wins, want, "clobber {rows} x {cols} {first:?} first");
            total += took;
            nodes += k;
        }
        let (wins, k, took) = one_first(&NoGo, "....|....|....|....", First::Left, n);
        assert!(!wins, "nogo 4 x 4: P");
        total += took;
        nodes += k;
        let (wins, k, took) = one_first(&Konane, konane, First::Left, n);
        assert_eq!(
            wins,
            *konane_one.get_or_insert(wins),
            "konane 6 x 6 opening"
        );
        total += took;
        nodes += k;
        let base = *one.get_or_insert(total);
        let speedup = base.as_secs_f64() / total.as_secs_f64();
        eprintln!(
            "general shared root, 8 searches: {n} threads {total:.2?}, {nodes} nodes: {speedup:.2}x, efficiency {:.0}%",
            100.0 * speedup / n as f64
        );
        if n > 1 {
            // The machine's ceiling: each search run n times at once on
            // one thread each (one pass, not the best of three).
            let mut together = std::time::Duration::ZERO;
            for &(rows, cols, first, want) in &clobber {
                let board = checkerboard(rows, cols);
                together += at_once(n, &|| {
                    assert_eq!(one_first(&Clobber, &board, first, 1).0, want)
                });
            }
            together += at_once(n, &|| {
                assert!(!one_first(&NoGo, "....|....|....|....", First::Left, 1).0)
            });
            together += at_once(n, &|| {
                assert_eq!(
                    Some(one_first(&Konane, konane, First::Left, 1).0),
                    konane_one
                )
            });
            let ceiling = n as f64 * base.as_secs_f64() / together.as_secs_f64();
            eprintln!(
                "general shared root, 8 searches: ceiling {ceiling:.2}x on {n} threads ({n} one-thread searches of each at once, {together:.2?}); {:.0}% of it",
                100.0 * speedup / ceiling
            );
        }
    }
}

/// Nine Domineering searches of about 1 to 7 s on one thread (8 x 8 and
/// 7 x 9 Left first, and random boards of 7 x 9 to 9 x 9 with holes, drawn
/// once and kept here), each on one thread and then on two, the two
/// threads' answer asserted to be the one thread's (itself checked against
/// the general engine and Obsequi elsewhere); the nodes and wall times
/// per board, the total speedup and its share of the machine's [`ceiling`] (two
/// one-thread searches of each board at once) printed. One pass (about two minutes);
/// only with `PARTIZAN_BENCH_MIXED` set. A speedup on one board is partly
/// luck (which thread reaches which transposition first); nine are a
/// fairer figure of two threads.
fn two_threads_mixed() {
    if std::env::var_os("PARTIZAN_BENCH_MIXED").is_none() {
        return;
    }
    let boards = [
        (rect(8, 8), First::Left),
        (rect(7, 9), First::Left),
        (
            ".#......|.#......|........|........|........|#.......|#.....#.|........|...#....".into(),
            First::Right,
        ),
        (
            ".........|#.......#|.#.#.....|.....#.#.|...#....#|.......#.|.........|.....#...|......#.."
                .into(),
            First::Right,
        ),
        (
            "........|.#.#....|........|.....#..|........|##.....#|.....#..|#.......|.#..#...".into(),
            First::Left,
        ),
        (
            "..#.....|........|......#.|........|#.#.....|.#......|..#.#...|........|.......#".into(),
            First::Right,
        ),
        (
            ".#.......|....#....|#...#....|.........|#..#.....|#........|..#.....#|..#......".into(),
            First::Left,
        ),
        (
            "....#....|.........|...#.#..#|.........|.........|.........|.........".into(),
            First::Right,
        ),
        (
            ".#....#..|.......#.|#.....#..|...#.....|.#......#|......#..|.........|.........".into(),
            First::Left,
        ),
    ];
    // One thread, two threads, and two one-thread searches at once (the
    // machine's ceiling, see `ceiling`).
    let mut total = [std::time::Duration::ZERO; 3];
    for (text, first) in boards {
        let b = Domineering.parse(&text).expect("board");
        let search = |n: usize| {
            let mut cfg = SearchConfig::for_ruleset(&Domineering, Convention::Normal);
            cfg.table_bytes = 1 << 30;
            cfg.threads = n;
            cfg.first = first;
            let rep = solve(&Domineering, &b, &cfg, &Control::default()).expect("search");
            if first == First::Left {
                rep.left
            } else {
                rep.right
            }
        };
        let mut answers = Vec::new();
        for (i, n) in [1usize, 2].into_iter().enumerate() {
            let t = std::time::Instant::now();
            let fp = search(n);
            let took = t.elapsed();
            total[i] += took;
            eprintln!(
                "domineering mixed {text} {first:?} first, {n} thread(s): wins {}, {} nodes, {took:.2?}",
                fp.wins, fp.counts.nodes
            );
            answers.push(fp.wins);
        }
        assert_eq!(answers[0], answers[1], "{text}: two threads disagree");
        total[2] += at_once(2, &|| assert_eq!(search(1).wins, answers[0], "{text}"));
    }
    let speedup = total[0].as_secs_f64() / total[1].as_secs_f64();
    let ceiling = 2.0 * total[0].as_secs_f64() / total[2].as_secs_f64();
    eprintln!(
        "domineering mixed two threads: {:.2?} against one thread {:.2?}: {speedup:.2}x; \
         the ceiling (two one-thread searches at once, {:.2?}) {ceiling:.2}x: {:.0}% of it",
        total[1],
        total[0],
        total[2],
        100.0 * speedup / ceiling
    );
}

/// Cram's own search (by nimbers, one thread) against itself on two
/// threads and the general engine on one thread and on two sharing the
/// root, on boards of published
/// nimbers (Beling's table, `tests/data/cram_nimbers.txt`: 5 x 7 is 1, a
/// first-player win) or the general engine's answer (3 x 11: P), with the
/// ratios of the best of three wall times printed.
fn cram_nimbers(c: &mut Criterion) {
    for (name, text, want) in [("5x7", rect(5, 7), "N"), ("3x11", rect(3, 11), "P")] {
        let mut g = c.benchmark_group(format!("cram {name}"));
        g.sample_size(10);
        let mut best = Vec::new();
        for (label, fast, threads) in [
            ("nimbers", true, 1),
            ("nimbers 2 threads", true, 2),
            ("general 1 thread", false, 1),
            ("general 2 threads", false, 2),
        ] {
            let mut cfg = SearchConfig::for_ruleset(&Cram, Convention::Normal);
            cfg.table_bytes = 1 << 30;
            cfg.fast = fast;
            cfg.threads = threads;
            cfg.parallel = Parallel::RootSplit;
            let t = (0..3)
                .map(|_| {
                    let t = std::time::Instant::now();
                    run(&Cram, &text, &cfg, want);
                    t.elapsed()
                })
                .min()
                .expect("three runs");
            best.push((label, t));
            g.bench_function(label, |b| b.iter(|| run(&Cram, &text, &cfg, want)));
        }
        g.finish();
        for (label, t) in &best[1..] {
            eprintln!(
                "cram {name}: nimbers {:.2?} against {label} {t:.2?}: {:.2}x",
                best[0].1,
                t.as_secs_f64() / best[0].1.as_secs_f64()
            );
        }
    }
}

fn bench(c: &mut Criterion) {
    let safety = config(MoveOrdering::Safety, 1);
    let mut g = c.benchmark_group("domineering");
    g.sample_size(10);
    for (rows, cols, want) in [
        (5, 5, "P"),
        (6, 6, "N"),
        (5, 6, "R"),
        (6, 7, "L"),
        (6, 8, "R"),
        (7, 7, "N"),
        (7, 8, "R"),
        (8, 8, "N"),
    ] {
        let text = rect(rows, cols);
        let (l, r) = run(&Domineering, &text, &safety, want);
        eprintln!("domineering {rows}x{cols} {want}: nodes left-first {l}, right-first {r}");
        g.bench_function(format!("{rows}x{cols}"), |b| {
            b.iter(|| run(&Domineering, &text, &safety, want))
        });
    }
    g.finish();

    // Domineering's search copy compiled for popcount and BMI (taken when
    // the processor has them) against the portable copy, one thread on
    // 8 x 8, same nodes (asserted), the ratio of best times printed.
    if domineering::hardware_search() {
        let text = rect(8, 8);
        let b = Domineering.parse(&text).expect("board");
        let mut g = c.benchmark_group("hardware copy 8x8 domineering");
        g.sample_size(10);
        let mut best = Vec::new();
        let mut nodes = Vec::new();
        for hardware in [false, true] {
            let rules = domineering::Rules {
                hardware,
                ..domineering::Rules::ALL
            };
            let go = || {
                let rep = domineering::solve_with(&b, &safety, &Control::default(), rules)
                    .expect("fast path")
                    .expect("search");
                assert_eq!(
                    rep.outcomes().expect("both first players searched").class(),
                    "N"
                );
                rep.left.counts.nodes + rep.right.counts.nodes
            };
            let t = (0..3)
                .map(|_| {
                    let t = std::time::Instant::now();
                    nodes.push(go());
                    t.elapsed()
                })
                .min()
                .expect("three runs");
            best.push(t);
            g.bench_function(if hardware { "hardware" } else { "portable" }, |bch| {
                bch.iter(go)
            });
        }
        g.finish();
        assert!(nodes.windows(2).all(|w| w[0] == w[1]), "{nodes:?}");
        eprintln!(
            "domineering 8x8 hardware copy {:.2?} against portable {:.2?}: {:.2}x",
            best[1],
            best[0],
            best[0].as_secs_f64() / best[1].as_secs_f64()
        );
    }

    let mut g = c.benchmark_group("fast path vs general 5x6 domineering");
    g.sample_size(10);
    let text = rect(5, 6);
    for fast in [true, false] {
        let mut cfg = safety;
        cfg.fast = fast;
        g.bench_function(if fast { "fast" } else { "general" }, |b| {
            b.iter(|| run(&Domineering, &text, &cfg, "R"))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("ordering 5x6 domineering");
    g.sample_size(10);
    let text = rect(5, 6);
    for ordering in [
        MoveOrdering::Natural,
        MoveOrdering::Mobility,
        MoveOrdering::Safety,
    ] {
        let mut cfg = config(ordering, 1);
        cfg.fast = false;
        let (l, r) = run(&Domineering, &text, &cfg, "R");
        eprintln!("ordering {ordering:?}: 5x6 nodes left-first {l}, right-first {r}");
        g.bench_function(format!("{ordering:?}"), |b| {
            b.iter(|| run(&Domineering, &text, &cfg, "R"))
        });
    }
    g.finish();

    // One thread against two (both ways of sharing) on Domineering 8 x 8
    // (the headline; its own search) and the Clobber 4 x 5 checkerboard
    // (the general engine), with the ratio of their best wall times
    // printed from the same run: the CLI's default parallel mode is the
    // one that measures best here. Clobber 4 x 5's outcome is checked
    // against the general engine with every shortcut off (no bounds, no
    // region values, natural order; computed once, untimed).
    let clobber45 = checkerboard(4, 5);
    let mut plain = config(MoveOrdering::Natural, 1);
    plain.bounds = false;
    plain.value_cells = 0;
    let b = Clobber.parse(&clobber45).expect("board");
    let want45 = solve(&Clobber, &b, &plain, &Control::default())
        .expect("search")
        .outcomes()
        .expect("both first players searched")
        .class()
        .to_string();
    threads(c, "domineering 8x8", &Domineering, &rect(8, 8), "N");
    two_threads_mixed();
    general_shared_root();
    nine_by_nine_scaling();
    threads(c, "clobber 4x5", &Clobber, &clobber45, &want45);
    // Cram's nimber search against the general engine on one and two
    // threads; Kōnane, to choose its default way of sharing two threads:
    // the Kōnane 5 x 6 opening (two
    // adjacent stones taken from the middle) is checked against the
    // general engine with every shortcut off.
    cram_nimbers(c);
    let konane56 = konane_opening(5, 6);
    let b = Konane.parse(&konane56).expect("board");
    let want_k = solve(&Konane, &b, &plain, &Control::default())
        .expect("search")
        .outcomes()
        .expect("both first players searched")
        .class()
        .to_string();
    threads(c, "konane 5x6", &Konane, &konane56, &want_k);

    let mut g = c.benchmark_group("clobber");
    g.sample_size(10);
    // 3 x 4 and 4 x 4 checkerboards: their outcomes are checked against
    // the exhaustive twin in tests/outcome_search.rs (3 x 4) and here
    // against the value solver's outcome (computed once, untimed).
    for (rows, cols) in [(3, 4), (4, 4)] {
        let text = checkerboard(rows, cols);
        let b = Clobber.parse(&text).expect("board");
        let mut arena = partizan_core::Arena::new();
        let mut s =
            partizan_solve::Solver::new(&Clobber, partizan_solve::Savings::ALL).expect("solver");
        let v = s.value(&mut arena, &b).expect("value");
        let want = arena.outcome(v).to_string();
        g.bench_function(format!("{rows}x{cols}"), |bch| {
            bch.iter(|| run(&Clobber, &text, &safety, &want))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
