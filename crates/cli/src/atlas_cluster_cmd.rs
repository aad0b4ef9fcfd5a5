//! `partizan atlas build --cluster ADDRESS`: the atlas built on a Dask
//! distributed cluster by the Python package (`python3 -m
//! partizan.atlas_cluster ADDRESS ...`: the sizes below in one task, the
//! top size in shard tasks, one merge), its progress relayed here; then
//! every level is read back from the directory and checked the way a
//! local build checks the levels it finds there, so nothing the cluster
//! wrote is believed unread.
//!
//! ```text
//! partizan atlas build --max-cells 18 --shards 40 --cluster tcp://HOST:8786 --dir /shared/atlas
//! ```

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use partizan_census::atlas::{check_atlas_cells, AtlasConfig, MAX_SHARDS, MAX_THREADS};
use partizan_census::DirStore;
use serde_json::{json, Value};

use crate::atlas_cmd::{atlas_dir, build_watched, level_table, BuildArgs};
use crate::meter::WatchCounter;
use partizan_jobs::wire::read_line_bounded;

/// The Python module that runs the build on the cluster.
const MODULE: &str = "partizan.atlas_cluster";

/// The longest line read from the module's output (its report lists every
/// shard; 64 MB is hundreds of thousands of them): a longer one is an
/// error, not memory without bound.
const MAX_MODULE_LINE: usize = 64 << 20;

/// The pieces its standard error is read in (see [`last_line`]).
const STDERR_PIECE: usize = 64 << 10;

/// Run `partizan atlas build --cluster ADDRESS`.
pub fn build(a: &BuildArgs, long: &crate::Long, json_out: bool) -> Result<()> {
    let address = a.cluster.as_deref().context("--cluster: no address")?;
    check_atlas_cells(a.max_cells)?;
    // clap asks for --shards with --cluster
    let shards = a.shards.context("--cluster needs --shards N")?;
    if !(1..=MAX_SHARDS).contains(&shards) {
        bail!("--shards {shards}: want 1 to {MAX_SHARDS} shards");
    }
    // threads of each shard task (the cluster's workers should have as many)
    let task_threads = a.threads.unwrap_or(1);
    if !(1..=MAX_THREADS).contains(&task_threads) {
        bail!("--threads {task_threads}: want 1 to {MAX_THREADS}");
    }
    let path = atlas_dir(&a.dir)?;
    std::fs::create_dir_all(&path)
        .with_context(|| format!("atlas directory {}", path.display()))?;
    // the workers are told an absolute path: their working directory is not ours
    let path = path
        .canonicalize()
        .with_context(|| format!("atlas directory {}", path.display()))?;
    let python = crate::jobs_cmd::python_command(a.python.as_deref());
    let args: Vec<String> = vec![
        "-m".into(),
        MODULE.into(),
        address.into(),
        "--max-cells".into(),
        a.max_cells.to_string(),
        "--shards".into(),
        shards.to_string(),
        "--dir".into(),
        path.display().to_string(),
        "--threads".into(),
        task_threads.to_string(),
    ];
    let t0 = Instant::now();
    let watch = long.watch(
        format!(
            "atlas build to {} cells on the Dask cluster at {address} (levels in {})",
            a.max_cells,
            path.display()
        ),
        "shards",
        Some(shards as u64),
    );
    let report = run_module(&python, &args, &watch.counter());
    drop(watch);
    let report = report.map_err(|e| anyhow!("--cluster {address}: {e}"))?;

    // Every level the cluster wrote, read back by the usual readers: the
    // levels below checked against the catalogue as they load, the top
    // one slice by slice. A level missing would be computed here instead,
    // so it is an error first.
    let present = DirStore::new(&path).levels_present()?;
    if present < a.max_cells {
        bail!(
            "--cluster {address}: the cluster's build ended without level {} in {}",
            present + 1,
            path.display()
        );
    }
    let mut cfg = AtlasConfig::new(a.max_cells);
    cfg.shards = Some(shards);
    cfg.keep_entries = false;
    let watch = long.watch(
        format!("reading back the levels in {}", path.display()),
        "levels",
        Some(a.max_cells as u64),
    );
    let atlas = build_watched(&cfg, &path, watch)
        .with_context(|| format!("--cluster {address}: reading back what the cluster wrote"))?;
    if let Some(s) = atlas.stats.iter().find(|s| !s.loaded) {
        // levels_present said every file is there: a level that was not
        // loaded is a reader's refusal turned into a rebuild
        bail!(
            "--cluster {address}: level {} in {} was not read back",
            s.cells,
            path.display()
        );
    }
    let secs = t0.elapsed().as_secs_f64();
    let built = built_on_cluster(&report, a.max_cells);
    if json_out {
        println!(
            "{}",
            json!({ "dir": path.display().to_string(), "seconds": secs,
                    "threads": cfg.threads, "levels": atlas.stats,
                    "cluster": { "address": address, "task_threads": task_threads,
                                 "built": built, "report": report } })
        );
    } else {
        print!(
            "{}",
            level_table(&atlas.stats, |s| if built.contains(&s.cells) {
                "cluster"
            } else {
                "loaded"
            })
        );
        println!("{}", cluster_line(address, &report, shards));
        println!(
            "atlas in {} ({secs:.2} s; every level read back and checked here)",
            path.display()
        );
    }
    Ok(())
}

/// The sizes the cluster computed in this run, by its report: the levels
/// its below task did not find, and the top one if it merged it.
fn built_on_cluster(report: &Value, max_cells: usize) -> BTreeSet<usize> {
    let mut built: BTreeSet<usize> = report["below"]["levels"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|l| l["loaded"] == false)
        .filter_map(|l| l["cells"].as_u64())
        .filter_map(|c| usize::try_from(c).ok())
        .collect();
    if !report["merged"].is_null() {
        built.insert(max_cells);
    }
    built
}

/// One line on what the cluster did: its shards, those skipped (done by
/// an earlier run), and on how many hosts they ran.
fn cluster_line(address: &str, report: &Value, shards: usize) -> String {
    let ran: Vec<&Value> = report["shards"].as_array().into_iter().flatten().collect();
    if ran.is_empty() {
        return format!("the Dask cluster at {address} found the level there already");
    }
    let skipped = ran.iter().filter(|s| s["skipped"] == true).count();
    let hosts: BTreeSet<&str> = ran.iter().filter_map(|s| s["host"].as_str()).collect();
    let work = ran
        .iter()
        .filter_map(|s| s["seconds"].as_f64())
        .fold(0.0, |a, b| a + b);
    format!(
        "built on the Dask cluster at {address}: the top size in {shards} shards \
         ({skipped} done before) on {} host{}, {work:.2} s of shard work",
        hosts.len(),
        if hosts.len() == 1 { "" } else { "s" }
    )
}

/// Run `python ARGS` (the module), relaying its step lines to `counter`;
/// its report (the `"done"` line), or why it failed in one line: its
/// `"error"` line, else the last line of its standard error (a Python
/// without the package says so there).
fn run_module(python: &str, args: &[String], counter: &WatchCounter) -> Result<Value> {
    let mut child = Command::new(python)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| anyhow!("cannot start {python}: {e}"))?;
    let stderr = child.stderr.take().context("its standard error")?;
    let last_err = std::thread::spawn(move || last_line(stderr));
    let stdout = child.stdout.take().context("its standard output")?;
    let (mut report, mut error) = (None, None);
    let mut out = BufReader::new(stdout);
    while let Some(line) = read_line_bounded(&mut out, MAX_MODULE_LINE)
        .with_context(|| format!("reading {MODULE}'s output"))?
    {
        // a line that is no step of the module's (a library's print) is passed over
        let Ok(msg) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        match msg["event"].as_str() {
            Some("connected") => counter.note(format!(
                "connected ({} worker threads), the sizes below first",
                msg["threads"]
            )),
            Some("below") => counter.note("the sizes below are there; the shards".into()),
            Some("shard") => {
                counter.add(1);
                counter.note(format!(
                    "shard {} {} on {}",
                    msg["shard"],
                    if msg["skipped"] == true {
                        "done before"
                    } else {
                        "done"
                    },
                    msg["host"].as_str().unwrap_or("?")
                ));
            }
            Some("done") => report = Some(msg["report"].clone()),
            Some("error") => error = Some(msg["error"].as_str().unwrap_or("failed").to_string()),
            _ => {}
        }
    }
    let status = child
        .wait()
        .with_context(|| format!("waiting for {python}"))?;
    let last_err = last_err.join().unwrap_or_default();
    if let Some(e) = error {
        bail!("{e}");
    }
    if !status.success() {
        let why = if last_err.is_empty() {
            status.to_string()
        } else {
            last_err
        };
        bail!("{python} -m {MODULE} failed: {why}");
    }
    report.with_context(|| format!("{python} -m {MODULE} ended without its report"))
}

/// The last non-empty line of `r`, at most 300 characters, whatever came
/// before (Dask's log lines, a traceback); a line is read in pieces of at
/// most [`STDERR_PIECE`] bytes (the last piece of a longer one stands for
/// it), so memory stays bounded whatever the module writes.
fn last_line(mut r: impl Read) -> String {
    let mut last = String::new();
    let mut reader = BufReader::new(&mut r);
    let mut buf = Vec::new();
    while let Ok(n) = (&mut reader)
        .take(STDERR_PIECE as u64)
        .read_until(b'\n', &mut buf)
    {
        if n == 0 {
            break;
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim();
        if !line.is_empty() {
            last = line.chars().take(300).collect();
        }
        buf.clear();
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_line_of_a_traceback_is_the_reason() {
        let text = "Traceback (most recent call last):\n  File \"x\"\nModuleNotFoundError: No module named 'partizan'\n\n";
        assert_eq!(
            last_line(text.as_bytes()),
            "ModuleNotFoundError: No module named 'partizan'"
        );
        assert_eq!(last_line(&b""[..]), "");
        assert_eq!(last_line("y".repeat(1000).as_bytes()).len(), 300);
    }

    /// A line longer than the pieces stderr is read in still gives its
    /// last piece, cut to 300 characters; the lines after it are read.
    #[test]
    fn a_huge_stderr_line_is_read_in_pieces() {
        let huge = format!("{}\nthe reason\n", "z".repeat(3 * STDERR_PIECE + 7));
        assert_eq!(last_line(huge.as_bytes()), "the reason");
        let endless = "w".repeat(5 * STDERR_PIECE);
        assert_eq!(last_line(endless.as_bytes()), "w".repeat(300));
    }

    /// A module that writes a line past the bound (here one with no end
    /// in sight) is an error naming it, not memory without bound.
    #[test]
    fn an_overlong_module_line_is_an_error() {
        let watch =
            crate::meter::Watch::start("test", "shards", None, crate::meter::Show::Auto, u64::MAX);
        let script = format!(
            "import sys\nsys.stdout.write('{{\"event\":\"' + 'x' * {})\nsys.stdout.flush()",
            MAX_MODULE_LINE + 10
        );
        let python = std::env::var("PARTIZAN_PYTHON").unwrap_or_else(|_| "python3".into());
        let args = ["-c".to_string(), script];
        let e = run_module(&python, &args, &watch.counter()).expect_err("refused");
        let text = format!("{e:#}");
        assert!(text.contains("longer than"), "{text}");
    }

    #[test]
    fn the_levels_built_are_read_from_the_report() {
        let report = json!({
            "below": {"levels": [{"cells": 1, "loaded": true}, {"cells": 2, "loaded": false}]},
            "shards": [{"shard": 0, "skipped": false, "host": "a", "seconds": 1.5},
                       {"shard": 1, "skipped": true, "host": "b"}],
            "merged": {"cells": 3}
        });
        assert_eq!(
            built_on_cluster(&report, 3).into_iter().collect::<Vec<_>>(),
            [2, 3]
        );
        let line = cluster_line("tcp://h:1", &report, 2);
        assert!(
            line.contains("2 shards (1 done before) on 2 hosts, 1.50 s"),
            "{line}"
        );
        let there = json!({"below": null, "shards": [], "merged": null});
        assert!(built_on_cluster(&there, 3).is_empty());
        assert!(cluster_line("tcp://h:1", &there, 2).contains("already"));
    }
}
