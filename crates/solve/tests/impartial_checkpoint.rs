//! The nimber search's checkpoint (engine "nimbers"): a Cram search stopped
//! by its node budget and resumed gives the uninterrupted answer for less
//! than twice the work, on one thread and on two; a damaged checkpoint, or
//! one of the alpha-beta engines for the same board, is refused.

use std::path::Path;
use std::time::Duration;

use partizan_games::{Board, Cram, Ruleset};
use partizan_solve::outcome::Convention;
use partizan_solve::search::checkpoint::CheckpointError;
use partizan_solve::search::{
    impartial, solve, solve_resumable, Control, Resumed, SearchConfig, SearchError, SearchReport,
};

/// Cram 3 x 11: a second-player win, about 38,000 nodes by nimbers.
const BOARD: &str = "...........|...........|...........";

fn config(max_nodes: Option<u64>, threads: usize) -> SearchConfig {
    let mut c = SearchConfig::for_ruleset(&Cram, Convention::Normal);
    c.table_bytes = 64 << 20;
    c.max_nodes = max_nodes;
    c.threads = threads;
    c
}

/// A Cram search kept in `file`, checkpointed every hour (so only when it
/// stops or finishes).
fn run(b: &Board, cfg: &SearchConfig, file: &Path) -> Result<(SearchReport, Resumed), SearchError> {
    solve_resumable(
        &Cram,
        b,
        cfg,
        &Control::default(),
        file,
        Duration::from_secs(3600),
    )
}

fn stopped_and_resumed(budget: u64, threads: usize) {
    let b = Cram.parse(BOARD).unwrap();
    let whole = solve(&Cram, &b, &config(None, threads), &Control::default()).unwrap();
    assert_eq!(whole.class(), Some("P"));
    let whole_nodes = whole.total().nodes;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cram.ckpt");
    let first = run(&b, &config(Some(budget), threads), &file);
    assert!(
        matches!(first, Err(SearchError::Budget(n)) if n == budget),
        "{first:?}"
    );
    assert!(file.exists(), "a stopped run writes its checkpoint");
    let (rep, r) = run(&b, &config(None, threads), &file).unwrap();
    assert_eq!(rep.class(), whole.class());
    assert_eq!(r.sessions, 1);
    assert!(r.entries_loaded > 0, "{r:?}");
    assert!(r.nodes_before >= budget, "{r:?}");
    assert!(r.entries_saved >= r.entries_loaded, "{r:?}");
    // The resumed run did less than a fresh one (on one thread: two race,
    // and their counts vary from run to run).
    if threads == 1 {
        assert!(r.nodes_now < whole_nodes, "{r:?} vs {whole_nodes}");
        let total = r.nodes_before + r.nodes_now;
        assert!(total < 2 * whole_nodes, "{total} vs {whole_nodes}");
    }
    // A third run answers from the checkpoint alone.
    let (again, r3) = run(&b, &config(None, threads), &file).unwrap();
    assert_eq!(again.class(), whole.class());
    assert_eq!(r3.decided_before, [true, true]);
    assert_eq!(r3.nodes_now, 0);
    assert_eq!(r3.sessions, 2);
}

#[test]
fn stopped_and_resumed_on_one_thread() {
    stopped_and_resumed(12_000, 1);
}

#[test]
fn stopped_and_resumed_on_two_threads() {
    stopped_and_resumed(8_000, 2);
}

/// A first-player win stopped, resumed with the whole nimber asked: the
/// winning move is a move of the board to nimber 0, the nimber the twin's
/// (Cram 4 x 7 less a corner: nimber 1, about 37,000 nodes).
#[test]
fn a_resumed_first_player_win_names_its_move_and_nimber() {
    let b = Cram.parse(".......|.......|.......|......#").unwrap();
    let mut cfg = config(None, 1);
    cfg.nimber = true;
    let whole = solve(&Cram, &b, &cfg, &Control::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cram.ckpt");
    let budget = whole.total().nodes / 2;
    let mut stopped = cfg;
    stopped.max_nodes = Some(budget);
    assert!(matches!(
        run(&b, &stopped, &file),
        Err(SearchError::Budget(_))
    ));
    for _ in 0..2 {
        let (rep, _) = run(&b, &cfg, &file).unwrap();
        assert_eq!(rep.class(), whole.class());
        assert_eq!(rep.nimber, whole.nimber);
        assert_eq!(
            rep.nimber,
            Some(impartial::nimber(&Cram, &b, 1 << 20, false, &Control::default()).unwrap())
        );
        for side in [&rep.left, &rep.right] {
            assert_eq!(side.wins, side.winning_move.is_some());
            if let Some(m) = side.winning_move {
                let mut legal = false;
                Cram.options(&b, side.player, |o| legal |= o == m);
                assert!(legal);
                let n = impartial::nimber(&Cram, &m, 1 << 20, false, &Control::default());
                assert_eq!(n.unwrap(), 0);
            }
        }
    }
}

fn stopped_checkpoint(dir: &Path) -> std::path::PathBuf {
    let b = Cram.parse(BOARD).unwrap();
    let file = dir.join("cram.ckpt");
    let r = run(&b, &config(Some(12_000), 1), &file);
    assert!(matches!(r, Err(SearchError::Budget(_))));
    file
}

fn corrupt(r: Result<(SearchReport, Resumed), SearchError>) -> String {
    match r {
        // A flip in the MAC cannot be told from another key's MAC.
        Err(SearchError::Checkpoint(
            e @ (CheckpointError::Corrupt { .. } | CheckpointError::Unsealed { .. }),
        )) => e.to_string(),
        other => panic!("not refused as damaged: {other:?}"),
    }
}

#[test]
fn a_damaged_nimber_checkpoint_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = stopped_checkpoint(dir.path());
    let b = Cram.parse(BOARD).unwrap();
    let bytes = std::fs::read(&file).unwrap();
    for at in [9, 30, bytes.len() / 3, bytes.len() / 2, bytes.len() - 1] {
        let mut bad = bytes.clone();
        bad[at] ^= 0x04;
        std::fs::write(&file, &bad).unwrap();
        corrupt(run(&b, &config(None, 1), &file));
        // Left as it was.
        assert_eq!(std::fs::read(&file).unwrap(), bad);
    }
    std::fs::write(&file, &bytes[..bytes.len() - 9]).unwrap();
    corrupt(run(&b, &config(None, 1), &file));
}

/// The general engine's checkpoint of the same board is another engine's:
/// refused by the nimber search, and the other way round.
#[test]
fn engines_do_not_take_each_others_checkpoints() {
    let dir = tempfile::tempdir().unwrap();
    let nimbers = stopped_checkpoint(dir.path());
    let b = Cram.parse(BOARD).unwrap();
    let mut general = config(None, 1);
    general.fast = false;
    let e = run(&b, &general, &nimbers).unwrap_err();
    assert!(
        matches!(e, SearchError::Checkpoint(CheckpointError::Foreign { .. })),
        "{e}"
    );
    assert!(e.to_string().contains("nimbers"), "{e}");
    let other = dir.path().join("general.ckpt");
    general.max_nodes = Some(8_000);
    assert!(matches!(
        run(&b, &general, &other),
        Err(SearchError::Budget(_))
    ));
    let e = run(&b, &config(None, 1), &other).unwrap_err();
    assert!(
        matches!(e, SearchError::Checkpoint(CheckpointError::Foreign { .. })),
        "{e}"
    );
    // Another board, and symmetry folding off (other keys).
    let e = run(
        &Cram.parse("..........|..........|..........").unwrap(),
        &config(None, 1),
        &nimbers,
    )
    .unwrap_err();
    assert!(matches!(
        e,
        SearchError::Checkpoint(CheckpointError::Foreign { .. })
    ));
    let mut unfolded = config(None, 1);
    unfolded.symmetry = false;
    let e = run(&b, &unfolded, &nimbers).unwrap_err();
    assert!(matches!(
        e,
        SearchError::Checkpoint(CheckpointError::Foreign { .. })
    ));
}
