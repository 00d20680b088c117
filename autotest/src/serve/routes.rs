//! The router: the pages, the run's live updates and PGN file, the two
//! embedded assets (compiled in: no path of a request is ever read from
//! disk), and plain-text answers for everything that goes wrong.

use super::html;
use super::{history_page, list, live, run_page};
use axum::extract::{Path as UrlPath, RawQuery, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const STYLE: &str = include_str!("page/style.css");
const SCRIPT: &str = include_str!("page/run.js");

/// What a request gets when it cannot have its page.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub message: String,
}

impl Answer {
    pub fn bad_request(message: String) -> Answer {
        Answer {
            status: StatusCode::BAD_REQUEST,
            message,
        }
    }

    pub fn not_found(message: String) -> Answer {
        Answer {
            status: StatusCode::NOT_FOUND,
            message,
        }
    }

    /// The database could not be read (locked past the busy timeout,
    /// damaged, gone, written by a newer autotest). 409 Conflict: the
    /// request is sound but the database's state keeps it from an answer,
    /// and the same request may succeed later. Not a 5xx: the server
    /// itself works and goes on serving.
    pub fn database(error: &str) -> Answer {
        Answer {
            status: StatusCode::CONFLICT,
            message: format!("the results database cannot be read now: {error}"),
        }
    }
}

impl IntoResponse for Answer {
    fn into_response(self) -> Response {
        (
            self.status,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("{}\n", self.message),
        )
            .into_response()
    }
}

/// What every handler shares: the database file.
pub type Db = Arc<Path>;

/// The dashboard's router over the database at `db`.
pub fn router(db: PathBuf) -> Router {
    let db: Db = Arc::from(db.into_boxed_path());
    Router::new()
        .route("/", get(list_page))
        .route("/runs", get(list_page))
        .route("/runs/{id}", get(run_page::page))
        .route("/runs/{id}/events", get(live::events))
        .route("/runs/{id}/games.pgn", get(run_page::pgn))
        .route("/history", get(history_page::page))
        .route(
            "/static/style.css",
            get(|| asset("text/css; charset=utf-8", STYLE)),
        )
        .route(
            "/static/run.js",
            get(|| asset("text/javascript; charset=utf-8", SCRIPT)),
        )
        .fallback(not_found)
        .with_state(db)
}

async fn list_page(
    State(db): State<Db>,
    RawQuery(query): RawQuery,
) -> Result<Html<String>, Answer> {
    let filter = list::Filter::parse(query.as_deref())?;
    list::page(db, filter).await
}

/// The run id in a path: a whole number, else 400.
pub fn run_id(UrlPath(id): UrlPath<String>) -> Result<i64, Answer> {
    id.parse().map_err(|_| {
        Answer::bad_request(format!(
            "a run is a whole number, not '{}'",
            html::printable(&id)
        ))
    })
}

async fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, content_type)], body)
}

async fn not_found(uri: Uri) -> Answer {
    Answer::not_found(format!("no page at '{}'", html::printable(uri.path())))
}
