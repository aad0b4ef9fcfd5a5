//! Helpers shared by the store's integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// The `store_writer` example binary, built on demand if `cargo test` was
/// asked for this test alone (a plain `cargo test` builds examples itself).
pub fn writer_exe() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    // target/<profile>/deps/<test> -> target/<profile>/examples/store_writer
    let dir = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target profile dir");
    let path = dir
        .join("examples")
        .join(format!("store_writer{}", std::env::consts::EXE_SUFFIX));
    if !path.exists() {
        let profile_release = dir.file_name().is_some_and(|n| n == "release");
        let mut cmd = Command::new(env!("CARGO"));
        cmd.args([
            "build",
            "-q",
            "-p",
            "partizan-store",
            "--example",
            "store_writer",
        ]);
        if profile_release {
            cmd.arg("--release");
        } else {
            // `cargo test` builds into the `debug` dir with the test profile's settings.
            cmd.args(["--profile", "test"]);
        }
        if let Some(target) = dir.parent() {
            cmd.env("CARGO_TARGET_DIR", target);
        }
        let status = cmd.status().expect("run cargo to build the example");
        assert!(status.success(), "building the store_writer example failed");
    }
    path
}

/// A fresh temporary directory.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}
