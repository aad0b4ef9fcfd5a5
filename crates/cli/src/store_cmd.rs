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
//! then `PARTIZAN_STORE`, then the user's data directory.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::{Subcommand, ValueEnum};
use partizan_store::{
    export_jsonl, import_jsonl, verify, warm, Store, StoreError, StoreOptions, StoreStats,
    VerifyOptions,
};
use serde_json::json;

pub use partizan_store::StoreChoice;

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
        /// Write to this file (atomically) instead of standard output.
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
        Some(s) => Ok(s),
        None => bail!("`partizan store` needs a store; drop --no-store"),
    }
}

/// Run `partizan store SUBCOMMAND`.
pub fn run(cmd: StoreCmd, store: StoreChoice, json: bool) -> Result<()> {
    match cmd {
        StoreCmd::Path => {
            let path = store.path()?;
            match (path, json) {
                (None, true) => println!("{}", json!({ "path": null })),
                (None, false) => println!("(no store: --no-store)"),
                (Some(p), true) => println!("{}", json!({ "path": p })),
                (Some(p), false) => println!("{}", p.display()),
            }
            Ok(())
        }
        StoreCmd::Stats => {
            let s = open_required(&store, false)?;
            let stats = s.stats()?;
            if json {
                println!("{}", serde_json::to_string_pretty(&stats)?);
            } else {
                print_stats(&stats);
            }
            Ok(())
        }
        StoreCmd::Export { format, out } => {
            let ExportFormat::Jsonl = format;
            let s = open_required(&store, false)?;
            match out {
                None => {
                    let stdout = io::stdout();
                    let mut w = BufWriter::new(stdout.lock());
                    // A reader that stops early (`| head`) is not an error.
                    match export_jsonl(&s, &mut w).map(|_| w.flush()) {
                        Err(StoreError::Stream(e)) if e.kind() == io::ErrorKind::BrokenPipe => {}
                        Ok(Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => {}
                        r => {
                            r??;
                        }
                    }
                }
                Some(path) => {
                    let report = export_to_file(&s, &path)?;
                    if json {
                        let mut v = serde_json::to_value(report)?;
                        v["out"] = json!(path);
                        println!("{}", serde_json::to_string_pretty(&v)?);
                    } else {
                        println!(
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
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                println!(
                    "imported {} new region values ({} already present, {} conflicting: kept the stored ones), {} new census results ({} already present)",
                    report.regions_added,
                    report.regions_present,
                    report.regions_conflicting,
                    report.census_added,
                    report.census_present
                );
            }
            Ok(())
        }
        StoreCmd::Verify { sample, seed } => {
            let mut s = open_required(&store, false)?;
            let integrity = s
                .check_integrity()
                .context("the store's page checksums do not verify")?;
            let report = verify(&s, &VerifyOptions { sample, seed })?;
            if json {
                let mut v = serde_json::to_value(&report)?;
                v["ok"] = json!(report.ok());
                v["integrity"] = json!(match integrity {
                    Some(true) => "clean",
                    Some(false) => "repaired",
                    None => "not checked",
                });
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                if integrity == Some(false) {
                    println!("integrity: the file needed repair and was repaired");
                }
                for m in &report.mismatches {
                    println!(
                        "MISMATCH {} key {} board {}: stored {} but computed {}",
                        m.ruleset, m.key, m.board, m.stored, m.computed
                    );
                }
                for b in &report.bad_entries {
                    println!("BAD ENTRY {} key {}: {}", b.ruleset, b.key, b.detail);
                }
                for r in &report.unknown_rulesets {
                    println!("skipped ruleset '{r}' (unknown to this build)");
                }
                println!(
                    "{} entries decoded, {} recomputed, {} mismatches, {} bad entries",
                    report.entries,
                    report.recomputed,
                    report.mismatches.len(),
                    report.bad_entries.len()
                );
            }
            if !report.ok() {
                bail!(
                    "store verify failed: {} mismatches, {} bad entries",
                    report.mismatches.len(),
                    report.bad_entries.len()
                );
            }
            Ok(())
        }
        StoreCmd::Warm { ruleset, max_cells } => {
            let s = open_required(&store, true)?;
            let name = ruleset.to_ascii_lowercase().replace('ō', "o");
            let tty = io::stderr().is_terminal() && !json;
            let mut last = 0u64;
            let report = warm(&s, &name, max_cells, &mut |done, total| {
                let pct = done * 100 / total.max(1);
                if tty && pct != last {
                    last = pct;
                    eprint!("\rwarming {name}: {done}/{total} shapes ({pct}%)");
                }
            });
            if tty {
                eprintln!();
            }
            let report = report.map_err(|e| match e {
                StoreError::BadRuleset(r) => anyhow::anyhow!(
                    "unknown ruleset '{r}' (known: {})",
                    partizan_store::rules::KNOWN_RULESETS.join(", ")
                ),
                e => e.into(),
            })?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                println!(
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

/// Export to `path` through a temporary file renamed into place, so a
/// failed export never leaves half a file under the name.
fn export_to_file(s: &Store, path: &Path) -> Result<partizan_store::ExportReport> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".partial");
    let tmp = PathBuf::from(tmp);
    let f = File::create(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
    let mut w = BufWriter::new(f);
    let result = export_jsonl(s, &mut w)
        .map_err(anyhow::Error::from)
        .and_then(|r| {
            w.flush()?;
            w.get_ref().sync_all()?;
            Ok(r)
        });
    match result {
        Ok(r) => {
            std::fs::rename(&tmp, path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            Ok(r)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
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
    println!("store    {} (format v{})", s.path.display(), s.format);
    println!("size     {}", human_bytes(s.file_bytes));
    println!("regions  {}", s.total_regions);
    for (r, n) in &s.regions {
        println!("  {r:<12} {n:>12}");
    }
    println!("census   {}", s.census_entries);
    let lookups: u64 = s.recent_runs.iter().map(|r| r.lookups).sum();
    let hits: u64 = s.recent_runs.iter().map(|r| r.hits).sum();
    match s.recent_hit_rate {
        Some(rate) => println!(
            "hit rate {:.1}% over the last {} runs ({hits} of {lookups} lookups)",
            rate * 100.0,
            s.recent_runs.len()
        ),
        None => println!("hit rate (no runs recorded yet)"),
    }
    for r in s.recent_runs.iter().rev().take(5) {
        println!(
            "  {:<24} lookups {:>10}  hits {:>10}  added {:>10}",
            r.label, r.lookups, r.hits, r.added
        );
    }
}
