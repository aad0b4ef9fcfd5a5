//! The essays' own tables on the site (issue 18), with the command line's
//! inputs and the site's caps:
//!
//! * `/parts` — essay 000's "finding the parts" table (`partizan parts`):
//!   board by board, the squares, regions, whole position graph, the sum
//!   and product of the regions' graphs and what the region pass saves;
//!   optionally each board one row down, or a wall moved across;
//! * `/sylver/trace` — the told proof of a Sylver Coinage position traced
//!   (`partizan sylver trace GAPS`): every position it evaluated, at which
//!   depths, and the ones asked at more than one depth.

use std::collections::HashMap;
use std::fmt::Write as _;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use partizan_semigroup::{trace, Order, TraceReport};
use partizan_solve::parts::PartsRow;
use serde_json::json;

use super::{params, Params};
use crate::error::{ApiError, PageError, WebError};
use crate::html::{escape, page, thousands, url_encode};
use crate::AppState;

/// Largest board of the parts table, in cells (the essay's boards have 20).
pub const PARTS_CELLS: usize = 20;
/// Most rows of one parts table.
pub const PARTS_ROWS: usize = 24;
/// Largest Sylver Coinage position traced, in gaps (the essay's has 15).
pub const TRACE_GAPS: usize = 18;
/// Evaluations listed on the trace page (the JSON has them all).
pub const TRACE_SHOWN: usize = 400;

/// A page answer or the form again with the problem named (400).
fn answer(title: &str, key: &str, head: &str, r: Result<String, WebError>) -> Response {
    match r {
        Ok(body) => Html(page(title, key, &format!("{head}{body}"))).into_response(),
        Err(err) if err.status() == StatusCode::BAD_REQUEST => {
            let body = format!(
                "{head}<p class=\"error\" id=\"error\">{}</p>",
                escape(&err.to_string())
            );
            (StatusCode::BAD_REQUEST, Html(page(title, key, &body))).into_response()
        }
        Err(err) => PageError(err).into_response(),
    }
}

fn flag(m: &HashMap<String, String>, name: &str) -> bool {
    m.get(name)
        .is_some_and(|v| matches!(v.trim(), "1" | "true" | "yes" | "on"))
}

// ---- the parts table ------------------------------------------------------

struct PartsAsk {
    ruleset: &'static str,
    boards: Vec<String>,
    one_row_down: bool,
    wall_positions: bool,
}

/// The essay's three boards: open, a staircase wall, a straight wall.
const PARTS_DEFAULT: &str =
    ".....|.....|.....|..... .#...|..#..|..#..|..#.. ..#..|..#..|..#..|..#..";

fn parts_ask(m: &HashMap<String, String>) -> Result<PartsAsk, WebError> {
    let ruleset = crate::rules::canonical(
        m.get("ruleset")
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
            .unwrap_or("domineering"),
    )?;
    let text = m
        .get("boards")
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .unwrap_or(PARTS_DEFAULT);
    if text.chars().count() > 4 * crate::rules::MAX_BOARD_TEXT {
        return Err(WebError::param("boards", "too long"));
    }
    let boards: Vec<String> = text
        .split([' ', ',', '\n', ';'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    Ok(PartsAsk {
        ruleset,
        boards,
        one_row_down: flag(m, "one_row_down"),
        wall_positions: flag(m, "wall_positions"),
    })
}

fn parts_rows(a: &PartsAsk, budget: &crate::limits::Budget) -> Result<Vec<PartsRow>, WebError> {
    let ask = partizan_report::PartsAsk {
        boards: a.boards.clone(),
        one_row_down: a.one_row_down,
        wall_positions: a.wall_positions,
    };
    let rows = ask.texts().len();
    if rows > PARTS_ROWS {
        return Err(WebError::param(
            "boards",
            format!("{rows} rows; this site makes tables of at most {PARTS_ROWS}"),
        ));
    }
    crate::with_ruleset!(a.ruleset, |r| {
        let boards = ask.boards(r).map_err(|e| match e {
            partizan_report::ReportError::TableBoard { text, source, .. } => WebError::BadBoard {
                ruleset: r.name().to_string(),
                message: format!("'{}': {source}", crate::html::shorten(&text, 40)),
            },
            other => crate::report::report_error(other, budget),
        })?;
        for b in &boards {
            let cells = b.width() * b.height();
            if cells > PARTS_CELLS {
                return Err(WebError::TooLarge {
                    ruleset: r.name().to_string(),
                    cells,
                    cap: PARTS_CELLS,
                });
            }
        }
        let stop = || budget.expired();
        partizan_report::parts_table(r, &boards, Some(&stop))
            .map(|t| t.rows)
            .map_err(|e| crate::report::report_error(e, budget))
    })
}

async fn parts_compute(
    state: &AppState,
    m: &HashMap<String, String>,
) -> Result<(PartsAsk, Vec<PartsRow>), WebError> {
    let a = parts_ask(m)?;
    if a.boards.is_empty() {
        return Err(WebError::param("boards", "missing"));
    }
    let b = PartsAsk {
        ruleset: a.ruleset,
        boards: a.boards.clone(),
        one_row_down: a.one_row_down,
        wall_positions: a.wall_positions,
    };
    let rows = state.heavy(move |budget| parts_rows(&b, budget)).await?;
    Ok((a, rows))
}

/// `GET /api/parts?ruleset=R&boards=B1 B2...[&one_row_down=1][&wall_positions=1]`:
/// what `partizan parts R B1 B2 ... --json` prints.
pub(crate) async fn parts_api(
    State(state): State<AppState>,
    p: Params,
) -> Result<Response, ApiError> {
    let m = params(p)?;
    let (a, rows) = parts_compute(&state, &m).await?;
    Ok(Json(json!({"ruleset": a.ruleset, "rows": rows})).into_response())
}

fn parts_form(a: Option<&PartsAsk>) -> String {
    let boards = a.map_or(PARTS_DEFAULT.to_string(), |a| a.boards.join(" "));
    let ruleset = a.map_or("domineering", |a| a.ruleset);
    let opts = super::explore::ruleset_options(ruleset);
    let check = |on: bool| if on { " checked" } else { "" };
    format!(
        "<form class=\"inline\" method=\"get\" action=\"/parts\" id=\"parts-form\">\
<label>Ruleset <select name=\"ruleset\">{opts}</select></label>\
<label>Boards <input type=\"text\" name=\"boards\" value=\"{}\" spellcheck=\"false\" style=\"min-width:24rem;max-width:100%\"></label>\
<label><input type=\"checkbox\" name=\"one_row_down\" value=\"1\"{}> one row down too</label>\
<label><input type=\"checkbox\" name=\"wall_positions\" value=\"1\"{}> a wall moved across the first board</label>\
<button type=\"submit\">Tabulate</button></form>\
<p class=\"muted\">Boards separated by spaces; at most {PARTS_CELLS} cells each and {PARTS_ROWS} rows in all. The same as <code>partizan parts RULESET BOARD… [--one-row-down] [--wall-positions]</code>.</p>",
        escape(&boards),
        check(a.is_some_and(|a| a.one_row_down)),
        check(a.is_some_and(|a| a.wall_positions)),
    )
}

fn parts_table(a: &PartsAsk, rows: &[PartsRow]) -> String {
    let mut t = String::from(
        "<div class=\"scroll\"><table id=\"parts\"><thead><tr><th>board</th><th class=\"num\">squares</th><th class=\"num\">free</th><th class=\"num\">regions</th><th class=\"num\">whole</th><th class=\"num\">sum</th><th class=\"num\">product</th><th class=\"num\">saved</th><th class=\"num\">per square</th></tr></thead><tbody>",
    );
    for x in rows {
        let _ = write!(
            t,
            "<tr><td><a class=\"mono\" href=\"{}\">{}</a></td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:.1}</td></tr>",
            crate::html::explore_href(a.ruleset, &x.board),
            escape(&x.board),
            x.squares,
            x.free_squares,
            x.regions,
            thousands(u128::from(x.whole)),
            thousands(u128::from(x.sum)),
            thousands(u128::from(x.product)),
            x.saved,
            x.saved_per_square
        );
    }
    t.push_str("</tbody></table></div>");
    let q = format!(
        "ruleset={}&amp;boards={}{}{}",
        a.ruleset,
        url_encode(&a.boards.join(" ")),
        if a.one_row_down {
            "&amp;one_row_down=1"
        } else {
            ""
        },
        if a.wall_positions {
            "&amp;wall_positions=1"
        } else {
            ""
        }
    );
    let _ = write!(
        t,
        "<p class=\"muted\"><b>whole</b>: positions of the whole board's graph; <b>sum</b> and <b>product</b>: of its regions' graphs (the whole equals the product when the regions are independent); <b>saved</b>: what the region pass saves, whole − sum. JSON: <a href=\"/api/parts?{q}\">this table</a>.</p>"
    );
    t
}

/// `GET /parts`.
pub(crate) async fn parts_page(State(state): State<AppState>, p: Params) -> Response {
    let m = match params(p) {
        Ok(m) => m,
        Err(e) => return PageError(e).into_response(),
    };
    let head = "<h1>Finding the parts</h1><p>Essay 000's table: what splitting a board into its regions costs and saves, board by board.</p>";
    let ask = parts_ask(&m).ok();
    let r = parts_compute(&state, &m).await;
    let body = match r {
        Ok((a, rows)) => Ok(format!(
            "{}{}",
            parts_form(Some(&a)),
            parts_table(&a, &rows)
        )),
        Err(e) => Err(e),
    };
    let form = parts_form(ask.as_ref());
    match body {
        Ok(b) => answer("Finding the parts", "parts", head, Ok(b)),
        Err(e) => answer(
            "Finding the parts",
            "parts",
            &format!("{head}{form}"),
            Err(e),
        ),
    }
}

// ---- the Sylver Coinage trace ---------------------------------------------

fn trace_order(m: &HashMap<String, String>) -> Result<Order, WebError> {
    m.get("order")
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .unwrap_or("increasing")
        .parse::<Order>()
        .map_err(|e| WebError::param("order", e.to_string()))
}

fn trace_depth(m: &HashMap<String, String>) -> Result<Option<u32>, WebError> {
    match m.get("depth").map(|s| s.trim()).filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(d) => {
            let d: u32 = d
                .parse()
                .map_err(|_| WebError::param("depth", format!("'{d}' is not a number")))?;
            if d > 64 {
                return Err(WebError::param("depth", "at most 64"));
            }
            Ok(Some(d))
        }
    }
}

async fn trace_compute(
    state: &AppState,
    m: &HashMap<String, String>,
) -> Result<TraceReport, WebError> {
    let s = super::sylver::position(m, TRACE_GAPS.min(state.limits().max_sylver_gaps))?;
    let order = trace_order(m)?;
    let depth = trace_depth(m)?;
    state
        .heavy(move |_| trace(s, depth, order).map_err(|e| WebError::param("gaps", e.to_string())))
        .await
}

/// `GET /api/sylver/trace?gaps=G[&depth=D][&order=O]`: what `partizan
/// sylver trace G --json` prints.
pub(crate) async fn trace_api(
    State(state): State<AppState>,
    p: Params,
) -> Result<Response, ApiError> {
    let m = params(p)?;
    let r = trace_compute(&state, &m).await?;
    Ok(Json(r).into_response())
}

const TRACE_EXAMPLE: &str = "1,2,3,4,5,6,7,8,10,11,13,14,16,19,28";

fn trace_form(m: &HashMap<String, String>) -> String {
    let gaps = m
        .get("gaps")
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .unwrap_or(TRACE_EXAMPLE);
    let depth = m.get("depth").map(|s| s.trim()).unwrap_or("");
    let order = m.get("order").map(|s| s.trim()).unwrap_or("increasing");
    let mut opts = String::new();
    for o in ["increasing", "decreasing", "scored", "reverse-scored"] {
        let sel = if o == order { " selected" } else { "" };
        let _ = write!(opts, "<option value=\"{o}\"{sel}>{o}</option>");
    }
    format!(
        "<form class=\"inline\" method=\"get\" action=\"/sylver/trace\" id=\"trace-form\">\
<label>Gaps <input type=\"text\" name=\"gaps\" value=\"{}\" spellcheck=\"false\"></label>\
<label>Depth <input type=\"text\" name=\"depth\" value=\"{}\" placeholder=\"the proofs' own\" style=\"min-width:7rem\"></label>\
<label>Order <select name=\"order\">{opts}</select></label>\
<button type=\"submit\">Trace</button></form>\
<p class=\"muted\">A position by its gaps, at most {TRACE_GAPS}. The same as <code>partizan sylver trace GAPS [--depth D] [--order O]</code>.</p>",
        escape(gaps),
        escape(depth)
    )
}

fn verdict(v: Option<u32>) -> String {
    v.map_or("refuted".to_string(), |m| format!("proved by {m}"))
}

fn trace_html(r: &TraceReport) -> String {
    let mut s = format!(
        "<div class=\"card\"><p id=\"trace-summary\">Told proof of gaps <span class=\"mono\">{{{}}}</span> at depth {} ({} order): <b>{}</b>; {} evaluations of {} positions.</p></div>",
        escape(&r.root.gaps_string()),
        r.depth,
        r.order,
        if r.proved { "proved" } else { "not proved" },
        thousands(u128::from(r.evaluations)),
        thousands(u128::from(r.positions))
    );
    let _ = write!(
        s,
        "<h2>Asked at more than one depth ({})</h2><div class=\"scroll\"><table id=\"asked-repeatedly\"><thead><tr><th>position (gaps)</th><th>depth left: verdict</th></tr></thead><tbody>",
        r.asked_repeatedly.len()
    );
    for t in &r.asked_repeatedly {
        let asked: Vec<String> = t
            .asked
            .iter()
            .map(|&(d, v)| format!("{d}: {}", verdict(v)))
            .collect();
        let _ = write!(
            s,
            "<tr><td class=\"mono\">{{{}}}</td><td>{}</td></tr>",
            escape(&t.position.gaps_string()),
            escape(&asked.join("; "))
        );
    }
    s.push_str("</tbody></table></div>");
    let _ = write!(
        s,
        "<h2>Every evaluation</h2><div class=\"scroll\"><table id=\"trace\"><thead><tr><th>position (gaps)</th><th class=\"num\">depth left</th><th>verdict</th></tr></thead><tbody>"
    );
    let mut shown = 0usize;
    'all: for t in &r.trace {
        for &(d, v) in &t.asked {
            if shown == TRACE_SHOWN {
                break 'all;
            }
            shown += 1;
            let _ = write!(
                s,
                "<tr><td class=\"mono\">{{{}}}</td><td class=\"num\">{d}</td><td>{}</td></tr>",
                escape(&t.position.gaps_string()),
                verdict(v)
            );
        }
    }
    s.push_str("</tbody></table></div>");
    if (shown as u64) < r.evaluations {
        let _ = write!(
            s,
            "<p class=\"muted\">The first {TRACE_SHOWN} of {} evaluations; the JSON has them all.</p>",
            r.evaluations
        );
    }
    let _ = write!(
        s,
        "<p class=\"muted\">JSON: <a href=\"/api/sylver/trace?gaps={}&amp;order={}\">this trace</a>.</p>",
        url_encode(&r.root.gaps_string()),
        r.order
    );
    s
}

/// `GET /sylver/trace`.
pub(crate) async fn trace_page(State(state): State<AppState>, p: Params) -> Response {
    let mut m = match params(p) {
        Ok(m) => m,
        Err(e) => return PageError(e).into_response(),
    };
    if !m.contains_key("gaps") && !m.contains_key("generators") {
        m.insert("gaps".to_string(), TRACE_EXAMPLE.to_string());
    }
    let head = format!(
        "<h1>The told proof, traced</h1><p>Essay 002 (<em>A different question at every depth</em>): a proof told its depth evaluates positions at several depths; the same position can be asked a different question at each.</p>{}",
        trace_form(&m)
    );
    let r = trace_compute(&state, &m).await.map(|r| trace_html(&r));
    answer("Sylver Coinage trace", "sylver", &head, r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Budget;

    #[test]
    fn the_essays_table() {
        // Essay 000's figures (README): a staircase wall gives 2,187
        // positions = 27 x 81; a straight wall 2,916 = 54 x 54.
        let mut m = HashMap::new();
        m.insert(
            "boards".to_string(),
            ".#...|..#..|..#..|..#.. ..#..|..#..|..#..|..#..".to_string(),
        );
        let a = parts_ask(&m).unwrap();
        let rows = parts_rows(&a, &Budget::unlimited()).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].whole, 2187);
        assert_eq!(rows[0].product, 2187);
        assert_eq!(rows[1].whole, 2916);
        assert_eq!(rows[1].product, 2916);
        let html = parts_table(&a, &rows);
        assert!(html.contains("2,187"));
    }

    #[test]
    fn parts_caps() {
        let mut m = HashMap::new();
        m.insert(
            "boards".to_string(),
            "......|......|......|......".to_string(),
        );
        let a = parts_ask(&m).unwrap();
        assert!(matches!(
            parts_rows(&a, &Budget::unlimited()),
            Err(WebError::TooLarge { cells: 24, .. })
        ));
    }

    #[test]
    fn the_essays_trace() {
        // Essay 002 (README): the example root's inner {1,2,3,4,7,8} is
        // asked at depths 1 and 3.
        let s = partizan_semigroup::Semigroup::parse_gaps(TRACE_EXAMPLE).unwrap();
        let r = trace(s, None, Order::Increasing).unwrap();
        let inner = r
            .asked_repeatedly
            .iter()
            .find(|t| t.position.gaps_string() == "1,2,3,4,7,8")
            .expect("{1,2,3,4,7,8} asked more than once");
        let depths: Vec<u32> = inner.asked.iter().map(|&(d, _)| d).collect();
        assert!(depths.contains(&1) && depths.contains(&3), "{depths:?}");
        let html = trace_html(&r);
        assert!(html.contains("{1,2,3,4,7,8}"));
    }
}
