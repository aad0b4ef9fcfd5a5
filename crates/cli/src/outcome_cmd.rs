//! `partizan outcome RULESET BOARD`: who wins, for each first player, by
//! the library's outcome search (`partizan_solve::search`), with a winning
//! first move for each player who has one, node counts and table figures.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args;
use partizan_games::{Board, Rules};
use partizan_report::outcome::{
    default_table_mb, nimber_refusal, outcome_through_store, OutcomeStore, Resumed,
};
use partizan_report::picture::{self, Format};
use partizan_report::{
    check_certificate_from, judge_first_moves, rectangle_boards, write_certificate_file,
    write_certificate_stdout, FirstMoves, OutcomeReport, RectangleCell, RectangleSpec,
    RectangleTable, Undecided,
};
use partizan_solve::outcome::Convention;
use partizan_solve::search::certificate::{self, CheckProgress};
use partizan_solve::search::{
    solve, solve_resumable, Control, First, Knowledge, MoveOrdering, Parallel, Progress,
    SearchConfig, SearchError, SearchReport,
};
use partizan_store::StoreChoice;

use crate::with_ruleset;

/// Arguments of `partizan outcome`.
#[derive(Args, Debug)]
pub struct OutcomeArgs {
    /// Ruleset (every registered one: see `ruleset_help`).
    #[arg(help = ruleset_help())]
    pub ruleset: String,
    /// Board text: rows separated by '|' or newlines (or --rectangles).
    #[arg(required_unless_present = "rectangles")]
    pub board: Option<String>,
    /// Instead of one BOARD, a table over rectangles: ROWSxCOLS, each side
    /// N or A-B (`2-8x2-8`; `2-8` alone for both). Each board is the
    /// ruleset's rectangle (empty for Domineering, Cram, Snort, Col and
    /// NoGo; the checkerboard for Clobber; Kōnane's opening, the
    /// checkerboard less two adjacent stones from the middle; Amazons, one
    /// queen in each of two opposite corners), searched as one BOARD would
    /// be; --max-seconds and --max-nodes then bound each board, and a
    /// board they stop is a `?` in the table.
    #[arg(long, value_name = "ROWSxCOLS", conflicts_with_all = ["board", "moves", "checkpoint", "certificate"])]
    pub rectangles: Option<String>,
    /// Draw the answer instead of printing it, as svg or tikz (to standard
    /// output: `> answer.svg`): a BOARD with each first player's winning
    /// first move marked in their colour (every winning first move with
    /// --moves); a table over --rectangles as a coloured grid with its
    /// title and legend.
    #[arg(long, value_name = "svg|tikz", value_parser = |s: &str| s.parse::<Format>())]
    pub format: Option<Format>,
    /// Misère play: the player who cannot move wins.
    #[arg(long)]
    pub misere: bool,
    /// Transposition table size in MB, the most it may grow to (it starts
    /// at 1 MB and doubles as it fills; default: 16 MB up to 20 cells, else
    /// a quarter of the available memory within --max-memory).
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
    /// Threads, 1 to 1024 (default: every core). Both first players at
    /// once take half each (--parallel first-players); a first player with
    /// several threads splits its first moves among them.
    #[arg(long)]
    pub threads: Option<usize>,
    /// How threads share the work: root-split (one first player after the
    /// other, the replies to its first moves dealt among the threads) or first-players
    /// (both first players at once, half the threads each); default: the
    /// ruleset's own, listed by `parallel_help`.
    #[arg(long, help = parallel_help())]
    pub parallel: Option<String>,
    /// Which first players to search: left, right or both. One side is
    /// about half the work, but gives no outcome class (and is not
    /// stored).
    #[arg(long, value_name = "left|right|both", default_value = "both")]
    pub first: String,
    /// Regions of at most this many cells are answered by exact values
    /// (normal play; 0 turns it off; default: the ruleset's own, listed
    /// by `value_cells_help`).
    #[arg(long, help = value_cells_help())]
    pub value_cells: Option<u32>,
    /// Move ordering: natural, mobility, safety or history (refuting
    /// moves first, then safety).
    #[arg(long, default_value = "safety")]
    pub ordering: String,
    /// Do not cut off lines by the ruleset's move bounds.
    #[arg(long)]
    pub no_bounds: bool,
    /// Do not share table entries between mirror images.
    #[arg(long)]
    pub no_symmetry: bool,
    /// Key a board with an integer tail by board and tail together, not
    /// by the board alone with the tail a handicap (with which one search
    /// answers the board for every tail better for the mover).
    #[arg(long)]
    pub no_handicap: bool,
    /// Use the general engine even where the ruleset has a search of its
    /// own (Domineering's fast path; the general engine is its twin).
    #[arg(long)]
    pub general: bool,
    /// Also find the position's nimber (impartial rulesets such as Cram,
    /// normal play): 0 for a second-player win, else the least value no
    /// option has. Costs more than the outcome, which asks only "is it 0?".
    #[arg(long)]
    pub nimber: bool,
    /// Also judge every first move: which of them win, each by a search
    /// of the position after it (a mirror image of a position judged
    /// before takes its answer). One search per distinct move: 8x8
    /// Domineering's are tens of seconds.
    #[arg(long)]
    pub moves: bool,
    /// Give up after this many nodes (checked every few thousand nodes: a
    /// search that ends sooner answers).
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Write the winning strategies as a certificate that `partizan check
    /// FILE` replays (searches with one thread). With a job-level search:
    /// one certificate of the root made of the master's tree and every
    /// decided job's checked certificate (kept beside the tree, so a
    /// resumed run still writes it). Domineering's keeps whole
    /// positions, each line ending where the checker's own rules decide
    /// (7x7: 73 K lines, 9.3 MB; 8x8: 14.8 M lines, 139 MB gzipped).
    /// A name ending in `.gz` is written gzip-compressed (`check` reads
    /// either). `-` writes it to standard output (the report then goes to
    /// standard error), e.g. for another compressor: `--certificate - | xz`.
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<std::path::PathBuf>,
    /// With --certificate: split positions by the general engine whatever
    /// the ruleset, a proof that leans on no finer bound (far larger:
    /// Domineering 7x7 569 K records).
    #[arg(long, requires = "certificate")]
    pub split_certificate: bool,
    /// Keep a checkpoint in FILE: resume from it when it exists (refused
    /// when damaged or for another search), write it every
    /// --checkpoint-every seconds and when the search stops (a budget,
    /// Ctrl-C, a kill). Kept: the decided first players with their winning
    /// moves, the table's proven entries and (Domineering's own search)
    /// each first player's refuted first moves, or (an impartial ruleset's
    /// nimber search) every region's nimber and the values it is not;
    /// lost: the part of the open first move's search the table did not
    /// keep, and move-ordering history. A run may be split over any number
    /// of sessions.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Seconds between checkpoint writes.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub checkpoint_every: u64,
    /// Give up after this many seconds of wall time, counted from the
    /// command's start (reading a checkpoint included; with --checkpoint:
    /// resumable).
    #[arg(long, value_name = "SECS")]
    pub max_seconds: Option<f64>,
    /// Decide the board by job-level proof-number search on this many
    /// local workers (processes of this binary, `partizan job-worker`;
    /// see --workers): a master's proof-number tree over the top plies,
    /// whole searches under --job-nodes as jobs, and no worker's answer
    /// believed without its certificate replayed by the checker (normal
    /// play; both first players unless --first). With --cluster or
    /// --worker-command: at most this many jobs out at once.
    #[arg(long, value_name = "WORKERS", conflicts_with_all = JOB_CONFLICTS)]
    pub jobs: Option<usize>,
    /// With --jobs: `processes` (the default: a worker killed loses only
    /// its job, and is started again) or `threads` (in this process).
    #[arg(long, value_name = "processes|threads", value_parser = ["processes", "threads"])]
    pub workers: Option<String>,
    /// Run the jobs on a Dask distributed cluster, through the Python
    /// package's bridge (`python3 -m partizan.jobs_bridge ADDRESS`; the
    /// cluster's workers need `pip install partizan`): e.g.
    /// tcp://HOST:8786. Every job's answer is checked here, as for local
    /// workers.
    #[arg(long, value_name = "ADDRESS", conflicts_with_all = JOB_CONFLICTS)]
    pub cluster: Option<String>,
    /// A worker process to start and hand jobs to, e.g. `ssh node7
    /// partizan job-worker` (split at spaces; repeat for more workers). It
    /// must speak `partizan job-worker`'s lines.
    #[arg(long, value_name = "COMMAND", conflicts_with_all = JOB_CONFLICTS)]
    pub worker_command: Vec<String>,
    /// The Python that runs --cluster's bridge (default: $PARTIZAN_PYTHON,
    /// else python3).
    #[arg(long, value_name = "PATH", requires = "cluster")]
    pub python: Option<String>,
    /// With a job-level search: the node budget of each job (an
    /// unresolved job is expanded into its children).
    #[arg(long, value_name = "NODES")]
    pub job_nodes: Option<u64>,
    /// With a job-level search: positions fewer than this many plies deep
    /// are expanded by the master, never handed out (a job near the root
    /// is almost the whole search).
    #[arg(long, value_name = "PLIES")]
    pub job_plies: Option<u32>,
    /// With a job-level search and one --first player: keep the master's
    /// tree in FILE (sealed with the user's key), resume from it when it
    /// exists (after Ctrl-C, --max-seconds, or a crash of the master: it
    /// is written every --checkpoint-every seconds). Without it the tree
    /// is kept in the store the same way (one master per search and store).
    #[arg(long, value_name = "FILE")]
    pub jobs_file: Option<std::path::PathBuf>,
    /// With a job-level search: what makes a worker's decided job
    /// believed. `certificates` (the default): its certificate, replayed
    /// by the independent checker (no worker and no bug of the search can
    /// pass a false claim; a proof costs about 20-70x the job's search).
    /// `agreement`: two different workers, each sent the job without the
    /// other's answer, claim the same (the master's own search settles a
    /// disagreement and strikes the worker it contradicts; with one
    /// worker the master's search is the second opinion). About 2x a
    /// job's search; one lying or broken worker cannot change the answer,
    /// two that lie alike or a bug shared by every worker can. The report
    /// says how many leaves the answer rests on this way. Not with
    /// --certificate.
    #[arg(long, value_name = "certificates|agreement", value_parser = ["certificates", "agreement"])]
    pub trust: Option<String>,
    /// With a job-level search: a job whose worker shows no progress for
    /// this many seconds is handed out again and the worker retired
    /// (default 3600, at least 5). Progress is the node count a worker
    /// reports as it searches (a worker process about once a second)
    /// rising, up to 4x the job's budget; a worker that reports nothing
    /// is timed from the moment its job was sent, so give it at least a
    /// whole job's time.
    #[arg(long, value_name = "SECONDS", value_parser = job_timeout_of)]
    pub job_timeout: Option<Duration>,
}

/// `--job-timeout`'s seconds: at least [`MIN_JOB_TIMEOUT`].
fn job_timeout_of(s: &str) -> Result<Duration, String> {
    let t = crate::meter::parse_interval(s)?;
    if t < MIN_JOB_TIMEOUT {
        return Err(format!(
            "'{s}': at least {} seconds (a worker process reports its progress about once a second)",
            MIN_JOB_TIMEOUT.as_secs()
        ));
    }
    Ok(t)
}

/// The shortest `--job-timeout`: several of a worker process's progress
/// reports, so that a loaded machine's late report does not retire a
/// worker that is searching.
const MIN_JOB_TIMEOUT: Duration = Duration::from_secs(5);

/// What a job-level search (`--jobs`, `--cluster`, `--worker-command`)
/// cannot be combined with.
const JOB_CONFLICTS: [&str; 8] = [
    "rectangles",
    "moves",
    "checkpoint",
    "split_certificate",
    "misere",
    "format",
    "nimber",
    "general",
];

impl OutcomeArgs {
    /// Whether the board goes to the job-level search.
    pub fn job_level(&self) -> bool {
        self.jobs.is_some() || self.cluster.is_some() || !self.worker_command.is_empty()
    }
}

/// The help of `outcome`'s RULESET: every registered ruleset, from the
/// registry (a new ruleset appears here with no edit).
fn ruleset_help() -> String {
    let names: Vec<&str> = partizan_games::Rules::names().collect();
    let loopy: Vec<&str> = partizan_loopy::LoopyRules::ALL
        .iter()
        .map(|r| r.name())
        .collect();
    format!(
        "Ruleset: {}; loopy (outcome with draws): {}",
        names.join(", "),
        loopy.join(", ")
    )
}

/// The board of `outcome` for a loopy ruleset, refusing the flags of the
/// short-game search.
pub fn loopy_outcome_args(a: &OutcomeArgs) -> Result<String> {
    let refused = [
        ("--rectangles", a.rectangles.is_some()),
        ("--misere", a.misere),
        ("--certificate", a.certificate.is_some()),
        ("--checkpoint", a.checkpoint.is_some()),
        ("--moves", a.moves),
        ("--nimber", a.nimber),
        ("--general", a.general),
        ("--format", a.format.is_some()),
        ("--jobs", a.jobs.is_some()),
        ("--cluster", a.cluster.is_some()),
        ("--worker-command", !a.worker_command.is_empty()),
    ];
    if let Some((flag, _)) = refused.iter().find(|(_, on)| *on) {
        anyhow::bail!(
            "{flag} is for short rulesets; {} is loopy (its positions can recur)",
            a.ruleset
        );
    }
    a.board
        .clone()
        .ok_or_else(|| anyhow::anyhow!("a board is needed"))
}

/// The help of `--value-cells`, with each ruleset's own default.
fn value_cells_help() -> String {
    let defaults: Vec<String> = partizan_games::Rules::ALL
        .iter()
        .map(|&r| {
            let n = partizan_games::with_rules!(r, |rs| rs.default_value_cells());
            format!("{r} {n}")
        })
        .collect();
    format!(
        "Regions of at most this many cells are answered by exact values (normal play; \
         0 turns it off; Domineering's own search looks at every node only where nodes with \
         as many empty cells have had only such regions at least one time in 8, elsewhere \
         at one node in 8: the same answers; default: the ruleset's own: {})",
        defaults.join(", ")
    )
}

/// The help of `--parallel`, with each ruleset's own default.
fn parallel_help() -> String {
    let defaults: Vec<String> = partizan_games::Rules::ALL
        .iter()
        .map(|&r| {
            let p = partizan_games::with_rules!(r, |rs| Parallel::from(rs.default_parallel()));
            format!("{r} {}", parallel_name(p))
        })
        .collect();
    format!(
        "How threads share the work: root-split (one first player after the other, all threads \
         on its root: the replies to each first move dealt out to the threads, a first move's \
         first reply alone while a free thread starts the next first move) or first-players \
         (both first players at once, half the \
         threads each; with --first left|right: root-split); default: the ruleset's own: {} (an \
         impartial ruleset under normal play goes by nimbers, whose threads share one memo and \
         split the options near the root either way)",
        defaults.join(", ")
    )
}

fn parallel_name(p: Parallel) -> &'static str {
    match p {
        Parallel::RootSplit => "root-split",
        Parallel::FirstPlayers => "first-players",
    }
}

/// Arguments of `partizan check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// A certificate written by `partizan outcome --certificate FILE`,
    /// plain or gzip-compressed; `-` reads it from standard input
    /// (`xzcat cert.xz | partizan check -`).
    pub file: std::path::PathBuf,
    /// Give up after replaying this many positions (8x8 Domineering's
    /// whole certificate replays 67 M; memory is bounded by --max-memory).
    #[arg(long, default_value_t = 1_000_000_000)]
    pub max_positions: u64,
}

/// `partizan check FILE`: replay a certificate move by move, reading it a
/// line at a time, with progress and the memory budget (`--max-memory`)
/// watched.
pub fn check(args: CheckArgs, long: &crate::Long, json_out: bool) -> Result<()> {
    let input: Box<dyn std::io::Read> = if is_standard_stream(&args.file) {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(
            std::fs::File::open(&args.file)
                .with_context(|| format!("cannot read {}", args.file.display()))?,
        )
    };
    let watch = long.watch(format!("check {}", args.file.display()), "", None);
    let counter = watch.counter();
    let rep = check_certificate_from(
        std::io::BufReader::with_capacity(1 << 20, input),
        args.max_positions,
        &mut |p| {
            match p {
                CheckProgress::Reading(n) => counter.note(format!("{n} records read")),
                CheckProgress::Replaying(n) => counter.note(format!("{n} positions replayed")),
            }
            std::ops::ControlFlow::Continue(())
        },
    );
    drop(watch);
    let rep = rep?;
    if json_out {
        println!("{}", serde_json::to_string_pretty(&rep)?);
    } else {
        print!("{}", rep.render_text());
    }
    Ok(())
}

/// Why the caller stopped the search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum StopWhy {
    Memory(u64),
    Time,
    Interrupt,
}

/// `partizan outcome RULESET BOARD [--misere] [--table-mb MB] ...`.
pub fn run(args: OutcomeArgs, store: &StoreChoice, json_out: bool) -> Result<()> {
    if json_out && args.format.is_some() {
        bail!("--format draws the answer and --json prints its data: give one of them");
    }
    if args.format.is_some() && args.certificate.as_deref().is_some_and(is_standard_stream) {
        bail!("--format and --certificate - both write to standard output: give the certificate a file");
    }
    if !args.job_level() {
        let stray = [
            ("--job-nodes", args.job_nodes.is_some()),
            ("--job-plies", args.job_plies.is_some()),
            ("--jobs-file", args.jobs_file.is_some()),
            ("--workers", args.workers.is_some()),
            ("--trust", args.trust.is_some()),
            ("--job-timeout", args.job_timeout.is_some()),
        ];
        if let Some((flag, _)) = stray.iter().find(|(_, on)| *on) {
            bail!("{flag} goes with a job-level search: --jobs, --cluster or --worker-command");
        }
    }
    with_ruleset!(args.ruleset, |r| {
        if let Some(spec) = &args.rectangles {
            return run_rectangles(r, spec, &args, store, json_out);
        }
        let text = args.board.as_deref().unwrap_or_default();
        let board = r
            .parse(text)
            .with_context(|| format!("bad {} board", r.name()))?;
        if args.format.is_some()
            && partizan_games::graph_view::is_graph(Rules::from_name(r.name())?)
        {
            bail!(
                "--format draws an answer on a board, and {} positions are graphs (partizan draw {} draws the graph)",
                r.name(),
                r.name()
            );
        }
        if args.job_level() {
            return crate::jobs_cmd::run(r, &board, &args, store, json_out);
        }
        let (cfg, deadline) = search_config(r, &board, &args)?;

        // The store: a known board is answered from it (not when a
        // certificate, which needs the search, is asked for); a searched
        // one is saved in it.
        let (st, busy) = store.open_unless_busy()?;
        if let Some(e) = busy {
            eprintln!("warning: {e}; running without the store");
        }
        let through = match &st {
            Some(s) => OutcomeStore {
                read: args.certificate.is_none(),
                ..OutcomeStore::of(s)
            },
            None => OutcomeStore::none(),
        };
        let mut resumed = None;
        let found = outcome_through_store(r, &board, &cfg, through, || {
            let doing = Mutex::default();
            let (rep, res) = search_board(r, &board, &cfg, &args, json_out, deadline, &doing)?;
            resumed = res;
            Ok::<_, anyhow::Error>(rep)
        });
        let mut out = match found {
            Ok(out) => out,
            Err(e) => return undecided(r, &board, &args, json_out, e),
        };
        for w in &out.warnings {
            eprintln!("warning: {w}");
        }
        out.resumed = resumed;
        if args.moves {
            // The outcome stands whatever the judgement of the first moves
            // comes to; a judgement cut short by a limit is left out with
            // a warning (as on the site).
            match judge_moves(r, &board, &cfg, &args, json_out, deadline) {
                Ok(moves) => out.first_moves = Some(moves),
                Err(e) if e.is::<BoardLimit>() => {
                    let w = format!("the first moves were not all judged: {e}");
                    eprintln!("warning: {w}");
                    out.warnings.push(w);
                }
                Err(e) => return Err(e),
            }
        }
        if let Some(format) = args.format {
            let rules = Rules::from_name(r.name())?;
            print!("{}", picture::pick(out.picture(rules)?, format));
            return Ok(());
        }
        let to_stderr = args.certificate.as_deref().is_some_and(is_standard_stream);
        print_report(&out, json_out, to_stderr)
    })
}

/// The convention `args` ask for (`--misere`).
fn convention(args: &OutcomeArgs) -> Convention {
    if args.misere {
        Convention::Misere
    } else {
        Convention::Normal
    }
}

/// The search configuration `args` ask for on `board` (the default table
/// sized to it), and the deadline of --max-seconds counted from now; a
/// bad combination of options is a one-line error.
fn search_config<R: Knowledge>(
    r: &R,
    board: &Board,
    args: &OutcomeArgs,
) -> Result<(SearchConfig, Option<std::time::Instant>)> {
    let convention = convention(args);
    let mut cfg = SearchConfig::for_ruleset(r, convention);
    if let (Convention::Normal, Some(v)) = (convention, args.value_cells) {
        cfg.value_cells = v;
    }
    cfg.ordering = args.ordering.parse::<MoveOrdering>()?;
    if let Some(p) = &args.parallel {
        cfg.parallel = p.parse::<Parallel>()?;
    }
    cfg.first = args.first.parse::<First>()?;
    cfg.bounds = !args.no_bounds;
    cfg.symmetry = !args.no_symmetry;
    cfg.handicap = !args.no_handicap;
    cfg.fast = !args.general;
    if args.max_nodes == Some(0) {
        bail!("--max-nodes must be at least 1");
    }
    cfg.max_nodes = args.max_nodes;
    if args.nimber {
        let why = if let Some(why) = nimber_refusal(r, cfg.convention) {
            Some(why)
        } else if args.general || args.certificate.is_some() {
            Some("the nimber search does not run with --general or --certificate".to_string())
        } else {
            None
        };
        if let Some(why) = why {
            bail!("--nimber: {why}");
        }
        cfg.nimber = true;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cfg.threads = args
        .threads
        .unwrap_or(cores.min(partizan_solve::search::MAX_THREADS));
    if !(1..=partizan_solve::search::MAX_THREADS).contains(&cfg.threads) {
        bail!(
            "--threads must be between 1 and {}, not {}",
            partizan_solve::search::MAX_THREADS,
            cfg.threads
        );
    }
    if args.moves && (args.checkpoint.is_some() || args.certificate.is_some()) {
        bail!("--moves cannot be combined with --checkpoint or --certificate (they keep one search of the board itself)");
    }
    if args.checkpoint.is_some() && args.certificate.is_some() {
        bail!("--checkpoint and --certificate cannot be combined (a certificate is written by one uninterrupted search)");
    }
    if args.checkpoint_every == 0 {
        bail!("--checkpoint-every must be at least 1 second");
    }
    let deadline = match args.max_seconds {
        None => None,
        Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => {
            Some(std::time::Instant::now() + Duration::from_secs_f64(s))
        }
        Some(s) => bail!("--max-seconds must be a positive number of seconds, not {s}"),
    };
    let table_mb = args
        .table_mb
        .unwrap_or_else(|| default_table_mb(r.cells(board).count_ones(), args.max_memory));
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
    Ok((cfg, deadline))
}

/// `partizan outcome RULESET --rectangles ROWSxCOLS`: every rectangle of
/// the range searched in turn (through the store, as one board is), the
/// table printed at the end. A board stopped by --max-seconds or
/// --max-nodes is a `?`; a memory limit or an interruption stops the
/// whole table with an error.
fn run_rectangles<R: Knowledge>(
    r: &R,
    spec: &str,
    args: &OutcomeArgs,
    store: &StoreChoice,
    json_out: bool,
) -> Result<()> {
    let spec: RectangleSpec = spec
        .parse()
        .map_err(|e| anyhow::anyhow!("--rectangles: {e}"))?;
    let boards = rectangle_boards(r, &spec).map_err(|e| anyhow::anyhow!("--rectangles: {e}"))?;
    let (st, busy) = store.open_unless_busy()?;
    if let Some(e) = busy {
        eprintln!("warning: {e}; running without the store");
    }
    let through = || st.as_ref().map_or(OutcomeStore::none(), OutcomeStore::of);
    let mut table = RectangleTable::new(r.name(), convention(args), spec);
    let n = boards.len();
    for (k, (rows, cols, board)) in boards.into_iter().enumerate() {
        let (cfg, deadline) = search_config(r, &board, args)?;
        let doing = Mutex::new(format!("{rows} x {cols} ({} of {n}): ", k + 1));
        let started = std::time::Instant::now();
        let found = outcome_through_store(r, &board, &cfg, through(), || {
            search_board(r, &board, &cfg, args, json_out, deadline, &doing).map(|(rep, _)| rep)
        });
        match found {
            Ok(out) => {
                for w in &out.warnings {
                    eprintln!("warning: {rows} x {cols}: {w}");
                }
                table.cells.push(RectangleCell::of(rows, cols, &out));
            }
            Err(e) if e.is::<BoardLimit>() => table.cells.push(RectangleCell::stopped(
                rows,
                cols,
                r.format(&board),
                started.elapsed().as_secs_f64() * 1e3,
                e.to_string(),
            )),
            Err(e) => return Err(e),
        }
    }
    if let Some(format) = args.format {
        print!("{}", picture::pick(table.picture(), format));
    } else if json_out {
        println!("{}", serde_json::to_string_pretty(&table)?);
    } else {
        print!("{}", table.render_text());
    }
    Ok(())
}

/// A search stopped by a limit of its own board (--max-seconds,
/// --max-nodes), which a table of rectangles shows as `?` and goes on, and
/// one board answers as undecided (exit code 3).
#[derive(Debug)]
struct BoardLimit {
    /// Which limit, and what a checkpoint kept.
    reason: String,
    /// Nodes searched before the stop.
    nodes: u64,
}

impl std::fmt::Display for BoardLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for BoardLimit {}

/// Whether a file argument is `-`: standard input or output.
pub(crate) fn is_standard_stream(path: &std::path::Path) -> bool {
    path.as_os_str() == "-"
}

/// Search `board` as `args` ask (progress, watchdogs, a checkpoint or a
/// certificate): the report and what a checkpoint resumed, or a one-line
/// error saying which limit stopped it.
fn search_board<R: Knowledge>(
    r: &R,
    board: &Board,
    cfg: &SearchConfig,
    args: &OutcomeArgs,
    json_out: bool,
    deadline: Option<std::time::Instant>,
    doing: &Mutex<String>,
) -> Result<(SearchReport, Option<Resumed>)> {
    let mut resumed = None;
    let rep = watched(r, args, json_out, deadline, doing, |control| {
        match (&args.certificate, &args.checkpoint) {
            (None, None) => solve(r, board, cfg, control),
            (None, Some(file)) => solve_resumable(
                r,
                board,
                cfg,
                control,
                file,
                Duration::from_secs(args.checkpoint_every),
            )
            .map(|(rep, res)| {
                resumed = Some(res);
                rep
            }),
            (Some(path), _) => {
                let positions = if args.split_certificate {
                    certificate::Positions::Split
                } else {
                    certificate::Positions::Best
                };
                if is_standard_stream(path) {
                    write_certificate_stdout(r, board, cfg, control, positions)
                } else {
                    write_certificate_file(r, board, cfg, control, path, positions)
                }
            }
        }
    })?;
    Ok((rep, resumed))
}

/// Judge every first move of `board` (`--moves`) under the same
/// watchdogs as the search of the board itself.
fn judge_moves<R: Knowledge>(
    r: &R,
    board: &Board,
    cfg: &SearchConfig,
    args: &OutcomeArgs,
    json_out: bool,
    deadline: Option<std::time::Instant>,
) -> Result<FirstMoves> {
    let judging = Mutex::new(String::new());
    watched(r, args, json_out, deadline, &judging, |control| {
        judge_first_moves(r, board, cfg, control, &mut |p, k, n| {
            if let Ok(mut j) = judging.lock() {
                *j = format!("judging {p:?}'s first move {k} of {n}: ");
            }
        })
    })
}

/// Run `work` with the progress display and the watchdogs `args` ask for
/// (memory, time, Ctrl-C and SIGTERM with a checkpoint or a certificate):
/// its answer, or a one-line error saying which limit stopped it. `doing`
/// is put before each progress line (what the current search is for).
fn watched<R: Knowledge, T>(
    r: &R,
    args: &OutcomeArgs,
    json_out: bool,
    deadline: Option<std::time::Instant>,
    doing: &Mutex<String>,
    work: impl FnOnce(&Control<'_>) -> Result<T, SearchError>,
) -> Result<T> {
    // Progress on a terminal; the memory and time watchdogs either way.
    let stop = AtomicBool::new(false);
    let why = Mutex::new(None::<StopWhy>);
    let halt = |w: StopWhy| {
        if let Ok(mut o) = why.lock() {
            o.get_or_insert(w);
        }
        stop.store(true, Ordering::Relaxed);
    };
    if args.checkpoint.is_some() || args.certificate.is_some() {
        // Ctrl-C and a kill (SIGTERM) stop the search, which then
        // writes its checkpoint, or removes its half-written
        // certificate. Only one handler per process: a second `run`
        // (none in the binary) keeps the first.
        let flag = STOP_SIGNAL.get_or_init(|| {
            let f = std::sync::Arc::new(AtomicBool::new(false));
            let g = f.clone();
            let _ = ctrlc::set_handler(move || g.store(true, Ordering::Relaxed));
            f
        });
        flag.store(false, Ordering::Relaxed);
    }
    let lines = args.progress_lines;
    let tty = std::io::stderr().is_terminal() && !json_out && lines.is_none();
    let max_bytes = args.max_memory.map(|m| m << 20);
    let started = std::time::Instant::now();
    let last_line = Mutex::new(started);
    let progress = |p: &Progress| {
        if let Some(max) = max_bytes {
            // 0 where unknown: never over
            let rss = crate::meter::resident_bytes();
            if rss > max {
                halt(StopWhy::Memory(rss));
            }
        }
        if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            halt(StopWhy::Time);
        }
        if STOP_SIGNAL.get().is_some_and(|f| f.load(Ordering::Relaxed)) {
            halt(StopWhy::Interrupt);
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
                "{}{} first: {} nodes, {:.0}/s, table {:.1}% full, line {}",
                doing.lock().map(|d| d.clone()).unwrap_or_default(),
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
    let result = work(&control);
    if tty {
        eprint!("\r\x1b[K");
    }
    if lines.is_some() && result.is_ok() {
        eprintln!(
            "outcome {}: done, {} MB at most  {:.1} s",
            r.name(),
            crate::meter::peak_resident_bytes() >> 20,
            started.elapsed().as_secs_f64()
        );
    }
    let resume_note = match &args.checkpoint {
        Some(f) => format!(
            "; checkpoint written to {}: run the same command to resume",
            f.display()
        ),
        None => String::new(),
    };
    let rep = match result {
        Ok(rep) => rep,
        Err(SearchError::Stopped { nodes }) => {
            let w = why.lock().ok().and_then(|o| *o);
            match w {
                Some(StopWhy::Time) => {
                    return Err(BoardLimit {
                        reason: format!(
                            "time limit: stopped after --max-seconds {} s and {nodes} nodes{resume_note}",
                            args.max_seconds.unwrap_or(0.0)
                        ),
                        nodes,
                    }
                    .into())
                }
                Some(StopWhy::Interrupt) => {
                    bail!("interrupted after {nodes} nodes{resume_note}")
                }
                None => bail!("search stopped after {nodes} nodes{resume_note}"),
                Some(StopWhy::Memory(rss)) => bail!(
                    "memory limit: the process grew to {} MB, over --max-memory {} MB, after {nodes} nodes (try a smaller --table-mb or --value-cells){resume_note}",
                    rss >> 20,
                    args.max_memory.unwrap_or(0)
                ),
            }
        }
        Err(e @ SearchError::Budget(nodes)) => {
            return Err(BoardLimit {
                reason: format!("{e}{resume_note}"),
                nodes,
            }
            .into())
        }
        Err(e) => return Err(e.into()),
    };
    Ok(rep)
}

/// Raised by Ctrl-C or SIGTERM once a handler is installed (by a search
/// with a checkpoint or a certificate).
static STOP_SIGNAL: std::sync::OnceLock<std::sync::Arc<AtomicBool>> = std::sync::OnceLock::new();

/// A search of one board its budget stopped (`BoardLimit`): the answer
/// "undecided" with the reason (`"decided": false` under `--json`), and
/// exit code 3; any other error is passed on.
fn undecided<R: Knowledge>(
    r: &R,
    board: &Board,
    args: &OutcomeArgs,
    json_out: bool,
    e: anyhow::Error,
) -> Result<()> {
    let Some(limit) = e.downcast_ref::<BoardLimit>() else {
        return Err(e);
    };
    let u = Undecided::new(r, board, convention(args), &limit.reason, limit.nodes);
    let text = if json_out {
        format!("{}\n", serde_json::to_string_pretty(&u)?)
    } else {
        u.render_text()
    };
    if args.certificate.as_deref().is_some_and(is_standard_stream) {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
    Err(crate::manners::Exit(crate::manners::code::UNDECIDED).into())
}

/// A decided answer as `--json` prints it: `"decided": true` and the
/// report, as the site's `/api/outcome` answers.
#[derive(serde::Serialize)]
struct Decided<'a> {
    decided: bool,
    #[serde(flatten)]
    report: &'a OutcomeReport,
}

/// Print the report on standard output, or on standard error when the
/// certificate took standard output.
fn print_report(out: &OutcomeReport, json_out: bool, to_stderr: bool) -> Result<()> {
    let text = if json_out {
        let d = Decided {
            decided: true,
            report: out,
        };
        format!("{}\n", serde_json::to_string_pretty(&d)?)
    } else {
        out.render_text()
    };
    if to_stderr {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
    Ok(())
}
