//! `partizan store …`: the persistent table of region values.
//!
//! ```text
//! partizan store stats                         entries per ruleset, size, recent hit rate
//! partizan store export --format jsonl [--out FILE]
//! partizan store import FILE                   ('-' reads standard input)
//! partizan store verify [--sample N]           exit 2 on any mismatch
//! partizan store warm domineering --max-cells 10
//! partizan store path                          which file is in use
//! ```
//!
//! The store is chosen by the global `--store PATH` / `--no-store` flags,
//! then `PARTIZAN_STORE`, then the user's data directory. `stats`, `export`
//! and `verify` open it read-only: they never change the file (`verify`
//! writes only to mark imported values it recomputed and found right, and
//! says so).

use std::fs::File;
use std::io::{self, BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::{Subcommand, ValueEnum};
use partizan_store::{
    export_jsonl, import_jsonl, promote_verified, verify_with_progress, warm, Store, StoreError,
    StoreOptions, StoreStats, VerifyOptions,
};
use serde_json::json;

pub use partizan_store::StoreChoice;

/// `println!` that exits quietly when standard output is closed (`| head`).
macro_rules! say {
    ($($t:tt)*) => {
        print_line(format_args!($($t)*))
    };
}

fn print_line(args: std::fmt::Arguments<'_>) {
    let mut out = io::stdout().lock();
    let r = out
        .write_fmt(args)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    if let Err(e) = r {
        if e.kind() == io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
    }
}

/// The subcommands of `partizan store`.
#[derive(Subcommand, Debug)]
pub enum StoreCmd {
    /// Entries per ruleset, size on disk, and the hit rate of the last runs.
    Stats,
    /// Write every entry as JSON Lines, to standard output or --out FILE.
    Export {
        /// Output format.
        #[arg(long, value_enum, default_value_t = ExportFormat::Jsonl)]
        format: ExportFormat,
        /// Write to this file instead of standard output: atomically, by
        /// rename, and only over a regular file (or nothing).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Read entries from a JSON Lines export ('-' for standard input).
    /// Entries the store already holds are kept.
    Import {
        /// The export file.
        file: PathBuf,
    },
    /// Check that every entry decodes and recompute stored values from
    /// scratch; any mismatch is listed with its key and the exit code is 2.
    Verify {
        /// Recompute only this many values, chosen at random.
        #[arg(long, value_name = "N")]
        sample: Option<usize>,
        /// Seed of the random sample.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Fill the table: evaluate every region of up to N cells (every
    /// filling, for games with pieces) with the store attached.
    Warm {
        /// Ruleset: domineering, cram, clobber, konane, amazons.
        ruleset: String,
        /// Largest region size, in cells.
        #[arg(long, value_name = "N")]
        max_cells: usize,
    },
    /// Print the path of the store in use.
    Path,
}

/// Export formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// JSON Lines: a header line, then one object per entry.
    Jsonl,
}

/// Open the chosen store for a `store` subcommand (which needs one);
/// only `create` lets a missing file be created.
fn open_required(choice: &StoreChoice, create: bool) -> Result<Store> {
    let opts = StoreOptions {
        create,
        ..StoreOptions::default()
    };
    match choice.open_with(&opts)? {
        Some(s) => {
            note_migration(&s);
            Ok(s)
        }
        None => bail!("`partizan store` needs a store; drop --no-store"),
    }
}

/// Open the chosen store for reading only: the file is never written.
fn open_read_only(choice: &StoreChoice) -> Result<Store> {
    match choice.open_read_only()? {
        Some(s) => {
            note_migration(&s);
            Ok(s)
        }
        None => bail!("`partizan store` needs a store; drop --no-store"),
    }
}

/// Say on standard error what opening a v1 store did.
fn note_migration(s: &Store) {
    if let Some(m) = s.migration() {
        match &m.backup {
            Some(b) => eprintln!(
                "note: migrated store {} from format v{} to v{} ({} region values, {} census results{}); the v{} file is kept at {}",
                s.path().display(),
                m.from,
                s.format_version(),
                m.regions,
                m.census,
                if m.skipped > 0 { format!(", {} unreadable entries left behind", m.skipped) } else { String::new() },
                m.from,
                b.display()
            ),
            None => eprintln!(
                "note: store {} is format v{}; read through a migrated copy (the file is untouched; the next command that writes migrates it)",
                s.path().display(),
                m.from
            ),
        }
    }
}

/// A progress line on a terminal (nothing when standard error is not one).
struct Progress {
    tty: bool,
    last: u64,
    shown: bool,
}

impl Progress {
    fn new(json: bool) -> Progress {
        Progress {
            tty: io::stderr().is_terminal() && !json,
            last: u64::MAX,
            shown: false,
        }
    }

    fn show(&mut self, what: &str, done: u64, total: u64) {
        let pct = done.saturating_mul(100).checked_div(total).unwrap_or(100);
        if self.tty && pct != self.last {
            self.last = pct;
            self.shown = true;
            eprint!("\r{what}: {done}/{total} ({pct}%)   ");
        }
    }

    fn end(&mut self) {
        if self.shown {
            eprintln!();
            self.shown = false;
        }
    }
}

/// Run `partizan store SUBCOMMAND`.
pub fn run(cmd: StoreCmd, store: StoreChoice, json: bool) -> Result<()> {
    match cmd {
        StoreCmd::Path => {
            let path = store.path()?;
            match (path, json) {
                (None, true) => say!("{}", json!({ "path": null })),
                (None, false) => say!("(no store: --no-store)"),
                (Some(p), true) => say!("{}", json!({ "path": p })),
                (Some(p), false) => say!("{}", p.display()),
            }
            Ok(())
        }
        StoreCmd::Stats => {
            let s = open_read_only(&store)?;
            let stats = s.stats()?;
            if json {
                say!("{}", serde_json::to_string_pretty(&stats)?);
            } else {
                print_stats(&stats);
            }
            Ok(())
        }
        StoreCmd::Export { format, out } => {
            let ExportFormat::Jsonl = format;
            let s = open_read_only(&store)?;
            match out {
                None => {
                    let stdout = io::stdout();
                    let mut w = BufWriter::new(stdout.lock());
                    // A reader that stops early (`| head`) is not an error.
                    match export_jsonl(&s, &mut w).map(|r| (r, w.flush())) {
                        Err(StoreError::Stream(e)) if e.kind() == io::ErrorKind::BrokenPipe => {}
                        Ok((_, Err(e))) if e.kind() == io::ErrorKind::BrokenPipe => {}
                        r => {
                            let (report, flushed) = r?;
                            flushed?;
                            warn_damaged(report.damaged);
                        }
                    }
                }
                Some(path) => {
                    let report = export_to_file(&s, &path)?;
                    warn_damaged(report.damaged);
                    if json {
                        let mut v = serde_json::to_value(report)?;
                        v["out"] = json!(path);
                        say!("{}", serde_json::to_string_pretty(&v)?);
                    } else {
                        say!(
                            "exported {} region values and {} census results to {}",
                            report.regions,
                            report.census,
                            path.display()
                        );
                    }
                }
            }
            Ok(())
        }
        StoreCmd::Import { file } => {
            let s = open_required(&store, true)?;
            let report = if file.as_os_str() == "-" {
                import_jsonl(&s, &mut io::stdin().lock())?
            } else {
                let f =
                    File::open(&file).with_context(|| format!("cannot open {}", file.display()))?;
                import_jsonl(&s, &mut BufReader::new(f))
                    .with_context(|| format!("importing {}", file.display()))?
            };
            if json {
                say!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                say!(
                    "imported {} new region values ({} already present, {} conflicting: kept the stored ones; {} recomputed and right, {} unverified until `partizan store verify`), {} new census results ({} already present)",
                    report.regions_added,
                    report.regions_present,
                    report.regions_conflicting,
                    report.regions_recomputed,
                    report.regions_unverified,
                    report.census_added,
                    report.census_present
                );
            }
            Ok(())
        }
        StoreCmd::Verify { sample, seed } => {
            let mut s = open_read_only(&store)?;
            let integrity = s
                .check_integrity()
                .context("the store's structure could not be checked")?;
            let mut bar = Progress::new(json);
            let report = verify_with_progress(&s, &VerifyOptions { sample, seed }, &mut |d, t| {
                bar.show("verifying", d, t)
            });
            bar.end();
            let report = report?;
            // The one write: imported values recomputed and found right are
            // marked verified, unless the file is damaged (then it is left
            // untouched).
            let damaged = !report.bad_entries.is_empty() || integrity == Some(false);
            let promoted = if report.promotable.is_empty() || damaged {
                0
            } else {
                let rw = open_required(&store, false)?;
                promote_verified(&rw, &report)?
            };
            if json {
                let mut v = serde_json::to_value(&report)?;
                v["ok"] = json!(report.ok() && integrity != Some(false));
                v["integrity"] = json!(match integrity {
                    Some(true) => "ok",
                    Some(false) => "damaged",
                    None => "not checked",
                });
                v["marked_verified"] = json!(promoted);
                say!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                if integrity == Some(false) {
                    say!("integrity: the file's structure is damaged (left untouched)");
                }
                for m in &report.mismatches {
                    say!(
                        "MISMATCH {} key {} board {}: stored {} but computed {}",
                        m.ruleset,
                        m.key,
                        m.board,
                        m.stored,
                        m.computed
                    );
                }
                for b in &report.bad_entries {
                    say!("BAD ENTRY {} key {}: {}", b.ruleset, b.key, b.detail);
                }
                for r in &report.unknown_rulesets {
                    say!("skipped ruleset '{r}' (unknown to this build)");
                }
                say!(
                    "{} entries decoded, {} recomputed ({} imported, {} marked verified), {} mismatches, {} bad entries",
                    report.entries,
                    report.recomputed,
                    report.unverified_checked,
                    promoted,
                    report.mismatches.len(),
                    report.bad_entries.len()
                );
            }
            if !report.ok() || integrity == Some(false) {
                bail!(
                    "store verify failed: {} mismatches, {} bad entries{}; the file was left untouched",
                    report.mismatches.len(),
                    report.bad_entries.len(),
                    if integrity == Some(false) { ", damaged structure" } else { "" }
                );
            }
            Ok(())
        }
        StoreCmd::Warm { ruleset, max_cells } => {
            let s = open_required(&store, true)?;
            let name = ruleset.to_ascii_lowercase().replace('ō', "o");
            let mut bar = Progress::new(json);
            let label = format!("warming {name} (shapes)");
            let report = warm(&s, &name, max_cells, &mut |done, total| {
                bar.show(&label, done, total)
            });
            bar.end();
            let report = report.map_err(|e| match e {
                StoreError::BadRuleset(r) => anyhow::anyhow!(
                    "unknown ruleset '{r}' (known: {})",
                    partizan_games::Rules::names()
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                e => e.into(),
            })?;
            let damaged = report.session.checksum_failures + report.session.read_errors;
            if damaged > 0 {
                eprintln!("warning: {damaged} damaged store records were recomputed and replaced");
            }
            if json {
                say!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                say!(
                    "{} shapes, {} boards; {} regions from the store, {} added (store now holds {})",
                    report.shapes,
                    report.boards,
                    report.solver.store_hits,
                    report.session.written,
                    s.region_counts()?.get(&name).copied().unwrap_or(0)
                );
            }
            Ok(())
        }
    }
}

fn warn_damaged(n: u64) {
    if n > 0 {
        eprintln!("warning: {n} damaged records were left out of the export (run `partizan store verify`)");
    }
}

/// Export to `path` through a temporary file beside it, renamed into place,
/// so a failed export never leaves half a file under the name. Only a
/// regular file (or nothing) is replaced: a directory, a symlink, a device
/// or a pipe at `path` is refused before anything is created.
fn export_to_file(s: &Store, path: &Path) -> Result<partizan_store::ExportReport> {
    if path.as_os_str().to_string_lossy().ends_with('/') {
        bail!(
            "--out {}: names a directory; give a file path",
            path.display()
        );
    }
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_file() => {}
        Ok(m) if m.is_dir() => bail!("--out {}: is a directory; give a file path", path.display()),
        Ok(m) if m.file_type().is_symlink() => bail!(
            "--out {}: is a symbolic link; refusing to replace it (give the file it points to, or another path)",
            path.display()
        ),
        Ok(_) => bail!(
            "--out {}: is not a regular file (a device, pipe or socket); refusing to replace it",
            path.display()
        ),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("--out {}", path.display())),
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        bail!(
            "--out {}: folder {} does not exist",
            path.display(),
            dir.display()
        );
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "export".into());
    let tmp = dir.join(format!(".{name}.partial-{}", std::process::id()));
    let f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .with_context(|| format!("cannot create {}", tmp.display()))?;
    let mut w = BufWriter::new(f);
    let result = export_jsonl(s, &mut w)
        .map_err(anyhow::Error::from)
        .and_then(|r| {
            w.flush()?;
            w.get_ref().sync_all()?;
            Ok(r)
        })
        .and_then(|r| {
            std::fs::rename(&tmp, path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            Ok(r)
        });
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];
    let mut x = n as f64;
    let mut u = 0;
    while x >= 1000.0 && u + 1 < UNITS.len() {
        x /= 1000.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{x:.1} {}", UNITS[u])
    }
}

fn print_stats(s: &StoreStats) {
    say!("store    {} (format v{})", s.path.display(), s.format);
    say!("size     {}", human_bytes(s.file_bytes));
    say!("regions  {}", s.total_regions);
    for (r, n) in &s.regions {
        say!("  {r:<12} {n:>12}");
    }
    if s.unverified > 0 {
        say!(
            "unverified {} imported values (never answered from; run `partizan store verify`)",
            s.unverified
        );
    }
    if s.checksum_failures > 0 {
        say!(
            "damaged  {} records fail their checksum (never used; run `partizan store verify`)",
            s.checksum_failures
        );
    }
    say!("census   {}", s.census_entries);
    let lookups: u64 = s.recent_runs.iter().map(|r| r.lookups).sum();
    let hits: u64 = s.recent_runs.iter().map(|r| r.hits).sum();
    match s.recent_hit_rate {
        Some(rate) => say!(
            "hit rate {:.1}% over the last {} runs ({hits} of {lookups} lookups)",
            rate * 100.0,
            s.recent_runs.len()
        ),
        None => say!("hit rate (no runs recorded yet)"),
    }
    for r in s.recent_runs.iter().rev().take(5) {
        say!(
            "  {:<24} lookups {:>10}  hits {:>10}  added {:>10}",
            r.label,
            r.lookups,
            r.hits,
            r.added
        );
    }
}
