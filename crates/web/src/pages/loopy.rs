//! The loopy page: type games whose play can return to a position, in
//! CGSuite's loopy notation (`pass`, labels `a{...}`, `on`, `over`,
//! `upon`, `dud`, ...), and get what `partizan loopy` says — whether the
//! sum is a stopper, its outcome with draws, a stopper's simplest form or a
//! non-stopper's onside and offside, and how it compares with another
//! value. `/api/loopy` answers the same as JSON.

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

/// The values asked for and the value compared with.
type Ask = (Vec<String>, Option<String>);

/// The values (`values`, separated by `;` or lines) and the value compared
/// with (`compare`); `None` when no value was given.
fn ask(m: &HashMap<String, String>) -> Result<Option<Ask>, WebError> {
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
    Ok(Some((values, compare)))
}

async fn compute(
    state: &AppState,
    values: Vec<String>,
    compare: Option<String>,
) -> Result<LoopyReport, WebError> {
    state
        .heavy(move |_| {
            partizan_report::loopy_value(&values, compare.as_deref(), MAX_POSITIONS)
                .map_err(|e| WebError::param("values", e.to_string()))
        })
        .await
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

fn render(values: &str, compare: &str, r: &LoopyReport) -> String {
    let mut body = format!("<h1>Loopy games</h1>{}", form(values, compare));
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
        escape(&r.value),
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
    if let Some((h, rel)) = &r.compared {
        let _ = write!(
            body,
            "<dt>compared</dt><dd id=\"loopy-compared\"><code>G {} {}</code></dd>",
            escape(rel),
            escape(h)
        );
    }
    let _ = write!(
        body,
        "</dl></div><p class=\"muted\">JSON: <a href=\"/api/loopy?values={}\">this value</a></p>",
        url_encode(values)
    );
    body
}

/// `GET /loopy?values=V1;V2&compare=H`.
pub(crate) async fn page_handler(State(state): State<AppState>, p: Params) -> Response {
    let m = match params(p) {
        Ok(m) => m,
        Err(e) => return PageError(e).into_response(),
    };
    let values = m.get("values").cloned().unwrap_or_default();
    let compare = m.get("compare").cloned().unwrap_or_default();
    let result = match ask(&m) {
        Ok(None) => {
            let body = format!(
                "<h1>Loopy games</h1>{}<p>Try <a href=\"/loopy?values=dud\"><code>dud</code></a>, \
<a href=\"/loopy?values={}\"><code>over + over</code></a> or <a href=\"/loopy?values=over&amp;compare=1%2F64\">over against 1/64</a>.</p>",
                form(&values, &compare),
                url_encode("{0|pass};{0|pass}")
            );
            return Html(page("Loopy games", "loopy", &body)).into_response();
        }
        Ok(Some((v, c))) => compute(&state, v, c).await,
        Err(e) => Err(e),
    };
    match result {
        Ok(r) => Html(page("Loopy games", "loopy", &render(&values, &compare, &r))).into_response(),
        Err(err) if err.status() == StatusCode::BAD_REQUEST => {
            let body = format!(
                "<h1>Loopy games</h1>{}<p class=\"error\" id=\"error\">{}</p>",
                form(&values, &compare),
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

/// `GET /api/loopy?values=V1;V2&compare=H`: [`LoopyReport`] as JSON.
pub(crate) async fn api(State(state): State<AppState>, p: Params) -> Result<Response, ApiError> {
    let m = params(p)?;
    let Some((values, compare)) = ask(&m)? else {
        return Err(WebError::param("values", "missing").into());
    };
    let r = compute(&state, values, compare).await?;
    let text = serde_json::to_string(&r).map_err(|e| WebError::Internal(e.to_string()))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}
