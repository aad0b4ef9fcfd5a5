//! `partizan census RULESET --max-cells N`: the region census and its tables.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Args;
use partizan_census::{
    board_census, build_catalogue, check_max_cells, BoardConfig, Census, CramCensus,
    DomineeringValues, Group, Shape, ShapeValues,
};
use partizan_core::{Arena, GameId};
use partizan_games::Rules;

/// Arguments of `partizan census`.
#[derive(Args, Debug)]
pub struct CensusArgs {
    /// Ruleset: domineering (values and packing readings), cram (nim-values),
    /// or snort, col, nogo (empty regions: outcomes and kinds of value by size).
    pub ruleset: String,
    /// Every region of up to this many cells (1 to 15).
    #[arg(long, default_value_t = 8)]
    pub max_cells: usize,
    /// Write one row per shape to this CSV file (atomically: temp file, then rename).
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Also add up the readings over boards of 1 to --max-regions regions.
    #[arg(long)]
    pub boards: bool,
    /// Boards: regions per board, at most.
    #[arg(long, default_value_t = 4)]
    pub max_regions: usize,
    /// Boards: samples per region count when not exhaustive.
    #[arg(long, default_value_t = 20_000)]
    pub samples: u64,
    /// Boards: seed of the sampler (runs are reproducible).
    #[arg(long, default_value_t = 0x5EED_CE45)]
    pub seed: u64,
    /// Boards: visit every board when there are at most this many.
    #[arg(long, default_value_t = 20_000)]
    pub exhaustive_limit: u64,
    /// Boards: draw regions only from the number-valued shapes.
    #[arg(long)]
    pub numbers_only: bool,
}

/// A progress bar on a terminal's stderr while a long census runs: shapes
/// valued out of the catalogue's size, and the time so far. Silent when
/// stderr is not a terminal (pipes, CI) and for runs under a second.
struct Progress {
    done: Arc<AtomicBool>,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    fn start(label: String, counter: Arc<AtomicU64>, total: u64) -> Progress {
        let done = Arc::new(AtomicBool::new(false));
        let handle = std::io::stderr().is_terminal().then(|| {
            let done = done.clone();
            std::thread::spawn(move || {
                let t = Instant::now();
                let mut drawn = false;
                while !done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(200));
                    if t.elapsed() > Duration::from_secs(1) {
                        let n = counter.load(Ordering::Relaxed).min(total);
                        let width = 30;
                        let filled = (n * width as u64)
                            .checked_div(total)
                            .map_or(width, |f| f as usize);
                        eprint!(
                            "\r{label} [{}{}] {n}/{total} shapes  {:.0} s",
                            "#".repeat(filled),
                            "-".repeat(width - filled),
                            t.elapsed().as_secs_f64()
                        );
                        drawn = true;
                    }
                }
                if drawn {
                    eprint!("\r{}\r", " ".repeat(label.len() + 80));
                }
            })
        });
        Progress { done, handle }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// Counts the shapes a census has valued, for the progress bar.
struct Counted<V> {
    inner: V,
    counter: Arc<AtomicU64>,
}

impl<V: ShapeValues> ShapeValues for Counted<V> {
    type Error = V::Error;
    fn value(&mut self, arena: &mut Arena, shape: &Shape) -> Result<GameId, V::Error> {
        self.counter.fetch_add(1, Ordering::Relaxed);
        self.inner.value(arena, shape)
    }
}

/// Run `partizan census`.
pub fn run(args: CensusArgs, json_out: bool) -> Result<()> {
    check_max_cells(args.max_cells)?;
    if let Some(path) = &args.csv {
        check_writable(path)?;
    }
    match crate::rulesets::rules(&args.ruleset)? {
        Rules::Domineering => domineering(args, json_out),
        Rules::Cram => cram(args, json_out),
        other => empty_regions(other, &args, json_out),
    }
}

/// The empty-region census of any other grid placement ruleset (Snort,
/// Col, NoGo): outcome classes and kinds of value by size.
fn empty_regions(rules: Rules, args: &CensusArgs, json_out: bool) -> Result<()> {
    if args.boards || args.csv.is_some() {
        bail!("--boards and --csv belong to the domineering and cram censuses");
    }
    let report = partizan_games::with_rules!(rules, |r| {
        partizan_census::empty_regions::census(r, args.max_cells, &|| false)
    })?;
    if json_out {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.render_text());
    }
    Ok(())
}

/// Fail early, before a long census, if the CSV's directory cannot take it.
fn check_writable(path: &std::path::Path) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        bail!(
            "cannot write CSV {}: directory {} does not exist",
            path.display(),
            dir.display()
        );
    }
    if path.is_dir() {
        bail!("cannot write CSV {}: it is a directory", path.display());
    }
    // The CSV replaces what is at the path by rename: only ever a regular
    // file, never a symlink's target or a device node.
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if !meta.file_type().is_file() {
            bail!(
                "cannot write CSV {}: it exists and is not a regular file (a link, device or socket); choose another path",
                path.display()
            );
        }
    }
    let probe = dir.join(format!(".partizan-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").with_context(|| {
        format!(
            "cannot write CSV {}: directory {} is not writable",
            path.display(),
            dir.display()
        )
    })?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

fn domineering(args: CensusArgs, json_out: bool) -> Result<()> {
    let mut arena = Arena::new();
    let catalogue = build_catalogue(Group::RowPreserving, args.max_cells)?;
    let counter = Arc::new(AtomicU64::new(0));
    let census = {
        let _p = Progress::start(
            format!("census to {} cells", args.max_cells),
            counter.clone(),
            catalogue.len() as u64,
        );
        let mut counted = Counted {
            inner: DomineeringValues::new(),
            counter,
        };
        Census::run(&catalogue, &mut arena, &mut counted)?
    };
    if let Some(path) = &args.csv {
        census.write_csv(path)?;
    }
    let boards = if args.boards {
        let cfg = BoardConfig {
            max_regions: args.max_regions,
            samples: args.samples,
            seed: args.seed,
            exhaustive_limit: args.exhaustive_limit,
            numbers_only: args.numbers_only,
        };
        Some(board_census(&census, &mut arena, &cfg)?)
    } else {
        None
    };
    // The report carries its own ruleset and parameters.
    let mut v: serde_json::Value = serde_json::from_str(&census.report.to_json()?)?;
    if json_out {
        if let Some(b) = &boards {
            v["boards"] = serde_json::from_str(&b.to_json()?)?;
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        print!("{}", census.report.render_text());
        if let Some(b) = &boards {
            println!();
            print!("{}", b.render_text());
        }
    }
    Ok(())
}

fn cram(args: CensusArgs, json_out: bool) -> Result<()> {
    if args.boards {
        bail!("--boards adds packing readings, which the Cram census does not take");
    }
    let census = CramCensus::run(args.max_cells)?;
    if let Some(path) = &args.csv {
        census.write_csv(path)?;
    }
    let v: serde_json::Value = serde_json::from_str(&census.report.to_json()?)?;
    if json_out {
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        print!("{}", census.report.render_text());
    }
    Ok(())
}
