//! What can go wrong with a request, and how each fault answers: bad input is
//! a 400 naming the problem, an unknown page a 404, a full house or a spent
//! time budget a 503 with a message to retry, and only a bug a 500.
//!
//! Every handler returns either [`PageError`] (an HTML page) or [`ApiError`]
//! (a JSON object `{"error": ..., "kind": ...}`); both wrap one [`WebError`].

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use serde_json::json;
use thiserror::Error;

use crate::html;

/// A fault met while answering a request.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum WebError {
    /// A ruleset name the site does not know.
    #[error("unknown ruleset '{name}' (known: {known})")]
    UnknownRuleset {
        /// The name as given.
        name: String,
        /// The known names, comma separated.
        known: String,
    },
    /// Board text the ruleset could not parse.
    #[error("bad {ruleset} board: {message}")]
    BadBoard {
        /// The ruleset's name.
        ruleset: String,
        /// The parser's complaint.
        message: String,
    },
    /// A board over the per-ruleset cell cap of the site.
    #[error("{ruleset} board has {cells} cells; this site answers boards of at most {cap} cells for {ruleset}")]
    TooLarge {
        /// The ruleset's name.
        ruleset: String,
        /// Cells in the board as given.
        cells: usize,
        /// The cap.
        cap: usize,
    },
    /// A position graph over the site's size cap.
    #[error(
        "the position graph has more than {0} positions, more than this site counts per request"
    )]
    GraphTooLarge(usize),
    /// A query parameter missing or malformed.
    #[error("bad parameter '{name}': {message}")]
    BadParam {
        /// The parameter.
        name: String,
        /// What is wrong with it.
        message: String,
    },
    /// No such page.
    #[error("no page at {0}")]
    NotFound(String),
    /// Every heavy-work slot is taken.
    #[error("the server is busy ({0} heavy requests already running); retry in a moment")]
    Busy(usize),
    /// The work ran past its time budget and was stopped.
    #[error("the computation ran past its time budget of {0} ms and was stopped; try a smaller board or retry later")]
    OutOfTime(u64),
    /// The request ran out of time and its board went on computing in the
    /// background: retry, or watch `/api/job`.
    #[error("the computation ran past this request's budget of {budget_ms} ms; {board} goes on computing in the background (one at a time, see /api/job; cancel with /api/job/cancel); this answer will be ready when it finishes")]
    Background {
        /// The request's budget.
        budget_ms: u64,
        /// The ruleset and board.
        board: String,
    },
    /// Something the site relies on is not available (a crate's data, the store).
    #[error("{0}")]
    Unavailable(String),
    /// An identity the site asserts failed on this input (a ruleset bug);
    /// the statement names the two numbers.
    #[error("{0}")]
    IdentityFailed(String),
    /// A bug: the work panicked or a library failed unexpectedly.
    #[error("internal error: {0}")]
    Internal(String),
}

impl WebError {
    /// The HTTP status this fault answers with.
    pub fn status(&self) -> StatusCode {
        match self {
            WebError::UnknownRuleset { .. }
            | WebError::BadBoard { .. }
            | WebError::TooLarge { .. }
            | WebError::GraphTooLarge(_)
            | WebError::BadParam { .. } => StatusCode::BAD_REQUEST,
            WebError::NotFound(_) => StatusCode::NOT_FOUND,
            WebError::Busy(_)
            | WebError::OutOfTime(_)
            | WebError::Background { .. }
            | WebError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            WebError::IdentityFailed(_) | WebError::Internal(_) => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
        }
    }

    /// A short machine-readable name of the fault, the `kind` of the JSON error.
    pub fn kind(&self) -> &'static str {
        match self {
            WebError::UnknownRuleset { .. } => "unknown_ruleset",
            WebError::BadBoard { .. } => "bad_board",
            WebError::TooLarge { .. } | WebError::GraphTooLarge(_) => "too_large",
            WebError::BadParam { .. } => "bad_param",
            WebError::NotFound(_) => "not_found",
            WebError::Busy(_) => "busy",
            WebError::OutOfTime(_) => "out_of_time",
            WebError::Background { .. } => "computing_in_background",
            WebError::Unavailable(_) => "unavailable",
            WebError::IdentityFailed(_) => "identity_failed",
            WebError::Internal(_) => "internal",
        }
    }

    /// A missing or malformed parameter.
    pub fn param(name: &str, message: impl Into<String>) -> WebError {
        WebError::BadParam {
            name: name.to_string(),
            message: message.into(),
        }
    }

    fn retry_after(&self) -> Option<HeaderValue> {
        match self {
            WebError::Busy(_) => Some(HeaderValue::from_static("1")),
            WebError::OutOfTime(_) | WebError::Background { .. } => {
                Some(HeaderValue::from_static("5"))
            }
            _ => None,
        }
    }
}

/// A fault answered as an HTML page.
#[derive(Debug)]
pub struct PageError(pub WebError);

/// A fault answered as a JSON object `{"error": message, "kind": kind}`.
#[derive(Debug)]
pub struct ApiError(pub WebError);

impl From<WebError> for PageError {
    fn from(e: WebError) -> Self {
        PageError(e)
    }
}

impl From<WebError> for ApiError {
    fn from(e: WebError) -> Self {
        ApiError(e)
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let e = self.0;
        let status = e.status();
        let title = match status {
            StatusCode::BAD_REQUEST => "Bad request",
            StatusCode::NOT_FOUND => "Not found",
            StatusCode::SERVICE_UNAVAILABLE => "Try again",
            _ => "Error",
        };
        let refresh = if matches!(e, WebError::Background { .. }) {
            "<meta http-equiv=\"refresh\" content=\"5\"><p class=\"muted\" id=\"background\">This page reloads every 5 s until the answer is ready. <a href=\"/api/job\">progress</a> · <a href=\"/api/job/cancel\">cancel</a></p>"
        } else {
            ""
        };
        let body = format!(
            "<h1>{title}</h1>\n<p class=\"error\" id=\"error\">{}</p>\n{refresh}<p>Status {} — <a href=\"/\">back to the start</a>.</p>",
            html::escape(&e.to_string()),
            status.as_u16()
        );
        let mut resp = (status, Html(html::page(title, "", &body))).into_response();
        if let Some(v) = e.retry_after() {
            resp.headers_mut().insert(header::RETRY_AFTER, v);
        }
        resp
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let e = self.0;
        let status = e.status();
        let body = json!({ "error": e.to_string(), "kind": e.kind() });
        // Echoed input stays inert even if something renders the JSON as
        // markup: angle brackets go out as JSON escapes.
        let text = body
            .to_string()
            .replace('<', "\\u003c")
            .replace('>', "\\u003e");
        let mut resp = (status, [(header::CONTENT_TYPE, "application/json")], text).into_response();
        if let Some(v) = e.retry_after() {
            resp.headers_mut().insert(header::RETRY_AFTER, v);
        }
        resp
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_input_is_400_and_load_is_503() {
        assert_eq!(
            WebError::param("board", "missing").status(),
            StatusCode::BAD_REQUEST
        );
        assert_eq!(WebError::Busy(4).status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            WebError::OutOfTime(10).status(),
            StatusCode::SERVICE_UNAVAILABLE
        );
        assert!(WebError::Busy(4).to_string().contains("retry"));
    }
}
