//! The job-level search against the plain search, and against workers
//! that lie, return garbage, crash or never answer.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

use partizan_games::{Board, Clobber, Domineering, Player, Ruleset};
use partizan_jobs::{
    search, Answer, Job, JobProgress, JobReport, JobsConfig, LieKind, LocalWorker, MasterControl,
    Reply, Worker,
};
use partizan_solve::outcome::Convention;
use partizan_solve::search::{solve, Control, Knowledge, SearchConfig};

use crate::common;

/// Tiny budgets, so that the tree really grows, and the first two plies
/// expanded by the master, so that even the smallest boards are played
/// through jobs.
fn cfg() -> JobsConfig {
    JobsConfig {
        check_limit: 5_000_000,
        timeout: Duration::from_secs(60),
        strikes: 1,
        expand_plies: 2,
        max_jobs: None,
        ..common::tiny_budgets()
    }
}

fn honest<R: Knowledge + Clone + 'static>(r: R, n: usize) -> Vec<Arc<dyn Worker>> {
    (0..n)
        .map(|i| Arc::new(LocalWorker::new(r.clone(), format!("local-{i}"))) as Arc<dyn Worker>)
        .collect()
}

/// The plain search's answer: (Left first wins, Right first wins).
fn plain<R: Knowledge>(r: &R, b: &Board) -> (bool, bool) {
    let cfg = SearchConfig::for_ruleset(r, Convention::Normal);
    let rep = solve(r, b, &cfg, &Control::default()).unwrap();
    (rep.left.wins, rep.right.wins)
}

fn run<R: Knowledge + Clone + 'static>(
    r: &R,
    b: &Board,
    first: Player,
    workers: Vec<Arc<dyn Worker>>,
    cfg: &JobsConfig,
) -> JobReport {
    search(r, b, first, workers, cfg, &MasterControl::default()).unwrap()
}

/// The job-level search agrees with the plain one on `text` for both
/// first players; (jobs expanded, certificates accepted).
fn agree_on<R: Knowledge + Clone + 'static>(r: R, text: &str, workers: usize) -> (u64, u64) {
    let b = r.parse(text).unwrap();
    let (l, rt) = plain(&r, &b);
    let (mut unresolved, mut accepted) = (0, 0);
    for (first, want) in [(Player::Left, l), (Player::Right, rt)] {
        let rep = run(&r, &b, first, honest(r.clone(), workers), &cfg());
        assert_eq!(rep.first_wins, Some(want), "{} {text} {first:?}", r.name());
        assert_eq!(rep.counts.lies_total(), 0);
        assert_eq!(
            rep.counts.searched_here, 0,
            "honest workers: nothing redone"
        );
        assert_eq!(rep.counts.crashes + rep.counts.timeouts, 0);
        unresolved += rep.counts.unresolved;
        accepted += rep.counts.accepted;
    }
    (unresolved, accepted)
}

fn empty(rows: usize, cols: usize) -> String {
    vec![".".repeat(cols); rows].join("|")
}

#[test]
fn domineering_rectangles_2_to_5_agree_with_the_plain_search() {
    let mut accepted = 0;
    for rows in 2..=5 {
        for cols in 2..=5 {
            accepted += agree_on(Domineering, &empty(rows, cols), 2).1;
        }
    }
    // Answers were taken only with checked certificates.
    assert!(accepted > 50, "{accepted}");
}

#[test]
fn unresolved_jobs_are_expanded_into_jobs() {
    // 7 x 6 (7 rows), Left first: the root's search needs more than a
    // budget of 8192 nodes, so it comes back unresolved and its children
    // become jobs (measured: 37 jobs, 1 unresolved).
    let b = Domineering.parse(&empty(7, 6)).unwrap();
    let (l, _) = plain(&Domineering, &b);
    let c = JobsConfig {
        job_nodes: 8192,
        expand_plies: 0,
        ..cfg()
    };
    let rep = run(&Domineering, &b, Player::Left, honest(Domineering, 2), &c);
    assert_eq!(rep.first_wins, Some(l));
    assert!(rep.counts.unresolved > 0);
    assert!(rep.counts.sent > rep.counts.unresolved);
    assert_eq!(
        rep.counts.accepted + rep.counts.stale,
        rep.counts.sent - rep.counts.unresolved
    );
    // The master alone on 7 x 7 with a budget of 1 (measured: 431 jobs in
    // 0.5 s, release build).
    let b = Domineering.parse(&empty(7, 7)).unwrap();
    let (l, r) = plain(&Domineering, &b);
    for (first, want) in [(Player::Left, l), (Player::Right, r)] {
        let rep = run(&Domineering, &b, first, Vec::new(), &cfg());
        assert_eq!(rep.first_wins, Some(want), "7 x 7 {first:?}");
        assert!(rep.counts.unresolved > 10);
    }
}

#[test]
#[ignore = "about a minute on 2 cores: cargo test -p partizan-jobs -- --ignored"]
fn domineering_6_and_7_with_workers_and_a_budget_of_one() {
    for (rows, cols) in [(6, 6), (6, 7), (7, 6), (7, 7)] {
        agree_on(Domineering, &empty(rows, cols), 2);
    }
}

#[test]
fn clobber_checkerboards_agree_with_the_plain_search() {
    for (rows, cols) in [(1, 2), (2, 2), (2, 3), (3, 3), (2, 4), (1, 6), (3, 4)] {
        let text = Clobber.rectangle(rows, cols).unwrap();
        agree_on(Clobber, &text, 2);
    }
}

#[test]
fn deterministic_mode_repeats_itself() {
    let b = Domineering.parse(&empty(5, 5)).unwrap();
    let a = run(
        &Domineering,
        &b,
        Player::Left,
        honest(Domineering, 2),
        &cfg(),
    );
    let c = run(
        &Domineering,
        &b,
        Player::Left,
        honest(Domineering, 2),
        &cfg(),
    );
    // Everything but the times.
    let untimed = |r: &JobReport| {
        let mut c = r.counts.clone();
        (c.check_ms, c.worker_ms) = (0, 0);
        c
    };
    assert_eq!(untimed(&a), untimed(&c));
    assert!(a.counts.tree_nodes > 1, "5 x 5 was expanded");
}

#[test]
fn asynchronous_mode_and_the_master_alone_agree() {
    let b = Domineering.parse(&empty(5, 4)).unwrap();
    let (l, _) = plain(&Domineering, &b);
    let asynch = JobsConfig {
        deterministic: false,
        ..cfg()
    };
    let rep = run(
        &Domineering,
        &b,
        Player::Left,
        honest(Domineering, 3),
        &asynch,
    );
    assert_eq!(rep.first_wins, Some(l));
    // No worker at all: the master searches every job itself.
    let alone = run(&Domineering, &b, Player::Left, Vec::new(), &cfg());
    assert_eq!(alone.first_wins, Some(l));
    assert_eq!(alone.counts.sent, 0);
    assert!(alone.counts.searched_here > 0);
}

#[test]
fn a_terminal_root_and_bad_configurations() {
    let b = Domineering.parse("#.|..").unwrap();
    // Left has no vertical domino there... (column 1 has two cells).
    let rep = run(&Domineering, &b, Player::Left, Vec::new(), &cfg());
    assert_eq!(rep.first_wins, Some(plain(&Domineering, &b).0));
    let b = Domineering.parse(".|.").unwrap();
    let rep = run(&Domineering, &b, Player::Right, Vec::new(), &cfg());
    assert_eq!(rep.first_wins, Some(false), "Right has no move on 2 x 1");
    assert_eq!(rep.counts.sent + rep.counts.searched_here, 0);
    let bad = JobsConfig {
        job_nodes: 0,
        ..cfg()
    };
    let e = search(
        &Domineering,
        &b,
        Player::Left,
        Vec::new(),
        &bad,
        &MasterControl::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("budget"), "{e}");
}

// ---- Workers that cannot be trusted ----

/// How a [`Liar`] lies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Lie {
    /// Flips the winner, keeping the honest certificate.
    FlipClaim,
    /// Flips the winner and the certificate's claim with it (a forged
    /// proof: the replay refutes it).
    Forge,
    /// Claims the mover wins with a certificate that is not one.
    Garbage,
    /// Answers, correctly, another job's number.
    WrongJob,
    /// Sends a true certificate of another position.
    OtherBoard,
    /// Panics.
    Crash,
    /// Never answers (until told to stop).
    Hang,
    /// Says every job was too big.
    Lazy,
    /// Answers truly, but claims u64::MAX nodes and milliseconds, and
    /// tells u64::MAX nodes while it searches.
    Boast,
}

struct Liar {
    how: Lie,
    inner: LocalWorker<Domineering>,
}

fn liar(how: Lie) -> Arc<dyn Worker> {
    Arc::new(Liar {
        how,
        inner: LocalWorker::new(Domineering, format!("liar-{how:?}")),
    })
}

/// The nodes a hanging liar says it has searched while it hangs.
const HANG_TELLS: u64 = 12_345;

impl Worker for Liar {
    fn name(&self) -> String {
        format!("liar-{:?}", self.how)
    }

    fn run_watched(&self, job: &Job, stop: &AtomicBool, seen: &AtomicU64) -> Reply {
        match self.how {
            Lie::Hang => seen.store(HANG_TELLS, Relaxed),
            Lie::Boast => seen.store(u64::MAX, Relaxed),
            _ => {}
        }
        self.run(job, stop)
    }

    fn run(&self, job: &Job, stop: &AtomicBool) -> Reply {
        match self.how {
            Lie::Crash => panic!("a deliberate crash"),
            Lie::Hang => {
                let t = Instant::now();
                while !stop.load(Relaxed) && t.elapsed() < Duration::from_secs(30) {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Reply {
                    job: job.id,
                    answer: Answer::Unresolved,
                    nodes: 0,
                    elapsed: t.elapsed(),
                }
            }
            Lie::Lazy => Reply {
                job: job.id,
                answer: Answer::Unresolved,
                nodes: 0,
                elapsed: Duration::ZERO,
            },
            Lie::Garbage => Reply {
                job: job.id,
                answer: Answer::Decided {
                    mover_wins: true,
                    certificate: "partizan-certificate 2\nthis is not a proof\n".into(),
                },
                nodes: 1,
                elapsed: Duration::ZERO,
            },
            Lie::OtherBoard => {
                // A true proof, of the 2 x 2 board, whatever was asked.
                let mut other = job.clone();
                other.board = "..|..".into();
                other.max_nodes = u64::MAX;
                let mut r = self.inner.run(&other, stop);
                r.job = job.id;
                r
            }
            Lie::Boast => {
                // long enough for the master's once-a-second look to
                // find both boasters out
                std::thread::sleep(Duration::from_millis(2500));
                let mut r = self.inner.run(job, stop);
                r.nodes = u64::MAX;
                r.elapsed = Duration::from_millis(u64::MAX);
                r
            }
            Lie::FlipClaim | Lie::Forge | Lie::WrongJob => {
                let mut r = self.inner.run(job, stop);
                if let Answer::Decided {
                    mover_wins,
                    certificate,
                } = &mut r.answer
                {
                    *mover_wins = !*mover_wins;
                    if let Lie::Forge = self.how {
                        let (from, to) = if *mover_wins {
                            ("loses", "wins")
                        } else {
                            ("wins", "loses")
                        };
                        let lines: Vec<String> = certificate
                            .lines()
                            .map(|l| {
                                if l.starts_with("claim ") {
                                    l.replace(from, to)
                                } else {
                                    l.to_string()
                                }
                            })
                            .collect();
                        *certificate = lines.join("\n") + "\n";
                    }
                }
                if let Lie::WrongJob = self.how {
                    r.job += 1;
                }
                r
            }
        }
    }
}

/// Every Domineering board both ways through `workers()` gives the plain
/// search's answer; the reports, summed.
fn against(workers: impl Fn() -> Vec<Arc<dyn Worker>>, cfg: &JobsConfig) -> Vec<JobReport> {
    let mut reps = Vec::new();
    for (rows, cols) in [(3, 3), (4, 4), (3, 5), (5, 4)] {
        let b = Domineering.parse(&empty(rows, cols)).unwrap();
        let (l, r) = plain(&Domineering, &b);
        for (first, want) in [(Player::Left, l), (Player::Right, r)] {
            let rep = run(&Domineering, &b, first, workers(), cfg);
            assert_eq!(rep.first_wins, Some(want), "{rows} x {cols} {first:?}");
            reps.push(rep);
        }
    }
    reps
}

fn lies(reps: &[JobReport], kind: LieKind) -> u64 {
    reps.iter()
        .map(|r| r.counts.lies.get(&kind).copied().unwrap_or(0))
        .sum()
}

#[test]
fn lying_workers_cannot_change_the_answer() {
    // Larger budgets: the liars get decided jobs to lie about.
    let c = JobsConfig {
        job_nodes: 20_000,
        ..cfg()
    };
    for (how, kind) in [
        (Lie::FlipClaim, LieKind::Mismatch),
        (Lie::Forge, LieKind::Refuted),
        (Lie::Garbage, LieKind::Garbage),
        (Lie::WrongJob, LieKind::WrongJob),
        (Lie::OtherBoard, LieKind::Mismatch),
    ] {
        // A liar alone: caught, retired, and the master does the rest.
        let reps = against(|| vec![liar(how)], &c);
        assert!(lies(&reps, kind) > 0, "{how:?} never caught");
        assert!(
            reps.iter()
                .all(|r| r.counts.lies_total() == 0 || r.workers[0].retired.is_some()),
            "{how:?}: a caught liar is retired"
        );
        for r in &reps {
            assert!(r
                .lies
                .iter()
                .all(|l| l.kind == kind && !l.detail.is_empty()));
        }
        // A liar among honest workers, asked again and again (strikes).
        let patient = JobsConfig {
            strikes: 1000,
            ..c.clone()
        };
        let reps = against(
            || {
                let mut w = honest(Domineering, 1);
                w.insert(0, liar(how));
                w
            },
            &patient,
        );
        assert!(lies(&reps, kind) > 0, "{how:?} among honest workers");
        assert!(reps
            .iter()
            .all(|r| r.counts.searched_here >= r.counts.lies_total()));
    }
}

#[test]
fn a_lazy_worker_costs_work_not_the_answer() {
    let reps = against(|| vec![liar(Lie::Lazy)], &cfg());
    // Every job it took was expanded; the answers are still right.
    assert!(reps.iter().all(|r| r.counts.accepted == 0));
    assert!(reps.iter().any(|r| r.counts.terminal > 0));
}

#[test]
fn crashing_workers_lose_their_jobs_only() {
    let reps = against(
        || {
            let mut w = honest(Domineering, 1);
            w.insert(0, liar(Lie::Crash));
            w
        },
        &cfg(),
    );
    let crashes: u64 = reps.iter().map(|r| r.counts.crashes).sum();
    assert!(crashes > 0);
    for r in &reps {
        // Retired at its first crash: at most one crash per search.
        assert!(r.counts.crashes <= 1);
        if r.counts.crashes == 1 {
            let why = r.workers[0].retired.as_deref().unwrap_or("");
            assert!(why.contains("crashed"), "{why}");
        }
    }
    // Nothing but crashing workers: the master searches alone.
    let reps = against(|| vec![liar(Lie::Crash), liar(Lie::Crash)], &cfg());
    assert!(reps
        .iter()
        .all(|r| r.counts.crashes == 2 || r.first_wins.is_some()));
}

#[test]
fn a_worker_that_never_answers_times_out() {
    let c = JobsConfig {
        timeout: Duration::from_millis(150),
        ..cfg()
    };
    for deterministic in [true, false] {
        let c = JobsConfig {
            deterministic,
            ..c.clone()
        };
        let t = Instant::now();
        let reps = against(
            || {
                let mut w = honest(Domineering, 1);
                w.insert(0, liar(Lie::Hang));
                w
            },
            &c,
        );
        // Deterministic: the silent worker holds the first job of each
        // search, which waits for it. Asynchronous: the honest worker may
        // finish the search before the timeout.
        for r in &reps {
            assert!(r.counts.timeouts <= 1);
            assert!(!deterministic || r.counts.timeouts == 1);
            if r.counts.timeouts == 1 {
                let why = r.workers[0].retired.as_deref().unwrap_or("");
                assert!(why.contains("no answer and no progress"), "{why}");
            }
        }
        // 8 searches, each waiting out one timeout.
        assert!(t.elapsed() < Duration::from_secs(20));
    }
}

/// A worker that tells a rising node count every 20 ms for `steps` steps
/// of `step` nodes (for ever, until stopped, with `None`), then answers
/// truly: a long job on a loaded machine, or a worker that counts on
/// without answering.
struct Plodder {
    steps: Option<u64>,
    step: u64,
    inner: LocalWorker<Domineering>,
}

fn plodder(steps: Option<u64>, step: u64) -> Arc<dyn Worker> {
    Arc::new(Plodder {
        steps,
        step,
        inner: LocalWorker::new(Domineering, "plodder"),
    })
}

impl Worker for Plodder {
    fn name(&self) -> String {
        "plodder".into()
    }

    fn run(&self, job: &Job, stop: &AtomicBool) -> Reply {
        self.run_watched(job, stop, &AtomicU64::new(0))
    }

    fn run_watched(&self, job: &Job, stop: &AtomicBool, seen: &AtomicU64) -> Reply {
        let t = Instant::now();
        let mut k = 0;
        while self.steps.is_none_or(|n| k < n) && !stop.load(Relaxed) {
            if t.elapsed() > Duration::from_secs(30) {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
            k += 1;
            seen.store(k * self.step, Relaxed);
        }
        self.inner.run(job, stop)
    }
}

/// The timeout counts from a job's last progress, not from when it was
/// sent: a worker whose node count keeps rising keeps its job for five
/// times the timeout and its answer is taken.
#[test]
fn a_job_that_makes_progress_is_not_timed_out() {
    let b = Domineering.parse(&empty(4, 4)).unwrap();
    let (want, _) = plain(&Domineering, &b);
    let c = JobsConfig {
        timeout: Duration::from_millis(200),
        job_nodes: 1 << 20,
        local_nodes: 1 << 20,
        expand_plies: 0,
        ..cfg()
    };
    let rep = run(
        &Domineering,
        &b,
        Player::Left,
        vec![plodder(Some(50), 100)],
        &c,
    );
    assert_eq!(rep.first_wins, Some(want));
    assert_eq!(rep.counts.timeouts, 0);
    assert_eq!(rep.counts.sent, 1, "one job, the whole board");
    assert_eq!(rep.counts.searched_here, 0, "the worker's answer was taken");
    assert!(rep.workers[0].retired.is_none());
}

/// Reported nodes count as progress only up to a few times the job's
/// budget: a worker that counts on for ever without answering loses its
/// job a timeout after that, and the answer is the plain search's.
#[test]
fn a_worker_that_counts_on_for_ever_times_out() {
    let c = JobsConfig {
        timeout: Duration::from_millis(200),
        job_nodes: 1000,
        local_nodes: 1000,
        ..cfg()
    };
    let t = Instant::now();
    let reps = against(
        || {
            let mut w = honest(Domineering, 1);
            w.insert(0, plodder(None, 500));
            w
        },
        &c,
    );
    for r in &reps {
        assert_eq!(
            r.counts.timeouts, 1,
            "deterministic: it holds the first job"
        );
        let why = r.workers[0].retired.as_deref().unwrap_or("");
        assert!(why.contains("no progress"), "{why}");
    }
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
}

#[test]
fn the_stop_flag_and_the_job_limit() {
    let b = Domineering.parse(&empty(5, 5)).unwrap();
    let limited = JobsConfig {
        max_jobs: Some(3),
        ..cfg()
    };
    let rep = run(
        &Domineering,
        &b,
        Player::Left,
        honest(Domineering, 1),
        &limited,
    );
    assert_eq!(rep.first_wins, None, "stopped undecided");
    assert_eq!(rep.counts.sent + rep.counts.searched_here, 3);
    let stop = AtomicBool::new(true);
    let ctl = MasterControl {
        stop: Some(&stop),
        ..MasterControl::default()
    };
    let e = search(
        &Domineering,
        &b,
        Player::Left,
        honest(Domineering, 1),
        &cfg(),
        &ctl,
    )
    .unwrap_err();
    assert!(e.to_string().contains("stopped"), "{e}");
}

/// A job may run for an hour: while it does, the master still shows its
/// progress (about once a second) with the nodes the worker tells as it
/// searches, and sees its stop flag (raised here by the progress
/// callback, as the command line's --max-seconds does), then returns
/// stopped, long before the job would have ended.
#[test]
fn progress_and_stop_while_a_long_job_runs() {
    let b = Domineering.parse(&empty(5, 5)).unwrap();
    let stop = AtomicBool::new(false);
    let shown = std::sync::atomic::AtomicUsize::new(0);
    let told = AtomicBool::new(false);
    let show = |p: &JobProgress| {
        assert!(p.counts.sent >= 1 && p.in_flight == 1, "the job is out");
        assert_eq!(p.counts.timeouts + p.counts.crashes, 0);
        // before the worker's thread has said anything, or what it said
        assert!([0, HANG_TELLS].contains(&p.out_nodes), "{}", p.out_nodes);
        told.fetch_or(p.out_nodes == HANG_TELLS, Relaxed);
        if shown.fetch_add(1, Relaxed) + 1 >= 2 && told.load(Relaxed) {
            stop.store(true, Relaxed);
        }
    };
    let ctl = MasterControl {
        stop: Some(&stop),
        progress: Some(&show),
        ..MasterControl::default()
    };
    let long = JobsConfig {
        timeout: Duration::from_secs(600),
        ..cfg()
    };
    let t0 = Instant::now();
    let e = search(
        &Domineering,
        &b,
        Player::Left,
        vec![liar(Lie::Hang)],
        &long,
        &ctl,
    )
    .unwrap_err();
    assert!(e.to_string().contains("stopped"), "{e}");
    assert!(shown.load(Relaxed) >= 2 && told.load(Relaxed));
    // two ticks of a second, not the hanging job's 30 s nor the timeout
    assert!(t0.elapsed() < Duration::from_secs(20), "{:?}", t0.elapsed());
}

/// Workers that boast (u64::MAX nodes and milliseconds in every reply,
/// u64::MAX nodes told while they search) cannot overflow a count or a
/// rate: the counts saturate, the progress line is still written, and the
/// answer is the plain search's.
#[test]
fn boasting_workers_overflow_no_count() {
    let b = Domineering.parse(&empty(3, 4)).unwrap();
    let (want, _) = plain(&Domineering, &b);
    let shown = std::sync::atomic::AtomicUsize::new(0);
    let saturated = AtomicBool::new(false);
    let show = |p: &JobProgress| {
        shown.fetch_add(1, Relaxed);
        saturated.fetch_or(p.out_nodes == u64::MAX && p.in_flight == 2, Relaxed);
        assert!(p.worker_nodes_per_sec().is_finite());
        assert!(p.text(Player::Left).starts_with("Left first: "));
    };
    let ctl = MasterControl {
        progress: Some(&show),
        ..MasterControl::default()
    };
    let rep = search(
        &Domineering,
        &b,
        Player::Left,
        vec![liar(Lie::Boast), liar(Lie::Boast)],
        &cfg(),
        &ctl,
    )
    .unwrap();
    assert_eq!(rep.first_wins, Some(want));
    assert_eq!(rep.counts.lies_total(), 0);
    assert_eq!(
        (rep.counts.worker_nodes, rep.counts.worker_ms),
        (u64::MAX, u64::MAX)
    );
    assert!(shown.load(Relaxed) > 0);
    assert!(saturated.load(Relaxed), "two boasts out at once, saturated");
}
