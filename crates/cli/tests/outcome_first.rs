//! `partizan outcome --first left|right`, Domineering's own checkpoint and
//! the per-ruleset parallel default, end to end.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_partizan"))
        .args(args)
        .arg("--no-store")
        .output()
        .expect("binary runs")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

fn fails(args: &[&str], needle: &str) {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(
        err.to_lowercase().contains(&needle.to_lowercase()),
        "{args:?}: {err} should mention {needle}"
    );
}

/// 4 rows x 5 columns of Domineering: L (Lachmann, Moore and Rapaport's
/// table; `tests/outcome.rs` pins it too).
const L_BOARD: &str = ".....|.....|.....|.....";

#[test]
fn one_first_player_is_searched_alone_and_names_no_class() {
    let both = json(&["outcome", "domineering", L_BOARD, "--json"]);
    assert_eq!(both["outcome"], "L");
    assert_eq!(both["first"], "both");
    for (first, other) in [("left", "right"), ("right", "left")] {
        for engine in [None, Some("--general")] {
            let mut args = vec![
                "outcome",
                "domineering",
                L_BOARD,
                "--first",
                first,
                "--json",
            ];
            args.extend(engine);
            let v = json(&args);
            assert!(v["outcome"].is_null(), "{v}");
            assert_eq!(v["first"], first);
            let key = format!("{first}_first_wins");
            assert_eq!(v[&key], both[&key], "{args:?}");
            assert!(v[format!("{other}_first_wins")].is_null());
            assert!(v["first_players"].get(other).is_none(), "{v}");
            assert!(v["first_players"][first]["nodes"].as_u64().unwrap() > 0);
            assert_eq!(v["saved_to_store"], false);
        }
    }
    let out = run(&["outcome", "domineering", L_BOARD, "--first", "left"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("outcome class unknown"), "{text}");
    assert!(text.contains("Left first: wins with r"), "{text}");
    assert!(text.contains("Right first: not searched"), "{text}");
    // With one side, first-players has nothing to split: it still answers.
    let v = json(&[
        "outcome",
        "domineering",
        L_BOARD,
        "--first",
        "right",
        "--threads",
        "2",
        "--parallel",
        "first-players",
        "--json",
    ]);
    assert_eq!(v["right_first_wins"], false);
    fails(
        &["outcome", "domineering", L_BOARD, "--first", "up"],
        "unknown first player 'up'",
    );
}

#[test]
fn a_one_sided_certificate_checks_and_proves_no_class() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cert.txt");
    let f = file.to_str().unwrap();
    let v = json(&[
        "outcome",
        "domineering",
        L_BOARD,
        "--first",
        "right",
        "--certificate",
        f,
        "--json",
    ]);
    assert_eq!(v["right_first_wins"], false);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("claim right loses") && !text.contains("claim left"));
    let c = json(&["check", f, "--json"]);
    assert_eq!(c["valid"], true);
    assert!(c["outcome"].is_null(), "{c}");
    assert!(c["left_first_wins"].is_null());
    assert_eq!(c["right_first_wins"], false);
    let out = run(&["check", f]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("Right moving first loses"));
    // A claim for the other side, which the proof does not cover, fails.
    let bad = dir.path().join("bad.txt");
    std::fs::write(
        &bad,
        text.replace("claim right loses", "claim left wins\nclaim right loses"),
    )
    .unwrap();
    fails(&["check", bad.to_str().unwrap()], "proof fails");
}

/// 8 x 6 Domineering (8 rows, 6 columns): L (Lachmann, Moore and
/// Rapaport), about 195,000 nodes on Domineering's own search.
const SIX: &str = "......|......|......|......|......|......|......|......";

#[test]
fn domineerings_own_search_resumes_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("d.ckpt");
    let ck = ck.to_str().unwrap();
    let base = [
        "outcome",
        "domineering",
        SIX,
        "--threads",
        "1",
        "--checkpoint",
        ck,
    ];
    let mut stopped = base.to_vec();
    stopped.extend(["--max-nodes", "8192"]);
    fails(&stopped, "resume");
    let mut resumed = base.to_vec();
    resumed.push("--json");
    let v = json(&resumed);
    assert_eq!(v["outcome"], "L");
    assert_eq!(v["resumed"]["sessions"], 1);
    // Domineering's own search ran (no general-engine counts of values).
    assert_eq!(v["stats"]["regions_valued"], 0);
    let text = run(&["outcome", "domineering", SIX, "--checkpoint", ck]);
    assert!(text.status.success());
    assert!(String::from_utf8_lossy(&text.stdout).contains("checkpoint"));
    // A damaged checkpoint: one line, exit 2.
    let mut bytes = std::fs::read(ck).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(ck, bytes).unwrap();
    fails(&base, "damaged");
}

#[test]
fn help_lists_the_new_options_and_each_rulesets_parallel_default() {
    let out = Command::new(env!("CARGO_BIN_EXE_partizan"))
        .args(["outcome", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("--first"), "{help}");
    assert!(help.contains("domineering root-split"), "{help}");
    assert!(help.contains("clobber first-players"), "{help}");
    assert!(help.contains("refuted first moves"), "{help}");
}
