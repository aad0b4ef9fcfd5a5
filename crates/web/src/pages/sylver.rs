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
use partizan_semigroup::sylver::finish::FinishingSearch;
use partizan_semigroup::sylver::pairing::strikes;
use partizan_semigroup::sylver::remoteness::Remoteness;
use partizan_semigroup::sylver::Order;
use partizan_semigroup::Semigroup;
use serde::Serialize;
use serde_json::json;

use super::{params, Params};
use crate::error::{ApiError, PageError, WebError};
use crate::html::{escape, page, url_encode};
use crate::limits::Budget;
use crate::svg::{number_line, Mark};
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
pub(crate) fn position(m: &std::collections::HashMap<String, String>, max_gaps: usize) -> Result<Semigroup, WebError> {
    let gaps = m.get("gaps").map(|s| s.trim()).filter(|s| !s.is_empty());
    let gens = m.get("generators").map(|s| s.trim()).filter(|s| !s.is_empty());
    let s = match (gaps, gens) {
        (Some(g), None) => Semigroup::parse_gaps(g).map_err(|e| WebError::param("gaps", e.to_string()))?,
        (None, Some(g)) => {
            Semigroup::parse_generators(g).map_err(|e| WebError::param("generators", e.to_string()))?
        }
        (Some(_), Some(_)) => {
            return Err(WebError::param("gaps", "give gaps or generators, not both"))
        }
        (None, None) => return Err(WebError::param("gaps", "missing (or give generators)")),
    };
    if s.genus() as usize > max_gaps {
        return Err(WebError::param(
            "gaps",
            format!("the position has {} gaps; this site plays positions of at most {max_gaps}", s.genus()),
        ));
    }
    Ok(s)
}

/// Analyse a position (blocking; bounded by the gap cap).
pub(crate) fn analyse(s: Semigroup, budget: &Budget) -> Result<Analysis, WebError> {
    budget.check()?;
    let mut rem = Remoteness::new();
    let r = rem.remoteness(s);
    let won = r % 2 == 1;
    let mut refusal = None;
    let mut moves = Vec::new();
    for x in Order::Increasing.moves(s) {
        let t = s.adjoin(x);
        let ra = rem.remoteness(t);
        let mark = if strikes(s, x) {
            if ra % 2 == 0 && refusal.is_none() {
                refusal = Some(format!(
                    "Refused: the pairing test strikes {x}, but the position it reaches (gaps {}) has remoteness {ra}, lost for the player to move; the test's theorem fails here.",
                    t.gaps_string()
                ));
            }
            MoveMark::Struck
        } else if ra % 2 == 0 {
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
    budget.check()?;
    let mut finish = FinishingSearch::new(Order::Increasing);
    let verdict = finish.wins(s);
    if verdict != won && refusal.is_none() {
        refusal = Some(format!(
            "Refused: the finishing search says the position is {}, the remoteness {r} says {}.",
            if verdict { "won" } else { "lost" },
            if won { "won" } else { "lost" }
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
    Ok(Analysis {
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
    })
}

fn list(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

fn render_position(a: &Analysis) -> String {
    let mut b = String::new();
    let gaps = list(&a.gaps);
    let _ = write!(
        b,
        "<h1>Sylver Coinage position</h1>{}\
<div class=\"card\"><dl class=\"kv\"><dt>gaps</dt><dd class=\"mono\" id=\"gaps\">{}</dd><dt>generators</dt><dd class=\"mono\">⟨{}⟩</dd>\
<dt>genus</dt><dd>{}</dd><dt>Frobenius number</dt><dd>{}</dd><dt>irreducible</dt><dd>{}</dd>\
<dt>remoteness</dt><dd id=\"remoteness\">{}</dd><dt>verdict</dt><dd id=\"verdict\">{}</dd></dl></div>",
        form(&gaps),
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
    let struck = a.moves.iter().filter(|m| m.mark == MoveMark::Struck).count();
    let winning = a.moves.iter().filter(|m| m.mark == MoveMark::Winning).count();
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
        let loser = if a.line.len() % 2 == 0 { "first" } else { "second" };
        let _ = write!(b, "</tbody></table><p>Then the {loser} player must name 1 and loses.</p>");
    }
    let _ = write!(b, "<p class=\"muted\">JSON: <a href=\"/api/sylver/play?gaps={}\">/api/sylver/play</a></p>", url_encode(&gaps));
    b
}

fn form(gaps: &str) -> String {
    format!(
        "<form class=\"inline\" method=\"get\" action=\"/sylver/position\"><label>Gaps <input type=\"text\" name=\"gaps\" value=\"{}\"></label><button type=\"submit\">Play</button></form>\
<form class=\"inline\" method=\"get\" action=\"/sylver/position\"><label>or generators <input type=\"text\" name=\"generators\" value=\"\" placeholder=\"5,7\"></label><button type=\"submit\">Play</button></form>",
        escape(gaps)
    )
}

async fn compute(state: &AppState, m: &std::collections::HashMap<String, String>) -> Result<Analysis, WebError> {
    let s = position(m, state.limits().max_sylver_gaps)?;
    state.heavy(move |b| analyse(s, b)).await
}

/// `GET /sylver/position?gaps=...` or `?generators=...`.
pub(crate) async fn position_page(State(state): State<AppState>, p: Params) -> Result<Html<String>, PageError> {
    let m = params(p)?;
    let a = compute(&state, &m).await?;
    Ok(Html(page("Sylver Coinage position", "sylver", &render_position(&a))))
}

/// `GET /api/sylver/play?gaps=...` or `?generators=...`.
pub(crate) async fn play_api(State(state): State<AppState>, p: Params) -> Result<Response, ApiError> {
    let m = params(p)?;
    let a = compute(&state, &m).await?;
    let v = json!(a);
    let text = crate::report::cli_text(&v)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}

/// `GET /sylver`.
pub(crate) async fn index(State(state): State<AppState>) -> Html<String> {
    let mut b = String::new();
    let _ = write!(
        b,
        "<h1>Sylver Coinage</h1>\
<p>Players name positive integers in turn; a number that is a sum of numbers already named may not be named, and whoever names 1 loses. \
A position is a numerical semigroup and its gaps are the numbers still available. The <em>pairing test</em> strikes a move into a position whose gaps pair off around the largest \
(an irreducible semigroup other than ⟨2,3⟩): such a position is won for the player who moves next. A move the test does not strike is a <em>survivor</em>.</p>\
{}<p>Positions of up to {} gaps. Try <a href=\"/sylver/position?gaps=1,2,3,4,5,6,7,8,10,11,13,14,16,19,28\">the fifteen-gap position</a> from <em>A different question at every depth</em>, \
or <a href=\"/sylver/position?generators=5,7\">⟨5,7⟩</a>, or <a href=\"/sylver/position?generators=4,6,9\">⟨4,6,9⟩</a>.</p>",
        form(""),
        state.limits().max_sylver_gaps
    );
    Html(page("Sylver Coinage", "sylver", &b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_essays_fifteen_gap_position() {
        let s = Semigroup::parse_gaps("1,2,3,4,5,6,7,8,10,11,13,14,16,19,28").unwrap();
        let a = analyse(s, &Budget::unlimited()).unwrap();
        assert!(a.refusal.is_none());
        assert!(a.won);
        assert_eq!(a.remoteness % 2, 1);
        assert_eq!(a.line.len() as u32, a.remoteness);
        assert!(a.moves.iter().any(|m| m.mark == MoveMark::Winning));
        let html = render_position(&a);
        assert!(html.contains("id=\"numberline\""));
    }

    #[test]
    fn lost_position_has_no_winning_move() {
        // <2,3>: only 1 is left.
        let s = Semigroup::parse_generators("2,3").unwrap();
        let a = analyse(s, &Budget::unlimited()).unwrap();
        assert!(!a.won && a.remoteness == 0 && a.moves.is_empty() && a.line.is_empty());
    }
}
