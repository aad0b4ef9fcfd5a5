//! The board explorer: a board drawn with its regions in colour, each
//! region's value, position-graph size and source, the whole board's value,
//! and the position-graph identity. When the identity fails the drawing is
//! withheld and the two numbers are stated instead.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Duration;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use partizan_census::{readings, Reading, Shape};
use std::sync::Arc;

use partizan_core::thermo::Thermograph;
use partizan_core::toolkit::INCENTIVE_LIMIT;
use partizan_core::{Arena, GameId};
use partizan_games::{Bits, Board, Player, Ruleset};
use partizan_report::ValueSummary;
use partizan_solve::regions::{region_board, regions};
use partizan_solve::{RegionTable, Savings, Solver, Stats};
use partizan_store::Store;
use serde::Serialize;
use serde_json::{json, Value};

use super::{params, Params};
use crate::error::{ApiError, PageError, WebError};
use crate::graphs::{self, GraphCheck};
use crate::html::{escape, explore_href, page, thousands, url_encode};
use crate::identity::Identity;
use crate::limits::Budget;
use crate::report::solve_error;
use crate::rules::{self, parse_board};
use crate::svg::{self, BoardDrawing, Cell};
use crate::AppState;

/// Where a region's value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Source {
    /// The persistent store answered it.
    Store,
    /// Searched now (`new` regions computed on the way).
    Computed {
        /// Distinct regions searched for this one.
        new: u64,
        /// Of the sub-regions met, how many the store answered.
        store_hits: u64,
    },
    /// Already in this request's table (an equal region came first).
    Table,
}

impl Source {
    fn describe(&self) -> String {
        match self {
            Source::Store => "store".to_string(),
            Source::Computed { new, store_hits: 0 } => format!("computed ({new} new)"),
            Source::Computed { new, store_hits } => {
                format!("computed ({new} new, {store_hits} from store)")
            }
            Source::Table => "same as an earlier region".to_string(),
        }
    }
}

/// One region of an explored board.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct RegionRow {
    /// The region's cells on the board.
    pub cells: Bits,
    /// Number of cells.
    pub size: u32,
    /// The value in CGSuite notation.
    pub value: String,
    /// Positions of the region's own graph, when counted.
    pub positions: Option<u64>,
    /// Where the value came from.
    pub source: Source,
    /// Domineering only: the packing reading.
    pub reading: Option<Reading>,
}

/// Whether the position-graph identity was checked, and how it came out.
#[derive(Debug, Clone)]
pub(crate) enum GraphStatus {
    /// Counted: the identity holds or fails.
    Checked(GraphCheck),
    /// Not counted (too large or out of time): the reason.
    NotChecked(String),
}

/// Everything the explorer shows.
#[derive(Debug, Clone)]
pub(crate) struct Explored {
    pub ruleset: &'static str,
    pub board: String,
    pub width: usize,
    pub height: usize,
    pub glyphs: Vec<char>,
    pub regions: Vec<RegionRow>,
    pub whole: ValueSummary,
    pub sum_matches: bool,
    pub graph: GraphStatus,
    pub reading: Option<Reading>,
    pub stats: Stats,
    /// Both players' options (`None` when the budget ran out first).
    pub options: Option<partizan_report::OptionsReport>,
    /// The game tree a few plies deep (`None` when not asked or out of time).
    pub tree: Option<crate::play::TreeNode>,
    /// Thermographs of the whole board and of each region (same order as
    /// `regions`), when they could be computed.
    pub thermographs: Option<(Arc<Thermograph>, Vec<Arc<Thermograph>>)>,
    /// An orthodox form of the whole board's value (the same thermograph,
    /// each player keeping only moves some temperature calls for), when
    /// the value has at most [`INCENTIVE_LIMIT`] subpositions.
    pub orthodox_form: Option<String>,
    /// An impartial ruleset's board under misère play: its misère
    /// canonical form, or why it was not computed (`None` for partizan
    /// rulesets, whose misère forms are not computed).
    pub misere: Option<Result<partizan_report::MisereBoardReport, String>>,
}

/// Boards the explorer values for an impartial board's misère form.
const MISERE_POSITIONS: usize = 20_000;

/// What the explorer is asked to show besides the board and its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Extras {
    /// Plies of the game tree (0 for none).
    pub tree_depth: usize,
}

/// Options of the game tree the page shows: expanded nodes at most.
const TREE_NODES: usize = 40;

fn reading_of(width: usize, mask: Bits) -> Option<Reading> {
    let cells = (0..128usize)
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| (i / width, i % width));
    let shape = Shape::from_cells(cells)?;
    if shape.len() <= Shape::MAX_CELLS.min(10) {
        readings::read(&shape).ok()
    } else {
        use readings::Orientation::{Horizontal as H, Vertical as V};
        Some(Reading::from_packings(partizan_census::Packings {
            opt_v: readings::max_packing_closed(&shape, V),
            opt_h: readings::max_packing_closed(&shape, H),
            pess_v: readings::min_maximal_packing_closed(&shape, V),
            pess_h: readings::min_maximal_packing_closed(&shape, H),
        }))
    }
}

/// Compute the explorer's report under the budget.
pub(crate) fn explore<R: Ruleset>(
    r: &R,
    board: &Board,
    store: Option<&Store>,
    budget: &Budget,
    extras: Extras,
) -> Result<Explored, WebError> {
    let mut session = store.map(|s| {
        let mut session = s.session();
        session.set_label(format!("explore {} {}", r.name(), r.format(board)));
        session
    });
    let mut e = explore_with(
        r,
        board,
        session.as_mut().map(|s| s as &mut dyn RegionTable),
        budget,
    )?;
    add_extras(
        &mut e,
        r,
        board,
        session.as_mut().map(|s| s as &mut dyn RegionTable),
        budget,
        extras,
    )?;
    if let Some(s) = session {
        s.finish()
            .map_err(|e| WebError::Internal(format!("store: {e}")))?;
    }
    Ok(e)
}

/// The value part of the explorer's report from the store alone: `None`
/// unless every region of the board is in the store (the solver is told to
/// stop before its first search).
fn explore_store_only<R: Ruleset>(r: &R, board: &Board, store: &Store) -> Option<Explored> {
    let mut session = store.session();
    let e = explore_with(
        r,
        board,
        Some(&mut session as &mut dyn RegionTable),
        &Budget::new(Duration::ZERO),
    )
    .ok()?;
    session.finish().ok()?;
    Some(e)
}

/// A shorter borrow of an optional table, for one solver among several.
fn reborrow<'s>(t: &'s mut Option<&mut dyn RegionTable>) -> Option<&'s mut dyn RegionTable> {
    match t {
        Some(t) => Some(&mut **t),
        None => None,
    }
}

/// The value part of the explorer's report: regions, their values and
/// thermographs, the whole board's value and the packing readings.
fn explore_with<'a, R: Ruleset>(
    r: &R,
    board: &Board,
    mut store: Option<&'a mut dyn RegionTable>,
    budget: &'a Budget,
) -> Result<Explored, WebError> {
    let mut arena = Arena::new();
    let masks = regions(r, board);
    let stop = || budget.expired();
    let mut rows = Vec::with_capacity(masks.len());
    let mut ids: Vec<GameId> = Vec::with_capacity(masks.len());
    let (whole_id, stats) = {
        let mut solver = Solver::new(r, Savings::ALL)
            .map_err(|e| solve_error(e, budget))?
            .with_stop(&stop);
        if let Some(t) = reborrow(&mut store) {
            solver = solver.with_table(t);
        }
        for &mask in &masks {
            let before = solver.stats();
            let g = solver
                .value(&mut arena, &region_board(board, mask))
                .map_err(|e| solve_error(e, budget))?;
            let after = solver.stats();
            let new = after.distinct - before.distinct;
            let store_hits = after.store_hits - before.store_hits;
            let source = if new > 0 {
                Source::Computed { new, store_hits }
            } else if store_hits > 0 {
                Source::Store
            } else {
                Source::Table
            };
            ids.push(g);
            rows.push(RegionRow {
                cells: mask,
                size: mask.count_ones(),
                value: String::new(),
                positions: None,
                source,
                reading: None,
            });
        }
        let w = solver
            .value(&mut arena, board)
            .map_err(|e| solve_error(e, budget))?;
        (w, solver.stats())
    };
    for (row, &g) in rows.iter_mut().zip(&ids) {
        row.value = arena.display(g);
    }
    let sum = arena
        .sum_all(&ids)
        .map_err(|e| WebError::Internal(e.to_string()))?;
    let whole = ValueSummary::of(&mut arena, whole_id);
    let thermographs = arena.thermograph(whole_id).ok().and_then(|w| {
        let parts: Option<Vec<_>> = ids.iter().map(|&g| arena.thermograph(g).ok()).collect();
        parts.map(|p| (w, p))
    });
    let orthodox_form = if whole.size.subpositions <= INCENTIVE_LIMIT {
        arena.orthodox_form(whole_id).ok().map(|o| arena.display(o))
    } else {
        None
    };
    let text = r.format(board);
    let glyphs: Vec<char> = text.chars().filter(|&c| c != '|').collect();
    let width = board.width();
    let mut reading = None;
    if rules::packing_reading(r.name()) {
        let mut total = Reading::default();
        let mut all = true;
        for row in rows.iter_mut() {
            row.reading = reading_of(width, row.cells);
            match row.reading {
                Some(x) => {
                    total.count += x.count;
                    total.low += x.low;
                    total.high += x.high;
                    total.packings.opt_v += x.packings.opt_v;
                    total.packings.opt_h += x.packings.opt_h;
                    total.packings.pess_v += x.packings.pess_v;
                    total.packings.pess_h += x.packings.pess_h;
                }
                None => all = false,
            }
        }
        if all {
            reading = Some(total);
        }
    }
    Ok(Explored {
        ruleset: r.name(),
        board: text,
        width,
        height: board.height(),
        glyphs,
        regions: rows,
        whole,
        sum_matches: sum == whole_id,
        graph: GraphStatus::NotChecked(NOT_COUNTED.to_string()),
        reading,
        stats,
        options: None,
        tree: None,
        thermographs,
        orthodox_form,
        misere: None,
    })
}

/// Why the graph is not counted when no time was left for it.
const NOT_COUNTED: &str = "the request's time budget ran out before the position graph was counted";

/// The optional parts of the page — both players' options, the game tree
/// and the position-graph identity — each under a share of what is left of
/// the budget, so that running out leaves them out instead of failing the
/// page.
fn add_extras<R: Ruleset>(
    e: &mut Explored,
    r: &R,
    board: &Board,
    mut store: Option<&mut dyn RegionTable>,
    budget: &Budget,
    extras: Extras,
) -> Result<(), WebError> {
    // Options and the tree get at most half of what is left; the graph
    // what remains less a margin for rendering.
    let extra_budget = budget
        .reserve(Duration::from_millis(400))
        .within(budget.remaining() / 2);
    e.options = crate::play::options_report(r, board, reborrow(&mut store), &extra_budget).ok();
    e.tree = if extras.tree_depth > 0 && e.options.is_some() {
        crate::play::game_tree(
            r,
            board,
            extras.tree_depth,
            TREE_NODES,
            reborrow(&mut store),
            &extra_budget,
        )
        .ok()
    } else {
        None
    };
    e.misere = match partizan_games::Rules::from_name(r.name()) {
        Ok(rules) => Some(
            partizan_report::misere_board(rules, &e.board, MISERE_POSITIONS)
                .map_err(|err| err.to_string()),
        ),
        _ => None,
    };
    e.graph = match graphs::check(
        r,
        board,
        &budget.reserve(Duration::from_millis(150)),
        graphs::MAX_POSITIONS,
    ) {
        Ok(c) => {
            for row in e.regions.iter_mut() {
                row.positions = c
                    .regions
                    .iter()
                    .find(|x| x.cells == row.cells)
                    .map(|x| x.positions);
            }
            GraphStatus::Checked(c)
        }
        Err(e @ (WebError::GraphTooLarge(_) | WebError::OutOfTime(_))) => {
            GraphStatus::NotChecked(e.to_string())
        }
        Err(e) => return Err(e),
    };
    Ok(())
}

impl Explored {
    /// The JSON form (`/api/explore`).
    pub(crate) fn to_json(&self) -> Value {
        let (identity, graph) = match &self.graph {
            GraphStatus::Checked(c) => (
                json!({
                    "checked": true,
                    "holds": c.identity.holds(),
                    "statement": c.identity.statement(),
                }),
                json!({
                    "positions": c.whole.positions,
                    "tree_nodes": c.whole.tree_nodes,
                }),
            ),
            GraphStatus::NotChecked(why) => (
                json!({"checked": false, "holds": null, "statement": why}),
                Value::Null,
            ),
        };
        json!({
            "ruleset": self.ruleset,
            "board": self.board,
            "width": self.width,
            "height": self.height,
            "value": self.whole,
            "orthodox_form": self.orthodox_form,
            "value_is_sum_of_regions": self.sum_matches,
            "regions": self.regions.iter().map(|r| json!({
                "cells": r.size,
                "mask": r.cells.to_string(),
                "value": r.value,
                "positions": r.positions,
                "source": r.source,
                "reading": r.reading,
            })).collect::<Vec<_>>(),
            "graph": graph,
            "identity": identity,
            "reading": self.reading,
            "stats": self.stats,
            "misere": match &self.misere {
                Some(Ok(m)) => json!(m),
                Some(Err(why)) => json!({"error": why}),
                None => Value::Null,
            },
        })
    }

    fn identity(&self) -> Option<Identity> {
        match &self.graph {
            GraphStatus::Checked(c) => Some(c.identity),
            GraphStatus::NotChecked(_) => None,
        }
    }

    /// The board drawing; regions tinted only when the identity holds,
    /// packing runs drawn only when `runs` (asked with `overlay=runs`).
    /// Returns the SVG and its TikZ twin.
    fn drawing(&self, runs: bool) -> (String, String) {
        // A graph ruleset draws its graph: click a vertex or an edge.
        if let Ok(Some(p)) = rules::rules(self.ruleset).map_err(|_| ()).and_then(|r| {
            partizan_report::picture::graph_picture(r, &self.board, "board").map_err(|_| ())
        }) {
            return p;
        }
        let cells: Vec<Cell> = self.glyphs.iter().map(|&c| Cell::from_char(c)).collect();
        let mut d = BoardDrawing::new(self.width, self.height, cells);
        d.clickable = true;
        d.cell_px = if self.width.max(self.height) > 8 {
            38.0
        } else {
            48.0
        };
        if self.identity().is_some_and(|i| i.holds()) {
            for (k, row) in self.regions.iter().enumerate() {
                for i in 0..d.region.len() {
                    if row.cells >> i & 1 == 1 {
                        d.region[i] = Some(k);
                    }
                }
            }
            if runs && rules::packing_reading(self.ruleset) {
                let empty: Vec<bool> = self.glyphs.iter().map(|&c| c == '.').collect();
                d.runs = svg::runs(self.width, self.height, &empty);
            }
        }
        d.render_both("board")
    }
}

/// The `<option>`s of a ruleset `<select>`, every registered ruleset, with
/// `selected` chosen.
pub(crate) fn ruleset_options(selected: &str) -> String {
    let mut opts = String::new();
    for r in partizan_games::Rules::ALL {
        let i = r.info();
        let sel = if i.name == selected { " selected" } else { "" };
        let _ = write!(
            opts,
            "<option value=\"{}\"{sel}>{}</option>",
            i.name,
            escape(i.title)
        );
    }
    opts
}

fn form(ruleset: &str, board: &str) -> String {
    let opts = ruleset_options(ruleset);
    // The chosen ruleset's glyphs only (`partizan rulesets` lists them all).
    let glyph_help = match partizan_games::Rules::from_name(ruleset) {
        Ok(r) => {
            let i = r.info();
            let glyphs: Vec<String> = i
                .glyphs
                .iter()
                .map(|g| {
                    format!(
                        "<code>{}</code> {}",
                        escape(&g.ch.to_string()),
                        escape(g.meaning)
                    )
                })
                .collect();
            format!(" {}: {}.", escape(i.title), glyphs.join(", "))
        }
        Err(_) => String::new(),
    };
    format!(
        "<form class=\"inline\" method=\"get\" action=\"/explore\" id=\"explore-form\">\
<label>Ruleset <select name=\"ruleset\" id=\"ruleset\">{opts}</select></label>\
<label>Board <input type=\"text\" name=\"board\" id=\"board-text\" value=\"{}\" spellcheck=\"false\"></label>\
<button type=\"submit\">Show</button></form>\
<p class=\"muted\" id=\"glyphs\">Rows separated by <code>|</code>. Click a cell to change it.{glyph_help}</p>",
        escape(board)
    )
}

/// Add or remove a row or column of board text (fill with `fill`).
fn resized(board: &str, fill: char, add_row: i32, add_col: i32) -> Option<String> {
    let mut rows: Vec<String> = board.split('|').map(str::to_string).collect();
    let w = rows.first()?.chars().count();
    if add_col > 0 {
        for r in rows.iter_mut() {
            r.push(fill);
        }
    } else if add_col < 0 {
        if w <= 1 {
            return None;
        }
        for r in rows.iter_mut() {
            r.pop();
        }
    }
    let w = rows.first()?.chars().count();
    if add_row > 0 {
        rows.push(std::iter::repeat_n(fill, w).collect());
    } else if add_row < 0 {
        if rows.len() <= 1 {
            return None;
        }
        rows.pop();
    }
    Some(rows.join("|"))
}

/// How the page is asked to look.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct View {
    /// Clicks on the board edit cells (`None`) or play for a player.
    pub mode: Option<Player>,
    /// Draw the packing runs over the board.
    pub runs: bool,
}

fn mode_name(m: Option<Player>) -> &'static str {
    match m {
        None => "edit",
        Some(Player::Left) => "left",
        Some(Player::Right) => "right",
    }
}

/// The download buttons of a drawing with id `id`, and its TikZ text.
pub(crate) fn downloads(id: &str, tikz: &str) -> String {
    let id = escape(id);
    format!(
        "<div class=\"dlbar\"><span class=\"muted\">Download</span>\
<button type=\"button\" class=\"dl\" data-target=\"{id}\" data-format=\"svg\">SVG</button>\
<button type=\"button\" class=\"dl\" data-target=\"{id}\" data-format=\"png\">PNG</button>\
<button type=\"button\" class=\"dl\" data-target=\"{id}\" data-format=\"tikz\">TikZ</button></div>\
<pre hidden id=\"tikz-{id}\">{}</pre>",
        escape(tikz)
    )
}

/// The explorer's address for a board with the view's mode kept.
fn href_with(ruleset: &str, board: &str, mode: Option<Player>, runs: bool) -> String {
    format!(
        "{}&amp;mode={}{}",
        explore_href(ruleset, board),
        mode_name(mode),
        if runs { "&amp;overlay=runs" } else { "" }
    )
}

/// A move's cells by name (`a1 a2`).
fn notation(width: usize, cells: &[usize]) -> String {
    cells
        .iter()
        .map(|&c| crate::play::cell_name(width, c))
        .collect::<Vec<_>>()
        .join(" ")
}

fn option_list(e: &Explored, view: View, p: &[partizan_report::BoardOption], who: &str) -> String {
    let next = match who {
        "left" => Some(Player::Right),
        _ => Some(Player::Left),
    };
    let mut s = format!("<ul class=\"opts\" id=\"options-{who}\">");
    if p.is_empty() {
        s.push_str("<li class=\"muted\">none: this player cannot move</li>");
    }
    for o in p {
        let mut tags = String::new();
        if o.best {
            tags.push_str("<span class=\"tag best\" title=\"no other option has a larger incentive\">best</span>");
        }
        if o.dominated {
            tags.push_str("<span class=\"tag dom\" title=\"another option is strictly better for this player\">dominated</span>");
        }
        if o.reversible {
            tags.push_str("<span class=\"tag rev\" title=\"the opponent has a reply at least as good for them as the position itself\">reversible</span>");
        }
        if o.orthodox {
            tags.push_str("<span class=\"tag orth\" title=\"orthodox at the position's temperature: taxed there, this move gives nothing away\">orthodox</span>");
        }
        let cells: Vec<String> = o.cells.iter().map(|c| c.to_string()).collect();
        let _ = write!(
            s,
            "<li><a class=\"option\" href=\"{href}\" data-player=\"{who}\" data-cells=\"{cells}\" data-child=\"{child}\">\
<span class=\"mono\">{notation}</span></a> → <span class=\"mono val\">{value}</span> \
<span class=\"muted\">incentive</span> <span class=\"mono\">{inc}</span>{tags}</li>",
            href = href_with(e.ruleset, &o.board, next, view.runs),
            cells = cells.join(","),
            child = escape(&o.board),
            notation = escape(&notation(e.width, &o.cells)),
            value = escape(&crate::html::shorten(&o.value, 40)),
            inc = escape(&crate::html::shorten(&o.incentive, 40)),
        );
    }
    s.push_str("</ul>");
    s
}

fn best_line(width: usize, p: &[partizan_report::BoardOption], who: &str) -> String {
    let names: Vec<String> = p
        .iter()
        .filter(|o| o.best)
        .map(|o| {
            format!(
                "<span class=\"mono\">{}</span> (incentive <span class=\"mono\">{}</span>)",
                escape(&notation(width, &o.cells)),
                escape(&crate::html::shorten(&o.incentive, 40))
            )
        })
        .collect();
    if names.is_empty() {
        return format!("<p id=\"best-{who}\">{who}: no move.</p>");
    }
    let how = if p.iter().any(|o| o.dominant) {
        if names.len() == 1 {
            "its incentive is at least every other's"
        } else {
            "equal incentives, at least every other's"
        }
    } else {
        "incentives incomparable: none beats these"
    };
    format!(
        "<p id=\"best-{who}\"><b>Best move for {who}</b>: {} — {how}.</p>",
        names.join(", ")
    )
}

/// The player's orthodox moves at the position's temperature (Berlekamp's
/// orthodox play), or why there are none.
fn orthodox_line(
    width: usize,
    p: &[partizan_report::BoardOption],
    who: &str,
    v: &ValueSummary,
) -> String {
    let id = format!("orthodox-{}", who.to_lowercase());
    if v.is_number {
        return format!("<p class=\"muted\" id=\"{id}\">Orthodox play: none — the position is a number, no move is worth making.</p>");
    }
    let names: Vec<String> = p
        .iter()
        .filter(|o| o.orthodox)
        .map(|o| {
            format!(
                "<span class=\"mono\">{}</span>",
                escape(&notation(width, &o.cells))
            )
        })
        .collect();
    if names.is_empty() {
        return format!("<p class=\"muted\" id=\"{id}\">Orthodox play: {who} has no move.</p>");
    }
    format!(
        "<p id=\"{id}\"><b>Orthodox for {who}</b> at temperature <span class=\"mono\">{}</span>: {} — taxed there, no move does better.</p>",
        escape(&v.temperature),
        names.join(", ")
    )
}

fn tree_html(e: &Explored, view: View, n: &crate::play::TreeNode, depth: usize) -> String {
    let mut s = String::new();
    let label = format!(
        "<span class=\"mono val\">{}</span> <a class=\"muted\" href=\"{}\">open</a>",
        escape(&crate::html::shorten(&n.value, 48)),
        href_with(e.ruleset, &n.board, view.mode, view.runs)
    );
    if !n.expanded {
        let _ = write!(s, "<div class=\"leaf\">{label}</div>");
        return s;
    }
    let open = if depth == 0 { " open" } else { "" };
    let _ = write!(
        s,
        "<details class=\"tree\"{open}><summary>{label}</summary>"
    );
    for (who, list) in [("Left", &n.left), ("Right", &n.right)] {
        for (o, child) in list {
            let mut tags = String::new();
            if o.dominated {
                tags.push_str("<span class=\"tag dom\">dominated</span>");
            }
            if o.reversible {
                tags.push_str("<span class=\"tag rev\">reversible</span>");
            }
            let _ = write!(
                s,
                "<div class=\"tree-option\"><span class=\"muted\">{who} {}</span>{tags} {}</div>",
                escape(&notation(e.width, &o.cells)),
                tree_html(e, view, child, depth + 1)
            );
        }
    }
    s.push_str("</details>");
    s
}

/// The subject's terms, each in one line.
const TERMS: &str = "<dl class=\"terms\">\
<dt>value (canonical form)</dt><dd>The game as a sum-ready object: every position has one simplest form, written in CGSuite notation ({left options | right options}).</dd>\
<dt>outcome class</dt><dd>Who wins with best play: L (Left, whoever starts), R (Right), N (the player to move), P (the other player).</dd>\
<dt>stops</dt><dd>Where play ends on a number when Left (left stop) or Right (right stop) moves first and both play well.</dd>\
<dt>temperature and mean</dt><dd>How much a move is worth and where the game settles: read off the thermograph, where the walls meet the mast.</dd>\
<dt>incentive</dt><dd>What a move gains: GL − G for a Left option, G − GR for a Right one; the best move has an incentive no other beats.</dd>\
<dt>orthodox</dt><dd>Berlekamp's orthodox play: at temperature t every move is taxed t, and a move is orthodox if no other does better taxed; the orthodox form keeps only moves some temperature calls for, with the same thermograph.</dd>\
<dt>dominated, reversible</dt><dd>Options the canonical form drops (a better option exists) or bypasses (the opponent's reply undoes it).</dd>\
<dt>region</dt><dd>A part of the board no move connects to the rest: the board's value is the sum of its regions' values.</dd>\
<dt>packing reading (Domineering)</dt><dd>From the essays: the count of odd runs and the interval between pessimistic and optimistic domino packings, a guess at a region's value.</dd>\
</dl>";

/// The mode switch (edit or play as a player), undo and redo, and the
/// element that hands the page's data to the script.
fn play_bar(e: &Explored, view: View) -> String {
    let mut radios = String::new();
    for (m, label) in [
        (None, "edit cells"),
        (Some(Player::Left), "play as Left"),
        (Some(Player::Right), "play as Right"),
    ] {
        let checked = if m == view.mode { " checked" } else { "" };
        let _ = write!(
            radios,
            "<label><input type=\"radio\" name=\"mode\" value=\"{}\" id=\"mode-{}\"{checked}> {label}</label> ",
            mode_name(m),
            mode_name(m)
        );
    }
    let graph = rules::rules(e.ruleset).is_ok_and(partizan_games::graph_view::is_graph);
    let hint = match view.mode {
        None if graph => {
            "Click a vertex to change its state (. l r gone), an edge to change or remove it."
                .to_string()
        }
        None => "Click a cell to change it.".to_string(),
        Some(_) if graph => "Click a vertex to colour it (Snort, Col) or an edge to cut it (Hackenbush); or click an option below.".to_string(),
        Some(_) => format!(
            "Click the cells of a move ({}); or click an option below.",
            escape(move_hint(e.ruleset))
        ),
    };
    format!(
        "<div id=\"explorer\" data-ruleset=\"{rs}\" data-board=\"{board}\" data-width=\"{w}\" data-cycle=\"{cyc}\" data-query=\"{q}\"></div>\
<form class=\"inline\" id=\"play-bar\">{radios}<button type=\"button\" id=\"undo\">undo</button><button type=\"button\" id=\"redo\">redo</button></form>\
<p class=\"muted\" id=\"move-status\">{hint}</p>",
        rs = escape(e.ruleset),
        board = escape(&e.board),
        w = e.width,
        cyc = escape(rules::click_cycle(e.ruleset)),
        q = if view.runs { "&overlay=runs" } else { "" },
    )
}

/// How a move is entered, from what a move changes: the registry's rules
/// differ only in how many cells a move touches.
fn move_hint(ruleset: &str) -> &'static str {
    let info = rules::rules(ruleset).map(|r| r.info());
    match info {
        Ok(i) if i.glyphs.iter().any(|g| g.ch == 'L') => {
            "the queen, where it goes, where its arrow lands; click the queen's old square twice to shoot back"
        }
        Ok(i) if i.glyphs.iter().any(|g| g.ch == 'x') => "the stone, then where it lands",
        _ => "the two cells of a domino",
    }
}

/// Options, best moves, thermographs, the game tree and the terms.
fn extras_html(e: &Explored, view: View) -> String {
    let mut s = String::new();
    match &e.options {
        Some(o) => {
            let _ = write!(
                s,
                "<h2>Options</h2><div class=\"row\" id=\"options\"><div class=\"card\" style=\"flex:1 1 320px\"><h3>Left's options</h3>{}{}{}</div>\
<div class=\"card\" style=\"flex:1 1 320px\"><h3>Right's options</h3>{}{}{}</div></div>\
<p class=\"muted\">Each option is the position after one move, with its value and its incentive; click one to play it.</p>",
                best_line(e.width, &o.left, "Left"),
                orthodox_line(e.width, &o.left, "Left", &o.value),
                option_list(e, view, &o.left, "left"),
                best_line(e.width, &o.right, "Right"),
                orthodox_line(e.width, &o.right, "Right", &o.value),
                option_list(e, view, &o.right, "right"),
            );
        }
        None => s.push_str("<h2>Options</h2><p class=\"muted\" id=\"options\">Not listed: the time budget ran out before every option was valued.</p>"),
    }
    let refused = e.identity().is_some_and(|i| !i.holds());
    if refused {
        s.push_str("<h2>Thermographs</h2><p class=\"refused\">Withheld with the drawing: the regions this board falls into failed their identity.</p>");
    } else if let Some((whole, parts)) = &e.thermographs {
        s.push_str("<h2>Thermographs</h2><p class=\"muted\">Temperature up, values to the left favour Left. The walls meet the vertical mast at the mean, at the temperature.</p><div class=\"row\" id=\"thermographs\">");
        let (svg, tikz) =
            crate::thermograph::render(whole, "thermo-board", "the whole board", 360.0);
        let _ = write!(
            s,
            "<div class=\"card\" style=\"flex:0 1 390px\">{svg}{}</div>",
            downloads("thermo-board", &tikz)
        );
        if parts.len() > 1 {
            for (k, th) in parts.iter().enumerate().take(12) {
                let id = format!("thermo-region-{}", k + 1);
                let (svg, tikz) = crate::thermograph::render(
                    th,
                    &id,
                    &format!(
                        "region {}: {}",
                        k + 1,
                        crate::html::shorten(&e.regions[k].value, 30)
                    ),
                    300.0,
                );
                let _ = write!(
                    s,
                    "<div class=\"card\" style=\"flex:0 1 330px\">{svg}{}</div>",
                    downloads(&id, &tikz)
                );
            }
        }
        s.push_str("</div>");
    }
    match &e.misere {
        Some(Ok(m)) => match &m.misere {
            Some(f) => s.push_str(&super::grundy::misere_card(
                f,
                Some(m.universe),
                m.positions,
            )),
            None => s.push_str(&partizan_misere_card(&m.forms, m.positions)),
        },
        Some(Err(why)) => {
            let _ = write!(
                s,
                "<h2>Misère play</h2><p class=\"muted\" id=\"misere\">Not computed: {}</p>",
                escape(why)
            );
        }
        None => {}
    }
    if let Some(t) = &e.tree {
        let _ = write!(
            s,
            "<h2>Game tree</h2><p class=\"muted\">Two plies deep (at most {TREE_NODES} options expanded); values are canonical forms; click a node to open it.</p><div class=\"card\" id=\"tree\">{}</div>",
            tree_html(e, view, t, 0)
        );
    }
    let _ = write!(s, "<h2>Terms</h2>{TERMS}");
    s
}

fn render(e: &Explored, view: View) -> String {
    let mut body = String::new();
    let _ = write!(body, "<h1>Board explorer</h1>{}", form(e.ruleset, &e.board));
    let fill = if e.ruleset == "clobber" { 'x' } else { '.' };
    let mut resize = String::new();
    for (label, dr, dc) in [
        ("+ row", 1, 0),
        ("− row", -1, 0),
        ("+ column", 0, 1),
        ("− column", 0, -1),
    ] {
        if let Some(b) = resized(&e.board, fill, dr, dc) {
            let _ = write!(
                resize,
                "<a href=\"{}\">{label}</a> ",
                explore_href(e.ruleset, &b)
            );
        }
    }
    let identity = e.identity();
    let drawing_card = match identity {
        Some(id @ Identity::Fails { .. }) => format!(
            "<div class=\"card\"><p class=\"refused\" id=\"refusal\">{}</p></div>",
            escape(&id.statement())
        ),
        _ => {
            let mut legend = String::new();
            if identity.is_some() {
                for (k, row) in e.regions.iter().enumerate() {
                    let _ = write!(
                        legend,
                        "<span style=\"margin-right:.8rem;white-space:nowrap\" title=\"{}\"><span class=\"swatch\" style=\"background:{}\"></span>{} <span class=\"mono\">{}</span></span> ",
                        escape(&row.value),
                        svg::region_colour(k),
                        k + 1,
                        escape(&crate::html::shorten(&row.value, 28))
                    );
                }
            } else {
                legend.push_str("<span class=\"muted\">Region colours are withheld: the identity was not checked.</span>");
            }
            let runs = if rules::packing_reading(e.ruleset) && identity.is_some() && view.runs {
                "<p class=\"muted\" style=\"font-size:.85em\">Runs: <span style=\"color:#c1121f;font-weight:700\">red</span> odd (a dot is a run of one), dashed even; horizontal runs drawn high, vertical ones left.</p>"
            } else {
                ""
            };
            let runs = if rules::packing_reading(e.ruleset) && identity.is_some() {
                format!(
                    "{runs}<p class=\"muted\" style=\"font-size:.85em\"><a id=\"runs-toggle\" href=\"{}\">{}</a></p>",
                    href_with(e.ruleset, &e.board, view.mode, !view.runs),
                    if view.runs { "hide the packing runs" } else { "show the packing runs (the essays' reading)" }
                )
            } else {
                runs.to_string()
            };
            let (drawing, tikz) = e.drawing(view.runs);
            format!(
                "<div class=\"card\" style=\"flex:0 1 auto;max-width:560px\">{play}{drawing}{dl}<div id=\"legend\" style=\"margin-top:.4rem\">{legend}</div>{runs}<div class=\"muted\" style=\"margin-top:.3rem\">{resize}</div></div>",
                play = play_bar(e, view),
                dl = downloads("board", &tikz),
            )
        }
    };
    let v = &e.whole;
    let mut whole = format!(
        "<div class=\"card\" style=\"flex:1 1 320px\"><h3>The whole board</h3><dl class=\"kv\">\
<dt>value</dt><dd class=\"mono val\" id=\"whole-value\">{}</dd>\
<dt>outcome</dt><dd id=\"whole-outcome\">{}</dd>\
<dt>stops</dt><dd>{} / {}</dd><dt>mean</dt><dd>{}</dd><dt>temperature</dt><dd>{}</dd>\
<dt>orthodox form</dt><dd class=\"mono val\" id=\"orthodox-form\">{}</dd>\
<dt>regions</dt><dd id=\"region-count\">{}</dd>",
        escape(&v.value),
        escape(&v.outcome),
        escape(&v.left_stop),
        escape(&v.right_stop),
        escape(&v.mean),
        escape(&v.temperature),
        match &e.orthodox_form {
            Some(o) => escape(o),
            None => format!(
                "<span class=\"muted\">not computed: the value has over {INCENTIVE_LIMIT} subpositions (<span class=\"mono\">partizan analyse ... --orthodox</span> computes it)</span>"
            ),
        },
        e.regions.len()
    );
    let _ = write!(
        whole,
        "<dt>sum of regions</dt><dd>{}</dd></dl>",
        if e.sum_matches {
            "<span class=\"ok\">equals the value</span>"
        } else {
            "<span class=\"error\">differs from the value</span>"
        }
    );
    match &e.graph {
        GraphStatus::Checked(c) => {
            let prod = c
                .regions
                .iter()
                .map(|r| thousands(u128::from(r.positions)))
                .collect::<Vec<_>>()
                .join(" × ");
            let _ = write!(
                whole,
                "<h3>Position graph</h3><dl class=\"kv\"><dt>whole board</dt><dd id=\"graph-whole\">{}</dd>\
<dt>regions</dt><dd>{}</dd><dt>recursion tree</dt><dd>{}</dd></dl><p class=\"{}\" id=\"identity\">{}</p>",
                thousands(u128::from(c.whole.positions)),
                if prod.is_empty() { "1".to_string() } else { prod },
                thousands(c.whole.tree_nodes),
                if c.identity.holds() { "ok" } else { "refused" },
                escape(&c.identity.statement())
            );
        }
        GraphStatus::NotChecked(why) => {
            let _ = write!(
                whole,
                "<h3>Position graph</h3><p class=\"muted\" id=\"identity\">Not checked: {}</p>",
                escape(why)
            );
        }
    }
    // The essays' packing reading: kept, but after what a researcher
    // reads first (the value and its readings, the position graph).
    if let Some(rd) = e.reading {
        let _ = write!(
            whole,
            "<h3>Packing reading</h3><dl class=\"kv\" id=\"packing\"><dt>packing count</dt><dd id=\"packing-count\">{}</dd><dt>interval</dt><dd id=\"interval\">[{}, {}]</dd></dl>\
<p class=\"muted\" style=\"font-size:.85em\">The essays' guess at a Domineering value from domino packings (see the terms below).</p>",
            rd.count, rd.low, rd.high
        );
    }
    whole.push_str("</div>");
    let _ = write!(body, "<div class=\"row\">{drawing_card}{whole}</div>");

    // Regions table.
    let dom = rules::packing_reading(e.ruleset);
    let holds = identity.is_some_and(|i| i.holds());
    let mut t = String::from(
        "<h2>Regions</h2><table class=\"sortable\" id=\"regions\"><thead><tr><th class=\"num\">#</th><th class=\"num\">cells</th><th>value</th><th class=\"num\">positions</th><th>source</th>",
    );
    if dom {
        t.push_str("<th class=\"num\">count</th><th>interval</th><th>value in interval</th>");
    }
    t.push_str("</tr></thead><tbody>");
    for (k, row) in e.regions.iter().enumerate() {
        let swatch = if holds {
            format!(
                "<span class=\"swatch\" style=\"background:{}\"></span>",
                svg::region_colour(k)
            )
        } else {
            String::new()
        };
        let _ = write!(
            t,
            "<tr class=\"region-row\"><td class=\"num\" data-sort=\"{n}\">{swatch}{n}</td><td class=\"num\">{}</td><td class=\"mono val\">{}</td><td class=\"num\">{}</td><td>{}</td>",
            row.size,
            escape(&row.value),
            row.positions.map(|p| thousands(u128::from(p))).unwrap_or_else(|| "—".into()),
            escape(&row.source.describe()),
            n = k + 1
        );
        if dom {
            match row.reading {
                Some(rd) => {
                    let inside = row
                        .value
                        .parse::<partizan_core::Dyadic>()
                        .ok()
                        .map(|x| {
                            let lo = partizan_core::Dyadic::from_int(rd.low);
                            let hi = partizan_core::Dyadic::from_int(rd.high);
                            if lo <= x && x <= hi {
                                "yes"
                            } else {
                                "no"
                            }
                        })
                        .unwrap_or("not a number");
                    let _ = write!(
                        t,
                        "<td class=\"num\">{}</td><td>[{}, {}]</td><td>{inside}</td>",
                        rd.count, rd.low, rd.high
                    );
                }
                None => t.push_str("<td></td><td></td><td></td>"),
            }
        }
        t.push_str("</tr>");
    }
    t.push_str("</tbody></table>");
    body.push_str(&t);
    let q = format!(
        "ruleset={}&amp;board={}",
        url_encode(e.ruleset),
        url_encode(&e.board)
    );
    let _ = write!(
        body,
        "<p class=\"muted\"><a id=\"who-wins\" href=\"/outcome?{q}\">who wins, by the outcome search</a> · JSON: <a href=\"/api/explore?{q}\">this page</a> · <a href=\"/api/value?{q}\">value</a> · <a href=\"/api/graph?{q}\">graph</a>. \
Solver: {} region evaluations, {} searched, {} table hits, {} from the store.</p>",
        e.stats.nodes, e.stats.distinct, e.stats.hits, e.stats.store_hits
    );
    body.push_str(&extras_html(e, view));
    body
}

/// Parse the request's ruleset and board (defaults when absent).
fn inputs(m: &HashMap<String, String>) -> Result<(&'static str, String), WebError> {
    let ruleset = rules::canonical(
        m.get("ruleset")
            .map(String::as_str)
            .unwrap_or("domineering"),
    )?;
    let board = m
        .get("board")
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| rules::default_board(ruleset).to_string());
    Ok((ruleset, board))
}

/// The view a request asks for: `mode` (edit, left, right) and
/// `overlay=runs`.
fn view(m: &HashMap<String, String>) -> Result<View, WebError> {
    let mode = match m.get("mode").map(|s| s.trim()).unwrap_or("edit") {
        "" | "edit" => None,
        "left" | "l" => Some(Player::Left),
        "right" | "r" => Some(Player::Right),
        other => {
            return Err(WebError::param(
                "mode",
                format!(
                    "'{}' is not one of edit, left, right",
                    crate::html::shorten(other, 20)
                ),
            ))
        }
    };
    let runs = match m.get("overlay").map(|s| s.trim()).unwrap_or("") {
        "" | "none" => false,
        "runs" => true,
        _ => return Err(WebError::param("overlay", "expected 'runs' or 'none'")),
    };
    Ok(View { mode, runs })
}

async fn compute(
    state: &AppState,
    ruleset: &'static str,
    board: String,
    extras: Extras,
) -> Result<Explored, WebError> {
    let limits = state.limits().clone();
    let store = state.store_handle();
    // Bad input is answered before any heavy-work slot is taken.
    let b = crate::with_ruleset!(ruleset, |r| parse_board(r, &board, &limits))?;
    let has_store = store.is_some();
    // A board whose regions the store holds is answered from there without
    // a search (no heavy-work slot, no time budget spent on the value);
    // the options, tree and graph then get the request's budget, and the
    // page is shown without them if it runs out.
    if let Some(st) = store.clone() {
        let hit = state
            .store_only(move |st| {
                crate::with_ruleset!(ruleset, |r| Ok::<_, WebError>(explore_store_only(
                    r, &b, st
                )))
                .ok()
                .flatten()
            })
            .await;
        if let Some(e) = hit {
            let plain = e.clone();
            let full = state
                .heavy(move |budget| {
                    crate::with_ruleset!(ruleset, |r| {
                        let mut e = e;
                        let mut session = st.session();
                        session.set_label(format!("explore {} {}", r.name(), e.board));
                        add_extras(
                            &mut e,
                            r,
                            &b,
                            Some(&mut session as &mut dyn RegionTable),
                            budget,
                            extras,
                        )?;
                        session
                            .finish()
                            .map_err(|e| WebError::Internal(format!("store: {e}")))?;
                        Ok(e)
                    })
                })
                .await;
            return match full {
                Ok(e) => Ok(e),
                Err(WebError::Busy(_) | WebError::OutOfTime(_)) => Ok(plain),
                Err(e) => Err(e),
            };
        }
    }
    let run = |store: Option<Store>| {
        state.heavy(move |budget| {
            crate::with_ruleset!(ruleset, |r| explore(r, &b, store.as_ref(), budget, extras))
        })
    };
    match run(store.clone()).await {
        // With a store, a board that ran out of time goes on in the
        // background; its regions then come from the store.
        Err(e @ WebError::OutOfTime(_)) if has_store => {
            let text = crate::with_ruleset!(ruleset, |r| Ok::<_, WebError>(r.format(&b)))?;
            // Finished there already: the regions are in the store now.
            state.hand_off(ruleset, &text, b, Savings::ALL, e)?;
            run(store).await
        }
        other => other,
    }
}

/// The outcome search's page for a board.
fn outcome_href(ruleset: &str, board: &str) -> String {
    format!(
        "/outcome?ruleset={}&amp;board={}",
        url_encode(ruleset),
        url_encode(board)
    )
}

/// `GET /explore`.
pub(crate) async fn page_handler(State(state): State<AppState>, p: Params) -> Response {
    let m = match params(p) {
        Ok(m) => m,
        Err(e) => return PageError(e).into_response(),
    };
    let (ruleset, board) = match inputs(&m) {
        Ok(x) => x,
        Err(e) => return PageError(e).into_response(),
    };
    let v = match view(&m) {
        Ok(v) => v,
        Err(e) => return PageError(e).into_response(),
    };
    let extras = Extras { tree_depth: 2 };
    match compute(&state, ruleset, board.clone(), extras).await {
        Ok(e) => Html(page("Board explorer", "explore", &render(&e, v))).into_response(),
        Err(err) if err.status() == StatusCode::BAD_REQUEST => {
            // Bad input: the form again, with the problem named.
            // Too large to value: who wins can still be searched.
            let who = if matches!(err, WebError::TooLarge { .. }) {
                format!(
                    "<p id=\"who-wins\"><a class=\"button\" href=\"{}\">Who wins? Search the outcome instead</a> <span class=\"muted\">(the outcome search decides boards far too large to value, under a budget)</span></p>",
                    outcome_href(ruleset, &board)
                )
            } else {
                String::new()
            };
            let body = format!(
                "<h1>Board explorer</h1>{}<p class=\"error\" id=\"error\">{}</p>{who}",
                form(ruleset, &board),
                escape(&err.to_string())
            );
            (
                StatusCode::BAD_REQUEST,
                Html(page("Board explorer", "explore", &body)),
            )
                .into_response()
        }
        Err(err) => PageError(err).into_response(),
    }
}

/// `GET /api/explore`.
pub(crate) async fn api_handler(
    State(state): State<AppState>,
    p: Params,
) -> Result<Response, ApiError> {
    let m = params(p)?;
    let ruleset = rules::canonical(super::required(&m, "ruleset")?)?;
    let board = super::required(&m, "board")?.to_string();
    let e = compute(&state, ruleset, board, Extras::default()).await?;
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        e.to_json().to_string(),
    )
        .into_response())
}

/// The misère card of a partizan board: its form in each universe it is in.
fn partizan_misere_card(forms: &[partizan_report::PartizanMisereForm], positions: usize) -> String {
    let mut s = String::from("<h2>Misère play</h2><div class=\"card\" id=\"misere\">");
    for f in forms {
        let who = f.outcome_words();
        let form = if f.form.is_empty() && f.form_chars > 0 {
            format!("{} characters, too long to show", f.form_chars)
        } else {
            format!("<code>{}</code>", escape(&f.form))
        };
        let _ = write!(
            s,
            "<dl class=\"kv\" id=\"misere-{}\"><dt>universe</dt><dd>{}</dd>\
<dt>outcome</dt><dd class=\"misere-outcome\">{}: {who}</dd><dt>birthday</dt><dd>{}</dd>\
<dt>canonical form</dt><dd>{form}</dd></dl>",
            f.universe,
            escape(f.universe_text),
            f.outcome,
            f.birthday
        );
    }
    let _ = write!(
        s,
        "<p class=\"muted\">positions valued {positions}</p></div>"
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_games::Domineering;

    /// The explorer's report of a Domineering board, unhurried.
    fn explored(text: &str) -> Explored {
        let b = Domineering.parse(text).unwrap();
        explore(
            &Domineering,
            &b,
            None,
            &Budget::unlimited(),
            Extras::default(),
        )
        .unwrap()
    }

    #[test]
    fn explores_a_split_board() {
        let e = explored("..#..|..#..");
        assert_eq!(e.regions.len(), 2);
        assert!(e.sum_matches);
        assert!(matches!(&e.graph, GraphStatus::Checked(c) if c.identity.holds()));
        assert_eq!(e.regions[1].source, Source::Table);
        assert!(e.reading.is_some());
        let html = render(&e, View::default());
        assert!(html.contains("id=\"board\""));
        assert!(html.contains(svg::region_colour(1)));
    }

    #[test]
    fn graph_rulesets_are_drawn_as_graphs() {
        let r = partizan_games::SnortGraph;
        let b = r.parse("1-2,2-3,3-1,3:l").unwrap();
        let e = explore(&r, &b, None, &Budget::unlimited(), Extras::default()).unwrap();
        let html = render(&e, View::default());
        assert!(html.contains("class=\"board graph\""), "{html}");
        assert_eq!(html.matches("class=\"graph-vertex\"").count(), 3);
        assert!(html.contains("Click a vertex to change its state"));
        // The clicks carry the options' boards.
        let mut left = Vec::new();
        r.options(&b, Player::Left, |o| left.push(r.format(&o)));
        assert_eq!(left.len(), 3);
        for o in &left {
            assert!(html.contains(&format!("data-left=\"{o}\"")), "{o}: {html}");
        }
    }

    #[test]
    fn shows_orthodox_play() {
        // A small hot Domineering board ({0|-2}): its orthodox form keeps the
        // thermograph, and each player's orthodox moves are named and tagged.
        let e = explored("...|..#|...");
        let o = e
            .orthodox_form
            .clone()
            .expect("small value: orthodox form computed");
        let mut a = Arena::new();
        let (g, og) = (a.parse(&e.whole.value).unwrap(), a.parse(&o).unwrap());
        assert_eq!(a.thermograph(g).unwrap(), a.thermograph(og).unwrap());
        assert_eq!(e.to_json()["orthodox_form"], o.as_str());
        let opts = e.options.as_ref().expect("options valued");
        assert!(a.temperature(g) > partizan_core::Dyadic::ZERO);
        for list in [&opts.left, &opts.right] {
            assert!(list.iter().any(|x| x.orthodox));
        }
        let html = render(&e, View::default());
        assert!(html.contains("id=\"orthodox-form\""));
        assert!(html.contains(&escape(&o)));
        assert!(html.contains("<b>Orthodox for Left</b>"));
        assert!(html.contains("<b>Orthodox for Right</b>"));
        assert!(html.contains("class=\"tag orth\""));
        // a number (1): no orthodox move, said so
        let e = explored(".|.|.");
        assert!(e.whole.is_number);
        let html = render(&e, View::default());
        assert!(html.contains("the position is a number"));
        assert!(!html.contains("class=\"tag orth\""));
    }

    #[test]
    fn refuses_the_drawing_when_the_identity_fails() {
        let b = Domineering.parse("..#..|..#..").unwrap();
        let mut e = explore(
            &Domineering,
            &b,
            None,
            &Budget::unlimited(),
            Extras::default(),
        )
        .unwrap();
        // Forge the report: the whole graph is not the product of the parts.
        if let GraphStatus::Checked(c) = &mut e.graph {
            c.whole.positions += 1;
            let each: Vec<u128> = c.regions.iter().map(|r| u128::from(r.positions)).collect();
            c.identity = crate::identity::check_identity(u128::from(c.whole.positions), &each);
        }
        let html = render(&e, View::default());
        assert!(!html.contains("<svg"), "no drawing when the identity fails");
        assert!(html.contains("id=\"refusal\""));
        assert!(html.contains("Refused: the whole board"));
    }

    #[test]
    fn resizes_board_text() {
        assert_eq!(resized("..|..", '.', 1, 0).as_deref(), Some("..|..|.."));
        assert_eq!(resized("..|..", '.', 0, -1).as_deref(), Some(".|."));
        assert_eq!(resized(".", '.', -1, 0), None);
    }
}
