//! Long work is bounded and visible (issue 10): a `--progress` line format
//! for logs on every long command, nothing on a piped stderr without it; a
//! memory budget that stops a census or an atlas build with a one-line
//! error saying how far it got; and a store that stops growing at its size
//! limit instead of filling the disk.

use assert_cmd::Command;
use std::path::Path;

fn partizan() -> Command {
    Command::cargo_bin("partizan").unwrap()
}

fn stderr_of(args: &[&str]) -> (String, String) {
    let out = partizan().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?}: {err}");
    (String::from_utf8_lossy(&out.stdout).into_owned(), err)
}

/// Every long command of the list,
/// with the label its progress lines start with.
fn long_commands(dir: &Path) -> Vec<(Vec<String>, &'static str)> {
    let store = dir.join("s.sqlite").display().to_string();
    let atlas = dir.join("atlas").display().to_string();
    let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        (
            v(&["semigroups", "count", "--max-genus", "12"]),
            "semigroups count to genus 12: ",
        ),
        (
            v(&["sylver", "census", "--max-gaps", "6"]),
            "sylver census to 6 gaps: ",
        ),
        (
            v(&["census", "domineering", "--max-cells", "5"]),
            "census to 5 cells: ",
        ),
        (
            v(&["census", "cram", "--max-cells", "5"]),
            "census to 5 cells: ",
        ),
        (
            v(&["value", "domineering", "...|...", "--no-store"]),
            "value domineering: ",
        ),
        (
            v(&["graph", "domineering", "...|..."]),
            "graph domineering: ",
        ),
        (
            // (Not from a store: a stored outcome answers at once, with no search.)
            v(&["outcome", "domineering", "...|...|...", "--no-store"]),
            "outcome domineering: ",
        ),
        (
            v(&[
                "store",
                "--store",
                &store,
                "warm",
                "domineering",
                "--max-cells",
                "4",
            ]),
            "store warm domineering 4: ",
        ),
        (v(&["store", "--store", &store, "verify"]), "store verify: "),
        (
            v(&["atlas", "build", "--max-cells", "4", "--dir", &atlas]),
            "atlas build to 4 cells",
        ),
    ]
}

#[test]
fn progress_lines_on_every_long_command_and_nothing_on_a_pipe_without_them() {
    // Each run on its own store and atlas, so both start from the same state.
    let (quiet_dir, shown_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let quiet_runs = long_commands(quiet_dir.path());
    for ((args, label), (quiet_args, _)) in
        long_commands(shown_dir.path()).into_iter().zip(quiet_runs)
    {
        let q: Vec<&str> = quiet_args.iter().map(String::as_str).collect();
        let (quiet_out, quiet) = stderr_of(&q);
        assert_eq!(
            quiet, "",
            "{q:?}: a piped stderr stays silent without --progress"
        );
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut with = vec!["--progress=0.01"];
        with.extend(&a);
        let (out, err) = stderr_of(&with);
        if label.starts_with("atlas") || label.starts_with("outcome") {
            // (Their tables show times: the first line only.)
            assert_eq!(out.lines().next(), quiet_out.lines().next(), "{a:?}");
        } else {
            assert_eq!(out, quiet_out, "{a:?}: progress changes nothing on stdout");
        }
        let lines: Vec<&str> = err.lines().collect();
        assert!(!lines.is_empty(), "{a:?}: no progress lines");
        assert!(lines.iter().all(|l| l.starts_with(label)), "{a:?}: {err}");
        let last = lines[lines.len() - 1];
        assert!(
            last.contains(": done"),
            "{a:?}: the last line says done: {err}"
        );
        assert!(
            last.contains(" MB") && last.ends_with(" s"),
            "{a:?}: {last}"
        );
    }
}

#[test]
fn progress_counts_what_it_can_count() {
    let dir = tempfile::tempdir().unwrap();
    let (_, err) = stderr_of(&["--progress", "census", "domineering", "--max-cells", "6"]);
    assert!(err.contains("104/104 shapes (100%)"), "{err}");
    let store = dir.path().join("s.sqlite").display().to_string();
    let (_, err) = stderr_of(&[
        "--progress",
        "store",
        "--store",
        &store,
        "warm",
        "domineering",
        "--max-cells",
        "4",
    ]);
    assert!(err.contains("shapes (100%)"), "{err}");
    let atlas = dir.path().join("a").display().to_string();
    let (_, err) = stderr_of(&[
        "--progress",
        "atlas",
        "build",
        "--max-cells",
        "5",
        "--dir",
        &atlas,
    ]);
    assert!(err.contains("5/5 levels (100%)"), "{err}");
}

#[test]
fn progress_lines_come_every_interval_while_the_work_runs() {
    // Over a second of work even on a fast machine (genus 37): several
    // lines at a 20 ms interval.
    let (_, err) = stderr_of(&[
        "--progress=0.02",
        "semigroups",
        "count",
        "--max-genus",
        "37",
    ]);
    let lines = err.lines().count();
    assert!(lines >= 3, "{lines} lines: {err}");
}

#[test]
fn a_bad_progress_interval_is_a_usage_error() {
    for bad in ["--progress=0", "--progress=-1", "--progress=soon"] {
        let out = partizan()
            .args([bad, "semigroups", "count", "--max-genus", "3"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("seconds"), "{err}");
    }
}

fn fails_over_budget(args: &[&str], far: &str) {
    let out = partizan().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(out.stdout, b"", "{args:?}: no answer is printed");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
    assert!(err.contains("memory budget of 1 MB reached"), "{err}");
    assert!(err.contains(far), "{args:?}: says how far it got: {err}");
    assert!(err.contains("--max-memory"), "{err}");
}

#[test]
fn a_tiny_memory_budget_stops_census_and_atlas_build_saying_how_far() {
    let dir = tempfile::tempdir().unwrap();
    fails_over_budget(
        &[
            "--max-memory",
            "1M",
            "census",
            "domineering",
            "--max-cells",
            "8",
        ],
        "of 1042 shapes",
    );
    fails_over_budget(
        &["census", "cram", "--max-cells", "8", "--max-memory", "1M"],
        "census to 8 cells",
    );
    let atlas = dir.path().join("atlas").display().to_string();
    fails_over_budget(
        &[
            "atlas",
            "build",
            "--max-cells",
            "8",
            "--dir",
            &atlas,
            "--max-memory",
            "1M",
        ],
        "of 8 levels",
    );
    fails_over_budget(
        &[
            "semigroups",
            "count",
            "--max-genus",
            "30",
            "--max-memory",
            "1M",
        ],
        "semigroups count",
    );
    fails_over_budget(
        &["sylver", "census", "--max-gaps", "12", "--max-memory", "1M"],
        "sylver census",
    );
    // The certificate checker too (it reads the file a line at a time, but
    // its map of records and replayed positions grows with the proof).
    let cert = dir.path().join("cert.txt").display().to_string();
    let out = partizan()
        .args(["outcome", "domineering", "....|....|....", "--no-store"])
        .args(["--certificate", &cert])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    fails_over_budget(&["check", &cert, "--max-memory", "1M"], "check ");
    let (out, _) = stderr_of(&["check", &cert, "--max-memory", "4G"]);
    assert!(out.starts_with("valid: domineering"), "{out}");
    // A roomy budget changes nothing.
    let (out, _) = stderr_of(&[
        "census",
        "domineering",
        "--max-cells",
        "5",
        "--max-memory",
        "4G",
    ]);
    let (plain, _) = stderr_of(&["census", "domineering", "--max-cells", "5"]);
    assert_eq!(out, plain);
}

fn regions(store: &str) -> u64 {
    let (out, _) = stderr_of(&["store", "--store", store, "stats", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["total_regions"].as_u64().unwrap()
}

#[test]
fn value_stops_growing_a_store_at_its_size_limit_and_warns() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.sqlite").display().to_string();
    let board = ".....|.....|.....|....#";
    let (plain, _) = stderr_of(&["value", "domineering", board, "--no-store"]);

    // The default limit, shown and in the stats.
    stderr_of(&[
        "store",
        "--store",
        &store,
        "warm",
        "domineering",
        "--max-cells",
        "1",
    ]);
    let (out, _) = stderr_of(&["store", "--store", &store, "limit"]);
    assert!(out.contains("of a 2 GiB limit"), "{out}");
    let (out, _) = stderr_of(&["store", "--store", &store, "stats", "--json"]);
    assert!(
        out.contains(&format!("\"size_limit\": {}", 2u64 << 30)),
        "{out}"
    );
    // A limit the new store already meets: the value is right, nothing is kept, a warning says so.
    stderr_of(&["store", "--store", &store, "limit", "1K"]);
    let (out, err) = stderr_of(&["value", "domineering", board, "--store", &store]);
    assert_eq!(out, plain);
    assert!(err.contains("reached its size limit of 1 KiB"), "{err}");
    assert!(err.contains("partizan store limit"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(regions(&store), 1, "only the warm's one region");
    let (out, _) = stderr_of(&["store", "--store", &store, "stats"]);
    assert!(out.contains("full, no values are added"), "{out}");

    // No limit: the same run fills the store, silently.
    stderr_of(&["store", "--store", &store, "limit", "none"]);
    let (out, err) = stderr_of(&["value", "domineering", board, "--store", &store]);
    assert_eq!(out, plain);
    assert_eq!(err, "");
    assert!(regions(&store) > 1000);
    let (out, _) = stderr_of(&["store", "--store", &store, "limit", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["size_limit"].is_null(), "{v}");

    // Bad sizes are usage errors.
    let out = partizan()
        .args(["store", "--store", &store, "limit", "lots"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn outcome_obeys_the_global_memory_budget() {
    // Before: `partizan --max-memory 1M outcome ...` ran unbounded, exit 0.
    let out = partizan()
        .args([
            "--max-memory",
            "1M",
            "outcome",
            "domineering",
            "....|....|....|....",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(out.stdout, b"");
    assert!(err.contains("--max-memory 1"), "{err}");
    // Within a roomy budget the answer is as before.
    let (roomy, _) = stderr_of(&[
        "--max-memory",
        "4G",
        "outcome",
        "domineering",
        "...|...|...",
    ]);
    let (plain, _) = stderr_of(&["outcome", "domineering", "...|...|..."]);
    let first = |s: &str| s.lines().next().unwrap_or("").to_string();
    assert_eq!(first(&roomy), first(&plain));
}
