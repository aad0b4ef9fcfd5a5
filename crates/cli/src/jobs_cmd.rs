//! `partizan outcome RULESET BOARD --jobs N` (or `--cluster ADDRESS`, or
//! `--worker-command CMD`): the board decided by the job-level
//! proof-number search of `partizan_jobs`, its jobs on local worker
//! processes (or threads), a Dask cluster through the Python package's
//! bridge, or commands of the user's (`ssh node partizan job-worker`);
//! and `partizan job-worker`, the worker's side.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use partizan_games::{Board, Player};
use partizan_jobs::persist::{decode, encode, save, start_or_resume};
use partizan_jobs::{
    search_from, write_whole, Bridge, JobError, JobProgress, JobReport, JobsConfig, Kept,
    LocalWorker, MasterControl, Trust, WholeReport, Worker,
};
use partizan_solve::search::{First, Knowledge, MAX_THREADS};
use partizan_store::{Store, StoreChoice};
use serde::Serialize;

use crate::outcome_cmd::{is_standard_stream, OutcomeArgs};

/// How long a worker process or a cluster's bridge may take to say it is
/// ready (a bridge connects to its scheduler first).
const STARTUP: Duration = Duration::from_secs(60);

#[derive(Serialize)]
struct JobsOutput<'a> {
    ruleset: &'a str,
    board: String,
    /// Where the jobs ran.
    workers: String,
    /// L, R, N or P when both first players were searched.
    class: Option<&'static str>,
    searches: Vec<JobReport>,
    /// The whole certificate written (`--certificate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    certificate: Option<CertificateOut>,
}

/// The whole certificate a run wrote.
#[derive(Serialize)]
struct CertificateOut {
    file: String,
    #[serde(flatten)]
    holds: WholeReport,
    /// Its size in bytes (as written: compressed for a `.gz` name).
    bytes: Option<u64>,
}

/// `partizan job-worker`'s options.
#[derive(clap::Args, Debug)]
pub struct JobWorkerArgs {
    /// The most transposition table this worker gives one job, in MB,
    /// whatever the master asks (the worker's memory is its owner's to
    /// give). A local search's own workers get the search's --table-mb.
    #[arg(long, value_name = "MB", default_value_t = (partizan_jobs::wire::MAX_JOB_TABLE >> 20) as u64)]
    pub max_table_mb: u64,
}

/// `partizan job-worker`: answer jobs from standard input on standard
/// output, one line each, until the input ends.
pub fn job_worker(args: &JobWorkerArgs) -> Result<()> {
    if args.max_table_mb == 0 {
        bail!("--max-table-mb must be at least 1");
    }
    let max_table = args
        .max_table_mb
        .checked_mul(1 << 20)
        .and_then(|b| usize::try_from(b).ok())
        .context("--max-table-mb is too large")?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    partizan_jobs::wire::serve(stdin.lock(), stdout.lock(), max_table)
        .context("job-worker: its input or output failed")?;
    Ok(())
}

/// The workers of one search: their pool, the bridges to shut down at the
/// end, and a line saying where the jobs run.
type Workers = (Vec<Arc<dyn Worker>>, Vec<Arc<Bridge>>, String);

/// The Python that runs a `--cluster`'s module: `--python PATH`, else
/// `$PARTIZAN_PYTHON`, else `python3`.
pub(crate) fn python_command(flag: Option<&str>) -> String {
    flag.map(str::to_string)
        .or_else(|| std::env::var("PARTIZAN_PYTHON").ok())
        .unwrap_or_else(|| "python3".into())
}

/// The workers `args` ask for.
fn workers<R: Knowledge + Copy + 'static>(r: &R, args: &OutcomeArgs) -> Result<Workers> {
    if let Some(n) = args.jobs {
        if !(1..=MAX_THREADS).contains(&n) {
            bail!("--jobs must be between 1 and {MAX_THREADS} workers, not {n}");
        }
    }
    let given = [
        args.cluster.is_some(),
        !args.worker_command.is_empty(),
        args.workers.is_some(),
    ];
    if given.iter().filter(|&&g| g).count() > 1 {
        bail!("give one of --cluster, --worker-command and --workers");
    }
    if let Some(address) = &args.cluster {
        let python = python_command(args.python.as_deref());
        let mut cmd = vec![
            python,
            "-m".into(),
            "partizan.jobs_bridge".into(),
            address.clone(),
        ];
        // The cluster's tasks give a job the table the search asks for.
        if let Some(mb) = args.table_mb {
            cmd.extend(["--max-table-mb".into(), mb.to_string()]);
        }
        let bridge = Bridge::start(format!("dask {address}"), cmd, false, STARTUP)
            .map_err(|e| anyhow::anyhow!("--cluster {address}: {e}"))?;
        let pool = bridge.workers(args.jobs);
        let said = format!("{} ({} at once)", bridge.name(), pool.len());
        return Ok((pool, vec![bridge], said));
    }
    if !args.worker_command.is_empty() {
        let mut pool = Vec::new();
        let mut bridges = Vec::new();
        for c in &args.worker_command {
            let cmd: Vec<String> = c.split_whitespace().map(str::to_string).collect();
            let b = Bridge::start(c.clone(), cmd, true, STARTUP)
                .map_err(|e| anyhow::anyhow!("--worker-command {c}: {e}"))?;
            pool.extend(b.workers(None));
            bridges.push(b);
        }
        if let Some(n) = args.jobs {
            pool.truncate(n);
        }
        let said = format!("{} worker commands", args.worker_command.len());
        return Ok((pool, bridges, said));
    }
    let n = args.jobs.unwrap_or(1);
    if args.workers.as_deref() == Some("threads") {
        let pool = (0..n)
            .map(|i| Arc::new(LocalWorker::new(*r, format!("thread-{i}"))) as Arc<dyn Worker>)
            .collect();
        return Ok((pool, Vec::new(), format!("{n} local threads")));
    }
    let exe = std::env::current_exe()
        .context("cannot find this program to start its worker processes")?
        .display()
        .to_string();
    let mut pool = Vec::new();
    let mut bridges = Vec::new();
    // The search's own workers give a job the table it asks for.
    let mut command = vec![exe, "job-worker".into()];
    if let Some(mb) = args.table_mb {
        command.extend(["--max-table-mb".into(), mb.to_string()]);
    }
    for _ in 0..n {
        let b = Bridge::start("job-worker", command.clone(), true, STARTUP)
            .map_err(|e| anyhow::anyhow!("a local worker process: {e}"))?;
        pool.extend(b.workers(None));
        bridges.push(b);
    }
    Ok((pool, bridges, format!("{n} local processes")))
}

/// Where a search's tree is kept: a file of its own, the store, or
/// nowhere (`--no-store` without `--jobs-file`).
enum Keep {
    File(std::path::PathBuf),
    Store {
        store: Store,
        /// The census key of this search's tree.
        key: String,
        /// Held while the search runs: another master of the same search
        /// on the same store is refused.
        _lock: std::fs::File,
        /// The folder of its decided jobs' certificates.
        certs: std::path::PathBuf,
    },
    Nowhere,
}

impl Keep {
    /// Where the decided jobs' certificates of this search are kept (with
    /// `--certificate`): beside the tree (`FILE.certs`, or beside the
    /// store), or for a tree kept nowhere a folder of this run's own in
    /// the system's temporary folder (removed at the end: `true`).
    fn certs_dir(&self, first: Player) -> (std::path::PathBuf, bool) {
        match self {
            Keep::File(path) => (Kept::beside(path), false),
            Keep::Store { certs, .. } => (certs.clone(), false),
            Keep::Nowhere => (Kept::temporary(first), true),
        }
    }
}

/// Fail now, before any search, if the whole certificate could not be
/// written to `path` at the end.
fn certificate_writable(path: &std::path::Path) -> Result<()> {
    if is_standard_stream(path) {
        return Ok(());
    }
    partizan_report::check::certificate_writable(path)
        .map_err(|e| anyhow::anyhow!("--certificate {e}"))
}

/// The store's key of the tree of `board` with `first` to move.
fn store_key(ruleset: &str, first: Player, board: &str) -> String {
    let p = if first == Player::Left {
        "left"
    } else {
        "right"
    };
    format!("jobs/{ruleset}/{p}/{board}")
}

/// The store, the lock of one search's tree in it, and the folder of its
/// decided jobs' certificates.
type InStore = (Store, std::fs::File, std::path::PathBuf);

/// Open the store for one search's tree and take its lock (a file beside
/// the store named after the search): `None` with `--no-store`. The
/// search's kept certificates go in a folder beside the lock.
fn keep_in_store(store: &StoreChoice, key: &str) -> Result<Option<InStore>> {
    let Some(path) = store.path()? else {
        return Ok(None);
    };
    let Some(st) = store.open()? else {
        return Ok(None);
    };
    let name = format!(
        "{}.jobs-{:08x}",
        path.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default(),
        crc32fast::hash(key.as_bytes())
    );
    let lock_path = path.with_file_name(format!("{name}.lock"));
    let certs = path.with_file_name(format!("{name}.certs"));
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .with_context(|| format!("cannot open the lock {}", lock_path.display()))?;
    match fs4::FileExt::try_lock(&f) {
        Ok(()) => Ok(Some((st, f, certs))),
        Err(fs4::TryLockError::WouldBlock) => bail!(
            "another master is running this search on the store {} (its lock {} is held): wait for it, or give --jobs-file FILE or --no-store",
            path.display(),
            lock_path.display()
        ),
        Err(fs4::TryLockError::Error(e)) => bail!("cannot lock {}: {e}", lock_path.display()),
    }
}

/// Run the job-level search for the first players `args` ask for.
pub fn run<R: Knowledge + Copy + 'static>(
    r: &R,
    board: &Board,
    args: &OutcomeArgs,
    store: &StoreChoice,
    json_out: bool,
) -> Result<()> {
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
    let trust: Trust = args
        .trust
        .as_deref()
        .unwrap_or("certificates")
        .parse()
        .map_err(|e: String| anyhow::anyhow!(e))?;
    if trust == Trust::Agreement && args.certificate.is_some() {
        bail!("--certificate needs every job's certificate: give --trust certificates (the default), not agreement");
    }
    let timeout = args.job_timeout.unwrap_or(JobsConfig::default().timeout);
    let cfg = JobsConfig {
        trust,
        timeout,
        job_nodes,
        local_nodes: job_nodes,
        table_bytes: usize::try_from(table_mb.min(1 << 14) << 20)?,
        // a worker process that died is started again: a few strikes
        // before its slot is given up
        strikes: 3,
        expand_plies: args.job_plies.unwrap_or(0),
        ..JobsConfig::default()
    };
    let key = &partizan_seal::user_key().key;
    // Ctrl-C, a kill (SIGTERM) and --max-seconds stop the master, which
    // writes its tree first.
    let stop = Arc::new(AtomicBool::new(false));
    {
        let s = Arc::clone(&stop);
        let _ = ctrlc::set_handler(move || s.store(true, Relaxed));
    }
    let started = Instant::now();
    let deadline = args
        .max_seconds
        .map(|s| started + Duration::from_secs_f64(s.max(0.0)));
    let tty = std::io::stderr().is_terminal() && !json_out && args.progress_lines.is_none();
    if let Some(path) = &args.certificate {
        certificate_writable(path)?;
    }
    let mut searches = Vec::new();
    // each search's kept certificates, and whether their folder is this
    // run's own (removed at the end)
    let mut kept_all: Vec<(Kept, bool)> = Vec::new();
    let cleanup = |kept_all: &[(Kept, bool)]| {
        for (k, own) in kept_all {
            if *own {
                let _ = std::fs::remove_dir_all(k.dir());
            }
        }
    };
    let mut said = String::new();
    for &p in &firsts {
        let keep = match &args.jobs_file {
            Some(path) => Keep::File(path.clone()),
            None => {
                let key = store_key(r.name(), p, &r.format(board));
                match keep_in_store(store, &key)? {
                    Some((store, lock, certs)) => Keep::Store {
                        store,
                        key,
                        _lock: lock,
                        certs,
                    },
                    None => Keep::Nowhere,
                }
            }
        };
        let (mut tree, resumed) = match &keep {
            Keep::File(path) => start_or_resume(path, r, key, board, p)?,
            Keep::Store { store, key: k, .. } => {
                match store.get_census(k) {
                    Ok(Some(v)) => match v["tree"]
                        .as_str()
                        .ok_or_else(|| "no tree in the entry".to_string())
                        .and_then(|t| decode(r, t, key, board, p).map_err(|e| e.to_string()))
                    {
                        Ok(t) => (t, true),
                        Err(why) => {
                            eprintln!("warning: the stored tree of this search is refused ({why}); starting afresh");
                            (partizan_jobs::Tree::new(*board, p), false)
                        }
                    },
                    Ok(None) => (partizan_jobs::Tree::new(*board, p), false),
                    Err(e) => {
                        eprintln!("warning: the stored tree of this search is refused ({e}); starting afresh");
                        (partizan_jobs::Tree::new(*board, p), false)
                    }
                }
            }
            Keep::Nowhere => (partizan_jobs::Tree::new(*board, p), false),
        };
        if resumed {
            let from = match &keep {
                Keep::File(path) => path.display().to_string(),
                _ => "the store".to_string(),
            };
            eprintln!("resumed {} positions from {from}", tree.nodes.len());
        }
        let kept = match &args.certificate {
            Some(_) => {
                let (dir, own) = keep.certs_dir(p);
                let k = Kept::open(&dir, key).map_err(|e| anyhow::anyhow!(e));
                let k = match k {
                    Ok(k) => k,
                    Err(e) => {
                        cleanup(&kept_all);
                        return Err(e);
                    }
                };
                let lost = k.forget_unkept(r, &mut tree);
                if lost > 0 {
                    eprintln!(
                        "{lost} decided positions have no kept certificate in {}: searched again",
                        dir.display()
                    );
                }
                kept_all.push((k.clone(), own));
                Some(k)
            }
            None => None,
        };
        let (pool, bridges, where_) = workers(r, args)?;
        said = where_;
        let saver = |t: &partizan_jobs::Tree| match &keep {
            Keep::File(path) => save(path, r, t, key).map_err(|e| e.to_string()),
            Keep::Store { store, key: k, .. } => store
                .put_census(
                    k,
                    &serde_json::json!({"version": 1, "tree": encode(r, t, key)}),
                )
                .map_err(|e| e.to_string()),
            Keep::Nowhere => Ok(()),
        };
        let last_line = Mutex::new(Instant::now());
        let show = |pr: &JobProgress| {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                stop.store(true, Relaxed);
            }
            let due = args.progress_lines.is_some_and(|every| {
                last_line.lock().is_ok_and(|mut t| {
                    let due = t.elapsed() >= every;
                    if due {
                        *t = Instant::now();
                    }
                    due
                })
            });
            if tty {
                eprint!("\r{}\x1b[K", pr.text(p));
            } else if due {
                eprintln!("{}", pr.text(p));
            }
        };
        let keeper = |b: &Board, mover: Player, text: &str| match &kept {
            Some(k) => k.put(r, b, mover, text),
            None => Ok(()),
        };
        let control = MasterControl {
            stop: Some(&stop),
            progress: Some(&show),
            checkpoint: Some(&saver),
            checkpoint_every: Duration::from_secs(args.checkpoint_every.max(1)),
            keep: kept.is_some().then_some(&keeper as _),
        };
        let got = search_from(r, tree, pool, &cfg, &control);
        if tty {
            eprint!("\r\x1b[K");
        }
        for b in &bridges {
            b.shutdown();
        }
        if got.is_err() {
            cleanup(&kept_all);
        }
        match got {
            Ok(rep) => searches.push(rep),
            Err(JobError::Stopped(n)) => {
                let why = if deadline.is_some_and(|d| Instant::now() >= d) {
                    "--max-seconds"
                } else {
                    "an interrupt"
                };
                let kept = match &keep {
                    Keep::File(f) => {
                        format!("; its tree is in {}: run again to go on", f.display())
                    }
                    Keep::Store { .. } => "; its tree is in the store: run again to go on".into(),
                    Keep::Nowhere => {
                        "; nothing kept (the store or --jobs-file keeps the tree)".into()
                    }
                };
                bail!("the job-level search stopped by {why} after {n} jobs{kept}");
            }
            Err(e) => return Err(e.into()),
        }
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
    let certificate = match &args.certificate {
        Some(path) => {
            let written = write_whole_file(r, &searches, &kept_all, path);
            cleanup(&kept_all);
            Some(written?)
        }
        None => None,
    };
    let out = JobsOutput {
        ruleset: r.name(),
        board: r.format(board),
        workers: said,
        class,
        searches,
        certificate,
    };
    // A certificate on standard output leaves the report to standard error.
    let to_stderr = args.certificate.as_deref().is_some_and(is_standard_stream);
    let text = render(&out, json_out)?;
    if to_stderr {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
    Ok(())
}

/// Write the whole certificate of `searches` (their certificates kept in
/// `kept`, in the same order) to `path` (`-`: standard output).
fn write_whole_file<R: Knowledge>(
    r: &R,
    searches: &[JobReport],
    kept: &[(Kept, bool)],
    path: &std::path::Path,
) -> Result<CertificateOut> {
    let pairs: Vec<_> = searches
        .iter()
        .zip(kept)
        .map(|(s, (k, _))| (&s.tree, k))
        .collect();
    let fail = |e: std::io::Error| format!("--certificate {}: {e}", path.display());
    let holds = if is_standard_stream(path) {
        let mut out = std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock());
        write_whole(r, &pairs, &mut out)
    } else {
        partizan_report::write_certificate_with(path, fail, |out| write_whole(r, &pairs, out))
    }
    .map_err(|e| anyhow::anyhow!("the whole certificate: {e}"))?;
    Ok(CertificateOut {
        file: path.display().to_string(),
        holds,
        bytes: std::fs::metadata(path)
            .ok()
            .filter(|m| m.is_file())
            .map(|m| m.len()),
    })
}

/// The report's text (or JSON).
fn render(out: &JobsOutput<'_>, json_out: bool) -> Result<String> {
    use std::fmt::Write as _;
    if json_out {
        return Ok(format!("{}\n", serde_json::to_string_pretty(out)?));
    }
    let mut text = String::new();
    writeln!(text, "{} {}", out.ruleset, out.board)?;
    writeln!(text, "jobs on {}", out.workers)?;
    if let Some(c) = out.class {
        writeln!(text, "outcome class: {c}")?;
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
        let with = match (&s.winning_move, s.first_wins) {
            (Some(m), _) => format!(
                " with {}",
                partizan_report::moves::move_text(out.ruleset, &out.board, &m.cells, &m.board)
            ),
            (None, Some(true)) => {
                " (a winning move not found under the master's node budget)".to_string()
            }
            _ => String::new(),
        };
        let c = &s.counts;
        writeln!(
            text,
            "{who} first {verdict}{with}: {} jobs ({} proved, {} disproved, {} unresolved, {} by the master), \
             {} certificates checked ({} positions, {:.2} s), {} lies, {} failures, {} crashes, {} timeouts, \
             {} tree positions, {:.2} s",
            c.sent + c.searched_here,
            c.proved,
            c.disproved,
            c.unresolved,
            c.searched_here,
            c.accepted,
            c.check_positions,
            c.check_ms as f64 / 1000.0,
            c.lies_total(),
            c.failures,
            c.crashes,
            c.timeouts,
            c.tree_nodes,
            s.elapsed.as_secs_f64()
        )?;
        if s.trust == Trust::Agreement {
            writeln!(
                text,
                "  trust: agreement ({} claims, {} jobs agreed by two workers, {} settled by the master's search); {}",
                c.claims,
                c.agreed,
                c.disagreed,
                match s.agreed_in_proof {
                    Some(0) => "the answer rests on no agreed leaf".to_string(),
                    Some(n) => format!(
                        "the answer rests on {n} leaves believed on agreement, not on a checked certificate"
                    ),
                    None => "undecided".to_string(),
                }
            )?;
        }
    }
    if let Some(c) = &out.certificate {
        writeln!(
            text,
            "certificate: {} ({} tree records, {} parts of {} records{})",
            c.file,
            c.holds.tree_records,
            c.holds.parts,
            c.holds.part_records,
            c.bytes.map_or(String::new(), |b| format!(", {b} bytes"))
        )?;
    }
    Ok(text)
}
