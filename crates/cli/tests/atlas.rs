//! `partizan atlas` end to end: build into a directory, resume, report as
//! text, JSON and CSV, find by value, kind and temperature, shards, and bad
//! input.

use std::process::Output;

use crate::support;

/// The binary with its atlas and store in `dir`.
fn run(dir: &std::path::Path, args: &[&str]) -> Output {
    support::output(
        support::partizan()
            .args(args)
            .env("PARTIZAN_ATLAS", dir)
            .env("PARTIZAN_STORE", dir.join("store.redb")),
    )
}

fn json(dir: &std::path::Path, args: &[&str]) -> serde_json::Value {
    support::json_of(args, &run(dir, args))
}

/// A fresh directory under the system temp dir, removed when dropped (the
/// cli crate has no tempfile dependency).
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("partizan-atlas-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
    fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn fails(dir: &std::path::Path, args: &[&str], needle: &str) {
    support::assert_fails(args, &run(dir, args), needle);
}

#[test]
fn build_report_find() {
    let dir = TempDir::new("build");
    let d = dir.path();
    let b = json(d, &["atlas", "build", "--max-cells", "10", "--json"]);
    assert_eq!(b["levels"].as_array().unwrap().len(), 10);
    assert_eq!(b["levels"][7]["classes"], 369);
    // a second build loads everything
    let again = json(d, &["atlas", "build", "--max-cells", "10", "--json"]);
    assert!(again["levels"]
        .as_array()
        .unwrap()
        .iter()
        .all(|l| l["loaded"] == true));

    let csv = d.join("kinds.csv");
    let r = json(
        d,
        &["atlas", "report", "--json", "--csv", csv.to_str().unwrap()],
    );
    let regions: u64 = (1..=8)
        .map(|n| r["by_size"][n.to_string()]["regions"].as_u64().unwrap())
        .sum();
    assert_eq!(regions, 1042, "the census's regions to eight cells");
    assert_eq!(r["hotter_than_two"]["10"], false);
    assert_eq!(r["largest_nimber"]["value"], "*");
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.starts_with("cells,family,detail,regions\n"));
    assert!(text.contains("\n4,switch,,1\n"), "{text}");

    let f = json(
        d,
        &[
            "atlas",
            "find",
            "--value",
            "*",
            "--max-cells",
            "5",
            "--json",
        ],
    );
    // * on 3 cells (the L), and on 4 and 5 cells: from the report
    let want: u64 = (1..=5)
        .map(|n| {
            r["by_size"][n.to_string()]["nimbers"]["1"]
                .as_u64()
                .unwrap_or(0)
        })
        .sum();
    assert_eq!(f["total"].as_u64().unwrap(), want);
    assert!(f["regions"]
        .as_array()
        .unwrap()
        .iter()
        .all(|x| x["value"] == "*"));
    let hot = json(
        d,
        &[
            "atlas",
            "find",
            "--min-temperature",
            "3/2",
            "--json",
            "--limit",
            "3",
        ],
    );
    assert!(hot["total"].as_u64().unwrap() > 0);
    assert!(hot["regions"].as_array().unwrap().len() <= 3);
    let tiny = json(d, &["atlas", "find", "--kind", "tiny", "--json"]);
    assert_eq!(tiny["regions"][0]["board"], "..|..|..|..");
    let out = run(d, &["atlas", "find", "--value", "{1|-1}"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("±1"));

    // from the index; without it from the summaries, with a note; `atlas
    // index` writes it again, the same bytes
    let q = ["atlas", "find", "--value", "^", "--limit", "50", "--json"];
    let fast = json(d, &q);
    assert_eq!(fast["source"], "index");
    let idx = d.join("level-09.index.pzal");
    let bytes = std::fs::read(&idx).unwrap();
    std::fs::remove_file(&idx).unwrap();
    let out = run(d, &q);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("index not used") && err.contains("level-09.index.pzal is missing"),
        "{err}"
    );
    let slow: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_ne!(slow["source"], "index");
    assert_eq!(
        (&slow["total"], &slow["regions"]),
        (&fast["total"], &fast["regions"])
    );
    let ix = json(d, &["atlas", "index", "--json"]);
    assert_eq!(ix["written"], serde_json::json!([9]));
    assert_eq!(std::fs::read(&idx).unwrap(), bytes);
    assert_eq!(json(d, &q)["source"], "index");
    fails(d, &["atlas", "index", "--max-cells", "12"], "build");

    fails(d, &["atlas", "find", "--kind", "warm"], "unknown kind");
    fails(d, &["atlas", "find", "--value", "{1|"], "value");
    fails(d, &["atlas", "find"], "--value");
    fails(
        d,
        &["atlas", "find", "--value", "*", "--max-cells", "12"],
        "build",
    );
    fails(d, &["atlas", "build", "--max-cells", "22"], "21");
    fails(
        d,
        &["atlas", "build", "--max-cells", "9", "--shard", "2/2"],
        "shard",
    );
}

#[test]
fn shards_then_merge() {
    let dir = TempDir::new("shards");
    let d = dir.path();
    for k in ["0/2", "1/2"] {
        json(
            d,
            &["atlas", "build", "--max-cells", "9", "--shard", k, "--json"],
        );
    }
    let m = json(
        d,
        &["atlas", "merge", "--cells", "9", "--shards", "2", "--json"],
    );
    assert_eq!(m["classes"], 1285);
    // 64 classes of each of the 2 shards valued again by the board engine
    assert_eq!(m["verified"], 128);
    let r = json(d, &["atlas", "report", "--json"]);
    assert_eq!(r["max_cells"], 9);
    fails(
        d,
        &["atlas", "merge", "--cells", "9", "--shards", "3"],
        "missing",
    );
    // all shards in one run, merged by streaming: the same level
    let turn = TempDir::new("shards-in-turn");
    let t = turn.path();
    let b = json(
        t,
        &[
            "atlas",
            "build",
            "--max-cells",
            "9",
            "--shards",
            "3",
            "--json",
        ],
    );
    assert_eq!(b["levels"][8]["classes"], 1285);
    for f in ["level-09.pzal", "level-09.summary.pzal"] {
        assert_eq!(
            std::fs::read(d.join(f)).unwrap(),
            std::fs::read(t.join(f)).unwrap(),
            "{f}"
        );
    }
    fails(
        t,
        &["atlas", "build", "--max-cells", "9", "--shards", "0"],
        "shard",
    );
    fails(
        t,
        &[
            "atlas",
            "build",
            "--max-cells",
            "9",
            "--shards",
            "2",
            "--shard",
            "0/2",
        ],
        "--shard",
    );
}

#[test]
fn census_prints_the_atlas_report_beside_the_readings() {
    // an empty atlas directory: the census computes the atlas itself
    let dir = TempDir::new("census");
    let d = dir.path();
    let csv = d.join("atlas.csv");
    let v = json(
        d,
        &[
            "census",
            "domineering",
            "--max-cells",
            "8",
            "--json",
            "--atlas-csv",
            csv.to_str().unwrap(),
        ],
    );
    assert_eq!(v["totals"]["shapes"], 1042, "the packing readings stay");
    let a = &v["atlas"];
    assert_eq!(a["source"], "computed");
    let regions: u64 = (1..=8)
        .map(|n| a["by_size"][n.to_string()]["regions"].as_u64().unwrap())
        .sum();
    assert_eq!(regions, 1042);
    // the census's own count of number-valued shapes, from the atlas's kinds
    let numbers: u64 = (1..=8)
        .map(|n| {
            let t = &a["by_size"][n.to_string()];
            t["integers"].as_u64().unwrap()
                + t["fractions"]
                    .as_object()
                    .unwrap()
                    .values()
                    .map(|x| x.as_u64().unwrap())
                    .sum::<u64>()
        })
        .sum();
    assert_eq!(numbers, v["totals"]["numbers"].as_u64().unwrap());
    assert_eq!(a["hotter_than_two"]["8"], false);
    assert!(std::fs::read_to_string(&csv)
        .unwrap()
        .starts_with("cells,family,detail,regions\n"));
    // text: both reports; from a built atlas directory, read not recomputed
    json(d, &["atlas", "build", "--max-cells", "8", "--json"]);
    let out = run(d, &["census", "domineering", "--max-cells", "6"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("(value atlas: {})", d.display())),
        "{text}"
    );
    assert!(
        text.contains("is any single region hotter than 2?"),
        "{text}"
    );
    assert!(text.contains("first occurrences:"), "{text}");
}

/// A sharded build's progress lines say which shard it is on, and the last
/// one says the shards were merged.
#[test]
fn sharded_build_progress_names_the_shard() {
    let dir = TempDir::new("shard-progress");
    let d = dir.path();
    let out = run(
        d,
        &[
            "--progress=0.01",
            "atlas",
            "build",
            "--max-cells",
            "11",
            "--shards",
            "3",
            "--threads",
            "1",
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let on_shard: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("level 11, shard ") && l.contains(" of 3"))
        .collect();
    assert!(!on_shard.is_empty(), "no line names a shard: {err}");
    let last = err.lines().last().unwrap_or_default();
    assert!(
        last.contains(": done, level 11, merging 3 shards  11/11 levels"),
        "{last}"
    );
}

/// A level file deleted below the top one is refused by every reader,
/// naming the file, instead of answering as a smaller atlas; a build puts
/// it back.
#[test]
fn a_deleted_level_is_named_not_skipped() {
    let d = TempDir::new("gap");
    let dir = d.path();
    json(dir, &["atlas", "build", "--max-cells", "6", "--json"]);
    std::fs::remove_file(dir.join("level-03.pzal")).unwrap();
    for args in [
        &["atlas", "report"][..],
        &["atlas", "find", "--value", "0"],
        &["census", "domineering", "--max-cells", "4"],
    ] {
        fails(dir, args, "level-03.pzal is missing");
    }
    json(dir, &["atlas", "build", "--max-cells", "6", "--json"]);
    json(dir, &["atlas", "report", "--json"]);
}

/// `atlas build --cluster`: a scheduler that cannot be reached (or, with
/// the Python here, a package that is not installed), a Python that is not
/// there, and flags that make no sense with a cluster are one line and
/// exit code 2, and nothing is built in the directory. (The build itself
/// on a local Dask cluster is crates/py/tests/test_atlas_cluster.py's.)
#[test]
fn cluster_builds_refuse_what_they_cannot_do() {
    let dir = TempDir::new("cluster");
    let d = dir.path();
    let base = [
        "atlas",
        "build",
        "--max-cells",
        "6",
        "--shards",
        "2",
        "--cluster",
        "tcp://127.0.0.1:1",
    ];
    fails(
        d,
        &[&base[..], &["--python", "/no/such/python"]].concat(),
        "--cluster tcp://127.0.0.1:1: cannot start /no/such/python",
    );
    // whichever python3 this is: without the package, without `distributed`,
    // or with both and no scheduler at that address
    let started = std::time::Instant::now();
    fails(d, &base, "--cluster tcp://127.0.0.1:1: ");
    assert!(started.elapsed().as_secs() < 120, "{:?}", started.elapsed());
    // flags that make no sense with a cluster, or without one
    let refused: [(&str, &str); 5] = [
        ("--max-cells 6 --cluster tcp://h:1", "--shards"),
        (
            "--max-cells 6 --cluster tcp://h:1 --shard 0/2",
            "'--cluster <ADDRESS>' cannot be used with '--shard <K/N>'",
        ),
        ("--max-cells 6 --python python3", "--cluster"),
        ("--max-cells 6 --shards 0 --cluster tcp://h:1", "--shards 0"),
        ("--max-cells 22 --shards 2 --cluster tcp://h:1", "1 to 21"),
    ];
    for (flags, needle) in refused {
        let args: Vec<&str> = ["atlas", "build"]
            .into_iter()
            .chain(flags.split(' '))
            .collect();
        fails(d, &args, needle);
    }
    let levels: Vec<_> = std::fs::read_dir(d)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().to_string();
            name.starts_with("level-").then_some(name)
        })
        .collect();
    assert!(levels.is_empty(), "{levels:?}");
}

/// A directory built with another user's key is not believed until `atlas
/// seal` has checked it; a level edited with its checksum computed again
/// is refused even then, and adoption refuses it too.
#[test]
fn another_users_atlas_is_checked_and_sealed_before_it_is_believed() {
    let dir = TempDir::new("seal");
    let d = dir.path();
    let with_key = |key: &str, args: &[&str]| {
        support::output(
            support::partizan()
                .args(args)
                .env("PARTIZAN_ATLAS", d.join("atlas"))
                .env("PARTIZAN_STORE", d.join("store.redb"))
                .env("PARTIZAN_KEY", d.join(key)),
        )
    };
    let built = with_key(
        "theirs.key",
        &["atlas", "build", "--max-cells", "8", "--json"],
    );
    assert!(built.status.success());
    let find = [
        "atlas",
        "find",
        "--value",
        "^",
        "--max-cells",
        "8",
        "--json",
    ];
    let theirs = support::json_of(&find, &with_key("theirs.key", &find));
    // another key: the levels are not believed, in one line, exit 2
    let mine = with_key("mine.key", &find);
    support::assert_fails(&find, &mine, "not believed");
    let seal = ["atlas", "seal", "--verify", "5", "--json"];
    let sealed = support::json_of(&seal, &with_key("mine.key", &seal));
    assert_eq!(
        sealed["sealed"],
        serde_json::json!([1, 2, 3, 4, 5, 6, 7, 8])
    );
    // five classes of each size (fewer where a size has fewer)
    assert_eq!(sealed["verified"], 1 + 1 + 2 + 5 * 5);
    assert_eq!(
        support::json_of(&find, &with_key("mine.key", &find))["total"],
        theirs["total"]
    );
    // sealing again checks nothing again
    let again = support::json_of(&seal, &with_key("mine.key", &seal));
    assert_eq!(again["sealed"], serde_json::json!([]));
    // a level forged (a value index moved, the checksum computed again):
    // refused under the seal, and its adoption refused by the checks
    let path = d.join("atlas").join("level-08.pzal");
    let mut b = std::fs::read(&path).unwrap();
    let n = b.len();
    let at = n - 8 - 4;
    b[at] = b[at].wrapping_add(1);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &x in &b[..n - 8] {
        h ^= u64::from(x);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    b[n - 8..].copy_from_slice(&h.to_le_bytes());
    std::fs::write(&path, &b).unwrap();
    let stats = ["atlas", "report", "--max-cells", "8", "--json"];
    support::assert_fails(
        &stats,
        &with_key("mine.key", &stats),
        "changed since it was sealed",
    );
    std::fs::remove_file(d.join("atlas").join("level-08.pzal.seal")).unwrap();
    // every class sampled, so the moved value is found whatever it became
    let all = ["atlas", "seal", "--verify", "1000", "--json"];
    support::assert_fails(&all, &with_key("mine.key", &all), "level-08");
    assert!(!d.join("atlas").join("level-08.pzal.seal").exists());
}

/// A process that can keep no key file (no home, no `PARTIZAN_KEY`) says
/// so when it refuses a level, refuses to seal (its seals would be
/// refused by every later process), and warns when it builds.
#[test]
fn a_process_without_a_key_file_says_so_and_seals_nothing() {
    let dir = TempDir::new("keyless");
    let d = dir.path();
    let run = |key: Option<&str>, args: &[&str]| {
        let mut cmd = support::partizan();
        cmd.args(args)
            .env("PARTIZAN_ATLAS", d.join("atlas"))
            .env("PARTIZAN_STORE", d.join("store.redb"))
            .env_remove("HOME")
            .env_remove("XDG_DATA_HOME")
            .env_remove("APPDATA")
            .env_remove("PARTIZAN_KEY");
        if let Some(k) = key {
            cmd.env("PARTIZAN_KEY", d.join(k));
        }
        support::output(&mut cmd)
    };
    let build = ["atlas", "build", "--max-cells", "5", "--json"];
    let built = run(Some("mine.key"), &build);
    assert!(built.status.success());
    assert!(!String::from_utf8_lossy(&built.stderr).contains("warning"));
    let find = ["atlas", "find", "--value", "*", "--max-cells", "5"];
    let keyless = run(None, &find);
    support::assert_fails(&find, &keyless, "set PARTIZAN_KEY");
    // the advice is the key file first, not a seal that would be refused
    let said = String::from_utf8_lossy(&keyless.stderr);
    assert!(
        said.trim_end()
            .ends_with("then `partizan atlas seal` checks it and seals it"),
        "{said}"
    );
    assert_eq!(said.matches("no key file").count(), 1, "{said}");
    let seals = |name: &str| std::fs::read(d.join("atlas").join(name)).unwrap();
    let before = seals("level-05.pzal.seal");
    let seal = ["atlas", "seal", "--verify", "2"];
    let refused = run(None, &seal);
    support::assert_fails(&seal, &refused, "cannot seal");
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no key file"));
    assert_eq!(seals("level-05.pzal.seal"), before);
    // the directory still answers with the key that sealed it
    let found = run(Some("mine.key"), &find);
    assert!(found.status.success());
    // a keyless build warns, once, naming the way out
    let other = ["atlas", "build", "--max-cells", "3", "--dir"];
    let mut args = other.to_vec();
    let fresh = d.join("fresh");
    let fresh = fresh.to_str().unwrap();
    args.push(fresh);
    let out = run(None, &args);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("warning:").count(), 1, "{err}");
    assert!(err.contains("atlas seal"), "{err}");
}
