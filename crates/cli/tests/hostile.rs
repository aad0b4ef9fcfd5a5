//! Hostile command lines (issue 38): sizes that once asked for terabytes,
//! texts that once overflowed the stack, flags at their extremes. Each is
//! a one-line error with exit code 2, or an answer, within seconds: never
//! an abort, a panic or a hang.

use std::time::{Duration, Instant};

use assert_cmd::Command;

/// How long any of these may take: they are all refused or answered at
/// once (an allocation of terabytes used to take a fraction of a second to
/// abort, so a generous bound still catches a run that works instead).
const QUICK: Duration = Duration::from_secs(60);

fn run(args: &[&str]) -> std::process::Output {
    let started = Instant::now();
    let out = Command::cargo_bin("partizan")
        .unwrap()
        .arg("--no-store")
        .args(args)
        .timeout(QUICK)
        .output()
        .unwrap();
    assert!(started.elapsed() < QUICK, "{args:?} ran out of time");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("panicked") && !err.contains("overflowed its stack"),
        "{args:?}: {err}"
    );
    out
}

/// Exit code 2 and one line on stderr naming `needle`.
fn fails(args: &[&str], needle: &str) {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: one line: {err}"
    );
    assert!(err.contains(needle), "{args:?}: {err} should say {needle}");
}

/// Exit code 0; stdout.
fn answers(args: &[&str]) -> String {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn sizes_past_any_board_or_graph_are_refused_at_parse_time() {
    // each of these aborted on a multi-terabyte allocation (exit 134)
    fails(
        &["outcome", "cram", "--rectangles", "99999999999x2"],
        "over 128",
    );
    fails(
        &["grundy", "kayles", "path:99999999999", "--values"],
        "at most 64",
    );
    fails(
        &["grundy", "node-kayles", "complete:99999999999"],
        "at most 64",
    );
    fails(
        &["grundy", "kayles", "star:18446744073709551615"],
        "at most 64",
    );
    fails(
        &["grundy", "kayles", "--up-to", "99999999999", "--values"],
        "--values lists at most",
    );
}

#[test]
fn an_all_but_game_asked_for_billions_of_values_stops_at_its_cap() {
    let out = answers(&["grundy", "allbut:1", "--up-to", "99999999999"]);
    assert!(out.contains("asked for 99999999999"), "{out}");
}

#[test]
fn values_deep_from_a_short_text_are_analysed() {
    // the remote-star walk went 200,000 forms deep and overflowed the stack
    for v in ["Tiny(200000)", "Miny(200000)"] {
        let out = answers(&["analyse", v]);
        assert!(out.contains("atomic weight"), "{v}: {out}");
    }
}

#[test]
fn the_census_accepts_what_its_help_says() {
    let out = Command::cargo_bin("partizan")
        .unwrap()
        .args(["census", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout).replace(char::is_whitespace, " ");
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(help.contains("1 to 16 for domineering and cram"), "{help}");
    assert!(help.contains("1 to 12 for snort, col and nogo"), "{help}");
    // 16 to 18 were accepted while the help said 15; 16 cells took 12 GB
    fails(
        &["census", "domineering", "--max-cells", "17"],
        "between 1 and 16",
    );
    fails(&["census", "cram", "--max-cells", "18"], "between 1 and 16");
    fails(&["census", "snort", "--max-cells", "13"], "(1 to 12)");
    fails(&["census", "col", "--max-cells", "17"], "(1 to 12)");
}
