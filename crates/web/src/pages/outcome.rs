//! Who wins a board too large to value: the outcome search
//! (`partizan_solve::search`) under a budget of time, nodes and table
//! memory. A search that runs out of budget answers "unknown within the
//! budget" and says which limit it met; it never guesses.
//!
//! `/outcome` is the page, `/api/outcome` the JSON: the report layer's
//! [`partizan_report::OutcomeReport`] (the field names of `partizan outcome
//! --json`) with `"decided": true`, or `"decided": false` with the reason.
//!
//! On a site with a store (`partizan serve` on the embedded store) a board
//! solved before is answered from its stored outcome without a heavy-work
//! slot (`"from_store": true`, 0 nodes), and a decided search is saved
//! there unless the store is read-only; both go through the report layer's
//! [`partizan_report::outcome_through_store`], which never believes a
//! damaged or implausible row (it is searched again, with a warning).
//!
//! `first=left|right` (the form's "First player") searches one first
//! player only: about half the work, no outcome class (`"outcome": null`),
//! and never stored.
//!
//! `rectangles=2-6x2-6` instead of a board: a table over the ruleset's
//! rectangles (at most [`MAX_SITE_RECTANGLES`]), every board searched as
//! one would be, in one heavy-work slot under the request's time budget
//! (the node budget is each board's); the JSON is the report layer's
//! [`RectangleTable`] (`partizan outcome --rectangles --json`'s fields)
//! with the budget, the page a grid linking each answer to its board.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use partizan_games::Board;
use partizan_report::{
    judge_first_moves, move_text, outcome_through_store, stored_outcome, OutcomeReport,
    OutcomeStore, RectangleCell, RectangleSpec, RectangleTable, StoredAnswer, Undecided,
};
use partizan_solve::outcome::Convention;
use partizan_solve::search::{solve, Control, First, Progress, SearchConfig, SearchError};
use partizan_store::Store;
use serde::Serialize;

use super::{number_param, params, Params};
use crate::error::{ApiError, PageError, WebError};
use crate::html::{escape, explore_href, page, thousands};
use crate::limits::Budget;
use crate::rules::{self, MAX_BOARD_TEXT};
use crate::AppState;

/// Default node budget of one search.
pub const DEFAULT_NODES: u64 = 20_000_000;
/// Largest node budget a request may ask for.
pub const MAX_NODES: u64 = 200_000_000;
/// Default transposition table, MB.
pub const DEFAULT_TABLE_MB: usize = 16;
/// Largest table a request may ask for, MB (the memory cap: the table is
/// the search's one large allocation).
pub const MAX_TABLE_MB: usize = 128;

/// The budget a search ran under.
#[derive(Debug, Clone, Copy, Serialize)]
pub(crate) struct SearchBudget {
    /// Time, milliseconds.
    pub time_ms: u64,
    /// Nodes.
    pub max_nodes: u64,
    /// Table memory, MB.
    pub table_mb: usize,
}

/// What `/api/outcome` answers.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(crate) enum Answer {
    /// The search finished: who wins.
    Decided {
        /// Always true.
        decided: bool,
        /// The report.
        #[serde(flatten)]
        report: Box<OutcomeReport>,
        /// The budget it ran under.
        budget: SearchBudget,
    },
    /// The search ran out of budget: nothing is claimed.
    Unknown {
        /// What stopped it (`"decided": false`, `"outcome": null`, the
        /// reason and the nodes), as `partizan outcome --json` prints it.
        #[serde(flatten)]
        undecided: Undecided,
        /// The budget it ran under.
        budget: SearchBudget,
    },
}

/// What a request asks of the search.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ask {
    /// Normal or misère play.
    pub convention: Convention,
    /// Which first players.
    pub first: First,
    /// Also the nimber (`nimber=1`: impartial rulesets, normal play).
    pub nimber: bool,
    /// Also judge every first move (`moves=1`).
    pub moves: bool,
}

struct Request {
    /// A table over these rectangles instead of one board.
    rectangles: Option<RectangleSpec>,
    ruleset: &'static str,
    text: String,
    ask: Ask,
    budget: SearchBudget,
}

/// A checkbox parameter: absent, empty, `0` or `false` is off; `1`,
/// `true` or `on` (what a browser sends) is on; anything else an error.
fn flag(m: &HashMap<String, String>, name: &'static str) -> Result<bool, WebError> {
    match m.get(name).map(|s| s.trim()).unwrap_or("") {
        "" | "0" | "false" => Ok(false),
        "1" | "true" | "on" => Ok(true),
        _ => Err(WebError::param(name, "expected 1 or 0")),
    }
}

fn request(m: &HashMap<String, String>, state: &AppState) -> Result<Request, WebError> {
    let ruleset = rules::canonical(super::required(m, "ruleset")?)?;
    let rectangles = match m.get("rectangles").map(|s| s.trim()) {
        None | Some("") => None,
        Some(t) => {
            let spec: RectangleSpec = t.parse().map_err(|e| WebError::param("rectangles", e))?;
            if spec.len() > MAX_SITE_RECTANGLES {
                return Err(WebError::param(
                    "rectangles",
                    format!(
                        "{} boards; at most {MAX_SITE_RECTANGLES} on the site (partizan outcome --rectangles has no such limit)",
                        spec.len()
                    ),
                ));
            }
            Some(spec)
        }
    };
    let text = if rectangles.is_some() {
        String::new()
    } else {
        super::required(m, "board")?.to_string()
    };
    if text.chars().count() > MAX_BOARD_TEXT {
        return Err(WebError::param(
            "board",
            format!("board text over {MAX_BOARD_TEXT} characters"),
        ));
    }
    let convention = match m.get("play").map(|s| s.trim()).unwrap_or("normal") {
        "" | "normal" => Convention::Normal,
        "misere" | "misère" => Convention::Misere,
        _ => return Err(WebError::param("play", "expected normal or misere")),
    };
    let first = match m.get("first").map(|s| s.trim()).unwrap_or("both") {
        "" => First::Both,
        f => f
            .parse::<First>()
            .map_err(|_| WebError::param("first", "expected left, right or both"))?,
    };
    let nimber = flag(m, "nimber")?;
    let moves = flag(m, "moves")?;
    if moves && rectangles.is_some() {
        return Err(WebError::param(
            "moves",
            "first moves are judged on one board, not a table over rectangles",
        ));
    }
    if nimber {
        let why = crate::with_ruleset!(ruleset, |r| Ok::<_, WebError>(
            partizan_report::nimber_refusal(r, convention)
        ))?;
        if let Some(why) = why {
            return Err(WebError::param("nimber", why));
        }
    }
    let max_nodes = number_param(m, "max_nodes", DEFAULT_NODES, MAX_NODES)?;
    let table_mb = number_param(m, "table_mb", DEFAULT_TABLE_MB, MAX_TABLE_MB)?;
    if max_nodes == 0 || table_mb == 0 {
        return Err(WebError::param(
            if max_nodes == 0 {
                "max_nodes"
            } else {
                "table_mb"
            },
            "must be at least 1",
        ));
    }
    Ok(Request {
        rectangles,
        ruleset,
        text,
        ask: Ask {
            convention,
            first,
            nimber,
            moves,
        },
        budget: SearchBudget {
            time_ms: state.limits().budget.as_millis() as u64,
            max_nodes,
            table_mb,
        },
    })
}

/// The search configuration of a request (one thread: the site shares
/// the machine).
fn config<R: partizan_solve::search::Knowledge>(
    r: &R,
    ask: Ask,
    limits: SearchBudget,
) -> SearchConfig {
    let mut cfg = SearchConfig::for_ruleset(r, ask.convention);
    cfg.first = ask.first;
    cfg.nimber = ask.nimber;
    cfg.threads = 1;
    cfg.max_nodes = Some(limits.max_nodes);
    cfg.table_bytes = limits.table_mb << 20;
    cfg
}

/// The stored outcome of `board`, if the store holds a valid one (a
/// rejected row is left to the heavy path, which searches it again; an
/// ask for a nimber is a miss: [`stored_outcome`]).
fn from_store<R: partizan_solve::search::Knowledge>(
    r: &R,
    board: &Board,
    ask: Ask,
    limits: SearchBudget,
    store: &Store,
) -> Option<Answer> {
    let cfg = config(r, ask, limits);
    match stored_outcome(r, board, &cfg, store) {
        StoredAnswer::Hit(rep) => {
            let mut out = OutcomeReport::of(r, board, &rep);
            out.from_store = true;
            Some(Answer::Decided {
                decided: true,
                report: Box::new(out),
                budget: limits,
            })
        }
        StoredAnswer::Miss | StoredAnswer::Rejected(_) => None,
    }
}

/// Search `board` under the budget (through `store`: answered from it when
/// it holds the board, saved in it when decided): decided, or unknown with
/// the reason.
pub(crate) fn search<R: partizan_solve::search::Knowledge>(
    r: &R,
    board: &Board,
    ask: Ask,
    limits: SearchBudget,
    budget: &Budget,
    store: OutcomeStore<'_>,
) -> Result<Answer, WebError> {
    let cfg = config(r, ask, limits);
    let convention = ask.convention;
    let stop = AtomicBool::new(false);
    // Leave the handler time to answer before its own deadline.
    let deadline = budget.reserve(Duration::from_millis(200));
    let progress = |_: &Progress| {
        if deadline.expired() {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let control = Control {
        stop: Some(&stop),
        progress: Some(&progress),
        interval: Duration::from_millis(50),
    };
    let unknown = |reason: String, nodes: u64| Answer::Unknown {
        undecided: Undecided::new(r, board, convention, reason, nodes),
        budget: limits,
    };
    match outcome_through_store(r, board, &cfg, store, || solve(r, board, &cfg, &control)) {
        Ok(mut rep) => {
            if ask.moves {
                // The outcome stands whatever the judgement of the first
                // moves comes to; a judgement cut short is left out.
                match judge_first_moves(r, board, &cfg, &control, &mut |_, _, _| {}) {
                    Ok(fm) => rep.first_moves = Some(fm),
                    Err(SearchError::Budget(_) | SearchError::Stopped { .. }) => rep.warnings.push(
                        "the first moves were not all judged within the budget (partizan outcome --moves has none)".to_string(),
                    ),
                    Err(e) => return Err(WebError::Internal(e.to_string())),
                }
            }
            Ok(Answer::Decided {
                decided: true,
                report: Box::new(rep),
                budget: limits,
            })
        }
        Err(SearchError::Budget(n)) => Ok(unknown(
            format!("unknown within the budget: the node budget of {n} nodes ran out"),
            n,
        )),
        Err(SearchError::Stopped { nodes }) => Ok(unknown(
            format!(
                "unknown within the budget: the time budget of {} ms ran out",
                limits.time_ms
            ),
            nodes,
        )),
        Err(SearchError::Solve(partizan_solve::SolveError::Stopped)) => Ok(unknown(
            format!(
                "unknown within the budget: the time budget of {} ms ran out",
                limits.time_ms
            ),
            0,
        )),
        Err(e) => Err(WebError::Internal(e.to_string())),
    }
}

/// Most boards one table over rectangles may ask for on the site.
pub const MAX_SITE_RECTANGLES: usize = 64;

/// A table over rectangles as the site answers it: the report layer's
/// [`RectangleTable`] (the fields of `partizan outcome --rectangles
/// --json`) and the budget its boards shared.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct TableAnswer {
    #[serde(flatten)]
    table: RectangleTable,
    /// The budget: the time is the whole table's, the nodes each board's.
    budget: SearchBudget,
}

/// Search every rectangle of `spec` in one heavy-work slot, each board
/// through the store under the request's node budget, all under its time
/// budget: a board the budget stopped is a `?` with the reason.
async fn compute_table(
    state: &AppState,
    req: Request,
    spec: RectangleSpec,
) -> Result<TableAnswer, WebError> {
    let boards =
        crate::with_ruleset!(req.ruleset, |r| partizan_report::rectangle_boards(r, &spec)
            .map_err(|e| WebError::param("rectangles", e)))?;
    let (ruleset, ask, limits) = (req.ruleset, req.ask, req.budget);
    let store = state.store_handle();
    state
        .heavy(move |budget| {
            crate::with_ruleset!(ruleset, |r| {
                let mut table = RectangleTable::new(r.name(), ask.convention, spec);
                for (rows, cols, b) in &boards {
                    let started = std::time::Instant::now();
                    let through = store
                        .as_ref()
                        .map_or(OutcomeStore::none(), OutcomeStore::of);
                    table
                        .cells
                        .push(match search(r, b, ask, limits, budget, through)? {
                            Answer::Decided { report, .. } => {
                                RectangleCell::of(*rows, *cols, &report)
                            }
                            Answer::Unknown { undecided, .. } => RectangleCell::stopped(
                                *rows,
                                *cols,
                                undecided.board,
                                started.elapsed().as_secs_f64() * 1e3,
                                undecided.reason,
                            ),
                        });
                }
                Ok(TableAnswer {
                    table,
                    budget: limits,
                })
            })
        })
        .await
}

async fn compute(state: &AppState, req: Request) -> Result<Answer, WebError> {
    // Bad input is answered before any heavy-work slot is taken; any board
    // the ruleset can hold (up to 128 cells) is searched.
    let b = crate::with_ruleset!(req.ruleset, |r| r.parse(&req.text).map_err(|e| {
        WebError::BadBoard {
            ruleset: r.name().to_string(),
            message: e.to_string(),
        }
    }))?;
    let (ruleset, ask, limits) = (req.ruleset, req.ask, req.budget);
    // A board solved before needs no heavy-work slot (unless its first
    // moves are to be judged: that is a search).
    if !ask.moves {
        if let Some(a) = state
            .store_only(move |st| {
                let found: Result<_, WebError> =
                    crate::with_ruleset!(ruleset, |r| Ok(from_store(r, &b, ask, limits, st)));
                found.ok().flatten()
            })
            .await
        {
            return Ok(a);
        }
    }
    let store = state.store_handle();
    state
        .heavy(move |budget| {
            let through = store
                .as_ref()
                .map_or(OutcomeStore::none(), OutcomeStore::of);
            crate::with_ruleset!(ruleset, |r| search(r, &b, ask, limits, budget, through))
        })
        .await
}

/// `GET /api/outcome?ruleset=R&board=B[&play=misere][&first=left|right|both][&nimber=1][&moves=1][&max_nodes=N][&table_mb=M]`;
/// with `rectangles=2-6x2-6` instead of a board, a table over rectangles.
pub(crate) async fn api(State(state): State<AppState>, p: Params) -> Result<Response, ApiError> {
    let m = params(p)?;
    let req = request(&m, &state)?;
    if let Some(spec) = req.rectangles {
        let t = compute_table(&state, req, spec).await?;
        return Ok(Json(t).into_response());
    }
    let a = compute(&state, req).await?;
    Ok(Json(a).into_response())
}

#[allow(clippy::too_many_arguments)]
fn form(
    ruleset: &str,
    board: &str,
    rectangles: &str,
    misere: bool,
    first: &str,
    nimber: bool,
    moves: bool,
) -> String {
    let opts = super::explore::ruleset_options(ruleset);
    let firsts: String = [
        ("both", "both"),
        ("left", "Left only"),
        ("right", "Right only"),
    ]
    .iter()
    .map(|(v, label)| {
        format!(
            "<option value=\"{v}\"{}>{label}</option>",
            if *v == first { " selected" } else { "" }
        )
    })
    .collect();
    format!(
        "<form class=\"inline\" method=\"get\" action=\"/outcome\" id=\"outcome-form\">\
<label>Ruleset <select name=\"ruleset\">{opts}</select></label>\
<label>Board <input type=\"text\" name=\"board\" value=\"{}\" spellcheck=\"false\"></label>\
<label title=\"a table over the ruleset's rectangles instead of the board, e.g. 2-6x2-6 (rows x columns)\">or rectangles <input type=\"text\" name=\"rectangles\" value=\"{}\" size=\"8\" placeholder=\"2-6x2-6\" spellcheck=\"false\"></label>\
<label>Play <select name=\"play\"><option value=\"normal\">normal</option><option value=\"misere\"{}>misère</option></select></label>\
<label>First player <select name=\"first\">{firsts}</select></label>\
<label title=\"impartial rulesets such as Cram, normal play\"><input type=\"checkbox\" name=\"nimber\" value=\"1\"{}> its nimber too</label>\
<label title=\"one search per first move\"><input type=\"checkbox\" name=\"moves\" value=\"1\"{}> judge every first move</label>\
<button type=\"submit\">Who wins?</button></form>",
        escape(board),
        escape(rectangles),
        if misere { " selected" } else { "" },
        if nimber { " checked" } else { "" },
        if moves { " checked" } else { "" }
    )
}

fn render(a: &Answer) -> String {
    let mut s = String::new();
    match a {
        Answer::Decided { report, budget, .. } => {
            let says = |w: Option<bool>| match w {
                Some(true) => "wins",
                Some(false) => "loses",
                None => "was not searched",
            };
            let class = match report.outcome {
                Some(c) => format!("Outcome class <b class=\"mono\">{c}</b>"),
                None => "Outcome class unknown (one first player searched)".to_string(),
            };
            let _ = write!(
                s,
                "<div class=\"card\"><p id=\"outcome\">{class} ({} play): Left moving first {}, Right moving first {}.</p>",
                if report.convention == Convention::Normal { "normal" } else { "misère" },
                says(report.left_first_wins),
                says(report.right_first_wins),
            );
            // Paragraphs before the two-column list, never inside it (a
            // <p> in the grid takes a column and swaps the rest).
            if let Some(n) = report.nimber {
                let _ = write!(
                    s,
                    "<p id=\"nimber\">Nimber <b class=\"mono\">{}</b>: the position plays like a nim heap of {n}.</p>",
                    partizan_report::nimber_text(n)
                );
            }
            if report.from_store {
                s.push_str("<p id=\"from-store\">From store: this board was solved before, so no search ran (0 nodes).</p>");
            }
            if report.saved_to_store {
                s.push_str("<p class=\"muted\" id=\"saved\">Saved in the store: the next ask is answered from it.</p>");
            }
            for w in &report.warnings {
                let _ = write!(s, "<p class=\"refused warning\">Warning: {}</p>", escape(w));
            }
            s.push_str("<dl class=\"kv\" id=\"answer\">");
            for (who, fp) in [
                ("Left first", &report.first_players.left),
                ("Right first", &report.first_players.right),
            ] {
                let Some(fp) = fp else {
                    continue;
                };
                let mv = match &fp.winning_move {
                    Some(m) => format!(
                        "wins with <span class=\"mono\">{}</span> → <a class=\"mono\" href=\"/outcome?ruleset={}&amp;board={}\">{}</a>",
                        escape(&move_text(report.ruleset, &report.board, &m.cells, &m.board)),
                        report.ruleset,
                        crate::html::url_encode(&m.board),
                        escape(&m.board)
                    ),
                    None if fp.wins => "wins (no move needed)".to_string(),
                    None => "loses".to_string(),
                };
                let how = if report.from_store {
                    "from store".to_string()
                } else {
                    format!(
                        "{} nodes, {:.0} ms",
                        thousands(u128::from(fp.nodes)),
                        fp.time_ms
                    )
                };
                let _ = write!(
                    s,
                    "<dt>{who}</dt><dd>{mv} <span class=\"muted\">({how})</span></dd>"
                );
            }
            if let Some(fm) = &report.first_moves {
                for (who, moves) in [("Left", &fm.left), ("Right", &fm.right)] {
                    let Some(moves) = moves else { continue };
                    // Each move links to the search of the position after it.
                    let linked = |wins: bool| -> Vec<String> {
                        moves
                            .iter()
                            .filter(|m| m.wins == wins)
                            .map(|m| {
                                format!(
                                    "<a class=\"mono\" href=\"/outcome?ruleset={}&amp;board={}\">{}</a>",
                                    report.ruleset,
                                    crate::html::url_encode(&m.board),
                                    escape(&move_text(report.ruleset, &report.board, &m.cells, &m.board))
                                )
                            })
                            .collect()
                    };
                    let (wins, loses) = (linked(true), linked(false));
                    let side = who.to_lowercase();
                    let _ = write!(
                        s,
                        "<dt>{who}'s first moves</dt><dd class=\"first-moves\" id=\"first-moves-{side}\">\
<span class=\"winning\">{} of {} win{}{}</span><br><span class=\"losing\">{} lose{}{}</span></dd>",
                        wins.len(),
                        moves.len(),
                        if wins.is_empty() { "" } else { ": " },
                        wins.join(" "),
                        loses.len(),
                        if loses.is_empty() { "" } else { ": " },
                        loses.join(" "),
                    );
                }
            }
            if !report.from_store {
                let _ = write!(
                    s,
                    "<dt>table</dt><dd>{} of {} entries, {} hits</dd>",
                    thousands(u128::from(report.table.filled)),
                    thousands(u128::from(report.table.capacity)),
                    thousands(u128::from(report.table.hits)),
                );
            }
            let _ = write!(
                s,
                "<dt>budget</dt><dd>{} ms, {} nodes, {} MB table</dd></dl>",
                budget.time_ms,
                thousands(u128::from(budget.max_nodes)),
                budget.table_mb
            );
            // The answer drawn for a paper (`partizan outcome --format`):
            // each first player's winning first move marked.
            let picture = partizan_games::Rules::from_name(report.ruleset)
                .ok()
                .and_then(|rules| report.picture(rules).ok());
            if let Some(p) = picture {
                s.push_str(&super::figure("answer-picture", p));
            }
            s.push_str("</div>");
        }
        Answer::Unknown { undecided, budget } => {
            let (reason, nodes) = (&undecided.reason, &undecided.nodes);
            let _ = write!(
                s,
                "<div class=\"card\"><p class=\"refused\" id=\"outcome\">Unknown: {} after {} nodes. Nothing is claimed.</p>\
<p class=\"muted\">Budget: {} ms, {} nodes, {} MB table. <code>partizan outcome</code> on the command line has no time limit.</p></div>",
                escape(reason),
                thousands(u128::from(*nodes)),
                budget.time_ms,
                thousands(u128::from(budget.max_nodes)),
                budget.table_mb
            );
        }
    }
    s
}

/// A table over rectangles: the grid, each answer linking to its board's
/// own search, then the boards the budget stopped, the legend and the
/// table drawn for a paper (the picture `partizan outcome --rectangles
/// --format svg|tikz` writes), with its downloads.
fn render_table(t: &TableAnswer) -> String {
    let table = &t.table;
    let mut s =
        String::from("<div class=\"card\"><table class=\"grid\" id=\"rectangles\"><tr><th></th>");
    for c in table.spec.cols.0..=table.spec.cols.1 {
        let _ = write!(s, "<th>{c}</th>");
    }
    s.push_str("</tr>");
    for row in table.grid_rows() {
        let _ = write!(s, "<tr><th>{}</th>", row[0].rows);
        for c in row {
            let _ = write!(
                s,
                "<td><a href=\"/outcome?ruleset={}&amp;board={}\" title=\"{} x {}\">{}</a></td>",
                table.ruleset,
                crate::html::url_encode(&c.board),
                c.rows,
                c.cols,
                escape(&c.glyph())
            );
        }
        s.push_str("</tr>");
    }
    s.push_str("</table>");
    for c in table.stopped() {
        let _ = write!(
            s,
            "<p class=\"muted\">{} x {}: {}</p>",
            c.rows,
            c.cols,
            escape(c.stopped.as_deref().unwrap_or_default())
        );
    }
    let legend = table.legend().join("; ");
    let _ = write!(
        s,
        "<p class=\"muted\">{}{}. {} boards, {} nodes, {} from the store. Budget: {} ms for the table, {} nodes a board. <code>partizan outcome {} --rectangles …</code> on the command line has no time limit.</p>{}</div>",
        escape(&legend[..1].to_uppercase()),
        escape(&legend[1..]),
        table.cells.len(),
        thousands(u128::from(table.nodes())),
        table.from_store(),
        t.budget.time_ms,
        thousands(u128::from(t.budget.max_nodes)),
        table.ruleset,
        super::figure("rectangles-picture", table.picture())
    );
    s
}

const ABOUT: &str = "<p class=\"muted\">The <b>outcome class</b> says who wins with best play: \
L (Left, whoever starts), R (Right), N (the player to move), P (the other player). This search \
decides it without the value: an α-β search with a bounded transposition table that splits the \
board into regions at every node and answers small regions by their exact values. It works on \
boards far too large to value; each request runs under a time, node and table budget, and a search \
that runs out says so.</p>";

/// What the page shows: one board's answer, or a table over rectangles
/// (its body already rendered).
enum Shown {
    One(Answer),
    Table(String),
}

/// `GET /outcome`.
pub(crate) async fn page_handler(State(state): State<AppState>, p: Params) -> Response {
    let m = match params(p) {
        Ok(m) => m,
        Err(e) => return PageError(e).into_response(),
    };
    let misere = m.get("play").is_some_and(|p| p.starts_with("mis"));
    let first = m.get("first").map_or("both", |f| f.trim());
    // The form shows a box ticked only where the search would read it so
    // (a malformed value is reported by the search's own parse below).
    let checked = |name| flag(&m, name).unwrap_or(false);
    let (nimber, moves) = (checked("nimber"), checked("moves"));
    let ruleset = m
        .get("ruleset")
        .map(String::as_str)
        .unwrap_or("domineering");
    let board = m
        .get("board")
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "......|......|......|......|......|......".to_string());
    let rectangles = m.get("rectangles").map_or("", |r| r.trim());
    let title = "<h1>Who wins?</h1>";
    if !m.contains_key("board") && rectangles.is_empty() {
        let body = format!(
            "{title}{}{ABOUT}",
            form(ruleset, &board, rectangles, misere, first, nimber, moves)
        );
        return Html(page("Who wins?", "outcome", &body)).into_response();
    }
    let result = match request(&m, &state) {
        Ok(req) => match req.rectangles {
            Some(spec) => compute_table(&state, req, spec).await.map(|t| {
                let url = format!(
                    "/api/outcome?ruleset={}&amp;rectangles={}",
                    t.table.ruleset,
                    crate::html::url_encode(rectangles)
                );
                Shown::Table(format!(
                    "{title}{}{}<p class=\"muted\">JSON: <a href=\"{url}\">this table</a></p>{ABOUT}",
                    form(t.table.ruleset, &board, rectangles, misere, first, nimber, moves),
                    render_table(&t)
                ))
            }),
            None => compute(&state, req).await.map(Shown::One),
        },
        Err(e) => Err(e),
    };
    match result {
        Ok(Shown::Table(body)) => Html(page("Who wins?", "outcome", &body)).into_response(),
        Ok(Shown::One(a)) => {
            let ruleset = match &a {
                Answer::Decided { report, .. } => report.ruleset,
                Answer::Unknown { undecided, .. } => undecided.ruleset,
            };
            let body = format!(
                "{title}{}{}<p class=\"muted\"><a href=\"{}\">value it in the explorer</a> (small boards) · JSON: <a href=\"/api/outcome?ruleset={}&amp;board={}\">this search</a></p>{ABOUT}",
                form(ruleset, &board, rectangles, misere, first, nimber, moves),
                render(&a),
                explore_href(ruleset, &board),
                ruleset,
                crate::html::url_encode(&board)
            );
            Html(page("Who wins?", "outcome", &body)).into_response()
        }
        Err(err) if err.status() == StatusCode::BAD_REQUEST => {
            let body = format!(
                "{title}{}<p class=\"error\" id=\"error\">{}</p>{ABOUT}",
                form(ruleset, &board, rectangles, misere, first, nimber, moves),
                escape(&err.to_string())
            );
            (
                StatusCode::BAD_REQUEST,
                Html(page("Who wins?", "outcome", &body)),
            )
                .into_response()
        }
        Err(err) => PageError(err).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_games::{Domineering, Ruleset};

    fn limits(nodes: u64) -> SearchBudget {
        SearchBudget {
            time_ms: 10_000,
            max_nodes: nodes,
            table_mb: 4,
        }
    }

    #[test]
    fn decides_a_small_board_as_the_value_says() {
        // Oracle: the value {2|-1/2} of 2x3 Domineering is a first-player win.
        let b = Domineering.parse("...|...").unwrap();
        let a = search(
            &Domineering,
            &b,
            Ask {
                convention: Convention::Normal,
                first: First::Both,
                nimber: false,
                moves: false,
            },
            limits(1_000_000),
            &Budget::unlimited(),
            OutcomeStore::none(),
        )
        .unwrap();
        let v = serde_json::to_value(&a).unwrap();
        assert_eq!(v["decided"], true);
        assert_eq!(v["outcome"], "N");
        assert_eq!(v["left_first_wins"], true);
        assert_eq!(v["budget"]["max_nodes"], 1_000_000);
        assert!(render(&a).contains("<b class=\"mono\">N</b>"));
    }

    #[test]
    fn first_moves_are_judged_and_linked_or_left_out_with_a_warning() {
        let ask = Ask {
            convention: Convention::Normal,
            first: First::Both,
            nimber: false,
            moves: true,
        };
        // 4 x 4 Domineering: Left's 12 moves, 4 of which win (the report
        // layer's twin test checks the judgement against brute force).
        let b = Domineering.parse("....|....|....|....").unwrap();
        let a = search(
            &Domineering,
            &b,
            ask,
            limits(1_000_000),
            &Budget::unlimited(),
            OutcomeStore::none(),
        )
        .unwrap();
        let v = serde_json::to_value(&a).unwrap();
        let left = v["first_moves"]["left"].as_array().unwrap();
        assert_eq!(left.len(), 12);
        let wins = left.iter().filter(|m| m["wins"] == true).count();
        assert!(wins >= 1);
        let html = render(&a);
        assert!(html.contains(&format!("{wins} of 12 win: ")), "{html}");
        assert!(html.contains("href=\"/outcome?ruleset=domineering&amp;board="));
        // A judgement that runs out of nodes leaves the outcome decided and
        // the moves out, with a warning (6 x 6: the outcome in under a
        // thousand nodes, before the budget is first looked at, after
        // 4,096; Left's first move r1c1-r2c1 takes 6,801).
        let b = Domineering
            .parse("......|......|......|......|......|......")
            .unwrap();
        let a = search(
            &Domineering,
            &b,
            ask,
            limits(100),
            &Budget::unlimited(),
            OutcomeStore::none(),
        )
        .unwrap();
        let v = serde_json::to_value(&a).unwrap();
        assert_eq!(v["decided"], true, "{v}");
        assert!(v.get("first_moves").is_none(), "{v}");
        assert!(
            v["warnings"][0]
                .as_str()
                .unwrap()
                .contains("not all judged"),
            "{v}"
        );
    }

    #[test]
    fn out_of_nodes_or_time_is_unknown() {
        // The budget is looked at every 4,096 nodes: 8x8 needs millions.
        let b = Domineering
            .parse("........|........|........|........|........|........|........|........")
            .unwrap();
        let a = search(
            &Domineering,
            &b,
            Ask {
                convention: Convention::Normal,
                first: First::Both,
                nimber: false,
                moves: false,
            },
            limits(100),
            &Budget::unlimited(),
            OutcomeStore::none(),
        )
        .unwrap();
        let v = serde_json::to_value(&a).unwrap();
        assert_eq!(v["decided"], false);
        assert!(v["outcome"].is_null());
        assert!(v["reason"].as_str().unwrap().contains("node budget"));
        // 8x8 Domineering takes far more than 300 ms.
        let big = Domineering
            .parse("........|........|........|........|........|........|........|........")
            .unwrap();
        let a = search(
            &Domineering,
            &big,
            Ask {
                convention: Convention::Normal,
                first: First::Both,
                nimber: false,
                moves: false,
            },
            limits(MAX_NODES),
            &Budget::new(Duration::from_millis(300)),
            OutcomeStore::none(),
        )
        .unwrap();
        let v = serde_json::to_value(&a).unwrap();
        assert_eq!(v["decided"], false, "{v}");
        assert!(v["reason"].as_str().unwrap().contains("time budget"));
    }

    #[test]
    fn one_first_player_claims_no_class() {
        // 3 x 4 Domineering: Left first loses? Whatever the search says,
        // the one-sided answer must agree with the both-sided one and
        // claim no class.
        let b = Domineering.parse("....|....|....").unwrap();
        let ask = |first| {
            let a = search(
                &Domineering,
                &b,
                Ask {
                    convention: Convention::Normal,
                    first,
                    nimber: false,
                    moves: false,
                },
                limits(1_000_000),
                &Budget::unlimited(),
                OutcomeStore::none(),
            )
            .unwrap();
            (serde_json::to_value(&a).unwrap(), render(&a))
        };
        let (both, _) = ask(First::Both);
        let (left, html) = ask(First::Left);
        assert_eq!(left["decided"], true);
        assert!(left["outcome"].is_null(), "{left}");
        assert_eq!(left["first"], "left");
        assert_eq!(left["left_first_wins"], both["left_first_wins"]);
        assert!(left["right_first_wins"].is_null());
        assert!(left["first_players"].get("right").is_none());
        assert!(html.contains("Outcome class unknown"), "{html}");
        assert!(
            html.contains("Right moving first was not searched"),
            "{html}"
        );
        assert!(form("domineering", "..", "", false, "right", false, false)
            .contains("<option value=\"right\" selected>"));
    }
}
