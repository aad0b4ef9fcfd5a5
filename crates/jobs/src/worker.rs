//! Workers: what runs a [`Job`] and sends back a [`Reply`]. The
//! [`Worker`] trait is the whole contract, so a transport other than a
//! thread (a process, a Dask worker) implements the same one method; the
//! [`LocalWorker`] here runs the library's own outcome search and proves
//! its answer with a certificate.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use partizan_games::{Board, Player};
use partizan_solve::outcome::Convention;
use partizan_solve::search::certificate::write_certificate;
use partizan_solve::search::{
    solve, Control, First, Knowledge, Progress, SearchConfig, SearchError,
};

use crate::job::{Answer, Job, Reply};

/// Something that searches jobs. The master believes nothing it says
/// without a check ([`crate::verify`]), so an implementation may be
/// remote, buggy or hostile; it must only be safe to call from a thread
/// of its own.
pub trait Worker: Send + Sync + 'static {
    /// A short name for reports ("local-0", "dask tcp://...").
    fn name(&self) -> String;

    /// Search `job` and answer; give up soon after `stop` is raised (the
    /// master no longer needs the answer). A worker that panics, or does
    /// not answer within the master's timeout, loses the job (the master
    /// hands it out again) and is not asked again.
    fn run(&self, job: &Job, stop: &AtomicBool) -> Reply;

    /// [`Worker::run`], keeping `seen` at the nodes the job's search has
    /// visited so far, as the worker reports them, for a progress display
    /// of a long job (nothing is decided by it; the master counts a job's
    /// nodes from its reply). The default reports nothing.
    fn run_watched(&self, job: &Job, stop: &AtomicBool, seen: &AtomicU64) -> Reply {
        let _ = seen;
        self.run(job, stop)
    }
}

/// How often a job's search reports its nodes to a watcher.
pub const SEEN_EVERY: Duration = Duration::from_millis(250);

/// The outcome of one budgeted search of a job's position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Searched {
    /// The mover wins (`true`) or loses.
    Decided(bool),
    /// The budget ran out.
    Unresolved,
}

/// The configuration a job's search runs under: the ruleset's defaults
/// for normal play, one thread, `job`'s first player, budget and table.
pub(crate) fn job_config<R: Knowledge>(
    rules: &R,
    mover: Player,
    max_nodes: Option<u64>,
    table_bytes: usize,
) -> SearchConfig {
    let mut cfg = SearchConfig::for_ruleset(rules, Convention::Normal);
    cfg.threads = 1;
    cfg.first = match mover {
        Player::Left => First::Left,
        Player::Right => First::Right,
    };
    cfg.max_nodes = max_nodes;
    cfg.table_bytes = table_bytes.max(1 << 16);
    cfg
}

/// Search `board` with `mover` first under `max_nodes`: the outcome, the
/// search's winning move (`None` unless the mover wins) and the nodes
/// searched. The master's own re-search of a job it could not believe
/// (its search is the one a single machine would run anyway).
pub(crate) fn search_here<R: Knowledge>(
    rules: &R,
    board: &Board,
    mover: Player,
    max_nodes: u64,
    table_bytes: usize,
    ctl: &Control<'_>,
) -> Result<(Searched, Option<Board>, u64), SearchError> {
    let cfg = job_config(rules, mover, Some(max_nodes), table_bytes);
    match solve(rules, board, &cfg, ctl) {
        Ok(rep) => {
            let nodes = rep.total().nodes;
            let fp = match mover {
                Player::Left => rep.left,
                Player::Right => rep.right,
            };
            let mv = fp.winning_move.filter(|_| fp.wins);
            Ok((Searched::Decided(fp.wins), mv, nodes))
        }
        Err(SearchError::Budget(n)) => Ok((Searched::Unresolved, None, n)),
        Err(e) => Err(e),
    }
}

/// The certificate of `board` with `mover` first, as a worker writes it
/// for a job its budgeted search decided (the prover searches again,
/// unbudgeted, since the search succeeded under the budget).
pub(crate) fn prove_here<R: Knowledge>(
    rules: &R,
    board: &Board,
    mover: Player,
    table_bytes: usize,
    ctl: &Control<'_>,
) -> Result<String, SearchError> {
    let cfg = job_config(rules, mover, None, table_bytes);
    let mut text = Vec::new();
    write_certificate(rules, board, &cfg, ctl, &mut text)?;
    String::from_utf8(text).map_err(|e| SearchError::Inconsistent(e.to_string()))
}

/// A worker on this machine: the library's outcome search under the job's
/// budget, and for a decided job the certificate of its answer (when the
/// job asks for one).
#[derive(Clone, Debug)]
pub struct LocalWorker<R> {
    rules: R,
    name: String,
}

impl<R: Knowledge + Clone + 'static> LocalWorker<R> {
    /// A worker for `rules`, reported as `name`.
    pub fn new(rules: R, name: impl Into<String>) -> LocalWorker<R> {
        LocalWorker {
            rules,
            name: name.into(),
        }
    }

    /// The job's answer and the nodes of its search; `seen` (when given)
    /// kept at the nodes so far, the proof's added to the search's.
    fn answer(
        &self,
        job: &Job,
        stop: &AtomicBool,
        seen: Option<&AtomicU64>,
    ) -> Result<(Answer, u64), String> {
        if job.ruleset != self.rules.name() {
            return Err(format!(
                "this worker plays {}, not {}",
                self.rules.name(),
                job.ruleset
            ));
        }
        let board = self
            .rules
            .parse(&job.board)
            .map_err(|e| format!("bad board: {e}"))?;
        let searched_before = AtomicU64::new(0);
        let tell = |p: &Progress| {
            if let Some(seen) = seen {
                seen.store(searched_before.load(Relaxed) + p.nodes, Relaxed);
            }
        };
        let ctl = Control {
            stop: Some(stop),
            progress: seen.map(|_| &tell as &(dyn Fn(&Progress) + Sync)),
            interval: SEEN_EVERY,
        };
        let (searched, _, nodes) = search_here(
            &self.rules,
            &board,
            job.mover,
            job.max_nodes,
            job.table_bytes,
            &ctl,
        )
        .map_err(|e| e.to_string())?;
        searched_before.store(nodes, Relaxed);
        let Searched::Decided(mover_wins) = searched else {
            return Ok((Answer::Unresolved, nodes));
        };
        if !job.certify {
            return Ok((
                Answer::Decided {
                    mover_wins,
                    certificate: String::new(),
                },
                nodes,
            ));
        }
        let certificate = prove_here(&self.rules, &board, job.mover, job.table_bytes, &ctl)
            .map_err(|e| e.to_string())?;
        Ok((
            Answer::Decided {
                mover_wins,
                certificate,
            },
            nodes,
        ))
    }
}

impl<R: Knowledge + Clone + 'static> Worker for LocalWorker<R> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn run(&self, job: &Job, stop: &AtomicBool) -> Reply {
        self.reply(job, stop, None)
    }

    fn run_watched(&self, job: &Job, stop: &AtomicBool, seen: &AtomicU64) -> Reply {
        self.reply(job, stop, Some(seen))
    }
}

impl<R: Knowledge + Clone + 'static> LocalWorker<R> {
    fn reply(&self, job: &Job, stop: &AtomicBool, seen: Option<&AtomicU64>) -> Reply {
        let start = Instant::now();
        let (answer, nodes) = self
            .answer(job, stop, seen)
            .unwrap_or_else(|e| (Answer::Failed(e), 0));
        Reply {
            job: job.id,
            answer,
            nodes,
            elapsed: start.elapsed(),
        }
    }
}
