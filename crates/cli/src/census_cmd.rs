//! `partizan census RULESET --max-cells N`: the region census and its tables.

use std::path::PathBuf;

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
    /// Every region of up to this many cells: 1 to 16 for domineering and
    /// cram (a census holds every region in memory: 16 cells took about
    /// 9 minutes of CPU and 12 GB; the value atlas, `partizan atlas build`,
    /// goes to 18), 1 to 12 for snort, col and nogo.
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
    /// Domineering: also write the value atlas's kind counts (cells, family,
    /// detail, regions) as CSV to this file.
    #[arg(long, value_name = "FILE")]
    pub atlas_csv: Option<PathBuf>,
    /// Domineering: how many of the hottest regions the atlas report lists.
    #[arg(long, default_value_t = 10)]
    pub hottest: usize,
    /// Also print the essays' analyses: Domineering's magnitude rule on hot
    /// regions, shading toward nought, long even runs, the seventy, regions
    /// with holes; Cram's packing parity against the outcome.
    #[arg(long)]
    pub analyses: bool,
}

/// Counts the shapes a census has valued, for the progress line.
struct Counted<V> {
    inner: V,
    counter: crate::meter::WatchCounter,
}

impl<V: ShapeValues> ShapeValues for Counted<V> {
    type Error = V::Error;
    fn value(&mut self, arena: &mut Arena, shape: &Shape) -> Result<GameId, V::Error> {
        self.counter.add(1);
        self.inner.value(arena, shape)
    }
}

/// Run `partizan census`.
pub fn run(args: CensusArgs, long: &crate::Long, json_out: bool) -> Result<()> {
    let rules = crate::rulesets::rules(&args.ruleset)?;
    if matches!(rules, Rules::Domineering | Rules::Cram) {
        check_max_cells(args.max_cells)?;
    }
    for path in [&args.csv, &args.atlas_csv].into_iter().flatten() {
        check_writable(path)?;
    }
    match rules {
        Rules::Domineering => domineering(args, long, json_out),
        Rules::Cram => cram(args, long, json_out),
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

fn domineering(args: CensusArgs, long: &crate::Long, json_out: bool) -> Result<()> {
    let mut arena = Arena::new();
    let catalogue = build_catalogue(Group::RowPreserving, args.max_cells)?;
    let census = {
        let watch = long.watch(
            format!("census to {} cells", args.max_cells),
            "shapes",
            Some(catalogue.len() as u64),
        );
        let mut counted = Counted {
            inner: DomineeringValues::new(),
            counter: watch.counter(),
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
        let _watch = long.watch("census boards", "", None);
        Some(board_census(&census, &mut arena, &cfg)?)
    } else {
        None
    };
    // the value atlas's tables beside the packing readings
    let (atlas, atlas_from) = crate::atlas_cmd::census_atlas_report(args.max_cells, args.hottest)?;
    if let Some(path) = &args.atlas_csv {
        partizan_census::write_atomic(path, &atlas.to_csv())?;
    }
    let analyses = if args.analyses {
        Some(partizan_census::analyses::domineering(&census)?)
    } else {
        None
    };
    // The report carries its own ruleset and parameters.
    let mut v: serde_json::Value = serde_json::from_str(&census.report.to_json()?)?;
    if json_out {
        if let Some(b) = &boards {
            v["boards"] = serde_json::from_str(&b.to_json()?)?;
        }
        v["atlas"] = serde_json::from_str(&atlas.to_json()?)?;
        v["atlas"]["source"] = atlas_from.into();
        if let Some(a) = &analyses {
            v["analyses"] = serde_json::from_str(&a.to_json()?)?;
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        print!("{}", census.report.render_text());
        if let Some(b) = &boards {
            println!();
            print!("{}", b.render_text());
        }
        println!("\n(value atlas: {atlas_from})");
        print!("{}", atlas.render_text());
        if let Some(a) = &analyses {
            println!();
            print!("{}", a.render_text());
        }
    }
    Ok(())
}

fn cram(args: CensusArgs, long: &crate::Long, json_out: bool) -> Result<()> {
    if args.boards {
        bail!("--boards adds packing readings, which the Cram census does not take");
    }
    let watch = long.watch(format!("census to {} cells", args.max_cells), "", None);
    let census = CramCensus::run(args.max_cells);
    drop(watch);
    let census = census?;
    if let Some(path) = &args.csv {
        census.write_csv(path)?;
    }
    let analyses = if args.analyses {
        Some(partizan_census::analyses::cram(&census)?)
    } else {
        None
    };
    let mut v: serde_json::Value = serde_json::from_str(&census.report.to_json()?)?;
    if json_out {
        if let Some(a) = &analyses {
            v["analyses"] = serde_json::from_str(&a.to_json()?)?;
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        print!("{}", census.report.render_text());
        if let Some(a) = &analyses {
            println!();
            print!("{}", a.render_text());
        }
    }
    Ok(())
}
