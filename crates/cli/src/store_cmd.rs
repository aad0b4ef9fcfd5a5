//! `partizan store …`: the persistent table of region values.
//!
//! ```text
//! partizan store stats                         entries per ruleset, size, recent hit rate
//! partizan store export --format jsonl [--out FILE]
//! partizan store import FILE                   ('-' reads standard input)
//! partizan store verify [--sample N]           exit 2 on any mismatch
//! partizan store warm domineering --max-cells 10
//! partizan store path                          which file is in use
//! partizan store limit [SIZE|none]             show or set the size limit
//! ```
//!
//! The store is chosen by the global `--store PATH` / `--no-store` flags,
//! then `PARTIZAN_STORE`, then the user's data directory. `stats`, `export`
//! and `verify` open it read-only: they never change the file (`verify`
//! writes only to mark imported values it recomputed and found right, and
//! says so).

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::{Subcommand, ValueEnum};
use partizan_store::{
    export_jsonl, human_bytes, import_jsonl, promote_verified, verify_with_progress, warm, Store,
    StoreError, StoreOptions, StoreStats, VerifyOptions,
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
    /// Damaged rows (their checksum fails) are left out: the rest is still
    /// written, stderr says how many are missing, and the exit code is 3
    /// (a partial export; 0 means every row is in it, 2 that it failed).
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
    /// Check that every entry decodes, recompute stored values from
    /// scratch and search stored outcomes again; any mismatch is listed
    /// with its key and the exit code is 2.
    Verify {
        /// Recompute only this many values (and search this many stored
        /// outcomes), chosen at random; imported ones are always checked.
        #[arg(long, value_name = "N")]
        sample: Option<usize>,
        /// Seed of the random sample.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Nodes each stored outcome is searched with (one not decided
        /// within them is counted, not failed).
        #[arg(long, value_name = "N", default_value_t = 20_000_000,
              value_parser = clap::value_parser!(u64).range(1..))]
        outcome_nodes: u64,
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
    /// Show or set the store's size limit (e.g. 4G, 500M, or "none"; binary
    /// units, K = 1024, and printed in the same units, so `2 GiB` can be
    /// typed back): past it, commands keep reading the store but add no more
    /// values, and warn.
    Limit {
        /// The new limit; without it, print the current one.
        size: Option<String>,
    },
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

/// Run `partizan store SUBCOMMAND`.
pub fn run(cmd: StoreCmd, store: StoreChoice, long: &crate::Long, json: bool) -> Result<()> {
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
        StoreCmd::Limit { size } => {
            let limit = match size.as_deref() {
                None => None,
                Some(t) if t.eq_ignore_ascii_case("none") => Some(None),
                Some(t) => Some(Some(
                    crate::meter::parse_size(t).map_err(anyhow::Error::msg)?,
                )),
            };
            let s = match limit {
                None => open_read_only(&store)?,
                Some(l) => {
                    let s = open_required(&store, true)?;
                    s.set_size_limit(l)?;
                    s
                }
            };
            let now = s.size_limit()?;
            let bytes = s.file_bytes()?;
            if json {
                say!("{}", json!({ "size_limit": now, "file_bytes": bytes }));
            } else {
                say!("{}", limit_line(now, bytes));
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
                            return partial_if_damaged(&report, "standard output");
                        }
                    }
                }
                Some(path) => {
                    let report = export_to_file(&s, &path)?;
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
                    return partial_if_damaged(&report, &path.display().to_string());
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
                    "imported {} new region values ({} already present, {} conflicting: kept the stored ones; {} recomputed and right, {} unverified until `partizan store verify`), {} new census results and outcomes ({} already present; outcomes searched again: {} right, {} not decided within the budget and unverified until `partizan store verify`; {} Python values left out)",
                    report.regions_added,
                    report.regions_present,
                    report.regions_conflicting,
                    report.regions_recomputed,
                    report.regions_unverified,
                    report.census_added,
                    report.census_present,
                    report.outcomes_verified,
                    report.outcomes_unverified,
                    report.census_skipped
                );
            }
            Ok(())
        }
        StoreCmd::Verify {
            sample,
            seed,
            outcome_nodes,
        } => {
            let mut s = open_read_only(&store)?;
            let integrity = s
                .check_integrity()
                .context("the store's structure could not be checked")?;
            let watch = long.watch("store verify", "entries", None);
            let opts = VerifyOptions {
                sample,
                seed,
                outcome_nodes,
            };
            let report = verify_with_progress(&s, &opts, &mut |d, t| watch.set(d, t));
            drop(watch);
            let report = report?;
            // The one write: imported values recomputed and found right are
            // marked verified, unless the file is damaged (then it is left
            // untouched).
            let damaged = !report.bad_entries.is_empty() || integrity == Some(false);
            let promoted = if (report.promotable.is_empty()
                && report.promotable_outcomes.is_empty())
                || damaged
            {
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
                for m in &report.outcome_mismatches {
                    say!(
                        "MISMATCH {}: stored {} but the search finds {}",
                        m.key,
                        m.stored,
                        m.computed
                    );
                }
                for r in &report.unknown_rulesets {
                    say!("skipped ruleset '{r}' (unknown to this build)");
                }
                say!(
                    "{} entries decoded, {} recomputed ({} imported, {} marked verified), {} mismatches, {} bad entries; {} outcomes, {} searched again ({} not decided within {} nodes), {} mismatches",
                    report.entries,
                    report.recomputed,
                    report.unverified_checked,
                    promoted,
                    report.mismatches.len(),
                    report.bad_entries.len(),
                    report.outcomes,
                    report.outcomes_searched,
                    report.outcomes_undecided,
                    outcome_nodes,
                    report.outcome_mismatches.len()
                );
            }
            if !report.ok() || integrity == Some(false) {
                bail!(
                    "store verify failed: {} mismatches, {} bad entries{}; the file was left untouched",
                    report.mismatches.len() + report.outcome_mismatches.len(),
                    report.bad_entries.len(),
                    if integrity == Some(false) { ", damaged structure" } else { "" }
                );
            }
            Ok(())
        }
        StoreCmd::Warm { ruleset, max_cells } => {
            let s = open_required(&store, true)?;
            let name = ruleset.to_ascii_lowercase().replace('ō', "o");
            let watch = long.watch(format!("store warm {name} {max_cells}"), "shapes", None);
            let report = warm(&s, &name, max_cells, &mut |done, total| {
                watch.set(done, total)
            });
            drop(watch);
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
            if report.session.not_saved > 0 {
                eprintln!(
                    "warning: store {} reached its size limit; {} values were not saved (raise it with `partizan store limit SIZE`)",
                    s.path().display(),
                    report.session.not_saved
                );
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

/// An export that left damaged rows out is partial: an error of its own
/// kind ([`crate::Partial`], exit code 7) after the good rows are written.
fn partial_if_damaged(report: &partizan_store::ExportReport, to: &str) -> Result<()> {
    if report.damaged == 0 {
        return Ok(());
    }
    Err(crate::Partial(format!(
        "partial export: {} damaged records (failing their checksum) were left out; the other {} region values and {} census results were written to {to} (run `partizan store verify`)",
        report.damaged, report.regions, report.census
    ))
    .into())
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
    let io = |e: io::Error| anyhow::anyhow!("cannot write {}: {e}", path.display());
    partizan_solve::files::write_through_temp(path, io, |w| {
        export_jsonl(s, w).map_err(anyhow::Error::from)
    })
}

/// "12.0 MiB of a 2 GiB limit", or "... (no limit)".
fn limit_line(limit: Option<u64>, bytes: u64) -> String {
    match limit {
        Some(l) if bytes >= l => format!(
            "{} of a {} limit: full, no values are added (raise it with `partizan store limit SIZE`)",
            human_bytes(bytes),
            human_bytes(l)
        ),
        Some(l) => format!("{} of a {} limit", human_bytes(bytes), human_bytes(l)),
        None => format!("{} (no size limit)", human_bytes(bytes)),
    }
}

fn print_stats(s: &StoreStats) {
    say!("store    {} (format v{})", s.path.display(), s.format);
    say!("size     {}", limit_line(s.size_limit, s.file_bytes));
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
    say!("outcomes {}", s.outcome_entries);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meter::parse_size;

    #[test]
    fn printed_sizes_parse_back() {
        // Typed sizes print in the same binary units and parse back exactly.
        for typed in ["1K", "512M", "2G", "1.5G", "100B", "3T", "64K", "2048"] {
            let n = parse_size(typed).unwrap();
            let shown = human_bytes(n);
            assert_eq!(parse_size(&shown), Ok(n), "{typed} -> {shown}");
        }
        assert_eq!(human_bytes(2 << 30), "2 GiB");
        assert_eq!(human_bytes(1536 << 20), "1.5 GiB");
        assert_eq!(human_bytes(1000), "1000 B");
        assert_eq!(human_bytes(1024), "1 KiB");
        // Any size prints within a twentieth of its unit (so 5%) of itself.
        let mut n = 1u64;
        while n < 1 << 50 {
            let back = parse_size(&human_bytes(n)).unwrap();
            let err = back.abs_diff(n) as f64 / n as f64;
            assert!(err <= 0.05, "{n} -> {} -> {back}", human_bytes(n));
            n = n * 3 + 7;
        }
        // The limit line says the same.
        assert_eq!(
            limit_line(Some(2 << 30), 12 << 20),
            "12 MiB of a 2 GiB limit"
        );
    }
}
