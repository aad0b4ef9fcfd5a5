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
use crate::html::{escape, page, url_encode};
use crate::report::{cli_text, store_value_report, value_report};
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
    let store = state.store_handle();
    // Bad input is answered before any heavy-work slot is taken.
    let b = crate::with_ruleset!(ruleset, |r| parse_board(r, &board, &limits))?;
    // A board the store holds is answered without a heavy-work slot.
    let hit = {
        state
            .store_only(move |st| {
                let r: Result<Option<String>, WebError> = crate::with_ruleset!(ruleset, |r| {
                    Ok(store_value_report(r, &b, savings, st).and_then(|v| cli_text(&v).ok()))
                });
                r.ok().flatten()
            })
            .await
    };
    if let Some(text) = hit {
        return Ok(json_text(text));
    }
    let text_board = crate::with_ruleset!(ruleset, |r| Ok::<_, WebError>(r.format(&b)))?;
    // A board the background slot finished is answered from there.
    if let Some(v) = state.jobs().done(ruleset, &text_board, savings) {
        return Ok(json_text(cli_text(&*v)?));
    }
    let answer = state
        .heavy(move |budget| {
            crate::with_ruleset!(ruleset, |r| {
                let v = value_report(r, &b, savings, store.as_ref(), budget)?;
                cli_text(&v)
            })
        })
        .await;
    match answer {
        Ok(text) => Ok(json_text(text)),
        Err(e) => {
            let v = state.hand_off(ruleset, &text_board, b, savings, e)?;
            Ok(json_text(cli_text(&*v)?))
        }
    }
}

/// `GET /api/job`: the background computation, if any: its board, how
/// long it has run, and its state (running, done with the report,
/// stopped, failed).
pub(crate) async fn job(State(state): State<AppState>) -> Json<Value> {
    match state.jobs().status() {
        Some(s) => Json(json!(s)),
        None => Json(json!({"state": "none"})),
    }
}

/// `GET /api/job/cancel`: stop the background computation.
pub(crate) async fn job_cancel(State(state): State<AppState>) -> Json<Value> {
    Json(json!({"cancelled": state.jobs().cancel()}))
}

/// `GET /api/options?ruleset=R&board=B`: both players' options, each with
/// the cells its move changes, its value and incentive, whether it is
/// dominated or reversible, and the best moves.
pub(crate) async fn options(
    State(state): State<AppState>,
    p: Params,
) -> Result<Response, ApiError> {
    let m = params(p)?;
    let ruleset = rules::canonical(required(&m, "ruleset")?)?;
    let board = required(&m, "board")?.to_string();
    let limits = state.limits().clone();
    let store = state.store_handle();
    let b = crate::with_ruleset!(ruleset, |r| parse_board(r, &board, &limits))?;
    let text = state
        .heavy(move |budget| {
            crate::with_ruleset!(ruleset, |r| {
                let mut session = store.as_ref().map(|s| s.session());
                let rep = crate::play::options_report(
                    r,
                    &b,
                    session
                        .as_mut()
                        .map(|s| s as &mut dyn partizan_solve::RegionTable),
                    budget,
                )?;
                if let Some(s) = session {
                    s.finish()
                        .map_err(|e| WebError::Internal(format!("store: {e}")))?;
                }
                cli_text(&rep)
            })
        })
        .await?;
    Ok(json_text(text))
}

/// The longest value notation `/api/game` and `/api/thermograph` accept.
pub const MAX_NOTATION: usize = 1000;

fn notation_terms(m: &std::collections::HashMap<String, String>) -> Result<Vec<String>, WebError> {
    let text = required(m, "values").or_else(|_| required(m, "value"))?;
    if text.chars().count() > MAX_NOTATION {
        return Err(WebError::param(
            "values",
            format!("over {MAX_NOTATION} characters"),
        ));
    }
    Ok(text
        .split(';')
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect())
}

fn report_fault(e: partizan_report::ReportError) -> WebError {
    match e {
        partizan_report::ReportError::Notation { .. } => WebError::param("values", e.to_string()),
        other => WebError::Internal(other.to_string()),
    }
}

/// `GET /api/game?values=V1;V2;...`: the notation calculator — each value
/// in CGSuite notation, their sum's canonical form and its facts, exactly
/// as `partizan game V1 V2 ... --json` prints.
pub(crate) async fn game(State(state): State<AppState>, p: Params) -> Result<Response, ApiError> {
    let m = params(p)?;
    let terms = notation_terms(&m)?;
    let text = state
        .heavy(move |_| {
            let v = partizan_report::game_value(&terms).map_err(report_fault)?;
            cli_text(&v)
        })
        .await?;
    Ok(json_text(text))
}

/// `GET /api/thermograph?ruleset=R&board=B` or `?values=V`: the
/// thermograph's mast, temperature and walls (exact corners); with
/// `format=svg` or `format=tikz` the picture itself.
pub(crate) async fn thermograph(
    State(state): State<AppState>,
    p: Params,
) -> Result<Response, ApiError> {
    let m = params(p)?;
    let format = m
        .get("format")
        .map(|s| s.trim())
        .unwrap_or("json")
        .to_string();
    if !matches!(format.as_str(), "json" | "svg" | "tikz") {
        return Err(WebError::param("format", "expected json, svg or tikz").into());
    }
    let limits = state.limits().clone();
    let store = state.store_handle();
    enum Input {
        Board(&'static str, partizan_games::Board),
        Values(Vec<String>),
    }
    let input = if m.contains_key("ruleset") || m.contains_key("board") {
        let ruleset = rules::canonical(required(&m, "ruleset")?)?;
        let board = required(&m, "board")?.to_string();
        let b = crate::with_ruleset!(ruleset, |r| parse_board(r, &board, &limits))?;
        Input::Board(ruleset, b)
    } else {
        Input::Values(notation_terms(&m)?)
    };
    let (data, title, th) = state
        .heavy(move |budget| {
            let mut arena = partizan_core::Arena::new();
            let (g, title) = match input {
                Input::Board(ruleset, b) => crate::with_ruleset!(ruleset, |r| {
                    let v = value_report(r, &b, Savings::ALL, store.as_ref(), budget)?;
                    let g = reread(&mut arena, &v.value, "board")?;
                    Ok::<_, WebError>((g, v.board))
                })?,
                Input::Values(terms) => {
                    let v = partizan_report::game_value(&terms).map_err(report_fault)?;
                    let g = reread(&mut arena, &v.value, "values")?;
                    (g, v.value.value)
                }
            };
            let th = arena
                .thermograph(g)
                .map_err(|e| WebError::Internal(e.to_string()))?;
            Ok((crate::thermograph::ThermographData::of(&th), title, th))
        })
        .await?;
    let (svg, tikz) = crate::thermograph::render(&th, "thermograph", &title, 420.0);
    Ok(match format.as_str() {
        "svg" => ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response(),
        "tikz" => ([(header::CONTENT_TYPE, "text/x-tex; charset=utf-8")], tikz).into_response(),
        _ => Json(json!({
            "of": title,
            "thermograph": data,
        }))
        .into_response(),
    })
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
        "Exactly what <code>partizan value RULESET BOARD --json</code> prints with the server's <code>--store</code> / <code>--no-store</code>: value, outcome, stops, mean, temperature, whether it is a number, the solver's counts and savings. Optional <code>decompose</code> (every, root, conditional, off) and <code>no_symmetry=1</code> as on the command line.",
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
        "GET /api/options",
        "ruleset, board",
        "Both players' options: for each, the board after the move, the cells the move changes (<code>row × width + column</code>), its value, its incentive (GL − G for Left, G − GR for Right), whether it is dominated or reversible, and the best moves.",
        "/api/options?ruleset=domineering&board=...|...",
    ),
    (
        "GET /api/outcome",
        "ruleset, board",
        "Who wins a board too large to value, by the outcome search (any board up to 128 cells): the fields of <code>partizan outcome RULESET BOARD --json</code> (outcome class, each first player's win and winning move, counts, table) with <code>\"decided\": true</code>; a search that runs out of its budget answers <code>\"decided\": false</code>, <code>\"outcome\": null</code> and which limit it met. Optional <code>play=misere</code>, <code>max_nodes</code> (default 20,000,000, at most 200,000,000) and <code>table_mb</code> (default 16, at most 128); the time budget is the request's.",
        "/api/outcome?ruleset=clobber&board=xoxoxo|oxoxox|xoxoxo",
    ),
    (
        "GET /api/thermograph",
        "ruleset and board, or values",
        "The thermograph: mast (mean), temperature and the walls' exact corners; <code>format=svg</code> or <code>format=tikz</code> for the picture.",
        "/api/thermograph?values={3|-1}&format=svg",
    ),
    (
        "GET /api/analyse",
        "values (separated by ;)",
        "What the <a href=\"/value\">value page</a> shows: for each value in CGSuite notation its canonical form, outcome, stops, mean, temperature, atomic weight (or why it is undefined), reduced form, infinitesimal part, frozen and orthodox forms, options, incentives and thermograph; for several, their sum analysed the same way and every pair compared with its difference. At most 8 values.",
        "/api/analyse?values={3||2*|1*};^",
    ),
    (
        "GET /api/game",
        "values (separated by ;)",
        "The notation calculator: exactly what <code>partizan game V1 V2 … --json</code> prints — the canonical form of the sum and its outcome, stops, mean and temperature.",
        "/api/game?values={2|0||-1};-3/2",
    ),
    (
        "GET /api/census/RULESET",
        "max_cells (default 8)",
        "What <code>partizan census RULESET --max-cells N --json</code> prints (domineering, cram): the tables per size, hit rates, the error distribution.",
        "/api/census/domineering?max_cells=6",
    ),
    (
        "GET /api/semigroups",
        "max_genus",
        "What <code>partizan semigroups count --max-genus G --json</code> prints: the counts by genus.",
        "/api/semigroups?max_genus=15",
    ),
    (
        "GET /api/sylver/play",
        "gaps or generators",
        "What <code>partizan sylver play --json</code> (or <code>--gaps</code>) prints for a position: outcome, winning moves, remoteness, survivors and struck moves, the finishing search's counts.",
        "/api/sylver/play?gaps=1,2,3,5,7",
    ),
    (
        "GET /api/sylver/census",
        "max_gaps (default 16)",
        "What <code>partizan sylver census --max-gaps G --json</code> prints: the finishing search against four proofs on every irreducible position, by genus and by band.",
        "/api/sylver/census?max_gaps=12",
    ),
    (
        "GET /api/grundy",
        "game",
        "What <code>partizan grundy GAME --up-to N --json</code> prints: the Grundy sequence of a heap game (octal or hexadecimal code, <code>sub:1,2,5</code>, <code>allbut:1,2</code>, a name), the period and pre-period when proved, the first values. Optional <code>up_to</code> (at most 100,000), <code>search</code>, <code>heaps</code> (a sum's value). With <code>game=kayles</code> or <code>game=node-kayles</code> and <code>graph=</code> (an edge list or a family such as <code>path:10</code>), what <code>partizan grundy node-kayles path:10 --json</code> prints: the graph's value, its components and every option with its value. With <code>misere=1</code>, what the same command prints with <code>--misere</code>: the misère quotient (order, P-portion, generators, relations, each heap's element, whether it is proved to be the whole game's; heaps up to <code>up_to</code>, default 300, within the site's budget), or the graph position's misère canonical form and genus.",
        "/api/grundy?game=0.07&up_to=200",
    ),
    (
        "GET /api/loopy",
        "values (separated by ;)",
        "What <code>partizan loopy VALUE… --json</code> prints for the sum of loopy values in CGSuite's notation (<code>pass</code>, labels <code>a{…}</code>, <code>on</code>, <code>over</code>, <code>upon</code>, <code>dud</code>, …): positions, whether it is a stopper or short, the outcome with draws, a stopper's simplest form and stops, or a non-stopper's onside and offside (by deleting the edges that do not change them, checked, or by sidling); optional <code>compare</code> (another stopper: <code>&gt;</code>, <code>&lt;</code>, <code>=</code> or <code>||</code>). Or, with <code>ruleset</code> and <code>board</code>, a board of a loopy ruleset (<code>fox-and-geese</code>, <code>backsliding-toads</code>) as <code>partizan value RULESET BOARD --json</code> reports it: outcome with draws, the value of a stopper board found one strongly connected part at a time, stops, sides (boards of at most 100,000 positions). Graphs of values at most 100 positions (sidling a non-stopper of a few hundred positions takes minutes).",
        "/api/loopy?values=%7B0%7Cpass%7D;%7B0%7Cpass%7D&compare=over",
    ),
    (
        "GET /api/parts",
        "ruleset, boards (separated by spaces)",
        "What <code>partizan parts RULESET BOARD… --json</code> prints: essay 000's table (squares, regions, whole graph, sum and product of the regions' graphs, saved); <code>one_row_down=1</code>, <code>wall_positions=1</code>. Boards of at most 20 cells.",
        "/api/parts?ruleset=domineering&boards=.#...|..#..|..#..|..#..",
    ),
    (
        "GET /api/sylver/trace",
        "gaps",
        "What <code>partizan sylver trace GAPS --json</code> prints: the told proof's evaluations by position and depth, and the positions asked at more than one depth. Optional <code>depth</code>, <code>order</code>; at most 18 gaps.",
        "/api/sylver/trace?gaps=1,2,3,4,7,8",
    ),
    (
        "GET /api/atlas",
        "value, kind or min_temperature (optional)",
        "The Domineering value atlas, if one is built (<code>partizan atlas build</code>): without a question what <code>partizan atlas report --json</code> prints (kinds by size, hottest regions, first occurrences); with one, what <code>partizan atlas find --json</code> answers. 503 naming the command when none is built.",
        "/api/atlas?kind=tiny",
    ),
    (
        "GET /api/job",
        "",
        "The one background computation: a board whose value ran past a request's budget goes on computing here (longer budget, one at a time); its state, elapsed time and, when done, the report. <code>/api/job/cancel</code> stops it.",
        "/api/job",
    ),
    (
        "GET /api/health",
        "",
        "Liveness and free heavy-work slots.",
        "/api/health",
    ),
];

/// An example address with its query values percent-encoded (a board's
/// `#` would otherwise start a fragment).
fn href(example: &str) -> String {
    match example.split_once('?') {
        None => example.to_string(),
        Some((path, query)) => {
            let q: Vec<String> = query
                .split('&')
                .map(|kv| match kv.split_once('=') {
                    Some((k, v)) => format!("{k}={}", url_encode(v)),
                    None => kv.to_string(),
                })
                .collect();
            format!("{path}?{}", q.join("&"))
        }
    }
}

pub(crate) async fn doc(State(state): State<AppState>) -> Html<String> {
    let mut rows = String::new();
    for (path, params, what, example) in ENDPOINTS {
        rows.push_str(&format!(
            "<tr><td class=\"mono\">{}</td><td class=\"mono\">{}</td><td>{what}</td><td><a class=\"mono\" href=\"{ex}\">{ex_text}</a></td></tr>\n",
            escape(path),
            escape(params),
            ex = escape(&href(example)),
            ex_text = escape(example),
        ));
    }
    let l = state.limits();
    let mut caps = String::new();
    for name in crate::rules::names() {
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

/// The value a report printed, read back into `arena`; a form too long to
/// print (its text left empty) is a 400 naming `param`, not a failure.
fn reread(
    arena: &mut partizan_core::Arena,
    v: &partizan_report::ValueSummary,
    param: &str,
) -> Result<partizan_core::GameId, WebError> {
    if v.size.characters > partizan_report::MAX_VALUE_TEXT {
        return Err(WebError::param(
            param,
            format!(
                "its value has {} characters, too long to draw (at most {})",
                v.size.characters,
                partizan_report::MAX_VALUE_TEXT
            ),
        ));
    }
    arena
        .parse(&v.value)
        .map_err(|e| WebError::Internal(e.to_string()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn example_links_are_encoded() {
        assert_eq!(
            super::href("/api/graph?ruleset=domineering&board=..|##"),
            "/api/graph?ruleset=domineering&board=..%7C%23%23"
        );
    }
}
