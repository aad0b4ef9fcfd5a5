//! `partizan outcome RULESET BOARD`: who wins, for each first player, by
//! the library's outcome search (`partizan_solve::search`), with a winning
//! first move for each player who has one, node counts and table figures.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args;
use partizan_games::{Board, Ruleset};
use partizan_solve::outcome::Convention;
use partizan_solve::search::certificate::{self, Certificate};
use partizan_solve::search::{
    changed_cells, solve, Control, FirstPlayer, MoveOrdering, Parallel, Progress, SearchConfig,
    SearchError,
};
use serde_json::json;

use crate::with_ruleset;

/// Arguments of `partizan outcome`.
#[derive(Args, Debug)]
pub struct OutcomeArgs {
    /// Ruleset: domineering, cram, clobber, konane, amazons.
    pub ruleset: String,
    /// Board text: rows separated by '|' or newlines.
    pub board: String,
    /// Misère play: the player who cannot move wins.
    #[arg(long)]
    pub misere: bool,
    /// Transposition table size in MB (default: sized to the board and
    /// the machine's available memory).
    #[arg(long, value_name = "MB")]
    pub table_mb: Option<u64>,
    /// Stop with an error if the process grows past this many MB: the
    /// global `--max-memory` (or its default), set by `main`.
    #[arg(skip)]
    pub max_memory: Option<u64>,
    /// Plain progress lines at this interval (the global `--progress`),
    /// set by `main`.
    #[arg(skip)]
    pub progress_lines: Option<Duration>,
    /// Threads: 1 or 2 (default: 2 when the machine has two cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// How two threads share the work: root-split (each takes every other
    /// first move) or first-players (one thread per first player).
    #[arg(long, default_value = "root-split")]
    pub parallel: String,
    /// Regions of at most this many cells are answered by exact values
    /// (normal play; 0 turns it off; default: the ruleset's own, 12 for
    /// Domineering and Cram, 8 for Clobber and Konane, 6 for Amazons).
    #[arg(long)]
    pub value_cells: Option<u32>,
    /// Move ordering: natural, mobility or safety.
    #[arg(long, default_value = "safety")]
    pub ordering: String,
    /// Do not cut off lines by the ruleset's move bounds.
    #[arg(long)]
    pub no_bounds: bool,
    /// Do not share table entries between mirror images.
    #[arg(long)]
    pub no_symmetry: bool,
    /// Use the general engine even where the ruleset has a search of its
    /// own (Domineering's fast path; the general engine is its twin).
    #[arg(long)]
    pub general: bool,
    /// Give up after this many nodes.
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Write the winning strategies as a certificate that `partizan check
    /// FILE` replays (searches with one thread).
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<std::path::PathBuf>,
}

/// Arguments of `partizan check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// A certificate written by `partizan outcome --certificate FILE`.
    pub file: std::path::PathBuf,
    /// Give up after replaying this many positions.
    #[arg(long, default_value_t = 100_000_000)]
    pub max_positions: u64,
}

/// `partizan check FILE`: replay a certificate move by move.
pub fn check(args: CheckArgs, json_out: bool) -> Result<()> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let cert = Certificate::parse(&text)?;
    let name = cert.ruleset.clone();
    with_ruleset!(name, |r| {
        let start = std::time::Instant::now();
        let rep = certificate::check(r, &cert, args.max_positions)?;
        if json_out {
            let out = json!({
                "valid": true,
                "ruleset": cert.ruleset,
                "board": cert.board,
                "outcome": cert.claims.class(),
                "left_first_wins": cert.claims.left_first,
                "right_first_wins": cert.claims.right_first,
                "check": serde_json::to_value(rep)?,
                "time_ms": start.elapsed().as_secs_f64() * 1e3,
            });
            println!("{}", serde_json::to_string_pretty(&out)?);
        } else {
            println!(
                "valid: {} {} is {} ({} positions replayed, {} decided by values, {} records)",
                cert.ruleset,
                cert.board,
                cert.claims.class(),
                rep.positions,
                rep.by_value,
                rep.records
            );
        }
        Ok(())
    })
}

/// Resident set size of this process in bytes (Linux), if known.
fn rss_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = s.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// Available memory in bytes (Linux), if known.
fn available_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = s.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The default table: small boards need little; big ones get an eighth of
/// the available memory, at most 1 GB.
fn default_table_mb(cells: u32) -> u64 {
    let by_board = match cells {
        0..=30 => 16,
        31..=48 => 64,
        _ => 1024,
    };
    let by_machine = available_bytes().map_or(256, |b| (b >> 20) / 8).max(8);
    by_board.min(by_machine)
}

/// A winning move as the cells it changed (1-based row, column) and the
/// board after it.
fn move_json<R: Ruleset>(r: &R, root: &Board, fp: &FirstPlayer) -> serde_json::Value {
    match &fp.winning_move {
        Some(after) => json!({
            "cells": changed_cells(root, after)
                .into_iter()
                .map(|(row, col)| [row + 1, col + 1])
                .collect::<Vec<_>>(),
            "board": r.format(after),
        }),
        None => serde_json::Value::Null,
    }
}

fn move_text(root: &Board, fp: &FirstPlayer) -> String {
    match &fp.winning_move {
        Some(after) => changed_cells(root, after)
            .into_iter()
            .map(|(r, c)| format!("r{}c{}", r + 1, c + 1))
            .collect::<Vec<_>>()
            .join("-"),
        None => "(no move needed)".to_string(),
    }
}

/// `partizan outcome RULESET BOARD [--misere] [--table-mb MB] ...`.
pub fn run(args: OutcomeArgs, json_out: bool) -> Result<()> {
    with_ruleset!(args.ruleset, |r| {
        let board = r
            .parse(&args.board)
            .with_context(|| format!("bad {} board", r.name()))?;
        let convention = if args.misere {
            Convention::Misere
        } else {
            Convention::Normal
        };
        let mut cfg = SearchConfig::for_ruleset(r, convention);
        if let (Convention::Normal, Some(v)) = (convention, args.value_cells) {
            cfg.value_cells = v;
        }
        cfg.ordering = args.ordering.parse::<MoveOrdering>()?;
        cfg.parallel = args.parallel.parse::<Parallel>()?;
        cfg.bounds = !args.no_bounds;
        cfg.symmetry = !args.no_symmetry;
        cfg.fast = !args.general;
        cfg.max_nodes = args.max_nodes;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        cfg.threads = args.threads.unwrap_or(if cores >= 2 { 2 } else { 1 });
        if cfg.threads == 0 || cfg.threads > 2 {
            bail!("--threads must be 1 or 2, not {}", cfg.threads);
        }
        let table_mb = args
            .table_mb
            .unwrap_or_else(|| default_table_mb(r.cells(&board).count_ones()));
        if table_mb == 0 {
            bail!("--table-mb must be at least 1");
        }
        if let Some(max) = args.max_memory {
            if table_mb + 8 > max {
                bail!(
                    "--table-mb {table_mb} does not fit in --max-memory {max} (the table plus at least 8 MB)"
                );
            }
        }
        cfg.table_bytes = usize::try_from(table_mb << 20).context("--table-mb is too large")?;

        // Progress on a terminal; the memory watchdog either way.
        let stop = AtomicBool::new(false);
        let over = Mutex::new(None::<u64>);
        let lines = args.progress_lines;
        let tty = std::io::stderr().is_terminal() && !json_out && lines.is_none();
        let max_bytes = args.max_memory.map(|m| m << 20);
        let started = std::time::Instant::now();
        let last_line = Mutex::new(started);
        let progress = |p: &Progress| {
            if let (Some(max), Some(rss)) = (max_bytes, rss_bytes()) {
                if rss > max {
                    if let Ok(mut o) = over.lock() {
                        *o = Some(rss);
                    }
                    stop.store(true, Ordering::Relaxed);
                }
            }
            let due = lines.is_some_and(|every| {
                last_line.lock().is_ok_and(|mut t| {
                    let due = t.elapsed() >= every;
                    if due {
                        *t = std::time::Instant::now();
                    }
                    due
                })
            });
            if tty || due {
                let line: Vec<String> = p.line.iter().map(|(k, n)| format!("{k}/{n}")).collect();
                let msg = format!(
                    "{} first: {} nodes, {:.0}/s, table {:.1}% full, line {}",
                    if p.left_first { "Left" } else { "Right" },
                    p.nodes,
                    p.nodes_per_sec,
                    100.0 * p.table_filled as f64 / p.table_capacity.max(1) as f64,
                    line.join(" ")
                );
                if tty {
                    eprint!("\r{msg}\x1b[K");
                } else {
                    eprintln!(
                        "outcome {}: {msg}  {:.1} s",
                        r.name(),
                        started.elapsed().as_secs_f64()
                    );
                }
            }
        };
        let control = Control {
            stop: Some(&stop),
            progress: Some(&progress),
            interval: if tty {
                Duration::from_millis(250)
            } else {
                Duration::from_millis(100)
            },
        };
        let result = match &args.certificate {
            None => solve(r, &board, &cfg, &control),
            Some(path) => certificate::solve_with_certificate(r, &board, &cfg, &control).and_then(
                |(rep, cert)| {
                    std::fs::write(path, cert.to_text()).map_err(|e| {
                        SearchError::Inconsistent(format!(
                            "cannot write the certificate to {}: {e}",
                            path.display()
                        ))
                    })?;
                    Ok(rep)
                },
            ),
        };
        if tty {
            eprint!("\r\x1b[K");
        }
        if lines.is_some() && result.is_ok() {
            eprintln!(
                "outcome {}: done, {} MB  {:.1} s",
                r.name(),
                crate::meter::resident_bytes() >> 20,
                started.elapsed().as_secs_f64()
            );
        }
        let rep = match result {
            Ok(rep) => rep,
            Err(SearchError::Stopped { nodes }) => {
                let rss = over.lock().ok().and_then(|o| *o).unwrap_or(0);
                bail!(
                    "memory limit: the process grew to {} MB, over --max-memory {} MB, after {nodes} nodes (try a smaller --table-mb or --value-cells)",
                    rss >> 20,
                    args.max_memory.unwrap_or(0)
                );
            }
            Err(e) => return Err(e.into()),
        };
        let out = json!({
            "convention": convention,
            "outcome": rep.outcomes.class(),
            "left_first_wins": rep.outcomes.left_first,
            "right_first_wins": rep.outcomes.right_first,
            "first_players": {
                "left": {
                    "wins": rep.left.wins,
                    "move": move_json(r, &board, &rep.left),
                    "nodes": rep.left.counts.nodes,
                    "counts": serde_json::to_value(rep.left.counts)?,
                    "time_ms": rep.left.elapsed.as_secs_f64() * 1e3,
                },
                "right": {
                    "wins": rep.right.wins,
                    "move": move_json(r, &board, &rep.right),
                    "nodes": rep.right.counts.nodes,
                    "counts": serde_json::to_value(rep.right.counts)?,
                    "time_ms": rep.right.elapsed.as_secs_f64() * 1e3,
                },
            },
            "stats": serde_json::to_value(rep.total())?,
            "table": serde_json::to_value(rep.table)?,
            "config": serde_json::to_value(rep.config)?,
            "time_ms": rep.elapsed.as_secs_f64() * 1e3,
        });
        if json_out {
            println!("{}", serde_json::to_string_pretty(&out)?);
        } else {
            println!("{}", rep.outcomes.class());
            for (name, fp) in [("Left", &rep.left), ("Right", &rep.right)] {
                println!(
                    "{name} first: {}{}  ({} nodes, {:.2?})",
                    if fp.wins { "wins" } else { "loses" },
                    if fp.wins {
                        format!(" with {}", move_text(&board, fp))
                    } else {
                        String::new()
                    },
                    fp.counts.nodes,
                    fp.elapsed
                );
            }
            println!(
                "table: {} of {} entries, {} hits in {} probes; {:.2?}",
                rep.table.filled, rep.table.capacity, rep.table.hits, rep.table.probes, rep.elapsed
            );
        }
        Ok(())
    })
}
