//! Certificates: every proof the search writes is accepted by the
//! independent checker (`partizan_check`), and tampered proofs (a flipped
//! claim, a losing move in place of the winning one) are refused; a
//! missing record only makes the checker search that position itself.
//! The generated forgeries are in `certificate_forgeries.rs`.

use std::ops::ControlFlow;

use partizan_games::{Clobber, Domineering, Konane, Player, Ruleset};
use partizan_solve::outcome::{wins_plain, Convention};
use partizan_solve::search::certificate::{
    check, solve_with_certificate_as, Certificate, Leaves, Play, Positions, Record,
};
use partizan_solve::search::{Control, Knowledge, SearchConfig};
use rustc_hash::FxHashMap;

fn certify<R: Knowledge>(rules: &R, text: &str, convention: Convention, vc: u32) -> Certificate {
    certify_with(rules, text, convention, vc, true, Positions::Best)
}

fn certify_with<R: Knowledge>(
    rules: &R,
    text: &str,
    convention: Convention,
    vc: u32,
    bounds: bool,
    positions: Positions,
) -> Certificate {
    let b = rules.parse(text).unwrap();
    let mut cfg = SearchConfig::new(convention);
    cfg.bounds = bounds;
    if convention == Convention::Normal {
        cfg.value_cells = vc;
    }
    cfg.table_bytes = 1 << 20;
    let (_, cert) =
        solve_with_certificate_as(rules, &b, &cfg, &Control::default(), positions).unwrap();
    // Through text and back.
    let again = Certificate::parse(&cert.to_text()).unwrap();
    assert_eq!(again, cert);
    check(rules, &again, 10_000_000)
        .unwrap_or_else(|e| panic!("{} {text} {convention:?}: {e}", rules.name()));
    cert
}

#[test]
fn proofs_are_accepted() {
    for text in [
        "..|..",
        "...|...|...",
        "....|....|....",
        "....|.#..|....|..#.",
        ".....|.....|.....|.....",
        "......|......|......|......|......",
    ] {
        let vcs: &[u32] = if text.len() > 20 { &[12] } else { &[0, 4, 12] };
        for &vc in vcs {
            for positions in [Positions::Best, Positions::Split] {
                certify_with(&Domineering, text, Convention::Normal, vc, true, positions);
            }
        }
        if text.len() <= 20 {
            certify(&Domineering, text, Convention::Misere, 0);
        }
    }
    for text in ["xoxo|oxox|xoxo", "xox.|o.ox|xoxo"] {
        certify(&Clobber, text, Convention::Normal, 6);
        certify(&Clobber, text, Convention::Misere, 0);
    }
    certify(&Konane, "xox.|oxox|..ox", Convention::Normal, 5);
}

#[test]
fn tampered_proofs_are_refused() {
    for positions in [Positions::Best, Positions::Split] {
        tampered_proofs_are_refused_in(positions);
    }
}

fn tampered_proofs_are_refused_in(positions: Positions) {
    let rules = Domineering;
    let text = ".....|.....|.....|.....";
    let cert = certify_with(&rules, text, Convention::Normal, 6, true, positions);
    let b = rules.parse(text).unwrap();
    // Flip each claim.
    for flip_left in [true, false] {
        let mut bad = cert.clone();
        if flip_left {
            bad.header.claims.left_first = bad.header.claims.left_first.map(|c| !c);
        } else {
            bad.header.claims.right_first = bad.header.claims.right_first.map(|c| !c);
        }
        assert!(
            check(&rules, &bad, 10_000_000).is_err(),
            "flipped claim accepted"
        );
    }
    // Replace the root's winning move by a losing one.
    let mut memo = FxHashMap::default();
    let root = rules.format(&b);
    let mut replaced = 0;
    for (i, r) in cert.records.iter().enumerate() {
        if r.board != root {
            continue;
        }
        let other = r.mover.opponent();
        let mut losing = None;
        rules.options(&b, r.mover, |o| {
            if losing.is_none() && wins_plain(&rules, Convention::Normal, &o, other, &mut memo) {
                losing = Some(o);
            }
        });
        if let Some(o) = losing {
            let mut bad = cert.clone();
            bad.records[i].play = Play::Board(rules.format(&o));
            let err = check(&rules, &bad, 10_000_000);
            assert!(err.is_err(), "a losing move was accepted");
            replaced += 1;
        }
        // A move that is not a move at all.
        let mut bad = cert.clone();
        bad.records[i].play = Play::Board(root.clone());
        assert!(check(&rules, &bad, 10_000_000).is_err());
    }
    assert!(replaced > 0, "no root record to tamper with");
    // Drop the root's records: the checker finds the winning first moves
    // itself (more positions searched, the same claims), and refuses when
    // its position limit leaves no room for that search.
    let honest = check(&rules, &cert, 10_000_000).unwrap();
    let mut gaps = cert.clone();
    gaps.records.retain(|r| r.board != root);
    assert!(gaps.records.len() < cert.records.len());
    let searched = check(&rules, &gaps, 10_000_000).unwrap();
    assert!(
        searched.searched > honest.searched,
        "{searched:?} {honest:?}"
    );
    assert!(matches!(
        check(&rules, &gaps, 3),
        Err(partizan_solve::search::certificate::CertError::Limit(3))
    ));
    // The other ruleset and a bad header.
    assert!(check(&Clobber, &cert, 10).is_err());
    assert!(Certificate::parse("partizan-certificate 3\n").is_err());
    let _ = Player::Left;
}

#[test]
fn the_streamed_check_agrees_with_the_in_memory_one() {
    use partizan_solve::search::certificate::{check_reader, write_certificate, CertReader};
    use partizan_solve::search::SearchError;
    let rules = Domineering;
    let cert = certify(&rules, "....|....|....|....", Convention::Normal, 6);
    let text = cert.to_text();
    let whole = check(&rules, &cert, 10_000_000).unwrap();
    assert_eq!(whole.records, cert.records.len() as u64);
    // Line by line, with Unix or Windows line breaks.
    for t in [text.clone(), text.replace('\n', "\r\n")] {
        let reader = CertReader::new(t.as_bytes()).unwrap();
        assert_eq!(reader.header(), &cert.header);
        let streamed = check_reader(&rules, reader, 10_000_000, &mut |_| {
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(streamed, whole);
    }
    // A record whose board does not parse is refused, naming it.
    let bad = text.replacen("\tboard\t", "\tboard\tzz", 1);
    let e = check_reader(
        &rules,
        CertReader::new(bad.as_bytes()).unwrap(),
        10_000_000,
        &mut |_| ControlFlow::Continue(()),
    )
    .unwrap_err();
    assert!(e.to_string().contains("bad board 'zz"), "{e}");
    // A check stops at its position limit.
    let e = check(&rules, &cert, 5).unwrap_err();
    assert!(e.to_string().contains("after 5 positions"), "{e}");
    // A writer that fails fails the certificate, not the process.
    struct Full;
    impl std::io::Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let b = rules.parse("....|....|....|....").unwrap();
    let cfg = SearchConfig::new(Convention::Normal);
    let e = write_certificate(&rules, &b, &cfg, &Control::default(), &mut Full).unwrap_err();
    assert!(
        matches!(e, SearchError::Write(ref m) if m.contains("disk full")),
        "{e}"
    );
}

/// The move bounds end lines of the proof: a certificate that declares
/// them is smaller than one that does not, both are accepted, and the
/// checker does not need the header's word for them: it decides positions
/// by its own move counts, and searches out what the prover's finer bound
/// settled. So for split positions and whole ones (`cutoffs bounds`).
#[test]
fn move_bounds_shorten_proofs_and_are_declared() {
    let rules = Domineering;
    let text = "......|......|......|......|......";
    for (positions, declared) in [
        (Positions::Split, "\npositions split\ncutoffs bounds\n"),
        (Positions::Best, "\npositions whole\ncutoffs bounds\n"),
    ] {
        let with = certify_with(&rules, text, Convention::Normal, 8, true, positions);
        let without = certify_with(&rules, text, Convention::Normal, 8, false, positions);
        assert!(with.header.bounds && !without.header.bounds);
        assert!(with.to_text().contains(declared), "{positions:?}");
        assert!(without.to_text().contains("\ncutoffs none\n"));
        let w = check(&rules, &with, 10_000_000).unwrap();
        check(&rules, &without, 10_000_000).unwrap();
        assert!(w.by_bounds > 0, "{w:?}");
        assert!(
            with.records.len() < without.records.len(),
            "{positions:?}: {} records with the bounds, {} without",
            with.records.len(),
            without.records.len()
        );
        // The same records read as `cutoffs none`: the same check (the
        // header's cutoffs are where the prover stopped, not rules the
        // checker believes).
        let mut undeclared = with.clone();
        undeclared.header.bounds = false;
        undeclared.header.fine = false;
        assert_eq!(check(&rules, &undeclared, 10_000_000).unwrap(), w);
    }
    // A bound that contradicts a claim refutes it: flip a claim whose
    // line the bounds decide at once (Left first on a board where her
    // safe moves outnumber Right's every move).
    let b = "#.#.#|#.#.#|..###";
    for positions in [Positions::Best, Positions::Split] {
        let c = certify_with(&rules, b, Convention::Normal, 0, true, positions);
        let mut flipped = c.clone();
        flipped.header.claims.left_first = Some(false);
        let e = check(&rules, &flipped, 10_000_000).unwrap_err();
        assert!(e.to_string().contains("counting the moves"), "{e}");
    }
}

/// The finer bound: the prover no longer stops where it decides (the
/// checker would have to search those positions out), but a certificate of
/// an older build that did (`cutoffs bounds fine`) is still checked: a
/// position left without a record is searched with the checker's own
/// rules (a claim it contradicts is refused), and a certificate of another
/// ruleset may not declare it.
#[test]
fn the_finer_bound_is_domineerings_and_is_checked() {
    use partizan_solve::search::domineering::Pos;
    let rules = Domineering;
    // The first board (of a fixed enumeration) that the finer bound
    // decides for Left moving first and the move bounds do not ...
    let mut found = None;
    'boards: for w in 3..=5usize {
        for h in 3..=5usize {
            for holes in 0u32..(1 << 10) {
                let text: Vec<String> = (0..h)
                    .map(|r| {
                        (0..w)
                            .map(|c| {
                                let i = (r * w + c) % 10;
                                if holes >> i & 1 == 1 && (r + c) % 3 == 0 {
                                    '#'
                                } else {
                                    '.'
                                }
                            })
                            .collect()
                    })
                    .collect();
                let text = text.join("|");
                let b = rules.parse(&text).unwrap();
                let p = Pos::new(&b).unwrap();
                // ... and the checker's own rules (its move counts with
                // protective areas) do not either.
                let mut own = Leaves::new(&rules, Convention::Normal, 0, true).unwrap();
                let zero = own.values.zero();
                let by_own = own.leaf(&b, zero, Player::Left).unwrap();
                if p.simple_cut_for(Player::Left).is_none() && by_own.is_none() {
                    if let Some(w) = p.fine_cut_for(Player::Left) {
                        found = Some((text, w));
                        break 'boards;
                    }
                }
            }
        }
    }
    let (text, left_wins) = found.expect("no board the finer bound decides alone");
    let honest = certify(&rules, &text, Convention::Normal, 0);
    assert_eq!(honest.header.claims.left_first, Some(left_wins), "{text}");
    assert!(honest.header.whole && !honest.header.fine);
    assert!(!honest.records.is_empty(), "{text}");
    let plain = check(&rules, &honest, 10_000_000).unwrap();
    assert_eq!(plain.searched, 0, "{plain:?}");
    // What an older prover wrote: the root, decided by the finer bound,
    // ends the line at once, with no record; the checker searches it.
    let mut cert = honest.clone();
    cert.header.fine = true;
    cert.records.clear();
    let r = check(&rules, &cert, 10_000_000).unwrap();
    assert!(r.searched > 0, "{r:?}");
    let mut flipped = cert.clone();
    flipped.header.claims.left_first = Some(!left_wins);
    assert!(check(&rules, &flipped, 10_000_000).is_err(), "{text}");
    // Declared on Clobber: refused.
    let mut c = certify(&Clobber, "xoxo|oxox|xoxo", Convention::Normal, 6);
    assert!(!c.header.whole);
    c.header.whole = true;
    c.header.fine = true;
    let e = check(&Clobber, &c, 10_000_000).unwrap_err();
    assert!(e.to_string().contains("Domineering's"), "{e}");
    // And `bounds fine` needs whole positions.
    let text = cert
        .to_text()
        .replacen("positions whole", "positions split", 1);
    let e = Certificate::parse(&text).unwrap_err();
    assert!(e.to_string().contains("unknown cutoffs"), "{e}");
}

/// Each record is checked as it is read, whether or not the replay ever
/// reaches it: its board must be on the certificate's rectangle (the
/// checker keys positions without their size) and a move on the board one
/// of the mover's moves there. So for a ruleset of one layer and one of
/// two (Clobber's stones of both colours).
#[test]
fn records_are_checked_as_they_are_read() {
    let domineering = certify(&Domineering, "....|....|....", Convention::Normal, 4);
    let clobber = certify(&Clobber, "xoxo|oxox|xoxo", Convention::Normal, 6);
    fn refused<R: Ruleset>(rules: &R, cert: &Certificate, extra: Record, why: &str) {
        let mut bad = cert.clone();
        bad.records.insert(0, extra);
        let e = check(rules, &bad, 10_000_000).unwrap_err();
        assert!(e.to_string().contains(why), "{}: {e}", rules.name());
    }
    let record = |board: &str, to: &str| Record {
        mover: Player::Left,
        board: board.to_string(),
        tail: "0".to_string(),
        play: Play::Board(to.to_string()),
    };
    // The same cells on a smaller rectangle: never reached, still refused.
    refused(
        &Domineering,
        &domineering,
        record("..|..", "..|.."),
        "rectangle",
    );
    refused(&Clobber, &clobber, record("xo|ox", "xo|ox"), "rectangle");
    // A position the replay never reaches, with a move that is no move.
    refused(
        &Domineering,
        &domineering,
        record("####|####|..##", "####|####|####"),
        "is not a move",
    );
    refused(
        &Clobber,
        &clobber,
        record("xo..|....|....", "x...|....|...."),
        "is not a move",
    );
    // And with a real move there, the certificate is still accepted.
    let mut extra = domineering.clone();
    extra
        .records
        .insert(0, record("#.##|#.##|####", "####|####|####"));
    check(&Domineering, &extra, 10_000_000).unwrap();
}

/// Whole positions make Domineering proofs cheaper to check than split
/// ones (the check's work, positions replayed and region positions valued,
/// less by a third at least: on 5 x 6, 4.1 K against 84 K, with 1736
/// records against 2440), and 7 x 7 is certified and checked inside a
/// test.
#[test]
fn whole_positions_make_small_proofs() {
    let rules = Domineering;
    let text = "......|......|......|......|......";
    let whole = certify(&rules, text, Convention::Normal, 12);
    let split = certify_with(&rules, text, Convention::Normal, 12, true, Positions::Split);
    assert!(whole.header.whole && !split.header.whole);
    let work = |c: &Certificate| {
        let r = check(&rules, c, 10_000_000).unwrap();
        r.positions + r.valued
    };
    let (w, s) = (work(&whole), work(&split));
    assert!(w * 3 < s * 2, "the check's work: {w} whole, {s} split");
    let seven = ["......."; 7].join("|");
    let cert = certify(&rules, &seven, Convention::Normal, 12);
    // Published: 7 x 7 is a first-player win.
    assert_eq!(cert.header.claims.class(), Some("N"));
}

/// Domineering 8 x 8 certified (both first players) and checked, streamed
/// through a file as the CLI does: 55.7 M lines (8.9 GB of text), about 35
/// minutes and 6 GB to write and 8 minutes and 8 GB to check on this 2-core
/// machine, in release mode. Run with `cargo test --release -p
/// partizan-solve --test outcome_certificate -- --ignored` (and 20 GB of
/// free disk).
#[test]
#[ignore]
fn domineering_eight_by_eight_is_certified() {
    use partizan_solve::search::certificate::{check_reader, write_certificate, CertReader};
    let rules = Domineering;
    let eight = rules.parse(&["........"; 8].join("|")).unwrap();
    let mut cfg = SearchConfig::new(Convention::Normal);
    cfg.table_bytes = 1 << 30;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d8.txt");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let (report, _) =
        write_certificate(&rules, &eight, &cfg, &Control::default(), &mut out).unwrap();
    drop(out);
    // Published: 8 x 8 is a first-player win.
    let o = report.outcomes().expect("both first players searched");
    assert!(o.left_first && o.right_first);
    let reader =
        CertReader::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap())).unwrap();
    assert_eq!(reader.header().claims.class(), Some("N"));
    let checked = check_reader(&rules, reader, 2_000_000_000, &mut |_| {
        ControlFlow::Continue(())
    })
    .unwrap();
    assert!(checked.by_bounds > 0 && checked.by_value > 0, "{checked:?}");
    assert_eq!(checked.searched, 0, "{checked:?}");
}

/// Version 1 certificates (no `cutoffs` line) are still read, as
/// `cutoffs none`; an unknown cutoff is refused by name.
#[test]
fn version_one_certificates_are_still_read() {
    let rules = Domineering;
    let cert = certify_with(
        &rules,
        "....|....|....|....",
        Convention::Normal,
        6,
        false,
        Positions::Split,
    );
    let v2 = cert.to_text();
    let v1 = v2
        .replacen("partizan-certificate 2\n", "partizan-certificate 1\n", 1)
        .replacen("positions split\ncutoffs none\n", "", 1);
    assert_ne!(v1, v2);
    let read = Certificate::parse(&v1).unwrap();
    assert_eq!(read, cert);
    check(&rules, &read, 10_000_000).unwrap();
    let bad = v2.replacen("cutoffs none", "cutoffs magic", 1);
    let e = Certificate::parse(&bad).unwrap_err();
    assert!(e.to_string().contains("unknown cutoffs 'magic'"), "{e}");
    // A version 1 file with a cutoffs line is not version 1.
    let mixed = v2.replacen("partizan-certificate 2", "partizan-certificate 1", 1);
    assert!(Certificate::parse(&mixed).is_err());
}

#[test]
fn a_check_stops_when_its_progress_callback_says_so() {
    use partizan_solve::search::certificate::{check_reader, CertError, CertReader, CheckProgress};
    // Without values or bounds the proof is long enough for the checker to
    // report several times while reading and replaying it (5 x 7: on 5 x 6
    // the checker's own counts, with the packing of vulnerable placements,
    // end the lines after fewer positions than it reports at).
    let rules = Domineering;
    let cert = certify_with(
        &rules,
        ".....|.....|.....|.....|.....|.....|.....",
        Convention::Normal,
        0,
        false,
        Positions::Split,
    );
    let text = cert.to_text();
    let mut heard = Vec::new();
    let full = check_reader(
        &rules,
        CertReader::new(text.as_bytes()).unwrap(),
        10_000_000,
        &mut |p| {
            heard.push(p);
            ControlFlow::Continue(())
        },
    )
    .unwrap();
    assert!(
        heard.iter().any(|p| matches!(p, CheckProgress::Reading(_)))
            && heard
                .iter()
                .any(|p| matches!(p, CheckProgress::Replaying(_))),
        "{} records, {} positions: {heard:?}",
        full.records,
        full.positions
    );
    // Stopped while reading, and while replaying: at once, and as stopped.
    for stop_in_replay in [false, true] {
        let mut calls = 0;
        let e = check_reader(
            &rules,
            CertReader::new(text.as_bytes()).unwrap(),
            10_000_000,
            &mut |p| {
                calls += 1;
                match (p, stop_in_replay) {
                    (CheckProgress::Replaying(_), true) | (CheckProgress::Reading(_), false) => {
                        ControlFlow::Break(())
                    }
                    _ => ControlFlow::Continue(()),
                }
            },
        )
        .unwrap_err();
        assert!(matches!(e, CertError::Stopped), "{e}");
        let reads = heard
            .iter()
            .filter(|p| matches!(p, CheckProgress::Reading(_)))
            .count();
        assert_eq!(calls, if stop_in_replay { reads + 1 } else { 1 });
    }
}
