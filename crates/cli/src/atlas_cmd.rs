//! `partizan atlas ...`: the Domineering value atlas (every region to 18
//! cells), built level by level into a directory and queried from it.
//!
//! ```text
//! partizan atlas build --max-cells 14                 # resumes from the levels and parts on disk
//! partizan atlas build --max-cells 16 --shard 0/2     # one slice of the top size
//! partizan atlas merge --cells 16 --shards 2          # the slices into the level
//! partizan atlas build --max-cells 18 --shards 32     # all slices in turn, resumable, then merged
//! partizan atlas build --max-cells 18 --shards 40 --cluster tcp://HOST:8786 --dir /shared/atlas
//! partizan atlas report --max-cells 14 [--csv FILE]   # kinds by size, hottest, firsts
//! partizan atlas find --value '*2' --max-cells 14     # or --min-temperature 3/2, --kind tiny
//! partizan atlas index                                # index files for a directory built before them
//! partizan atlas seal --dir DIR                       # check and seal levels from elsewhere
//! ```
//!
//! Every level and summary file the atlas writes has a seal beside it
//! (`NAME.seal`, a MAC under the user's key); a file without one, or not
//! the file its seal names, is not believed. `atlas seal` adopts a
//! directory built elsewhere or before seals.
//!
//! The directory is `--dir`, else `$PARTIZAN_ATLAS`, else `atlas` under the
//! user's data directory (`$XDG_DATA_HOME/partizan` or
//! `~/.local/share/partizan`).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use partizan_census::atlas::{Atlas, AtlasConfig, AtlasStore, Level, Query};
use partizan_census::DirStore;
use serde_json::json;

/// Counts the levels an atlas build has loaded or finished, for the
/// progress line.
struct CountedLevels<S> {
    inner: S,
    counter: crate::meter::WatchCounter,
}

impl<S: AtlasStore> AtlasStore for CountedLevels<S> {
    fn load_level(
        &mut self,
        cells: usize,
        value_base: u32,
    ) -> Result<Option<Level>, partizan_census::atlas::AtlasError> {
        let level = self.inner.load_level(cells, value_base)?;
        if level.is_some() {
            self.counter.add(1);
        }
        Ok(level)
    }
    fn has_level(&mut self, cells: usize) -> bool {
        self.inner.has_level(cells)
    }
    fn stream_level(
        &mut self,
        cells: usize,
        value_base: u32,
        each: &mut dyn FnMut(
            partizan_census::Shape,
            u32,
        ) -> Result<(), partizan_census::atlas::AtlasError>,
    ) -> Result<Option<Vec<partizan_census::atlas::StoredValue>>, partizan_census::atlas::AtlasError>
    {
        let values = self.inner.stream_level(cells, value_base, each)?;
        if values.is_some() {
            self.counter.add(1);
        }
        Ok(values)
    }
    fn save_level(&mut self, level: &Level) -> Result<(), partizan_census::atlas::AtlasError> {
        self.inner.save_level(level)?;
        self.counter.add(1);
        Ok(())
    }
    fn save_shard(
        &mut self,
        level: &Level,
        index: usize,
        count: usize,
    ) -> Result<(), partizan_census::atlas::AtlasError> {
        self.inner.save_shard(level, index, count)
    }
    // the rest forwarded too: a default here would silently drop the parts
    // (no resume inside a level) or the shards
    fn threads(&mut self, threads: usize) {
        self.inner.threads(threads);
    }
    fn load_part(
        &mut self,
        cells: usize,
        value_base: u32,
        index: usize,
        count: usize,
    ) -> Result<Option<Level>, partizan_census::atlas::AtlasError> {
        self.inner.load_part(cells, value_base, index, count)
    }
    fn save_part(
        &mut self,
        part: &Level,
        index: usize,
        count: usize,
    ) -> Result<(), partizan_census::atlas::AtlasError> {
        self.inner.save_part(part, index, count)
    }
    fn remove_parts(
        &mut self,
        cells: usize,
        count: usize,
    ) -> Result<(), partizan_census::atlas::AtlasError> {
        self.inner.remove_parts(cells, count)
    }
    fn load_shard(
        &mut self,
        cells: usize,
        value_base: u32,
        index: usize,
        count: usize,
    ) -> Result<Option<Level>, partizan_census::atlas::AtlasError> {
        self.inner.load_shard(cells, value_base, index, count)
    }
    fn merge_level(
        &mut self,
        cells: usize,
        count: usize,
    ) -> Result<(u64, u64), partizan_census::atlas::AtlasError> {
        self.counter
            .note(format!("level {cells}, merging {count} shards"));
        let r = self.inner.merge_level(cells, count)?;
        self.counter.add(1);
        Ok(r)
    }
    fn progress(&mut self, step: partizan_census::BuildStep) {
        self.counter.note(step.to_string());
    }
}

/// `partizan atlas` subcommands.
#[derive(Subcommand, Debug)]
pub enum AtlasCmd {
    /// Value every region up to N cells, saving each level (and each part of
    /// a large one) as it finishes; a rerun resumes from what is on disk.
    Build(BuildArgs),
    /// Combine the shard files of one size into its level.
    Merge(MergeArgs),
    /// The atlas's tables: kinds by size, the hottest regions, first occurrences.
    Report(ReportArgs),
    /// Regions with a given value, kind, or temperature at least t (from
    /// the level index files in milliseconds; without them, from the
    /// summaries or by reading every level).
    Find(FindArgs),
    /// Write the index file of every level that has none (or a stale or
    /// damaged one), for a directory built before indexes; a build and a
    /// merge write them as they go.
    Index(IndexArgs),
    /// Check and seal with your key the levels it did not seal (built on
    /// another machine, by another user, before seals, or edited): the
    /// checks of a read, the catalogue, every value's facts and negative
    /// derived again, a sample valued again by the board engine; the
    /// summaries and indexes written again from the levels.
    Seal(SealArgs),
}

/// Arguments of `partizan atlas seal`.
#[derive(Args, Debug)]
pub struct SealArgs {
    /// Seal the levels up to this size (default: every level present).
    #[arg(long)]
    pub max_cells: Option<usize>,
    /// Classes of each level, drawn at random, valued again by the board
    /// engine; one that disagrees stops it, nothing of that level sealed.
    #[arg(long, value_name = "N", default_value_t = partizan_census::atlas_store::VERIFY_PER_SHARD)]
    pub verify: usize,
    #[command(flatten)]
    pub dir: DirArg,
}

/// Arguments of `partizan atlas index`.
#[derive(Args, Debug)]
pub struct IndexArgs {
    /// Index the levels up to this size (default: every level present).
    #[arg(long)]
    pub max_cells: Option<usize>,
    #[command(flatten)]
    pub dir: DirArg,
}

/// Where the atlas lives.
#[derive(Args, Debug, Clone)]
pub struct DirArg {
    /// Atlas directory (default: $PARTIZAN_ATLAS, else the data directory).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Arguments of `partizan atlas build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// Largest region size (1 to 21).
    #[arg(long)]
    pub max_cells: usize,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Only slice K of N of the top size, as "K/N" (merge them afterwards).
    /// With the sizes below in --dir, they are read, not grown, and only
    /// the slice's parents of the size below are held: a shard of 18 cells
    /// in 3.5 GB, where growing them took 6.6 GB.
    #[arg(long, value_name = "K/N", conflicts_with = "shards")]
    pub shard: Option<String>,
    /// The top size in N shards one after another (each saved as it
    /// finishes, a rerun skips those done), then merged by streaming: the
    /// way to 18 cells, never holding the top level. With the sizes below
    /// in --dir, they are read, not grown.
    #[arg(long, value_name = "N")]
    pub shards: Option<usize>,
    /// Build on the Dask distributed cluster at ADDRESS (e.g.
    /// tcp://HOST:8786) through the Python package (`python3 -m
    /// partizan.atlas_cluster`): the sizes below in one task, the top size
    /// in --shards tasks (of --threads threads each, default 1), merged by
    /// one more. Every worker must read and write --dir (a shared file
    /// system) and have the `partizan` package; every level is then read
    /// back and checked here.
    #[arg(
        long,
        value_name = "ADDRESS",
        requires = "shards",
        conflicts_with = "shard"
    )]
    pub cluster: Option<String>,
    /// The Python that runs --cluster's module (default: $PARTIZAN_PYTHON,
    /// else python3).
    #[arg(long, value_name = "PATH", requires = "cluster")]
    pub python: Option<String>,
    #[command(flatten)]
    pub dir: DirArg,
}

/// Arguments of `partizan atlas merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The size whose shards to merge.
    #[arg(long)]
    pub cells: usize,
    /// How many shards it was cut into.
    #[arg(long)]
    pub shards: usize,
    /// Classes of each shard, drawn at random, valued again by the board
    /// engine before anything is written (a shard is another process's
    /// word); one that disagrees stops the merge. 0: none.
    #[arg(long, value_name = "N", default_value_t = partizan_census::atlas_store::VERIFY_PER_SHARD)]
    pub verify: usize,
    #[command(flatten)]
    pub dir: DirArg,
}

/// Arguments of `partizan atlas report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Largest size to report (default: every size built).
    #[arg(long)]
    pub max_cells: Option<usize>,
    /// How many of the hottest regions to list.
    #[arg(long, default_value_t = 10)]
    pub hottest: usize,
    /// Also write the kind counts as CSV to this file.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    #[command(flatten)]
    pub dir: DirArg,
}

/// Arguments of `partizan atlas find`.
#[derive(Args, Debug)]
pub struct FindArgs {
    /// A value in CGSuite notation, e.g. '*2', '^', '{1|-1}'.
    #[arg(long, allow_hyphen_values = true)]
    pub value: Option<String>,
    /// Temperature at least this (e.g. 2, 3/2).
    #[arg(long, allow_hyphen_values = true)]
    pub min_temperature: Option<String>,
    /// A kind: integer, fraction, number, nimber, up, down, tiny, miny,
    /// infinitesimal, number+infinitesimal, switch, hot.
    #[arg(long)]
    pub kind: Option<String>,
    /// Sizes up to this (default: every size built).
    #[arg(long)]
    pub max_cells: Option<usize>,
    /// List at most this many regions.
    #[arg(long, default_value_t = 10)]
    pub limit: usize,
    #[command(flatten)]
    pub dir: DirArg,
}

pub(crate) fn atlas_dir(d: &DirArg) -> Result<PathBuf> {
    if let Some(p) = &d.dir {
        return Ok(p.clone());
    }
    DirStore::default_dir().context("no atlas directory: give --dir or set PARTIZAN_ATLAS")
}

fn parse_shard(s: &str) -> Result<(usize, usize)> {
    let (k, n) = s
        .split_once('/')
        .with_context(|| format!("shard {s:?}: expected K/N, e.g. 0/2"))?;
    let k: usize = k
        .trim()
        .parse()
        .with_context(|| format!("shard {s:?}: K is not a number"))?;
    let n: usize = n
        .trim()
        .parse()
        .with_context(|| format!("shard {s:?}: N is not a number"))?;
    if n == 0 || k >= n {
        bail!("shard {s:?}: want 0 <= K < N");
    }
    Ok((k, n))
}

/// `Atlas::build` of `cfg` in `path`, the levels counted by `watch`
/// (ended when the build is).
pub(crate) fn build_watched(
    cfg: &AtlasConfig,
    path: &std::path::Path,
    watch: crate::meter::Watch,
) -> Result<Atlas, partizan_census::atlas::AtlasError> {
    let mut store = CountedLevels {
        inner: DirStore::new(path),
        counter: watch.counter(),
    };
    let atlas = Atlas::build(cfg, &mut store);
    drop(watch);
    atlas
}

/// The table of a build's levels, `source` saying where each came from.
pub(crate) fn level_table(
    stats: &[partizan_census::atlas::LevelStats],
    source: impl Fn(&partizan_census::atlas::LevelStats) -> &'static str,
) -> String {
    let mut t = String::from("cells    classes  new values   seconds  source\n");
    for s in stats {
        t += &format!(
            "{:>5} {:>10} {:>11} {:>9.2}  {}\n",
            s.cells,
            s.classes,
            s.new_values,
            s.seconds,
            source(s)
        );
    }
    t
}

/// The report of the atlas in `dir` to `max_cells`, its levels streamed
/// (memory: the values, not the entries), with a progress line.
fn streamed_report(
    dir: &DirArg,
    max_cells: Option<usize>,
    hottest: usize,
    long: &crate::Long,
) -> Result<partizan_census::AtlasReport> {
    let path = atlas_dir(dir)?;
    let store = DirStore::new(&path);
    let watch = long.watch(format!("atlas report of {}", path.display()), "", None);
    let counter = watch.counter();
    let report = store.report(max_cells, hottest, &mut |c| {
        counter.note(format!("level {c}"));
    });
    drop(watch);
    report.with_context(|| {
        format!(
            "atlas in {} (run `partizan atlas build --max-cells N`)",
            path.display()
        )
    })
}

/// A warning when this process's key is its own (no key file could be
/// kept): what it writes is sealed, but no later process believes it.
fn warn_unkept_key(what: &str) {
    let user = partizan_seal::user_key();
    if !user.is_kept() {
        eprintln!(
            "warning: {}; what this {what} writes will need `partizan atlas seal` by a process with a key file before it is believed",
            user.describe()
        );
    }
}

/// Run `partizan atlas ...`.
pub fn run(cmd: AtlasCmd, long: &crate::Long, json_out: bool) -> Result<()> {
    match cmd {
        AtlasCmd::Build(a) if a.cluster.is_some() => {
            warn_unkept_key("build");
            crate::atlas_cluster_cmd::build(&a, long, json_out)?;
        }
        AtlasCmd::Build(a) => {
            warn_unkept_key("build");
            let shard = a.shard.as_deref().map(parse_shard).transpose()?;
            let mut cfg = AtlasConfig::new(a.max_cells);
            if let Some(t) = a.threads {
                cfg.threads = t.max(1);
            }
            cfg.shard = shard;
            if let Some(n) = a.shards {
                if n == 0 {
                    bail!("--shards 0: want at least one shard");
                }
                cfg.shards = Some(n);
            }
            // the levels go to the store as they finish; keep only the stats
            cfg.keep_entries = false;
            let path = atlas_dir(&a.dir)?;
            let t0 = Instant::now();
            // Levels are kept as they finish, so a build stopped by the
            // memory budget resumes from them.
            let watch = long.watch(
                format!(
                    "atlas build to {} cells (levels kept in {})",
                    a.max_cells,
                    path.display()
                ),
                "levels",
                Some(a.max_cells as u64),
            );
            let atlas = build_watched(&cfg, &path, watch);
            let atlas = atlas?;
            let secs = t0.elapsed().as_secs_f64();
            if json_out {
                println!(
                    "{}",
                    json!({ "dir": path.display().to_string(), "seconds": secs,
                            "threads": cfg.threads, "levels": atlas.stats })
                );
            } else {
                print!(
                    "{}",
                    level_table(&atlas.stats, |s| if s.loaded {
                        "loaded"
                    } else {
                        "computed"
                    })
                );
                println!(
                    "atlas in {} ({secs:.2} s on {} threads)",
                    path.display(),
                    cfg.threads
                );
            }
        }
        AtlasCmd::Merge(a) => {
            warn_unkept_key("merge");
            let path = atlas_dir(&a.dir)?;
            let watch = long.watch(
                format!("atlas merge of {} shards of {} cells", a.shards, a.cells),
                "",
                None,
            );
            let counter = watch.counter();
            let level =
                DirStore::new(&path).merge_shards_with(a.cells, a.shards, a.verify, &mut |p| {
                    counter.note(if p.total > 0 {
                        format!("{} ({} of {})", p.step, p.done, p.total)
                    } else {
                        p.step.to_string()
                    });
                });
            drop(watch);
            let level = level?;
            if json_out {
                println!(
                    "{}",
                    json!({ "cells": level.cells, "classes": level.classes,
                            "new_values": level.new_values, "verified": level.verified })
                );
            } else {
                println!(
                    "merged {} shards: {} classes of {} cells, {} new values; {} sampled classes valued again by the board engine, all agreeing",
                    a.shards, level.classes, level.cells, level.new_values, level.verified
                );
            }
        }
        AtlasCmd::Report(a) => {
            let report = streamed_report(&a.dir, a.max_cells, a.hottest, long)?;
            if let Some(csv) = &a.csv {
                partizan_census::write_atomic(csv, &report.to_csv())?;
            }
            if json_out {
                println!("{}", report.to_json()?);
            } else {
                print!("{}", report.render_text());
            }
        }
        AtlasCmd::Index(a) => {
            let path = atlas_dir(&a.dir)?;
            let t0 = Instant::now();
            let done = DirStore::new(&path)
                .write_indexes(a.max_cells)
                .with_context(|| format!("atlas in {}", path.display()))?;
            let written: Vec<usize> = done.iter().filter(|d| d.1).map(|d| d.0).collect();
            let secs = t0.elapsed().as_secs_f64();
            if json_out {
                println!(
                    "{}",
                    json!({ "dir": path.display().to_string(), "levels": done.len(),
                            "written": written, "seconds": secs })
                );
            } else {
                println!(
                    "{} levels indexed in {}: {} written, {} already good ({secs:.2} s)",
                    done.len(),
                    path.display(),
                    written.len(),
                    done.len() - written.len()
                );
            }
        }
        AtlasCmd::Seal(a) => {
            let path = atlas_dir(&a.dir)?;
            let t0 = Instant::now();
            let watch = long.watch(format!("atlas seal of {}", path.display()), "", None);
            let counter = watch.counter();
            let done = DirStore::new(&path).adopt(a.max_cells, a.verify, &mut |c| {
                counter.note(format!("level {c}"));
            });
            drop(watch);
            let done = done.with_context(|| format!("atlas in {}", path.display()))?;
            let secs = t0.elapsed().as_secs_f64();
            let sealed: Vec<usize> = done
                .iter()
                .filter(|d| !d.was_sealed)
                .map(|d| d.cells)
                .collect();
            let verified: u64 = done.iter().map(|d| d.verified).sum();
            if json_out {
                println!(
                    "{}",
                    json!({ "dir": path.display().to_string(), "sealed": sealed,
                            "verified": verified, "levels": done, "seconds": secs })
                );
            } else {
                println!(
                    "{} levels in {}: {} checked and sealed with your key ({} sampled classes valued again by the board engine, all agreeing), {} sealed already ({secs:.2} s)",
                    done.len(),
                    path.display(),
                    sealed.len(),
                    verified,
                    done.len() - sealed.len()
                );
            }
        }
        AtlasCmd::Find(a) => {
            if a.value.is_none() && a.min_temperature.is_none() && a.kind.is_none() {
                bail!("give --value, --min-temperature or --kind");
            }
            let q = Query {
                value: a.value,
                min_temperature: a.min_temperature,
                kind: a.kind,
                max_cells: a.max_cells,
                limit: a.limit,
            };
            // the index answers in milliseconds; else the summaries, else the levels
            let path = atlas_dir(&a.dir)?;
            let (ans, load_s, max_cells) = DirStore::new(&path)
                .find(&q)
                .with_context(|| format!("atlas in {}", path.display()))?;
            if let Some(note) = &ans.note {
                eprintln!("note: {note}");
            }
            if json_out {
                println!(
                    "{}",
                    json!({ "total": ans.total, "regions": ans.regions,
                            "load_seconds": load_s, "query_seconds": ans.seconds,
                            "max_cells": max_cells, "source": ans.source })
                );
            } else {
                println!(
                    "{} regions up to {} cells ({:.1} ms in all, {:.1} ms to answer)",
                    ans.total,
                    max_cells,
                    load_s * 1e3,
                    ans.seconds * 1e3
                );
                for r in &ans.regions {
                    println!(
                        "{:>3} cells  {:<12} t={:<6} {}",
                        r.cells, r.value, r.temperature, r.board
                    );
                }
                if ans.total > ans.regions.len() as u64 {
                    println!("... (--limit to list more)");
                }
            }
        }
    }
    Ok(())
}

/// The atlas report to `max_cells` for `partizan census domineering`: read
/// from the atlas directory when it holds those sizes (`$PARTIZAN_ATLAS` or
/// the data directory), else built in memory on every core. Returns the
/// report and where it came from.
pub fn census_atlas_report(
    max_cells: usize,
    hottest: usize,
) -> Result<(partizan_census::AtlasReport, String)> {
    let dir = DirArg { dir: None };
    if let Ok(path) = atlas_dir(&dir) {
        if DirStore::new(&path).levels_present()? >= max_cells {
            let report = DirStore::new(&path).report(Some(max_cells), hottest, &mut |_| {})?;
            return Ok((report, path.display().to_string()));
        }
    }
    let atlas = Atlas::build(&AtlasConfig::new(max_cells), &mut partizan_census::NoStore)?;
    Ok((atlas.report(hottest), "computed".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The progress wrapper forwards the parts: a build stopped inside a
    /// level resumes from them through it.
    #[test]
    fn counted_levels_resume_inside_a_level() {
        let dir = std::env::temp_dir().join(format!("pz-atlas-counted-{}", std::process::id()));
        let watch =
            crate::meter::Watch::start("test", "levels", None, crate::meter::Show::Auto, u64::MAX);
        let counted = |d: &std::path::Path| CountedLevels {
            inner: DirStore::new(d),
            counter: watch.counter(),
        };
        let cfg = AtlasConfig {
            part_size: 20,
            part_budget: Some(4),
            ..AtlasConfig::new(7)
        };
        let stopped = Atlas::build(&cfg, &mut counted(&dir));
        assert!(stopped.is_err());
        let parts = std::fs::read_dir(&dir)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .contains(".part-")
            })
            .count();
        // each part with its seal beside it
        let parts = parts / 2;
        // level 6 in two parts (saved, then removed with the level), level
        // 7's first two of six parts
        assert_eq!(parts, 2, "the parts went through the wrapper");
        // four more finish level 7 only if the stored two are loaded
        // through the wrapper, not recomputed
        let done = Atlas::build(&cfg, &mut counted(&dir)).unwrap();
        assert_eq!(done.stats.len(), 7);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
