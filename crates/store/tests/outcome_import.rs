//! Imported outcomes are claims: each is searched again before it is
//! stored. Issue 38: an imported `outcome/v1/...` line claiming P for
//! 4 x 6 Domineering (truth N) was stored as it was and then answered;
//! nine of ten rulesets tried were poisonable so.

use partizan_games::{with_rules, Rules};
use partizan_solve::outcome::Convention;
use partizan_solve::search::{solve, Control, SearchConfig};
use partizan_store::outcomes::outcome_key;
use partizan_store::{
    import_jsonl, promote_verified, verify, OutcomeRead, Provenance, Store, StoreError,
    StoredOutcome, VerifyOptions,
};

fn record(ruleset: &str, board: &str, left: bool, right: bool) -> StoredOutcome {
    StoredOutcome {
        ruleset: ruleset.to_string(),
        board: board.to_string(),
        convention: "normal".to_string(),
        left_first_wins: left,
        right_first_wins: right,
        left_move: None,
        right_move: None,
        nodes: 1,
        partizan_version: "forged".to_string(),
        computed_at: 0,
        provenance: Provenance::Computed,
    }
}

fn jsonl(records: &[StoredOutcome]) -> String {
    let mut s = String::from("{\"kind\":\"header\",\"format\":\"partizan-store\",\"version\":2}\n");
    for o in records {
        let line = serde_json::json!({
            "kind": "census",
            "key": outcome_key(&o.ruleset, &o.convention, &o.board),
            "value": o,
        });
        s.push_str(&line.to_string());
        s.push('\n');
    }
    s
}

/// Who wins `board` of `rules` moving first (Left, Right), by the search.
fn truth(rules: Rules, board: &str) -> (bool, bool) {
    with_rules!(rules, |r| {
        let b = r.parse(board).unwrap();
        let rep = solve(
            r,
            &b,
            &SearchConfig::for_ruleset(r, Convention::Normal),
            &Control::default(),
        )
        .unwrap();
        (rep.left.wins, rep.right.wins)
    })
}

#[test]
fn a_false_imported_outcome_is_refused_for_every_ruleset() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    let mut poisoned = 0;
    let mut tried = 0;
    for &rules in Rules::ALL {
        let board = rules.info().example;
        let (l, r) = truth(rules, board);
        for (fl, fr) in [(!l, r), (l, !r), (!l, !r)] {
            tried += 1;
            let text = jsonl(&[record(rules.name(), board, fl, fr)]);
            match import_jsonl(&store, &mut text.as_bytes()) {
                Err(StoreError::Import { line: 2, detail }) => {
                    assert!(detail.contains("nothing was imported"), "{detail}");
                }
                other => {
                    poisoned += 1;
                    eprintln!("{} {board}: {other:?}", rules.name());
                }
            }
            assert!(matches!(
                store.get_outcome(rules.name(), "normal", board).unwrap(),
                OutcomeRead::Miss
            ));
        }
        // The true claim is stored, as the search found it, verified.
        let text = jsonl(&[record(rules.name(), board, l, r)]);
        let rep = import_jsonl(&store, &mut text.as_bytes()).unwrap();
        assert_eq!(rep.outcomes_verified, 1, "{}", rules.name());
        match store.get_outcome(rules.name(), "normal", board).unwrap() {
            OutcomeRead::Hit(o) => {
                assert_eq!((o.left_first_wins, o.right_first_wins), (l, r));
                assert_eq!(o.provenance, Provenance::Verified);
                assert_ne!(o.partizan_version, "forged");
                assert_eq!(o.left_move.is_some(), l, "{}", rules.name());
            }
            other => panic!("{}: {other:?}", rules.name()),
        }
    }
    assert_eq!(
        poisoned, 0,
        "{poisoned} of {tried} forged imports were stored"
    );
    assert!(tried >= 30);
}

/// The reproducer: 4 x 6 Domineering claimed P.
#[test]
fn issue_38s_domineering_import_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    let board = "......|......|......|......";
    let text = jsonl(&[
        record("domineering", "..|..", true, true),
        record("domineering", board, false, false),
    ]);
    let e = import_jsonl(&store, &mut text.as_bytes()).unwrap_err();
    assert!(
        e.to_string().contains("is N, not the P the file says"),
        "{e}"
    );
    // Nothing was imported, not even the true line before it.
    assert!(matches!(
        store.get_outcome("domineering", "normal", "..|..").unwrap(),
        OutcomeRead::Miss
    ));
}

/// An outcome the import's search cannot decide in its budget is kept
/// unverified: never an answer, until `store verify` searches it with a
/// bigger budget and marks it verified, or finds it wrong.
#[test]
fn an_undecided_import_waits_for_verify() {
    // 8 x 8 Domineering: N, about 2.6 M nodes for each first player, more
    // than the import's budget. Claimed rightly in one store, wrongly (P)
    // in another.
    let eight = "........|........|........|........|........|........|........|........";
    for claim in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.redb")).unwrap();
        let text = jsonl(&[record("domineering", eight, claim, claim)]);
        let rep = import_jsonl(&store, &mut text.as_bytes()).unwrap();
        assert_eq!((rep.outcomes_verified, rep.outcomes_unverified), (0, 1));
        assert!(matches!(
            store.get_outcome("domineering", "normal", eight).unwrap(),
            OutcomeRead::Unverified(_)
        ));
        let small = VerifyOptions {
            outcome_nodes: 1000,
            ..VerifyOptions::default()
        };
        let rep = verify(&store, &small).unwrap();
        assert_eq!((rep.outcomes, rep.outcomes_undecided), (1, 1));
        assert!(rep.ok());
        let rep = verify(&store, &VerifyOptions::default()).unwrap();
        assert_eq!(rep.outcomes_searched, 1);
        assert_eq!(rep.ok(), claim, "{rep:?}");
        assert_eq!(promote_verified(&store, &rep).unwrap(), u64::from(claim));
        match store.get_outcome("domineering", "normal", eight).unwrap() {
            OutcomeRead::Hit(o) if claim => {
                assert_eq!(o.provenance, Provenance::Verified);
                assert!(o.left_move.is_some() && o.right_move.is_some());
            }
            // The false one stays unverified: never an answer.
            OutcomeRead::Unverified(_) if !claim => {
                assert_eq!(rep.outcome_mismatches[0].computed, "N");
            }
            other => panic!("{other:?}"),
        }
    }
}
