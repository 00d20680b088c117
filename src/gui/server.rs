//! The HTTP server: axum's router over the API and the page's assets
//! (compiled into the binary, so `cargo install` is all a user needs),
//! with a request-body limit and JSON answers for unknown paths and
//! methods.

use super::api::{self, ApiError};
use super::store::Store;
use axum::extract::DefaultBodyLimit;
use axum::http::{header, Method, StatusCode, Uri};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex, MutexGuard};

/// The server's limits.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Threads of each engine search (Lazy SMP).
    pub engine_threads: usize,
    /// Games kept in memory; a new game beyond it drops the oldest.
    pub max_games: usize,
    /// Engine searches (analyses included) running at once; more are
    /// refused with a 429.
    pub max_searches: usize,
    /// The largest request body, in bytes; larger ones get a 413.
    pub body_limit: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            engine_threads: 1,
            max_games: 64,
            max_searches: 4,
            body_limit: 64 * 1024,
        }
    }
}

/// What every request shares.
pub struct AppState {
    store: Mutex<Store>,
    pub config: Config,
    /// The searches running now.
    pub searches: AtomicUsize,
}

impl AppState {
    /// The games. A handler that panicked while holding them left them as
    /// they were between two whole changes, so a poisoned lock is used on.
    pub fn lock(&self) -> MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(|e| e.into_inner())
    }
}

const INDEX: &str = include_str!("page/index.html");
const STYLE: &str = include_str!("page/style.css");
const SCRIPT: &str = include_str!("page/app.js");

/// The page and the API.
pub fn router(config: Config) -> Router {
    let state = Arc::new(AppState {
        store: Mutex::new(Store::new(config.max_games)),
        config,
        searches: AtomicUsize::new(0),
    });
    Router::new()
        .route("/", get(|| asset("text/html; charset=utf-8", INDEX)))
        .route(
            "/style.css",
            get(|| asset("text/css; charset=utf-8", STYLE)),
        )
        .route(
            "/app.js",
            get(|| asset("text/javascript; charset=utf-8", SCRIPT)),
        )
        .route("/api/games", post(api::new_game))
        .route("/api/games/{id}", get(api::get_game))
        .route("/api/games/{id}/move", post(api::play))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/players", post(api::players))
        .route("/api/games/{id}/search", post(api::search))
        .route("/api/games/{id}/analyse", post(api::analyse))
        .route("/api/games/{id}/stop", post(api::stop))
        .route("/api/games/{id}/pgn", get(api::pgn))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(config.body_limit))
        .with_state(state)
}

/// Serves `router` on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, router: Router) -> std::io::Result<()> {
    axum::serve(listener, router).await
}

async fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, content_type)], body)
}

async fn not_found(uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "path",
        format!("no such path '{}'", crate::user_text::quote(uri.path())),
    )
}

async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method",
        format!(
            "{method} is not allowed on '{}'",
            crate::user_text::quote(uri.path())
        ),
    )
}
