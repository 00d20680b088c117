//! The JSON API under `/api`: each handler reads its request (a JSON body
//! of at most `Config::body_limit` bytes, unknown fields refused), asks
//! the store and the rules, and answers with the game's state; anything
//! wrong gets a 4xx whose body is `{"error": what was wrong, "field":
//! where}`. A request that changes a game cancels its running search.

use super::state::{AppState, Running};
use super::store::{Entry, Players};
use super::think::{self, Control, EngineMove, Last, Limit, Task};
use super::view;
use crate::rules::fen;
use crate::rules::game::MoveError;
use crate::rules::moves::Move;
use crate::user_text::quote;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// The longest player name kept.
const MAX_NAME: usize = 60;
/// The deepest search and the longest think a page may ask for.
const MAX_DEPTH: u32 = 30;
const MAX_MILLIS: u64 = 60_000;
/// The lines an analysis shows unless asked, and the most it may show
/// (the search's `MultiPV` range).
const DEFAULT_LINES: usize = 3;
const MAX_LINES: usize = 16;

/// A refused request: its status, what was wrong, and where.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    field: &'static str,
    message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, field: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            field,
            message: message.into(),
        }
    }

    pub(super) fn bad(field: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, field, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({ "error": self.message, "field": self.field });
        (self.status, json_headers(), body.to_string()).into_response()
    }
}

fn json_headers() -> [(header::HeaderName, &'static str); 2] {
    [
        (header::CONTENT_TYPE, "application/json"),
        (header::CACHE_CONTROL, "no-store"),
    ]
}

pub(super) fn ok(value: Value) -> Response {
    (StatusCode::OK, json_headers(), value.to_string()).into_response()
}

pub(super) type Answer = Result<Response, ApiError>;

/// The game id of the path, a number.
fn game_id(path: Result<Path<String>, PathRejection>) -> Result<u64, ApiError> {
    let Path(text) = path.map_err(|e| ApiError::bad("id", e.body_text()))?;
    text.parse()
        .map_err(|_| ApiError::bad("id", format!("game id '{}' is not a number", quote(&text))))
}

fn no_game(id: u64, state: &AppState) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "id",
        format!(
            "no game {id} (at most {} games are kept: the oldest may have been dropped)",
            state.config.max_games
        ),
    )
}

/// The JSON body as `T`. It must be sent as `application/json`: a page of
/// another site can not send that without the browser asking first, so
/// no other site can play on a user's games.
pub(super) fn body<T: DeserializeOwned>(
    headers: &HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    let bytes = bytes.map_err(|e| ApiError::new(e.status(), "body", e.body_text()))?;
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(';').next().unwrap_or("").trim() == "application/json");
    if !json {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "body",
            "the body must be JSON, sent with Content-Type: application/json",
        ));
    }
    serde_json::from_slice(&bytes).map_err(|e| ApiError::bad("body", format!("bad JSON body: {e}")))
}

/// A player's name: at most `MAX_NAME` characters, no control characters.
fn name(field: &'static str, text: Option<String>, default: &str) -> Result<String, ApiError> {
    let text = text.unwrap_or_else(|| default.to_string());
    if text.chars().count() > MAX_NAME || text.chars().any(char::is_control) {
        return Err(ApiError::bad(
            field,
            format!(
                "a player's name has at most {MAX_NAME} characters and no control characters, got '{}'",
                quote(&text)
            ),
        ));
    }
    Ok(text)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    fen: Option<String>,
    white: Option<String>,
    black: Option<String>,
}

/// `POST /api/games`: a new game from the start position or `fen`.
pub async fn new_game(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: NewGame = body(&headers, bytes)?;
    let players = Players {
        white: name("white", req.white, "Human")?,
        black: name("black", req.black, "Human")?,
    };
    let text = req.fen.unwrap_or_else(|| fen::STARTPOS.to_string());
    let entry = Entry::new(text.trim(), players)
        .map_err(|e| ApiError::bad("fen", format!("bad FEN '{}': {e}", quote(&text))))?;
    let mut store = state.lock();
    let id = store.insert(entry);
    let entry = store.get(id).ok_or_else(|| no_game(id, &state))?;
    Ok(ok(view::game(id, entry)))
}

/// `GET /api/games/{id}`.
pub async fn get_game(
    State(state): State<Arc<AppState>>,
    path: Result<Path<String>, PathRejection>,
) -> Answer {
    let id = game_id(path)?;
    let store = state.lock();
    let entry = store.get(id).ok_or_else(|| no_game(id, &state))?;
    Ok(ok(view::game(id, entry)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayMove {
    #[serde(rename = "move")]
    text: String,
}

/// `POST /api/games/{id}/move`: plays `{"move": "g4L"}` if it is legal.
pub async fn play(
    State(state): State<Arc<AppState>>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Answer {
    let id = game_id(path)?;
    let req: PlayMove = body(&headers, bytes)?;
    let mut store = state.lock();
    let entry = store.get_mut(id).ok_or_else(|| no_game(id, &state))?;
    let m = Move::parse(req.text.trim()).map_err(|e| ApiError::bad("move", e.to_string()))?;
    entry.cancel_search();
    entry.play(m, None).map_err(|e| refused(entry, m, e))?;
    Ok(ok(view::game(id, entry)))
}

/// A refused move: 409 when the game is over, else 400 with the rules'
/// reason.
fn refused(entry: &Entry, m: Move, e: MoveError) -> ApiError {
    match e {
        MoveError::GameOver(_) => ApiError::new(StatusCode::CONFLICT, "move", e.to_string()),
        MoveError::NotAvailable(_) => {
            ApiError::bad("move", format!("{e}: {}", entry.game.why_unavailable(m)))
        }
        _ => ApiError::bad("move", e.to_string()),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Undo {
    plies: Option<usize>,
}

/// `POST /api/games/{id}/undo`: takes back `plies` moves (default 1).
pub async fn undo(
    State(state): State<Arc<AppState>>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Answer {
    let id = game_id(path)?;
    let req: Undo = body(&headers, bytes)?;
    let mut store = state.lock();
    let entry = store.get_mut(id).ok_or_else(|| no_game(id, &state))?;
    let plies = req.plies.unwrap_or(1);
    let played = entry.records.len();
    if plies == 0 || plies > played {
        return Err(ApiError::bad(
            "plies",
            format!("can take back 1..{played} moves, not {plies}"),
        ));
    }
    entry.cancel_search();
    entry.undo(plies).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "plies",
            format!("replaying the game failed: {e}"),
        )
    })?;
    Ok(ok(view::game(id, entry)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetPlayers {
    white: Option<String>,
    black: Option<String>,
}

/// `POST /api/games/{id}/players`: the names the PGN gives the players.
pub async fn players(
    State(state): State<Arc<AppState>>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Answer {
    let id = game_id(path)?;
    let req: SetPlayers = body(&headers, bytes)?;
    let mut store = state.lock();
    let entry = store.get_mut(id).ok_or_else(|| no_game(id, &state))?;
    let white = name("white", req.white, &entry.players.white)?;
    let black = name("black", req.black, &entry.players.black)?;
    entry.players = Players { white, black };
    Ok(ok(view::game(id, entry)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Search {
    depth: Option<u32>,
    movetime: Option<u64>,
}

/// `POST /api/games/{id}/search`: the engine thinks for the side to move
/// (`{"depth": N}` or `{"movetime": ms}`) and plays its move; the answer
/// is a stream of server-sent events (`info` per iteration, then `move`
/// or `stopped`). A search already running for the game is cancelled.
pub async fn search(
    State(state): State<Arc<AppState>>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Answer {
    let id = game_id(path)?;
    let req: Search = body(&headers, bytes)?;
    let limit = match (req.depth, req.movetime) {
        (Some(d), None) if (1..=MAX_DEPTH).contains(&d) => Limit::Depth(d),
        (None, Some(ms)) if (1..=MAX_MILLIS).contains(&ms) => Limit::Millis(ms),
        (Some(d), None) => {
            return Err(ApiError::bad(
                "depth",
                format!("depth wants 1..{MAX_DEPTH}, got {d}"),
            ))
        }
        (None, Some(ms)) => {
            return Err(ApiError::bad(
                "movetime",
                format!("movetime wants 1..{MAX_MILLIS} ms, got {ms}"),
            ))
        }
        _ => {
            return Err(ApiError::bad(
                "body",
                "a search wants exactly one of depth and movetime",
            ))
        }
    };
    start(&state, id, |fallback| Task::Play { limit, fallback })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Analyse {
    multipv: Option<i64>,
}

/// `POST /api/games/{id}/analyse`: the engine searches the position with
/// `{"multipv": N}` lines (default 3; an integer outside 1..16 is taken as
/// the nearest end of that range, anything else refused) until stopped
/// (`/stop`, a dropped stream, or a change to the game), and plays
/// nothing; the answer is a stream of server-sent events (`info` per
/// iteration, each with its `lines`, then `stopped`). A search already
/// running for the game is cancelled.
pub async fn analyse(
    State(state): State<Arc<AppState>>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Answer {
    let id = game_id(path)?;
    let req: Analyse = body(&headers, bytes)?;
    let lines = req
        .multipv
        .map_or(DEFAULT_LINES, |n| n.clamp(1, MAX_LINES as i64) as usize);
    start(&state, id, |_| Task::Analyse { lines })
}

/// Starts the search `task` (given the move played if a search for a move
/// has none) of game `id`'s position, cancelling the one it had; refused
/// when the game is over, the side to move has no legal move, or the most
/// searches run.
fn start(state: &Arc<AppState>, id: u64, task: impl FnOnce(Move) -> Task) -> Answer {
    let mut store = state.lock();
    let entry = store.get_mut(id).ok_or_else(|| no_game(id, state))?;
    entry.cancel_search();
    if let Some(o) = entry.outcome() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "id",
            format!("the game is over ({o})"),
        ));
    }
    let Some(&fallback) = entry.game.clone().legal_moves().first() else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "id",
            "the side to move has no legal move",
        ));
    };
    let running = Running::claim(state).ok_or_else(|| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "id",
            format!(
                "{} searches are running, the most at once; try again when one ends",
                state.config.max_searches
            ),
        )
    })?;
    let root = crate::search::Root::from_game(&entry.game);
    let (shared, version) = (state.clone(), entry.version);
    // The callback holds the search's place among the running ones until
    // the search has finished.
    let done = move |control: &Arc<Control>, play| {
        let _running = running;
        finish(&shared, id, version, control, play)
    };
    let engine = state.engine();
    let (control, events) = think::spawn(
        root,
        task(fallback),
        &engine.config,
        engine.net.clone(),
        entry.memory.clone(),
        engine.policy.clone(),
        done,
    );
    entry.search = Some(control);
    Ok(events.into_response())
}

/// A search's completion for game `id` at `version`: plays its move
/// (`play`; none for an analysis) into the game unless the search was
/// cancelled or the game changed meanwhile, and says what the last event
/// is.
fn finish(
    state: &AppState,
    id: u64,
    version: u64,
    control: &Arc<Control>,
    play: Option<(Move, EngineMove)>,
) -> Last {
    let mut store = state.lock();
    store.searched(id);
    let Some(entry) = store.get_mut(id) else {
        return Last::Stopped("the game is no longer kept".into());
    };
    if entry
        .search
        .as_ref()
        .is_some_and(|c| Arc::ptr_eq(c, control))
    {
        entry.search = None;
    }
    let cancelled = control.is_cancelled() || entry.version != version;
    let Some((best, said)) = play else {
        return Last::Stopped(if cancelled {
            "the analysis was cancelled".into()
        } else {
            "the analysis was stopped".into()
        });
    };
    if cancelled {
        return Last::Stopped("the search was cancelled; nothing played".into());
    }
    match entry.play(best, Some(said)) {
        Ok(()) => Last::Played {
            mv: best,
            state: view::game(id, entry),
        },
        Err(e) => Last::Stopped(format!("the engine's move {best} was refused: {e}")),
    }
}

/// `POST /api/games/{id}/stop`: the running search for a move plays the
/// best it has found so far; an analysis ends.
pub async fn stop(
    State(state): State<Arc<AppState>>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Answer {
    let id = game_id(path)?;
    let _: Value = body(&headers, bytes)?;
    let store = state.lock();
    let entry = store.get(id).ok_or_else(|| no_game(id, &state))?;
    let control = entry.search.as_ref().ok_or_else(|| {
        ApiError::new(
            StatusCode::CONFLICT,
            "id",
            format!("game {id} has no search running"),
        )
    })?;
    control.move_now();
    Ok(ok(json!({ "stopping": true })))
}

/// `GET /api/games/{id}/pgn`: the game as autotest writes its games, as a
/// download.
pub async fn pgn(
    State(state): State<Arc<AppState>>,
    path: Result<Path<String>, PathRejection>,
) -> Answer {
    let id = game_id(path)?;
    let store = state.lock();
    let entry = store.get(id).ok_or_else(|| no_game(id, &state))?;
    let headers = [
        (
            header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8".to_string(),
        ),
        (
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"leiserchess-{id}.pgn\""),
        ),
        (header::CACHE_CONTROL, "no-store".to_string()),
    ];
    Ok((StatusCode::OK, headers, entry.pgn(id)).into_response())
}
