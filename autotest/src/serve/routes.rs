//! The router: the pages, the run's live updates and PGN file, the two
//! embedded assets (compiled in: no path of a request is ever read from
//! disk), and a 404 for any other path.

use super::answer::Answer;
use super::connection::{Database, Db};
use super::html;
use super::{artifacts_page, history_page, list, live, run_page};
use axum::extract::{RawQuery, State};
use axum::http::{header, Uri};
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use axum::Router;
use std::path::PathBuf;
use std::sync::Arc;

const STYLE: &str = include_str!("page/style.css");
const SCRIPT: &str = include_str!("page/run.js");

/// The dashboard's router over the database at `db`.
pub fn router(db: PathBuf) -> Router {
    router_over(Arc::new(Database {
        path: db,
        store: None,
    }))
}

/// The dashboard's router over `db`.
pub fn router_over(db: Db) -> Router {
    Router::new()
        .route("/", get(list_page))
        .route("/runs", get(list_page))
        .route("/runs/{id}", get(run_page::page))
        .route("/runs/{id}/events", get(live::events))
        .route("/runs/{id}/games.pgn", get(run_page::pgn))
        .route("/history", get(history_page::page))
        .route("/nets", get(artifacts_page::nets))
        .route("/nets/{hash}", get(artifacts_page::net))
        .route("/data", get(artifacts_page::datasets))
        .route("/data/{hash}", get(artifacts_page::dataset))
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

async fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, content_type)], body)
}

async fn not_found(uri: Uri) -> Answer {
    Answer::not_found(format!("no page at '{}'", html::printable(uri.path())))
}
