//! The JSON API's documentation page and its small endpoints. The heavy
//! endpoints live beside the pages that compute the same reports.

use axum::extract::State;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use partizan_solve::{Decompose, Savings};
use serde_json::{json, Value};

use super::{params, required, Params};
use crate::error::{ApiError, WebError};
use crate::html::{escape, page};
use crate::report::{cli_text, value_report};
use crate::rules::{self, parse_board};
use crate::AppState;

/// A JSON body as the command line prints it.
fn json_text(text: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], text).into_response()
}

fn flag(m: &std::collections::HashMap<String, String>, name: &str) -> bool {
    m.get(name)
        .is_some_and(|v| matches!(v.as_str(), "" | "1" | "true" | "yes" | "on"))
}

/// `GET /api/value?ruleset=R&board=B[&decompose=MODE][&no_symmetry=1]`:
/// exactly what `partizan value R B --json` prints.
pub(crate) async fn value(State(state): State<AppState>, p: Params) -> Result<Response, ApiError> {
    let m = params(p)?;
    let ruleset = rules::canonical(required(&m, "ruleset")?)?;
    let board = required(&m, "board")?.to_string();
    let decompose = match m
        .get("decompose")
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
    {
        None => Decompose::EveryNode,
        Some(s) => s
            .parse::<Decompose>()
            .map_err(|e| WebError::param("decompose", e.to_string()))?,
    };
    let savings = Savings {
        memo: true,
        decompose,
        symmetry: !flag(&m, "no_symmetry"),
    };
    let limits = state.limits().clone();
    // No store here: `partizan value` reads none, and this answer must be
    // what it prints (the explorer is the page that reads through the store).
    // Bad input is answered before any heavy-work slot is taken.
    let b = crate::with_ruleset!(ruleset, |r| parse_board(r, &board, &limits))?;
    let text = state
        .heavy(move |budget| {
            crate::with_ruleset!(ruleset, |r| {
                let v = value_report(r, &b, savings, None, budget)?;
                cli_text(&v)
            })
        })
        .await?;
    Ok(json_text(text))
}

/// `GET /api/graph?ruleset=R&board=B`: exactly what `partizan graph R B
/// --json` prints; a failed identity is a 500 naming both numbers.
pub(crate) async fn graph(State(state): State<AppState>, p: Params) -> Result<Response, ApiError> {
    let m = params(p)?;
    let ruleset = rules::canonical(required(&m, "ruleset")?)?;
    let board = required(&m, "board")?.to_string();
    let limits = state.limits().clone();
    // Bad input is answered before any heavy-work slot is taken.
    let b = crate::with_ruleset!(ruleset, |r| parse_board(r, &board, &limits))?;
    let text = state
        .heavy(move |budget| {
            crate::with_ruleset!(ruleset, |r| {
                let c = crate::graphs::check(r, &b, budget, crate::graphs::MAX_POSITIONS)?;
                match c.report() {
                    Some(rep) => cli_text(&rep),
                    None => Err(WebError::IdentityFailed(c.identity.statement())),
                }
            })
        })
        .await?;
    Ok(json_text(text))
}

/// (method and path, parameters, what it answers, example).
pub(crate) const ENDPOINTS: &[(&str, &str, &str, &str)] = &[
    (
        "GET /api/value",
        "ruleset, board",
        "Exactly what <code>partizan value RULESET BOARD --json</code> prints: value, outcome, stops, mean, temperature, whether it is a number, the solver's counts and savings. Optional <code>decompose</code> (every, root, conditional, off) and <code>no_symmetry=1</code> as on the command line.",
        "/api/value?ruleset=domineering&board=...|...",
    ),
    (
        "GET /api/graph",
        "ruleset, board",
        "Exactly what <code>partizan graph RULESET BOARD --json</code> prints: the position graph, the recursion tree and each region's graph.",
        "/api/graph?ruleset=domineering&board=....|....|####|....",
    ),
    (
        "GET /api/explore",
        "ruleset, board",
        "Everything the explorer page shows: regions with cells, values and graph sizes, the whole board's value, and the identity check.",
        "/api/explore?ruleset=domineering&board=..#..|.#...|#....",
    ),
    (
        "GET /api/census/RULESET",
        "max_cells (default 8)",
        "The region census report (domineering, cram): tables per size, hit rates, error distribution.",
        "/api/census/domineering?max_cells=6",
    ),
    (
        "GET /api/semigroups",
        "max_genus",
        "Numerical semigroup counts by genus.",
        "/api/semigroups?max_genus=15",
    ),
    (
        "GET /api/sylver/play",
        "gaps or generators",
        "What <code>partizan sylver play --json</code> prints for a position: outcome, winning moves, remoteness, survivors and struck moves, the finishing search's counts.",
        "/api/sylver/play?gaps=1,2,3,5,7",
    ),
    (
        "GET /api/sylver/census",
        "max_gaps (default 16)",
        "The census of irreducible Sylver Coinage positions: the finishing search against four proofs, by genus and by band, every position measured.",
        "/api/sylver/census?max_gaps=12",
    ),
    (
        "GET /api/health",
        "",
        "Liveness and free heavy-work slots.",
        "/api/health",
    ),
];

pub(crate) async fn doc(State(state): State<AppState>) -> Html<String> {
    let mut rows = String::new();
    for (path, params, what, example) in ENDPOINTS {
        rows.push_str(&format!(
            "<tr><td class=\"mono\">{}</td><td class=\"mono\">{}</td><td>{what}</td><td><a class=\"mono\" href=\"{ex}\">{ex_text}</a></td></tr>\n",
            escape(path),
            escape(params),
            ex = escape(example),
            ex_text = escape(example),
        ));
    }
    let l = state.limits();
    let mut caps = String::new();
    for (name, _) in crate::limits::CELL_CAPS {
        caps.push_str(&format!(
            "<tr><td>{name}</td><td class=\"num\">{}</td></tr>",
            l.cell_cap(name)
        ));
    }
    let body = format!(
        r#"<h1>JSON API</h1>
<p>Every endpoint answers JSON. Errors are <code>{{"error": "…", "kind": "…"}}</code> with status
400 for bad input (unknown ruleset, unparseable or oversized board, bad parameter), 404 for an
unknown path, and 503 when the server is busy or a computation ran past its time budget — retry
after the <code>Retry-After</code> header's seconds.</p>
<table><thead><tr><th>Endpoint</th><th>Parameters</th><th>Answers</th><th>Example</th></tr></thead>
<tbody>{rows}</tbody></table>
<h2>Limits</h2>
<p>Each heavy request runs for at most {budget} ms; at most {heavy} run at once.
Largest semigroup genus {genus}, largest Sylver Coinage position {gaps} gaps,
largest census region {census} cells.</p>
<table><thead><tr><th>Ruleset</th><th class="num">Largest board (cells)</th></tr></thead><tbody>{caps}</tbody></table>"#,
        budget = l.budget.as_millis(),
        heavy = l.max_heavy,
        genus = l.max_genus,
        gaps = l.max_sylver_gaps,
        census = l.max_census_cells,
    );
    Html(page("JSON API", "api", &body))
}

pub(crate) async fn health(State(state): State<AppState>) -> Json<Value> {
    Json(json!({
        "ok": true,
        "free_permits": state.free_permits(),
        "max_heavy": state.limits().max_heavy,
    }))
}
