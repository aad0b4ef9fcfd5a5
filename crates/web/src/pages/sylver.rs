//! Sylver Coinage: a position's gaps on a number line, each move marked
//! struck (the pairing test strikes it), survivor or winning, with the
//! remoteness and a winning line; and the census of irreducible positions.
//!
//! The position page asserts what it draws: every struck move must reach a
//! position won for the player who moves next (the theorem behind the
//! test), and the finishing search's verdict must agree with the
//! remoteness's parity. If either fails the page refuses the drawing.

use std::fmt::Write as _;

use axum::extract::State;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use partizan_semigroup::sylver::census::{
    census, play, CensusReport as SylverCensus, CensusSummary, Outcome, PlayReport,
};
use partizan_semigroup::sylver::pairing::strikes;
use partizan_semigroup::sylver::remoteness::Remoteness;
use partizan_semigroup::sylver::Order;
use partizan_semigroup::{Semigroup, SemigroupError};
use serde::Serialize;

use super::{number_param, params, Params};
use crate::error::{ApiError, PageError, WebError};
use crate::html::{escape, page, url_encode};
use crate::limits::Budget;
use crate::svg::{number_line, LinePlot, Mark, Series};
use crate::AppState;

/// How the analysis marks a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum MoveMark {
    /// The pairing test strikes it: it moves into a position won for the
    /// opponent.
    Struck,
    /// Not struck, but not winning either.
    Survivor,
    /// Not struck, and it leaves the opponent a lost position.
    Winning,
}

/// One move of a position.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct MoveInfo {
    /// The number named.
    pub number: u32,
    /// Its mark.
    pub mark: MoveMark,
    /// Remoteness of the position it reaches (for the opponent to move).
    pub remoteness_after: u32,
    /// The gaps of the position it reaches.
    pub gaps_after: Vec<u32>,
}

/// One step of the line of best play.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct LineStep {
    /// `"first"` (the player to move at the start) or `"second"`.
    pub player: &'static str,
    /// The number named.
    pub number: u32,
    /// The gaps left.
    pub gaps_after: String,
}

/// A Sylver Coinage position analysed.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Analysis {
    pub gaps: Vec<u32>,
    pub generators: Vec<u32>,
    pub genus: u32,
    pub frobenius: Option<u32>,
    pub irreducible: bool,
    pub remoteness: u32,
    pub won: bool,
    pub moves: Vec<MoveInfo>,
    pub line: Vec<LineStep>,
    /// `None` when every assertion holds; otherwise what failed.
    pub refusal: Option<String>,
}

/// Parse the position from `gaps=` or `generators=`.
pub(crate) fn position(
    m: &std::collections::HashMap<String, String>,
    max_gaps: usize,
) -> Result<Semigroup, WebError> {
    let gaps = m.get("gaps").map(|s| s.trim()).filter(|s| !s.is_empty());
    let gens = m
        .get("generators")
        .map(|s| s.trim())
        .filter(|s| !s.is_empty());
    let s = match (gaps, gens) {
        (Some(g), None) => {
            Semigroup::parse_gaps(g).map_err(|e| WebError::param("gaps", e.to_string()))?
        }
        (None, Some(g)) => Semigroup::parse_generators(g)
            .map_err(|e| WebError::param("generators", e.to_string()))?,
        (Some(_), Some(_)) => {
            return Err(WebError::param("gaps", "give gaps or generators, not both"))
        }
        (None, None) => return Err(WebError::param("gaps", "missing (or give generators)")),
    };
    if s.genus() as usize > max_gaps {
        return Err(WebError::param(
            "gaps",
            format!(
                "the position has {} gaps; this site plays positions of at most {max_gaps}",
                s.genus()
            ),
        ));
    }
    Ok(s)
}

/// Analyse a position (blocking; bounded by the gap cap): the library's
/// play report (what `partizan sylver play --json` prints) and, per move,
/// the mark and the remoteness after it, cross-checked against each other.
pub(crate) fn analyse(s: Semigroup, budget: &Budget) -> Result<(Analysis, PlayReport), WebError> {
    budget.check()?;
    let report = play(&s).map_err(|e| WebError::param("gaps", e.to_string()))?;
    budget.check()?;
    let mut rem = Remoteness::new();
    let r = rem.remoteness(s);
    let won = r % 2 == 1;
    let mut refusal = None;
    let mut refuse = |why: String| {
        if refusal.is_none() {
            refusal = Some(why);
        }
    };
    let mut moves = Vec::new();
    for x in Order::Increasing.moves(s) {
        let t = s.adjoin(x);
        let ra = rem.remoteness(t);
        let mark = if strikes(s, x) {
            if ra.is_multiple_of(2) {
                refuse(format!(
                    "Refused: the pairing test strikes {x}, but the position it reaches (gaps {}) has remoteness {ra}, lost for the player to move; the theorem behind the test fails here.",
                    t.gaps_string()
                ));
            }
            MoveMark::Struck
        } else if ra.is_multiple_of(2) {
            MoveMark::Winning
        } else {
            MoveMark::Survivor
        };
        moves.push(MoveInfo {
            number: x,
            mark,
            remoteness_after: ra,
            gaps_after: t.gap_list(),
        });
    }
    let winning: Vec<u32> = moves
        .iter()
        .filter(|m| m.mark == MoveMark::Winning)
        .map(|m| m.number)
        .collect();
    if winning != report.winning_moves {
        refuse(format!(
            "Refused: the finishing search's winning moves ({}) are not the moves the remoteness says win ({}).",
            list(&report.winning_moves),
            list(&winning)
        ));
    }
    if report.remoteness != r || (report.outcome == Outcome::Win) != won {
        refuse(format!(
            "Refused: the finishing search says {}, the remoteness is {r}.",
            report.outcome
        ));
    }
    // The line: the winner hurries, the loser delays.
    let mut line = Vec::new();
    let mut cur = s;
    let mut first = true;
    while line.len() < 200 {
        let rc = rem.remoteness(cur);
        if rc == 0 {
            break;
        }
        let next = if rc % 2 == 1 {
            rem.best_move(cur).1
        } else {
            let mut best: Option<(u32, u32)> = None;
            for x in Order::Increasing.moves(cur) {
                let ra = rem.remoteness(cur.adjoin(x));
                if best.is_none_or(|(_, b)| ra > b) {
                    best = Some((x, ra));
                }
            }
            best.map(|b| b.0)
        };
        let Some(x) = next else { break };
        cur = cur.adjoin(x);
        line.push(LineStep {
            player: if first { "first" } else { "second" },
            number: x,
            gaps_after: cur.gaps_string(),
        });
        first = !first;
    }
    let analysis = Analysis {
        gaps: s.gap_list(),
        generators: s.minimal_generators(),
        genus: s.genus(),
        frobenius: s.frobenius(),
        irreducible: s.is_irreducible(),
        remoteness: r,
        won,
        moves,
        line,
        refusal,
    };
    Ok((analysis, report))
}

fn list(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

/// The position page; `typed` is the generators as the visitor typed them
/// (kept in the form), if the position was asked by generators.
fn render_position(a: &Analysis, typed: Option<&str>) -> String {
    let mut b = String::new();
    let gaps = list(&a.gaps);
    let generators = typed.map_or_else(|| list(&a.generators), str::to_string);
    let _ = write!(
        b,
        "<h1>Sylver Coinage position</h1>{}\
<div class=\"card\"><dl class=\"kv\"><dt>gaps</dt><dd class=\"mono\" id=\"gaps\">{}</dd><dt>generators</dt><dd class=\"mono\">⟨{}⟩</dd>\
<dt>genus</dt><dd>{}</dd><dt>Frobenius number</dt><dd>{}</dd><dt>irreducible</dt><dd>{}</dd>\
<dt>remoteness</dt><dd id=\"remoteness\">{}</dd><dt>verdict</dt><dd id=\"verdict\">{}</dd></dl></div>",
        form(&gaps, &generators),
        escape(&gaps),
        list(&a.generators),
        a.genus,
        a.frobenius.map(|f| f.to_string()).unwrap_or_else(|| "—".into()),
        if a.irreducible { "yes (gaps pair off around the largest)" } else { "no" },
        a.remoteness,
        if a.won {
            format!("won for the player to move, in {} moves", a.remoteness)
        } else if a.remoteness == 0 {
            "lost: the only number left is 1".to_string()
        } else {
            format!("lost for the player to move, who can delay {} moves", a.remoteness)
        }
    );
    if let Some(why) = &a.refusal {
        let _ = write!(b, "<p class=\"refused\" id=\"refusal\">{}</p>", escape(why));
        return b;
    }
    let max = a.gaps.last().copied().unwrap_or(1);
    let mark_of = |n: u32| -> Mark {
        if n == 1 && a.gaps.contains(&1) {
            return Mark::Plain;
        }
        match a.moves.iter().find(|m| m.number == n) {
            Some(m) => match m.mark {
                MoveMark::Struck => Mark::Struck,
                MoveMark::Survivor => Mark::Survivor,
                MoveMark::Winning => Mark::Winning,
            },
            None => Mark::Taken,
        }
    };
    let struck = a
        .moves
        .iter()
        .filter(|m| m.mark == MoveMark::Struck)
        .count();
    let winning = a
        .moves
        .iter()
        .filter(|m| m.mark == MoveMark::Winning)
        .count();
    let _ = write!(
        b,
        "<h2>The moves</h2><div class=\"card\" id=\"numberline\">{}\
<p class=\"muted\"><span style=\"color:#16a34a\">●</span> winning · <span style=\"color:#2563eb\">●</span> survivor · \
<span style=\"color:#a4161a\">✕</span> struck by the pairing test · ○ 1 (naming it loses) · small dots are not gaps. \
{} moves: {struck} struck, {} survivors of which {winning} win.</p></div>",
        number_line(max, mark_of),
        a.moves.len(),
        a.moves.len() - struck
    );
    b.push_str("<table class=\"sortable\" id=\"moves\"><thead><tr><th class=\"num\">name</th><th>mark</th><th class=\"num\">remoteness after</th><th>position reached</th></tr></thead><tbody>");
    for m in &a.moves {
        let label = match m.mark {
            MoveMark::Struck => "<span style=\"color:#a4161a\">struck</span>",
            MoveMark::Survivor => "survivor",
            MoveMark::Winning => "<span class=\"ok\">winning</span>",
        };
        let q = list(&m.gaps_after);
        let _ = write!(
            b,
            "<tr><td class=\"num\">{}</td><td>{label}</td><td class=\"num\">{}</td><td><a class=\"mono\" href=\"/sylver/position?gaps={}\">{}</a></td></tr>",
            m.number,
            m.remoteness_after,
            url_encode(&q),
            escape(&q)
        );
    }
    b.push_str("</tbody></table>");
    if !a.line.is_empty() {
        b.push_str("<h2>A line of best play</h2><p class=\"muted\">The winner hurries (the quickest win), the loser delays (the longest loss); it ends when the player to move has only 1 left to name.</p><table id=\"line\"><thead><tr><th class=\"num\">move</th><th>player</th><th class=\"num\">names</th><th>gaps left</th></tr></thead><tbody>");
        for (i, st) in a.line.iter().enumerate() {
            let _ = write!(
                b,
                "<tr><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"mono\">{}</td></tr>",
                i + 1,
                st.player,
                st.number,
                escape(&st.gaps_after)
            );
        }
        let loser = if a.line.len().is_multiple_of(2) {
            "first"
        } else {
            "second"
        };
        let _ = write!(
            b,
            "</tbody></table><p>Then the {loser} player must name 1 and loses.</p>"
        );
    }
    let _ = write!(
        b,
        "<p class=\"muted\">JSON: <a href=\"/api/sylver/play?gaps={}\">/api/sylver/play</a></p>",
        url_encode(&gaps)
    );
    b
}

fn form(gaps: &str, generators: &str) -> String {
    format!(
        "<form class=\"inline\" method=\"get\" action=\"/sylver/position\"><label>Gaps <input type=\"text\" name=\"gaps\" value=\"{}\"></label><button type=\"submit\">Play</button></form>\
<form class=\"inline\" method=\"get\" action=\"/sylver/position\"><label>or generators <input type=\"text\" name=\"generators\" id=\"generators\" value=\"{}\" placeholder=\"5,7\"></label><button type=\"submit\">Play</button></form>",
        escape(gaps),
        escape(generators)
    )
}

async fn compute(
    state: &AppState,
    m: &std::collections::HashMap<String, String>,
) -> Result<(Analysis, PlayReport), WebError> {
    let s = position(m, state.limits().max_sylver_gaps)?;
    state.heavy(move |b| analyse(s, b)).await
}

/// `GET /sylver/position?gaps=...` or `?generators=...`.
pub(crate) async fn position_page(State(state): State<AppState>, p: Params) -> Response {
    let m = match params(p) {
        Ok(m) => m,
        Err(e) => return PageError(e).into_response(),
    };
    let typed = m
        .get("generators")
        .map(|g| g.trim())
        .filter(|g| !g.is_empty());
    match compute(&state, &m).await {
        Ok((a, _)) => Html(page(
            "Sylver Coinage position",
            "sylver",
            &render_position(&a, typed),
        ))
        .into_response(),
        // Bad input: the form again, with what was typed and the problem.
        Err(e) if e.status() == axum::http::StatusCode::BAD_REQUEST => {
            let gaps = m.get("gaps").map_or("", |g| g.trim());
            let body = format!(
                "<h1>Sylver Coinage position</h1>{}<p class=\"error\" id=\"error\">{}</p>",
                form(gaps, typed.unwrap_or("")),
                escape(&e.to_string())
            );
            (
                axum::http::StatusCode::BAD_REQUEST,
                Html(page("Sylver Coinage position", "sylver", &body)),
            )
                .into_response()
        }
        Err(e) => PageError(e).into_response(),
    }
}

/// `GET /api/sylver/play?gaps=...` or `?generators=...`: what `partizan
/// sylver play --json` prints.
pub(crate) async fn play_api(
    State(state): State<AppState>,
    p: Params,
) -> Result<Response, ApiError> {
    let m = params(p)?;
    let (a, report) = compute(&state, &m).await?;
    if let Some(why) = a.refusal {
        return Err(WebError::IdentityFailed(why).into());
    }
    let text = crate::report::cli_text(&report)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}

/// Run the census of irreducible positions (blocking).
pub(crate) fn census_of(max_gaps: u32, budget: &Budget) -> Result<SylverCensus, WebError> {
    budget.check()?;
    census(max_gaps, Order::Increasing).map_err(|e| match e {
        SemigroupError::InvariantFailed { .. } => {
            WebError::IdentityFailed(format!("The census refuses to report: {e}"))
        }
        other => WebError::param("max_gaps", other.to_string()),
    })
}

async fn cached_census(
    state: &AppState,
    max_gaps: u32,
) -> Result<std::sync::Arc<SylverCensus>, WebError> {
    let s = state.clone();
    state
        .cache()
        .sylver
        .get_or_compute(max_gaps, async move {
            s.heavy(move |b| census_of(max_gaps, b))
                .await
                .map(std::sync::Arc::new)
        })
        .await
}

fn gaps_param(
    state: &AppState,
    m: &std::collections::HashMap<String, String>,
) -> Result<u32, WebError> {
    let max = state.limits().max_sylver_census_gaps;
    let g = number_param(m, "max_gaps", 16u32.min(max), max)?;
    if g < 2 {
        return Err(WebError::param("max_gaps", "must be at least 2"));
    }
    Ok(g)
}

/// `GET /api/sylver/census?max_gaps=G`: the census report as JSON.
pub(crate) async fn census_api(
    State(state): State<AppState>,
    p: Params,
) -> Result<Response, ApiError> {
    let m = params(p)?;
    let g = gaps_param(&state, &m)?;
    let c = cached_census(&state, g).await?;
    let text = crate::report::cli_text(&*c)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}

fn summary_row(s: &CensusSummary) -> String {
    format!(
        "<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:.0}</td><td class=\"num\">{:.2}</td><td class=\"num\">{:.2}</td><td class=\"num\">{:.2}</td><td class=\"num\">{:.2}</td><td class=\"num\">{}</td><td class=\"num\">{:.1}%</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:.2}</td></tr>",
        escape(&s.label),
        s.positions,
        s.finishing_median_closures,
        s.fresh.median_ratio,
        s.kept.median_ratio,
        s.two_sided.median_ratio,
        s.told.median_ratio,
        s.told.cheaper_than_finishing,
        100.0 * s.share_within_three,
        s.median_depth,
        s.deepest,
        s.told_evaluations_per_position
    )
}

const SUMMARY_HEAD: &str = "<thead><tr><th class=\"num\">gaps</th><th class=\"num\">positions</th><th class=\"num\">finishing search, median closures</th><th class=\"num\">fresh proof ×</th><th class=\"num\">kept ×</th><th class=\"num\">two-sided ×</th><th class=\"num\">told ×</th><th class=\"num\">told cheaper</th><th class=\"num\">proved within 3</th><th class=\"num\">median depth</th><th class=\"num\">deepest</th><th class=\"num\">told evaluations per position</th></tr></thead>";

fn render_census(c: &SylverCensus, limit: u32) -> String {
    let mut b = String::new();
    let _ = write!(
        b,
        "<h2>The census of irreducible positions</h2>\
<p>Every position with 2 to {g} gaps whose gaps pair off around the largest, run through the finishing search (memoised, skipping struck moves, stopping at the first win) \
and four proofs by deepening over survivors: <em>fresh</em> (a new table at each depth), <em>kept</em> (one table across depths), <em>two-sided</em> (the opponent's positions kept too) \
and <em>told</em> (handed the right depth). Costs are closures, one per move examined; the proofs' columns are the median of (proof closures ÷ finishing closures). \
Every proof's move is checked against the finishing search; a failed check refuses the report.</p><p class=\"filters\">Up to ",
        g = c.max_gaps
    );
    for n in (8..=limit).step_by(2) {
        let class = if n == c.max_gaps { " class=\"on\"" } else { "" };
        let _ = write!(b, "<a{class} href=\"/sylver?max_gaps={n}\">{n}</a>");
    }
    let _ = write!(
        b,
        " gaps · JSON: <a href=\"/api/sylver/census?max_gaps={g}\">/api/sylver/census?max_gaps={g}</a></p>",
        g = c.max_gaps
    );
    let by: Vec<&CensusSummary> = c.by_genus.iter().filter(|s| s.positions > 0).collect();
    let pts = |f: &dyn Fn(&CensusSummary) -> f64| -> Vec<(f64, f64)> {
        by.iter().map(|s| (f64::from(s.max_gaps), f(s))).collect()
    };
    let ratios = LinePlot {
        title: "Median cost against the finishing search".into(),
        x_label: "gaps".into(),
        y_label: "× finishing search".into(),
        series: vec![
            Series {
                name: "fresh".into(),
                colour: "#dc2626".into(),
                points: pts(&|s| s.fresh.median_ratio),
            },
            Series {
                name: "kept".into(),
                colour: "#d97706".into(),
                points: pts(&|s| s.kept.median_ratio),
            },
            Series {
                name: "two-sided".into(),
                colour: "#2563eb".into(),
                points: pts(&|s| s.two_sided.median_ratio),
            },
            Series {
                name: "told".into(),
                colour: "#16a34a".into(),
                points: pts(&|s| s.told.median_ratio),
            },
        ],
        log_y: false,
        y_range: None,
        y_percent: false,
    };
    let depth = LinePlot {
        title: "How deep the proofs go".into(),
        x_label: "gaps".into(),
        y_label: "moves".into(),
        series: vec![
            Series {
                name: "median depth".into(),
                colour: "#2563eb".into(),
                points: pts(&|s| s.median_depth),
            },
            Series {
                name: "deepest".into(),
                colour: "#9333ea".into(),
                points: pts(&|s| f64::from(s.deepest)),
            },
        ],
        log_y: false,
        y_range: None,
        y_percent: false,
    };
    let within = LinePlot {
        title: "Proved within three moves".into(),
        x_label: "gaps".into(),
        y_label: "share".into(),
        series: vec![Series {
            name: "share".into(),
            colour: "#16a34a".into(),
            points: pts(&|s| s.share_within_three),
        }],
        log_y: false,
        y_range: Some((0.0, 1.0)),
        y_percent: true,
    };
    let _ = write!(
        b,
        "<div class=\"row\"><div class=\"card\" id=\"plot-ratios\">{}</div><div class=\"card\">{}</div><div class=\"card\">{}</div></div>",
        super::figure("svg-ratios", ratios.render_both(500.0, 320.0)),
        super::figure("svg-depth", depth.render_both(500.0, 320.0)),
        super::figure("svg-within", within.render_both(500.0, 320.0))
    );
    let _ = write!(b, "<h3>By band</h3><div class=\"scroll\"><table class=\"sortable\" id=\"bands\">{SUMMARY_HEAD}<tbody>");
    for s in &c.bands {
        b.push_str(&summary_row(s));
    }
    let _ = write!(
        b,
        "</tbody><tfoot>{}</tfoot></table></div>",
        summary_row(&c.totals)
    );
    let _ = write!(b, "<h3>By number of gaps</h3><div class=\"scroll\"><table class=\"sortable\" id=\"by-genus\">{SUMMARY_HEAD}<tbody>");
    for s in by {
        b.push_str(&summary_row(s));
    }
    b.push_str("</tbody></table></div>");
    if !c.told_cheaper.is_empty() {
        b.push_str("<h3>Where the told proof is cheaper than the finishing search</h3><table class=\"sortable\"><thead><tr><th>gaps</th><th class=\"num\">genus</th><th class=\"num\">winning move</th><th class=\"num\">told depth</th><th class=\"num\">told closures</th><th class=\"num\">finishing closures</th></tr></thead><tbody>");
        for r in &c.told_cheaper {
            let g = r.position.gaps_string();
            let _ = write!(
                b,
                "<tr><td><a class=\"mono\" href=\"/sylver/position?gaps={}\">{}</a></td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                url_encode(&g),
                escape(&g),
                r.genus,
                r.finishing_move,
                r.told.depth,
                r.told.counts.closures,
                r.finishing.closures
            );
        }
        b.push_str("</tbody></table>");
    }
    b
}

/// `GET /sylver?max_gaps=G`.
pub(crate) async fn index(
    State(state): State<AppState>,
    p: Params,
) -> Result<Html<String>, PageError> {
    let m = params(p)?;
    let g = gaps_param(&state, &m)?;
    let c = cached_census(&state, g).await?;
    let mut b = String::new();
    let _ = write!(
        b,
        "<h1>Sylver Coinage</h1>\
<p>Players name positive integers in turn; a number that is a sum of numbers already named may not be named, and whoever names 1 loses. \
A position is a numerical semigroup and its gaps are the numbers still available. The <em>pairing test</em> strikes a move into a position whose gaps pair off around the largest \
(an irreducible semigroup other than ⟨2,3⟩): such a position is won for the player who moves next. A move the test does not strike is a <em>survivor</em>.</p>\
{}<p>Positions of up to {} gaps. Try <a href=\"/sylver/position?gaps=1,2,3,4,5,6,7,8,10,11,13,14,16,19,28\">the fifteen-gap position</a> from <em>A different question at every depth</em>, \
or <a href=\"/sylver/position?generators=5,7\">⟨5,7⟩</a>, or <a href=\"/sylver/position?generators=4,6,9\">⟨4,6,9⟩</a>.</p>{}",
        form("", ""),
        state.limits().max_sylver_gaps,
        render_census(&c, state.limits().max_sylver_census_gaps)
    );
    Ok(Html(page("Sylver Coinage", "sylver", &b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_essays_fifteen_gap_position() {
        let s = Semigroup::parse_gaps("1,2,3,4,5,6,7,8,10,11,13,14,16,19,28").unwrap();
        let (a, report) = analyse(s, &Budget::unlimited()).unwrap();
        assert!(a.refusal.is_none());
        assert_eq!(report.remoteness, a.remoteness);
        assert!(a.won);
        assert_eq!(a.remoteness % 2, 1);
        assert_eq!(a.line.len() as u32, a.remoteness);
        assert!(a.moves.iter().any(|m| m.mark == MoveMark::Winning));
        let html = render_position(&a, None);
        assert!(html.contains("id=\"numberline\""));
    }

    #[test]
    fn small_census_renders() {
        let c = census_of(10, &Budget::unlimited()).unwrap();
        let html = render_census(&c, 20);
        assert!(html.contains("id=\"by-genus\""));
        assert!(html.contains("id=\"plot-ratios\""));
    }

    #[test]
    fn lost_position_has_no_winning_move() {
        // <2,3>: only 1 is left.
        let s = Semigroup::parse_generators("2,3").unwrap();
        let (a, _) = analyse(s, &Budget::unlimited()).unwrap();
        assert!(!a.won && a.remoteness == 0 && a.moves.is_empty() && a.line.is_empty());
    }
}
