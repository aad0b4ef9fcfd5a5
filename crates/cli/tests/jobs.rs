//! The job-level search's workers in other processes (`partizan outcome
//! --jobs N`, `--worker-command`, `--cluster`): the same answers as the
//! plain search, whatever the workers do — die mid-job, lie, write garbage
//! — and a master killed mid-run that resumes from its tree file.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support;

/// The binary with a key file shared by this test binary's runs.
fn partizan() -> Command {
    let mut c = support::partizan();
    c.env(
        "PARTIZAN_KEY",
        std::env::temp_dir().join("partizan-jobs-test.key"),
    );
    c
}

fn run(args: &[&str]) -> Output {
    support::output(partizan().args(args).arg("--no-store"))
}

fn json(args: &[&str]) -> serde_json::Value {
    support::json_of(args, &run(args))
}

/// The plain search's class of `board`.
fn plain(ruleset: &str, board: &str) -> serde_json::Value {
    json(&["--json", "outcome", ruleset, board])["outcome"].clone()
}

/// A shell script as an executable file in `dir`.
fn script(dir: &std::path::Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    let mut f = std::fs::File::create(&path).unwrap();
    writeln!(f, "#!/bin/sh\n{body}").unwrap();
    drop(f);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

fn rect(rows: usize, row: impl Fn(usize) -> String) -> String {
    (0..rows).map(row).collect::<Vec<_>>().join("|")
}

/// Domineering rectangles with sides 2 to `dom`, the Clobber checkerboards
/// to 4 x 5 and the Cram rectangles to 5 x 6, each to at most `cells`
/// cells.
fn small_boards(dom: usize, cells: usize) -> Vec<(&'static str, String)> {
    let mut boards: Vec<(&str, String)> = Vec::new();
    for rows in 2..=dom {
        for cols in 2..=dom {
            boards.push(("domineering", rect(rows, |_| ".".repeat(cols))));
        }
    }
    for (rows, cols) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (4, 5)] {
        let checker = |r: usize| {
            (0..cols)
                .map(|c| if (r + c).is_multiple_of(2) { 'x' } else { 'o' })
                .collect::<String>()
        };
        boards.push(("clobber", rect(rows, checker)));
    }
    for (rows, cols) in [(3, 3), (3, 4), (4, 4), (4, 5), (5, 5), (5, 6)] {
        boards.push(("cram", rect(rows, |_| ".".repeat(cols))));
    }
    boards.retain(|(_, b)| b.len() - b.matches('|').count() <= cells);
    boards
}

/// The job-level search of `board` with `extra` flags: the plain search's
/// class, no lie, no failure; the jobs it took.
fn agrees(ruleset: &str, board: &str, extra: &[&str]) -> u64 {
    let mut args = vec!["--json", "outcome", ruleset, board, "--jobs", "2"];
    args.extend_from_slice(extra);
    let jobs = json(&args);
    assert_eq!(
        jobs["class"],
        plain(ruleset, board),
        "{ruleset} {board}: {jobs}"
    );
    assert!(jobs["workers"]
        .as_str()
        .unwrap()
        .contains("local processes"));
    let mut sent = 0;
    for s in jobs["searches"].as_array().unwrap() {
        assert_eq!(s["counts"]["lies"], serde_json::json!({}), "{s}");
        assert_eq!(s["counts"]["failures"], 0, "{s}");
        sent += s["counts"]["sent"].as_u64().unwrap();
        a_named_move_wins(ruleset, s);
    }
    sent
}

/// A search's named first move: one exactly when the first player wins
/// (every board here takes more than one job, so the root is expanded),
/// and the plain search says the opponent, moving first after it, loses.
fn a_named_move_wins(ruleset: &str, s: &serde_json::Value) {
    let mv = &s["move"];
    if s["first_wins"] != true {
        assert!(mv.is_null(), "{s}");
        return;
    }
    let after = mv["board"].as_str().unwrap_or_else(|| panic!("{s}"));
    assert!(!mv["cells"].as_array().unwrap().is_empty(), "{s}");
    let reply = if s["first"] == "left" {
        "right"
    } else {
        "left"
    };
    let then = json(&["--json", "outcome", ruleset, after, "--first", reply]);
    assert_eq!(then[format!("{reply}_first_wins")], false, "{s}: {then}");
}

/// Local worker processes (the default) give the plain search's class on
/// Domineering, Clobber and Cram rectangles, with budgets small enough
/// that most boards take many jobs.
#[test]
fn worker_processes_agree_with_the_plain_search() {
    for (ruleset, board) in small_boards(5, 16) {
        agrees(ruleset, &board, &["--job-nodes", "1", "--job-plies", "1"]);
    }
}

/// Workers that die mid-job (killed by a signal), lie (a decided answer
/// with a certificate for another board), or write garbage cost work,
/// never the answer: the honest worker beside them, or the master's own
/// search, decides every job they held.
#[test]
fn dying_lying_and_garbage_workers_cannot_change_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_partizan");
    let ready = r#"echo '{"ready":true,"workers":1,"name":"rogue"}'"#;
    // killed by a signal once it has a job
    let dies = script(
        dir.path(),
        "dies.sh",
        &format!("{ready}\nread line\nkill -9 $$"),
    );
    // claims every job wins, with a certificate of another board
    let cert = dir.path().join("other.cert");
    let made = run(&[
        "outcome",
        "domineering",
        "..|..",
        "--certificate",
        cert.to_str().unwrap(),
    ]);
    assert!(made.status.success());
    let cert_json = serde_json::to_string(&std::fs::read_to_string(&cert).unwrap()).unwrap();
    let lies = script(
        dir.path(),
        "lies.sh",
        &format!(
            "{ready}\nwhile read line; do\n  id=$(echo \"$line\" | sed 's/^{{\"id\":\\([0-9]*\\).*/\\1/')\n  \
             printf '{{\"job\":%s,\"answer\":\"win\",\"certificate\":%s,\"nodes\":1,\"elapsed_ms\":0}}\\n' \"$id\" '{}'\ndone",
            cert_json.replace('\'', "'\\''")
        ),
    );
    let garbage = script(
        dir.path(),
        "garbage.sh",
        &format!("{ready}\nwhile read line; do echo 'this is not an answer'; done"),
    );
    let honest = format!("{bin} job-worker");
    for board in [
        ".....|.....|.....|.....",
        "......|......|......|......|......",
    ] {
        let want = plain("domineering", board);
        for rogue in [&dies, &lies, &garbage] {
            let run = |commands: &[&str]| {
                let mut args = vec!["--json", "outcome", "domineering", board];
                for c in commands {
                    args.extend_from_slice(&["--worker-command", c]);
                }
                args.extend_from_slice(&["--job-nodes", "1", "--job-plies", "2"]);
                let got = json(&args);
                assert_eq!(got["class"], want, "{rogue} on {board}: {got}");
                got
            };
            // alone, every answer of the rogue is awaited (beside a fast
            // honest worker its answers may all come after the search is
            // decided, stale and never read): it is caught and struck, and
            // the master searches what it held
            let got = run(&[rogue]);
            let searches = got["searches"].as_array().unwrap();
            let count = |f: &dyn Fn(&serde_json::Value) -> u64| searches.iter().map(f).sum::<u64>();
            if rogue == &lies {
                let caught = count(&|s| s["counts"]["lies"]["mismatch"].as_u64().unwrap_or(0));
                assert!(caught >= 1, "{got}");
            } else {
                assert!(
                    count(&|s| s["counts"]["failures"].as_u64().unwrap()) >= 1,
                    "{got}"
                );
            }
            assert!(
                count(&|s| s["workers"][0]["strikes"].as_u64().unwrap()) >= 1,
                "{got}"
            );
            // beside an honest worker: the same answer, the honest one
            // never struck
            let got = run(&[rogue, &honest]);
            for s in got["searches"].as_array().unwrap() {
                let workers = &s["workers"];
                assert_eq!(workers[1]["strikes"], 0, "{workers}");
                assert!(workers[1]["retired"].is_null(), "{workers}");
            }
        }
    }
}

/// A board the job-level search takes about 1,000 jobs and 18 s to decide
/// with one worker, Left first, in a debug build on this 2-core machine.
const LONG: &str = "......|......|......|......|......|......|......";

/// The arguments of a long job-level search of [`LONG`] (one worker, a
/// checkpoint every second, JSON out).
fn long_master(c: &mut Command) -> &mut Command {
    c.args([
        "outcome",
        "domineering",
        LONG,
        "--jobs",
        "1",
        "--first",
        "left",
        "--job-nodes",
        "1",
        "--job-plies",
        "3",
        "--checkpoint-every",
        "1",
        "--json",
    ])
}

/// `partizan check FILE` on a whole certificate: its JSON report.
fn check_json(file: &std::path::Path) -> Result<serde_json::Value, String> {
    let out = partizan()
        .args(["--json", "check"])
        .arg(file)
        .output()
        .unwrap();
    if out.status.success() {
        Ok(serde_json::from_slice(&out.stdout).unwrap())
    } else {
        // under --json the error is a JSON object on standard output
        assert_eq!(out.status.code(), Some(2));
        Err(String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

/// `--certificate FILE` with a job-level search writes one certificate of
/// the root (the master's tree and each decided job's certificate as a
/// part) that `partizan check` accepts on its own, proving the plain
/// search's class; the same with one first player; a flipped claim or a
/// part's flipped claim is refused.
#[test]
fn a_job_level_search_writes_a_whole_certificate_that_checks() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("whole.cert");
    let boards = [
        ("domineering", "....|....|...."),
        ("domineering", ".....|.....|.....|....."),
        ("domineering", "......|......|......|......"),
        ("clobber", "xox|oxo|xox"),
        ("clobber", "xoxo|oxox|xoxo|oxox"),
    ];
    for (ruleset, board) in boards {
        let args = ["--json", "outcome", ruleset, board, "--jobs", "2"];
        let mut c = partizan();
        c.args(args)
            .args(["--job-nodes", "1", "--job-plies", "1", "--no-store"])
            .arg("--certificate")
            .arg(&file);
        let out = c.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let jobs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let parts = jobs["certificate"]["parts"].as_u64().unwrap();
        assert!(parts > 0, "{jobs}");
        let checked = check_json(&file).unwrap_or_else(|e| panic!("{board}: {e}"));
        assert_eq!(checked["outcome"], plain(ruleset, board), "{board}");
        assert_eq!(checked["outcome"], jobs["class"], "{board}");
        assert_eq!(checked["check"]["parts"].as_u64(), Some(parts), "{board}");
        // Tampered: each claim flipped, a part's claim flipped.
        let text = std::fs::read_to_string(&file).unwrap();
        let part = text.lines().find(|l| l.starts_with("part\t")).unwrap();
        let flipped_part = if part.contains("\twins\t") {
            part.replace("\twins\t", "\tloses\t")
        } else {
            part.replace("\tloses\t", "\twins\t")
        };
        let flips = [
            text.replacen("claim left wins", "claim left loses", 1),
            text.replacen("claim left loses", "claim left wins", 1),
            text.replacen("claim right wins", "claim right loses", 1),
            text.replacen("claim right loses", "claim right wins", 1),
            text.replacen(part, &flipped_part, 1),
        ];
        let bad = dir.path().join("bad.cert");
        for forged in flips.iter().filter(|f| **f != text) {
            std::fs::write(&bad, forged).unwrap();
            let e = check_json(&bad).expect_err("a forgery accepted");
            assert!(e.contains("proof fails"), "{board}: {e}");
        }
    }
    // One first player, gzip-compressed.
    let gz = dir.path().join("left.cert.gz");
    let out = partizan()
        .args(["outcome", "domineering", "....|....|....", "--jobs", "1"])
        .args([
            "--first",
            "left",
            "--job-nodes",
            "1",
            "--no-store",
            "--certificate",
        ])
        .arg(&gz)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("certificate: "));
    let checked = check_json(&gz).unwrap();
    assert_eq!(checked["outcome"], serde_json::Value::Null);
    let whole = json(&[
        "--json",
        "outcome",
        "domineering",
        "....|....|....",
        "--first",
        "left",
    ]);
    assert_eq!(checked["left_first_wins"], whole["left_first_wins"]);
}

/// Start the master `args` make and kill it (SIGKILL) once it has written
/// its tree `file`, mid-run.
fn kill_once_written(args: &dyn Fn(&mut Command), file: &std::path::Path) {
    let mut c = partizan();
    args(&mut c);
    let mut child = c
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while !file.exists() && t0.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(file.exists(), "no tree file written within 120 s");
    assert!(
        running,
        "the master finished before its first checkpoint: use a bigger board"
    );
}

/// Run the master `args` make to its end: its JSON and its standard error.
fn run_master(args: &dyn Fn(&mut Command)) -> (serde_json::Value, String) {
    let mut c = partizan();
    args(&mut c);
    let out = c.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    (serde_json::from_slice(&out.stdout).unwrap(), err)
}

/// A master killed (SIGKILL) mid-run leaves its tree file, written every
/// second; the run started again resumes from it and gives the plain
/// search's answer.
#[test]
fn a_killed_master_resumes_from_its_tree_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tree.pjt");
    let board = LONG;
    let args = |c: &mut Command| {
        long_master(c)
            .args(["--no-store", "--jobs-file"])
            .arg(&file);
    };
    kill_once_written(&args, &file);
    let (got, err) = run_master(&args);
    assert!(err.contains("resumed"), "{err}");
    // it went on from a tree that was not yet decided
    assert!(
        got["searches"][0]["counts"]["sent"].as_u64().unwrap() > 0,
        "{got}"
    );
    let whole = json(&["--json", "outcome", "domineering", board, "--first", "left"]);
    assert_eq!(
        got["searches"][0]["first_wins"], whole["left_first_wins"],
        "{got}\n{whole}"
    );
}

/// The same with `--certificate`: the decided jobs' certificates are kept
/// beside the tree file (`FILE.certs`), so the resumed master still
/// writes a whole certificate, which checks; one kept certificate
/// deleted before a second resume is searched again.
#[test]
fn a_killed_master_still_writes_a_whole_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tree.pjt");
    let cert = dir.path().join("whole.cert");
    let certs = dir.path().join("tree.pjt.certs");
    let args = |c: &mut Command| {
        long_master(c)
            .args(["--no-store", "--jobs-file"])
            .arg(&file)
            .arg("--certificate")
            .arg(&cert);
    };
    kill_once_written(&args, &file);
    assert!(!cert.exists(), "no certificate from a killed run");
    let (got, err) = run_master(&args);
    assert!(err.contains("resumed"), "{err}");
    let checked = check_json(&cert).unwrap();
    assert_eq!(checked["left_first_wins"], got["searches"][0]["first_wins"]);
    let whole = json(&["--json", "outcome", "domineering", LONG, "--first", "left"]);
    assert_eq!(checked["left_first_wins"], whole["left_first_wins"]);
    // A kept certificate lost: the decided tree is opened again there.
    let kept: Vec<_> = std::fs::read_dir(&certs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!kept.is_empty());
    for k in &kept {
        std::fs::remove_file(k).unwrap();
    }
    std::fs::remove_file(&cert).unwrap();
    let (got, err) = run_master(&args);
    assert!(err.contains("no kept certificate"), "{err}");
    assert!(
        got["searches"][0]["counts"]["sent"].as_u64().unwrap() > 0,
        "{got}"
    );
    let checked = check_json(&cert).unwrap();
    assert_eq!(checked["left_first_wins"], whole["left_first_wins"]);
}

/// The progress lines estimate the work left from the root's numbers'
/// measured fall: a run stopped (SIGTERM: it writes its tree) once a
/// progress line says "about N jobs / T left at the current rate",
/// resumed to its end, took within a factor of two of N jobs.
#[test]
fn the_progress_lines_estimate_the_work_left() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tree.pjt");
    let mut c = partizan();
    long_master(&mut c)
        .args(["--no-store", "--progress=1", "--jobs-file"])
        .arg(&file);
    let mut child = c
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut said = None;
    let mut seen = Vec::new();
    for line in std::io::BufReader::new(child.stderr.take().unwrap()).lines() {
        let line = line.unwrap();
        if let Some(rest) = line.split("; about ").nth(1) {
            said = Some(rest.to_string());
            // the most-proving line's moves, from the root
            let moves = line.split(", line ").nth(1).unwrap_or_default();
            assert!(moves.starts_with('r') && moves.contains('c'), "{line}");
            let pid = child.id().to_string();
            Command::new("kill").args(["-TERM", &pid]).status().unwrap();
            break;
        }
        seen.push(line);
    }
    let stopped = child.wait().unwrap();
    let said = said.unwrap_or_else(|| panic!("no estimate: {seen:?}"));
    assert_eq!(stopped.code(), Some(2), "stopped by the signal");
    assert!(said.ends_with("left at the current rate"), "{said}");
    let left: u64 = said.split(' ').next().unwrap().parse().unwrap();
    let (got, err) = run_master(&|c: &mut Command| {
        long_master(c)
            .args(["--no-store", "--jobs-file"])
            .arg(&file);
    });
    assert!(err.contains("resumed"), "{err}");
    let took = got["searches"][0]["counts"]["sent"].as_u64().unwrap();
    assert!(
        left <= 2 * took && took <= 2 * left,
        "estimated {left} jobs, took {took}"
    );
    // the JSON keeps the last estimate made
    assert!(
        got["searches"][0]["last_estimate"]["jobs_left"].is_u64(),
        "{got}"
    );
}

/// Workers that cannot start, a cluster that cannot be reached and stray
/// flags: one line, exit 2.
#[test]
fn bad_workers_and_clusters_are_one_line_errors() {
    let board = "....|....";
    let cases: [(&[&str], &str); 13] = [
        (&["--worker-command", "/no/such/program"], "cannot start"),
        (&["--worker-command", "true"], "ended before it was ready"),
        (&["--worker-command", "echo hello"], "ready line"),
        (
            &[
                "--cluster",
                "tcp://127.0.0.1:1",
                "--python",
                "/no/such/python",
            ],
            "--cluster",
        ),
        (&["--job-nodes", "5"], "--job-nodes goes with"),
        (&["--job-timeout", "5"], "--job-timeout goes with"),
        (
            &["--jobs", "1", "--job-timeout", "0"],
            "positive number of seconds",
        ),
        (&["--jobs", "1", "--job-timeout", "2"], "at least 5 seconds"),
        (
            &["--jobs", "1", "--job-timeout", "soon"],
            "not a number of seconds",
        ),
        (
            &["--jobs", "1", "--certificate", "/no/such/folder/c.txt"],
            "--certificate /no/such/folder/c.txt: cannot write there",
        ),
        (&["--jobs", "1", "--certificate", "/tmp"], "is a directory"),
        (
            &[
                "--jobs",
                "1",
                "--certificate",
                "c.txt",
                "--split-certificate",
            ],
            "cannot be used with",
        ),
        (
            &[
                "--jobs",
                "2",
                "--workers",
                "threads",
                "--cluster",
                "tcp://x:1",
            ],
            "give one of",
        ),
    ];
    for (extra, needle) in cases {
        let out = partizan()
            .args(["outcome", "domineering", board])
            .args(extra)
            .arg("--no-store")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(needle), "{extra:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{extra:?}: {err}");
    }
}

/// A worker process whose job outlasts `--job-timeout` keeps it while it
/// reports its nodes rising (its answer is taken, nothing timed out), and
/// loses it when it says nothing for that long (retired, the master
/// searches the job, the answer the same). The worker here is a real
/// `partizan job-worker` behind a wrapper that holds each job for 7 s
/// first, telling rising nodes every half second or nothing.
#[test]
fn a_worker_process_keeps_a_long_job_while_it_reports_progress() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_partizan");
    let py = dir.path().join("slow.py");
    std::fs::write(
        &py,
        format!(
            r#"import json, subprocess, sys, time
tell = sys.argv[1] == "tell"
w = subprocess.Popen([{bin:?}, "job-worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
print(w.stdout.readline(), end="", flush=True)
for line in sys.stdin:
    try:
        job = json.loads(line)["id"]
    except (ValueError, KeyError, TypeError):
        continue
    for k in range(14):
        time.sleep(0.5)
        if tell:
            print(json.dumps({{"progress": job, "nodes": k + 1}}), flush=True)
    w.stdin.write(line)
    w.stdin.flush()
    while True:
        out = w.stdout.readline()
        print(out, end="", flush=True)
        if not out or '"progress"' not in out:
            break
"#
        ),
    )
    .unwrap();
    let board = "....|....|....|....";
    let want = plain("domineering", board);
    for tell in [true, false] {
        let how = if tell { "tell" } else { "quiet" };
        let worker = format!("python3 {} {how}", py.display());
        let got = json(&[
            "--json",
            "outcome",
            "domineering",
            board,
            "--first",
            "left",
            "--worker-command",
            &worker,
            "--job-nodes",
            "1000000",
            "--job-timeout",
            "5",
            "--trust",
            "agreement",
        ]);
        let s = &got["searches"][0];
        assert_eq!(s["first_wins"], want == "N" || want == "L", "{how}: {got}");
        if tell {
            assert_eq!(s["counts"]["timeouts"], 0, "{got}");
            assert_eq!(s["workers"][0]["believed"], 1, "{got}");
            assert!(s["workers"][0]["retired"].is_null(), "{got}");
        } else {
            assert_eq!(s["counts"]["timeouts"], 1, "{got}");
            let why = s["workers"][0]["retired"].as_str().unwrap_or("");
            assert!(why.contains("no answer and no progress for 5s"), "{got}");
        }
    }
}

/// `partizan job-worker` says it is ready, answers each job line, and a
/// line that is no job with a failure; the same with its own table limit
/// (a job asking 1 GB gets 2 MB), and a limit of 0 is refused.
#[test]
fn job_worker_speaks_its_lines() {
    for limit in [None, Some("2")] {
        job_worker_lines(limit);
    }
    let out = partizan()
        .args(["job-worker", "--max-table-mb", "0"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--max-table-mb must be at least 1"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

fn job_worker_lines(limit: Option<&str>) {
    let mut cmd = partizan();
    cmd.arg("job-worker");
    if let Some(mb) = limit {
        cmd.args(["--max-table-mb", mb]);
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(
        stdin,
        r#"{{"id":4,"ruleset":"domineering","board":"...|...","mover":"L","max_nodes":100000,"table_bytes":1073741824}}"#
    )
    .unwrap();
    writeln!(stdin, "nonsense").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["ready"], true);
    assert_eq!(lines[1]["job"], 4);
    assert!(["win", "loss"].contains(&lines[1]["answer"].as_str().unwrap()));
    assert!(lines[1]["certificate"]
        .as_str()
        .unwrap()
        .starts_with("partizan"));
    assert_eq!(lines[2]["answer"], "failed");
}

/// Without --jobs-file the master's tree lives in the store: a second
/// master of the same search on the same store is refused (one line, exit
/// 2) while the first runs; the first, killed, is resumed from the store
/// by the same command, to the plain search's answer.
#[test]
fn the_store_keeps_the_tree_and_one_master_per_search() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store.redb");
    let board = LONG;
    let master = || {
        let mut c = partizan();
        c.arg("--store").arg(&store);
        long_master(&mut c);
        c
    };
    let mut first = master()
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // its lock, then its first checkpoint in the store (the store's
    // write-ahead log grows)
    let t0 = Instant::now();
    let lock = || {
        std::fs::read_dir(dir.path())
            .unwrap()
            .any(|e| e.unwrap().file_name().to_string_lossy().contains(".jobs-"))
    };
    while !lock() && t0.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(1500));
    let second = master().output().unwrap();
    // with --json the error is an object on standard output
    let err = String::from_utf8_lossy(&second.stdout).to_string();
    let running = first.try_wait().unwrap().is_none();
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(
        running,
        "the first master finished too soon: use a bigger board"
    );
    assert_eq!(second.status.code(), Some(2), "{err}");
    let e: serde_json::Value = serde_json::from_str(&err).unwrap();
    assert!(
        e["error"].as_str().unwrap().contains("another master"),
        "{err}"
    );
    let again = master().output().unwrap();
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success(), "{err}");
    assert!(
        err.contains("resumed") && err.contains("from the store"),
        "{err}"
    );
    let got: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert!(
        got["searches"][0]["counts"]["sent"].as_u64().unwrap() > 0,
        "{got}"
    );
    let whole = json(&["--json", "outcome", "domineering", board, "--first", "left"]);
    assert_eq!(got["searches"][0]["first_wins"], whole["left_first_wins"]);
    // decided and kept: asked again, no job at all
    let third = master().output().unwrap();
    let got: serde_json::Value = serde_json::from_slice(&third.stdout).unwrap();
    assert_eq!(got["searches"][0]["counts"]["sent"], 0, "{got}");
    assert_eq!(got["searches"][0]["first_wins"], whole["left_first_wins"]);
}

/// Every Domineering rectangle with sides 2 to 7, the Clobber
/// checkerboards to 4 x 5 and the Cram rectangles to 5 x 6: the job-level
/// search on two local worker processes (the root expanded by the master,
/// every child a job under the default budget) gives the plain search's
/// class. 18 s in a release build on this 2-core machine (`--nocapture`
/// prints each board's jobs and time).
#[test]
fn every_small_rectangle_agrees_with_the_plain_search() {
    for (ruleset, board) in small_boards(7, 49) {
        let t = Instant::now();
        let sent = agrees(ruleset, &board, &["--job-plies", "1"]);
        eprintln!(
            "{ruleset} {board}: {sent} jobs in {:.1} s",
            t.elapsed().as_secs_f64()
        );
    }
}

/// `--trust agreement`: decided jobs believed when two workers agree, no
/// certificate made or checked; a worker that flips every decided answer
/// (the real worker behind `sed`) is outvoted by the master's own search,
/// alone or beside an honest worker, and never changes the class.
#[test]
fn agreement_of_two_workers_and_a_flipping_worker() {
    let board = ".....|.....|.....|.....|.....";
    let want = plain("domineering", board);
    let trust = ["--trust", "agreement"];
    let budget = ["--job-nodes", "20000", "--job-plies", "2"];
    fn on<'a>(board: &'a str, workers: &[&'a str], trust: &[&'a str]) -> Vec<&'a str> {
        let mut a = vec!["outcome", "domineering", board];
        a.extend_from_slice(workers);
        a.extend_from_slice(trust);
        a
    }
    let agreed = json(
        &[
            &["--json"][..],
            &on(board, &["--jobs", "2"], &trust),
            &budget,
        ]
        .concat(),
    );
    assert_eq!(agreed["class"], want, "{agreed}");
    let searches = agreed["searches"].as_array().unwrap();
    for s in searches {
        assert_eq!(s["trust"], "agreement", "{s}");
        assert_eq!(s["counts"]["accepted"], 0, "{s}");
        assert_eq!(s["counts"]["lies"], serde_json::json!({}), "{s}");
        assert!(s["agreed_in_proof"].as_u64().is_some(), "{s}");
    }
    let agreed_total: u64 = searches
        .iter()
        .map(|s| s["counts"]["agreed"].as_u64().unwrap())
        .sum();
    assert!(agreed_total > 0, "{agreed}");
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_partizan");
    let flips = script(
        dir.path(),
        "flips.sh",
        &format!(
            "{bin} job-worker | sed -u -e 's/\"answer\":\"win\"/\"answer\":\"W\"/' \
             -e 's/\"answer\":\"loss\"/\"answer\":\"win\"/' -e 's/\"answer\":\"W\"/\"answer\":\"loss\"/'"
        ),
    );
    let honest = format!("{bin} job-worker");
    for workers in [
        vec!["--worker-command", &flips],
        vec!["--worker-command", &flips, "--worker-command", &honest],
    ] {
        let got = json(&[&["--json"][..], &on(board, &workers, &trust), &budget].concat());
        assert_eq!(got["class"], want, "{workers:?}: {got}");
        let outvoted: u64 = got["searches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["counts"]["lies"]["outvoted"].as_u64().unwrap_or(0))
            .sum();
        assert!(outvoted >= 1, "{workers:?}: {got}");
        for s in got["searches"].as_array().unwrap() {
            if workers.len() == 4 {
                assert_eq!(s["workers"][1]["strikes"], 0, "{s}");
            }
        }
    }
    // With a whole certificate, or without a job-level search: refused.
    let cert = dir.path().join("w.cert");
    let cert_args = ["--jobs", "2", "--certificate", cert.to_str().unwrap()];
    for args in [on(board, &cert_args, &trust), on(board, &[], &trust)] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(
            err.contains("--trust") || err.contains("agreement"),
            "{err}"
        );
    }
    assert!(!cert.exists());
}

/// While a long job is out, the progress lines count the nodes its
/// `partizan job-worker` process tells as it searches: before any job has
/// answered, the rate across workers is already above zero. A worker that
/// adds progress lines of its own (for a job that is not out, or counts
/// out of thin air) changes nothing but the display: no failure, no
/// strike, the plain search's answer.
#[test]
fn progress_lines_count_the_nodes_of_jobs_still_out() {
    use std::io::BufRead;
    let board = ["........."; 9].join("|");
    let mut child = partizan()
        .args([
            "outcome",
            "domineering",
            &board,
            "--no-store",
            "--first",
            "left",
        ])
        .args([
            "--jobs",
            "1",
            "--job-plies",
            "1",
            "--job-nodes",
            "1000000000",
        ])
        .args(["--progress=1", "--max-seconds", "8"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut seen = Vec::new();
    let mut counted = None;
    for line in std::io::BufReader::new(child.stderr.take().unwrap()).lines() {
        let line = line.unwrap();
        let rate = line
            .split(" worker nodes/s")
            .next()
            .and_then(|head| head.rsplit(' ').next())
            .and_then(|n| n.parse::<f64>().ok());
        if line.contains("(0 proved, 0 disproved, 0 unresolved), 1 out") && rate > Some(0.0) {
            counted = Some(line.clone());
            let pid = child.id().to_string();
            Command::new("kill").args(["-TERM", &pid]).status().unwrap();
            break;
        }
        seen.push(line);
    }
    let _ = child.wait();
    assert!(counted.is_some(), "no line counted the job out: {seen:?}");

    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_partizan");
    let chatty = script(
        dir.path(),
        "chatty.sh",
        &format!(
            "{bin} job-worker | sed -u -e 's/^{{\"job\"/{{\"progress\":999999,\"nodes\":5}}\\n\
             {{\"progress\":0,\"nodes\":18446744073709551615}}\\n{{\"job\"/'"
        ),
    );
    let small = ".....|.....|.....|.....|.....";
    let got = json(&[
        "--json",
        "outcome",
        "domineering",
        small,
        "--worker-command",
        &chatty,
        "--job-nodes",
        "20000",
        "--job-plies",
        "2",
    ]);
    assert_eq!(got["class"], plain("domineering", small), "{got}");
    for s in got["searches"].as_array().unwrap() {
        assert_eq!(s["counts"]["failures"], 0, "{s}");
        assert_eq!(s["workers"][0]["strikes"], 0, "{s}");
        assert!(s["counts"]["sent"].as_u64().unwrap() > 1, "{s}");
    }
}
