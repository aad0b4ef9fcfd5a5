//! `partizan`: the command-line front end. Thin: it parses arguments, calls
//! the libraries and prints. Every command takes `--json`.

mod census_cmd;
mod outcome_cmd;
mod rulesets;
mod semigroup_cmd;
mod serve;
mod store_cmd;
mod values;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exact combinatorial game analysis: values, regions, censuses.
#[derive(Parser, Debug)]
#[command(name = "partizan", version, about)]
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
    Outcome(outcome_cmd::OutcomeArgs),
    /// Replay a certificate written by `outcome --certificate FILE`.
    Check(outcome_cmd::CheckArgs),
    /// The census of every small region: values, packing readings, tables.
    Census(census_cmd::CensusArgs),
    /// Numerical semigroups: counts by genus.
    #[command(subcommand)]
    Semigroups(semigroup_cmd::SemigroupsCmd),
    /// Sylver Coinage: census of searches and proofs, outcomes, one position.
    #[command(subcommand)]
    Sylver(semigroup_cmd::SylverCmd),
    /// The persistent table of region values: stats, export, import, verify, warm.
    #[command(subcommand)]
    Store(store_cmd::StoreCmd),
    /// Serve the local site (explorer, censuses, Sylver Coinage, JSON API).
    Serve(serve::ServeArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            // A usage error: one line naming the problem, exit code 2.
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("error: bad arguments");
            eprintln!("{first} (see --help)");
            return ExitCode::from(2);
        }
        Err(e) => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
    };
    let store = store_cmd::StoreChoice::from_flags(cli.store.clone(), cli.no_store);
    let result = match cli.command {
        Command::Value(a) => values::value(a, &store, cli.json),
        Command::Graph(a) => values::graph(a, cli.json),
        Command::Game(a) => values::game(a, cli.json),
        Command::Decompose(a) => values::decompose(a, cli.json),
        Command::Outcome(a) => outcome_cmd::run(a, cli.json),
        Command::Check(a) => outcome_cmd::check(a, cli.json),
        Command::Census(a) => census_cmd::run(a, &store, cli.json),
        Command::Semigroups(c) => semigroup_cmd::semigroups(c, cli.json),
        Command::Sylver(c) => semigroup_cmd::sylver(c, cli.json),
        Command::Store(cmd) => store_cmd::run(cmd, store, cli.json),
        Command::Serve(a) => serve::serve(a, &store),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let msg = format!("{e:#}").replace('\n', " ");
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
