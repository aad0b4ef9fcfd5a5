//! The routes: pages and the JSON API. Each page module has a pure
//! `compute` part (run on the blocking pool under the budget) and a `render`
//! part (HTML); the API answers the computed reports as JSON.

mod api;
mod atlas;
mod census;
mod essays;
mod explore;
mod grundy;
mod home;
mod loopy;
mod outcome;
mod semigroups;
mod sylver;
mod value;

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use axum::extract::rejection::QueryRejection;
use axum::extract::Query;
use axum::http::{header, HeaderValue, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::error::{ApiError, PageError, WebError};
use crate::AppState;

/// Results computed at most once per key and kept: concurrent askers wait
/// for the one computation; a failed computation is not kept.
pub(crate) struct Memo<K, V> {
    cells: Mutex<HashMap<K, Arc<tokio::sync::OnceCell<Arc<V>>>>>,
}

impl<K, V> Default for Memo<K, V> {
    fn default() -> Self {
        Memo {
            cells: Mutex::new(HashMap::new()),
        }
    }
}

impl<K: Eq + Hash, V> Memo<K, V> {
    /// The value for `key`, computing it with `f` if no one has yet.
    pub(crate) async fn get_or_compute<F>(&self, key: K, f: F) -> Result<Arc<V>, WebError>
    where
        F: Future<Output = Result<Arc<V>, WebError>>,
    {
        let cell = {
            let mut m = self.cells.lock().unwrap_or_else(|p| p.into_inner());
            m.entry(key).or_default().clone()
        };
        cell.get_or_try_init(|| f).await.cloned()
    }
}

/// Results that are expensive and never change, computed once per process.
#[derive(Default)]
pub(crate) struct Cache {
    /// Censuses by (ruleset, max cells).
    pub(crate) census: Memo<(&'static str, usize), census::CensusData>,
    /// Semigroup counts by largest genus.
    pub(crate) semigroups: Memo<u32, Vec<u64>>,
    /// Sylver Coinage censuses by largest number of gaps.
    pub(crate) sylver: Memo<u32, partizan_semigroup::sylver::census::CensusReport>,
    /// Loaded atlases by (directory, cells).
    pub(crate) atlas: Memo<(std::path::PathBuf, usize), atlas::AtlasData>,
}

/// Query parameters as a map; a malformed query string is a 400.
pub(crate) type Params = Result<Query<HashMap<String, String>>, QueryRejection>;

/// The parameters of a request, or a 400 naming the problem.
pub(crate) fn params(p: Params) -> Result<HashMap<String, String>, WebError> {
    match p {
        Ok(Query(m)) => Ok(m),
        Err(e) => Err(WebError::param("query", e.body_text())),
    }
}

/// A required parameter.
pub(crate) fn required<'a>(
    m: &'a HashMap<String, String>,
    name: &str,
) -> Result<&'a str, WebError> {
    match m.get(name).map(|s| s.trim()) {
        Some(s) if !s.is_empty() => Ok(s),
        _ => Err(WebError::param(name, "missing")),
    }
}

/// An optional numeric parameter with a default and an upper bound.
pub(crate) fn number_param<T>(
    m: &HashMap<String, String>,
    name: &str,
    default: T,
    max: T,
) -> Result<T, WebError>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    match m.get(name).map(|s| s.trim()).filter(|s| !s.is_empty()) {
        None => Ok(default),
        Some(s) => {
            let v: T = s
                .parse()
                .map_err(|_| WebError::param(name, format!("'{s}' is not a number")))?;
            if v > max {
                return Err(WebError::param(
                    name,
                    format!("{v} is over this site's limit of {max}"),
                ));
            }
            Ok(v)
        }
    }
}

/// A plot with its download buttons: `id` goes on the `<svg>`.
pub(crate) fn figure(id: &str, (svg, tikz): (String, String)) -> String {
    let svg = svg.replacen(
        "<svg ",
        &format!("<svg id=\"{}\" ", crate::html::escape(id)),
        1,
    );
    format!("{svg}{}", explore::downloads(id, &tikz))
}

/// An unknown address: a JSON error under `/api/`, a page elsewhere.
async fn not_found(uri: Uri) -> Response {
    let e = WebError::NotFound(uri.path().to_string());
    if uri.path() == "/api" || uri.path().starts_with("/api/") {
        ApiError(e).into_response()
    } else {
        PageError(e).into_response()
    }
}

/// `GET /static/app.js`: the site's one script.
async fn app_js() -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                "application/javascript; charset=utf-8",
            ),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        crate::html::APP_JS,
    )
        .into_response()
}

/// Headers every answer carries: the Content-Security-Policy (no inline
/// script runs, so an injected tag is inert), no MIME sniffing, and no
/// referrer sent elsewhere.
async fn security_headers(mut resp: Response) -> Response {
    let h = resp.headers_mut();
    for (name, value) in crate::html::SECURITY_HEADERS {
        h.insert(
            header::HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
    }
    resp
}

/// Every route of the site.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(home::home))
        .route("/value", get(value::page_handler))
        .route("/api/analyse", get(value::api))
        .route("/api", get(api::doc))
        .route("/api/health", get(api::health))
        .route("/api/value", get(api::value))
        .route("/api/graph", get(api::graph))
        .route("/api/options", get(api::options))
        .route("/api/thermograph", get(api::thermograph))
        .route("/api/game", get(api::game))
        .route("/api/job", get(api::job))
        .route("/api/outcome", get(outcome::api))
        .route("/loopy", get(loopy::page_handler))
        .route("/api/loopy", get(loopy::api))
        .route("/grundy", get(grundy::page_handler))
        .route("/api/grundy", get(grundy::api))
        .route("/atlas", get(atlas::page_handler))
        .route("/api/atlas", get(atlas::api))
        .route("/parts", get(essays::parts_page))
        .route("/api/parts", get(essays::parts_api))
        .route("/sylver/trace", get(essays::trace_page))
        .route("/api/sylver/trace", get(essays::trace_api))
        .route("/outcome", get(outcome::page_handler))
        .route("/api/job/cancel", get(api::job_cancel))
        .route("/explore", get(explore::page_handler))
        .route("/census", get(census::index))
        .route("/census/{ruleset}", get(census::page_handler))
        .route("/api/census/{ruleset}", get(census::api))
        .route("/semigroups", get(semigroups::page_handler))
        .route("/sylver", get(sylver::index))
        .route("/sylver/position", get(sylver::position_page))
        .route("/api/sylver/play", get(sylver::play_api))
        .route("/api/sylver/census", get(sylver::census_api))
        .route("/api/semigroups", get(semigroups::api))
        .route("/api/explore", get(explore::api_handler))
        .route(crate::html::APP_JS_PATH, get(app_js))
        .fallback(not_found)
        .layer(axum::middleware::map_response(security_headers))
}
