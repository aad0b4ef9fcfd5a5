//! The routes: pages and the JSON API. Each page module has a pure
//! `compute` part (run on the blocking pool under the budget) and a `render`
//! part (HTML); the API answers the computed reports as JSON.

mod api;
mod explore;
mod home;

use std::collections::HashMap;

use axum::extract::rejection::QueryRejection;
use axum::extract::Query;
use axum::http::Uri;
use axum::routing::get;
use axum::Router;

use crate::error::{PageError, WebError};
use crate::AppState;

/// Results that are expensive and never change, computed once per process.
#[derive(Default)]
pub(crate) struct Cache {}

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
pub(crate) fn required<'a>(m: &'a HashMap<String, String>, name: &str) -> Result<&'a str, WebError> {
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

async fn not_found(uri: Uri) -> PageError {
    PageError(WebError::NotFound(uri.path().to_string()))
}

/// Every route of the site.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(home::home))
        .route("/api", get(api::doc))
        .route("/api/health", get(api::health))
        .route("/api/value", get(api::value))
        .route("/api/graph", get(api::graph))
        .route("/explore", get(explore::page_handler))
        .route("/api/explore", get(explore::api_handler))
        .fallback(not_found)
}
