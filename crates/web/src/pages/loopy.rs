//! The loopy page: type games whose play can return to a position, in
//! CGSuite's loopy notation (`pass`, labels `a{...}`, `on`, `over`,
//! `upon`, `dud`, ...), and get what `partizan loopy` says — whether the
//! sum is a stopper, its outcome with draws, a stopper's simplest form or a
//! non-stopper's onside and offside, and how it compares with another
//! value. A board of a loopy ruleset (`ruleset` and `board`: Fox and
//! Geese, Backsliding Toads and Frogs) gets what `partizan value RULESET
//! BOARD` says. `/api/loopy` answers the same as JSON.

use std::collections::HashMap;
use std::fmt::Write as _;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use partizan_report::LoopyReport;

use super::{params, Params};
use crate::error::{ApiError, PageError, WebError};
use crate::html::{escape, page, url_encode};
use crate::AppState;

/// Most positions a graph on the site may have.
const MAX_POSITIONS: usize = 100;

/// Most positions a loopy ruleset's board may have on the site.
const MAX_BOARD_POSITIONS: usize = 100_000;

/// What is asked: values added and the value compared with, or a board.
enum Ask {
    Values(Vec<String>, Option<String>),
    Board(partizan_loopy::LoopyRules, String),
}

/// A board of a loopy ruleset (`ruleset`, `board`), or the values
/// (`values`, separated by `;` or lines) and the value compared with
/// (`compare`); `None` when nothing was given.
fn ask(m: &HashMap<String, String>) -> Result<Option<Ask>, WebError> {
    if let Some(name) = m.get("ruleset").filter(|r| !r.trim().is_empty()) {
        let rules = partizan_loopy::LoopyRules::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = partizan_loopy::LoopyRules::ALL
                .iter()
                .map(|r| r.name())
                .collect();
            WebError::param(
                "ruleset",
                format!("not a loopy ruleset (known: {})", names.join(", ")),
            )
        })?;
        let board = m.get("board").map(|b| b.trim()).unwrap_or_default();
        if board.is_empty() {
            return Err(WebError::param("board", "missing"));
        }
        if board.chars().count() > super::api::MAX_NOTATION {
            return Err(WebError::param(
                "board",
                format!("over {} characters", super::api::MAX_NOTATION),
            ));
        }
        return Ok(Some(Ask::Board(rules, board.to_string())));
    }
    let Some(values) = super::value::values_of(m, "adds")? else {
        return Ok(None);
    };
    let compare = match m.get("compare").map(|c| c.trim()) {
        Some(c) if !c.is_empty() => {
            if c.chars().count() > super::api::MAX_NOTATION {
                return Err(WebError::param(
                    "compare",
                    format!("over {} characters", super::api::MAX_NOTATION),
                ));
            }
            Some(c.to_string())
        }
        _ => None,
    };
    Ok(Some(Ask::Values(values, compare)))
}

async fn compute(state: &AppState, ask: Ask) -> Result<LoopyReport, WebError> {
    let store = state.store_handle();
    state
        .heavy(move |_| match ask {
            Ask::Values(values, compare) => {
                partizan_report::loopy_value(&values, compare.as_deref(), MAX_POSITIONS)
                    .map_err(|e| WebError::param("values", e.to_string()))
            }
            Ask::Board(rules, board) => {
                let limits = partizan_report::BoardLimits {
                    max_positions: MAX_BOARD_POSITIONS,
                    max_sidling: MAX_POSITIONS,
                    ..partizan_report::BoardLimits::default()
                };
                partizan_report::loopy_board(
                    rules,
                    &board,
                    &limits,
                    store.as_ref(),
                    &mut |_, _, _| {},
                )
                .map_err(|e| WebError::param("board", e.to_string()))
            }
        })
        .await
}

fn board_form(ruleset: &str, board: &str) -> String {
    let options: String = partizan_loopy::LoopyRules::ALL
        .iter()
        .map(|r| {
            let i = r.info();
            let chosen = if partizan_loopy::LoopyRules::from_name(ruleset) == Some(*r) {
                " selected"
            } else {
                ""
            };
            format!(
                "<option value=\"{}\"{chosen}>{}</option>",
                escape(i.name),
                escape(i.title)
            )
        })
        .collect();
    let rules: String = partizan_loopy::LoopyRules::ALL
        .iter()
        .map(|r| {
            let i = r.info();
            let examples: String = i
                .examples
                .iter()
                .map(|(b, what)| {
                    format!(
                        " <a href=\"/loopy?ruleset={}&amp;board={}\"><code>{}</code></a> ({})",
                        url_encode(i.name),
                        url_encode(b),
                        escape(b),
                        escape(what)
                    )
                })
                .collect();
            format!(
                "<li><b>{}</b>: {} Glyphs: {}. E.g.{examples}</li>",
                escape(i.title),
                escape(i.rules),
                escape(i.glyphs)
            )
        })
        .collect();
    format!(
        "<h2>Boards of loopy rulesets</h2><form class=\"stack\" method=\"get\" action=\"/loopy\" id=\"loopy-board-form\">\
<label for=\"ruleset\">Ruleset</label><select name=\"ruleset\" id=\"ruleset\">{options}</select>\
<label for=\"board\">Board</label><input name=\"board\" id=\"board\" value=\"{}\" spellcheck=\"false\">\
<div><button type=\"submit\">Value</button></div></form><ul class=\"muted\">{rules}</ul>\
<p class=\"muted\">Boards of at most {MAX_BOARD_POSITIONS} positions here (the command line's \
<code>partizan value RULESET BOARD</code> has no such limit: Fox and Geese's 8×8 start, 966,123 positions, takes about 17 s there).</p>",
        escape(board)
    )
}

fn form(values: &str, compare: &str) -> String {
    format!(
        "<form class=\"stack\" method=\"get\" action=\"/loopy\" id=\"loopy-form\">\
<label for=\"values\">Loopy values, one per line (added)</label>\
<textarea name=\"values\" id=\"values\" rows=\"2\" spellcheck=\"false\" placeholder=\"a{{0|{{*|a}}}}\">{}</textarea>\
<label for=\"compare\">Compare with (optional, stoppers only)</label>\
<input name=\"compare\" id=\"compare\" value=\"{}\" placeholder=\"over\">\
<div><button type=\"submit\">Analyse</button></div></form>\
<p class=\"muted\">Notation: <code>{{pass|}}</code> (<code>pass</code> is the position being written: this is <code>on</code>), \
<code>a{{0|{{*|a}}}}</code> (a labelled position its followers return to), <code>on</code>, <code>off</code>, <code>over</code>, \
<code>under</code>, <code>upon</code>, <code>dud</code>, <code>tis</code>, <code>tisn</code>, and short values such as <code>1/2</code> or <code>^*</code>. \
The command line's <code>partizan loopy</code> says the same.</p>",
        escape(values),
        escape(compare)
    )
}

/// The page's two forms, filled in with what was asked.
fn forms(m: &HashMap<String, String>) -> String {
    let get = |k: &str| m.get(k).cloned().unwrap_or_default();
    format!(
        "{}{}",
        form(&get("values"), &get("compare")),
        board_form(&get("ruleset"), &get("board"))
    )
}

fn render(m: &HashMap<String, String>, r: &LoopyReport) -> String {
    let mut body = format!("<h1>Loopy games</h1>{}", forms(m));
    let kind = if r.short {
        "a short game (no position recurs)"
    } else if r.stopper {
        "a stopper (positions recur, but no play alternates forever)"
    } else {
        "not a stopper (some play alternates forever)"
    };
    let outcome = partizan_loopy::LoopyOutcome {
        left_first: r.left_first,
        right_first: r.right_first,
    };
    let _ = write!(
        body,
        "<div class=\"card\" id=\"loopy\"><dl class=\"kv\"><dt>value</dt><dd><code>{}</code></dd>\
<dt>kind</dt><dd id=\"loopy-kind\">{kind}, {} positions</dd>\
<dt>outcome</dt><dd id=\"loopy-outcome\">{}: {}</dd>",
        escape(&match &r.ruleset {
            Some(rules) => format!("{rules} {}", r.value),
            None => r.value.clone(),
        }),
        r.positions,
        escape(&r.outcome),
        escape(&outcome.words())
    );
    if let Some(f) = &r.form {
        let _ = write!(
            body,
            "<dt>simplest form</dt><dd id=\"loopy-form-out\"><code>{}</code></dd>",
            escape(f)
        );
    }
    if let Some((on, off)) = &r.sides {
        let _ = write!(
            body,
            "<dt>onside &amp; offside</dt><dd id=\"loopy-sides\"><code>{} &amp; {}</code></dd>",
            escape(on),
            escape(off)
        );
    } else if let Some(why) = &r.no_form {
        let _ = write!(
            body,
            "<dt>form</dt><dd class=\"muted\">{}</dd>",
            escape(why)
        );
    }
    if let Some((left, right)) = &r.stops {
        let _ = write!(
            body,
            "<dt>stops</dt><dd id=\"loopy-stops\">Left {}, Right {}</dd>",
            escape(left),
            escape(right)
        );
    }
    if let Some(t) = &r.thermograph {
        let _ = write!(
            body,
            "<dt>thermograph</dt><dd id=\"loopy-thermograph\"><code>{}</code></dd>",
            escape(t)
        );
    }
    if let Some((parts, values)) = r.parts {
        let _ = write!(
            body,
            "<dt>parts</dt><dd id=\"loopy-parts\">valued in {parts} strongly connected parts; {values} distinct values</dd>"
        );
    }
    if let Some((h, rel)) = &r.compared {
        let _ = write!(
            body,
            "<dt>compared</dt><dd id=\"loopy-compared\"><code>G {} {}</code></dd>",
            escape(rel),
            escape(h)
        );
    }
    let query = match &r.ruleset {
        Some(rules) => format!(
            "ruleset={}&amp;board={}",
            url_encode(rules),
            url_encode(&r.value)
        ),
        None => format!(
            "values={}",
            url_encode(&m.get("values").cloned().unwrap_or_default())
        ),
    };
    let _ = write!(
        body,
        "</dl></div><p class=\"muted\">JSON: <a href=\"/api/loopy?{query}\">this analysis</a></p>"
    );
    body
}

/// `GET /loopy?values=V1;V2&compare=H` or `GET /loopy?ruleset=R&board=B`.
pub(crate) async fn page_handler(State(state): State<AppState>, p: Params) -> Response {
    let m = match params(p) {
        Ok(m) => m,
        Err(e) => return PageError(e).into_response(),
    };
    let result = match ask(&m) {
        Ok(None) => {
            let body = format!(
                "<h1>Loopy games</h1>{}<p>Try <a href=\"/loopy?values=dud\"><code>dud</code></a>, \
<a href=\"/loopy?values={}\"><code>over + over</code></a> or <a href=\"/loopy?values=over&amp;compare=1%2F64\">over against 1/64</a>.</p>",
                forms(&m),
                url_encode("{0|pass};{0|pass}")
            );
            return Html(page("Loopy games", "loopy", &body)).into_response();
        }
        Ok(Some(a)) => compute(&state, a).await,
        Err(e) => Err(e),
    };
    match result {
        Ok(r) => Html(page("Loopy games", "loopy", &render(&m, &r))).into_response(),
        Err(err) if err.status() == StatusCode::BAD_REQUEST => {
            let body = format!(
                "<h1>Loopy games</h1>{}<p class=\"error\" id=\"error\">{}</p>",
                forms(&m),
                escape(&err.to_string())
            );
            (
                StatusCode::BAD_REQUEST,
                Html(page("Loopy games", "loopy", &body)),
            )
                .into_response()
        }
        Err(err) => PageError(err).into_response(),
    }
}

/// `GET /api/loopy?values=V1;V2&compare=H` or `?ruleset=R&board=B`:
/// [`LoopyReport`] as JSON.
pub(crate) async fn api(State(state): State<AppState>, p: Params) -> Result<Response, ApiError> {
    let m = params(p)?;
    let Some(a) = ask(&m)? else {
        return Err(WebError::param("values", "missing").into());
    };
    let r = compute(&state, a).await?;
    let text = serde_json::to_string(&r).map_err(|e| WebError::Internal(e.to_string()))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}
