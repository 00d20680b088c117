//! When a Monte-Carlo search must end, whichever the threads: a stop, the
//! clock (not while pondering; `ponderhit` starts it), a playout or depth
//! limit, and once it has ended, waiting for `stop` under `go infinite` or
//! `go ponder` before answering. With `mcts_root_time` the tree's
//! playouts have only their share of the clock's goal, and the rest goes
//! to a last search of the root (`last_plan`).

use crate::search::shared::Shared;
use crate::search::time::{Plan, SearchLimits};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Whether `playouts` or a playout of `depth` plies reach `limits`'s
/// `nodes` or `depth`.
pub fn enough(limits: &SearchLimits, playouts: u64, depth: u32) -> bool {
    limits.nodes.is_some_and(|n| playouts >= n) || limits.depth.is_some_and(|d| depth >= d)
}

/// A search's limits and time plan, and whether it began pondering.
pub struct Clock<'a> {
    limits: &'a SearchLimits,
    plan: Plan,
    pondered: bool,
    /// The percentage of the clock's goal the tree's playouts have (100
    /// less `mcts_root_time`).
    tree_pct: u32,
}

impl<'a> Clock<'a> {
    /// The clock of a search that keeps `root_pct` percent of its clock's
    /// goal for a last search of the root.
    pub fn new(
        limits: &'a SearchLimits,
        shared: &Shared,
        start: Instant,
        root_pct: u32,
    ) -> Clock<'a> {
        Clock {
            limits,
            plan: Plan::new(limits, start),
            pondered: shared.pondering.load(Ordering::Relaxed),
            tree_pct: 100 - root_pct.min(100),
        }
    }

    /// When the tree's playouts end on the clock: their share of the goal.
    fn tree_goal(&self) -> Option<Duration> {
        self.plan.soft.map(|s| s * self.tree_pct / 100)
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
            hard: self.tree_goal().or(self.plan.hard),
            ..self.plan
        }
    }

    /// The clock of the root's last search (`mcts_root_time`): what is
    /// left of the goal and of the hard limit, from now on. None unless
    /// a share is kept for it and the tree's playouts ended on the clock,
    /// not on a `stop`, a limit or a proof, nor under `go infinite` or
    /// while pondering.
    pub fn last_plan(&self, shared: &Shared) -> Option<Plan> {
        let waiting = self.limits.infinite || shared.pondering.load(Ordering::Relaxed);
        let elapsed = self.plan.elapsed();
        let ended_on_clock = self.tree_goal().is_some_and(|g| elapsed >= g);
        if self.tree_pct >= 100 || waiting || !ended_on_clock {
            return None;
        }
        let left = |d: Duration| d.saturating_sub(elapsed).max(Duration::from_millis(1));
        Some(Plan {
            start: Instant::now(),
            soft: self.plan.soft.map(left),
            hard: self.plan.hard.map(left),
            ..self.plan
        })
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
        let past_goal = self.tree_goal().is_some_and(|g| self.plan.elapsed() >= g);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The clock of a search that began `ago_ms` before now.
    fn begun<'a>(limits: &'a SearchLimits, shared: &Shared, ago_ms: u64, pct: u32) -> Clock<'a> {
        let start = Instant::now() - Duration::from_millis(ago_ms);
        Clock::new(limits, shared, start, pct)
    }

    /// With 40% kept for the root, the tree's playouts end at 60% of the
    /// goal, and the last search has what is left of it; before that
    /// share is spent, or with none kept, there is no last search.
    #[test]
    fn the_root_s_last_search_has_what_the_tree_left_of_the_goal() {
        let shared = Shared::new(1, 1);
        let limits = SearchLimits::movetime(10_000);
        let mut early = begun(&limits, &shared, 5_000, 40);
        assert!(!early.out_of_time(&shared));
        assert!(early.last_plan(&shared).is_none());
        assert_eq!(early.leaf_plan().hard, Some(Duration::from_millis(6_000)));

        let mut late = begun(&limits, &shared, 7_000, 40);
        assert!(late.out_of_time(&shared));
        let plan = late.last_plan(&shared).expect("a last search");
        let soft = plan.soft.expect("a goal");
        assert!(
            soft <= Duration::from_millis(3_000) && soft > Duration::from_millis(2_000),
            "{soft:?}"
        );
        assert_eq!(plan.soft, plan.hard);

        let mut none_kept = begun(&limits, &shared, 7_000, 0);
        assert!(!none_kept.out_of_time(&shared));
        assert!(none_kept.last_plan(&shared).is_none());
    }

    /// No last search without a clock, under `go infinite`, or while
    /// pondering.
    #[test]
    fn no_last_search_without_a_running_clock() {
        let shared = Shared::new(1, 1);
        let nodes = SearchLimits::nodes(1000);
        assert!(begun(&nodes, &shared, 7_000, 40)
            .last_plan(&shared)
            .is_none());
        let infinite = SearchLimits {
            infinite: true,
            ..SearchLimits::movetime(10_000)
        };
        assert!(begun(&infinite, &shared, 7_000, 40)
            .last_plan(&shared)
            .is_none());
        let limits = SearchLimits::movetime(10_000);
        shared.pondering.store(true, Ordering::Relaxed);
        assert!(begun(&limits, &shared, 7_000, 40)
            .last_plan(&shared)
            .is_none());
    }
}
