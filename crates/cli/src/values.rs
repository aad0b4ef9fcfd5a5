//! `partizan value` and `partizan graph`.

use anyhow::{Context, Result};
use clap::Args;
use partizan_solve::{graph, Decompose, Savings};
use serde_json::json;

use crate::store_cmd::StoreChoice;
use crate::with_ruleset;

/// Arguments of `partizan value`.
#[derive(Args, Debug)]
#[command(
    after_help = "Prints the canonical value of a board (any registered ruleset: `partizan \
rulesets`), summarised past 2,000 characters; --stats adds the solver's counts, --json the \
outcome, stops, mean, temperature and counts. The board's value is kept in the store, so asking \
again is instant.\n\nExamples:\n  \
partizan value domineering '...|...'                       # {2|-1/2}\n  \
partizan value domineering '...|...' --json                # value, outcome, stops, mean, temperature, counts\n  \
partizan value clobber 'xoxo|ox..' --stats                 # with the solver's counts\n  \
partizan value toads 'T.TFTFF'                             # ^^*\n  \
partizan value hackenbush-graph 'g-1:b,1-2:r,2-g:g'        # 1/2*\n  \
partizan value domineering '...|...' --thermograph --format svg > t.svg\n  \
partizan value clobber 'xox|ox.' --decompose off --no-symmetry --no-memo   # each saving switchable"
)]
pub struct ValueArgs {
    /// Ruleset (see `partizan rulesets`).
    pub ruleset: String,
    /// Board text: rows separated by '|' or newlines.
    pub board: String,
    /// Turn off the memo table.
    #[arg(long)]
    pub no_memo: bool,
    /// When to split into regions: every, root, conditional, off.
    #[arg(long, default_value = "every")]
    pub decompose: String,
    /// Turn off symmetry folding.
    #[arg(long)]
    pub no_symmetry: bool,
    /// Print the solver's counts too (always present in --json).
    #[arg(long)]
    pub stats: bool,
    /// The misère canonical form instead. An impartial ruleset (Cram...):
    /// genus, misère nim value and outcome, in the universe of impartial
    /// games. A partizan one: the form in the universe of all games and,
    /// when the board is a dicot (Clobber), among dicots. The board is
    /// valued whole (under misère play regions' values do not add up to
    /// the board's outcome by any shortcut), so keep boards small.
    #[arg(long)]
    pub misere: bool,
    /// With --misere: the most boards valued before giving up.
    #[arg(long, default_value_t = 2_000_000, value_name = "N")]
    pub misere_positions: usize,
    /// Print the canonical form however long it is (past 2,000 characters
    /// it is otherwise summarised by its size and facts).
    #[arg(long)]
    pub full: bool,
    /// Also write the full canonical form to this file (a regular file,
    /// written whole: temp file, then rename).
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
    /// Print the value's thermograph (wall breakpoints) instead; with
    /// --format svg|tikz, draw it.
    #[arg(long)]
    pub thermograph: bool,
    /// Draw the thermograph as svg or tikz (implies --thermograph).
    #[arg(long, value_name = "svg|tikz")]
    pub format: Option<String>,
}

/// Write `text` to `path` whole (temp file beside it, then rename), only
/// ever over a regular file.
pub fn write_whole(path: &std::path::Path, text: &str) -> Result<()> {
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if !meta.file_type().is_file() {
            anyhow::bail!(
                "cannot write {}: it exists and is not a regular file",
                path.display()
            );
        }
    }
    if path.file_name().is_none() {
        anyhow::bail!("cannot write {}: not a file name", path.display());
    }
    let io = |e: std::io::Error| anyhow::anyhow!("cannot write {}: {e}", path.display());
    partizan_solve::files::write_through_temp(path, io, |w| {
        std::io::Write::write_all(w, text.as_bytes()).map_err(io)
    })
}

/// The flags of `value` a loopy ruleset's board cannot take, refused.
pub fn loopy_value_args(a: &ValueArgs) -> Result<()> {
    let refused = [
        ("--misere", a.misere),
        ("--thermograph", a.thermograph),
        ("--format", a.format.is_some()),
        ("--out", a.out.is_some()),
        ("--no-memo", a.no_memo),
        ("--no-symmetry", a.no_symmetry),
    ];
    if let Some((flag, _)) = refused.iter().find(|(_, on)| *on) {
        anyhow::bail!(
            "{flag} is for short rulesets; {} is loopy (its positions can recur)",
            a.ruleset
        );
    }
    Ok(())
}

/// Arguments of `partizan options`.
#[derive(Args, Debug)]
pub struct OptionsArgs {
    /// Ruleset (see `partizan rulesets`).
    pub ruleset: String,
    /// Board text: rows separated by '|' or newlines.
    pub board: String,
}

/// `partizan options RULESET BOARD`: each player's options as boards with
/// their values and incentives.
pub fn options(args: OptionsArgs, long: &crate::Long, json_out: bool) -> Result<()> {
    let rules = crate::rulesets::rules(&args.ruleset)?;
    let meter = long.meter(format!("options {}", rules.name()), "regions searched");
    let stop = || meter.tick();
    let opts = partizan_report::Options {
        stop: Some(&stop),
        ..partizan_report::Options::default()
    };
    let report = match partizan_report::board_options(rules, &args.board, &opts) {
        Ok(r) => r,
        Err(e) => return Err(meter.over_budget().unwrap_or_else(|| e.into())),
    };
    drop(meter);
    if json_out {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.render_text(Some(partizan_report::PRINT_LIMIT)));
    }
    Ok(())
}

/// Arguments of `partizan graph`.
#[derive(Args, Debug)]
pub struct GraphArgs {
    /// Ruleset (see `partizan rulesets`).
    pub ruleset: String,
    /// Board text: rows separated by '|' or newlines.
    pub board: String,
}

/// `partizan value RULESET BOARD`.
pub fn value(
    args: ValueArgs,
    store: &StoreChoice,
    long: &crate::Long,
    json_out: bool,
) -> Result<()> {
    let rules = crate::rulesets::rules(&args.ruleset)?;
    if args.misere {
        let report = partizan_report::misere_board(rules, &args.board, args.misere_positions)?;
        if json_out {
            println!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            print!("{}", report.text());
        }
        return Ok(());
    }
    let savings = Savings {
        memo: !args.no_memo,
        decompose: args.decompose.parse::<Decompose>()?,
        symmetry: !args.no_symmetry,
    };
    let (st, busy) = store.open_unless_busy()?;
    if let Some(e) = busy {
        eprintln!("warning: {e}; running without the store");
    }
    let meter = long.meter(format!("value {}", rules.name()), "regions searched");
    let stop = || meter.tick();
    let opts = partizan_report::Options {
        savings,
        store: st.as_ref(),
        stop: Some(&stop),
    };
    let report = match partizan_report::board_value(rules, &args.board, &opts) {
        Ok(r) => r,
        Err(e) => return Err(meter.over_budget().unwrap_or_else(|| e.into())),
    };
    drop(meter);
    if let Some(w) = report.store.as_ref().and_then(|u| u.warning.as_ref()) {
        eprintln!("warning: store: {w}");
    }
    let printed = report.value.size.characters <= partizan_report::MAX_VALUE_TEXT;
    if !printed && (args.out.is_some() || args.thermograph || args.format.is_some()) {
        anyhow::bail!(
            "the value has {} characters, more than the {} that are printed or drawn",
            report.value.size.characters,
            partizan_report::MAX_VALUE_TEXT
        );
    }
    if let Some(path) = &args.out {
        write_whole(path, &format!("{}\n", report.value.value))?;
    }
    if args.thermograph || args.format.is_some() {
        return crate::toolkit_cmd::value_thermograph(
            &report.value.value,
            args.format.as_deref(),
            json_out,
        );
    }
    if json_out {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        let limit = (!args.full).then_some(partizan_report::PRINT_LIMIT);
        print!("{}", report.render_text(args.stats, limit));
    }
    Ok(())
}

/// `partizan graph RULESET BOARD`.
pub fn graph(args: GraphArgs, long: &crate::Long, json_out: bool) -> Result<()> {
    with_ruleset!(args.ruleset, |r| {
        let board = r
            .parse(&args.board)
            .with_context(|| format!("bad {} board", r.name()))?;
        let meter = long.meter(format!("graph {}", r.name()), "positions walked");
        let report =
            graph::region_report_with(r, &board, |_| if meter.tick() { Err(()) } else { Ok(()) });
        let report = match report {
            Ok(rep) => rep,
            Err(graph::WalkStop::Check(())) => {
                return Err(meter
                    .over_budget()
                    .unwrap_or_else(|| anyhow::anyhow!("graph walk stopped")))
            }
            Err(graph::WalkStop::Identity(e)) => return Err(e.into()),
        };
        drop(meter);
        if json_out {
            println!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            println!("positions   {}", report.positions);
            println!("tree nodes  {}", report.tree_nodes);
            for (i, reg) in report.regions.iter().enumerate() {
                println!(
                    "region {}: {} cells, {} positions",
                    i + 1,
                    reg.cells.count_ones(),
                    reg.positions
                );
            }
            println!("product     {}", report.product);
        }
        Ok(())
    })
}

/// Arguments of `partizan decompose`.
#[derive(Args, Debug)]
pub struct DecomposeArgs {
    /// Ruleset (see `partizan rulesets`).
    pub ruleset: String,
    /// Board text: rows separated by '|' or newlines.
    pub board: String,
    /// Run a full evaluation in every decomposition mode and report where
    /// positions fell apart, what the passes cost and what they saved.
    #[arg(long)]
    pub stats: bool,
}

/// `partizan decompose RULESET BOARD [--stats]`.
pub fn decompose(args: DecomposeArgs, json_out: bool) -> Result<()> {
    with_ruleset!(args.ruleset, |r| {
        let board = r
            .parse(&args.board)
            .with_context(|| format!("bad {} board", r.name()))?;
        if !args.stats {
            let report = graph::region_report(r, &board)?;
            let sum: u64 = report.regions.iter().map(|g| g.positions).sum();
            if json_out {
                let mut v = serde_json::to_value(&report)?;
                v["region_sum"] = json!(sum);
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                println!(
                    "{} regions; whole {} positions, product {}, sum {}",
                    report.regions.len(),
                    report.positions,
                    report.product,
                    sum
                );
            }
            return Ok(());
        }
        let study = partizan_solve::study::study(r, &board)?;
        if json_out {
            println!("{}", serde_json::to_string_pretty(&study)?);
        } else {
            println!("board {} ({})", study.board, study.ruleset);
            println!(
                "whole {} positions; {} regions, sum {}, product {}; pass visits {} squares",
                study.graph.positions,
                study.graph.regions.len(),
                study.region_sum,
                study.graph.product,
                study.root_pass_squares
            );
            println!(
                "{:<12} {:>10} {:>10} {:>10} {:>10} {:>10} {:>12}",
                "mode", "nodes", "searched", "passes", "splits", "squares", "saved"
            );
            for m in &study.modes {
                println!(
                    "{:<12} {:>10} {:>10} {:>10} {:>10} {:>10} {:>12}",
                    format!("{:?}", m.mode),
                    m.stats.nodes,
                    m.stats.distinct,
                    m.stats.passes,
                    m.stats.splits,
                    m.pass_cost,
                    m.positions_saved
                );
            }
            if let Some(m) = study.modes.iter().find(|m| m.mode == Decompose::EveryNode) {
                println!("splits by depth (every-node): depth passes splits");
                for (d, c) in &m.detail.by_depth {
                    println!("  {d:>3} {:>10} {:>10}", c.passes, c.splits);
                }
                println!("regions per split: {:?}", m.detail.parts);
                println!("region sizes (cells: count): {:?}", m.detail.region_sizes);
            }
        }
        Ok(())
    })
}

/// Arguments of `partizan game`.
#[derive(Args, Debug)]
pub struct GameArgs {
    /// Values in CGSuite notation (`0`, `3/2`, `*2`, `^`, `v*`, `±1`,
    /// `{2|0||-1}`); several are added together.
    #[arg(required = true, allow_hyphen_values = true)]
    pub values: Vec<String>,
    /// Misère play instead: the values read as game trees exactly as
    /// written (`{1|*}` is not simplified under normal play; `1`, `*2`,
    /// `1/2` stand for their normal-play trees, `-x` swaps the players),
    /// and their sum's misère canonical form in the universe of all games,
    /// among dicots when it is one, and its genus when it is impartial.
    #[arg(long)]
    pub misere: bool,
}

/// `partizan game VALUE...`: the canonical form of a value written in
/// CGSuite notation (the sum, if several), with outcome, stops and
/// temperature.
pub fn game(args: GameArgs, json_out: bool) -> Result<()> {
    // Values may start with '-', so the list takes hyphenated words; the
    // global flags among them are still flags (no notation starts `--`).
    let mut json_out = json_out;
    let mut full = false;
    let mut misere = args.misere;
    let mut values = Vec::new();
    for v in &args.values {
        match v.as_str() {
            "--json" => json_out = true,
            "--full" => full = true,
            "--no-store" => {}
            "--misere" => misere = true,
            // A flag is `--` and a letter: `--1` is notation (minus minus one).
            flag if flag.starts_with("--")
                && flag[2..].starts_with(|c: char| c.is_ascii_alphabetic()) =>
            {
                anyhow::bail!("unknown flag '{flag}' for game (see --help)")
            }
            _ => values.push(v),
        }
    }
    if values.is_empty() {
        anyhow::bail!("game needs at least one value in notation");
    }
    if misere {
        return print_misere_game(&values, json_out);
    }
    let report = partizan_report::game_value(&values)?;
    if json_out {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        let limit = (!full).then_some(partizan_report::PRINT_LIMIT);
        print!("{}", report.render_text(limit));
    }
    Ok(())
}

/// Most forms `game --misere` and `analyse --misere` build.
const MISERE_FORMS: usize = 2_000_000;

/// The misère report of values in notation (`game --misere`, `analyse
/// --misere`).
pub fn print_misere_game<S: AsRef<str>>(values: &[S], json_out: bool) -> Result<()> {
    let report = partizan_report::misere_game(values, MISERE_FORMS)?;
    if json_out {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.text());
    }
    Ok(())
}

/// `partizan rulesets`: every registered ruleset with its board glyphs.
pub fn rulesets(json_out: bool) -> Result<()> {
    use partizan_games::Rules;
    if json_out {
        let list: Vec<_> = Rules::ALL
            .iter()
            .map(|r| {
                let i = r.info();
                let symmetries = partizan_games::with_rules!(*r, |x| x.symmetries().len());
                json!({
                    "name": i.name,
                    "title": i.title,
                    "aliases": i.aliases,
                    "summary": i.summary,
                    "glyphs": i.glyphs.iter().map(|g| json!({
                        "char": g.ch.to_string(),
                        "layer": g.layer,
                        "meaning": g.meaning,
                    })).collect::<Vec<_>>(),
                    "example": i.example,
                    "symmetries": symmetries,
                })
            })
            .chain(partizan_loopy::LoopyRules::ALL.iter().map(|r| {
                let i = r.info();
                json!({
                    "name": i.name,
                    "title": i.title,
                    "aliases": i.aliases,
                    "summary": i.rules,
                    "glyphs": i.glyphs,
                    "example": i.examples.first().map(|e| e.0),
                    "loopy": true,
                })
            }))
            .collect();
        println!("{}", serde_json::to_string_pretty(&list)?);
    } else {
        // Names in one column as wide as the longest, the rest beside it.
        let loopy = partizan_loopy::LoopyRules::ALL
            .iter()
            .map(|r| r.name().len());
        let width = Rules::ALL
            .iter()
            .map(|r| r.info().name.len())
            .chain(loopy)
            .max();
        let width = width.unwrap_or(0);
        for r in Rules::ALL {
            let i = r.info();
            let glyphs: Vec<String> = i
                .glyphs
                .iter()
                .map(|g| format!("{} {}", g.ch, g.meaning))
                .collect();
            println!("{:<width$}  {}", i.name, i.summary);
            println!(
                "{:<width$}  glyphs: {}; e.g. '{}'",
                "",
                glyphs.join(", "),
                i.example
            );
        }
        for r in partizan_loopy::LoopyRules::ALL {
            let i = r.info();
            println!(
                "{:<width$}  (loopy: positions recur; `value` and `outcome` take it) {}",
                i.name, i.rules
            );
            let example = i.examples.first().map_or("", |e| e.0);
            println!("{:<width$}  glyphs: {}; e.g. '{example}'", "", i.glyphs);
        }
    }
    Ok(())
}

/// Arguments of `partizan check-regions`.
#[derive(Args, Debug)]
pub struct CheckRegionsArgs {
    /// Ruleset (see `partizan rulesets`).
    pub ruleset: String,
    /// Board text: rows separated by '|' or newlines.
    pub board: String,
    /// Walk at most this many distinct positions below the board.
    #[arg(long, default_value_t = 200_000)]
    pub budget: u64,
}

/// `partizan check-regions RULESET BOARD`: the soundness checker on the
/// ruleset's own regions of a board. Exit 0 when every move in the subtree
/// walked stays inside one region and each region offers exactly its own
/// moves; an unsound partition is an error naming the first bad move.
pub fn check_regions(args: CheckRegionsArgs, json_out: bool) -> Result<()> {
    with_ruleset!(args.ruleset, |r| {
        let board = r
            .parse(&args.board)
            .with_context(|| format!("bad {} board", r.name()))?;
        let parts = partizan_solve::regions::regions(r, &board);
        let report = partizan_solve::soundness::check(r, &board, &parts, args.budget)
            .map_err(|v| anyhow::anyhow!("{v}"))?;
        let out = json!({
            "ruleset": r.name(),
            "board": r.format(&board),
            "regions": parts.len(),
            "sound": true,
            "nodes": report.nodes,
            "moves": report.moves,
            "complete": report.complete,
        });
        if json_out {
            println!("{}", serde_json::to_string_pretty(&out)?);
        } else {
            println!(
                "sound: {} regions; {} positions and {} moves checked{}",
                parts.len(),
                report.nodes,
                report.moves,
                if report.complete {
                    " (the whole subtree)"
                } else {
                    " (budget reached before the whole subtree)"
                }
            );
        }
        Ok(())
    })
}
