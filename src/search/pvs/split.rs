//! The split search (`split_depth`, "young brothers wait"): instead of
//! racing through the same tree as Lazy SMP's helpers do, the threads
//! divide it. A node at least `split_depth` plies deep whose first move
//! has been searched without a cutoff, reached while a thread is idle,
//! becomes a split point: its remaining moves, in the picker's order, go
//! to a shared list from which the node's thread and any idle thread take
//! them one at a time, each with the best alpha found so far. A move that
//! reaches beta aborts the split point and every split point below it.
//! A thread that runs out of moves at its own split point while others
//! still search helps at the split points below it until they finish
//! ("helpful master"), so no thread waits on work it could share.
//! Here, what a thread does; the split points themselves are in
//! `split_points`.

use super::movepick::Scored;
use super::split_points::{Found, Path, Progress, SplitPoint, Splits};
use super::worker::Worker;
use crate::eval::nnue::accumulator::Stack;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The moves a null-window node searches alone before it may split: one
/// that did not cut off on its first move often does on the next few (the
/// zaps and killers), and a share handed out before that is wasted. At
/// depth 10 on the bench positions, 3 instead of 1 cut the time to depth
/// (BENCHMARKS.md, "Threads in the search").
const SCOUT_SERIAL: usize = 3;

impl Worker<'_> {
    /// Whether a node `depth` plies deep may split: split search on and
    /// deep enough.
    pub(super) fn splits_at(&self, depth: i32) -> bool {
        let d = self.params.split_depth as i32;
        d > 0 && depth >= d && self.splits.is_some()
    }

    /// Whether to split such a node before its `i`-th move: the first
    /// searched (young brothers wait; `SCOUT_SERIAL` at a null-window
    /// node), and a thread idle to take a share.
    pub(super) fn may_split(&self, i: usize, pv_node: bool) -> bool {
        let serial = if pv_node { 1 } else { SCOUT_SERIAL };
        i >= serial && self.splits.is_some_and(Splits::idle)
    }

    /// The position being searched with its path.
    fn path(&self) -> Path {
        let mut accumulators = Stack::new();
        for acc in self.accumulators.line() {
            accumulators.push(acc.clone());
        }
        Path {
            board: self.board.clone(),
            trail: self.trail.clone(),
            accumulators,
        }
    }

    /// Trades the thread's position and path for `path`'s.
    fn swap_path(&mut self, path: &mut Path) {
        std::mem::swap(&mut self.board, &mut path.board);
        std::mem::swap(&mut self.trail, &mut path.trail);
        std::mem::swap(&mut self.accumulators, &mut path.accumulators);
    }

    /// Searches `moves` (the current node's moves after the `first`
    /// searched ones) with the idle threads, `depth` plies deep at `ply`
    /// within (`found.alpha`, `beta`): what they found, the node's thread
    /// back where it was. Call only when `may_split`.
    pub(super) fn split(
        &mut self,
        moves: Vec<Scored>,
        first: usize,
        found: Found,
        beta: i32,
        depth: i32,
        ply: usize,
    ) -> Found {
        let splits = self.splits.expect("may_split");
        // Copied before the lock: idle threads wait on it.
        let path = self.path();
        let sp = {
            let mut active = splits.active();
            let parent = self.split.clone();
            let abort = parent.as_ref().is_some_and(|p| p.aborted());
            let sp = Arc::new(SplitPoint {
                path,
                depth,
                ply,
                beta,
                parent,
                abort: AtomicBool::new(abort),
                progress: Mutex::new(Progress {
                    moves,
                    next: 0,
                    first,
                    found,
                    working: 1,
                }),
            });
            active.push(sp.clone());
            sp
        };
        splits.made.fetch_add(1, Ordering::Relaxed);
        self.work_at(&sp);
        self.help_until(splits, Some(&sp));
        splits.active().retain(|o| !Arc::ptr_eq(o, &sp));
        let found = std::mem::take(&mut sp.progress().found);
        found
    }

    /// Searches `sp`'s moves until none is left, then stops working on it.
    /// The thread must stand at `sp`'s position.
    fn work_at(&mut self, sp: &Arc<SplitPoint>) {
        let outer = self.split.replace(sp.clone());
        let side = self.board.side();
        while let Some((s, i, alpha)) = sp.take() {
            let score = self.search_move(&s, i, alpha, sp.beta, sp.depth, sp.ply);
            if self.stopped() {
                break;
            }
            if self.record(sp, &s, score) {
                if s.stage.is_quiet() {
                    self.order.cutoff(side, s.mv, sp.ply, sp.depth);
                }
                self.splits.expect("a split search").cut(sp);
                break;
            }
        }
        self.split = outer;
        sp.progress().working -= 1;
    }

    /// Adds a searched move's score to `sp`'s; whether it reached beta.
    fn record(&self, sp: &SplitPoint, s: &Scored, score: i32) -> bool {
        let mut p = sp.progress();
        let f = &mut p.found;
        if score <= f.best {
            return false;
        }
        f.best = score;
        f.best_move = Some(s.mv);
        if score <= f.alpha {
            return false;
        }
        f.alpha = score;
        f.pv.clear();
        f.pv.push(s.mv);
        f.pv.extend_from_slice(&self.pv[sp.ply + 1]);
        score >= sp.beta
    }

    /// Joins split points (below `under`, if given) until `under` has no
    /// thread working on it, or without `under`, until the search stops.
    pub(super) fn help_until(&mut self, splits: &Splits, under: Option<&Arc<SplitPoint>>) {
        let busy = || under.is_none_or(|sp| sp.progress().working > 0);
        let mut seen = usize::MAX;
        let mut spins = 0u32;
        splits.idle.fetch_add(1, Ordering::Relaxed);
        while busy() && !(under.is_none() && self.shared.stop.load(Ordering::Relaxed)) {
            let made = splits.made.load(Ordering::Relaxed);
            if made != seen {
                seen = made;
                if let Some(sp) = splits.find(under) {
                    splits.idle.fetch_sub(1, Ordering::Relaxed);
                    self.join(&sp);
                    splits.idle.fetch_add(1, Ordering::Relaxed);
                    // Others may have been made meanwhile: look again.
                    seen = usize::MAX;
                    spins = 0;
                    continue;
                }
            }
            spins = spins.wrapping_add(1);
            if spins < 64 {
                std::hint::spin_loop();
            } else {
                // Waits longer than a few microseconds give the core to
                // whoever else needs it (a busy machine, the other side of
                // a match).
                std::thread::yield_now();
            }
            if spins.is_multiple_of(1024) {
                // The main thread keeps the clock while it waits.
                self.check_limits();
                seen = usize::MAX;
            }
        }
        splits.idle.fetch_sub(1, Ordering::Relaxed);
    }

    /// Searches moves of `sp` (already counted as worked on by this thread)
    /// from its position, then goes back to the thread's own.
    fn join(&mut self, sp: &Arc<SplitPoint>) {
        let mut path = sp.path.clone();
        self.swap_path(&mut path);
        self.work_at(sp);
        self.swap_path(&mut path);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{think, Order};
    use crate::rules::fen;
    use crate::search::bench::POSITIONS;
    use crate::search::time::SearchLimits;
    use crate::search::{Answer, Params, Root, Shared, MATE_BOUND};

    /// `text` searched `depth` plies with `threads` threads and a fresh
    /// table.
    fn search(text: &str, depth: u32, params: Params, threads: usize) -> Answer {
        let root = Root::new(fen::parse(text).expect("a bench FEN"));
        let shared = Shared::new(4, 4);
        let limits = SearchLimits::depth(depth);
        let mut orders: Vec<Order> = (0..threads).map(|_| Order::default()).collect();
        think(&root, &limits, params, &shared, &mut orders, |_, _, _| {})
    }

    fn split_at(split_depth: u32) -> Params {
        Params {
            split_depth,
            ..Params::default()
        }
    }

    /// The main thread's nodes: those of its last iteration's report.
    fn main_nodes(a: &Answer) -> u64 {
        a.last.as_ref().expect("an iteration").nodes
    }

    #[test]
    fn helpers_search_only_the_shares_they_are_given() {
        let mut helped = 0;
        for text in &POSITIONS[..4] {
            // No node is that deep: the helper never gets a share.
            let never = search(text, 7, split_at(64), 2);
            assert_eq!(never.nodes, main_nodes(&never), "{text}");
            // The root splits from depth 2 on whenever the helper is idle
            // (a busy machine may start it late in a small search: the
            // total is what is asserted).
            let split = search(text, 7, split_at(2), 2);
            assert!(split.best.is_some(), "{text}");
            helped += split.nodes - main_nodes(&split);
        }
        assert!(helped > 0);
    }

    /// Without the pruning that can miss a line (what `go mate` searches
    /// with), the split search proves the same forced King zaps as one
    /// thread, at the same distance, and no other.
    #[test]
    fn the_split_search_proves_the_forced_zaps_one_thread_proves() {
        let mut zaps = 0;
        for text in POSITIONS {
            let one = search(text, 4, Params::default().exhaustive(), 1);
            let two = search(text, 4, split_at(2).exhaustive(), 2);
            let score = |a: &Answer| a.last.as_ref().expect("an iteration").score;
            let forced = |s: i32| s.abs() >= MATE_BOUND;
            assert_eq!(forced(score(&one)), forced(score(&two)), "{text}");
            if forced(score(&one)) {
                zaps += 1;
                assert_eq!(score(&one), score(&two), "{text}");
            }
        }
        assert!(zaps > 0, "no forced zap in the bench positions");
    }
}
