//! The whole certificate of a job-level search: made of the master's tree
//! and the kept certificates of its decided jobs, it is accepted by the
//! independent checker on its own and proves what the plain search
//! finds; kept certificates that are lost or damaged make their leaves be
//! searched again, never believed.

use std::ops::ControlFlow;
use std::sync::Arc;

use partizan_check::{check_reader, CertReader, CheckReport};
use partizan_games::{Board, Clobber, Domineering, Player, Ruleset};
use partizan_jobs::tree::State;
use partizan_jobs::{
    search_from, write_whole, JobReport, JobsConfig, Kept, LocalWorker, MasterControl, Tree, Worker,
};
use partizan_solve::outcome::Convention;
use partizan_solve::search::{solve, Control, Knowledge, SearchConfig};

use crate::common;
use common::key;

/// Budgets of one node (every job that is not tiny is expanded), the
/// root expanded by the master, answers applied in order.
fn cfg() -> JobsConfig {
    JobsConfig {
        expand_plies: 1,
        ..common::tiny_budgets()
    }
}

fn workers<R: Knowledge + Clone + 'static>(r: &R) -> Vec<Arc<dyn Worker>> {
    (0..2)
        .map(|i| Arc::new(LocalWorker::new(r.clone(), format!("local-{i}"))) as Arc<dyn Worker>)
        .collect()
}

/// The search of `tree` keeping its certificates in `kept`.
fn run<R: Knowledge + Clone + 'static>(
    r: &R,
    tree: Tree,
    kept: &Kept,
    workers: Vec<Arc<dyn Worker>>,
    max_jobs: Option<u64>,
) -> JobReport {
    let keep = |b: &Board, m: Player, text: &str| kept.put(r, b, m, text);
    let ctl = MasterControl {
        keep: Some(&keep),
        ..MasterControl::default()
    };
    let cfg = JobsConfig { max_jobs, ..cfg() };
    search_from(r, tree, workers, &cfg, &ctl).unwrap()
}

fn check_text<R: Ruleset>(r: &R, text: &[u8]) -> Result<CheckReport, String> {
    let reader = CertReader::new(text).map_err(|e| e.to_string())?;
    check_reader(r, reader, 50_000_000, &mut |_| ControlFlow::Continue(()))
        .map_err(|e| e.to_string())
}

/// Both first players searched by jobs, the whole certificate written and
/// checked: the claims are the plain search's.
fn whole_agrees<R: Knowledge + Clone + 'static>(r: R, text: &str) -> (Vec<u8>, CheckReport) {
    let dir = tempfile::tempdir().unwrap();
    let b = r.parse(text).unwrap();
    let plain = solve(
        &r,
        &b,
        &SearchConfig::for_ruleset(&r, Convention::Normal),
        &Control::default(),
    )
    .unwrap();
    let mut done = Vec::new();
    for first in [Player::Left, Player::Right] {
        let kept = Kept::open(&dir.path().join(format!("{first:?}")), &key()).unwrap();
        let rep = run(&r, Tree::new(b, first), &kept, workers(&r), None);
        done.push((rep.tree, kept));
    }
    let pairs: Vec<(&Tree, &Kept)> = done.iter().map(|(t, k)| (t, k)).collect();
    let mut out = Vec::new();
    let holds = write_whole(&r, &pairs, &mut out).unwrap();
    let rep = check_text(&r, &out).unwrap_or_else(|e| panic!("{} {text}: {e}", r.name()));
    let h = CertReader::new(&out[..]).unwrap().header().clone();
    assert_eq!(h.claims.left_first, Some(plain.left.wins), "{text}");
    assert_eq!(h.claims.right_first, Some(plain.right.wins), "{text}");
    assert_eq!(rep.parts, holds.parts);
    (out, rep)
}

#[test]
fn whole_certificates_check_and_agree_with_the_plain_search() {
    let mut parts = 0;
    for text in ["...|...|...", "....|....|....", ".....|.....|.....|....."] {
        parts += whole_agrees(Domineering, text).1.parts;
    }
    for text in ["xox|oxo|xox", "xoxo|oxox|xoxo|oxox"] {
        parts += whole_agrees(Clobber, text).1.parts;
    }
    assert!(parts > 10, "the boards were decided by jobs: {parts} parts");
}

/// Tampering with a whole certificate: a flipped claim of the root or of
/// a part, or a part moved to the top, is refused.
#[test]
fn a_tampered_whole_certificate_is_refused() {
    let (out, _) = whole_agrees(Domineering, "....|....|....");
    let text = String::from_utf8(out).unwrap();
    let flip = |s: &str, from: &str, to: &str| {
        let i = s.find(from).unwrap();
        format!("{}{to}{}", &s[..i], &s[i + from.len()..])
    };
    for (from, to) in [
        ("claim left wins", "claim left loses"),
        ("claim right wins", "claim right loses"),
        ("claim left loses", "claim left wins"),
        ("claim right loses", "claim right wins"),
    ] {
        if text.contains(from) {
            let bad = flip(&text, from, to);
            assert!(check_text(&Domineering, bad.as_bytes()).is_err(), "{from}");
        }
    }
    // A part's claim flipped.
    let part = text.lines().find(|l| l.starts_with("part\t")).unwrap();
    let flipped = if part.contains("\tloses\t") {
        part.replace("\tloses\t", "\twins\t")
    } else {
        part.replace("\twins\t", "\tloses\t")
    };
    let bad = text.replacen(part, &flipped, 1);
    let e = check_text(&Domineering, bad.as_bytes()).unwrap_err();
    assert!(e.contains("proof fails"), "{e}");
    // Read as version 2, the part lines are not records.
    let bad = text.replacen("partizan-certificate 3", "partizan-certificate 2", 1);
    assert!(check_text(&Domineering, bad.as_bytes()).is_err());
}

/// A master that stops and resumes writes a whole certificate that
/// checks; a kept certificate deleted or damaged makes its leaf fresh
/// again (searched again, by the master when no worker is left), never
/// believed.
#[test]
fn lost_or_damaged_kept_certificates_are_searched_again() {
    let r = Domineering;
    let b = r.parse(".....|.....|.....|.....").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let kept = Kept::open(dir.path(), &key()).unwrap();
    // Stopped after 6 jobs, then finished.
    let half = run(&r, Tree::new(b, Player::Right), &kept, workers(&r), Some(6));
    assert_eq!(half.first_wins, None);
    let done = run(&r, half.tree, &kept, workers(&r), None);
    let want = done.first_wins.expect("decided");
    let mut tree = done.tree;
    assert_eq!(kept.forget_unkept(&r, &mut tree), 0, "every leaf kept");
    let mut out = Vec::new();
    write_whole(&r, &[(&tree, &kept)], &mut out).unwrap();
    check_text(&r, &out).unwrap();
    // Damage one file, lose the others.
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(files.len() >= 2, "{files:?}");
    let mut damaged = std::fs::read_to_string(&files[0]).unwrap();
    damaged.push('\n');
    std::fs::write(&files[0], damaged).unwrap();
    for f in &files[1..] {
        std::fs::remove_file(f).unwrap();
    }
    let decided = |t: &Tree| t.nodes.iter().filter(|n| n.state == State::Solved).count();
    let before = decided(&tree);
    let lost = kept.forget_unkept(&r, &mut tree);
    assert!(
        lost >= files.len(),
        "{lost} forgotten, {} files",
        files.len()
    );
    assert_eq!(before - decided(&tree), lost);
    assert_eq!(tree.result(), None, "the proof is open again");
    // Searched again (by the master alone: no worker), then whole again.
    let again = run(&r, tree, &kept, Vec::new(), None);
    assert_eq!(again.first_wins, Some(want));
    assert!(again.counts.searched_here > 0);
    let mut tree = again.tree;
    assert_eq!(kept.forget_unkept(&r, &mut tree), 0);
    let mut out = Vec::new();
    write_whole(&r, &[(&tree, &kept)], &mut out).unwrap();
    check_text(&r, &out).unwrap();
}
