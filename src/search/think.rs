//! One `go`: iterative deepening on the main thread, helper threads
//! searching the same position into the shared table (Lazy SMP, odd helpers
//! one ply deeper), the stop rules, and the answer.

use super::order::{Order, MAX_PLY};
use super::time::{Plan, SearchLimits};
use super::{Iteration, Params, Root, Shared, Worker, MATE, MATE_BOUND};
use crate::rules::moves::Move;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct Answer {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub last: Option<Iteration>,
    /// All threads' nodes.
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Searches `root` within `limits` with one `Order` per thread (their
/// count is the thread count), calling `report` after every completed
/// iteration with the iteration, the elapsed time and all threads' nodes.
/// With `infinite` or `ponder`, waits for `shared.stop` before answering.
/// The caller clears `shared.stop` before starting the search, so that a
/// `stop` sent at once is not lost.
pub fn think(
    root: &Root,
    limits: &SearchLimits,
    params: Params,
    shared: &Shared,
    orders: &mut [Order],
    mut report: impl FnMut(&Iteration, Duration, u64),
) -> Answer {
    let start = Instant::now();
    shared.nodes.store(0, Ordering::Relaxed);
    shared.tt.new_search();
    let plan = Plan::new(limits, start);
    let params = match limits.mate {
        Some(_) => params.exhaustive(),
        None => params,
    };
    // A mate in N moves is a King zap at ply 2N − 1: the deepest iteration
    // that can prove one, or prove there is none.
    let mate_plies = limits.mate.map(|n| 2 * n.max(1) - 1);
    let max_depth = limits
        .depth
        .into_iter()
        .chain(mate_plies)
        .min()
        .unwrap_or(MAX_PLY as u32 / 2)
        .clamp(1, MAX_PLY as u32 / 2);
    let done = |score: i32| match mate_plies {
        Some(p) => score >= MATE - p as i32,
        None => score.abs() >= MATE_BOUND && limits.depth.is_none(),
    };
    let (main_order, helper_orders) = orders.split_first_mut().expect("at least one thread");
    let (last, main_nodes) = std::thread::scope(|scope| {
        for (t, order) in helper_orders.iter_mut().enumerate() {
            scope.spawn(move || {
                let mut w = Worker::new(root, params, shared, order, plan, None, false);
                for d in 1..=max_depth {
                    if shared.stop.load(Ordering::Relaxed)
                        || w.iterate(d + (t % 2) as u32).is_none()
                    {
                        break;
                    }
                }
                // `poll` has counted every full 1024.
                shared.nodes.fetch_add(w.nodes() % 1024, Ordering::Relaxed);
            });
        }
        let mut w = Worker::new(root, params, shared, main_order, plan, limits.nodes, true);
        let mut last: Option<Iteration> = None;
        for d in 1..=max_depth {
            let Some(it) = w.iterate(d) else { break };
            let helpers = shared.nodes.load(Ordering::Relaxed);
            report(&it, start.elapsed(), helpers + it.nodes);
            let proven = done(it.score);
            last = Some(it);
            let clock = !shared.pondering.load(Ordering::Relaxed);
            if shared.stop.load(Ordering::Relaxed) || clock && plan.past_soft() || proven {
                break;
            }
        }
        // `go infinite` and pondering answer only when told to stop.
        while (limits.infinite || shared.pondering.load(Ordering::Relaxed))
            && !shared.stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        shared.stop.store(true, Ordering::Relaxed);
        (last, w.nodes())
    });
    let best = last.as_ref().and_then(|it| it.pv.first().copied());
    Answer {
        best,
        ponder: last.as_ref().and_then(|it| it.pv.get(1).copied()),
        last,
        nodes: main_nodes + shared.nodes.load(Ordering::Relaxed),
        elapsed: start.elapsed(),
    }
}

/// A fixed-depth search of `root` on one thread with a fresh table of
/// `hash_mb` MB in `ways`-way buckets: deterministic.
pub fn search_depth(
    root: &Root,
    depth: u32,
    params: Params,
    hash_mb: usize,
    ways: usize,
) -> Answer {
    let shared = Shared::new(hash_mb, ways);
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    think(
        root,
        &limits,
        params,
        &shared,
        &mut [Order::default()],
        |_, _, _| {},
    )
}
