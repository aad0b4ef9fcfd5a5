//! `partizan parts`: the table of essay 000 ("finding the parts") — what a
//! region pass costs and saves, board by board — and its distributional
//! rung, random playouts.

use anyhow::{Context, Result};
use clap::Args;
use partizan_report::{parts_table, PartsAsk};
use partizan_solve::parts;

use crate::with_ruleset;

/// Arguments of `partizan parts`.
#[derive(Args, Debug)]
pub struct PartsArgs {
    /// Ruleset (see `partizan rulesets`).
    pub ruleset: String,
    /// Boards, one row of the table each.
    #[arg(required = true)]
    pub boards: Vec<String>,
    /// Also each board one row down (its last row removed).
    #[arg(long)]
    pub one_row_down: bool,
    /// Instead of the boards themselves: a wall moved across the (first)
    /// board, a full column blocked at each column, then a full row at each row.
    #[arg(long)]
    pub wall_positions: bool,
    /// Instead of the table: this many random playouts from the (first)
    /// board, with decomposition by depth and the per-node pass's time ratio.
    #[arg(long, value_name = "N")]
    pub playouts: Option<u64>,
    /// Seed of the playouts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Run `partizan parts`.
pub fn run(args: PartsArgs, json_out: bool) -> Result<()> {
    with_ruleset!(args.ruleset, |r| {
        let parse = |t: &str| {
            r.parse(t)
                .with_context(|| format!("bad {} board '{t}'", r.name()))
        };
        if let Some(n) = args.playouts {
            if n == 0 || n > 10_000_000 {
                anyhow::bail!("--playouts takes 1 to 10,000,000");
            }
            let b = parse(&args.boards[0])?;
            let p = parts::playouts(r, &b, n, args.seed)?;
            if json_out {
                println!("{}", serde_json::to_string_pretty(&p)?);
            } else {
                println!(
                    "{} {}: {} playouts (seed {}); {:.1}% of positions met decompose",
                    p.ruleset,
                    p.board,
                    p.playouts,
                    p.seed,
                    100.0 * p.decomposed_share
                );
                println!(
                    "{:>5} {:>10} {:>11} {:>12}",
                    "depth", "positions", "decomposed", "mean regions"
                );
                for (d, row) in &p.by_depth {
                    println!(
                        "{d:>5} {:>10} {:>11} {:>12.2}",
                        row.positions,
                        row.decomposed,
                        row.regions as f64 / row.positions.max(1) as f64
                    );
                }
                println!("part sizes (cells: parts): {:?}", p.part_sizes);
                println!(
                    "valuing it: pass at every node {:.3} s, no pass {:.3} s, ratio {:.2} ({})",
                    p.every_node_seconds,
                    p.no_pass_seconds,
                    p.time_ratio,
                    if p.time_ratio < 1.0 {
                        "the pass pays"
                    } else {
                        "the pass does not pay"
                    }
                );
            }
            return Ok(());
        }
        let ask = PartsAsk {
            boards: args.boards.clone(),
            one_row_down: args.one_row_down,
            wall_positions: args.wall_positions,
        };
        let table = parts_table(r, &ask.boards(r)?, None)?;
        if json_out {
            println!("{}", serde_json::to_string_pretty(&table)?);
        } else {
            println!(
                "{:<28} {:>7} {:>5} {:>7} {:>9} {:>7} {:>9} {:>9} {:>9}",
                "board",
                "squares",
                "free",
                "regions",
                "whole",
                "sum",
                "product",
                "saved",
                "per square"
            );
            for x in &table.rows {
                println!(
                    "{:<28} {:>7} {:>5} {:>7} {:>9} {:>7} {:>9} {:>9} {:>9.1}",
                    x.board,
                    x.squares,
                    x.free_squares,
                    x.regions,
                    x.whole,
                    x.sum,
                    x.product,
                    x.saved,
                    x.saved_per_square
                );
            }
        }
        Ok(())
    })
}
