//! When a Monte-Carlo search must end, whichever the threads: a stop, the
//! clock (not while pondering; `ponderhit` starts it), a playout or depth
//! limit, and once it has ended, waiting for `stop` under `go infinite` or
//! `go ponder` before answering.

use crate::search::shared::Shared;
use crate::search::time::{Plan, SearchLimits};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Whether `playouts` or a playout of `depth` plies reach `limits`'s
/// `nodes` or `depth`.
pub fn enough(limits: &SearchLimits, playouts: u64, depth: u32) -> bool {
    limits.nodes.is_some_and(|n| playouts >= n) || limits.depth.is_some_and(|d| depth >= d)
}

pub struct Watch<'a> {
    limits: &'a SearchLimits,
    plan: Plan,
    pondered: bool,
}

impl<'a> Watch<'a> {
    pub fn new(limits: &'a SearchLimits, shared: &Shared, start: Instant) -> Watch<'a> {
        Watch {
            limits,
            plan: Plan::new(limits, start),
            pondered: shared.pondering.load(Ordering::Relaxed),
        }
    }

    /// Whether `playouts` done or a playout of `depth` plies end the search.
    pub fn enough(&self, playouts: u64, depth: u32) -> bool {
        enough(self.limits, playouts, depth)
    }

    pub fn limits(&self) -> &SearchLimits {
        self.limits
    }

    /// The clock of a leaf's alpha-beta search (`mcts_ab`): out when
    /// this search's is (its goal), so that a leaf searched at the last
    /// moment stops with it.
    pub fn leaf_plan(&self) -> Plan {
        Plan {
            hard: self.plan.soft.or(self.plan.hard),
            ..self.plan
        }
    }

    /// Whether `stop` was sent or the clock has run out.
    pub fn out_of_time(&mut self, shared: &Shared) -> bool {
        if shared.stop.load(Ordering::Relaxed) {
            return true;
        }
        let clock = !shared.pondering.load(Ordering::Relaxed);
        if clock && self.pondered {
            // `ponderhit`: the move was played, our clock starts now.
            self.pondered = false;
            self.plan.start = Instant::now();
        }
        let past_goal = self.plan.soft.is_some_and(|s| self.plan.elapsed() >= s);
        clock && (past_goal || self.plan.past_hard())
    }

    /// Under `go infinite` or while pondering, waits for `stop`; then sets
    /// it, so that the caller's threads know the search is over.
    pub fn wait_for_stop(&self, shared: &Shared) {
        while (self.limits.infinite || shared.pondering.load(Ordering::Relaxed))
            && !shared.stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        shared.stop.store(true, Ordering::Relaxed);
    }
}
