//! One engine search for a game: `search::think` on a thread of its own
//! (the server's runtime never blocks on it), each completed iteration
//! sent to the page as a server-sent `info` event with its MultiPV lines.
//! A search for a move then plays it into the game and sends it as a
//! `move` event (or `stopped` when it was cancelled); an analysis runs
//! until stopped and plays nothing, its last event `stopped`. Dropping
//! the event stream, as a closed tab does, cancels the search: it stops
//! at once and plays nothing; so does any later change to the game.

use super::server::AppState;
use super::store::EngineMove;
use super::view;
use crate::eval::wdl::wdl;
use crate::rules::moves::Move;
use crate::search::params::TableSize;
use crate::search::pvs::order::Order;
use crate::search::pvs::think;
use crate::search::time::SearchLimits;
use crate::search::{score_text, Iteration, Params, Root, Shared};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use serde_json::json;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// How long the engine may think.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Limit {
    Depth(u32),
    Millis(u64),
}

/// What a search is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Task {
    /// Find a move within `limit` and play it; `fallback` if stopped
    /// before there is one.
    Play { limit: Limit, fallback: Move },
    /// Show the best `lines` root moves (1..=16) until stopped.
    Analyse { lines: usize },
}

/// A running search's table and flags.
pub struct Control {
    shared: Shared,
    /// Set when the search must play nothing: its page went away, or the
    /// game changed.
    cancelled: AtomicBool,
}

impl Control {
    /// Ends the search; it plays nothing.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    /// Ends the search; a search for a move plays the best found so far.
    pub fn move_now(&self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }
}

/// Cancels the search when the event stream is dropped: the page closed
/// the connection, or the stream ended after the last event (when the
/// search is over and cancelling does nothing).
struct CancelOnDrop(Arc<Control>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Counts a search among the running ones while it lives.
pub struct Running(Arc<AppState>);

impl Running {
    /// A place among the running searches, if one is free.
    pub fn claim(state: &Arc<AppState>) -> Option<Running> {
        let max = state.config.max_searches;
        state
            .searches
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < max).then_some(n + 1)
            })
            .ok()
            .map(|_| Running(state.clone()))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.0.searches.fetch_sub(1, Ordering::AcqRel);
    }
}

/// What a search needs from its game, taken under the store's lock.
pub struct Start {
    pub id: u64,
    pub version: u64,
    pub root: Root,
}

/// Starts the search of `start` on its own thread and returns the event
/// stream that reports it, and its control (for the game to keep).
pub fn spawn(
    state: Arc<AppState>,
    running: Running,
    start: Start,
    task: Task,
) -> (
    Arc<Control>,
    Sse<impl Stream<Item = Result<Event, Infallible>>>,
) {
    let TableSize { hash_mb, ways } = TableSize::default();
    let control = Arc::new(Control {
        shared: Shared::new(hash_mb, ways),
        cancelled: AtomicBool::new(false),
    });
    let (tx, rx) = mpsc::unbounded_channel::<Event>();
    let (limits, multipv) = match task {
        Task::Play { limit, .. } => (limit.limits(), 1),
        Task::Analyse { lines } => (
            SearchLimits {
                infinite: true,
                ..SearchLimits::default()
            },
            lines,
        ),
    };
    let params = Params {
        multipv,
        ..Params::default()
    };
    let threads = state.config.engine_threads;
    let searching = control.clone();
    std::thread::spawn(move || {
        let _running = running;
        let mut orders: Vec<Order> = (0..threads).map(|_| Order::default()).collect();
        let mut shown = 0;
        let answer = think(
            &start.root,
            &limits,
            params,
            &searching.shared,
            &mut orders,
            |it, elapsed, nodes| {
                // The iteration a stop cut short keeps only the lines it
                // completed: the page keeps the last whole one's instead.
                if it.lines.len() < shown && searching.shared.stop.load(Ordering::Relaxed) {
                    return;
                }
                shown = it.lines.len();
                // A closed stream only means nobody is watching.
                let _ = tx.send(info(it, elapsed, nodes));
            },
        );
        let play = match task {
            Task::Play { fallback, .. } => Some((
                answer.best.unwrap_or(fallback),
                EngineMove {
                    time: answer.elapsed,
                    depth: answer.last.as_ref().map(|it| it.depth),
                    nodes: answer.nodes,
                },
            )),
            Task::Analyse { .. } => None,
        };
        let _ = tx.send(finish(&state, &start, &searching, play));
    });
    let guard = CancelOnDrop(control.clone());
    let events = stream::unfold((rx, guard), |(mut rx, guard)| async move {
        let event = rx.recv().await?;
        Some((Ok(event), (rx, guard)))
    });
    // Frequent keep-alive comments let a closed connection show up soon
    // even while an iteration runs long.
    let sse = Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(1)));
    (control, sse)
}

impl Limit {
    fn limits(self) -> SearchLimits {
        match self {
            Limit::Depth(d) => SearchLimits {
                depth: Some(d),
                ..SearchLimits::default()
            },
            Limit::Millis(ms) => SearchLimits {
                movetime: Some(ms),
                ..SearchLimits::default()
            },
        }
    }
}

/// The `info` event of one completed iteration: the best line's figures,
/// and every line with its win/draw/loss chances (per mille, the side to
/// move's).
fn info(it: &Iteration, elapsed: Duration, nodes: u64) -> Event {
    let ms = elapsed.as_millis() as u64;
    let data = json!({
        "depth": it.depth,
        "seldepth": it.seldepth,
        "score": it.score,
        "score_text": score_text(it.score),
        "nodes": nodes,
        "nps": nodes * 1000 / ms.max(1),
        "time_ms": ms,
        "pv": it.pv.iter().map(Move::to_string).collect::<Vec<_>>(),
        "lines": it.lines.iter().enumerate().map(|(k, line)| json!({
            "multipv": k + 1,
            "score": line.score,
            "score_text": score_text(line.score),
            "wdl": wdl(line.score),
            "pv": line.pv.iter().map(Move::to_string).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    Event::default().event("info").data(data.to_string())
}

/// Plays the search's move (`play`; none for an analysis) into its game,
/// unless the search was cancelled or the game changed meanwhile; the
/// last event.
fn finish(
    state: &AppState,
    start: &Start,
    control: &Arc<Control>,
    play: Option<(Move, EngineMove)>,
) -> Event {
    let mut store = state.lock();
    let Some(entry) = store.get_mut(start.id) else {
        return stopped("the game is no longer kept");
    };
    if entry
        .search
        .as_ref()
        .is_some_and(|c| Arc::ptr_eq(c, control))
    {
        entry.search = None;
    }
    let cancelled = control.cancelled.load(Ordering::Relaxed) || entry.version != start.version;
    let Some((best, said)) = play else {
        return stopped(if cancelled {
            "the analysis was cancelled"
        } else {
            "the analysis was stopped"
        });
    };
    if cancelled {
        return stopped("the search was cancelled; nothing played");
    }
    match entry.play(best, Some(said)) {
        Ok(()) => {
            let data = json!({ "move": best.to_string(), "state": view::game(start.id, entry) });
            Event::default().event("move").data(data.to_string())
        }
        Err(e) => stopped(&format!("the engine's move {best} was refused: {e}")),
    }
}

fn stopped(reason: &str) -> Event {
    Event::default()
        .event("stopped")
        .data(json!({ "reason": reason }).to_string())
}
