//! The impartial engine on the site (`partizan grundy`): a heap game by its
//! code (`0.07`, `4.7`, `sub:1,2,5`, `allbut:1,2`, `kayles`, `nim`), its
//! Grundy sequence up to a cap, the period and pre-period when the
//! periodicity theorem proves them, a plot and a table of the values; or
//! Kayles and Node Kayles on a graph (`graph=5: 0-1 1-2`, `path:10`): the
//! value, the components and every option with its value.
//! `/api/grundy` answers the report `partizan grundy GAME [GRAPH] --json`
//! prints.

use std::collections::HashMap;
use std::fmt::Write as _;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use partizan_impartial::graph::{GraphSolver, GraphValue};
use partizan_impartial::{
    parse_heaps, Graph, GraphGame, GrundyReport, GrundySequence, HeapGame, SearchOptions,
};
use partizan_report::misere::{
    misere_graph, misere_quotient, MisereAsk, MisereError, MisereForm, MisereGraphReport,
    MisereQuotientReport, MisereReportError,
};
use serde_json::json;

use super::{number_param, params, Params};
use crate::error::{ApiError, PageError, WebError};
use crate::html::{escape, page, url_encode};
use crate::AppState;

/// Largest heap whose value a request may ask for.
pub const MAX_UP_TO: usize = 100_000;
/// Largest prefix computed looking for a proof of periodicity.
pub const MAX_SEARCH: usize = 100_000;
/// The work budget of one request (units of about a nanosecond): about a
/// second, well inside the request's time budget.
pub const MAX_WORK: u64 = 1_000_000_000;
/// Values listed in the page's table and plot.
pub const SHOWN: usize = 240;
/// The longest game code accepted.
pub const MAX_CODE: usize = 200;
/// The longest graph text accepted (64 vertices have at most 2,016 edges).
pub const MAX_GRAPH_TEXT: usize = 20_000;
/// Connected positions a graph request may value before it is refused
/// (Kayles on a graph is exponential in the worst case).
pub const MAX_GRAPH_POSITIONS: usize = 2_000_000;
/// The misère quotient's work budget on the site (some seconds).
pub const MISERE_WORK: u64 = 100_000_000;
/// The most heaps a misère quotient includes on the site.
pub const MAX_MISERE_HEAPS: usize = 1000;
/// Connected positions a misère graph request may value (canonical forms
/// cost more than Grundy values).
pub const MAX_MISERE_GRAPH_POSITIONS: usize = 200_000;

struct Ask {
    game: String,
    up_to: usize,
    search: usize,
    heaps: Option<Vec<usize>>,
    /// Kayles or Node Kayles on this graph instead of a heap sequence.
    graph: Option<String>,
    /// Misère play too: the quotient (heaps up to `misere_up_to`), or the
    /// graph position's misère canonical form.
    misere: bool,
    /// The largest heap the misère quotient includes (300 unless `up_to`
    /// is given).
    misere_up_to: usize,
}

fn ask(m: &HashMap<String, String>) -> Result<Ask, WebError> {
    let game = m
        .get("game")
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "0.07".to_string());
    if game.chars().count() > MAX_CODE {
        return Err(WebError::param(
            "game",
            format!("over {MAX_CODE} characters"),
        ));
    }
    let up_to = number_param(m, "up_to", 100, MAX_UP_TO)?;
    let search = number_param(m, "search", 10_000, MAX_SEARCH)?;
    let heaps = match m.get("heaps").map(|s| s.trim()).filter(|s| !s.is_empty()) {
        None => None,
        Some(h) => {
            let h = parse_heaps(h).map_err(|e| WebError::param("heaps", e.to_string()))?;
            if h.len() > 64 || h.iter().any(|&x| x > MAX_UP_TO) {
                return Err(WebError::param(
                    "heaps",
                    format!("at most 64 heaps of at most {MAX_UP_TO}"),
                ));
            }
            Some(h)
        }
    };
    let graph = m
        .get("graph")
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    if graph
        .as_ref()
        .is_some_and(|g| g.chars().count() > MAX_GRAPH_TEXT)
    {
        return Err(WebError::param(
            "graph",
            format!("over {MAX_GRAPH_TEXT} characters"),
        ));
    }
    let misere = match m.get("misere").map(|s| s.trim()) {
        None | Some("" | "0" | "false" | "off") => false,
        Some("1" | "true" | "on" | "yes") => true,
        Some(other) => {
            return Err(WebError::param(
                "misere",
                format!("'{other}' is not 1 or 0"),
            ))
        }
    };
    let misere_up_to = if m.contains_key("up_to") {
        up_to.min(MAX_MISERE_HEAPS)
    } else {
        300
    };
    Ok(Ask {
        game,
        up_to,
        search,
        heaps,
        graph,
        misere,
        misere_up_to,
    })
}

/// The game and graph of a graph request, checked (a 400 before any work).
fn graph_ask(a: &Ask, text: &str) -> Result<(GraphGame, Graph), WebError> {
    let game = GraphGame::from_name(&a.game).ok_or_else(|| {
        WebError::param(
            "game",
            format!(
                "{:?} is not played on a graph (graph games: kayles, node-kayles)",
                a.game
            ),
        )
    })?;
    let graph = Graph::parse(text).map_err(|e| WebError::param("graph", e.to_string()))?;
    Ok((game, graph))
}

/// Kayles or Node Kayles on a graph, within the site's position budget.
fn compute_graph(game: GraphGame, graph: &Graph) -> Result<GraphValue, WebError> {
    GraphSolver::with_budget(game, graph, MAX_GRAPH_POSITIONS)
        .solve_within()
        .map_err(|_| WebError::GraphTooLarge(MAX_GRAPH_POSITIONS))
}

/// What `partizan grundy GAME G --json` prints (without the
/// timing): the value, the components, the options, the positions valued.
fn graph_json(graph: &Graph, v: &GraphValue) -> serde_json::Value {
    let mut out = json!(v);
    out["graph"] = json!(graph.to_string());
    out["outcome"] = json!(outcome(v.value));
    out
}

async fn run_graph(
    state: &AppState,
    a: &Ask,
    text: &str,
) -> Result<(GraphGame, Graph, GraphValue), WebError> {
    let (game, graph) = graph_ask(a, text)?;
    let g = graph.clone();
    let v = state.heavy(move |_| compute_graph(game, &g)).await?;
    Ok((game, graph, v))
}

/// The report and, when asked, the value of a sum of heaps.
struct Computed {
    report: GrundyReport,
    values: Vec<u32>,
    sum: Option<(Vec<usize>, Option<u32>)>,
}

fn compute(a: &Ask) -> Result<Computed, WebError> {
    let game = HeapGame::parse(&a.game).map_err(|e| WebError::param("game", e.to_string()))?;
    let up_to = a
        .heaps
        .iter()
        .flatten()
        .copied()
        .max()
        .map_or(a.up_to, |h| h.max(a.up_to));
    let seq = GrundySequence::compute(
        &game,
        SearchOptions {
            up_to,
            search: a.search,
            max_work: MAX_WORK,
        },
    );
    let report = seq.report(a.up_to, false);
    let shown = a.up_to.min(SHOWN - 1);
    let values: Vec<u32> = (0..=shown).map_while(|n| seq.get(n)).collect();
    let sum = a.heaps.as_ref().map(|h| (h.clone(), seq.sum_value(h)));
    Ok(Computed {
        report,
        values,
        sum,
    })
}

async fn run(state: &AppState, m: &HashMap<String, String>) -> Result<(Ask, Computed), WebError> {
    let a = ask(m)?;
    // A bad code is a 400 before any heavy-work slot is taken.
    HeapGame::parse(&a.game).map_err(|e| WebError::param("game", e.to_string()))?;
    let (game, up_to, search, heaps) = (a.game.clone(), a.up_to, a.search, a.heaps.clone());
    let c = state
        .heavy(move |_| {
            compute(&Ask {
                game,
                up_to,
                search,
                heaps,
                graph: None,
                misere: false,
                misere_up_to: 0,
            })
        })
        .await?;
    Ok((a, c))
}

/// The misère quotient asked for (what `partizan grundy GAME --misere
/// --json` prints), within the site's budget.
async fn run_misere(state: &AppState, a: &Ask) -> Result<MisereQuotientReport, WebError> {
    let ask = MisereAsk {
        game: a.game.clone(),
        up_to: a.misere_up_to,
        max_work: MISERE_WORK,
        heaps: a.heaps.as_ref().map(|h| {
            h.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        }),
    };
    state
        .heavy(move |_| misere_quotient(&ask).map_err(misere_error))
        .await
}

/// A graph position's misère canonical form, within the site's budget.
async fn run_misere_graph(
    state: &AppState,
    a: &Ask,
    text: &str,
) -> Result<MisereGraphReport, WebError> {
    let (game, _) = graph_ask(a, text)?;
    let text = text.to_string();
    state
        .heavy(move |_| misere_graph(game, &text, MAX_MISERE_GRAPH_POSITIONS).map_err(misere_error))
        .await
}

/// A misère request that cannot be answered: bad input or a heap past
/// what the quotient knows names a parameter (400); a position budget is
/// the graph budget's refusal.
fn misere_error(e: MisereReportError) -> WebError {
    match e {
        MisereReportError::Misere(MisereError::TooManyPositions { limit }) => {
            WebError::GraphTooLarge(limit)
        }
        MisereReportError::Misere(MisereError::TooManyGames { .. }) => {
            WebError::param("graph", e.to_string())
        }
        MisereReportError::Unknown { .. } => WebError::param("heaps", e.to_string()),
        other => WebError::param("game", other.to_string()),
    }
}

fn outcome(v: u32) -> &'static str {
    if v == 0 {
        "P"
    } else {
        "N"
    }
}

/// `GET /api/grundy?game=CODE[&up_to=N][&search=N][&heaps=3,5,7]`: what
/// `partizan grundy CODE --up-to N --json` prints (without the timing);
/// `GET /api/grundy?game=kayles|node-kayles&graph=G`: what `partizan grundy
/// GAME G --json` prints. With `misere=1`: what the same command prints
/// with `--misere` (the misère quotient, or the graph position's misère
/// canonical form).
pub(crate) async fn api(State(state): State<AppState>, p: Params) -> Result<Response, ApiError> {
    let m = params(p)?;
    let a = ask(&m)?;
    if a.misere {
        if let Some(text) = &a.graph {
            let r = run_misere_graph(&state, &a, text).await?;
            return Ok(Json(r).into_response());
        }
        HeapGame::parse(&a.game).map_err(|e| WebError::param("game", e.to_string()))?;
        let r = run_misere(&state, &a).await?;
        return Ok(Json(r).into_response());
    }
    if let Some(text) = &a.graph {
        let (_, graph, v) = run_graph(&state, &a, text).await?;
        return Ok(Json(graph_json(&graph, &v)).into_response());
    }
    let (_, c) = run(&state, &m).await?;
    let mut out = json!(c.report);
    if let Some((h, v)) = &c.sum {
        out["sum"] = match v {
            Some(v) => json!({"heaps": h, "value": v, "outcome": outcome(*v)}),
            None => {
                json!({"heaps": h, "value": null, "why": "the heaps reach past the values computed and no period was proved"})
            }
        };
    }
    Ok(Json(out).into_response())
}

/// A dot plot of G(0..) with the period's start marked: the SVG and its
/// TikZ twin.
fn plot(values: &[u32], preperiod: Option<usize>, period: Option<usize>) -> (String, String) {
    let w = 720.0_f64;
    let h = 220.0_f64;
    let (l, r, t, b) = (40.0, 10.0, 12.0, 30.0);
    let n = values.len().max(2);
    let top = values.iter().copied().max().unwrap_or(0).max(1);
    let x = |i: usize| l + (w - l - r) * i as f64 / (n - 1) as f64;
    let y = |v: u32| h - b - (h - t - b) * f64::from(v) / f64::from(top);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"Grundy values\">"
    );
    let mut tikz = String::from("\\begin{tikzpicture}[x=0.05cm,y=0.3cm]\n");
    let _ = write!(
        s,
        "<line x1=\"{l}\" y1=\"{y0}\" x2=\"{x1}\" y2=\"{y0}\" stroke=\"#889\"/><line x1=\"{l}\" y1=\"{t}\" x2=\"{l}\" y2=\"{y0}\" stroke=\"#889\"/>",
        y0 = h - b,
        x1 = w - r
    );
    // A few y labels, never more than five.
    let step = top.div_ceil(4).max(1);
    let mut v = 0;
    while v <= top {
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">{v}</text>",
            l - 5.0,
            y(v) + 4.0
        );
        v += step;
    }
    // X labels every so many heaps so that they never overlap.
    let xstep = [1usize, 2, 5, 10, 20, 50, 100]
        .into_iter()
        .find(|k| n / k <= 12)
        .unwrap_or(100);
    for i in (0..n).step_by(xstep) {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{i}</text>",
            x(i),
            h - b + 15.0
        );
    }
    if let (Some(pre), Some(p)) = (preperiod, period) {
        let mut k = pre;
        while k < values.len() {
            let _ = write!(
                s,
                "<line x1=\"{0:.1}\" y1=\"{t}\" x2=\"{0:.1}\" y2=\"{1}\" stroke=\"#7fb3ff\" stroke-dasharray=\"3 3\"/>",
                x(k),
                h - b
            );
            k += p.max(1);
            if p == 0 {
                break;
            }
        }
    }
    for (i, &v) in values.iter().enumerate() {
        let _ = write!(
            s,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.4\" fill=\"#2457a6\"><title>G({i}) = {v}</title></circle>",
            x(i),
            y(v)
        );
        let _ = writeln!(tikz, "\\fill ({i},{v}) circle (1pt);");
    }
    let _ = write!(
        s,
        "<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">heap n</text></svg>",
        (l + w - r) / 2.0,
        h - 2.0
    );
    tikz.push_str("\\end{tikzpicture}\n");
    (s, tikz)
}

fn form(a: Option<&Ask>) -> String {
    let game = a.map_or("0.07", |a| a.game.as_str());
    let up_to = a.map_or(100, |a| a.up_to);
    let heaps = a
        .and_then(|a| a.heaps.as_ref())
        .map(|h| {
            h.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .unwrap_or_default();
    let graph = a.and_then(|a| a.graph.clone()).unwrap_or_default();
    let misere = if a.is_some_and(|a| a.misere) {
        " checked"
    } else {
        ""
    };
    let mut gx = String::new();
    for (g, text, what) in [
        (
            "node-kayles",
            "path:10",
            "Node Kayles on a path (Dawson's Chess)",
        ),
        ("node-kayles", "cycle:9", "on a cycle"),
        (
            "kayles",
            "10: 0-1 1-2 2-3 3-4 4-0 0-5 1-6 2-7 3-8 4-9 5-7 7-9 9-6 6-8 8-5",
            "Kayles on the Petersen graph",
        ),
    ] {
        let _ = write!(
            gx,
            "<a href=\"/grundy?game={}&amp;graph={}\">{what}</a> · ",
            url_encode(g),
            url_encode(text)
        );
    }
    let mut ex = String::new();
    for (g, what) in [
        ("0.07", "Dawson's Kayles"),
        ("kayles", "Kayles (0.77)"),
        ("0.137", "Dawson's Chess"),
        ("sub:1,2,5", "a subtraction game"),
        ("4.7", "a hexadecimal code"),
        ("allbut:1,2", "all-but subtraction"),
    ] {
        let _ = write!(
            ex,
            "<a href=\"/grundy?game={}\"><code>{}</code></a> {what} · ",
            url_encode(g),
            escape(g)
        );
    }
    format!(
        "<form class=\"inline\" method=\"get\" action=\"/grundy\" id=\"grundy-form\">\
<label>Game <input type=\"text\" name=\"game\" value=\"{}\" spellcheck=\"false\"></label>\
<label>Values up to <input type=\"text\" name=\"up_to\" value=\"{up_to}\" style=\"min-width:6rem\"></label>\
<label>Heaps <input type=\"text\" name=\"heaps\" value=\"{}\" placeholder=\"3,5,7\" style=\"min-width:6rem\"></label>\
<label>Graph <input type=\"text\" name=\"graph\" value=\"{}\" placeholder=\"5: 0-1 1-2 2-3\" spellcheck=\"false\"></label>\
<label><input type=\"checkbox\" name=\"misere\" value=\"1\"{misere}> misère play</label>\
<button type=\"submit\">Compute</button></form>\
<p class=\"muted\">Octal or hexadecimal codes, <code>sub:</code> subtraction sets, <code>allbut:</code> all-but games, names (nim, kayles, dawsons-kayles, dawsons-chess, treblecross). At most {MAX_UP_TO} values. Try {ex}</p>\
<p class=\"muted\">On a graph (game <code>kayles</code>: delete a vertex or the two ends of an edge; <code>node-kayles</code>: delete a vertex and its neighbours): an edge list <code>n: a-b c-d</code> on vertices 0 to n−1 (at most 64), or <code>path:N</code>, <code>cycle:N</code>, <code>complete:N</code>, <code>star:N</code>, <code>grid:RxC</code>. Try {gx}</p>\
<p class=\"muted\"><b>Misère play</b> (the last player to move loses): a heap game's misère quotient (Plambeck and Siegel), computed heap by heap, and a graph position's misère canonical form and genus. Try <a href=\"/grundy?game=kayles&amp;misere=1\">Kayles</a> · <a href=\"/grundy?game=0.75&amp;misere=1\"><code>0.75</code></a></p>",
        escape(game),
        escape(&heaps),
        escape(&graph)
    )
}

fn render(a: &Ask, c: &Computed) -> String {
    let r = &c.report;
    let mut s = String::new();
    let code = match &r.code {
        Some(code) if *code != r.game => format!(", code <code>{}</code>", escape(code)),
        _ => String::new(),
    };
    let _ = write!(
        s,
        "<div class=\"card\"><h3>{} <span class=\"muted\">({}{code})</span></h3><dl class=\"kv\">",
        escape(&r.game),
        escape(r.kind)
    );
    if r.kind == "nim" {
        s.push_str("<dt>values</dt><dd>G(n) = n</dd>");
    } else if let (Some(p), Some(pre)) = (r.period, r.preperiod) {
        let _ = write!(
            s,
            "<dt>period</dt><dd id=\"period\">{p}</dd><dt>pre-period</dt><dd id=\"preperiod\">{pre}</dd>\
<dt>proof</dt><dd class=\"ok\">proved by the periodicity theorem from {} values</dd><dt>exceptions</dt><dd>{}</dd>",
            r.proof_length.unwrap_or(0),
            if r.exceptions.is_empty() {
                "none".to_string()
            } else {
                let shown: Vec<String> = r.exceptions.iter().take(40).map(|e| e.to_string()).collect();
                format!(
                    "{} ({}{})",
                    r.exceptions.len(),
                    shown.join(" "),
                    if r.exceptions.len() > 40 { " …" } else { "" }
                )
            }
        );
    } else {
        let _ = write!(
            s,
            "<dt>period</dt><dd id=\"period\" class=\"refused\">not proved periodic within {} values{}</dd>",
            r.computed,
            if r.out_of_budget {
                " (the site's work budget ran out)"
            } else {
                ""
            }
        );
        if let (Some(p), Some(from)) = (r.apparent_period, r.apparent_preperiod) {
            let _ = write!(
                s,
                "<dt>apparent</dt><dd>period {p} from {from}{} — not proved</dd>",
                r.apparent_saltus
                    .map(|x| format!(", saltus {x}"))
                    .unwrap_or_default()
            );
        }
    }
    let _ = write!(
        s,
        "<dt>computed</dt><dd>{} values by the mex recurrence</dd><dt>known through</dt><dd>n = {}{}</dd>",
        r.computed,
        r.known_through,
        if r.known_through < r.up_to {
            format!(" (asked for {})", r.up_to)
        } else {
            String::new()
        }
    );
    if let Some((h, v)) = &c.sum {
        let parts: Vec<String> = h.iter().map(|x| x.to_string()).collect();
        let _ = write!(
            s,
            "<dt>sum</dt><dd id=\"sum\">G({}) = {}</dd>",
            parts.join(" + "),
            match v {
                Some(v) => format!("{v} ({})", outcome(*v)),
                None => "unknown: past the values computed, no period proved".to_string(),
            }
        );
    }
    s.push_str("</dl></div>");
    let fig = super::figure("grundy-plot", plot(&c.values, r.preperiod, r.period));
    let _ = write!(
        s,
        "<h2>G(0) … G({})</h2><div class=\"card\">{fig}<p class=\"muted\">Dashed lines: the start of the period and each period after it.</p></div>",
        c.values.len().saturating_sub(1)
    );
    // The table: ten values a row.
    let mut t = String::from("<table id=\"grundy-values\"><thead><tr><th class=\"num\">n</th>");
    for k in 0..10 {
        let _ = write!(t, "<th class=\"num\">+{k}</th>");
    }
    t.push_str("</tr></thead><tbody>");
    for (row, chunk) in c.values.chunks(10).enumerate() {
        let _ = write!(t, "<tr><td class=\"num\">{}</td>", row * 10);
        for v in chunk {
            let _ = write!(t, "<td class=\"num\">{v}</td>");
        }
        t.push_str("</tr>");
    }
    t.push_str("</tbody></table>");
    s.push_str(&t);
    let _ = write!(
        s,
        "<p class=\"muted\">JSON: <a href=\"/api/grundy?game={}&amp;up_to={}\">this report</a>. The same as <code>partizan grundy {} --up-to {} --json</code>.</p>",
        url_encode(&a.game),
        a.up_to,
        escape(&a.game),
        a.up_to
    );
    s
}

/// The page of a graph game: the value, the components, every option
/// with its value (the moves to 0 win), and the JSON twin.
fn render_graph(a: &Ask, game: GraphGame, graph: &Graph, v: &GraphValue) -> String {
    let text = a.graph.as_deref().unwrap_or_default();
    let mut s = String::new();
    let _ = write!(
        s,
        "<div class=\"card\"><h3>{} on <code>{}</code></h3><dl class=\"kv\">\
<dt>vertices</dt><dd>{}</dd><dt>edges</dt><dd>{}</dd>\
<dt>Grundy value</dt><dd id=\"graph-value\">{}</dd><dt>outcome</dt><dd>{}</dd>",
        escape(game.name()),
        escape(&graph.to_string()),
        graph.vertices(),
        graph.edges().len(),
        v.value,
        v.outcome_words()
    );
    if v.components.len() > 1 {
        let parts = v.component_lines();
        let _ = write!(
            s,
            "<dt>components</dt><dd>{} (values XORed)</dd>",
            escape(&parts.join(" · "))
        );
    }
    let _ = write!(
        s,
        "<dt>positions valued</dt><dd>{} connected positions</dd></dl></div>",
        v.positions
    );
    let mut t = String::from(
        "<h2>Options</h2><table id=\"graph-options\"><thead><tr><th>move: delete</th><th class=\"num\">value after</th><th></th></tr></thead><tbody>",
    );
    for o in &v.options {
        let vs: Vec<String> = o.removes.iter().map(ToString::to_string).collect();
        let _ = write!(
            t,
            "<tr><td>{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            vs.join(", "),
            o.value,
            if o.value == 0 { "wins" } else { "" }
        );
    }
    if v.options.is_empty() {
        t.push_str("<tr><td colspan=\"3\">no move: the player to move loses</td></tr>");
    }
    t.push_str("</tbody></table>");
    s.push_str(&t);
    let _ = write!(
        s,
        "<p class=\"muted\">JSON: <a href=\"/api/grundy?game={}&amp;graph={}\">this report</a>. The same as <code>partizan grundy {} '{}' --json</code>.</p>",
        url_encode(&a.game),
        url_encode(text),
        escape(&a.game),
        escape(text)
    );
    s
}

/// The misère quotient's section of the page.
fn render_misere(a: &Ask, r: &MisereQuotientReport) -> String {
    let mut s = String::from("<h2>Misère play</h2>");
    let ok = matches!(
        r.stability,
        partizan_report::misere::Stability::Periodic { .. }
    );
    let join = |v: &[String]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            escape(&v.join(", "))
        }
    };
    let gens: Vec<String> = r
        .generators
        .iter()
        .map(|g| format!("{} (heap {})", g.name, g.heap))
        .collect();
    let grew: Vec<String> = r.expansions.iter().map(ToString::to_string).collect();
    let _ = write!(
        s,
        "<div class=\"card\" id=\"misere\"><dl class=\"kv\">\
<dt>misère quotient</dt><dd id=\"misere-order\">order {}, P-portion {} element{}</dd>\
<dt>through heap</dt><dd>{}</dd><dt>status</dt><dd class=\"{}\" id=\"misere-status\">{}</dd>\
<dt>generators</dt><dd>{}</dd><dt>relations</dt><dd>{}</dd><dt>P-portion</dt><dd>{}</dd>\
<dt>grew at heaps</dt><dd>{}</dd><dt>work</dt><dd>{} checks, {} states walked ({:.0} ms)</dd>",
        r.order,
        r.p_portion_size,
        if r.p_portion_size == 1 { "" } else { "s" },
        r.computed_to,
        if ok { "ok" } else { "refused" },
        escape(&r.status),
        join(&gens),
        join(&r.relations),
        join(&r.p_portion),
        join(&grew),
        r.checks,
        r.states,
        r.elapsed_ms
    );
    if let Some(sum) = &r.sum {
        let parts: Vec<String> = sum.heaps.iter().map(ToString::to_string).collect();
        let _ = write!(
            s,
            "<dt>sum</dt><dd id=\"misere-sum\">{}: {} (element {})</dd>",
            parts.join(" + "),
            sum.outcome,
            escape(&sum.element)
        );
    }
    s.push_str("</dl></div>");
    let mut t = String::from(
        "<table id=\"misere-heaps\"><thead><tr><th class=\"num\">heap</th><th>element</th><th>P?</th></tr></thead><tbody>",
    );
    for (h, w) in r.heaps.iter().enumerate().take(SHOWN) {
        let p = r.p_portion.iter().any(|x| x == w);
        let _ = write!(
            t,
            "<tr><td class=\"num\">{h}</td><td><code>{}</code></td><td>{}</td></tr>",
            escape(w),
            if p { "P" } else { "" }
        );
    }
    t.push_str("</tbody></table>");
    s.push_str(&t);
    let _ = write!(
        s,
        "<p class=\"muted\">A sum of heaps is a misère P-position (the player to move loses) exactly when the product of its heaps' elements is in the P-portion. JSON: <a href=\"/api/grundy?game={}&amp;misere=1&amp;up_to={}\">this quotient</a>, the same as <code>partizan grundy {} --misere --up-to {} --json</code>.</p>",
        url_encode(&a.game),
        a.misere_up_to,
        escape(&a.game),
        a.misere_up_to
    );
    s
}

/// A graph position's misère section.
fn render_misere_graph(r: &MisereGraphReport) -> String {
    misere_card(&r.misere, None, r.positions)
}

/// The card of a position's misère form (the Grundy page's graphs, the
/// explorer's impartial boards), with its universe where one is named.
pub(crate) fn misere_card(f: &MisereForm, universe: Option<&str>, positions: usize) -> String {
    format!(
        "<h2>Misère play</h2><div class=\"card\" id=\"misere\"><dl class=\"kv\">{}\
<dt>outcome</dt><dd id=\"misere-outcome\">{}: the player to move {}</dd>\
<dt>genus</dt><dd id=\"misere-genus\">{} (G+ = {}, G− = {})</dd><dt>birthday</dt><dd>{}</dd>\
<dt>canonical form</dt><dd><code>{}</code></dd><dt>positions valued</dt><dd>{}</dd></dl></div>",
        universe.map_or_else(String::new, |u| format!(
            "<dt>universe</dt><dd>{}</dd>",
            escape(u)
        )),
        f.outcome,
        if f.outcome == "P" { "loses" } else { "wins" },
        escape(&f.genus),
        f.nim_value,
        f.misere_nim_value,
        f.birthday,
        escape(&f.form),
        positions
    )
}

/// The misère section of a page, or the reason it has none.
fn misere_section(result: Result<String, WebError>) -> Result<String, WebError> {
    match result {
        Ok(html) => Ok(html),
        Err(err) if err.status() == StatusCode::BAD_REQUEST => Ok(format!(
            "<h2>Misère play</h2><p class=\"error\" id=\"misere-error\">{}</p>",
            escape(&err.to_string())
        )),
        Err(err) => Err(err),
    }
}

const ABOUT: &str = "<p class=\"muted\">The <b>Grundy value</b> (nim-value) G(n) of a heap of n \
is the least number not among its options' values (the mex); a sum of heaps is won by the player \
to move exactly when the values' nim-sum is not 0 (outcome N, else P). A sequence is \
<b>periodic</b> with period p from the pre-period n₀ when G(n + p) = G(n) for every n ≥ n₀; the \
periodicity theorem proves it from finitely many values.</p>";

/// `GET /grundy`.
pub(crate) async fn page_handler(State(state): State<AppState>, p: Params) -> Response {
    let m = match params(p) {
        Ok(m) => m,
        Err(e) => return PageError(e).into_response(),
    };
    let title = "<h1>Grundy values</h1>";
    let graph = match ask(&m) {
        Ok(a) => match a.graph.clone() {
            Some(text) => Some((run_graph(&state, &a, &text).await, a)),
            None => None,
        },
        Err(_) => None,
    };
    if let Some((result, a)) = graph {
        return match result {
            Ok((game, graph, v)) => {
                let misere = if a.misere {
                    let text = a.graph.clone().unwrap_or_default();
                    let r = run_misere_graph(&state, &a, &text).await;
                    match misere_section(r.map(|r| render_misere_graph(&r))) {
                        Ok(html) => html,
                        Err(err) => return PageError(err).into_response(),
                    }
                } else {
                    String::new()
                };
                let body = format!(
                    "{title}{}{}{misere}{ABOUT}",
                    form(Some(&a)),
                    render_graph(&a, game, &graph, &v)
                );
                Html(page("Grundy values", "grundy", &body)).into_response()
            }
            Err(err) if err.status() == StatusCode::BAD_REQUEST => {
                let body = format!(
                    "{title}{}<p class=\"error\" id=\"error\">{}</p>{ABOUT}",
                    form(Some(&a)),
                    escape(&err.to_string())
                );
                (
                    StatusCode::BAD_REQUEST,
                    Html(page("Grundy values", "grundy", &body)),
                )
                    .into_response()
            }
            Err(err) => PageError(err).into_response(),
        };
    }
    match run(&state, &m).await {
        Ok((a, c)) => {
            let misere = if a.misere {
                let r = run_misere(&state, &a).await;
                match misere_section(r.map(|r| render_misere(&a, &r))) {
                    Ok(html) => html,
                    Err(err) => return PageError(err).into_response(),
                }
            } else {
                String::new()
            };
            let body = format!("{title}{}{}{misere}{ABOUT}", form(Some(&a)), render(&a, &c));
            Html(page("Grundy values", "grundy", &body)).into_response()
        }
        Err(err) if err.status() == StatusCode::BAD_REQUEST => {
            let a = ask(&m).ok();
            let body = format!(
                "{title}{}<p class=\"error\" id=\"error\">{}</p>{ABOUT}",
                form(a.as_ref()),
                escape(&err.to_string())
            );
            (
                StatusCode::BAD_REQUEST,
                Html(page("Grundy values", "grundy", &body)),
            )
                .into_response()
        }
        Err(err) => PageError(err).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(game: &str, up_to: usize) -> Computed {
        compute(&Ask {
            game: game.into(),
            up_to,
            search: 10_000,
            heaps: Some(vec![3, 7, 12]),
            graph: None,
            misere: false,
            misere_up_to: 0,
        })
        .unwrap()
    }

    #[test]
    fn dawsons_kayles_has_period_34() {
        // Published: Dawson's Kayles (0.07) is periodic with period 34
        // (Winning Ways; OEIS A002187), the last exception at n = 51.
        let c = get("0.07", 100);
        assert_eq!(c.report.period, Some(34));
        // A002187 begins 0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4.
        assert_eq!(
            &c.values[..15],
            &[0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4]
        );
        let html = render(
            &Ask {
                game: "0.07".into(),
                up_to: 100,
                search: 10_000,
                heaps: None,
                graph: None,
                misere: false,
                misere_up_to: 0,
            },
            &c,
        );
        assert!(html.contains("id=\"period\">34<"));
        assert!(html.contains("<svg id=\"grundy-plot\""));
    }

    #[test]
    fn kayles_and_a_sum() {
        // Kayles: period 12 (Guy and Smith), values 0 1 2 3 1 4 3 2 1 4 2 6.
        let c = get("kayles", 30);
        assert_eq!(c.report.period, Some(12));
        assert_eq!(&c.values[..12], &[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
        // G(3) ^ G(7) ^ G(12) by the listed values.
        let (_, v) = c.sum.unwrap();
        assert_eq!(v, Some(c.values[3] ^ c.values[7] ^ c.values[12]));
    }

    fn graph_ask_of(game: &str, graph: &str) -> Result<(GraphGame, Graph), WebError> {
        let mut m = HashMap::new();
        m.insert("game".to_string(), game.to_string());
        m.insert("graph".to_string(), graph.to_string());
        let a = ask(&m)?;
        graph_ask(&a, a.graph.as_deref().unwrap())
    }

    #[test]
    fn node_kayles_on_a_path_is_dawsons_chess() {
        // Node Kayles on a path of n is 0.137, whose values are Dawson's
        // Kayles' shifted by one (the heap page's own sequence).
        let heaps = get("0.07", 20);
        for n in 1..=12 {
            let (game, graph) = graph_ask_of("node-kayles", &format!("path:{n}")).unwrap();
            let v = compute_graph(game, &graph).unwrap();
            assert_eq!(v.value, heaps.values[n + 1], "path {n}");
            // The value is the mex of the options listed.
            let vals: Vec<u32> = v.options.iter().map(|o| o.value).collect();
            let mex = (0..).find(|k| !vals.contains(k)).unwrap();
            assert_eq!(mex, v.value, "path {n}");
        }
        let (game, graph) = graph_ask_of("kayles", "4: 0-1 1-2 2-3 3-0").unwrap();
        let v = compute_graph(game, &graph).unwrap();
        let a = Ask {
            game: "kayles".into(),
            up_to: 100,
            search: 100,
            heaps: None,
            graph: Some("4: 0-1 1-2 2-3 3-0".into()),
            misere: false,
            misere_up_to: 0,
        };
        let html = render_graph(&a, game, &graph, &v);
        assert!(html.contains(&format!("id=\"graph-value\">{}<", v.value)));
        assert!(html.contains("id=\"graph-options\""));
        let json = graph_json(&graph, &v);
        assert_eq!(json["value"], v.value);
        assert_eq!(json["options"].as_array().unwrap().len(), 8);
    }

    #[test]
    fn bad_graph_requests_name_the_parameter() {
        for (game, graph, param) in [
            ("0.07", "path:4", "game"),
            ("kayles", "3: 0-3", "graph"),
            ("node-kayles", "65", "graph"),
        ] {
            match graph_ask_of(game, graph) {
                Err(WebError::BadParam { name, .. }) => assert_eq!(name, param),
                other => panic!("{game} {graph}: {other:?}"),
            }
        }
    }

    #[test]
    fn misere_sections() {
        let mut m = HashMap::new();
        m.insert("game".to_string(), "0.75".to_string());
        m.insert("misere".to_string(), "1".to_string());
        let a = ask(&m).unwrap();
        assert!(a.misere);
        assert_eq!(a.misere_up_to, 300);
        let r = misere_quotient(&MisereAsk::new("0.75")).unwrap();
        let html = render_misere(&a, &r);
        assert!(
            html.contains("id=\"misere-order\">order 8, P-portion 2 elements<"),
            "{html}"
        );
        assert!(html.contains("class=\"ok\" id=\"misere-status\""), "{html}");
        assert!(html.contains("id=\"misere-heaps\""));
        m.insert("misere".to_string(), "maybe".to_string());
        assert!(matches!(ask(&m), Err(WebError::BadParam { name, .. }) if name == "misere"));
        let g = misere_graph(GraphGame::Kayles, "path:5", 1000).unwrap();
        assert!(render_misere_graph(&g).contains("id=\"misere-genus\">4^146"));
        // A budget refusal is a section with the reason, not a failed page.
        let err = misere_error(MisereReportError::Unknown {
            heap: 9,
            known: 3,
            status: "partial".into(),
        });
        assert!(misere_section(Err(err))
            .unwrap()
            .contains("id=\"misere-error\""));
    }

    #[test]
    fn caps_and_bad_codes() {
        let mut m = HashMap::new();
        m.insert("up_to".to_string(), (MAX_UP_TO + 1).to_string());
        assert!(matches!(ask(&m), Err(WebError::BadParam { .. })));
        assert!(compute(&Ask {
            game: "0.9z".into(),
            up_to: 10,
            search: 10,
            heaps: None,
            graph: None,
            misere: false,
            misere_up_to: 0,
        })
        .is_err());
    }
}
