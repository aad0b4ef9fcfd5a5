//! The master's tree on disk: a golden file, refusals, and a search
//! stopped and resumed from its file.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

use partizan_games::{Board, Domineering, Player, Ruleset};
use partizan_jobs::persist::{decode, encode, load, save, start_or_resume, TreeFileError};
use partizan_jobs::{search, search_from, JobsConfig, MasterControl, Tree};
use partizan_seal::Key;
use partizan_solve::outcome::Convention;
use partizan_solve::search::{solve, Control, SearchConfig};

use crate::common;
use common::key;

fn b(t: &str) -> Board {
    Domineering.parse(t).unwrap()
}

/// A small tree: 3 x 2 (three rows), Left first, expanded once; one
/// child decided by a job.
fn small() -> Tree {
    let root = b("..|..|..");
    let mut t = Tree::new(root, Player::Left);
    let mut kids = Vec::new();
    Domineering.options(&root, Player::Left, |o| {
        let mut moves = 0;
        Domineering.options(&o, Player::Right, |_| moves += 1);
        kids.push((o, moves));
    });
    t.expand(0, kids);
    t.resolve(1, true);
    t
}

const GOLDEN: &str = "partizan-jobs-tree 1
ruleset domineering
first L
nodes 5
-\tL\tE\t..|..|..
0\tR\tW\t#.|#.|..
0\tR\tF\t.#|.#|..
0\tR\tF\t..|#.|#.
0\tR\tF\t..|.#|.#
crc32 d8f4a734
mac 3cf23378b2ae46bfe70f485731af67cabcf5cf0080d6c488c2860a84e0b0a54b
";

#[test]
fn the_format_is_pinned() {
    // The text, its checksum and its MAC under the test key: a change of
    // the format must change the version.
    let text = encode(&Domineering, &small(), &key());
    assert_eq!(text, GOLDEN);
    let t = decode(&Domineering, GOLDEN, &key(), &b("..|..|.."), Player::Left).unwrap();
    assert_eq!(t.nodes.len(), 5);
    // every node's numbers as before (a fresh leaf's come from its
    // mobility, found again from the rules)
    let numbers = |t: &Tree| t.nodes.iter().map(|n| (n.pn, n.dn)).collect::<Vec<_>>();
    assert_eq!(numbers(&t), numbers(&small()));
    assert_eq!(t.result(), small().result());
}

fn refused(text: &str) -> TreeFileError {
    decode(&Domineering, text, &key(), &b("..|..|.."), Player::Left).unwrap_err()
}

/// Re-seal an edited body with the right key (a forgery by someone who
/// has the key, or a bug of the writer): the shape check must still hold.
fn reseal(body: &str) -> String {
    let mut out = body.to_string();
    let crc = crc32fast::hash(body.as_bytes());
    out.push_str(&format!("crc32 {crc:08x}\n"));
    let mac = key()
        .mac("partizan-jobs-tree 1")
        .field(body.as_bytes())
        .finish();
    let hex: String = mac.iter().map(|x| format!("{x:02x}")).collect();
    out.push_str(&format!("mac {hex}\n"));
    out
}

#[test]
fn damage_other_keys_and_forgeries_are_refused() {
    let text = encode(&Domineering, &small(), &key());
    let body = &text[..text.find("crc32 ").unwrap()];
    // A flipped byte.
    let flipped = text.replacen("W", "X", 1);
    assert!(matches!(refused(&flipped), TreeFileError::Seal(_)));
    // Another key.
    let other = encode(&Domineering, &small(), &Key::from_bytes([8; 32]));
    assert!(matches!(refused(&other), TreeFileError::Seal(_)));
    // The checksum recomputed but not the MAC.
    let edited = body.replacen("\tW\t", "\tX\t", 1);
    let crc = crc32fast::hash(edited.as_bytes());
    let mac_line = &text[text.find("mac ").unwrap()..];
    let forged = format!("{edited}crc32 {crc:08x}\n{mac_line}");
    assert!(matches!(refused(&forged), TreeFileError::Seal(_)));
    // Sealed with the key, but a child dropped: a refutation missing.
    let dropped = body
        .replace("nodes 5", "nodes 4")
        .replace("0\tR\tF\t..|.#|.#\n", "");
    assert!(matches!(
        refused(&reseal(&dropped)),
        TreeFileError::Shape { .. }
    ));
    // A child that is no move of its parent.
    let bogus = body.replace("0\tR\tF\t..|.#|.#", "0\tR\tF\t##|..|..");
    assert!(matches!(
        refused(&reseal(&bogus)),
        TreeFileError::Shape { .. }
    ));
    // Another search.
    let e = decode(&Domineering, &text, &key(), &b("..|.."), Player::Left).unwrap_err();
    assert!(matches!(e, TreeFileError::Other(_)), "{e}");
    let e = decode(&Domineering, &text, &key(), &b("..|..|.."), Player::Right).unwrap_err();
    assert!(matches!(e, TreeFileError::Other(_)), "{e}");
    // Garbage, empty, truncated: errors, never a panic.
    for junk in [
        "",
        "crc32 0\nmac 00\n",
        "partizan-jobs-tree 1\n",
        &text[..text.len() / 2],
    ] {
        assert!(decode(&Domineering, junk, &key(), &b("..|..|.."), Player::Left).is_err());
    }
    let huge = reseal(&body.replace("nodes 5", "nodes 99999999999"));
    assert!(matches!(refused(&huge), TreeFileError::Parse { .. }));
}

fn cfg() -> JobsConfig {
    JobsConfig {
        timeout: Duration::from_secs(60),
        ..common::tiny_budgets()
    }
}

#[test]
fn a_stopped_master_resumes_from_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tree.pjt");
    let board = b("......|......|......|......|......|......|......");
    let want = solve(
        &Domineering,
        &board,
        &SearchConfig::for_ruleset(&Domineering, Convention::Normal),
        &Control::default(),
    )
    .unwrap()
    .left
    .wins;
    let whole = search(
        &Domineering,
        &board,
        Player::Left,
        Vec::new(),
        &cfg(),
        &MasterControl::default(),
    )
    .unwrap();
    let jobs = |r: &partizan_jobs::JobReport| r.counts.sent + r.counts.searched_here;
    // The master "dies" (its stop flag raised from the progress callback)
    // after 40 jobs; its tree is on disk.
    let stop = AtomicBool::new(false);
    let seen = Cell::new(0u64);
    let progress = |p: &partizan_jobs::JobProgress| {
        seen.set(p.counts.searched_here);
        if p.counts.searched_here >= 40 {
            stop.store(true, Relaxed);
        }
    };
    let saver = |t: &Tree| save(&path, &Domineering, t, &key()).map_err(|e| e.to_string());
    let ctl = MasterControl {
        stop: Some(&stop),
        progress: Some(&progress),
        checkpoint: Some(&saver),
        checkpoint_every: Duration::ZERO,
        keep: None,
    };
    let (tree, resumed) =
        start_or_resume(&path, &Domineering, &key(), &board, Player::Left).unwrap();
    assert!(!resumed);
    let e = search_from(&Domineering, tree, Vec::new(), &cfg(), &ctl).unwrap_err();
    assert!(e.to_string().contains("stopped"), "{e}");
    assert_eq!(seen.get(), 40);
    // Resumed from the file alone.
    let tree = load(&path, &Domineering, &key(), &board, Player::Left)
        .unwrap()
        .unwrap();
    assert!(tree.nodes.len() > 1);
    let ctl = MasterControl {
        checkpoint: Some(&saver),
        checkpoint_every: Duration::from_secs(3600),
        ..MasterControl::default()
    };
    let rest = search_from(&Domineering, tree, Vec::new(), &cfg(), &ctl).unwrap();
    assert_eq!(rest.first_wins, Some(want));
    assert_eq!(whole.first_wins, Some(want));
    // Nothing was done twice: the two halves did the whole run's jobs.
    assert_eq!(40 + jobs(&rest), jobs(&whole));
    // The final tree was saved, decided.
    let done = load(&path, &Domineering, &key(), &board, Player::Left)
        .unwrap()
        .unwrap();
    assert_eq!(done.result(), Some(want));
}
