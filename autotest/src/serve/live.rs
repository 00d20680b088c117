//! A run's live part, sent again whenever the run changes, as
//! server-sent events (`/runs/{id}/events`). The run is written by
//! another process: each stream polls the database every [`POLL`] with
//! a connection of its own, and sends an update when the run's
//! fingerprint (status, end, games, newest game) changes. The first
//! update goes at once. An update is JSON `{"games": N, "status": S,
//! "html": the live part}`; a failed read is an event `problem` with the
//! message, and the polling goes on.

use super::answer::{self, Answer};
use super::connection::Db;
use super::run_page::{live_html, view};
use super::{connection, run};
use crate::db::text_enums::TextEnum;
use axum::extract::{Path as UrlPath, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use serde_json::json;
use std::convert::Infallible;
use std::path::Path;
use std::time::Duration;
use tokio::sync::mpsc;

/// How often a stream looks at the database.
pub const POLL: Duration = Duration::from_millis(250);

pub async fn events(
    State(db): State<Db>,
    id: UrlPath<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, Answer> {
    let id = answer::run_id(id)?;
    // A run that is not there is a 404 now, not an empty stream.
    connection::read(db.clone(), move |conn| view(conn, id).map(|_| ())).await?;
    let (tx, rx) = mpsc::channel(4);
    tokio::task::spawn_blocking(move || follow(&db.path, id, &tx));
    let updates = stream::unfold(
        rx,
        |mut rx| async move { rx.recv().await.map(|e| (Ok(e), rx)) },
    );
    Ok(Sse::new(updates).keep_alive(KeepAlive::default()))
}

/// The update for run `id` now, or `None` when the run is gone.
fn update(conn: &rusqlite::Connection, id: i64) -> Result<Option<Event>, String> {
    match run::load(conn, id)? {
        None => Ok(None),
        Some(v) => {
            let data =
                json!({"games": v.games, "status": v.head.status.as_str(), "html": live_html(&v)});
            Ok(Some(Event::default().data(data.to_string())))
        }
    }
}

/// Polls run `id` until the stream's reader is gone.
fn follow(db: &Path, id: i64, tx: &mpsc::Sender<Event>) {
    let mut conn = None;
    let mut last = None;
    while !tx.is_closed() {
        let step = (|| -> Result<Option<Event>, String> {
            let c = match &mut conn {
                Some(c) => c,
                None => conn.insert(connection::connect(db).map_err(|e| e.to_string())?),
            };
            let now = run::fingerprint(c, id).map_err(|e| e.to_string())?;
            if now.is_none() || now == last {
                return Ok(None);
            }
            let event = update(c, id)?;
            last = now;
            Ok(event)
        })();
        let event = match step {
            Ok(e) => e,
            Err(e) => {
                // A new connection next time: this one may be the trouble.
                conn = None;
                let message = Answer::database(&e).message;
                Some(
                    Event::default()
                        .event("problem")
                        .data(message.replace(['\r', '\n'], " ")),
                )
            }
        };
        if let Some(e) = event {
            if tx.blocking_send(e).is_err() {
                return;
            }
        }
        std::thread::sleep(POLL);
    }
}
