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
            bad.claims.left_first = bad.claims.left_first.map(|c| !c);
        } else {
            bad.claims.right_first = bad.claims.right_first.map(|c| !c);
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
