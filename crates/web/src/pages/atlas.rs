//! The Domineering value atlas on the site (issue 16): when an atlas has
//! been built (`partizan atlas build --max-cells N`, in `$PARTIZAN_ATLAS` or
//! the data directory), the distribution of value kinds by size, the
//! hottest regions drawn, and a find-by-value/kind form (`partizan atlas
//! find`); when none is built, how to build one. The atlas is read, never
//! written, and at most [`ATLAS_CELLS`] cells of it are loaded (the
//! tables); finds past them read the level index files alone.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use partizan_census::atlas::RegionRow;
use partizan_census::{Atlas, AtlasReport, DirStore, Query};
use serde_json::json;

use super::{number_param, params, Params};
use crate::error::{ApiError, PageError, WebError};
use crate::html::{escape, explore_href, page, thousands, url_encode};
use crate::svg::{BoardDrawing, Cell};
use crate::AppState;

/// The largest atlas level the site loads for its tables (a 14-cell atlas
/// loads in well under a second; larger ones take memory the site does not
/// spend); finds reach every size of the directory through its index.
pub const ATLAS_CELLS: usize = 14;
/// Hottest regions listed (and drawn: the first [`DRAWN`]).
pub const HOTTEST: usize = 12;
/// Hottest regions drawn.
pub const DRAWN: usize = 6;
/// Most regions a find lists.
pub const MAX_LIMIT: usize = 50;

/// A loaded atlas, its report, and the directory it came from (a find asks
/// the directory's index files first, then its summaries, as `partizan
/// atlas find` does).
pub(crate) struct AtlasData {
    store: DirStore,
    /// The sizes loaded (at most [`ATLAS_CELLS`]): the tables.
    atlas: Atlas,
    report: AtlasReport,
    /// The sizes in the directory: finds past the loaded ones read the
    /// level index files alone.
    all: usize,
}

/// The atlas the site reads: its directory and the levels present there,
/// `None` when none is built, an error when a level is missing below the
/// top one.
fn present(state: &AppState) -> Result<Option<(PathBuf, usize)>, WebError> {
    let Some(dir) = state.atlas_dir().map(Path::to_path_buf) else {
        return Ok(None);
    };
    let n = DirStore::new(&dir)
        .levels_present()
        .map_err(|e| WebError::Unavailable(format!("the atlas cannot be read: {e}")))?;
    Ok((n > 0).then_some((dir, n)))
}

/// The atlas of `dir` (which holds `all` sizes): at most [`ATLAS_CELLS`]
/// of them loaded, with their report.
async fn load(state: &AppState, dir: PathBuf, all: usize) -> Result<Arc<AtlasData>, WebError> {
    let st = state.clone();
    state
        .cache()
        .atlas
        .get_or_compute((dir.clone(), all), async move {
            st.heavy(move |_| {
                let mut store = DirStore::new(&dir);
                let atlas = store
                    .load_atlas(Some(all.min(ATLAS_CELLS)))
                    .map_err(|e| WebError::Unavailable(format!("the atlas cannot be read: {e}")))?;
                let report = atlas.report(HOTTEST);
                Ok(Arc::new(AtlasData {
                    store,
                    atlas,
                    report,
                    all,
                }))
            })
            .await
        })
        .await
}

fn query(m: &HashMap<String, String>, cells: usize) -> Result<Option<Query>, WebError> {
    let get = |k: &str| {
        m.get(k)
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let (value, kind, min_temperature) = (get("value"), get("kind"), get("min_temperature"));
    if value.is_none() && kind.is_none() && min_temperature.is_none() {
        return Ok(None);
    }
    for (k, v) in [
        ("value", &value),
        ("kind", &kind),
        ("min_temperature", &min_temperature),
    ] {
        if v.as_ref().is_some_and(|v| v.chars().count() > 200) {
            return Err(WebError::param(k, "over 200 characters"));
        }
    }
    let max_cells = number_param(m, "max_cells", cells, cells)?;
    if max_cells == 0 {
        return Err(WebError::param("max_cells", "0: sizes start at 1"));
    }
    Ok(Some(Query {
        value,
        min_temperature,
        kind,
        max_cells: Some(max_cells),
        limit: number_param(m, "limit", 10, MAX_LIMIT)?,
    }))
}

/// Run a find through the one find path ([`DirStore::find_in`]: the level
/// index files, else the summaries when they can answer, else the loaded
/// atlas); past the loaded sizes, from the level index files alone (a 503
/// saying why when they cannot answer: the site never reads a level of
/// 18 cells whole); a malformed value or unknown kind is a 400.
fn find(data: &AtlasData, q: &Query) -> Result<partizan_census::QueryAnswer, WebError> {
    let loaded = data.atlas.max_cells();
    let found = if q.max_cells.unwrap_or(data.all) > loaded {
        match data.store.find_indexed(q) {
            Ok(Err(why)) => {
                return Err(WebError::Unavailable(format!(
                    "sizes past {loaded} cells are answered from the level index files alone, and {why} (run `partizan atlas index`, or ask for at most {loaded} cells)"
                )))
            }
            Ok(Ok(ans)) => Ok(ans),
            Err(e) => Err(e),
        }
    } else {
        data.store
            .find_in(q, Some(&data.atlas))
            .map(|(ans, ..)| ans)
    };
    found.map_err(|e| {
        use partizan_census::AtlasError as E;
        if matches!(
            e,
            E::Io { .. } | E::Corrupt { .. } | E::NotBuilt { .. } | E::Decode { .. } | E::Shards(_)
        ) {
            return WebError::Unavailable(format!("the atlas cannot be read: {e}"));
        }
        let name = if q.kind.is_some() && e.to_string().contains("kind") {
            "kind"
        } else {
            "value"
        };
        WebError::param(name, e.to_string())
    })
}

/// `GET /api/atlas[?value=V|kind=K|min_temperature=T][&max_cells=N][&limit=L]`:
/// the atlas report (what `partizan atlas report --json` prints), or with a
/// question what `partizan atlas find --json` answers; a 503 naming the
/// command to run when no atlas is built.
pub(crate) async fn api(State(state): State<AppState>, p: Params) -> Result<Response, ApiError> {
    let m = params(p)?;
    let Some((dir, all)) = present(&state)? else {
        return Err(WebError::Unavailable(NOT_BUILT.to_string()).into());
    };
    let q = query(&m, all)?;
    let data = load(&state, dir, all).await?;
    Ok(match q {
        None => Json(json!(data.report)).into_response(),
        Some(q) => {
            let ans = find(&data, &q)?;
            Json(json!({"total": ans.total, "regions": ans.regions, "max_cells": q.max_cells.unwrap_or(all)}))
                .into_response()
        }
    })
}

const NOT_BUILT: &str = "no atlas is built: run `partizan atlas build --max-cells 13` (it goes to $PARTIZAN_ATLAS, else partizan/atlas in the data directory), then reload";

fn drawing(board: &str, id: &str) -> String {
    let rows: Vec<&str> = board.split('|').collect();
    let w = rows.first().map_or(0, |r| r.chars().count());
    let cells: Vec<Cell> = rows
        .iter()
        .flat_map(|r| r.chars())
        .map(Cell::from_char)
        .collect();
    let mut d = BoardDrawing::new(w, rows.len(), cells);
    d.cell_px = 26.0;
    let (svg, tikz) = d.render_both(id);
    super::figure(id, (svg, tikz))
}

fn region_table(id: &str, rows: &[RegionRow]) -> String {
    let mut t = format!(
        "<div class=\"scroll\"><table id=\"{id}\"><thead><tr><th class=\"num\">cells</th><th>region</th><th>value</th><th>kind</th><th>temperature</th></tr></thead><tbody>"
    );
    for r in rows {
        let _ = write!(
            t,
            "<tr><td class=\"num\">{}</td><td><a class=\"mono\" href=\"{}\">{}</a></td><td class=\"mono val\">{}</td><td>{}</td><td class=\"mono\">{}</td></tr>",
            r.cells,
            explore_href("domineering", &r.board),
            escape(&r.board),
            escape(&crate::html::shorten(&r.value, 60)),
            escape(&r.kind),
            escape(&r.temperature)
        );
    }
    t.push_str("</tbody></table></div>");
    t
}

fn sum<K>(m: &std::collections::BTreeMap<K, u64>) -> u64 {
    m.values().sum()
}

fn render(data: &AtlasData, m: &HashMap<String, String>, found: Option<String>) -> String {
    let r = &data.report;
    let mut s = format!(
        "<p>Every Domineering region up to <b>{}</b> cells, by value: {} distinct values{}. \
Kinds as the subject names them: numbers (integers, fractions), nimbers, ups and downs, tinies and minies, \
other infinitesimals (both stops 0), a number plus an infinitesimal, hot switches ±G and other hot games.</p>",
        r.max_cells,
        thousands(u128::from(r.distinct_values)),
        if data.all > r.max_cells {
            format!(
                " (the directory holds {} cells: the tables stop at {}, for the rest run <code>partizan atlas report</code>; finds reach every size, from the level index files)",
                data.all, r.max_cells
            )
        } else {
            String::new()
        }
    );
    s.push_str("<h2>Value kinds by size</h2><div class=\"scroll\"><table id=\"atlas-kinds\"><thead><tr><th class=\"num\">cells</th><th class=\"num\">regions</th><th class=\"num\">integers</th><th class=\"num\">zeros</th><th class=\"num\">fractions</th><th class=\"num\">nimbers</th><th class=\"num\">ups/downs</th><th class=\"num\">tiny/miny</th><th class=\"num\">other infinitesimal</th><th class=\"num\">number + infinitesimal</th><th class=\"num\">switches</th><th class=\"num\">other hot</th><th>hottest</th></tr></thead><tbody>");
    for (cells, k) in &r.by_size {
        let _ = write!(
            s,
            "<tr><td class=\"num\">{cells}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"mono\">{}</td></tr>",
            thousands(u128::from(k.regions)),
            thousands(u128::from(k.integers)),
            thousands(u128::from(k.zeros)),
            thousands(u128::from(sum(&k.fractions))),
            thousands(u128::from(sum(&k.nimbers))),
            thousands(u128::from(sum(&k.ups))),
            thousands(u128::from(k.tinies + k.minies)),
            thousands(u128::from(k.other_infinitesimals)),
            thousands(u128::from(k.number_plus_infinitesimal)),
            thousands(u128::from(k.switches)),
            thousands(u128::from(k.other_hot)),
            escape(&k.max_temperature)
        );
    }
    s.push_str("</tbody></table></div>");
    s.push_str("<h2>The hottest regions</h2><div class=\"row\" id=\"atlas-hottest-pictures\">");
    for (i, h) in r.hottest.iter().take(DRAWN).enumerate() {
        let _ = write!(
            s,
            "<div class=\"card\" style=\"flex:0 1 auto\">{}<p class=\"muted\">temperature <span class=\"mono\">{}</span>, <span class=\"mono\">{}</span></p></div>",
            drawing(&h.board, &format!("atlas-hot-{}", i + 1)),
            escape(&h.temperature),
            escape(&crate::html::shorten(&h.value, 30))
        );
    }
    s.push_str("</div>");
    s.push_str(&region_table("atlas-hottest", &r.hottest));
    let get = |k: &str| escape(m.get(k).map(|s| s.trim()).unwrap_or(""));
    let _ = write!(
        s,
        "<h2>Find regions</h2><form class=\"inline\" method=\"get\" action=\"/atlas\" id=\"atlas-find\">\
<label>Value <input type=\"text\" name=\"value\" value=\"{}\" placeholder=\"*2\" style=\"min-width:8rem\"></label>\
<label>or kind <input type=\"text\" name=\"kind\" value=\"{}\" placeholder=\"tiny\" style=\"min-width:8rem\"></label>\
<label>or temperature at least <input type=\"text\" name=\"min_temperature\" value=\"{}\" placeholder=\"3/2\" style=\"min-width:6rem\"></label>\
<label>cells at most <input type=\"text\" name=\"max_cells\" value=\"{}\" style=\"min-width:4rem\"></label>\
<button type=\"submit\">Find</button></form>\
<p class=\"muted\">Kinds: integer, fraction, number, nimber, up, down, tiny, miny, infinitesimal, number+infinitesimal, switch, hot, hot-not-switch. The same as <code>partizan atlas find --value V</code> (or <code>--kind</code>, <code>--min-temperature</code>).</p>",
        get("value"),
        get("kind"),
        get("min_temperature"),
        m.get("max_cells").map_or(data.all.to_string(), |s| escape(s.trim()))
    );
    if let Some(f) = found {
        s.push_str(&f);
    }
    let _ = write!(
        s,
        "<p class=\"muted\">JSON: <a href=\"/api/atlas\">the report</a>{}.</p>",
        if m.contains_key("value") || m.contains_key("kind") || m.contains_key("min_temperature") {
            format!(
                " · <a href=\"/api/atlas?value={}&amp;kind={}&amp;min_temperature={}\">this find</a>",
                url_encode(m.get("value").map_or("", |s| s.trim())),
                url_encode(m.get("kind").map_or("", |s| s.trim())),
                url_encode(m.get("min_temperature").map_or("", |s| s.trim()))
            )
        } else {
            String::new()
        }
    );
    s
}

/// `GET /atlas`.
pub(crate) async fn page_handler(State(state): State<AppState>, p: Params) -> Response {
    let m = match params(p) {
        Ok(m) => m,
        Err(e) => return PageError(e).into_response(),
    };
    let head = "<h1>The Domineering atlas</h1>";
    let present = match present(&state) {
        Ok(p) => p,
        Err(e) => return PageError(e).into_response(),
    };
    let Some((dir, all)) = present else {
        let body = format!(
            "{head}<div class=\"card\" id=\"atlas-missing\"><p>No atlas is built yet. Build one with</p>\
<pre class=\"mono\">partizan atlas build --max-cells 13</pre><p>(every Domineering region to 13 cells, a few seconds; 18 cells were built here with <code>--shard</code>; shapes reach 21). \
It is written to <code>$PARTIZAN_ATLAS</code>, else <code>partizan/atlas</code> in the data directory; restart nothing, reload this page. \
This site loads at most {ATLAS_CELLS} cells of it for its tables; finds reach every size through the level index files.</p></div>"
        );
        return Html(page("Atlas", "atlas", &body)).into_response();
    };
    let data = match load(&state, dir, all).await {
        Ok(d) => d,
        Err(e) => return PageError(e).into_response(),
    };
    let found = match query(&m, all).and_then(|q| q.map(|q| find(&data, &q)).transpose()) {
        Ok(None) => None,
        Ok(Some(ans)) => Some(format!(
            "<p id=\"atlas-found\">{} regions match{}.</p>{}",
            thousands(u128::from(ans.total)),
            if ans.total > ans.regions.len() as u64 {
                format!(", the first {} listed", ans.regions.len())
            } else {
                String::new()
            },
            region_table("atlas-found-table", &ans.regions)
        )),
        Err(e) if e.status() == StatusCode::BAD_REQUEST => {
            let body = format!(
                "{head}<p class=\"error\" id=\"error\">{}</p>{}",
                escape(&e.to_string()),
                render(&data, &m, None)
            );
            return (StatusCode::BAD_REQUEST, Html(page("Atlas", "atlas", &body))).into_response();
        }
        Err(e) => return PageError(e).into_response(),
    };
    let body = format!("{head}{}", render(&data, &m, found));
    Html(page("Atlas", "atlas", &body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_census::AtlasConfig;

    #[test]
    fn a_small_atlas_renders_and_finds() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = DirStore::new(dir.path());
        let mut cfg = AtlasConfig::new(6);
        cfg.threads = 1;
        Atlas::build(&cfg, &mut store).unwrap();
        let atlas = Atlas::load(&mut store, 6).unwrap();
        let report = atlas.report(HOTTEST);
        let data = AtlasData {
            store: store.clone(),
            atlas,
            report,
            all: 6,
        };
        // The 1x2 vertical domino region is 1: some region up to 6 cells is 1.
        let q = Query {
            value: Some("1".into()),
            min_temperature: None,
            kind: None,
            max_cells: Some(6),
            limit: 5,
        };
        let ans = find(&data, &q).unwrap();
        assert_eq!(ans.source, "index", "{:?}", ans.note);
        assert!(ans.total > 0);
        assert!(ans.regions.iter().all(|r| r.value == "1"));
        // the one find path answers as the loaded atlas does, from the
        // index files
        for limit in [3, MAX_LIMIT] {
            for value in ["0", "1", "*", "{1|-1}"] {
                let q = Query {
                    value: Some(value.into()),
                    limit,
                    ..q.clone()
                };
                let (a, b) = (find(&data, &q).unwrap(), data.atlas.query(&q).unwrap());
                assert_eq!(
                    (a.total, a.regions),
                    (b.total, b.regions),
                    "{value}, {limit}"
                );
            }
        }
        // One region of one cell: the value 0.
        assert_eq!(data.report.by_size[&1].regions, 1);
        assert_eq!(data.report.by_size[&1].zeros, 1);
        let html = render(&data, &HashMap::new(), None);
        assert!(html.contains("id=\"atlas-kinds\""));
        assert!(html.contains("<svg id=\"atlas-hot-1\""));
        // A bad kind is a 400 naming it.
        let bad = Query {
            value: None,
            kind: Some("lukewarm".into()),
            ..q
        };
        assert!(matches!(find(&data, &bad), Err(WebError::BadParam { .. })));
    }

    /// A directory holding more sizes than the site loads: the tables stop
    /// at the loaded ones, finds past them come from the index files alone
    /// (the same answers as the whole atlas), and a 503 says why when an
    /// index is missing.
    #[test]
    fn finds_past_the_loaded_sizes_read_the_index() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = DirStore::new(dir.path());
        let mut cfg = AtlasConfig::new(8);
        cfg.threads = 1;
        Atlas::build(&cfg, &mut store).unwrap();
        let whole = Atlas::load(&mut store, 8).unwrap();
        let atlas = Atlas::load(&mut store, 5).unwrap();
        let report = atlas.report(HOTTEST);
        let data = AtlasData {
            store: store.clone(),
            atlas,
            report,
            all: 8,
        };
        let html = render(&data, &HashMap::new(), None);
        assert!(html.contains("holds 8 cells"), "{html}");
        assert_eq!(data.report.by_size.len(), 5, "the tables: the loaded sizes");
        for value in ["0", "*", "^", "{1|-1}"] {
            for max in [4, 5, 7, 8] {
                let q = Query {
                    value: Some(value.into()),
                    min_temperature: None,
                    kind: None,
                    max_cells: Some(max),
                    limit: 7,
                };
                let (a, b) = (find(&data, &q).unwrap(), whole.query(&q).unwrap());
                assert_eq!(
                    (a.total, a.regions),
                    (b.total, b.regions),
                    "{value} to {max}"
                );
            }
        }
        std::fs::remove_file(dir.path().join("level-07.index.pzal")).unwrap();
        let q = Query {
            value: Some("*".into()),
            min_temperature: None,
            kind: None,
            max_cells: Some(8),
            limit: 7,
        };
        match find(&data, &q) {
            Err(WebError::Unavailable(why)) => assert!(why.contains("atlas index"), "{why}"),
            other => panic!("{other:?}"),
        }
        // within the loaded sizes the loaded atlas still answers
        let q = Query {
            max_cells: Some(5),
            ..q
        };
        assert!(find(&data, &q).is_ok());
    }
}
