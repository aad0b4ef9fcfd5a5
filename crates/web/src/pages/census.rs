//! The region census pages: the tables per size, plots of the hit rates by
//! size and of the error distribution, and every shape (filterable,
//! sortable, each a link to its explorer page). The census asserts its
//! invariants before it reports; when one fails the page says which and on
//! which shape, and shows no tables.

use std::fmt::Write as _;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use partizan_census::census::{Census, CensusError, CramCensus};
use partizan_census::report::{CensusReport, CramReport, Tally};
use partizan_census::values::{DomineeringValues, ShapeValues};
use partizan_census::{Reading, Shape};
use partizan_core::{Arena, Dyadic, GameId};

use super::{number_param, params, Params};
use crate::error::{ApiError, PageError, WebError};
use crate::html::{escape, explore_href, page, percent, url_encode};
use crate::limits::Budget;
use crate::svg::{BarPlot, LinePlot, Series, Svg};
use crate::AppState;

/// One Domineering shape of the census, as the page shows it.
#[derive(Debug, Clone)]
pub(crate) struct DomRow {
    pub shape: Shape,
    pub text: String,
    pub value: String,
    pub number: Option<Dyadic>,
    pub left_stop: Dyadic,
    pub right_stop: Dyadic,
    pub reading: Reading,
    pub exact: bool,
    pub contained: bool,
    pub error: Option<Dyadic>,
}

/// One Cram shape.
#[derive(Debug, Clone)]
pub(crate) struct CramRow {
    pub shape: Shape,
    pub text: String,
    pub nim: u32,
}

/// A finished census, kept for the life of the process.
#[derive(Debug)]
pub(crate) enum CensusData {
    /// Domineering: values against packing readings.
    Domineering {
        rows: Vec<DomRow>,
        report: CensusReport,
        json: String,
    },
    /// Cram: nim-values.
    Cram {
        rows: Vec<CramRow>,
        report: CramReport,
        json: String,
    },
}

/// Values through the census's own evaluator, stopping when the budget is
/// spent.
struct BudgetValues<'a> {
    inner: DomineeringValues,
    budget: &'a Budget,
}

impl ShapeValues for BudgetValues<'_> {
    type Error = WebError;
    fn value(&mut self, arena: &mut Arena, shape: &Shape) -> Result<GameId, WebError> {
        self.budget.check()?;
        self.inner
            .value(arena, shape)
            .map_err(|e| WebError::Internal(e.to_string()))
    }
}

fn census_error(e: CensusError, budget: &Budget) -> WebError {
    if budget.expired() {
        return budget.out_of_time();
    }
    match e {
        CensusError::Invariant { .. } => {
            WebError::IdentityFailed(format!("The census refuses to report: {e}"))
        }
        CensusError::MaxCells { .. } => WebError::param("max_cells", e.to_string()),
        other => WebError::Internal(other.to_string()),
    }
}

/// The census JSON exactly as `partizan census RULESET --max-cells N --json`
/// prints it (the report carries its own ruleset and size).
fn cli_json(report: Result<String, CensusError>, budget: &Budget) -> Result<String, WebError> {
    let text = report.map_err(|e| census_error(e, budget))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| WebError::Internal(e.to_string()))?;
    crate::report::cli_text(&v)
}

/// Run a census (blocking, under the budget).
pub(crate) fn compute(
    ruleset: &str,
    max_cells: usize,
    budget: &Budget,
) -> Result<CensusData, WebError> {
    match ruleset {
        "domineering" => {
            let mut arena = Arena::new();
            let mut values = BudgetValues {
                inner: DomineeringValues::new(),
                budget,
            };
            let c = Census::domineering(max_cells, &mut arena, &mut values)
                .map_err(|e| census_error(e, budget))?;
            let json = cli_json(c.report.to_json(), budget)?;
            let rows = c
                .records
                .iter()
                .map(|r| DomRow {
                    shape: r.shape,
                    text: r.shape.to_text(),
                    value: r.value_text.clone(),
                    number: r.number,
                    left_stop: r.left_stop,
                    right_stop: r.right_stop,
                    reading: r.reading,
                    exact: r.exact(),
                    contained: r.contained(),
                    error: r.error().ok().flatten(),
                })
                .collect();
            Ok(CensusData::Domineering {
                rows,
                report: c.report,
                json,
            })
        }
        "cram" => {
            budget.check()?;
            let c = CramCensus::run(max_cells).map_err(|e| census_error(e, budget))?;
            let json = cli_json(c.report.to_json(), budget)?;
            let rows = c
                .records
                .iter()
                .map(|r| CramRow {
                    shape: r.shape,
                    text: r.shape.to_text(),
                    nim: r.nim,
                })
                .collect();
            Ok(CensusData::Cram {
                rows,
                report: c.report,
                json,
            })
        }
        other => Err(WebError::param(
            "ruleset",
            format!("no census for '{other}': the census covers domineering and cram"),
        )),
    }
}

/// The census for a ruleset and size, from the cache or computed once.
async fn census(
    state: &AppState,
    ruleset: &str,
    max_cells: usize,
) -> Result<Arc<CensusData>, WebError> {
    let ruleset = crate::rules::canonical(ruleset)?;
    if !matches!(ruleset, "domineering" | "cram") {
        return Err(WebError::param(
            "ruleset",
            format!("no census for '{ruleset}': the census covers domineering and cram"),
        ));
    }
    let s = state.clone();
    state
        .cache()
        .census
        .get_or_compute((ruleset, max_cells), async move {
            s.heavy(move |b| compute(ruleset, max_cells, b))
                .await
                .map(Arc::new)
        })
        .await
}

/// Shapes listed on one census page at most.
const MAX_LISTED: usize = 2_000;

/// The census size asked for: `max_cells`, or `default` when absent.
fn max_cells_param(
    state: &AppState,
    m: &std::collections::HashMap<String, String>,
    default: Option<usize>,
) -> Result<usize, WebError> {
    let max = state.limits().max_census_cells;
    let n = number_param(m, "max_cells", default.unwrap_or(max).min(max), max)?;
    if n == 0 {
        return Err(WebError::param("max_cells", "must be at least 1"));
    }
    Ok(n)
}

/// `GET /api/census/RULESET?max_cells=N`: the census report as the command
/// line's `census --json` prints it.
pub(crate) async fn api(
    State(state): State<AppState>,
    Path(ruleset): Path<String>,
    p: Params,
) -> Result<Response, ApiError> {
    let m = params(p)?;
    // The API mirrors `partizan census --json`, whose default is 8 cells.
    let max_cells = max_cells_param(&state, &m, Some(8))?;
    let data = census(&state, &ruleset, max_cells).await?;
    let json = match &*data {
        CensusData::Domineering { json, .. } | CensusData::Cram { json, .. } => json.clone(),
    };
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}

/// `GET /census` → the Domineering census.
pub(crate) async fn index() -> axum::response::Redirect {
    axum::response::Redirect::to("/census/domineering")
}

/// A small drawing of a shape (cells only).
fn thumbnail(shape: &Shape) -> String {
    let s = 9.0;
    let mut svg = Svg::new(
        shape.width() as f64 * s + 2.0,
        shape.height() as f64 * s + 2.0,
    );
    for r in 0..shape.height() {
        for c in 0..shape.width() {
            if shape.contains(r, c) {
                svg.rect(
                    1.0 + c as f64 * s,
                    1.0 + r as f64 * s,
                    s,
                    s,
                    "#8ecae6",
                    "stroke=\"#3b4252\" stroke-width=\"0.8\"",
                );
            }
        }
    }
    svg.finish()
}

/// The filters of the shapes table: (key, label).
const FILTERS: &[(&str, &str)] = &[
    ("all", "all"),
    ("numbers", "numbers"),
    ("hot", "hot"),
    ("exact", "exact"),
    ("missed", "missed"),
    ("strips", "strips"),
    ("points", "point intervals"),
];

fn keep(row: &DomRow, filter: &str) -> bool {
    match filter {
        "numbers" => row.number.is_some(),
        "hot" => row.number.is_none(),
        "exact" => row.exact,
        "missed" => row.number.is_some() && !row.contained,
        "strips" => row.shape.is_strip(),
        "points" => row.reading.is_point(),
        _ => true,
    }
}

fn dyadic_f64(d: Dyadic) -> f64 {
    d.num() as f64 / 2f64.powi(d.exp() as i32)
}

fn filter_links(
    ruleset: &str,
    max_cells: usize,
    filter: &str,
    size: Option<usize>,
    filters: &[(&str, &str)],
) -> String {
    let mut s = String::from("<p class=\"filters\">Show: ");
    for (k, label) in filters {
        let class = if *k == filter { " class=\"on\"" } else { "" };
        let size_q = size.map(|n| format!("&amp;size={n}")).unwrap_or_default();
        let _ = write!(
            s,
            "<a{class} href=\"/census/{ruleset}?max_cells={max_cells}&amp;filter={k}{size_q}\">{label}</a>"
        );
    }
    s.push_str(" · size: ");
    for n in std::iter::once(None).chain((1..=max_cells).map(Some)) {
        let class = if n == size { " class=\"on\"" } else { "" };
        let size_q = n.map(|n| format!("&amp;size={n}")).unwrap_or_default();
        let label = n.map(|n| n.to_string()).unwrap_or_else(|| "any".into());
        let _ = write!(
            s,
            "<a{class} href=\"/census/{ruleset}?max_cells={max_cells}&amp;filter={}{size_q}\">{label}</a>",
            url_encode(filter)
        );
    }
    s.push_str("</p>");
    s
}

fn size_links(ruleset: &str, max_cells: usize, limit: usize) -> String {
    let mut s = String::from("<p class=\"filters\">Regions up to ");
    for n in 1..=limit {
        let class = if n == max_cells { " class=\"on\"" } else { "" };
        let _ = write!(
            s,
            "<a{class} href=\"/census/{ruleset}?max_cells={n}\">{n}</a>"
        );
    }
    s.push_str(" cells · <a href=\"/census/domineering\">Domineering</a> · <a href=\"/census/cram\">Cram</a> · JSON: ");
    let _ = write!(
        s,
        "<a href=\"/api/census/{ruleset}?max_cells={max_cells}\">/api/census/{ruleset}</a></p>"
    );
    s
}

fn tally_row(label: &str, t: &Tally) -> String {
    format!(
        "<tr><td class=\"num\">{label}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:.2}</td></tr>",
        t.shapes,
        t.numbers,
        t.exact,
        percent(t.exact, t.numbers),
        t.contained,
        percent(t.contained, t.numbers),
        t.points,
        t.hot,
        percent(t.count_between_stops, t.hot),
        percent(t.interval_meets_stops, t.hot),
        t.strips,
        t.strips_exact,
        t.misses_above,
        t.misses_below,
        t.mean_width_numbers
    )
}

fn render_domineering(
    rows: &[DomRow],
    report: &CensusReport,
    max_cells: usize,
    limit: usize,
    filter: &str,
    size: Option<usize>,
) -> String {
    let mut b = String::new();
    let _ = write!(
        b,
        "<h1>Region census: Domineering</h1>\
<p>Every region of up to {max_cells} cells, once per symmetry class (rows stay rows: a transpose swaps the players). \
Each is valued exactly and read two ways: the <em>count</em>, half the difference in odd runs, \
<code>(odd horizontal runs − odd vertical runs) / 2</code>, and the <em>interval</em> from the pessimistic to the optimistic packings. \
The census asserts its invariants — the count lies in its interval, both computations of every packing agree, a transpose negates the value, misses above and below balance — and refuses to report if one fails.</p>{}",
        size_links("domineering", max_cells, limit)
    );
    // Tables per size.
    b.push_str("<h2>By size</h2><p class=\"muted\">Exact and contained are over the number-valued regions; for hot ones, whether the count lies between the stops and whether the interval meets them.</p><div class=\"scroll\"><table class=\"sortable wide compact\" id=\"by-size\"><thead><tr><th class=\"num\">cells</th><th class=\"num\">shapes</th><th class=\"num\">numbers</th><th class=\"num\">exact</th><th class=\"num\">%</th><th class=\"num\">contained</th><th class=\"num\">%</th><th class=\"num\">points</th><th class=\"num\">hot</th><th class=\"num\">count in stops</th><th class=\"num\">interval meets stops</th><th class=\"num\">strips</th><th class=\"num\">strips exact</th><th class=\"num\">miss above</th><th class=\"num\">miss below</th><th class=\"num\">mean width</th></tr></thead><tbody>");
    for (n, t) in &report.by_size {
        b.push_str(&tally_row(&n.to_string(), t));
    }
    b.push_str("</tbody><tfoot>");
    b.push_str(&tally_row("all", &report.totals).replace(
        "<td class=\"num\">all</td>",
        "<td class=\"num\"><strong>all</strong></td>",
    ));
    b.push_str("</tfoot></table></div>");

    // Plots.
    let pts = |f: &dyn Fn(&Tally) -> Option<f64>| -> Vec<(f64, f64)> {
        report
            .by_size
            .iter()
            .filter_map(|(n, t)| f(t).map(|y| (*n as f64, y)))
            .collect()
    };
    let ratio = |a: u64, b: u64| {
        if b == 0 {
            None
        } else {
            Some(a as f64 / b as f64)
        }
    };
    let hit = LinePlot {
        title: "Hit rates by size".into(),
        x_label: "cells".into(),
        y_label: "share".into(),
        series: vec![
            Series {
                name: "count exact (numbers)".into(),
                colour: "#2563eb".into(),
                points: pts(&|t| ratio(t.exact, t.numbers)),
            },
            Series {
                name: "interval contains (numbers)".into(),
                colour: "#16a34a".into(),
                points: pts(&|t| ratio(t.contained, t.numbers)),
            },
            Series {
                name: "count within stops (hot)".into(),
                colour: "#d97706".into(),
                points: pts(&|t| ratio(t.count_between_stops, t.hot)),
            },
            Series {
                name: "interval meets stops (hot)".into(),
                colour: "#9333ea".into(),
                points: pts(&|t| ratio(t.interval_meets_stops, t.hot)),
            },
        ],
        log_y: false,
        y_range: Some((0.0, 1.0)),
        y_percent: true,
    };
    let errors = BarPlot {
        title: "Count − value, number-valued regions".into(),
        x_label: "error".into(),
        bars: report
            .errors
            .0
            .iter()
            .map(|(k, v)| (k.to_string(), *v as f64))
            .collect(),
        colour: "#2563eb".into(),
    };
    let _ = write!(
        b,
        "<h2>Plots</h2><div class=\"row\"><div class=\"card\" id=\"plot-hits\">{}</div><div class=\"card\" id=\"plot-errors\">{}</div></div>",
        super::figure("svg-hits", hit.render_both(500.0, 330.0)),
        super::figure("svg-errors", errors.render_both(500.0, 330.0))
    );

    // By count magnitude.
    b.push_str("<h2>By what the count says</h2><table><thead><tr><th>|count|</th><th class=\"num\">regions</th><th class=\"num\">exact</th><th class=\"num\">exact %</th><th class=\"num\">contained %</th><th class=\"num\">at the largest size</th><th class=\"num\">exact there</th></tr></thead><tbody>");
    for (k, h) in &report.by_count {
        let largest = report.by_count_largest.get(k);
        let _ = write!(
            b,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            escape(k),
            h.shapes,
            h.exact,
            percent(h.exact, h.shapes),
            percent(h.contained, h.shapes),
            largest.map(|l| l.shapes).unwrap_or(0),
            largest.map(|l| percent(l.exact, l.shapes)).unwrap_or_else(|| "—".into())
        );
    }
    b.push_str("</tbody></table>");

    // Shapes.
    let matching: Vec<&DomRow> = rows
        .iter()
        .filter(|r| keep(r, filter) && size.is_none_or(|n| r.shape.len() == n))
        .collect();
    // A large census lists its first shapes only; a size or a filter
    // narrows the list to what fits a page.
    let shown: Vec<&DomRow> = matching.iter().take(MAX_LISTED).copied().collect();
    let more = if matching.len() > shown.len() {
        format!(
            " Listing the first {}: choose a size or a filter to see the rest.",
            shown.len()
        )
    } else {
        String::new()
    };
    let _ = write!(
        b,
        "<h2>Shapes</h2>{}<p class=\"muted\">{} of {} shapes.{more} Click a shape to open it in the explorer; click a header to sort.</p>",
        filter_links("domineering", max_cells, filter, size, FILTERS),
        matching.len(),
        rows.len()
    );
    b.push_str("<table class=\"sortable\" id=\"shapes\"><thead><tr><th>shape</th><th class=\"num\">cells</th><th>value</th><th class=\"num\">count</th><th>interval</th><th class=\"num\">error</th><th>stops</th><th>reading</th></tr></thead><tbody>");
    for r in shown {
        let verdict = match r.number {
            Some(_) if r.exact => "<span class=\"ok\">exact</span>",
            Some(_) if r.contained => "contained",
            Some(_) => "<span style=\"color:#a4161a\">missed</span>",
            None => "hot",
        };
        let sort_value = r
            .number
            .map(dyadic_f64)
            .unwrap_or((dyadic_f64(r.left_stop) + dyadic_f64(r.right_stop)) / 2.0);
        let _ = write!(
            b,
            "<tr><td><a class=\"shape-link\" href=\"{}\" title=\"{}\">{}</a></td><td class=\"num\">{}</td><td class=\"mono\" data-sort=\"{sort_value}\">{}</td><td class=\"num\">{}</td><td data-sort=\"{}\">[{}, {}]</td><td class=\"num\" data-sort=\"{}\">{}</td><td class=\"mono\">{} / {}</td><td>{verdict}</td></tr>",
            explore_href("domineering", &r.text),
            escape(&r.text),
            thumbnail(&r.shape),
            r.shape.len(),
            escape(&r.value),
            r.reading.count,
            r.reading.width(),
            r.reading.low,
            r.reading.high,
            r.error.map(dyadic_f64).unwrap_or(f64::NAN),
            r.error.map(|e| e.to_string()).unwrap_or_else(|| "—".into()),
            r.left_stop,
            r.right_stop,
        );
    }
    b.push_str("</tbody></table>");
    b
}

fn render_cram(
    rows: &[CramRow],
    report: &CramReport,
    max_cells: usize,
    limit: usize,
    filter: &str,
    size: Option<usize>,
) -> String {
    let mut b = String::new();
    let _ = write!(
        b,
        "<h1>Region census: Cram</h1><p>Every Cram region of up to {max_cells} cells, once per symmetry class of the square. \
Cram is impartial, so every region is a nimber; a region of nim-value 0 is a second-player win.</p>{}",
        size_links("cram", max_cells, limit)
    );
    let max_nim = report.totals.nim_values.keys().copied().max().unwrap_or(0);
    b.push_str("<h2>By size</h2><table class=\"sortable wide compact\" id=\"by-size\"><thead><tr><th class=\"num\">cells</th><th class=\"num\">shapes</th><th class=\"num\">value 0</th><th class=\"num\">share 0</th>");
    for k in 1..=max_nim {
        let _ = write!(b, "<th class=\"num\">*{k}</th>");
    }
    b.push_str("</tr></thead><tbody>");
    let row = |label: String, t: &partizan_census::report::CramTally| {
        let mut s = format!(
            "<tr><td class=\"num\">{label}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>",
            t.shapes,
            t.zero,
            percent(t.zero, t.shapes)
        );
        for k in 1..=max_nim {
            let _ = write!(
                s,
                "<td class=\"num\">{}</td>",
                t.nim_values.get(&k).copied().unwrap_or(0)
            );
        }
        s.push_str("</tr>");
        s
    };
    for (n, t) in &report.by_size {
        b.push_str(&row(n.to_string(), t));
    }
    b.push_str("</tbody><tfoot>");
    b.push_str(&row("all".into(), &report.totals));
    b.push_str("</tfoot></table>");
    let zero = LinePlot {
        title: "Share of second-player wins (value 0) by size".into(),
        x_label: "cells".into(),
        y_label: "share".into(),
        series: vec![Series {
            name: "value 0".into(),
            colour: "#2563eb".into(),
            points: report
                .by_size
                .iter()
                .filter(|(_, t)| t.shapes > 0)
                .map(|(n, t)| (*n as f64, t.zero as f64 / t.shapes as f64))
                .collect(),
        }],
        log_y: false,
        y_range: Some((0.0, 1.0)),
        y_percent: true,
    };
    let nims = BarPlot {
        title: "Nim-values over all shapes".into(),
        x_label: "nim-value".into(),
        bars: report
            .totals
            .nim_values
            .iter()
            .map(|(k, v)| {
                (
                    if *k == 0 {
                        "0".to_string()
                    } else {
                        format!("*{k}")
                    },
                    *v as f64,
                )
            })
            .collect(),
        colour: "#16a34a".into(),
    };
    let _ = write!(
        b,
        "<h2>Plots</h2><div class=\"row\"><div class=\"card\">{}</div><div class=\"card\">{}</div></div>",
        super::figure("svg-zero", zero.render_both(500.0, 300.0)),
        super::figure("svg-nims", nims.render_both(500.0, 300.0))
    );
    const CRAM_FILTERS: &[(&str, &str)] = &[
        ("all", "all"),
        ("zero", "value 0"),
        ("nonzero", "value ≠ 0"),
        ("strips", "strips"),
    ];
    let matching: Vec<&CramRow> = rows
        .iter()
        .filter(|r| match filter {
            "zero" => r.nim == 0,
            "nonzero" => r.nim != 0,
            "strips" => r.shape.is_strip(),
            _ => true,
        })
        .filter(|r| size.is_none_or(|n| r.shape.len() == n))
        .collect();
    let shown: Vec<&CramRow> = matching.iter().take(MAX_LISTED).copied().collect();
    let _ = write!(
        b,
        "<h2>Shapes</h2>{}<p class=\"muted\">{} of {} shapes{}.</p><table class=\"sortable\" id=\"shapes\"><thead><tr><th>shape</th><th class=\"num\">cells</th><th class=\"num\">nim-value</th></tr></thead><tbody>",
        filter_links("cram", max_cells, filter, size, CRAM_FILTERS),
        matching.len(),
        rows.len(),
        if matching.len() > shown.len() {
            format!("; listing the first {}: choose a size or a filter to see the rest", shown.len())
        } else {
            String::new()
        }
    );
    for r in shown {
        let _ = write!(
            b,
            "<tr><td><a class=\"shape-link\" href=\"{}\" title=\"{}\">{}</a></td><td class=\"num\">{}</td><td class=\"num\" data-sort=\"{}\">{}</td></tr>",
            explore_href("cram", &r.text),
            escape(&r.text),
            thumbnail(&r.shape),
            r.shape.len(),
            r.nim,
            if r.nim == 0 { "0".to_string() } else { format!("*{}", r.nim) }
        );
    }
    b.push_str("</tbody></table>");
    b
}

/// `GET /census/RULESET?max_cells=N&filter=F&size=S`.
pub(crate) async fn page_handler(
    State(state): State<AppState>,
    Path(ruleset): Path<String>,
    p: Params,
) -> Result<Html<String>, PageError> {
    let m = params(p)?;
    // The page shows the largest census the site allows unless asked.
    let max_cells = max_cells_param(&state, &m, None)?;
    let filter = m.get("filter").map(String::as_str).unwrap_or("all");
    let size = match m
        .get("size")
        .map(|s| s.trim())
        .filter(|s| !s.is_empty() && *s != "any")
    {
        None => None,
        Some(s) => Some(
            s.parse::<usize>()
                .map_err(|_| WebError::param("size", format!("'{s}' is not a number")))?,
        ),
    };
    let data = census(&state, &ruleset, max_cells).await?;
    let limit = state.limits().max_census_cells;
    let (title, body) = match &*data {
        CensusData::Domineering { rows, report, .. } => (
            "Census: Domineering",
            render_domineering(rows, report, max_cells, limit, filter, size),
        ),
        CensusData::Cram { rows, report, .. } => (
            "Census: Cram",
            render_cram(rows, report, max_cells, limit, filter, size),
        ),
    };
    Ok(Html(page(title, "census", &body)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_census_renders_with_links() {
        let d = compute("domineering", 4, &Budget::unlimited()).unwrap();
        let CensusData::Domineering { rows, report, json } = &d else {
            panic!("domineering census");
        };
        assert!(json.contains("\"ruleset\": \"domineering\""));
        let html = render_domineering(rows, report, 4, 8, "all", None);
        assert_eq!(html.matches("class=\"shape-link\"").count(), rows.len());
        assert!(html.contains("id=\"plot-hits\""));
        let strips = render_domineering(rows, report, 4, 8, "strips", None);
        assert!(strips.matches("class=\"shape-link\"").count() < rows.len());
    }

    #[test]
    fn cram_census_and_unknown() {
        assert!(matches!(
            compute("cram", 4, &Budget::unlimited()),
            Ok(CensusData::Cram { .. })
        ));
        assert!(matches!(
            compute("clobber", 4, &Budget::unlimited()),
            Err(WebError::BadParam { .. })
        ));
    }

    #[test]
    fn spent_budget_stops_the_census() {
        let spent = Budget::new(std::time::Duration::ZERO);
        assert!(matches!(
            compute("domineering", 5, &spent),
            Err(WebError::OutOfTime(_))
        ));
    }
}
