//! Numerical semigroups counted by genus, with the growth on a log scale and
//! the ratio of successive counts against the golden ratio they approach.

use std::fmt::Write as _;
use std::sync::Arc;

use axum::extract::State;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use serde_json::json;

use super::{number_param, params, Params};
use crate::error::{ApiError, PageError, WebError};
use crate::html::{page, thousands};
use crate::svg::{LinePlot, Series};
use crate::AppState;

/// Published counts of numerical semigroups by genus (OEIS A007323, to
/// genus 45), shown beside the computed ones: the semigroup crate's table.
pub(crate) const PUBLISHED: &[u64] = &partizan_semigroup::tree::A007323;

const PHI: f64 = 1.618_033_988_749_895;

/// Counts for genus `0..=max_genus`, computed once per size.
pub(crate) async fn counts(state: &AppState, max_genus: u32) -> Result<Arc<Vec<u64>>, WebError> {
    let s = state.clone();
    state
        .cache()
        .semigroups
        .get_or_compute(max_genus, async move {
            s.heavy(move |budget| {
                budget.check()?;
                let c = partizan_semigroup::count_by_genus(max_genus, true)
                    .map_err(|e| WebError::param("max_genus", e.to_string()))?;
                Ok(Arc::new(c))
            })
            .await
        })
        .await
}

fn genus_param(
    state: &AppState,
    m: &std::collections::HashMap<String, String>,
    default: u32,
) -> Result<u32, WebError> {
    let max = state.limits().max_genus;
    number_param(m, "max_genus", default.min(max), max)
}

/// The JSON report of the counts, as `partizan semigroups count --json`
/// prints it.
pub(crate) fn report(counts: &[u64]) -> serde_json::Value {
    json!({ "counts": counts })
}

/// `GET /api/semigroups?max_genus=G`.
pub(crate) async fn api(State(state): State<AppState>, p: Params) -> Result<Response, ApiError> {
    let m = params(p)?;
    let g = genus_param(&state, &m, 20)?;
    let c = counts(&state, g).await?;
    // Printed compact, as the command line prints it.
    let text = format!("{}\n", report(&c));
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}

/// `GET /semigroups?max_genus=G`.
pub(crate) async fn page_handler(
    State(state): State<AppState>,
    p: Params,
) -> Result<Html<String>, PageError> {
    let m = params(p)?;
    let g = genus_param(&state, &m, 25)?;
    let c = counts(&state, g).await?;
    let mut b = String::new();
    let _ = write!(
        b,
        "<h1>Numerical semigroups</h1>\
<p>A numerical semigroup is a set of non-negative integers closed under addition with finitely many gaps; its genus is the number of gaps. \
They are the positions of Sylver Coinage. Counted here by walking the tree of semigroups (each child removes one generator above the Frobenius number) up to genus {g}. \
The counts grow like φ<sup>g</sup>, so successive ratios approach the golden ratio φ ≈ 1.618.</p>\
<form class=\"inline\" method=\"get\" action=\"/semigroups\"><label>Up to genus <input type=\"text\" name=\"max_genus\" value=\"{g}\" style=\"min-width:4rem;width:5rem\"></label><button type=\"submit\">Count</button>\
<span class=\"muted\">at most {max} here · JSON: <a href=\"/api/semigroups?max_genus={g}\">/api/semigroups?max_genus={g}</a></span></form>",
        max = state.limits().max_genus
    );
    let growth = LinePlot {
        title: "Semigroups by genus (log scale)".into(),
        x_label: "genus".into(),
        y_label: "semigroups".into(),
        series: vec![
            Series {
                name: "counted".into(),
                colour: "#2563eb".into(),
                points: c
                    .iter()
                    .enumerate()
                    .map(|(g, n)| (g as f64, *n as f64))
                    .collect(),
            },
            Series {
                name: "published (OEIS A007323)".into(),
                colour: "#d97706".into(),
                points: PUBLISHED
                    .iter()
                    .take(c.len())
                    .enumerate()
                    .map(|(g, n)| (g as f64, *n as f64))
                    .collect(),
            },
        ],
        log_y: true,
        y_range: None,
        y_percent: false,
    };
    let ratios: Vec<(f64, f64)> = c
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0] > 0)
        .map(|(g, w)| ((g + 1) as f64, w[1] as f64 / w[0] as f64))
        .collect();
    let ratio = LinePlot {
        title: "Ratio of successive counts".into(),
        x_label: "genus".into(),
        y_label: "n(g) / n(g−1)".into(),
        series: vec![
            Series {
                name: "ratio".into(),
                colour: "#16a34a".into(),
                points: ratios,
            },
            Series {
                name: "φ".into(),
                colour: "#9aa6b8".into(),
                points: vec![(1.0, PHI), (g.max(1) as f64, PHI)],
            },
        ],
        log_y: false,
        y_range: Some((1.0, 2.1)),
        y_percent: false,
    };
    let _ = write!(
        b,
        "<div class=\"row\"><div class=\"card\" id=\"plot-growth\">{}</div><div class=\"card\">{}</div></div>",
        super::figure("svg-growth", growth.render_both(500.0, 320.0)),
        super::figure("svg-ratio", ratio.render_both(500.0, 320.0))
    );
    b.push_str("<h2>Counts</h2><table class=\"sortable\" id=\"counts\"><thead><tr><th class=\"num\">genus</th><th class=\"num\">semigroups</th><th class=\"num\">ratio to previous</th><th class=\"num\">published</th><th>agrees</th></tr></thead><tbody>");
    for (i, n) in c.iter().enumerate() {
        let ratio = if i > 0 && c[i - 1] > 0 {
            format!("{:.4}", *n as f64 / c[i - 1] as f64)
        } else {
            "—".into()
        };
        let (published, agrees) = match PUBLISHED.get(i) {
            Some(p) if p == n => (thousands(u128::from(*p)), "<span class=\"ok\">yes</span>"),
            Some(p) => (thousands(u128::from(*p)), "<span class=\"error\">no</span>"),
            None => ("—".into(), ""),
        };
        let _ = write!(
            b,
            "<tr><td class=\"num\">{i}</td><td class=\"num\" data-sort=\"{n}\">{}</td><td class=\"num\">{ratio}</td><td class=\"num\">{published}</td><td>{agrees}</td></tr>",
            thousands(u128::from(*n))
        );
    }
    let _ = write!(
        b,
        "</tbody><tfoot><tr><td class=\"num\"><strong>all</strong></td><td class=\"num\">{}</td><td></td><td></td><td></td></tr></tfoot></table>",
        thousands(u128::from(c.iter().sum::<u64>()))
    );
    Ok(Html(page("Semigroups", "semigroups", &b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_with_the_published_ones() {
        let c = partizan_semigroup::count_by_genus(15, false).unwrap();
        assert_eq!(&c[..], &PUBLISHED[..16]);
        let r = report(&c);
        assert_eq!(r["counts"][15], 2857);
    }
}
