//! `partizan grundy ...`: Grundy values of impartial games (Nim, octal and
//! hexadecimal codes, subtraction games; Kayles and Node Kayles on graphs).

use std::io::Write;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Args;
use partizan_impartial::graph::GraphSolver;
use partizan_impartial::sequence::MAX_VALUES;
use partizan_impartial::{
    parse_heaps, Graph, GraphGame, GrundyReport, GrundySequence, HeapGame, SearchOptions,
};
use partizan_report::misere::{misere_graph, misere_quotient, MisereAsk};
use serde_json::json;

/// Arguments of `partizan grundy`.
#[derive(Args, Debug)]
pub struct GrundyArgs {
    /// The game: an octal or hexadecimal code (0.07, 0.137, 4.7, 0.f), a
    /// name (nim, kayles, dawsons-kayles, dawsons-chess, treblecross), a
    /// subtraction set (sub:1,2,5), an all-but subtraction game by its
    /// excluded set (allbut:1,2), or kayles / node-kayles followed by a graph.
    pub game: String,
    /// For kayles / node-kayles on a graph: "5: 0-1 1-2 2-3", "path:10",
    /// "cycle:6", "complete:4", "star:5", "grid:3x3" (at most 64 vertices).
    pub graph: Option<String>,
    /// The largest heap whose value is wanted (default 100; with --misere,
    /// the largest heap the quotient includes, default 300, or less once
    /// it is proved periodic).
    #[arg(long)]
    pub up_to: Option<usize>,
    /// Compute at least this many values looking for a proof of periodicity
    /// (stops as soon as one is found).
    #[arg(long, default_value_t = 10_000)]
    pub search: usize,
    /// Work budget: stop computing after about this many nanoseconds' worth
    /// of work (bitset words ANDed, splits looked at).
    #[arg(long, default_value_t = partizan_impartial::sequence::DEFAULT_MAX_WORK)]
    pub max_work: u64,
    /// Print every value G(0..=up_to), one "n G(n)" per line (in --json, a list).
    #[arg(long)]
    pub values: bool,
    /// Value a sum of heaps too, e.g. "3,5,7".
    #[arg(long)]
    pub heaps: Option<String>,
    /// Graph games: give up after memoising this many connected positions.
    #[arg(long, default_value_t = 2_000_000)]
    pub max_positions: usize,
    /// Misère play: the game's misère quotient (monoid, P-portion, heap
    /// elements; through --up-to, or until proved periodic), or on a graph
    /// the position's misère canonical form and genus. With --heaps, the
    /// sum's misère outcome read from the quotient.
    #[arg(long)]
    pub misere: bool,
    /// With --misere: the quotient's work budget (its checks' steps; the
    /// default is some seconds to a minute).
    #[arg(long, default_value_t = partizan_report::misere::DEFAULT_MISERE_WORK)]
    pub misere_work: u64,
}

/// Run `partizan grundy`.
pub fn run(a: GrundyArgs, json_out: bool) -> Result<()> {
    if let Some(graph) = &a.graph {
        let Some(game) = GraphGame::from_name(&a.game) else {
            bail!(
                "{:?} is not played on a graph (graph games: kayles, node-kayles)",
                a.game
            );
        };
        if a.misere {
            let r = misere_graph(game, graph, a.max_positions)?;
            return crate::print_report(&r, &r.text(), json_out);
        }
        return graph_game(game, graph, a.max_positions, json_out);
    }
    if GraphGame::from_name(&a.game) == Some(GraphGame::NodeKayles) {
        bail!("node-kayles is played on a graph: give one, e.g. 'path:10' or '4: 0-1 1-2 2-3'");
    }
    if a.misere {
        let r = misere_quotient(&MisereAsk {
            game: a.game.clone(),
            up_to: a.up_to.unwrap_or(300),
            max_work: a.misere_work,
            heaps: a.heaps.clone(),
        })?;
        return crate::print_report(&r, &r.text(), json_out);
    }
    let game = HeapGame::parse(&a.game)?;
    let heaps = a.heaps.as_deref().map(parse_heaps).transpose()?;
    let up_to = heaps
        .iter()
        .flatten()
        .copied()
        .max()
        .map_or(a.up_to.unwrap_or(100), |h| h.max(a.up_to.unwrap_or(100)));
    if a.values && up_to >= MAX_VALUES {
        bail!(
            "--values lists at most {MAX_VALUES} values (G(0) to G({})), not G(0) to G({up_to}): lower --up-to",
            MAX_VALUES - 1
        );
    }
    let start = Instant::now();
    let seq = GrundySequence::compute(
        &game,
        SearchOptions {
            up_to,
            search: a.search,
            max_work: a.max_work,
        },
    );
    let report = seq.report(up_to, a.values);
    let elapsed_ms = start.elapsed().as_secs_f64() * 1e3;
    let sum = match &heaps {
        Some(h) => match seq.sum_value(h) {
            Some(v) => Some((h.clone(), v)),
            None => bail!(
                "{game}: the heaps reach past the {} values computed and no period was proved (raise --max-work)",
                seq.computed().len()
            ),
        },
        None => None,
    };
    if json_out {
        let mut out = serde_json::to_value(&report)?;
        out["elapsed_ms"] = json!(elapsed_ms);
        if let Some((h, v)) = &sum {
            out["sum"] = json!({ "heaps": h, "value": v, "outcome": outcome(*v) });
        }
        let stdout = std::io::stdout();
        let mut w = std::io::BufWriter::new(stdout.lock());
        serde_json::to_writer_pretty(&mut w, &out)?;
        writeln!(w)?;
        return Ok(());
    }
    print_text(&report, elapsed_ms, sum.as_ref())
}

fn outcome(v: u32) -> &'static str {
    if v == 0 {
        "P"
    } else {
        "N"
    }
}

fn print_text(r: &GrundyReport, elapsed_ms: f64, sum: Option<&(Vec<usize>, u32)>) -> Result<()> {
    let stdout = std::io::stdout();
    let mut w = std::io::BufWriter::new(stdout.lock());
    let code = match &r.code {
        Some(c) if *c != r.game => format!(", code {c}"),
        _ => String::new(),
    };
    writeln!(w, "game {} ({}{code})", r.game, r.kind)?;
    if r.kind == "nim" {
        writeln!(w, "G(n) = n")?;
    } else if let (Some(p), Some(pre)) = (r.period, r.preperiod) {
        writeln!(
            w,
            "period {p}, pre-period {pre}: proved by the periodicity theorem from {} values",
            r.proof_length.unwrap_or(0)
        )?;
        let shown: Vec<String> = r
            .exceptions
            .iter()
            .take(40)
            .map(|e| e.to_string())
            .collect();
        let more = if r.exceptions.len() > 40 { " ..." } else { "" };
        writeln!(
            w,
            "exceptions ({}): {}{more}",
            r.exceptions.len(),
            if shown.is_empty() {
                "none".into()
            } else {
                shown.join(" ")
            }
        )?;
    } else {
        writeln!(
            w,
            "not proved periodic within {} values{}",
            r.computed,
            if r.out_of_budget {
                " (stopped by the work budget, see --max-work)"
            } else {
                ""
            }
        )?;
        match (r.apparent_period, r.apparent_preperiod, r.apparent_saltus) {
            (Some(p), Some(from), Some(s)) => writeln!(
                w,
                "apparent arithmetic period {p}, saltus {s}, from {from}: G(n + {p}) = G(n) + {s} (not proved)"
            )?,
            (Some(p), Some(from), None) => {
                writeln!(w, "apparent period {p} from {from} (not proved)")?
            }
            _ => {}
        }
    }
    if r.kind != "nim" {
        writeln!(w, "computed {} values by the mex recurrence", r.computed)?;
    }
    writeln!(
        w,
        "values known through n = {}{} ({elapsed_ms:.1} ms)",
        r.known_through,
        if r.known_through < r.up_to {
            format!(" (asked for {})", r.up_to)
        } else {
            String::new()
        }
    )?;
    let head: Vec<String> = r.head.iter().map(|v| v.to_string()).collect();
    writeln!(
        w,
        "G(0)..G({}): {}",
        r.head.len().saturating_sub(1),
        head.join(" ")
    )?;
    if let Some((h, v)) = sum {
        let parts: Vec<String> = h.iter().map(|x| x.to_string()).collect();
        writeln!(w, "G({}) = {v} ({})", parts.join(" + "), outcome(*v))?;
    }
    if let Some(values) = &r.values {
        for (n, v) in values.iter().enumerate() {
            writeln!(w, "{n} {v}")?;
        }
    }
    Ok(())
}

fn graph_game(game: GraphGame, text: &str, max_positions: usize, json_out: bool) -> Result<()> {
    let graph = Graph::parse(text)?;
    let start = Instant::now();
    let v = GraphSolver::with_budget(game, &graph, max_positions).solve_within()?;
    let elapsed_ms = start.elapsed().as_secs_f64() * 1e3;
    if json_out {
        let mut out = serde_json::to_value(&v)?;
        out["graph"] = json!(graph.to_string());
        out["outcome"] = json!(outcome(v.value));
        out["elapsed_ms"] = json!(elapsed_ms);
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!("{} on {graph}", game.name());
    println!("G = {} ({})", v.value, v.outcome_words());
    if v.components.len() > 1 {
        for line in v.component_lines() {
            println!("component {line}");
        }
    }
    println!("positions valued {} ({elapsed_ms:.1} ms)", v.positions);
    Ok(())
}
