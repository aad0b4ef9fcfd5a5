//! The store under abuse, through the `partizan` binary: damaged files
//! (a bit flipped in every page, truncations), a poisoned import and a
//! writer killed mid-run. The one rule: **no wrong answer is ever printed
//! with exit 0**. Read-only commands (`store stats`, `export`, `verify`)
//! must also leave a damaged file byte for byte as it was, and never panic.

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// A fresh directory, removed on drop (the CLI crate has no `tempfile`).
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new() -> TempDir {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let p = std::env::temp_dir().join(format!(
            "partizan-store-faults-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

const BOARDS: &[(&str, &str)] = &[
    ("domineering", "#..|..#|#.#|#.#|..#"),
    ("domineering", "....|....|...."),
    ("domineering", "...|...|..."),
    ("domineering", ".....|....#"),
    ("cram", "....|....|.#.."),
];

fn partizan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_partizan"))
        .args(args)
        .env_remove("PARTIZAN_STORE")
        .stdin(Stdio::null())
        .output()
        .expect("run partizan")
}

fn value(store: &Path, ruleset: &str, board: &str) -> Output {
    partizan(&["--store", store.to_str().unwrap(), "value", ruleset, board])
}

fn truth() -> Vec<String> {
    BOARDS
        .iter()
        .map(|(r, b)| {
            let o = partizan(&["--no-store", "value", r, b]);
            assert!(o.status.success());
            String::from_utf8(o.stdout).unwrap()
        })
        .collect()
}

fn build_store(path: &Path) {
    for (r, b) in BOARDS {
        assert!(value(path, r, b).status.success());
    }
}

/// Exit 0 means the true value; anything else is a clean exit 2 with a
/// one-line message, never a panic (101).
fn check_values(store: &Path, truth: &[String], what: &str) -> (u32, u32) {
    let (mut ok, mut refused) = (0, 0);
    for ((r, b), want) in BOARDS.iter().zip(truth) {
        let o = value(store, r, b);
        let err = String::from_utf8_lossy(&o.stderr);
        match o.status.code() {
            Some(0) => {
                assert_eq!(
                    &String::from_utf8_lossy(&o.stdout),
                    want,
                    "{what}: WRONG ANSWER with exit 0 for {r} {b} (stderr: {err})"
                );
                ok += 1;
            }
            Some(2) => {
                assert!(err.starts_with("error: "), "{what}: {err}");
                refused += 1;
            }
            c => panic!("{what}: exit {c:?} for {r} {b}: {err}"),
        }
    }
    (ok, refused)
}

fn check_read_only_commands(store: &Path, what: &str) {
    let before = fs::read(store).unwrap();
    let s = store.to_str().unwrap();
    for cmd in [
        &["--store", s, "store", "stats"][..],
        &["--store", s, "store", "stats", "--json"],
        &["--store", s, "store", "export"],
        &["--store", s, "store", "verify"],
    ] {
        let o = partizan(cmd);
        let code = o.status.code();
        // 7: an export written without its damaged rows (a partial export)
        let partial = cmd[3] == "export" && code == Some(7);
        assert!(
            matches!(code, Some(0) | Some(2)) || partial,
            "{what}: {cmd:?} exit {code:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    assert!(
        fs::read(store).unwrap() == before,
        "{what}: a read-only command changed the store file"
    );
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn damaged_stores_never_print_a_wrong_value_with_exit_0() {
    let dir = TempDir::new();
    let good = dir.path().join("good.redb");
    build_store(&good);
    let truth = truth();
    assert_eq!(truth[0], "±1/2\n");
    let bytes = fs::read(&good).unwrap();
    let page = 4096;
    let pages = bytes.len() / page;
    let mut rng = Rng(99);
    let (mut ok, mut refused, mut cases) = (0, 0, 0);
    let mut damaged: Vec<(String, Vec<u8>)> = Vec::new();
    for p in 0..pages {
        for _ in 0..3 {
            let bit = rng.next() as usize % (page * 8);
            let mut b = bytes.clone();
            b[p * page + bit / 8] ^= 1 << (bit % 8);
            damaged.push((format!("page {p} bit {bit}"), b));
        }
    }
    for cut in [100, page, bytes.len() / 2, bytes.len() - page] {
        damaged.push((format!("cut at {cut}"), bytes[..cut].to_vec()));
    }
    for (i, (what, b)) in damaged.iter().enumerate() {
        let path = dir.path().join(format!("bad{i}.redb"));
        fs::write(&path, b).unwrap();
        check_read_only_commands(&path, what);
        let (o, r) = check_values(&path, &truth, what);
        ok += o;
        refused += r;
        cases += 1;
    }
    eprintln!("{cases} damaged stores: {ok} right answers, {refused} clean refusals, 0 wrong");
    assert!(ok > refused);
}

#[test]
fn a_poisoned_import_is_refused_and_never_answers() {
    let dir = TempDir::new();
    let store = dir.path().join("s.redb");
    build_store(&store);
    // `...|...` (2 rows of 3) is a small region: the import recomputes it.
    let board = "...|...";
    // Its key: version 1, width 3, height 2, layer 0 = six cells (0x3f),
    // layers 1 and 2 empty.
    let key = "0103023f0000";
    // -7 in core's encoding: zigzag(-7) = 13.
    let poison = format!(
        "{{\"kind\":\"header\",\"format\":\"partizan-store\",\"version\":2}}\n{{\"kind\":\"region\",\"ruleset\":\"domineering\",\"key\":\"{key}\",\"computed_at\":1,\"version\":\"x\",\"encoding\":\"505a470101000d00\"}}\n"
    );
    let fresh = dir.path().join("fresh.redb");
    let file = dir.path().join("poison.jsonl");
    fs::write(&file, poison).unwrap();
    let o = partizan(&[
        "--store",
        fresh.to_str().unwrap(),
        "store",
        "import",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("line 2") && err.contains("not the -7"),
        "{err}"
    );
    let o = value(&fresh, "domineering", board);
    assert!(o.status.success());
    assert_ne!(String::from_utf8_lossy(&o.stdout), "-7\n");
    let o = partizan(&["--no-store", "value", "domineering", board]);
    assert_eq!(value(&fresh, "domineering", board).stdout, o.stdout);
    // A stream without end is refused by its line, not read forever.
    let o = partizan(&[
        "--store",
        fresh.to_str().unwrap(),
        "store",
        "import",
        "/dev/zero",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 1"));
}

#[test]
fn a_writer_killed_mid_run_leaves_only_right_answers() {
    let dir = TempDir::new();
    let store = dir.path().join("s.redb");
    build_store(&store);
    let truth = truth();
    for ms in [150u64, 400, 900] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_partizan"))
            .args([
                "--store",
                store.to_str().unwrap(),
                "value",
                "domineering",
                "......|......|......|......|......",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(ms));
        let _ = child.kill();
        let _ = child.wait();
        let (ok, refused) = check_values(&store, &truth, &format!("killed after {ms} ms"));
        assert_eq!((ok, refused), (BOARDS.len() as u32, 0));
    }
    let o = partizan(&["--store", store.to_str().unwrap(), "store", "verify"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn export_out_replaces_only_regular_files() {
    let dir = TempDir::new();
    let store = dir.path().join("s.redb");
    build_store(&store);
    let s = store.to_str().unwrap();
    let sub = dir.path().join("sub");
    fs::create_dir(&sub).unwrap();
    let target = dir.path().join("target.txt");
    fs::write(&target, "keep me").unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    for (out, needle) in [
        (format!("{}/", sub.display()), "directory"),
        (sub.display().to_string(), "directory"),
        (link.display().to_string(), "symbolic link"),
        ("/dev/null".to_string(), "not a regular file"),
    ] {
        let o = partizan(&["--store", s, "store", "export", "--out", &out]);
        assert_eq!(o.status.code(), Some(2), "{out}");
        assert!(String::from_utf8_lossy(&o.stderr).contains(needle), "{out}");
    }
    assert_eq!(fs::read_to_string(&target).unwrap(), "keep me");
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let stray: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .chain(fs::read_dir(&sub).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("partial"))
        .collect();
    assert!(stray.is_empty(), "{stray:?}");
    // A regular file is replaced atomically.
    let o = partizan(&[
        "--store",
        s,
        "store",
        "export",
        "--out",
        target.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert!(fs::read_to_string(&target)
        .unwrap()
        .starts_with("{\"kind\":\"header\""));
}

#[test]
fn a_mistyped_store_path_creates_no_directories() {
    let dir = TempDir::new();
    let bad = dir.path().join("no").join("such").join("s.redb");
    let o = value(&bad, "domineering", "..");
    assert_eq!(o.status.code(), Some(2));
    assert!(!dir.path().join("no").exists());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.matches("does not exist").count(), 1, "{err}");
}

/// An export that leaves damaged rows out says so: exit code 3 (not 0, which
/// means every row is in it), one line on stderr naming how many, and the
/// good rows still written.
#[test]
fn an_export_without_its_damaged_rows_exits_3() {
    let dir = TempDir::new();
    let store = dir.path().join("s.redb");
    build_store(&store);
    let s = store.to_str().unwrap();
    let whole = partizan(&["--store", s, "store", "export"]);
    assert_eq!(whole.status.code(), Some(0));
    let lines = String::from_utf8_lossy(&whole.stdout).lines().count();
    // damage one row behind the store's back: one byte of its record
    let damaged = {
        let c = rusqlite::Connection::open(&store).unwrap();
        let (r, k, mut rec): (String, Vec<u8>, Vec<u8>) = c
            .query_row(
                "SELECT ruleset, key, record FROM regions LIMIT 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        let at = rec.len() / 2;
        rec[at] ^= 0x10;
        c.execute(
            "UPDATE regions SET record = ?3 WHERE ruleset = ?1 AND key = ?2",
            rusqlite::params![r, k, rec],
        )
        .unwrap()
    };
    assert_eq!(damaged, 1);
    let out = dir.path().join("out.jsonl");
    for args in [
        vec!["--store", s, "store", "export"],
        vec![
            "--store",
            s,
            "store",
            "export",
            "--out",
            out.to_str().unwrap(),
        ],
    ] {
        let o = partizan(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(7), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains("partial export: 1 damaged records"), "{err}");
    }
    let o = partizan(&["--store", s, "store", "export"]);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).lines().count(),
        lines - 1
    );
    let written = fs::read_to_string(&out).unwrap();
    assert_eq!(written.lines().count(), lines - 1);
}
