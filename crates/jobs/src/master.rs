//! The master: job-level proof-number search over a pool of workers.
//!
//! The master keeps the [`Tree`], always hands out the most-proving fresh
//! leaf as a job, and applies each answer it can believe by the tree's
//! rules: a decided job solves its leaf, an unresolved one is expanded
//! into its children (which become jobs in turn). Every answer goes
//! through [`judge`] first; an answer it cannot believe is searched again
//! by the master itself (a lie, a proof too big to check) or handed out
//! again (a failure, a crash, a worker that stopped making progress), and
//! the worker is struck (retired after [`JobsConfig::strikes`], at once
//! for a timeout). With no worker left the master searches every job
//! itself, so the search always ends with the answer its own search gives.

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use partizan_games::{Board, Player, Ruleset};
use partizan_solve::search::{cells_text, move_cells, Control, Knowledge, SearchError};
use serde::Serialize;
use thiserror::Error;

use crate::estimate::{Estimate, Estimator, Sample};
use crate::job::{Job, Reply};
use crate::tree::{distinct_options, State, Tree};
use crate::verify::{judge, judge_claim, LieKind, Verdict};
use crate::worker::{prove_here, search_here, Searched, Worker};

/// The longest the master waits for answers without a look at its
/// caller (progress, time limit, stop flag).
const TICK: Duration = Duration::from_secs(1);

/// What makes the master believe a worker's decided job.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Trust {
    /// A certificate the independent checker replays (the default): no
    /// worker, and no bug of the search, can make a false claim pass.
    #[default]
    Certificates,
    /// Two different workers, each sent the job without the other's
    /// answer, claim the same outcome; a disagreement (or a second worker
    /// that finds the job unresolved) is settled by the master's own
    /// search, and a worker it contradicts is struck. No proof is made,
    /// sent or checked, so a decided job costs about two searches instead
    /// of a search, a proof and a check. One lying, broken or garbled
    /// worker cannot change the answer; two that lie alike can, and so
    /// can a bug that the search shares with every worker. With a single
    /// live worker the master's own search is the second opinion. The
    /// report says how many leaves the answer rests on this way.
    Agreement,
}

impl std::str::FromStr for Trust {
    type Err = String;

    fn from_str(s: &str) -> Result<Trust, String> {
        match s {
            "certificates" => Ok(Trust::Certificates),
            "agreement" => Ok(Trust::Agreement),
            _ => Err(format!("trust {s:?}: give certificates or agreement")),
        }
    }
}

/// How many times its budget a job's reported nodes count as progress
/// ([`JobsConfig::timeout`]): the budgeted search, then (for a decided
/// job) the certificate's unbudgeted search, which repeats about the
/// same work, with room to spare.
pub const CREDITED_BUDGETS: u64 = 4;

/// How the master runs a search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JobsConfig {
    /// Node budget of each job.
    pub job_nodes: u64,
    /// Bytes of each job's transposition table.
    pub table_bytes: usize,
    /// The most positions the checker replays for one certificate; a
    /// bigger proof is not believed, the master searches the job itself.
    pub check_limit: u64,
    /// Node budget of the master's own search of a job it could not
    /// believe (unresolved within it: the job is expanded).
    pub local_nodes: u64,
    /// A job whose worker shows no progress for this long is lost to the
    /// worker, who is retired. Progress is the node count the worker
    /// reports while it searches ([`Worker::run_watched`]) rising, up to
    /// [`CREDITED_BUDGETS`] times the job's budget (a worker that counts
    /// on forever without answering is not believed past that), and the
    /// master's own check of its answer; a worker that reports nothing is
    /// timed from the moment the job was sent. So a job that runs for
    /// hours on a loaded machine is not taken away while its search goes
    /// on, and a hung or silent one is within this time.
    pub timeout: Duration,
    /// Hand out one job per worker, wait for all their answers and apply
    /// them in the order handed out: the same tree and counts on every run
    /// (timeouts aside). Otherwise each answer is applied as it comes.
    pub deterministic: bool,
    /// A worker is retired after this many lies, failures or crashes.
    pub strikes: u32,
    /// Leaves less than this many plies deep are expanded by the master
    /// without a job (a job for a position near the root is a search of
    /// almost the whole game, which a budget will only cut short).
    pub expand_plies: u32,
    /// Stop, undecided, after this many jobs (handed out or searched by
    /// the master); `None`: no limit.
    pub max_jobs: Option<u64>,
    /// What makes a worker's decided job believed.
    pub trust: Trust,
}

impl Default for JobsConfig {
    fn default() -> Self {
        JobsConfig {
            job_nodes: 1 << 20,
            table_bytes: 16 << 20,
            check_limit: 50_000_000,
            local_nodes: 1 << 20,
            timeout: Duration::from_secs(3600),
            deterministic: false,
            strikes: 1,
            expand_plies: 0,
            max_jobs: None,
            trust: Trust::Certificates,
        }
    }
}

impl JobsConfig {
    /// The most nodes a worker may report for one job that count as its
    /// progress ([`JobsConfig::timeout`]).
    fn credited_nodes(&self) -> u64 {
        self.job_nodes.saturating_mul(CREDITED_BUDGETS)
    }
}

/// Errors of a job-level search.
#[derive(Debug, Error)]
pub enum JobError {
    /// The master's own search failed.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// A configuration that cannot run.
    #[error("{0}")]
    Config(String),
    /// The caller's stop flag was raised.
    #[error("job-level search stopped after {0} jobs")]
    Stopped(u64),
    /// The master contradicted itself (a bug; reported, never hidden).
    #[error("inconsistent job-level search: {0}")]
    Inconsistent(String),
    /// The tree could not be saved, or a saved one was refused.
    #[error("{0}")]
    Checkpoint(String),
}

/// What the search did, counted.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct JobCounts {
    /// Jobs handed to workers.
    pub sent: u64,
    /// Jobs decided for the first player (by a worker's checked proof or
    /// the master's own search).
    pub proved: u64,
    /// Jobs decided against the first player.
    pub disproved: u64,
    /// Jobs that came back unresolved and were expanded.
    pub unresolved: u64,
    /// Certificates the checker accepted.
    pub accepted: u64,
    /// Positions the checker replayed for them.
    pub check_positions: u64,
    /// Milliseconds the master spent judging answers (checking
    /// certificates, mostly).
    pub check_ms: u64,
    /// Milliseconds the workers reported for the answers judged (a claim,
    /// reported only).
    pub worker_ms: u64,
    /// Jobs the master searched itself.
    pub searched_here: u64,
    /// Nodes of the master's own searches.
    pub master_nodes: u64,
    /// Nodes the workers reported for answers the master used (a claim,
    /// reported only).
    pub worker_nodes: u64,
    /// Lies caught, by kind.
    pub lies: BTreeMap<LieKind, u64>,
    /// Failures workers reported.
    pub failures: u64,
    /// Workers that panicked on a job.
    pub crashes: u64,
    /// Jobs not answered within the timeout.
    pub timeouts: u64,
    /// Certificates too big to check within the limit.
    pub too_big: u64,
    /// Answers that came after their line was already decided.
    pub stale: u64,
    /// Positions of the tree.
    pub tree_nodes: u64,
    /// Positions decided in the tree because the player to move had no
    /// move (no job needed).
    pub terminal: u64,
    /// Leaves the master expanded without a job
    /// ([`JobsConfig::expand_plies`]).
    pub expanded_near_root: u64,
    /// Decided answers sent without proof ([`Trust::Agreement`]).
    pub claims: u64,
    /// Jobs decided by two workers' agreeing claims.
    pub agreed: u64,
    /// Claims contradicted by another worker (or found unresolved by it),
    /// settled by the master's own search.
    pub disagreed: u64,
}

impl JobCounts {
    /// Every lie caught.
    pub fn lies_total(&self) -> u64 {
        self.lies.values().sum()
    }
}

/// One lie, as reported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LieRecord {
    /// The worker's name.
    pub worker: String,
    /// The job.
    pub job: u64,
    /// What kind of lie.
    pub kind: LieKind,
    /// What was wrong, in a line.
    pub detail: String,
}

/// One worker's share.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WorkerReport {
    /// Its name.
    pub name: String,
    /// Jobs it was handed.
    pub jobs: u64,
    /// Answers of its the master used.
    pub believed: u64,
    /// Lies, failures and crashes.
    pub strikes: u32,
    /// Why it was retired, if it was.
    pub retired: Option<String>,
}

/// The answer of [`search`].
#[derive(Clone, Debug, Serialize)]
pub struct JobReport {
    /// The first player.
    #[serde(serialize_with = "player_name")]
    pub first: Player,
    /// Whether the first player wins (`None`: stopped by
    /// [`JobsConfig::max_jobs`] before it was decided).
    pub first_wins: Option<bool>,
    /// A winning first move, when the first player wins: one the tree
    /// proves ([`Tree::winning_move`]), or, for a root decided as one job,
    /// the one the master's own search finds under its budget
    /// ([`JobsConfig::local_nodes`]; `None` if that search runs out).
    #[serde(rename = "move")]
    pub winning_move: Option<JobMove>,
    /// The root's proof and disproof numbers at the end.
    pub root_numbers: (u64, u64),
    /// What was done.
    pub counts: JobCounts,
    /// Each worker's share.
    pub workers: Vec<WorkerReport>,
    /// The lies caught (the first 100).
    pub lies: Vec<LieRecord>,
    /// Wall time.
    #[serde(serialize_with = "millis")]
    pub elapsed: Duration,
    /// The last estimate of the work left made before the end (`None`:
    /// none was made), to hold against the jobs the search then took.
    pub last_estimate: Option<LastEstimate>,
    /// What made decided jobs believed.
    pub trust: Trust,
    /// Of the leaves a proof of the answer needs, the fewest believed on
    /// two workers' agreement rather than a checked certificate or the
    /// master's own search (0: the answer rests on certificates alone;
    /// `None`: undecided).
    pub agreed_in_proof: Option<u64>,
    /// The master's tree at the end (for the whole certificate).
    #[serde(skip)]
    pub tree: Tree,
}

fn player_name<S: serde::Serializer>(p: &Player, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(match p {
        Player::Left => "left",
        Player::Right => "right",
    })
}

fn millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(d.as_millis() as u64)
}

/// A winning first move: the cells it changes (1-based row, column, as
/// the outcome report writes them) and the board after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JobMove {
    /// The cells the move changes, as `[row, column]`, 1-based, top row
    /// first.
    pub cells: Vec<[usize; 2]>,
    /// The board after the move, in the ruleset's notation.
    pub board: String,
}

impl JobMove {
    /// The move from `root` to `after`.
    pub fn new<R: Ruleset>(rules: &R, root: &Board, after: &Board) -> JobMove {
        JobMove {
            cells: move_cells(root, after),
            board: rules.format(after),
        }
    }
}

/// An estimate and when it was made.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct LastEstimate {
    /// Jobs done when it was made.
    pub at_jobs: u64,
    /// Milliseconds since the start when it was made.
    pub at_ms: u64,
    /// What it said.
    #[serde(flatten)]
    pub estimate: Estimate,
}

/// A snapshot for a progress display.
#[derive(Clone, Debug, Serialize)]
pub struct JobProgress {
    /// The counts so far.
    pub counts: JobCounts,
    /// Jobs out with workers as of the last hand-out (a snapshot is taken
    /// as each answer comes in, before the answering worker is given its
    /// next job, so the count of this moment would always be one short).
    pub in_flight: usize,
    /// Workers not retired.
    pub live_workers: usize,
    /// The nodes searched so far in the jobs out, as the workers report
    /// them while they search (local workers and `partizan job-worker`
    /// processes do; a Dask cluster's jobs are counted when they answer):
    /// with [`JobCounts::worker_nodes`], the work done so far, for the
    /// rate a display shows while jobs of many minutes are out.
    pub out_nodes: u64,
    /// The root's proof and disproof numbers.
    pub root_numbers: (u64, u64),
    /// The most-proving line's depth in the tree.
    pub line_depth: usize,
    /// The most-proving line's moves from the root, each as the cells it
    /// changes (1-based `[row, column]`).
    pub line: Vec<Vec<[usize; 2]>>,
    /// Time since the start.
    pub elapsed_ms: u64,
    /// The work left at the current rate (`None`: no estimate yet; see
    /// [`crate::estimate`]).
    pub estimate: Option<Estimate>,
}

impl JobProgress {
    /// Nodes per second across the workers since the start: the answered
    /// jobs' and, as far as their workers have told, the jobs out.
    #[must_use]
    pub fn worker_nodes_per_sec(&self) -> f64 {
        let secs = (self.elapsed_ms as f64 / 1000.0).max(1e-3);
        self.counts.worker_nodes.saturating_add(self.out_nodes) as f64 / secs
    }

    /// One progress line of `first`'s search (what the command line
    /// prints and Python's `outcome_jobs(progress=True)` too): jobs, nodes
    /// per second across workers, the root's numbers, the most-proving
    /// line, the estimate of the work left.
    #[must_use]
    pub fn text(&self, first: Player) -> String {
        let c = &self.counts;
        format!(
            "{} first: {} jobs ({} proved, {} disproved, {} unresolved), {} out on {} workers, \
             {:.0} worker nodes/s, {}, root pn {} dn {}, line {}, {} lies; {}",
            if first == Player::Left {
                "Left"
            } else {
                "Right"
            },
            c.sent + c.searched_here,
            c.proved,
            c.disproved,
            c.unresolved,
            self.in_flight,
            self.live_workers,
            self.worker_nodes_per_sec(),
            if c.claims > 0 {
                format!("{} agreed", c.agreed)
            } else {
                format!("checks {:.1} s", c.check_ms as f64 / 1000.0)
            },
            self.root_numbers.0,
            self.root_numbers.1,
            line_text(&self.line),
            c.lies_total(),
            crate::estimate::describe(self.estimate.as_ref())
        )
    }
}

/// The most-proving line's moves (the first eight, then how many more),
/// or "at the root".
fn line_text(line: &[Vec<[usize; 2]>]) -> String {
    const SHOWN: usize = 8;
    if line.is_empty() {
        return "at the root".into();
    }
    let mut t = line
        .iter()
        .take(SHOWN)
        .map(|m| cells_text(m))
        .collect::<Vec<_>>()
        .join(" ");
    if line.len() > SHOWN {
        t += &format!(" (+{} more)", line.len() - SHOWN);
    }
    t
}

/// Saves the master's tree; an error stops the search.
pub type Checkpoint<'a> = &'a dyn Fn(&Tree) -> Result<(), String>;

/// Keeps the certificate of a decided leaf (its board, who moves, the
/// certificate's text, checked) for the whole certificate; an error stops
/// the search.
pub type KeepCertificate<'a> = &'a dyn Fn(&Board, Player, &str) -> Result<(), String>;

/// The caller's handles on a running search.
#[derive(Default)]
pub struct MasterControl<'a> {
    /// Raise to stop ([`JobError::Stopped`]).
    pub stop: Option<&'a AtomicBool>,
    /// Called after every answer applied.
    pub progress: Option<&'a dyn Fn(&JobProgress)>,
    /// Called with the tree at most every `checkpoint_every` while the
    /// search runs, and at its end (decided, limited or stopped).
    pub checkpoint: Option<Checkpoint<'a>>,
    /// How often to call `checkpoint`.
    pub checkpoint_every: Duration,
    /// Called with the certificate of every leaf decided by a job (the
    /// worker's, once checked, or the master's own when it searched the
    /// job itself), before the leaf counts as decided; `None`: the
    /// certificates are dropped once checked.
    pub keep: Option<KeepCertificate<'a>>,
}

/// What a worker's thread sends back: the slot, the job it was handed and
/// the reply judged (or the panic's message).
type Message = (usize, u64, Result<Judged, String>);

/// A reply and the master's verdict on it, reached in the worker's thread
/// on the master's side (so certificates are checked on as many of the
/// master's cores as there are workers), by the master's own code.
struct Judged {
    reply: Reply,
    verdict: Verdict,
    check_ms: u64,
}

/// How a worker's thread judges a reply to a job.
type Judge = Arc<dyn Fn(&Job, &Reply) -> Verdict + Send + Sync>;

struct Flight {
    job: u64,
    node: usize,
    /// When the job last showed progress (sent, its nodes rising, its
    /// check): the timeout counts from here.
    progress_at: Instant,
    /// The most nodes its worker has reported for it.
    seen_most: u64,
    /// A second worker's search of a claimed job ([`Trust::Agreement`]).
    confirm: bool,
}

/// A decided answer without proof, waiting for a second worker.
struct Claim {
    /// The claimer's slot.
    by: usize,
    /// Whether the mover wins, as claimed.
    wins: bool,
    /// The job it answered.
    job: u64,
    /// Out with a second worker now.
    out: bool,
}

struct Slot {
    name: String,
    tx: Option<Sender<Job>>,
    stop: Arc<AtomicBool>,
    /// The nodes of the job out, as the worker reports them while it
    /// searches (0 between jobs, or from a worker that does not say).
    seen: Arc<AtomicU64>,
    /// Raised while the master's check of the worker's answer runs (on
    /// the worker's thread): progress, whatever the worker reports.
    judging: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
    flight: Option<Flight>,
    report: WorkerReport,
}

/// The worker threads.
struct Pool {
    slots: Vec<Slot>,
    rx: Receiver<Message>,
}

pub(crate) fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic".to_string()
    }
}

impl Pool {
    fn new(workers: Vec<Arc<dyn Worker>>, judge: &Judge) -> Result<Pool, JobError> {
        let (res_tx, rx) = mpsc::channel::<Message>();
        let mut slots = Vec::with_capacity(workers.len());
        for (i, w) in workers.into_iter().enumerate() {
            let (tx, job_rx) = mpsc::channel::<Job>();
            let stop = Arc::new(AtomicBool::new(false));
            let seen = Arc::new(AtomicU64::new(0));
            let judging = Arc::new(AtomicBool::new(false));
            let name = w.name();
            let res_tx = res_tx.clone();
            let (st, sn, jd) = (Arc::clone(&stop), Arc::clone(&seen), Arc::clone(&judging));
            let judge = Arc::clone(judge);
            let handle = std::thread::Builder::new()
                .name(format!("job-worker-{i}"))
                .spawn(move || {
                    for job in job_rx {
                        sn.store(0, Relaxed);
                        let r = std::panic::catch_unwind(AssertUnwindSafe(|| {
                            w.run_watched(&job, &st, &sn)
                        }))
                        .map_err(|p| panic_message(p.as_ref()));
                        sn.store(0, Relaxed);
                        let r = r.and_then(|reply| {
                            let t = Instant::now();
                            jd.store(true, Relaxed);
                            let verdict =
                                std::panic::catch_unwind(AssertUnwindSafe(|| judge(&job, &reply)));
                            jd.store(false, Relaxed);
                            let verdict = verdict.map_err(|p| {
                                format!("the check panicked: {}", panic_message(p.as_ref()))
                            })?;
                            Ok(Judged {
                                reply,
                                verdict,
                                check_ms: t.elapsed().as_millis() as u64,
                            })
                        });
                        if res_tx.send((i, job.id, r)).is_err() {
                            break;
                        }
                    }
                })
                .map_err(|e| JobError::Config(format!("cannot start a worker thread: {e}")))?;
            slots.push(Slot {
                report: WorkerReport {
                    name: name.clone(),
                    ..WorkerReport::default()
                },
                name,
                tx: Some(tx),
                stop,
                seen,
                judging,
                handle: Some(handle),
                flight: None,
            });
        }
        Ok(Pool { slots, rx })
    }

    fn in_flight(&self) -> usize {
        self.slots.iter().filter(|s| s.flight.is_some()).count()
    }

    /// The nodes of the jobs out so far, as their workers report them.
    fn seen(&self) -> u64 {
        self.slots
            .iter()
            .filter(|s| s.flight.is_some())
            .map(|s| s.seen.load(Relaxed))
            // told by the workers: a lie of u64::MAX must not overflow
            .fold(0, u64::saturating_add)
    }

    /// Note, as of `now`, the progress of every job out: its worker's
    /// reported nodes risen (up to `credit`) or its check running.
    fn watch(&mut self, now: Instant, credit: u64) {
        for s in &mut self.slots {
            let Some(f) = s.flight.as_mut() else { continue };
            let seen = s.seen.load(Relaxed);
            if seen > f.seen_most && seen <= credit {
                f.seen_most = seen;
                f.progress_at = now;
            } else if s.judging.load(Relaxed) {
                f.progress_at = now;
            }
        }
    }

    fn live(&self) -> usize {
        self.slots
            .iter()
            .filter(|s| s.report.retired.is_none())
            .count()
    }

    /// Count a strike against worker `i`; at `most` strikes it is retired
    /// (`why`, with the count).
    fn strike(&mut self, i: usize, why: &str, most: u32) {
        let s = &mut self.slots[i];
        s.report.strikes += 1;
        if s.report.strikes >= most {
            let why = format!("{why} ({} strikes)", s.report.strikes);
            self.retire(i, why);
        }
    }

    fn retire(&mut self, i: usize, why: String) {
        let s = &mut self.slots[i];
        s.stop.store(true, Relaxed);
        s.tx = None;
        if s.report.retired.is_none() {
            s.report.retired = Some(why);
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        for s in &mut self.slots {
            s.stop.store(true, Relaxed);
            s.tx = None;
        }
        // Idle threads end when their channel closes; a thread still in a
        // job (a worker that ignores its stop flag) is left to end alone.
        for s in &mut self.slots {
            if s.flight.is_none() && s.report.retired.is_none() {
                if let Some(h) = s.handle.take() {
                    let _ = h.join();
                }
            }
        }
    }
}

/// The master's state during one search.
struct Master<'a, R> {
    rules: &'a R,
    cfg: &'a JobsConfig,
    tree: Tree,
    counts: JobCounts,
    lies: Vec<LieRecord>,
    next_id: u64,
    stop: Option<&'a AtomicBool>,
    keep: Option<KeepCertificate<'a>>,
    estimator: Estimator,
    last_estimate: Option<LastEstimate>,
    /// Jobs out after the last [`Master::dispatch`].
    out_after_dispatch: usize,
    /// Claims waiting for a second worker, by node ([`Trust::Agreement`]).
    claims: BTreeMap<usize, Claim>,
}

impl<R: Knowledge> Master<'_, R> {
    fn jobs_done(&self) -> u64 {
        self.counts.sent + self.counts.searched_here
    }

    /// Apply a decided job.
    fn resolve(&mut self, n: usize, mover_wins: bool) {
        let first_wins = (self.tree.nodes[n].mover == self.tree.first) == mover_wins;
        if first_wins {
            self.counts.proved += 1;
        } else {
            self.counts.disproved += 1;
        }
        self.tree.resolve(n, mover_wins);
    }

    /// Expand an unresolved job into its distinct children.
    fn expand(&mut self, n: usize) {
        let (board, mover) = (self.tree.nodes[n].board, self.tree.nodes[n].mover);
        let mut kids = distinct_options(self.rules, &board, mover);
        // The search's own order (the opponent's fewest moves, the mover's
        // most safe ones first): among children of equal numbers the
        // first is taken, so the move the search would try first is the
        // first job.
        let rules = self.rules;
        kids.sort_by_cached_key(|o| std::cmp::Reverse(rules.safety_score(o, mover)));
        if kids.is_empty() {
            // Normal play: the mover, without a move, loses.
            self.counts.terminal += 1;
            self.tree.resolve(n, false);
            return;
        }
        let other = mover.opponent();
        let children: Vec<(Board, usize)> = kids
            .into_iter()
            .map(|k| {
                let m = distinct_options(self.rules, &k, other).len();
                (k, m)
            })
            .collect();
        self.counts.terminal += children.iter().filter(|c| c.1 == 0).count() as u64;
        self.tree.expand(n, children);
        self.counts.tree_nodes = self.tree.nodes.len() as u64;
    }

    /// Search leaf `n` here, under the master's own budget, and apply it.
    fn search_here(&mut self, n: usize) -> Result<(), JobError> {
        self.claims.remove(&n);
        let (board, mover) = (self.tree.nodes[n].board, self.tree.nodes[n].mover);
        self.counts.searched_here += 1;
        let ctl = Control {
            stop: self.stop,
            ..Control::default()
        };
        let (s, _, nodes) = match search_here(
            self.rules,
            &board,
            mover,
            self.cfg.local_nodes,
            self.cfg.table_bytes,
            &ctl,
        ) {
            Err(SearchError::Stopped { .. }) => return Err(JobError::Stopped(self.jobs_done())),
            r => r?,
        };
        self.counts.master_nodes += nodes;
        match s {
            Searched::Decided(w) => {
                if let Some(keep) = self.keep {
                    let text = prove_here(self.rules, &board, mover, self.cfg.table_bytes, &ctl)
                        .map_err(|e| match e {
                            SearchError::Stopped { .. } => JobError::Stopped(self.jobs_done()),
                            e => JobError::Search(e),
                        })?;
                    keep(&board, mover, &text).map_err(JobError::Checkpoint)?;
                }
                self.resolve(n, w)
            }
            Searched::Unresolved => {
                self.counts.unresolved += 1;
                self.expand(n);
            }
        }
        Ok(())
    }

    fn lie(&mut self, worker: &str, job: u64, kind: LieKind, detail: String) {
        *self.counts.lies.entry(kind).or_default() += 1;
        if self.lies.len() < 100 {
            self.lies.push(LieRecord {
                worker: worker.to_string(),
                job,
                kind,
                detail: detail.chars().take(300).collect(),
            });
        }
    }

    /// Apply the message of worker `i` about job `job` (the job it was
    /// handed by this master).
    fn answer(
        &mut self,
        pool: &mut Pool,
        i: usize,
        job: u64,
        got: Result<Judged, String>,
    ) -> Result<(), JobError> {
        let Some(f) = pool.slots[i].flight.take_if(|f| f.job == job) else {
            // A late answer to a job already taken back (a timeout).
            self.counts.stale += 1;
            return Ok(());
        };
        let (n, confirm) = (f.node, f.confirm);
        let most = self.cfg.strikes.max(1);
        let strike = |pool: &mut Pool, why: &str| pool.strike(i, why, most);
        let Judged {
            reply,
            verdict,
            check_ms,
        } = match got {
            Ok(r) => r,
            Err(panic) => {
                self.counts.crashes += 1;
                strike(pool, &format!("crashed: {panic}"));
                self.free_again(n, confirm);
                return Ok(());
            }
        };
        if !self.tree.relevant(n) {
            self.counts.stale += 1;
            self.claims.remove(&n);
            return Ok(());
        }
        self.counts.check_ms += check_ms;
        // what a worker says of its work (a lie of u64::MAX must not
        // overflow), counted for the verdicts that take its search
        let ms = u64::try_from(reply.elapsed.as_millis()).unwrap_or(u64::MAX);
        self.counts.worker_ms = self.counts.worker_ms.saturating_add(ms);
        let worked = self.counts.worker_nodes.saturating_add(reply.nodes);
        match verdict {
            Verdict::Proved(w, rep) => {
                if let (Some(keep), crate::job::Answer::Decided { certificate, .. }) =
                    (self.keep, &reply.answer)
                {
                    let node = &self.tree.nodes[n];
                    keep(&node.board, node.mover, certificate).map_err(JobError::Checkpoint)?;
                }
                self.counts.accepted += 1;
                self.counts.check_positions += rep.positions;
                self.counts.worker_nodes = worked;
                pool.slots[i].report.believed += 1;
                self.resolve(n, w);
            }
            Verdict::Unresolved if confirm => {
                // The claimer decided it within the same budget.
                self.counts.worker_nodes = worked;
                self.settle(pool, n, Some((i, job, None)))?;
            }
            Verdict::Unresolved => {
                self.counts.unresolved += 1;
                self.counts.worker_nodes = worked;
                pool.slots[i].report.believed += 1;
                self.expand(n);
            }
            Verdict::Claimed(w) => {
                self.counts.claims += 1;
                self.counts.worker_nodes = worked;
                match self.claims.get(&n) {
                    Some(c) if confirm => {
                        if c.wins == w {
                            let by = c.by;
                            self.claims.remove(&n);
                            self.counts.agreed += 1;
                            pool.slots[i].report.believed += 1;
                            pool.slots[by].report.believed += 1;
                            self.resolve(n, w);
                            self.tree.nodes[n].agreed = true;
                        } else {
                            self.settle(pool, n, Some((i, job, Some(w))))?;
                        }
                    }
                    _ => {
                        self.claims.insert(
                            n,
                            Claim {
                                by: i,
                                wins: w,
                                job,
                                out: false,
                            },
                        );
                    }
                }
            }
            Verdict::Failed(why) => {
                self.counts.failures += 1;
                strike(pool, &format!("failed: {why}"));
                self.free_again(n, confirm);
            }
            Verdict::Lie(kind, detail) => {
                let name = pool.slots[i].name.clone();
                self.lie(&name, job, kind, detail);
                strike(pool, &format!("lied ({kind})"));
                self.search_here(n)?;
            }
            Verdict::TooBig(_) => {
                self.counts.too_big += 1;
                self.search_here(n)?;
            }
        }
        Ok(())
    }

    /// Put leaf `n` back among the fresh ones, if it still matters (a
    /// `confirm`ation lost: its claim waits for another second worker).
    fn free_again(&mut self, n: usize, confirm: bool) {
        if confirm {
            if let Some(c) = self.claims.get_mut(&n) {
                c.out = false;
                return;
            }
        }
        if self.tree.nodes[n].state == State::Pending {
            self.tree.set_pending(n, false);
        }
    }

    /// Settle the claim on leaf `n` by the master's own search: a claim it
    /// contradicts is a lie of its worker (and so is `second`'s answer:
    /// `None` for unresolved, which the claim's budget decided). A search
    /// that does not decide within the master's budget expands the leaf,
    /// and nobody is blamed.
    fn settle(
        &mut self,
        pool: &mut Pool,
        n: usize,
        second: Option<(usize, u64, Option<bool>)>,
    ) -> Result<(), JobError> {
        let claim = self.claims.remove(&n);
        if second.is_some() {
            self.counts.disagreed += 1;
        }
        self.search_here(n)?;
        let node = &self.tree.nodes[n];
        if node.state != State::Solved {
            return Ok(());
        }
        let truth = (node.pn == 0) == (node.mover == self.tree.first);
        let said = claim
            .map(|c| (c.by, c.job, Some(c.wins)))
            .into_iter()
            .chain(second);
        for (who, job, what) in said {
            if what == Some(truth) {
                pool.slots[who].report.believed += 1;
                continue;
            }
            let name = pool.slots[who].name.clone();
            let detail = match what {
                Some(w) => format!(
                    "claimed the mover {}; the master's search: {}",
                    if w { "wins" } else { "loses" },
                    if truth { "wins" } else { "loses" }
                ),
                None => "unresolved where another worker decided it within the same budget".into(),
            };
            // An unresolved answer is a cost, not a lie; a false claim is.
            if what.is_some() {
                self.lie(&name, job, LieKind::Outvoted, detail);
                pool.strike(who, "lied (outvoted)", self.cfg.strikes.max(1));
            }
        }
        Ok(())
    }

    /// Settle every claim that has no second worker to go to (its
    /// claimer is the only live worker, or none is left).
    fn settle_orphans(&mut self, pool: &mut Pool) -> Result<(), JobError> {
        let orphans: Vec<usize> = self
            .claims
            .iter()
            .filter(|(_, c)| !c.out)
            .filter(|(_, c)| {
                !pool
                    .slots
                    .iter()
                    .enumerate()
                    .any(|(j, s)| j != c.by && s.report.retired.is_none())
            })
            .map(|(&n, _)| n)
            .collect();
        for n in orphans {
            if self.tree.relevant(n) {
                self.settle(pool, n, None)?;
            } else {
                self.claims.remove(&n);
            }
        }
        Ok(())
    }

    /// Time out every flight that has shown no progress for the timeout.
    fn time_out(&mut self, pool: &mut Pool, now: Instant) {
        pool.watch(now, self.cfg.credited_nodes());
        for i in 0..pool.slots.len() {
            let late = pool.slots[i]
                .flight
                .as_ref()
                .is_some_and(|f| now.duration_since(f.progress_at) >= self.cfg.timeout);
            if late {
                let f = pool.slots[i].flight.take();
                self.counts.timeouts += 1;
                let why = format!("no answer and no progress for {:?}", self.cfg.timeout);
                pool.retire(i, why);
                if let Some(f) = f {
                    self.free_again(f.node, f.confirm);
                }
            }
        }
    }

    /// The most-proving fresh leaf deep enough to be a job, expanding the
    /// shallower ones it meets first ([`JobsConfig::expand_plies`]).
    fn select(&mut self) -> Option<usize> {
        loop {
            let n = self.tree.select()?;
            if self.tree.nodes[n].depth >= self.cfg.expand_plies {
                return Some(n);
            }
            self.counts.expanded_near_root += 1;
            self.expand(n);
        }
    }

    /// Hand the most-proving fresh leaves to the idle workers, in order
    /// (a claim waiting for a second worker first), and note how many
    /// jobs are out then (for the progress).
    fn dispatch(&mut self, pool: &mut Pool) -> Result<(), JobError> {
        self.settle_orphans(pool)?;
        self.hand_out(pool);
        self.out_after_dispatch = pool.in_flight();
        Ok(())
    }

    /// A claim worker `i` can confirm (not its own, still open), taken
    /// out; claims that no longer matter are dropped.
    fn claim_for(&mut self, i: usize) -> Option<usize> {
        let tree = &self.tree;
        self.claims.retain(|&n, _| tree.relevant(n));
        let (&n, c) = self.claims.iter_mut().find(|(_, c)| !c.out && c.by != i)?;
        c.out = true;
        Some(n)
    }

    /// [`Master::dispatch`]'s hand-out.
    fn hand_out(&mut self, pool: &mut Pool) {
        for i in 0..pool.slots.len() {
            if let Some(max) = self.cfg.max_jobs {
                if self.jobs_done() >= max {
                    return;
                }
            }
            let s = &pool.slots[i];
            if s.flight.is_some() || s.report.retired.is_some() {
                continue;
            }
            let (n, confirm) = match self.claim_for(i) {
                Some(n) => (n, true),
                None => match self.select() {
                    Some(n) => (n, false),
                    None => continue,
                },
            };
            let id = self.next_id;
            self.next_id += 1;
            let job = Job {
                id,
                ruleset: self.rules.name().to_string(),
                board: self.rules.format(&self.tree.nodes[n].board),
                mover: self.tree.nodes[n].mover,
                max_nodes: self.cfg.job_nodes,
                table_bytes: self.cfg.table_bytes,
                certify: self.cfg.trust == Trust::Certificates,
            };
            let sent = pool.slots[i]
                .tx
                .as_ref()
                .is_some_and(|tx| tx.send(job).is_ok());
            if !sent {
                pool.retire(i, "its thread has ended".to_string());
                self.free_again(n, confirm);
                continue;
            }
            self.counts.sent += 1;
            pool.slots[i].report.jobs += 1;
            pool.slots[i].flight = Some(Flight {
                job: id,
                node: n,
                progress_at: Instant::now(),
                seen_most: 0,
                confirm,
            });
            if !confirm {
                self.tree.set_pending(n, true);
            }
        }
    }
}

/// Decide whether `first`, moving first on `board`, wins under normal
/// play, by job-level proof-number search with `workers` (none: the
/// master searches every job itself).
pub fn search<R: Knowledge + Clone + 'static>(
    rules: &R,
    board: &Board,
    first: Player,
    workers: Vec<Arc<dyn Worker>>,
    cfg: &JobsConfig,
    control: &MasterControl<'_>,
) -> Result<JobReport, JobError> {
    search_from(rules, Tree::new(*board, first), workers, cfg, control)
}

/// [`search`] going on from `tree` (one read back by
/// [`crate::persist::load`]: its decided leaves stand, its fresh ones are
/// handed out).
pub fn search_from<R: Knowledge + Clone + 'static>(
    rules: &R,
    tree: Tree,
    workers: Vec<Arc<dyn Worker>>,
    cfg: &JobsConfig,
    control: &MasterControl<'_>,
) -> Result<JobReport, JobError> {
    let first = tree.first;
    let board = tree.nodes[0].board;
    let board = &board;
    if cfg.job_nodes == 0 || cfg.local_nodes == 0 {
        return Err(JobError::Config(
            "a job's node budget must be at least 1".into(),
        ));
    }
    if cfg.timeout.is_zero() {
        return Err(JobError::Config("the job timeout must be positive".into()));
    }
    if cfg.trust == Trust::Agreement && control.keep.is_some() {
        return Err(JobError::Config(
            "a whole certificate needs every job's certificate: trust certificates, not agreement"
                .into(),
        ));
    }
    let start = Instant::now();
    // The judge: the job's own board (the master wrote its text), the
    // reply checked against it.
    let judge: Judge = {
        let (rules, limit) = (rules.clone(), cfg.check_limit);
        Arc::new(
            move |job: &Job, reply: &Reply| match rules.parse(&job.board) {
                // judged by what the master asked for
                _ if !job.certify => judge_claim(job.id, reply),
                Ok(b) => judge(&rules, job.id, &b, job.mover, reply, limit),
                Err(e) => Verdict::Failed(format!("the master's own board does not read: {e}")),
            },
        )
    };
    let mut pool = Pool::new(workers, &judge)?;
    let mut m = Master {
        rules,
        cfg,
        counts: JobCounts {
            tree_nodes: tree.nodes.len() as u64,
            ..JobCounts::default()
        },
        tree,
        lies: Vec::new(),
        next_id: 0,
        stop: control.stop,
        keep: control.keep,
        estimator: Estimator::default(),
        out_after_dispatch: 0,
        last_estimate: None,
        claims: BTreeMap::new(),
    };
    // The root itself without a move is decided without a job.
    if m.tree.nodes[0].state == State::Fresh && rules.options_while(board, first, |_| false) {
        m.counts.terminal += 1;
        m.tree.resolve(0, false);
    }
    // A snapshot for the caller; `sample`: after a change of the tree (an
    // answer, the master's own search), which the estimate learns from,
    // rather than a tick while jobs run.
    let snapshot = |m: &mut Master<'_, R>, pool: &Pool, sample: bool| {
        let elapsed_ms = start.elapsed().as_millis() as u64;
        let root_numbers = (m.tree.nodes[0].pn, m.tree.nodes[0].dn);
        let estimate = if sample {
            m.estimator.push(Sample {
                jobs: m.jobs_done(),
                ms: elapsed_ms,
                pn: root_numbers.0,
                dn: root_numbers.1,
            });
            let estimate = m.estimator.estimate();
            if let Some(e) = estimate {
                m.last_estimate = Some(LastEstimate {
                    at_jobs: m.jobs_done(),
                    at_ms: elapsed_ms,
                    estimate: e,
                });
            }
            estimate
        } else {
            m.last_estimate.as_ref().map(|l| l.estimate)
        };
        if let Some(f) = control.progress {
            let line = m.tree.most_proving_line();
            let line_moves = line
                .windows(2)
                .map(|w| move_cells(&m.tree.nodes[w[0]].board, &m.tree.nodes[w[1]].board))
                .collect();
            f(&JobProgress {
                counts: m.counts.clone(),
                in_flight: m.out_after_dispatch.max(pool.in_flight()),
                live_workers: pool.live(),
                out_nodes: pool.seen(),
                root_numbers,
                line_depth: line.len() - 1,
                line: line_moves,
                elapsed_ms,
                estimate,
            });
        }
    };
    let progress = |m: &mut Master<'_, R>, pool: &Pool| snapshot(m, pool, true);
    let save = |m: &Master<'_, R>| -> Result<(), JobError> {
        match control.checkpoint {
            Some(f) => f(&m.tree).map_err(JobError::Checkpoint),
            None => Ok(()),
        }
    };
    let mut saved = Instant::now();
    while m.tree.result().is_none() {
        if control.stop.is_some_and(|s| s.load(Relaxed)) {
            save(&m)?;
            return Err(JobError::Stopped(m.jobs_done()));
        }
        if control.checkpoint.is_some() && saved.elapsed() >= control.checkpoint_every {
            save(&m)?;
            saved = Instant::now();
        }
        let limited = cfg.max_jobs.is_some_and(|max| m.jobs_done() >= max);
        if !limited {
            m.dispatch(&mut pool)?;
        }
        if pool.in_flight() == 0 {
            if limited {
                break;
            }
            // No worker took a job: none is left (or none was given).
            let Some(n) = m.select() else {
                if m.tree.result().is_some() {
                    break;
                }
                return Err(JobError::Inconsistent(
                    "no job to hand out and none out, but the root is open".into(),
                ));
            };
            m.search_here(n)?;
            progress(&mut m, &pool);
            continue;
        }
        // Wait: for every answer (deterministic) or for the next one,
        // until the earliest deadline of a job not yet answered.
        let mut got: Vec<Message> = Vec::new();
        loop {
            let now = Instant::now();
            pool.watch(now, cfg.credited_nodes());
            let deadline = pool
                .slots
                .iter()
                .enumerate()
                .filter(|(j, _)| !got.iter().any(|g| g.0 == *j))
                .filter_map(|(_, s)| s.flight.as_ref().map(|f| f.progress_at + cfg.timeout))
                .min();
            let Some(deadline) = deadline else { break };
            if deadline <= now {
                // a job out has shown no progress for the timeout
                break;
            }
            // Wake at least once a TICK while jobs run (a job may take an
            // hour): the caller's progress (which also enforces its time
            // limit) and its stop flag are seen within a tick, and so is
            // each job's progress, which moves its deadline.
            let wait = deadline - now;
            match pool.rx.recv_timeout(wait.min(TICK)) {
                Ok(msg) => {
                    got.push(msg);
                    if !cfg.deterministic {
                        break;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    snapshot(&mut m, &pool, false);
                    if control.stop.is_some_and(|s| s.load(Relaxed)) {
                        // the answers already in are applied, then the
                        // loop's stop check saves the tree and returns
                        break;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(JobError::Inconsistent(
                        "every worker thread ended with jobs out".into(),
                    ));
                }
            }
        }
        // Answers in the order the jobs were handed out.
        got.sort_by_key(|g| g.1);
        for (i, job, r) in got {
            m.answer(&mut pool, i, job, r)?;
            progress(&mut m, &pool);
        }
        m.time_out(&mut pool, Instant::now());
    }
    save(&m)?;
    // A root decided as one job holds no move in the tree: the master's
    // own search names one (a root one job decided is small enough), and
    // only a move of the root's own options is named.
    let mut winning_move = m.tree.winning_move().copied();
    if winning_move.is_none() && m.tree.result() == Some(true) {
        let (_, mv, nodes) = search_here(
            rules,
            board,
            first,
            cfg.local_nodes,
            cfg.table_bytes,
            &Control {
                stop: control.stop,
                ..Control::default()
            },
        )
        .map_err(|e| match e {
            SearchError::Stopped { .. } => JobError::Stopped(m.jobs_done()),
            e => JobError::Search(e),
        })?;
        m.counts.master_nodes += nodes;
        winning_move = mv.filter(|b| distinct_options(rules, board, first).contains(b));
    }
    let workers = pool.slots.iter().map(|s| s.report.clone()).collect();
    m.counts.tree_nodes = m.tree.nodes.len() as u64;
    Ok(JobReport {
        first,
        first_wins: m.tree.result(),
        winning_move: winning_move.map(|after| JobMove::new(rules, board, &after)),
        root_numbers: (m.tree.nodes[0].pn, m.tree.nodes[0].dn),
        counts: m.counts,
        workers,
        lies: m.lies,
        elapsed: start.elapsed(),
        last_estimate: m.last_estimate,
        trust: cfg.trust,
        agreed_in_proof: m.tree.agreed_in_proof(),
        tree: m.tree,
    })
}
