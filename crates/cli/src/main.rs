//! `partizan`: the command-line front end. Thin: it parses arguments, calls
//! the libraries and prints. Every command takes `--json`.

/// Standard output that ends the process quietly when the reader has gone
/// (a closed pipe: `partizan ... | head`), instead of panicking. The crate's
/// `println!` and `print!` below shadow the standard ones, so every command
/// writes through here.
mod out {
    use std::io::Write;

    /// Write to standard output; a closed pipe exits quietly with code 0,
    /// any other write error is a one-line error with exit code 2.
    pub fn write(args: std::fmt::Arguments<'_>, newline: bool) {
        let mut o = std::io::stdout().lock();
        let r = o
            .write_fmt(args)
            .and_then(|()| if newline { o.write_all(b"\n") } else { Ok(()) });
        if let Err(e) = r.and_then(|()| o.flush()) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            eprintln!("error: writing the output: {e}");
            std::process::exit(2);
        }
    }
}

/// `println!` through [`out::write`].
macro_rules! println {
    () => {
        $crate::out::write(format_args!(""), true)
    };
    ($($t:tt)*) => {
        $crate::out::write(format_args!($($t)*), true)
    };
}

/// `print!` through [`out::write`].
macro_rules! print {
    ($($t:tt)*) => {
        $crate::out::write(format_args!($($t)*), false)
    };
}

mod atlas_cluster_cmd;
mod atlas_cmd;
mod census_cmd;
mod grundy_cmd;
mod jobs_cmd;
mod manners;
mod meter;
mod outcome_cmd;
mod parts_cmd;
mod rulesets;
mod semigroup_cmd;
mod serve;
mod store_cmd;
mod toolkit_cmd;
mod values;

use std::process::ExitCode;

/// Work that was done and written, but not whole: `store export` leaving
/// damaged rows out. Its exit code is 7 (`manners::code::PARTIAL`), apart from 2 (nothing done), so a
/// script can tell "written, but partial" from "failed"; its message says
/// what is missing.
#[derive(Debug)]
pub struct Partial(pub String);

impl Partial {
    /// The exit code of a partial result.
    pub const EXIT_CODE: u8 = manners::code::PARTIAL;
}

impl std::fmt::Display for Partial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Partial {}

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// Exact combinatorial game analysis: values, regions, censuses.
#[derive(Parser, Debug)]
#[command(name = "partizan", about, arg_required_else_help = true)]
struct Cli {
    /// Print machine-readable JSON instead of text.
    #[arg(long, global = true)]
    json: bool,
    /// The persistent value table to read through and add to (default: the
    /// embedded store under the user's data directory, or $PARTIZAN_STORE).
    #[arg(long, global = true, value_name = "PATH")]
    store: Option<std::path::PathBuf>,
    /// Run without the persistent value table.
    #[arg(long, global = true, conflicts_with = "store")]
    no_store: bool,
    /// Print a plain progress line on stderr every SECS seconds (default 5)
    /// and one when done, for logs (`--progress=1`); on a terminal a live
    /// line is shown anyway, and nothing when stderr is piped.
    #[arg(long, global = true, value_name = "SECS", num_args = 0..=1, require_equals = true,
          default_missing_value = "5", value_parser = meter::parse_interval)]
    progress: Option<std::time::Duration>,
    /// Memory budget of long commands (e.g. 4G, 512M, or a number of MB;
    /// default: half the machine's memory): past it they stop with an
    /// error saying how far they got.
    #[arg(long, global = true, value_name = "SIZE", value_parser = meter::parse_size)]
    max_memory: Option<u64>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The canonical value of a position (plus outcome, stops, temperature).
    Value(values::ValueArgs),
    /// The canonical form of values written in CGSuite notation, added up.
    Game(values::GameArgs),
    /// Position-graph and recursion-tree sizes, and the regions' graphs.
    Graph(values::GraphArgs),
    /// The regions of a board; with --stats, what decomposition costs and saves.
    Decompose(values::DecomposeArgs),
    /// Who wins (normal or misère play).
    Outcome(Box<outcome_cmd::OutcomeArgs>),
    /// Replay a certificate written by `outcome --certificate FILE`.
    Check(outcome_cmd::CheckArgs),
    /// A worker of the job-level search (`outcome --jobs`,
    /// `--worker-command`): jobs in on standard input, answers out, a line each.
    JobWorker(jobs_cmd::JobWorkerArgs),
    /// The census of every small region: values, packing readings, tables.
    Census(census_cmd::CensusArgs),
    /// The Domineering value atlas: build, merge shards, report, find.
    #[command(subcommand)]
    Atlas(atlas_cmd::AtlasCmd),
    /// Numerical semigroups: counts by genus.
    #[command(subcommand)]
    Semigroups(semigroup_cmd::SemigroupsCmd),
    /// Sylver Coinage: census of searches and proofs, outcomes, one position.
    #[command(subcommand)]
    Sylver(semigroup_cmd::SylverCmd),
    /// The persistent table of region values: stats, export, import, verify, warm.
    #[command(subcommand)]
    Store(store_cmd::StoreCmd),
    /// Finding the parts: what a region pass costs and saves per board
    /// (also one row down, or with a wall moved across), or how often random
    /// play falls apart (--playouts).
    Parts(parts_cmd::PartsArgs),
    /// Each player's options of a board, with their values and incentives.
    Options(values::OptionsArgs),
    /// The rulesets partizan knows, with their board glyphs.
    Rulesets,
    /// Check that a board's regions are independent: every move below it
    /// stays inside one region (the soundness checker).
    CheckRegions(values::CheckRegionsArgs),
    /// Grundy values of impartial games: octal codes, subtraction sets, Nim, graph Kayles.
    Grundy(grundy_cmd::GrundyArgs),
    /// Serve the local site (explorer, censuses, Sylver Coinage, JSON API).
    Serve(serve::ServeArgs),
    /// Compare two values: prints <, >, = or || (confused).
    Compare(toolkit_cmd::CompareArgs),
    /// Loopy values: a game graph's outcome with draws, a stopper's simplest
    /// form, comparisons of stoppers (CGSuite notation with pass and labels).
    Loopy(toolkit_cmd::LoopyArgs),
    /// Everything about a value: atomic weight, reduced form, thermograph, cooling, ...
    Analyse(toolkit_cmd::AnalyseArgs),
    /// Draw a board, or its thermograph (--thermograph), as SVG or TikZ.
    Draw(toolkit_cmd::DrawArgs),
    /// Shell completions: bash, zsh or fish.
    Completions(manners::CompletionsArgs),
    /// The man page (roff), of partizan or of one command.
    Man(manners::ManArgs),
}

/// How long commands show progress and how much memory they may take.
pub struct Long {
    /// Progress display.
    pub show: meter::Show,
    /// Memory budget in bytes.
    pub max_memory: u64,
}

impl Long {
    /// A meter for one long command.
    pub fn meter(&self, label: impl Into<String>, unit: &'static str) -> meter::Meter {
        meter::Meter::new(label, unit, self.show, self.max_memory)
    }

    /// A watch for one long library call that takes no stop check.
    pub fn watch(
        &self,
        label: impl Into<String>,
        unit: &'static str,
        total: Option<u64>,
    ) -> meter::Watch {
        meter::Watch::start(label, unit, total, self.show, self.max_memory)
    }
}

/// A report as pretty JSON or as its text.
pub(crate) fn print_report<T: serde::Serialize>(
    report: &T,
    text: &str,
    json_out: bool,
) -> anyhow::Result<()> {
    if json_out {
        println!("{}", serde_json::to_string_pretty(report)?);
    } else {
        print!("{text}");
    }
    Ok(())
}

/// An error as one line: the chain of causes joined by ": ", each cause
/// said once (an OS error's text is often repeated by its wrapper), and at
/// most 400 characters (a bad input is never echoed at length). A longer
/// line loses its middle, not its end: the end is where a message says
/// what to do.
fn one_line(e: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in e.chain() {
        let text = cause.to_string().replace('\n', " ");
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
    }
    cut_middle(&shorten_quotes(&parts.join(": "), 200), 400)
}

/// `msg` when it has at most `max` characters; else its first and last
/// characters, `max` in all, with "…" between.
fn cut_middle(msg: &str, max: usize) -> String {
    let n = msg.chars().count();
    if n <= max {
        return msg.to_string();
    }
    let tail = max * 2 / 5;
    let head = max - tail;
    let mut out: String = msg.chars().take(head).collect();
    out.push('…');
    out.extend(msg.chars().skip(n - tail));
    out
}

/// Cut every quoted stretch ('…' or "…") of `msg` longer than `max`
/// characters to its first `max`, so a bad input is never echoed at length.
fn shorten_quotes(msg: &str, max: usize) -> String {
    let chars: Vec<char> = msg.chars().collect();
    let mut out = String::with_capacity(msg.len().min(4 * max));
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        out.push(c);
        i += 1;
        if c != '\'' && c != '"' {
            continue;
        }
        let end = chars[i..].iter().position(|&d| d == c).map(|p| i + p);
        let stop = end.unwrap_or(chars.len());
        if stop - i > max {
            out.extend(&chars[i..i + max]);
            out.push('…');
            i = stop;
        }
        // The rest of the quoted text (if not cut) and its closing quote.
        if let Some(e) = end {
            out.extend(&chars[i..e]);
            out.push(c);
            i = e + 1;
        }
    }
    out
}

fn main() -> ExitCode {
    let parsed = manners::command(Cli::command())
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // `partizan` alone: the usage and the list of commands.
            eprint!("{}", e.render());
            return ExitCode::from(2);
        }
        Err(e) if e.use_stderr() => {
            // A usage error: one line naming the problem (and clap's "did
            // you mean"), exit code 2; a JSON object under --json.
            let code = manners::code::BAD_INPUT;
            manners::report_error(
                manners::json_asked(),
                "usage",
                &manners::usage_line(&e),
                code,
            );
            return ExitCode::from(code);
        }
        Err(e) => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
    };
    let store = store_cmd::StoreChoice::from_flags(cli.store.clone(), cli.no_store);
    let long = Long {
        show: cli.progress.map_or(meter::Show::Auto, meter::Show::Lines),
        max_memory: cli.max_memory.unwrap_or_else(meter::default_max_memory),
    };
    // `game` and `analyse` read a --json among their values themselves.
    let json_errors = cli.json || manners::json_asked();
    let result = match cli.command {
        Command::Value(a) => match partizan_loopy::LoopyRules::from_name(&a.ruleset) {
            Some(l) => values::loopy_value_args(&a).and_then(|()| {
                toolkit_cmd::loopy_board(l, &a.board, false, &store, &long, cli.json)
            }),
            None => values::value(a, &store, &long, cli.json),
        },
        Command::Graph(a) => values::graph(a, &long, cli.json),
        Command::Game(a) => values::game(a, cli.json),
        Command::Decompose(a) => values::decompose(a, cli.json),
        Command::Census(a) => census_cmd::run(a, &long, cli.json),
        Command::Atlas(c) => atlas_cmd::run(c, &long, cli.json),
        Command::Outcome(a) if partizan_loopy::LoopyRules::from_name(&a.ruleset).is_some() => {
            let l = partizan_loopy::LoopyRules::from_name(&a.ruleset).expect("checked");
            outcome_cmd::loopy_outcome_args(&a).and_then(|board| {
                toolkit_cmd::loopy_board(l, &board, true, &store, &long, cli.json)
            })
        }
        Command::Outcome(mut a) => {
            // The global budget (`--max-memory 4G`, or the default), in MB.
            a.max_memory = Some((long.max_memory >> 20).max(1));
            if let meter::Show::Lines(every) = long.show {
                a.progress_lines = Some(every);
            }
            outcome_cmd::run(*a, &store, cli.json)
        }
        Command::Check(a) => outcome_cmd::check(a, &long, cli.json),
        Command::JobWorker(a) => jobs_cmd::job_worker(&a),
        Command::Semigroups(c) => semigroup_cmd::semigroups(c, &long, cli.json),
        Command::Sylver(c) => semigroup_cmd::sylver(c, &long, cli.json),
        Command::Store(cmd) => store_cmd::run(cmd, store, &long, cli.json),
        Command::Parts(a) => parts_cmd::run(a, cli.json),
        Command::Options(a) => values::options(a, &long, cli.json),
        Command::Rulesets => values::rulesets(cli.json),
        Command::CheckRegions(a) => values::check_regions(a, cli.json),
        Command::Grundy(a) => grundy_cmd::run(a, cli.json),
        Command::Serve(a) => serve::serve(a, &store),
        Command::Compare(a) => toolkit_cmd::compare(a, cli.json),
        Command::Analyse(a) => toolkit_cmd::analyse(a, cli.json),
        Command::Loopy(a) => toolkit_cmd::loopy(a, &long, cli.json),
        Command::Draw(a) => toolkit_cmd::draw(a),
        Command::Completions(a) => manners::completions(a, &mut manners::command(Cli::command())),
        Command::Man(a) => manners::man(a, manners::command(Cli::command())),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The answer is printed; the code says what it was.
        Err(e) if e.is::<manners::Exit>() => {
            ExitCode::from(e.downcast_ref::<manners::Exit>().map_or(2, |x| x.0))
        }
        Err(e) if e.is::<Partial>() => {
            manners::report_error(json_errors, "partial", &one_line(&e), Partial::EXIT_CODE);
            ExitCode::from(Partial::EXIT_CODE)
        }
        Err(e) => {
            let code = manners::code::BAD_INPUT;
            manners::report_error(json_errors, "error", &one_line(&e), code);
            ExitCode::from(code)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{cut_middle, one_line, shorten_quotes};

    #[test]
    fn a_long_line_loses_its_middle_and_keeps_its_advice() {
        let msg = format!(
            "{} is not believed: {}; run this",
            "p".repeat(300),
            "w".repeat(300)
        );
        let cut = cut_middle(&msg, 400);
        assert_eq!(cut.chars().count(), 401, "{cut}");
        assert!(cut.starts_with(&"p".repeat(240)), "{cut}");
        assert!(cut.ends_with("; run this"), "{cut}");
        assert!(cut.contains('…'), "{cut}");
        assert_eq!(cut_middle("short", 400), "short");
        let exact = "é".repeat(400);
        assert_eq!(cut_middle(&exact, 400), exact);
    }

    #[test]
    fn an_os_error_is_said_once() {
        // A wrapper that repeats its source's text, as the store's I/O
        // errors did ("No space left on device (os error 28): No space
        // left on device").
        #[derive(Debug)]
        struct Wrap(std::io::Error);
        impl std::fmt::Display for Wrap {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "cannot write to store s.sqlite: {}", self.0)
            }
        }
        impl std::error::Error for Wrap {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        let io = std::io::Error::from_raw_os_error(28);
        let e = anyhow::Error::new(Wrap(io)).context("value domineering");
        let line = one_line(&e);
        assert_eq!(line.matches("os error 28").count(), 1, "{line}");
        assert!(
            line.starts_with("value domineering: cannot write"),
            "{line}"
        );
    }

    #[test]
    fn long_quotes_are_cut_and_short_ones_kept() {
        let long = "x".repeat(500);
        let cut = shorten_quotes(&format!("bad board '{long}': ragged"), 200);
        assert_eq!(cut, format!("bad board '{}…': ragged", "x".repeat(200)));
        let kept = "can't read \"a.txt\": no such file";
        assert_eq!(shorten_quotes(kept, 200), kept);
        let open = format!("bad \"{long}");
        assert_eq!(
            shorten_quotes(&open, 10),
            format!("bad \"{}…", "x".repeat(10))
        );
    }
}
