//! One engine search for a game: `search::think` on a thread of its own
//! (the server's runtime never blocks on it), each completed iteration
//! sent to the page as a server-sent `info` event with its MultiPV lines
//! (an MCTS line with its share of the playouts) and the search's name.
//! The game's searches share a `GameMemory` one at a time, so that each
//! starts from what the last one left (PVS's move ordering, MCTS's tree).
//! An MCTS search whose tree filled its budget says so in a `note` event,
//! and so does the hybrid of its tree before its final search.
//! When the search ends it hands its move (none for an analysis) to the
//! completion callback its starter gave, which plays it into the game or
//! not and says what the last event is: `move`, or `stopped`. An analysis
//! runs until stopped. Dropping the event stream, as a closed tab does,
//! cancels the search: it stops at once and plays nothing; so does any
//! later change to the game. This file knows nothing of the games or the
//! server: the callback does.

use crate::config::EngineConfig;
use crate::eval::nnue::Network;
use crate::eval::policy::Policy;
use crate::eval::wdl::wdl;
use crate::rules::moves::Move;
use crate::search::algorithm::{self, Algorithm, Memory};
use crate::search::time::SearchLimits;
use crate::search::tt::TableSize;
use crate::search::{score_text, Iteration, Params, Root, Shared, Visits};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use serde_json::{json, Value};
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
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

/// What the engine's search said about its move, for the PGN.
pub struct EngineMove {
    pub time: Duration,
    /// The last completed iteration's.
    pub depth: Option<u32>,
    pub nodes: u64,
}

/// The last event of a search, as its completion callback decides.
pub enum Last {
    /// `mv` was played; `state` is the game's after it.
    Played { mv: Move, state: Value },
    /// Nothing was played, for this reason.
    Stopped(String),
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

    /// Whether the search was cancelled: it must play nothing.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }
}

/// What a game's searches keep from one to the next (PVS's move-ordering
/// tables, MCTS's tree; none yet, or forgotten). A search holds it while
/// it runs, so the next search of the game waits for the last to end and
/// starts from what it left: the MCTS tree follows the moves played since
/// (`search::mcts::Kept` decides what of it is reusable).
#[derive(Clone, Default)]
pub struct GameMemory(Arc<Mutex<Option<Memory>>>);

impl GameMemory {
    /// Held until the guard drops. A search that panicked leaves tables
    /// and a tree any search may start from, so a poisoned lock is used on.
    fn hold(&self) -> MutexGuard<'_, Option<Memory>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Drops what is kept, unless a search holds it now; whether it did.
    pub fn forget(&self) -> bool {
        let mut held = match self.0.try_lock() {
            Ok(held) => held,
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
            Err(TryLockError::WouldBlock) => return false,
        };
        *held = None;
        true
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

/// Starts the search of `root` for `task` on its own threads, as `engine`
/// is configured (threads, table, search, clock) with the net `net` and
/// the move policy `policy`, from and into the game's `memory` (once the
/// game's last search has let go of it), and returns the event stream that
/// reports it, and its control (for the game to keep). When it ends and
/// has let go of `memory`, `done` gets the control and, for a search for a
/// move, the move and what the search said about it, and decides the last
/// event; `done` is dropped, with all it holds, once it is called.
pub fn spawn(
    root: Root,
    task: Task,
    engine: &EngineConfig,
    net: Arc<Network>,
    memory: GameMemory,
    policy: Arc<Policy>,
    done: impl FnOnce(&Arc<Control>, Option<(Move, EngineMove)>) -> Last + Send + 'static,
) -> (
    Arc<Control>,
    Sse<impl Stream<Item = Result<Event, Infallible>>>,
) {
    let TableSize { hash_mb, ways } = engine.table;
    let control = Arc::new(Control {
        shared: Shared::with_net(hash_mb, ways, net).with_policy(policy),
        cancelled: AtomicBool::new(false),
    });
    let (tx, rx) = mpsc::unbounded_channel::<Event>();
    let (limits, multipv) = match task {
        Task::Play { limit, .. } => (limit.limits(), 1),
        Task::Analyse { lines } => (SearchLimits::infinite(), lines),
    };
    let limits = engine.limits(limits);
    let params = Params {
        multipv,
        ..engine.search
    };
    let setup = engine.setup();
    let search = Searched::new(setup.algorithm);
    let searching = control.clone();
    std::thread::spawn(move || {
        let mut held = memory.hold();
        let mut shown = 0;
        let run = algorithm::think(
            setup,
            &root,
            &limits,
            params,
            &searching.shared,
            held.get_or_insert_with(Memory::default),
            |it, elapsed, nodes| {
                // The iteration a stop cut short keeps only the lines it
                // completed: the page keeps the last whole one's instead.
                if it.lines.len() < shown && searching.shared.stop.load(Ordering::Relaxed) {
                    return;
                }
                shown = it.lines.len();
                // A closed stream only means nobody is watching.
                let _ = tx.send(info(it, search, elapsed, nodes));
            },
            |text| {
                let _ = tx.send(note(text));
            },
        );
        drop(held);
        if run.tree_full {
            let _ = tx.send(note(&algorithm::tree_full(setup.tree_mb)));
        }
        let answer = run.answer;
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
        let _ = tx.send(last(done(&searching, play)));
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
            Limit::Depth(d) => SearchLimits::depth(d),
            Limit::Millis(ms) => SearchLimits::movetime(ms),
        }
    }
}

/// Which search reports, for the page: its name (the `Search` option's
/// choice) and what its `nodes` count.
#[derive(Clone, Copy)]
struct Searched {
    name: &'static str,
    counted: &'static str,
}

impl Searched {
    fn new(algorithm: Algorithm) -> Searched {
        Searched {
            // The `Search` option's choices are in `Algorithm`'s order.
            name: algorithm::NAMES[algorithm as usize],
            counted: match algorithm {
                Algorithm::Pvs | Algorithm::BestFirst | Algorithm::Hybrid => "nodes",
                Algorithm::Mcts => "playouts",
            },
        }
    }
}

/// The `info` event of one completed iteration of `search`: the best
/// line's figures, and every line with its win/draw/loss chances (per
/// mille, the side to move's) and, from MCTS, its `visits`: the playouts
/// through its first move (`edge`), through the root (`root`, a kept
/// tree's included) and the share `edge / root`.
fn info(it: &Iteration, search: Searched, elapsed: Duration, nodes: u64) -> Event {
    let ms = elapsed.as_millis() as u64;
    let data = json!({
        "search": search.name,
        "counted": search.counted,
        "depth": it.depth,
        "seldepth": it.seldepth,
        "score": it.score,
        "score_text": score_text(it.score),
        "nodes": nodes,
        "nps": nodes * 1000 / ms.max(1),
        "time_ms": ms,
        "pv": it.pv.iter().map(Move::to_string).collect::<Vec<_>>(),
        "lines": it.lines.iter().enumerate().map(|(k, line)| {
            let mut v = json!({
                "multipv": k + 1,
                "score": line.score,
                "score_text": score_text(line.score),
                "wdl": wdl(line.score),
                "pv": line.pv.iter().map(Move::to_string).collect::<Vec<_>>(),
            });
            if let Some(Visits { edge, root }) = line.visits {
                let share = if root == 0 { 0.0 } else { edge as f64 / root as f64 };
                v["visits"] = json!({ "edge": edge, "root": root, "share": share });
            }
            v
        }).collect::<Vec<_>>(),
    });
    Event::default().event("info").data(data.to_string())
}

/// A `note` event: something about the search the page shows beside its
/// figures.
fn note(text: &str) -> Event {
    Event::default()
        .event("note")
        .data(json!({ "text": text }).to_string())
}

/// The event of `last`.
fn last(last: Last) -> Event {
    match last {
        Last::Played { mv, state } => {
            let data = json!({ "move": mv.to_string(), "state": state });
            Event::default().event("move").data(data.to_string())
        }
        Last::Stopped(reason) => Event::default()
            .event("stopped")
            .data(json!({ "reason": reason }).to_string()),
    }
}
