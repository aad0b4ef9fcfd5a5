//! `partizan value` and `partizan graph`.

use anyhow::{Context, Result};
use clap::Args;
use partizan_core::Arena;
use partizan_games::Ruleset;
use partizan_solve::{graph, Decompose, Savings, Solver};
use partizan_web::report::value_json;
use serde_json::json;

use crate::store_cmd::StoreChoice;
use crate::with_ruleset;

/// Arguments of `partizan value`.
#[derive(Args, Debug)]
pub struct ValueArgs {
    /// Ruleset: domineering, cram, clobber, konane, amazons.
    pub ruleset: String,
    /// Board text: rows separated by '|' or newlines.
    pub board: String,
    /// Turn off the memo table.
    #[arg(long)]
    pub no_memo: bool,
    /// When to split into regions: every, root, conditional, off.
    #[arg(long, default_value = "every")]
    pub decompose: String,
    /// Turn off symmetry folding.
    #[arg(long)]
    pub no_symmetry: bool,
    /// Print the solver's counts too (always present in --json).
    #[arg(long)]
    pub stats: bool,
    /// Refused: misère values do not add over regions (use `outcome --misere`).
    #[arg(long)]
    pub misere: bool,
}

/// Arguments of `partizan graph`.
#[derive(Args, Debug)]
pub struct GraphArgs {
    /// Ruleset: domineering, cram, clobber, konane, amazons.
    pub ruleset: String,
    /// Board text: rows separated by '|' or newlines.
    pub board: String,
}

/// `partizan value RULESET BOARD`.
pub fn value(args: ValueArgs, store: &StoreChoice, json_out: bool) -> Result<()> {
    if args.misere {
        anyhow::bail!(
            "misère values are not computed by sums: under misère play the value of a board is not the sum of its regions' values, so decomposition cannot be used to add them; ask `partizan outcome {} BOARD --misere` for who wins",
            args.ruleset
        );
    }
    let savings = Savings {
        memo: !args.no_memo,
        decompose: args.decompose.parse::<Decompose>()?,
        symmetry: !args.no_symmetry,
    };
    with_ruleset!(args.ruleset, |r| {
        let board = r
            .parse(&args.board)
            .with_context(|| format!("bad {} board", r.name()))?;
        let (st, busy) = store.open_unless_busy()?;
        if let Some(e) = busy {
            eprintln!("warning: {e}; running without the store");
        }
        let mut session = st.as_ref().map(|s| {
            let mut session = s.session();
            session.set_label(format!("value {} {}", r.name(), r.format(&board)));
            session
        });
        let mut arena = Arena::new();
        let (g, stats) = {
            let mut solver = Solver::new(r, savings)?;
            if let Some(s) = session.as_mut() {
                solver = solver.with_table(s);
            }
            let g = solver.value(&mut arena, &board)?;
            (g, solver.stats())
        };
        if let Some(s) = session {
            s.finish()?;
        }
        let mut out = value_json(&mut arena, g);
        out["ruleset"] = json!(r.name());
        out["board"] = json!(r.format(&board));
        out["stats"] = serde_json::to_value(stats)?;
        out["savings"] = serde_json::to_value(savings)?;
        out["store"] = match &st {
            Some(s) => json!({
                "path": s.path().display().to_string(),
                "hits": stats.store_hits,
                "added": stats.store_added,
            }),
            None => serde_json::Value::Null,
        };
        if json_out {
            println!("{}", serde_json::to_string_pretty(&out)?);
        } else {
            println!("{}", out["value"].as_str().unwrap_or_default());
            if args.stats {
                println!(
                    "outcome {}  stops {} / {}  temperature {}",
                    out["outcome"].as_str().unwrap_or_default(),
                    out["left_stop"].as_str().unwrap_or_default(),
                    out["right_stop"].as_str().unwrap_or_default(),
                    out["temperature"].as_str().unwrap_or_default()
                );
                println!(
                    "nodes {}  distinct {}  hits {}  passes {}  splits {}  regions {}",
                    stats.nodes,
                    stats.distinct,
                    stats.hits,
                    stats.passes,
                    stats.splits,
                    stats.regions
                );
            }
        }
        Ok(())
    })
}

/// `partizan graph RULESET BOARD`.
pub fn graph(args: GraphArgs, json_out: bool) -> Result<()> {
    with_ruleset!(args.ruleset, |r| {
        let board = r
            .parse(&args.board)
            .with_context(|| format!("bad {} board", r.name()))?;
        let report = graph::region_report(r, &board)?;
        if json_out {
            println!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            println!("positions   {}", report.positions);
            println!("tree nodes  {}", report.tree_nodes);
            for (i, reg) in report.regions.iter().enumerate() {
                println!(
                    "region {}: {} cells, {} positions",
                    i + 1,
                    reg.cells.count_ones(),
                    reg.positions
                );
            }
            println!("product     {}", report.product);
        }
        Ok(())
    })
}

/// Arguments of `partizan decompose`.
#[derive(Args, Debug)]
pub struct DecomposeArgs {
    /// Ruleset: domineering, cram, clobber, konane, amazons.
    pub ruleset: String,
    /// Board text: rows separated by '|' or newlines.
    pub board: String,
    /// Run a full evaluation in every decomposition mode and report where
    /// positions fell apart, what the passes cost and what they saved.
    #[arg(long)]
    pub stats: bool,
}

/// `partizan decompose RULESET BOARD [--stats]`.
pub fn decompose(args: DecomposeArgs, json_out: bool) -> Result<()> {
    with_ruleset!(args.ruleset, |r| {
        let board = r
            .parse(&args.board)
            .with_context(|| format!("bad {} board", r.name()))?;
        if !args.stats {
            let report = graph::region_report(r, &board)?;
            let sum: u64 = report.regions.iter().map(|g| g.positions).sum();
            if json_out {
                let mut v = serde_json::to_value(&report)?;
                v["region_sum"] = json!(sum);
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                println!(
                    "{} regions; whole {} positions, product {}, sum {}",
                    report.regions.len(),
                    report.positions,
                    report.product,
                    sum
                );
            }
            return Ok(());
        }
        let study = partizan_solve::study::study(r, &board)?;
        if json_out {
            println!("{}", serde_json::to_string_pretty(&study)?);
        } else {
            println!("board {} ({})", study.board, study.ruleset);
            println!(
                "whole {} positions; {} regions, sum {}, product {}; pass visits {} squares",
                study.graph.positions,
                study.graph.regions.len(),
                study.region_sum,
                study.graph.product,
                study.root_pass_squares
            );
            println!(
                "{:<12} {:>10} {:>10} {:>10} {:>10} {:>10} {:>12}",
                "mode", "nodes", "searched", "passes", "splits", "squares", "saved"
            );
            for m in &study.modes {
                println!(
                    "{:<12} {:>10} {:>10} {:>10} {:>10} {:>10} {:>12}",
                    format!("{:?}", m.mode),
                    m.stats.nodes,
                    m.stats.distinct,
                    m.stats.passes,
                    m.stats.splits,
                    m.pass_cost,
                    m.positions_saved
                );
            }
            if let Some(m) = study.modes.iter().find(|m| m.mode == Decompose::EveryNode) {
                println!("splits by depth (every-node): depth passes splits");
                for (d, c) in &m.detail.by_depth {
                    println!("  {d:>3} {:>10} {:>10}", c.passes, c.splits);
                }
                println!("regions per split: {:?}", m.detail.parts);
                println!("region sizes (cells: count): {:?}", m.detail.region_sizes);
            }
        }
        Ok(())
    })
}

/// Arguments of `partizan game`.
#[derive(Args, Debug)]
pub struct GameArgs {
    /// Values in CGSuite notation (`0`, `3/2`, `*2`, `^`, `v*`, `±1`,
    /// `{2|0||-1}`); several are added together.
    #[arg(required = true, allow_hyphen_values = true)]
    pub values: Vec<String>,
}

/// `partizan game VALUE...`: the canonical form of a value written in
/// CGSuite notation (the sum, if several), with outcome, stops and
/// temperature.
pub fn game(args: GameArgs, json_out: bool) -> Result<()> {
    // Values may start with '-', so the list takes hyphenated words; a
    // `--json` among them is still the flag.
    let json_out = json_out || args.values.iter().any(|v| v == "--json");
    let values: Vec<&String> = args.values.iter().filter(|v| *v != "--json").collect();
    let mut arena = Arena::new();
    let mut total = arena.zero();
    for (i, text) in values.iter().enumerate() {
        let g = arena
            .parse(text)
            .with_context(|| format!("bad value notation in argument {} '{}'", i + 1, text))?;
        total = arena.sum(total, g)?;
    }
    let out = value_json(&mut arena, total);
    if json_out {
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!("{}", out["value"].as_str().unwrap_or_default());
    }
    Ok(())
}
