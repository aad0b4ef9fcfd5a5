//! The value page: type values in CGSuite notation and get everything the
//! toolkit says about each — canonical form, outcome, stops, mean,
//! temperature, atomic weight, reduced form, incentives, the thermograph
//! drawn (SVG, PNG and TikZ downloads) — and, for several, their sum and
//! every pair compared with its difference. The report is
//! [`partizan_report::Calculation`]; `/api/analyse` answers it as JSON.

use std::collections::HashMap;
use std::fmt::Write as _;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use partizan_report::{Calculation, ValueAnalysis};

use super::{params, Params};
use crate::error::{ApiError, PageError, WebError};
use crate::html::{escape, page, shorten, url_encode};
use crate::AppState;

/// Most values one page compares (every pair is compared).
pub const MAX_VALUES: usize = 8;

/// Longest value shown whole on the page (the JSON has every one whole).
const SHOWN: usize = 400;

/// The example the empty page offers (CGSuite's tutorial's first value).
const EXAMPLE: &str = "{3||2*|1*}";

/// The values asked for: `values`, one per line or separated by `;`.
/// `None` when none were given (the page shows its form alone).
fn terms(m: &HashMap<String, String>) -> Result<Option<Vec<String>>, WebError> {
    values_of(m, "compares")
}

/// The values of a page that takes several (`values`, or `value`), one per
/// line or separated by `;`, at most [`MAX_VALUES`] of them (a page that
/// `verb`s more says so); `None` when none were given.
pub(crate) fn values_of(
    m: &HashMap<String, String>,
    verb: &str,
) -> Result<Option<Vec<String>>, WebError> {
    let Some(text) = m.get("values").or_else(|| m.get("value")) else {
        return Ok(None);
    };
    if text.chars().count() > super::api::MAX_NOTATION {
        return Err(WebError::param(
            "values",
            format!("over {} characters", super::api::MAX_NOTATION),
        ));
    }
    let terms: Vec<String> = text
        .split([';', '\n'])
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect();
    if terms.is_empty() {
        return Ok(None);
    }
    if terms.len() > MAX_VALUES {
        return Err(WebError::param(
            "values",
            format!(
                "{} values; this page {verb} at most {MAX_VALUES}",
                terms.len()
            ),
        ));
    }
    Ok(Some(terms))
}

/// The calculation, under a heavy-work slot.
async fn compute(state: &AppState, terms: Vec<String>) -> Result<Calculation, WebError> {
    state
        .heavy(move |_| {
            partizan_report::calculate(&terms).map_err(|e| match e {
                partizan_report::ReportError::Notation { .. } => {
                    WebError::param("values", e.to_string())
                }
                other => WebError::Internal(other.to_string()),
            })
        })
        .await
}

/// `G1`, `G2`, ... for the values, `Σ` for their sum.
fn name(k: usize) -> String {
    format!("G{}", k + 1)
}

/// A value's text for the page: whole when short, else its start and its
/// length (the JSON holds it whole).
fn shown(s: &str) -> String {
    let n = s.chars().count();
    if n <= SHOWN {
        escape(s)
    } else {
        format!(
            "{} <span class=\"muted\">({n} characters; <a href=\"#json\">the JSON</a> has it whole)</span>",
            escape(&shorten(s, SHOWN))
        )
    }
}

fn list(v: &[String]) -> String {
    if v.is_empty() {
        "<span class=\"muted\">none</span>".to_string()
    } else {
        v.iter()
            .map(|s| format!("<span class=\"mono\">{}</span>", shown(s)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn outcome_words(o: &str) -> &'static str {
    match o {
        "L" => "Left wins",
        "R" => "Right wins",
        "N" => "the first player wins",
        "P" => "the second player wins",
        _ => "",
    }
}

/// One value's card: its readings beside its thermograph.
fn card(a: &ValueAnalysis, key: &str, label: &str) -> String {
    let v = &a.value;
    let not_computed = "<span class=\"muted\">not computed: over 256 subpositions (<span class=\"mono\">partizan analyse</span> computes it)</span>";
    let opt = |o: &Option<String>| match o {
        Some(s) => format!("<span class=\"mono\">{}</span>", shown(s)),
        None => not_computed.to_string(),
    };
    let opts = |o: &Option<Vec<String>>| match o {
        Some(l) => list(l),
        None => not_computed.to_string(),
    };
    let atomic = match (&a.atomic_weight, &a.atomic_weight_error) {
        (Some(w), _) => format!("<span class=\"mono\">{}</span>", shown(w)),
        (None, Some(e)) => format!("<span class=\"muted\">undefined: {}</span>", escape(e)),
        (None, None) => String::new(),
    };
    let mut s = String::new();
    let _ = write!(
        s,
        "<div class=\"card value-card\" id=\"value-{key}\"><h3>{label} = <span class=\"mono val\">{}</span></h3>\
<div class=\"row\"><dl class=\"kv\" style=\"flex:1 1 340px;min-width:0\">\
<dt>canonical form</dt><dd class=\"mono val\" id=\"canonical-{key}\">{}</dd>\
<dt>outcome</dt><dd id=\"outcome-{key}\"><b class=\"mono\">{}</b> ({})</dd>\
<dt>stops</dt><dd id=\"stops-{key}\">Left <span class=\"mono\">{}</span>, Right <span class=\"mono\">{}</span></dd>\
<dt>mean</dt><dd class=\"mono\" id=\"mean-{key}\">{}</dd>\
<dt>temperature</dt><dd class=\"mono\" id=\"temperature-{key}\">{}</dd>\
<dt>atomic weight</dt><dd id=\"atomic-{key}\">{atomic}</dd>\
<dt>reduced form</dt><dd class=\"mono val\" id=\"reduced-{key}\">{}</dd>\
<dt>infinitesimal part</dt><dd class=\"val\">{}</dd>\
<dt>frozen</dt><dd class=\"mono val\">{}</dd>\
<dt>orthodox form</dt><dd class=\"val\">{}</dd>\
<dt>Left options</dt><dd class=\"val\">{}</dd>\
<dt>Right options</dt><dd class=\"val\">{}</dd>\
<dt>Left incentives</dt><dd class=\"val\" id=\"incentives-left-{key}\">{}</dd>\
<dt>Right incentives</dt><dd class=\"val\" id=\"incentives-right-{key}\">{}</dd>\
<dt>size</dt><dd>birthday {}, {} subpositions, {} characters</dd></dl>",
        escape(&shorten(&a.text, 60)),
        shown(&v.value),
        escape(&v.outcome),
        outcome_words(&v.outcome),
        escape(&v.left_stop),
        escape(&v.right_stop),
        escape(&v.mean),
        escape(&v.temperature),
        shown(&a.reduced),
        opt(&a.infinitesimal_part),
        shown(&a.frozen),
        opt(&a.orthodox_form),
        list(&a.left_options),
        list(&a.right_options),
        opts(&a.left_incentives),
        opts(&a.right_incentives),
        v.size.birthday,
        v.size.subpositions,
        v.size.characters,
    );
    let title = if v.value.chars().count() <= 40 {
        v.value.clone()
    } else {
        label.to_string()
    };
    let id = format!("thermograph-{key}");
    let _ = write!(
        s,
        "<div class=\"thermo\" style=\"flex:0 1 440px;min-width:0\">{}</div></div></div>",
        super::figure(&id, a.picture(&id, &title, 420.0))
    );
    s
}

/// The calculator's card: the sum and every pair compared.
fn calculator(c: &Calculation) -> String {
    let Some(sum) = &c.sum else {
        return String::new();
    };
    let names: Vec<String> = (0..c.values.len()).map(name).collect();
    let mut s = format!(
        "<div class=\"card\" id=\"calculator\"><h3>Sum and comparisons</h3>\
<p id=\"sum\"><span class=\"mono\">{} = </span><a class=\"mono val\" href=\"#value-sum\">{}</a></p>\
<div class=\"scroll\"><table id=\"comparisons\"><thead><tr><th>G</th><th>H</th><th>G − H</th><th>order</th></tr></thead><tbody>",
        names.join(" + "),
        shown(&sum.value.value)
    );
    for p in &c.comparisons {
        let _ = write!(
            s,
            "<tr><td class=\"mono\">{g}</td><td class=\"mono\">{h}</td><td class=\"mono val\">{}</td><td class=\"mono\" data-sort=\"{}\">{g} {} {h}</td></tr>",
            shown(&p.difference),
            escape(p.comparison),
            escape(p.comparison),
            g = names[p.g],
            h = names[p.h],
        );
    }
    s.push_str("</tbody></table></div><p class=\"muted\">G − H decides the order: Left wins it (G &gt; H), Right wins it (G &lt; H), the second player wins it (G = H) or the first player does (G || H, confused). Values are only partially ordered.</p></div>");
    s
}

fn form(text: &str) -> String {
    format!(
        "<form class=\"stack\" method=\"get\" action=\"/value\" id=\"value-form\">\
<label for=\"values\">Values in CGSuite notation, one per line (or separated by <code>;</code>)</label>\
<textarea name=\"values\" id=\"values\" rows=\"3\" spellcheck=\"false\" placeholder=\"{EXAMPLE}\">{}</textarea>\
<div><button type=\"submit\">Analyse</button></div></form>\
<p class=\"muted\">Notation: <code>0</code>, <code>3/2</code>, <code>*2</code>, <code>^</code>, <code>v*</code>, <code>±1</code>, \
<code>{{2|0||-1}}</code>, <code>Tiny(2)</code>, with <code>+</code> and <code>-</code> between them. \
With several values, their sum and every pair compared. The command line's <code>partizan analyse</code> says the same.</p>",
        escape(text)
    )
}

/// The page's body for the values typed (`text`) and their calculation.
fn render(text: &str, terms: &[String], c: &Calculation) -> String {
    let mut body = format!("<h1>Values</h1>{}", form(text));
    body.push_str(&calculator(c));
    for (k, a) in c.values.iter().enumerate() {
        body.push_str(&card(a, &(k + 1).to_string(), &name(k)));
    }
    if let Some(sum) = &c.sum {
        let names: Vec<String> = (0..c.values.len()).map(name).collect();
        body.push_str(&card(sum, "sum", &names.join(" + ")));
    }
    let q = url_encode(&terms.join(";"));
    let _ = write!(
        body,
        "<p class=\"muted\" id=\"json\">JSON: <a href=\"/api/analyse?values={q}\">this page</a> · <a href=\"/api/game?values={q}\">the sum</a> · <a href=\"/api/thermograph?values={q}&amp;format=svg\">the sum's thermograph</a></p>"
    );
    body
}

/// `GET /value?values=V1;V2`: the value page.
pub(crate) async fn page_handler(State(state): State<AppState>, p: Params) -> Response {
    let m = match params(p) {
        Ok(m) => m,
        Err(e) => return PageError(e).into_response(),
    };
    let text = m.get("values").or_else(|| m.get("value")).cloned();
    let result = match terms(&m) {
        Ok(None) => {
            let body = format!(
                "<h1>Values</h1>{}<p>Try <a href=\"/value?values={}\"><code>{}</code></a>, or \
<a href=\"/value?values={}\">three values compared</a>.</p>",
                form(text.as_deref().unwrap_or("")),
                url_encode(EXAMPLE),
                escape(EXAMPLE),
                url_encode("^;*;^*"),
            );
            return Html(page("Values", "value", &body)).into_response();
        }
        Ok(Some(t)) => compute(&state, t.clone()).await.map(|c| (t, c)),
        Err(e) => Err(e),
    };
    let text = text.unwrap_or_default();
    match result {
        Ok((terms, c)) => Html(page("Values", "value", &render(&text, &terms, &c))).into_response(),
        Err(err) if err.status() == StatusCode::BAD_REQUEST => {
            // Bad input: the form again, with what was typed and the problem named.
            let body = format!(
                "<h1>Values</h1>{}<p class=\"error\" id=\"error\">{}</p>",
                form(&text),
                escape(&err.to_string())
            );
            (
                StatusCode::BAD_REQUEST,
                Html(page("Values", "value", &body)),
            )
                .into_response()
        }
        Err(err) => PageError(err).into_response(),
    }
}

/// `GET /api/analyse?values=V1;V2`: what the value page shows, as JSON
/// ([`partizan_report::Calculation`]).
pub(crate) async fn api(State(state): State<AppState>, p: Params) -> Result<Response, ApiError> {
    let m = params(p)?;
    let Some(terms) = terms(&m)? else {
        return Err(WebError::param("values", "missing").into());
    };
    let c = compute(&state, terms).await?;
    let text = crate::report::cli_text(&c)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_split_on_semicolons_and_lines() {
        let m: HashMap<String, String> =
            [("values".to_string(), " ^ ;\n*\r\n;; {1|0} ".to_string())].into();
        assert_eq!(terms(&m).unwrap().unwrap(), ["^", "*", "{1|0}"]);
        let none: HashMap<String, String> = [("values".to_string(), " ; ".to_string())].into();
        assert!(terms(&none).unwrap().is_none());
        let many: HashMap<String, String> = [("values".to_string(), "1;".repeat(9))].into();
        assert!(terms(&many).is_err());
    }

    #[test]
    fn the_page_shows_every_reading_and_the_comparisons() {
        let terms = ["{3||2*|1*}".to_string(), "^".to_string()];
        let c = partizan_report::calculate(&terms).unwrap();
        let html = render("{3||2*|1*}\n^", &terms, &c);
        for needle in [
            "id=\"canonical-1\">{3||2*|1*}",
            "id=\"mean-1\">9/4",
            "id=\"temperature-1\">3/4",
            "id=\"reduced-1\">{3||2|1}",
            "id=\"atomic-2\"><span class=\"mono\">1</span>",
            "id=\"thermograph-1\"",
            "id=\"thermograph-sum\"",
            "data-format=\"tikz\"",
            "G1 &gt; G2",
        ] {
            assert!(html.contains(needle), "{needle} missing");
        }
    }
}
