//! Shared by the CLI's test binaries. Each binary sets the command up its
//! own way (a store of its own, `--no-store`, a key file) and hands the
//! output here to be judged the same way everywhere.

// Each test binary that says `mod support;` uses its own share of these.
#![allow(dead_code)]

use std::process::{Command, Output};

/// The `partizan` binary under test, with no arguments yet.
pub fn partizan() -> Command {
    Command::new(env!("CARGO_BIN_EXE_partizan"))
}

/// Runs `cmd` to the end and returns what it wrote.
pub fn output(cmd: &mut Command) -> Output {
    cmd.output().expect("binary runs")
}

/// The standard output of a command that must have succeeded, parsed as
/// JSON; `args` name the command in the failure message.
pub fn json_of(args: &[&str], out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

/// The standard output of a command that must have succeeded, as text.
pub fn stdout_of(args: &[&str], out: &Output) -> String {
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("utf-8")
}

/// A command that must have failed on bad input: exit code 2, one line
/// naming `needle` (case aside), and no panic.
pub fn assert_fails(args: &[&str], out: &Output, needle: &str) {
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    // Under --json the error is a JSON object on standard output instead.
    let err = error_text(args, out);
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(
        err.to_lowercase().contains(&needle.to_lowercase()),
        "{args:?}: {err} should mention {needle}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("panicked"),
        "{args:?}"
    );
}

/// The error a failed command printed: its stderr, or under `--json` the
/// `error` of the JSON object on stdout (then nothing may be on stderr).
pub fn error_text(args: &[&str], out: &Output) -> String {
    if args.contains(&"--json") {
        assert!(out.stderr.is_empty(), "{args:?}: nothing on stderr");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON error");
        v["error"].as_str().expect("an error message").to_string()
    } else {
        String::from_utf8_lossy(&out.stderr).to_string()
    }
}
