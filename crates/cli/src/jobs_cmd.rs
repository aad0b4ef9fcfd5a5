//! `partizan outcome RULESET BOARD --jobs N`: the board decided by the
//! job-level proof-number search of `partizan_jobs` on N local workers.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Result};
use partizan_games::{Board, Player};
use partizan_jobs::persist::{save, start_or_resume};
use partizan_jobs::{search_from, JobReport, JobsConfig, LocalWorker, MasterControl, Worker};
use partizan_solve::search::{First, Knowledge, MAX_THREADS};
use serde::Serialize;

use crate::outcome_cmd::OutcomeArgs;

#[derive(Serialize)]
struct JobsOutput<'a> {
    ruleset: &'a str,
    board: String,
    /// L, R, N or P when both first players were searched.
    class: Option<&'static str>,
    searches: Vec<JobReport>,
}

/// Run the job-level search for the first players `args` ask for.
pub fn run<R: Knowledge + Copy + 'static>(
    r: &R,
    board: &Board,
    args: &OutcomeArgs,
    workers: usize,
    json_out: bool,
) -> Result<()> {
    if !(1..=MAX_THREADS).contains(&workers) {
        bail!("--jobs must be between 1 and {MAX_THREADS} workers, not {workers}");
    }
    let first: First = args.first.parse()?;
    let firsts: Vec<Player> = [Player::Left, Player::Right]
        .into_iter()
        .filter(|&p| first.includes(p))
        .collect();
    if args.jobs_file.is_some() && firsts.len() != 1 {
        bail!("--jobs-file keeps one search's tree: give --first left or --first right");
    }
    let job_nodes = args.job_nodes.unwrap_or(1 << 20);
    if job_nodes == 0 {
        bail!("--job-nodes must be at least 1");
    }
    let table_mb = args.table_mb.unwrap_or(16);
    if table_mb == 0 {
        bail!("--table-mb must be at least 1");
    }
    let cfg = JobsConfig {
        job_nodes,
        local_nodes: job_nodes,
        table_bytes: usize::try_from(table_mb.min(1 << 14) << 20)?,
        ..JobsConfig::default()
    };
    let key = &partizan_seal::user_key().key;
    let mut searches = Vec::new();
    for &p in &firsts {
        let pool: Vec<Arc<dyn Worker>> = (0..workers)
            .map(|i| Arc::new(LocalWorker::new(*r, format!("local-{i}"))) as Arc<dyn Worker>)
            .collect();
        let (tree, resumed) = match &args.jobs_file {
            Some(path) => start_or_resume(path, r, key, board, p)?,
            None => (partizan_jobs::Tree::new(*board, p), false),
        };
        if resumed {
            eprintln!(
                "resumed {} positions from {}",
                tree.nodes.len(),
                args.jobs_file
                    .as_deref()
                    .unwrap_or(std::path::Path::new(""))
                    .display()
            );
        }
        let saver = |t: &partizan_jobs::Tree| match &args.jobs_file {
            Some(path) => save(path, r, t, key).map_err(|e| e.to_string()),
            None => Ok(()),
        };
        let control = MasterControl {
            checkpoint: Some(&saver),
            checkpoint_every: Duration::from_secs(args.checkpoint_every.max(1)),
            ..MasterControl::default()
        };
        searches.push(search_from(r, tree, pool, &cfg, &control)?);
    }
    let class = match searches.as_slice() {
        [l, rt] => match (l.first_wins, rt.first_wins) {
            (Some(true), Some(true)) => Some("N"),
            (Some(false), Some(false)) => Some("P"),
            (Some(true), Some(false)) => Some("L"),
            (Some(false), Some(true)) => Some("R"),
            _ => None,
        },
        _ => None,
    };
    let out = JobsOutput {
        ruleset: r.name(),
        board: r.format(board),
        class,
        searches,
    };
    if json_out {
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!("{} {}", out.ruleset, out.board);
    if let Some(c) = out.class {
        println!("outcome class: {c}");
    }
    for s in &out.searches {
        let who = if s.first == Player::Left {
            "Left"
        } else {
            "Right"
        };
        let verdict = match s.first_wins {
            Some(true) => "wins",
            Some(false) => "loses",
            None => "undecided",
        };
        let c = &s.counts;
        println!(
            "{who} first {verdict}: {} jobs ({} proved, {} disproved, {} unresolved, {} by the master), \
             {} certificates checked ({} positions), {} lies, {} crashes, {} timeouts, \
             {} tree positions, {:.2} s",
            c.sent + c.searched_here,
            c.proved,
            c.disproved,
            c.unresolved,
            c.searched_here,
            c.accepted,
            c.check_positions,
            c.lies_total(),
            c.crashes,
            c.timeouts,
            c.tree_nodes,
            s.elapsed.as_secs_f64()
        );
    }
    Ok(())
}
