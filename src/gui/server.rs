//! The HTTP server: axum's router over the API and the page's assets
//! (compiled into the binary, so `cargo install` is all a user needs),
//! with a request-body limit and JSON answers for unknown paths and
//! methods.

use super::api::{self, ApiError};
use super::options;
use super::state::{AppState, Config};
use axum::extract::DefaultBodyLimit;
use axum::http::{header, Method, StatusCode, Uri};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;

const INDEX: &str = include_str!("page/index.html");
const STYLE: &str = include_str!("page/style.css");
const SCRIPT: &str = include_str!("page/app.js");
const OPTIONS_SCRIPT: &str = include_str!("page/options.js");

/// The page and the API.
pub fn router(config: Config) -> Router {
    let body_limit = config.body_limit;
    let state = Arc::new(AppState::new(config));
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
        .route(
            "/options.js",
            get(|| asset("text/javascript; charset=utf-8", OPTIONS_SCRIPT)),
        )
        .route("/api/options", get(options::list).post(options::set))
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
        .layer(DefaultBodyLimit::max(body_limit))
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
