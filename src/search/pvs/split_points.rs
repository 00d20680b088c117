//! The split points of the split search (`split`): the nodes whose
//! remaining moves several threads share, what each has found so far, and
//! the list of those open in one search. The threads' side of the split
//! search (`split`) works on them.

use super::movepick::Scored;
use crate::eval::nnue::accumulator::Stack;
use crate::rules::board::Board;
use crate::rules::moves::Move;
use crate::search::trail::Trail;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// A position and the path from the root to it: what a thread needs to
/// search below it (draws, the Ko rule, the net's accumulators).
#[derive(Clone)]
pub(super) struct Path {
    pub board: Board,
    pub trail: Trail,
    pub accumulators: Stack,
}

/// What a split point has found so far.
#[derive(Default)]
pub(super) struct Found {
    pub alpha: i32,
    pub best: i32,
    pub best_move: Option<Move>,
    /// The line of the best move that raised alpha.
    pub pv: Vec<Move>,
}

/// A split point's shared state.
pub(super) struct Progress {
    /// The moves left after the first, in order.
    pub(super) moves: Vec<Scored>,
    pub(super) next: usize,
    /// The place in the node's order of `moves[0]` (late-move reductions
    /// count it).
    pub(super) first: usize,
    pub(super) found: Found,
    /// Threads searching its moves (its own thread included).
    pub(super) working: usize,
}

/// A node whose remaining moves several threads search.
pub(super) struct SplitPoint {
    pub(super) path: Path,
    pub(super) depth: i32,
    pub(super) ply: usize,
    pub(super) beta: i32,
    /// The split point its thread was working under when it made this
    /// one: the chain a cutoff aborts.
    pub(super) parent: Option<Arc<SplitPoint>>,
    pub(super) abort: AtomicBool,
    pub(super) progress: Mutex<Progress>,
}

impl SplitPoint {
    pub(super) fn progress(&self) -> MutexGuard<'_, Progress> {
        // A thread that panicked while holding the lock panics the search
        // (the join reports it); the state itself stays consistent.
        self.progress.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a move that reached beta here or above made its remaining
    /// work useless.
    pub fn aborted(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
    }

    /// The next move to search, its place in the node's order and the
    /// alpha to search it with; `None` once none is left or it aborted.
    pub(super) fn take(&self) -> Option<(Scored, usize, i32)> {
        let mut p = self.progress();
        if self.aborted() || p.next == p.moves.len() {
            return None;
        }
        let s = p.moves[p.next];
        let i = p.first + p.next;
        p.next += 1;
        Some((s, i, p.found.alpha))
    }

    /// Whether `ancestor` is this split point or above it.
    fn below(&self, ancestor: &Arc<SplitPoint>) -> bool {
        let mut at = Some(self);
        while let Some(sp) = at {
            if std::ptr::eq(sp, Arc::as_ptr(ancestor)) {
                return true;
            }
            at = sp.parent.as_deref();
        }
        false
    }
}

/// The split points of one search and the threads free to join them.
#[derive(Default)]
pub struct Splits {
    active: Mutex<Vec<Arc<SplitPoint>>>,
    /// Threads looking for a split point to join.
    pub(super) idle: AtomicUsize,
    /// Split points made so far: an idle thread looks again only when it
    /// changes.
    pub(super) made: AtomicUsize,
}

impl Splits {
    pub(super) fn active(&self) -> MutexGuard<'_, Vec<Arc<SplitPoint>>> {
        self.active.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn idle(&self) -> bool {
        self.idle.load(Ordering::Relaxed) > 0
    }

    /// The newest split point with moves left, below `under` if given;
    /// counted as worked on before the lock is let go, so that its thread
    /// waits for the caller.
    pub(super) fn find(&self, under: Option<&Arc<SplitPoint>>) -> Option<Arc<SplitPoint>> {
        let active = self.active();
        active.iter().rev().find_map(|sp| {
            if under.is_some_and(|u| !sp.below(u)) || sp.aborted() {
                return None;
            }
            let mut p = sp.progress();
            if p.next == p.moves.len() {
                return None;
            }
            p.working += 1;
            Some(sp.clone())
        })
    }

    /// Aborts `sp` and every split point below it.
    pub(super) fn cut(&self, sp: &Arc<SplitPoint>) {
        let active = self.active();
        sp.abort.store(true, Ordering::Relaxed);
        for other in active.iter().filter(|o| o.below(sp)) {
            other.abort.store(true, Ordering::Relaxed);
        }
    }
}
