//! Records the commit the binary is built from, for `partizan --version`
//! (`PARTIZAN_COMMIT`: git's short hash of HEAD; "unknown commit" outside a
//! git checkout or without git).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let commit = git(&["rev-parse", "--short=10", "HEAD"]).map(|hash| format!("commit {hash}"));
    println!(
        "cargo:rustc-env=PARTIZAN_COMMIT={}",
        commit.unwrap_or_else(|| "unknown commit".to_string())
    );
    // Rebuilt when HEAD moves (a commit, a checkout, a pull).
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        let dir = std::path::Path::new(&dir);
        let head = git(&["symbolic-ref", "-q", "HEAD"]);
        let files = ["HEAD", "packed-refs"].into_iter().chain(head.as_deref());
        for f in files {
            // A path that does not exist would rerun this script every build.
            let path = dir.join(f);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
