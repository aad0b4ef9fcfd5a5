//! `partizan outcome` end to end: the JSON shape, winning moves that are
//! real moves, the published 6 x 6 answer, and bad input.

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

#[test]
fn six_by_six_domineering_is_a_first_player_win_with_moves() {
    let b = "......|......|......|......|......|......";
    let v = json(&["outcome", "domineering", b, "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["left_first_wins"], true);
    assert_eq!(v["right_first_wins"], true);
    // Left's winning move is a vertical domino, Right's a horizontal one.
    let l = v["first_players"]["left"]["move"]["cells"]
        .as_array()
        .unwrap();
    let r = v["first_players"]["right"]["move"]["cells"]
        .as_array()
        .unwrap();
    assert_eq!(l.len(), 2);
    assert_eq!(l[0][1], l[1][1], "same column: {l:?}");
    assert_eq!(r[0][0], r[1][0], "same row: {r:?}");
    assert!(v["first_players"]["left"]["nodes"].as_u64().unwrap() > 0);
    for k in ["bytes", "capacity", "filled", "probes", "hits"] {
        assert!(v["table"][k].is_u64(), "table.{k}");
    }
    assert!(v["time_ms"].is_number());
    assert!(v["stats"]["nodes"].is_u64());
}

#[test]
fn one_thread_and_two_agree_and_text_names_the_moves() {
    let b = "....|....|....";
    let one = json(&["outcome", "domineering", b, "--threads", "1", "--json"]);
    let two = json(&["outcome", "domineering", b, "--threads", "2", "--json"]);
    assert_eq!(one["outcome"], two["outcome"]);
    let par = json(&[
        "outcome",
        "domineering",
        b,
        "--threads",
        "2",
        "--parallel",
        "first-players",
        "--json",
    ]);
    assert_eq!(one["outcome"], par["outcome"]);
    assert_eq!(one["outcome"], "R");
    let out = run(&["outcome", "domineering", b]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().next(), Some("R"));
    assert!(text.contains("Right first: wins with r"), "{text}");
    assert!(text.contains("Left first: loses"), "{text}");
}

#[test]
fn misere_outcomes_are_answered() {
    let v = json(&["outcome", "domineering", "..|..", "--misere", "--json"]);
    assert_eq!(v["convention"], "misere");
    // Misère 2x2: every first move leaves the opponent without a move, and
    // under misère play the player who cannot move wins.
    assert_eq!(v["outcome"], "P");
}

#[test]
fn bad_input_and_limits_are_one_line_errors() {
    fails(&["outcome", "domineering", "..|."], "row 2");
    fails(&["outcome", "chess", ".."], "unknown ruleset");
    fails(
        &["outcome", "domineering", "..", "--threads", "3"],
        "threads",
    );
    fails(
        &["outcome", "domineering", "..", "--ordering", "best"],
        "ordering",
    );
    fails(
        &[
            "outcome",
            "domineering",
            "..",
            "--table-mb",
            "64",
            "--max-memory",
            "32",
        ],
        "max-memory",
    );
    // The budget is looked at every few thousand nodes, so the boards must
    // need more than that: 8x8 on Domineering's own search, 6x6 on the
    // general engine.
    fails(
        &[
            "outcome",
            "domineering",
            "........|........|........|........|........|........|........|........",
            "--max-nodes",
            "100",
        ],
        "budget",
    );
    fails(
        &[
            "outcome",
            "domineering",
            "......|......|......|......|......|......",
            "--general",
            "--max-nodes",
            "100",
        ],
        "budget",
    );
}

#[test]
fn certificates_are_written_and_checked() {
    let dir = std::env::temp_dir().join(format!("partizan-cert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cert.txt");
    let f = file.to_str().unwrap();
    let v = json(&[
        "outcome",
        "domineering",
        ".....|.....|.....|.....",
        "--certificate",
        f,
        "--json",
    ]);
    assert_eq!(v["outcome"], "L");
    let c = json(&["check", f, "--json"]);
    assert_eq!(c["valid"], true);
    assert_eq!(c["outcome"], "L");
    assert!(c["check"]["positions"].as_u64().unwrap() > 10);
    // A false claim is refused with one line and exit code 2.
    let text = std::fs::read_to_string(&file).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, text.replace("claim right loses", "claim right wins")).unwrap();
    fails(&["check", bad.to_str().unwrap()], "proof fails");
    fails(
        &["check", dir.join("none.txt").to_str().unwrap()],
        "cannot read",
    );
    std::fs::write(&bad, "not a certificate\n").unwrap();
    fails(&["check", bad.to_str().unwrap()], "line 1");
    let _ = std::fs::remove_dir_all(&dir);
}
