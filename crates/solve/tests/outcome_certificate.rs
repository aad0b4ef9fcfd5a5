//! Certificates: every proof the search writes is accepted by the
//! independent checker, and tampered proofs (a flipped claim, a losing
//! move in place of the winning one, a missing record) are refused.

use partizan_games::{Clobber, Domineering, Konane, Player, Ruleset};
use partizan_solve::outcome::{wins_plain, Convention};
use partizan_solve::search::certificate::{check, solve_with_certificate, Certificate, Play};
use partizan_solve::search::{Control, Knowledge, SearchConfig};
use rustc_hash::FxHashMap;

fn certify<R: Knowledge>(rules: &R, text: &str, convention: Convention, vc: u32) -> Certificate {
    let b = rules.parse(text).unwrap();
    let mut cfg = SearchConfig::new(convention);
    if convention == Convention::Normal {
        cfg.value_cells = vc;
    }
    cfg.table_bytes = 1 << 20;
    let (_, cert) = solve_with_certificate(rules, &b, &cfg, &Control::default()).unwrap();
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
            certify(&Domineering, text, Convention::Normal, vc);
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
    let rules = Domineering;
    let text = ".....|.....|.....|.....";
    let cert = certify(&rules, text, Convention::Normal, 6);
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
    // Drop a record.
    let mut bad = cert.clone();
    bad.records.pop();
    assert!(
        check(&rules, &bad, 10_000_000).is_err(),
        "a missing record passed"
    );
    // The other ruleset and a bad header.
    assert!(check(&Clobber, &cert, 10).is_err());
    assert!(Certificate::parse("partizan-certificate 2\n").is_err());
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
        let streamed = check_reader(&rules, reader, 10_000_000, &mut |_| {}).unwrap();
        assert_eq!(streamed, whole);
    }
    // A record whose board does not parse is refused, naming it.
    let bad = text.replacen("\tboard\t", "\tboard\tzz", 1);
    let e = check_reader(
        &rules,
        CertReader::new(bad.as_bytes()).unwrap(),
        10_000_000,
        &mut |_| {},
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
