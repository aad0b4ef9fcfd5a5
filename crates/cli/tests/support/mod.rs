//! Shared by the CLI's test binaries.

use std::process::Output;

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
