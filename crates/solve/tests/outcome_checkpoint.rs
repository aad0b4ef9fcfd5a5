//! Long runs: a search stopped by its node budget and resumed from its
//! checkpoint gives the uninterrupted answer for less than twice the work,
//! and a damaged or foreign checkpoint is refused, never believed.

use std::path::Path;
use std::time::Duration;

use partizan_games::Board;
use partizan_games::{Clobber, Ruleset};
use partizan_solve::outcome::Convention;
use partizan_solve::search::checkpoint::CheckpointError;
use partizan_solve::search::{
    solve, solve_resumable, Control, Resumed, SearchConfig, SearchError, SearchReport,
};

/// The 4 x 5 Clobber checkerboard: about 80,000 nodes, both players win
/// moving first.
const BOARD: &str = "xoxox|oxoxo|xoxox|oxoxo";

fn config(max_nodes: Option<u64>, threads: usize) -> SearchConfig {
    let mut c = SearchConfig::for_ruleset(&Clobber, Convention::Normal);
    c.table_bytes = 16 << 20;
    c.max_nodes = max_nodes;
    c.threads = threads;
    c
}

/// A Clobber search kept in `file`, checkpointed every hour (so only when
/// it stops or finishes).
fn run(b: &Board, cfg: &SearchConfig, file: &Path) -> Result<(SearchReport, Resumed), SearchError> {
    solve_resumable(
        &Clobber,
        b,
        cfg,
        &Control::default(),
        file,
        Duration::from_secs(3600),
    )
}

fn resume(board: &str, cfg: &SearchConfig, file: &Path) -> Result<u64, SearchError> {
    let b = Clobber.parse(board).unwrap();
    let (rep, r) = run(&b, cfg, file)?;
    assert_eq!(
        rep.outcomes().expect("both first players searched").class(),
        "N"
    );
    Ok(r.nodes_now)
}

/// Stop after `budget` nodes, resume to the end: same answer, and the two
/// runs together search fewer nodes than two uninterrupted runs.
fn stopped_and_resumed(budget: u64, threads: usize) {
    let b = Clobber.parse(BOARD).unwrap();
    let whole = solve(&Clobber, &b, &config(None, threads), &Control::default()).unwrap();
    let whole_nodes = whole.total().nodes;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("run.ckpt");
    let cfg = config(Some(budget), threads);
    let first = run(&b, &cfg, &file);
    assert!(
        matches!(first, Err(SearchError::Budget(n)) if n == budget),
        "{first:?}"
    );
    assert!(file.exists(), "a stopped run writes its checkpoint");
    let (rep, r) = run(&b, &config(None, threads), &file).unwrap();
    assert_eq!(rep.outcomes(), whole.outcomes());
    assert_eq!(rep.left.wins, whole.left.wins);
    assert_eq!(rep.right.wins, whole.right.wins);
    // A named winning move is a real move of the board.
    for fp in [&rep.left, &rep.right] {
        let m = fp.winning_move.expect("both win moving first");
        let mut legal = false;
        Clobber.options(&b, fp.player, |o| legal |= o == m);
        assert!(legal);
    }
    assert_eq!(r.sessions, 1);
    assert!(r.entries_loaded > 0);
    assert!(r.nodes_before >= budget, "{r:?}");
    // Node counts are only comparable on one thread: two threads race for
    // the table and a run's count varies from run to run (a resumed 2-thread
    // run was seen at 102,558 nodes against a fresh run's 94,085).
    if threads == 1 {
        let total = r.nodes_before + r.nodes_now;
        assert!(
            total < 2 * whole_nodes,
            "stopped + resumed searched {total} nodes, uninterrupted {whole_nodes}"
        );
        // The resumed run did less than a fresh one.
        assert!(r.nodes_now < whole_nodes, "{r:?} vs {whole_nodes}");
    }
    // A third run answers from the checkpoint alone.
    let (again, r3) = run(&b, &config(None, threads), &file).unwrap();
    assert_eq!(again.outcomes(), whole.outcomes());
    assert_eq!(r3.decided_before, [true, true]);
    assert_eq!(r3.nodes_now, 0);
}

#[test]
fn stopped_in_the_first_search_and_resumed() {
    stopped_and_resumed(20_000, 1);
}

#[test]
fn stopped_in_the_second_search_and_resumed() {
    // Left first takes about 31,000 nodes, Right first 11,000 more (its
    // positions are Left's images under the colour swap): the checkpoint
    // holds Left's answer.
    stopped_and_resumed(38_000, 1);
}

#[test]
fn stopped_and_resumed_on_two_threads() {
    // Two threads share the table, so both finish in about 25,000 nodes.
    stopped_and_resumed(8_000, 2);
}

/// A checkpoint of a run stopped early.
fn stopped_checkpoint(dir: &Path) -> std::path::PathBuf {
    let b = Clobber.parse(BOARD).unwrap();
    let file = dir.join("run.ckpt");
    let r = run(&b, &config(Some(20_000), 1), &file);
    assert!(matches!(r, Err(SearchError::Budget(_))));
    file
}

/// A flipped byte of a checkpoint of `len` bytes at `at` is refused as
/// damaged (its CRC), or, in the last 32 bytes (the MAC, which cannot be
/// told from another key's), as not written with the user's key.
fn refused(e: &SearchError, at: usize, len: usize) -> bool {
    match e {
        SearchError::Checkpoint(CheckpointError::Corrupt { .. }) => true,
        SearchError::Checkpoint(CheckpointError::Unsealed { .. }) => at + 32 >= len,
        _ => false,
    }
}

#[test]
fn a_flipped_byte_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = stopped_checkpoint(dir.path());
    let bytes = std::fs::read(&file).unwrap();
    // Every region of the file: the header, the entries, the trailer.
    for at in [9, 20, bytes.len() / 2, bytes.len() - 10, bytes.len() - 1] {
        let mut bad = bytes.clone();
        bad[at] ^= 0x10;
        std::fs::write(&file, &bad).unwrap();
        let e = resume(BOARD, &config(None, 1), &file).unwrap_err();
        assert!(refused(&e, at, bytes.len()), "byte {at}: {e}");
    }
    // Cut short.
    std::fs::write(&file, &bytes[..bytes.len() - 7]).unwrap();
    let e = resume(BOARD, &config(None, 1), &file).unwrap_err();
    assert!(matches!(
        e,
        SearchError::Checkpoint(CheckpointError::Corrupt { .. })
    ));
    // Not a checkpoint at all.
    std::fs::write(&file, b"hello").unwrap();
    let e = resume(BOARD, &config(None, 1), &file).unwrap_err();
    assert!(matches!(
        e,
        SearchError::Checkpoint(CheckpointError::Corrupt { .. })
    ));
}

#[test]
fn a_checkpoint_for_another_search_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = stopped_checkpoint(dir.path());
    let before = std::fs::read(&file).unwrap();
    // Another board.
    let e = resume("oxoxo|xoxox|oxoxo|xoxox", &config(None, 1), &file).unwrap_err();
    assert!(
        matches!(e, SearchError::Checkpoint(CheckpointError::Foreign { .. })),
        "{e}"
    );
    assert!(e.to_string().contains("xoxox|oxoxo"), "{e}");
    // Another value threshold (a different search's positions).
    let mut cfg = config(None, 1);
    cfg.value_cells = 4;
    let e = resume(BOARD, &cfg, &file).unwrap_err();
    assert!(matches!(
        e,
        SearchError::Checkpoint(CheckpointError::Foreign { .. })
    ));
    // Misère play.
    let mut cfg = config(None, 1);
    cfg.convention = Convention::Misere;
    cfg.value_cells = 0;
    let b = Clobber.parse(BOARD).unwrap();
    let e = run(&b, &cfg, &file).unwrap_err();
    assert!(matches!(
        e,
        SearchError::Checkpoint(CheckpointError::Foreign { .. })
    ));
    // A refused checkpoint is left as it was.
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

#[test]
fn a_checkpoint_is_written_periodically_while_searching() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("run.ckpt");
    let b = Clobber.parse(BOARD).unwrap();
    // Every check of the budget (4,096 nodes) is past a zero interval.
    let stop = std::sync::atomic::AtomicBool::new(false);
    let seen = std::sync::atomic::AtomicBool::new(false);
    let progress = |_: &partizan_solve::search::Progress| {
        if file.exists() {
            seen.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    };
    let ctl = Control {
        stop: Some(&stop),
        progress: Some(&progress),
        interval: Duration::ZERO,
    };
    solve_resumable(&Clobber, &b, &config(None, 1), &ctl, &file, Duration::ZERO).unwrap();
    assert!(seen.load(std::sync::atomic::Ordering::Relaxed));
}

// Domineering's own search keeps a checkpoint of its own (engine
// "domineering"): the table, the decided first players and each open first
// player's refuted first moves.

use partizan_games::Domineering;
use partizan_solve::search::{checkpoint, domineering, First, Parallel};

/// 8 x 6 Domineering (8 rows, 6 columns), L: on the fast path about
/// 19,000 nodes Left first, 176,000 Right first.
const DOM: &str = "......|......|......|......|......|......|......|......";

fn dom_config(max_nodes: Option<u64>, threads: usize) -> SearchConfig {
    let mut c = SearchConfig::for_ruleset(&Domineering, Convention::Normal);
    c.table_bytes = 16 << 20;
    c.max_nodes = max_nodes;
    c.threads = threads;
    c
}

fn dom_run(
    b: &Board,
    cfg: &SearchConfig,
    file: &Path,
) -> Result<(SearchReport, Resumed), SearchError> {
    solve_resumable(
        &Domineering,
        b,
        cfg,
        &Control::default(),
        file,
        Duration::from_secs(3600),
    )
}

/// Stop Domineering's search after `budget` nodes, resume (several times
/// if need be) to the end: the uninterrupted answer, and on one thread
/// fewer nodes in all than twice a fresh run.
fn dom_stopped_and_resumed(budget: u64, threads: usize, parallel: Parallel) {
    let b = Domineering.parse(DOM).unwrap();
    let mut fresh = dom_config(None, threads);
    fresh.parallel = parallel;
    let whole = solve(&Domineering, &b, &fresh, &Control::default()).unwrap();
    // The fast path ran: on one thread, node for node the search of
    // `domineering::solve` (which values small components too, so the
    // count of regions valued no longer tells the engines apart).
    let direct = domineering::solve(&b, &fresh, &Control::default())
        .expect("the fast path takes this search")
        .unwrap();
    if threads == 1 {
        assert_eq!(whole.total(), direct.total());
    }
    let whole_nodes = whole.total().nodes;
    assert!(
        whole_nodes > 3 * budget,
        "{whole_nodes} nodes: the budget is too large"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("d.ckpt");
    let mut cfg = fresh;
    cfg.max_nodes = Some(budget);
    let first = dom_run(&b, &cfg, &file);
    assert!(matches!(first, Err(SearchError::Budget(_))), "{first:?}");
    assert!(file.exists(), "a stopped run writes its checkpoint");
    let (rep, r) = dom_run(&b, &fresh, &file).unwrap();
    assert_eq!(rep.outcomes(), whole.outcomes());
    assert_eq!(r.sessions, 1);
    assert!(r.entries_loaded > 0, "{r:?}");
    for fp in [&rep.left, &rep.right] {
        if let Some(m) = fp.winning_move {
            let mut legal = false;
            Domineering.options(&b, fp.player, |o| legal |= o == m);
            assert!(legal);
        }
    }
    if threads == 1 {
        let total = r.nodes_before + r.nodes_now;
        assert!(total < 2 * whole_nodes, "{total} vs {whole_nodes}");
        assert!(r.nodes_now < whole_nodes, "{r:?} vs {whole_nodes}");
    }
    let (again, r3) = dom_run(&b, &fresh, &file).unwrap();
    assert_eq!(again.outcomes(), whole.outcomes());
    assert_eq!(r3.decided_before, [true, true]);
    assert_eq!(r3.nodes_now, 0);
}

#[test]
fn domineering_stopped_and_resumed_on_one_thread() {
    // In Left's search, then in Right's.
    dom_stopped_and_resumed(8_192, 1, Parallel::RootSplit);
    dom_stopped_and_resumed(50_000, 1, Parallel::RootSplit);
}

#[test]
fn domineering_stopped_and_resumed_on_two_threads() {
    dom_stopped_and_resumed(8_192, 2, Parallel::RootSplit);
    dom_stopped_and_resumed(8_192, 2, Parallel::FirstPlayers);
}

#[test]
fn domineering_keeps_refuted_first_moves_across_many_short_runs() {
    // Runs of about 4,096 nodes each, until one finishes: each takes over
    // what the earlier ones refuted, and the refuted first moves only grow
    // while a first player is open.
    let b = Domineering.parse(DOM).unwrap();
    let whole = solve(&Domineering, &b, &dom_config(None, 1), &Control::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("d.ckpt");
    let fp = domineering::fingerprint(&b, true);
    let mut runs = 0;
    let mut most_refuted = 0;
    let mut last = [0usize; 2];
    let (rep, r) = loop {
        runs += 1;
        assert!(runs < 1000, "no progress");
        match dom_run(&b, &dom_config(Some(4_096), 1), &file) {
            Ok(done) => break done,
            Err(SearchError::Budget(_)) => {}
            Err(e) => panic!("{e}"),
        }
        let table = partizan_solve::search::Table::with_bytes(1 << 20);
        let (st, _) = checkpoint::read(&file, &fp, &table).unwrap().unwrap();
        assert_eq!(st.sessions, runs);
        for (k, d) in [&st.left, &st.right].into_iter().enumerate() {
            let n = st.solved[k].len();
            if d.is_none() {
                assert!(n >= last[k], "refuted first moves were lost");
            } else {
                assert_eq!(n, 0, "a decided first player keeps no refuted moves");
            }
            last[k] = n;
            most_refuted = most_refuted.max(n);
        }
    };
    assert_eq!(rep.outcomes(), whole.outcomes());
    assert!(runs > 3, "{runs} runs");
    assert_eq!(r.sessions, runs - 1);
    assert!(most_refuted > 0, "no run ended with a refuted first move");
}

#[test]
fn a_domineering_checkpoint_is_refused_when_damaged_or_foreign() {
    let b = Domineering.parse(DOM).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("d.ckpt");
    let r = dom_run(&b, &dom_config(Some(8_192), 1), &file);
    assert!(matches!(r, Err(SearchError::Budget(_))));
    let bytes = std::fs::read(&file).unwrap();
    // The general engine's positions are another search.
    let mut general = dom_config(None, 1);
    general.fast = false;
    let e = dom_run(&b, &general, &file).unwrap_err();
    assert!(
        matches!(e, SearchError::Checkpoint(CheckpointError::Foreign { .. })),
        "{e}"
    );
    // So are symmetry off and another board.
    let mut plain = dom_config(None, 1);
    plain.symmetry = false;
    let e = dom_run(&b, &plain, &file).unwrap_err();
    assert!(matches!(
        e,
        SearchError::Checkpoint(CheckpointError::Foreign { .. })
    ));
    let other = Domineering
        .parse(".......|.......|.......|.......|.......|.......")
        .unwrap();
    let e = dom_run(&other, &dom_config(None, 1), &file).unwrap_err();
    assert!(matches!(
        e,
        SearchError::Checkpoint(CheckpointError::Foreign { .. })
    ));
    // A flipped byte anywhere.
    for at in [9, 30, bytes.len() / 2, bytes.len() - 1] {
        let mut bad = bytes.clone();
        bad[at] ^= 0x04;
        std::fs::write(&file, &bad).unwrap();
        let e = dom_run(&b, &dom_config(None, 1), &file).unwrap_err();
        assert!(refused(&e, at, bytes.len()), "byte {at}: {e}");
    }
    // A refused checkpoint is left as it was.
    std::fs::write(&file, &bytes).unwrap();
    let _ = dom_run(&other, &dom_config(None, 1), &file);
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
    assert_eq!(
        domineering::fingerprint(&b, true).engine,
        "domineering",
        "the fingerprint names the engine"
    );
}

#[test]
fn a_one_sided_checkpoint_serves_a_later_search_of_both() {
    let b = Domineering.parse(DOM).unwrap();
    let whole = solve(&Domineering, &b, &dom_config(None, 1), &Control::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("d.ckpt");
    let mut left = dom_config(None, 1);
    left.first = First::Left;
    let (one, r) = dom_run(&b, &left, &file).unwrap();
    assert_eq!(one.class(), None);
    assert_eq!(one.left.wins, whole.left.wins);
    assert!(!one.searched(partizan_games::Player::Right));
    assert_eq!(r.nodes_now, one.left.counts.nodes);
    let (both, r) = dom_run(&b, &dom_config(None, 1), &file).unwrap();
    assert_eq!(both.class(), whole.class());
    assert_eq!(r.decided_before, [true, false]);
    assert_eq!(r.nodes_now, both.right.counts.nodes);
}

#[test]
fn keeping_a_checkpoint_searches_the_same_nodes_as_not() {
    // The root of a kept search is the node search's root written out (to
    // record refuted first moves): same order, same counts, on one thread.
    let b = Domineering.parse(DOM).unwrap();
    let plain = solve(&Domineering, &b, &dom_config(None, 1), &Control::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (kept, r) = dom_run(&b, &dom_config(None, 1), &dir.path().join("d.ckpt")).unwrap();
    assert_eq!(kept.outcomes(), plain.outcomes());
    assert_eq!(kept.left.counts, plain.left.counts);
    assert_eq!(kept.right.counts, plain.right.counts);
    assert_eq!(kept.left.winning_move, plain.left.winning_move);
    assert_eq!(r.nodes_now, plain.total().nodes);
}
