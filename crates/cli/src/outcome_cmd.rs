//! `partizan outcome RULESET BOARD`: who wins, for each first player, by
//! the library's outcome search (`partizan_solve::search`), with a winning
//! first move for each player who has one, node counts and table figures.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args;
use partizan_games::{Board, Player, Ruleset};
use partizan_report::OutcomeReport;
use partizan_solve::outcome::{Convention, Outcomes};
use partizan_solve::search::certificate::{self, Certificate};
use partizan_solve::search::{
    changed_cells, solve, solve_resumable, Control, FirstPlayer, MoveOrdering, Parallel, Progress,
    SearchConfig, SearchCounts, SearchError, SearchReport, TableStats,
};
use partizan_store::{OutcomeRead, Store, StoreChoice, StoredOutcome};
use serde_json::json;

use crate::with_ruleset;

/// Arguments of `partizan outcome`.
#[derive(Args, Debug)]
pub struct OutcomeArgs {
    /// Ruleset (every registered one: see `ruleset_help`).
    #[arg(help = ruleset_help())]
    pub ruleset: String,
    /// Board text: rows separated by '|' or newlines.
    pub board: String,
    /// Misère play: the player who cannot move wins.
    #[arg(long)]
    pub misere: bool,
    /// Transposition table size in MB, the most it may grow to (it starts
    /// at 1 MB and doubles as it fills; default: 16 MB up to 30 cells, else
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
    /// Threads: 1 or 2 (default: 2 when the machine has two cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// How two threads share the work: root-split (each takes every other
    /// first move) or first-players (one thread per first player).
    #[arg(long, default_value = "root-split")]
    pub parallel: String,
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
    /// Keep a checkpoint in FILE: resume from it when it exists (refused
    /// when damaged or for another search), write it every
    /// --checkpoint-every seconds and when the search stops (a budget,
    /// Ctrl-C, a kill). Uses the general engine.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Seconds between checkpoint writes.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub checkpoint_every: u64,
    /// Give up after this many seconds (with --checkpoint: resumable).
    #[arg(long, value_name = "SECS")]
    pub max_seconds: Option<f64>,
}

/// The help of `outcome`'s RULESET: every registered ruleset, from the
/// registry (a new ruleset appears here with no edit).
fn ruleset_help() -> String {
    let names: Vec<&str> = partizan_games::Rules::names().collect();
    format!("Ruleset: {}", names.join(", "))
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
         0 turns it off; default: the ruleset's own: {})",
        defaults.join(", ")
    )
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

/// The default table: small boards need little (16 MB up to 30 cells);
/// bigger ones may grow to a quarter of the available memory, within
/// `--max-memory` (less 64 MB for the rest). The table starts at 1 MB and
/// doubles as it fills, so a large default costs nothing a search does not
/// use: Domineering 8 x 8 ends in 16 MB, 9 x 9 wants gigabytes.
fn default_table_mb(cells: u32, max_memory: Option<u64>) -> u64 {
    let by_machine = available_bytes().map_or(1024, |b| (b >> 20) / 4);
    let by_limit = max_memory.map_or(u64::MAX, |m| m.saturating_sub(64));
    let by_board = if cells <= 30 { 16 } else { u64::MAX };
    by_board.min(by_machine).min(by_limit).max(8)
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

/// The stored outcome of `board`, if the store holds a whole one whose
/// moves are moves of the board; a damaged or implausible row is a
/// warning and a miss (the board is searched again and the row replaced).
fn from_store<R: Ruleset>(
    r: &R,
    board: &Board,
    cfg: &SearchConfig,
    store: &Store,
) -> Option<SearchReport> {
    let text = r.format(board);
    let conv = convention_name(cfg.convention);
    let o = match store.get_outcome(r.name(), conv, &text) {
        Ok(OutcomeRead::Hit(o)) => o,
        Ok(OutcomeRead::Miss) => return None,
        Ok(OutcomeRead::Damaged(why)) => {
            eprintln!("warning: store: {why}; searching again");
            return None;
        }
        Err(e) => {
            eprintln!("warning: store: {e}; searching without it");
            return None;
        }
    };
    let mut fps = Vec::new();
    for (player, wins, mv) in [
        (Player::Left, o.left_first_wins, &o.left_move),
        (Player::Right, o.right_first_wins, &o.right_move),
    ] {
        let winning_move = match mv {
            None => None,
            Some(t) => {
                let after = r.parse(t).ok();
                let mut legal = false;
                if let Some(a) = after {
                    r.options(board, player, |x| legal |= x == a);
                }
                if !legal {
                    eprintln!(
                        "warning: store: the stored outcome of {text} names a move that is not one of the board's; searching again"
                    );
                    return None;
                }
                after
            }
        };
        fps.push(FirstPlayer {
            player,
            wins,
            winning_move,
            counts: SearchCounts::default(),
            elapsed: Duration::ZERO,
        });
    }
    let right = fps.pop()?;
    let left = fps.pop()?;
    Some(SearchReport {
        outcomes: Outcomes {
            left_first: left.wins,
            right_first: right.wins,
        },
        left,
        right,
        table: TableStats::default(),
        config: *cfg,
        elapsed: Duration::ZERO,
    })
}

fn convention_name(c: Convention) -> &'static str {
    match c {
        Convention::Normal => "normal",
        Convention::Misere => "misere",
    }
}

/// Record a search's answer in the store (a failure is a warning: the
/// answer printed is right either way).
fn to_store<R: Ruleset>(r: &R, board: &Board, rep: &SearchReport, store: &Store) {
    let o = StoredOutcome {
        ruleset: r.name().to_string(),
        board: r.format(board),
        convention: convention_name(rep.config.convention).to_string(),
        left_first_wins: rep.left.wins,
        right_first_wins: rep.right.wins,
        left_move: rep.left.winning_move.as_ref().map(|b| r.format(b)),
        right_move: rep.right.winning_move.as_ref().map(|b| r.format(b)),
        nodes: rep.total().nodes,
        partizan_version: partizan_store::PARTIZAN_VERSION.to_string(),
        computed_at: partizan_store::record::unix_now(),
    };
    if let Err(e) = store.put_outcome(&o) {
        eprintln!("warning: store: the outcome was not recorded: {e}");
    }
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
        if args.checkpoint.is_some() && args.certificate.is_some() {
            bail!("--checkpoint and --certificate cannot be combined (a certificate is written by one uninterrupted search)");
        }
        if args.checkpoint_every == 0 {
            bail!("--checkpoint-every must be at least 1 second");
        }
        let max_time = match args.max_seconds {
            None => None,
            Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => Some(Duration::from_secs_f64(s)),
            Some(s) => bail!("--max-seconds must be a positive number of seconds, not {s}"),
        };
        let table_mb = args
            .table_mb
            .unwrap_or_else(|| default_table_mb(r.cells(&board).count_ones(), args.max_memory));
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

        // The store: a known board is answered from it (not when a
        // certificate, which needs the search, is asked for).
        let (st, busy) = store.open_unless_busy()?;
        if let Some(e) = busy {
            eprintln!("warning: {e}; running without the store");
        }
        if args.certificate.is_none() {
            if let Some(rep) = st.as_ref().and_then(|s| from_store(r, &board, &cfg, s)) {
                let mut out = OutcomeReport::of(r, &board, &rep);
                out.from_store = true;
                return print_report(&out, &board, &rep, json_out);
            }
        }

        // Progress on a terminal; the memory and time watchdogs either way.
        let stop = AtomicBool::new(false);
        let why = Mutex::new(None::<StopWhy>);
        let halt = |w: StopWhy| {
            if let Ok(mut o) = why.lock() {
                o.get_or_insert(w);
            }
            stop.store(true, Ordering::Relaxed);
        };
        if args.checkpoint.is_some() {
            // Ctrl-C and a kill (SIGTERM) stop the search, which then
            // writes its checkpoint. Only one handler per process: a
            // second `run` (none in the binary) keeps the first.
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
            if let (Some(max), Some(rss)) = (max_bytes, rss_bytes()) {
                if rss > max {
                    halt(StopWhy::Memory(rss));
                }
            }
            if max_time.is_some_and(|t| started.elapsed() >= t) {
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
        let mut resumed = None;
        let result = match (&args.certificate, &args.checkpoint) {
            (None, None) => solve(r, &board, &cfg, &control),
            (None, Some(file)) => solve_resumable(
                r,
                &board,
                &cfg,
                &control,
                file,
                Duration::from_secs(args.checkpoint_every),
            )
            .map(|(rep, res)| {
                resumed = Some(res);
                rep
            }),
            (Some(path), _) => certificate::solve_with_certificate(r, &board, &cfg, &control)
                .and_then(|(rep, cert)| {
                    std::fs::write(path, cert.to_text()).map_err(|e| {
                        SearchError::Inconsistent(format!(
                            "cannot write the certificate to {}: {e}",
                            path.display()
                        ))
                    })?;
                    Ok(rep)
                }),
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
                    Some(StopWhy::Time) => bail!(
                        "time limit: stopped after --max-seconds {} s and {nodes} nodes{resume_note}",
                        args.max_seconds.unwrap_or(0.0)
                    ),
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
            Err(e @ SearchError::Budget(_)) => bail!("{e}{resume_note}"),
            Err(e) => return Err(e.into()),
        };
        if let Some(s) = &st {
            to_store(r, &board, &rep, s);
        }
        let mut out = OutcomeReport::of(r, &board, &rep);
        out.resumed = resumed;
        print_report(&out, &board, &rep, json_out)
    })
}

/// Raised by Ctrl-C or SIGTERM once a handler is installed (by a search
/// with a checkpoint).
static STOP_SIGNAL: std::sync::OnceLock<std::sync::Arc<AtomicBool>> = std::sync::OnceLock::new();

fn print_report(
    out: &OutcomeReport,
    board: &Board,
    rep: &SearchReport,
    json_out: bool,
) -> Result<()> {
    if json_out {
        println!("{}", serde_json::to_string_pretty(out)?);
        return Ok(());
    }
    println!("{}", rep.outcomes.class());
    let note = if out.from_store { "from store" } else { "" };
    for (name, fp) in [("Left", &rep.left), ("Right", &rep.right)] {
        let how = if out.from_store {
            note.to_string()
        } else {
            format!("{} nodes, {:.2?}", fp.counts.nodes, fp.elapsed)
        };
        println!(
            "{name} first: {}{}  ({how})",
            if fp.wins { "wins" } else { "loses" },
            if fp.wins {
                format!(" with {}", move_text(board, fp))
            } else {
                String::new()
            },
        );
    }
    if let Some(res) = &out.resumed {
        println!(
            "checkpoint {}: resumed after {} run(s) and {} nodes with {} entries; {} nodes this run; {} entries saved",
            res.file,
            res.sessions,
            res.nodes_before,
            res.entries_loaded,
            res.nodes_now,
            res.entries_saved
        );
    }
    if !out.from_store {
        println!(
            "table: {} of {} entries, {} hits in {} probes; {:.2?}",
            rep.table.filled, rep.table.capacity, rep.table.hits, rep.table.probes, rep.elapsed
        );
    }
    Ok(())
}
