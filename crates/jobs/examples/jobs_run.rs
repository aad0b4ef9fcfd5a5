//! Run one job-level search and print its report as JSON, beside the
//! plain search's answer and time:
//!
//! ```text
//! cargo run --release -p partizan-jobs --example jobs_run -- \
//!     domineering '......|......|......|......|......|......' left 2 100000 0
//! ```
//!
//! Arguments: ruleset, board, first player (left/right), workers, job
//! node budget, plies the master expands without jobs.

use std::sync::Arc;
use std::time::Instant;

use partizan_games::{with_rules, Player, Rules};
use partizan_jobs::{search, JobsConfig, LocalWorker, MasterControl, Worker};
use partizan_solve::outcome::Convention;
use partizan_solve::search::{solve, Control, SearchConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a: Vec<String> = std::env::args().skip(1).collect();
    if a.len() != 6 {
        return Err(
            "usage: jobs_run RULESET BOARD left|right WORKERS JOB_NODES EXPAND_PLIES".into(),
        );
    }
    let rules = Rules::from_name(&a[0])?;
    let first = match a[2].as_str() {
        "left" => Player::Left,
        "right" => Player::Right,
        o => return Err(format!("first player must be left or right, not {o}").into()),
    };
    let workers: usize = a[3].parse()?;
    let job_nodes: u64 = a[4].parse()?;
    let expand_plies: u32 = a[5].parse()?;
    with_rules!(rules, |r| {
        let board = r.parse(&a[1])?;
        let t = Instant::now();
        let cfg = SearchConfig::for_ruleset(r, Convention::Normal);
        let rep = solve(r, &board, &cfg, &Control::default())?;
        let fp = if first == Player::Left {
            &rep.left
        } else {
            &rep.right
        };
        println!(
            "plain: wins {} nodes {} in {:.3} s",
            fp.wins,
            rep.total().nodes,
            t.elapsed().as_secs_f64()
        );
        let pool: Vec<Arc<dyn Worker>> = (0..workers)
            .map(|i| Arc::new(LocalWorker::new(*r, format!("local-{i}"))) as Arc<dyn Worker>)
            .collect();
        let jc = JobsConfig {
            job_nodes,
            local_nodes: job_nodes,
            expand_plies,
            table_bytes: std::env::var("JOB_TABLE_MB")
                .ok()
                .and_then(|s| s.parse::<usize>().ok())
                .unwrap_or(16)
                << 20,
            ..JobsConfig::default()
        };
        let t = Instant::now();
        let jr = search(r, &board, first, pool, &jc, &MasterControl::default())?;
        println!(
            "jobs: wins {:?} in {:.3} s\n{}",
            jr.first_wins,
            t.elapsed().as_secs_f64(),
            serde_json::to_string_pretty(&jr)?
        );
        Ok(())
    })
}
