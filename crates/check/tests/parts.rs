//! Certificates made of parts (version 3, written by the job-level
//! search): golden files that must stay readable, and forgeries of their
//! parts refused.

use std::ops::ControlFlow;

use partizan_check::{check_reader, CertError, CertReader, Certificate, CheckReport};
use partizan_games::{Clobber, Domineering, Ruleset};

/// `partizan outcome clobber 'xox|oxo' --jobs 1 --job-nodes 1
/// --job-plies 1 --certificate FILE`: the tree's root is P (neither
/// first player wins); 14 parts, each a job's split-position proof.
const CLOBBER: &str = include_str!("data/clobber-parts-v3.cert");
/// The same for Domineering `...|...|...` (N): whole-position parts.
const DOMINEERING: &str = include_str!("data/domineering-parts-v3.cert");

fn check<R: Ruleset>(r: &R, text: &str) -> Result<CheckReport, CertError> {
    let reader = CertReader::new(text.as_bytes())?;
    check_reader(r, reader, 1_000_000, &mut |_| ControlFlow::Continue(()))
}

#[test]
fn golden_certificates_made_of_parts_check() {
    let rep = check(&Clobber, CLOBBER).unwrap();
    assert_eq!((rep.parts, rep.records, rep.searched), (14, 14, 0));
    let h = CertReader::new(CLOBBER.as_bytes()).unwrap();
    assert_eq!(h.version(), 3);
    assert_eq!(h.header().claims.class(), Some("P"));
    let rep = check(&Domineering, DOMINEERING).unwrap();
    assert_eq!((rep.parts, rep.records, rep.searched), (2, 2, 0));
    let h = CertReader::new(DOMINEERING.as_bytes()).unwrap();
    assert_eq!(h.header().claims.class(), Some("N"));
}

#[test]
fn a_part_with_a_false_claim_fails_the_whole() {
    for (i, line) in CLOBBER.lines().enumerate() {
        if !line.starts_with("part\t") {
            continue;
        }
        let flipped = line.replace("\twins\t", "\tloses\t");
        let bad: Vec<&str> = CLOBBER
            .lines()
            .enumerate()
            .map(|(j, l)| if i == j { flipped.as_str() } else { l })
            .collect();
        let e = check(&Clobber, &(bad.join("\n") + "\n")).unwrap_err();
        assert!(matches!(e, CertError::Refuted(_)), "line {i}: {e}");
    }
    // A root claim flipped: the parts hold, the top does not.
    let bad = CLOBBER.replace("claim left loses", "claim left wins");
    assert!(matches!(
        check(&Clobber, &bad).unwrap_err(),
        CertError::Refuted(_)
    ));
}

#[test]
fn parts_are_only_read_in_version_3_and_on_the_roots_rectangle() {
    let v2 = CLOBBER.replacen("partizan-certificate 3", "partizan-certificate 2", 1);
    let e = check(&Clobber, &v2).unwrap_err();
    assert!(matches!(e, CertError::Parse { line: 10, .. }), "{e}");
    let other = CLOBBER.replacen("part\tR\txo.|oxx\t", "part\tR\txo.|oxx|...\t", 1);
    let e = check(&Clobber, &other).unwrap_err();
    assert!(e.to_string().contains("rectangle"), "{e}");
    let bad = CLOBBER.replacen("\tvalue-cells 8\t", "\tvalue-cells 99\t", 1);
    assert!(matches!(
        check(&Clobber, &bad).unwrap_err(),
        CertError::Refused { .. }
    ));
    let bad = CLOBBER.replacen("\tpositions split\t", "\tpositions some\t", 1);
    assert!(check(&Clobber, &bad).is_err());
    // Held in memory, a certificate of parts is refused, not cut short.
    assert!(Certificate::parse(CLOBBER).is_err());
}

#[test]
fn a_part_claiming_what_it_does_not_prove_is_never_used() {
    // The first part's records dropped: its claim is searched by the
    // checker itself (true, so accepted), never taken on its word.
    let lines: Vec<&str> = CLOBBER.lines().collect();
    let first = lines.iter().position(|l| l.starts_with("part\t")).unwrap();
    let mut dropped = lines.clone();
    dropped.remove(first + 1);
    let rep = check(&Clobber, &(dropped.join("\n") + "\n")).unwrap();
    assert!(rep.searched > 0, "{rep:?}");
    // With no room to search, the same is refused.
    let text = dropped.join("\n") + "\n";
    let reader = CertReader::new(text.as_bytes()).unwrap();
    let e = check_reader(&Clobber, reader, 3, &mut |_| ControlFlow::Continue(())).unwrap_err();
    assert!(matches!(e, CertError::Limit(3)), "{e}");
}
