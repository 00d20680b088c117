//! When a Monte-Carlo search must end, whichever the threads: a stop, the
//! clock (not while pondering; `ponderhit` starts it), a playout or depth
//! limit, and once it has ended, waiting for `stop` under `go infinite` or
//! `go ponder` before answering. The hybrid's tree has only its share of
//! the clock's goal (`hybrid_tree_time`), and leaves the rest to the
//! search that follows it (`left`).

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
    /// The search began pondering, and has not yet seen `ponderhit`…
    pondered: bool,
    /// …and it began pondering.
    began_pondering: bool,
    /// The percentage of the clock's goal the tree's playouts have (100:
    /// all of it, `Search=mcts`).
    share: u32,
}

/// How much of the clock's plan a search spends.
#[derive(Clone, Copy)]
pub struct Spend {
    /// Percent of the goal the tree's playouts have (100: all of it).
    pub share: u32,
    /// Percent of the clock's goal and hard limit the whole move is
    /// planned on (not of `go movetime`, a fixed time).
    pub plan: u32,
}

impl Spend {
    /// All of the plan, to the tree: `Search=mcts`.
    pub const WHOLE: Spend = Spend {
        share: 100,
        plan: 100,
    };
}

impl<'a> Clock<'a> {
    /// The clock of a search that spends as `spend` says.
    pub fn new(
        limits: &'a SearchLimits,
        shared: &Shared,
        start: Instant,
        spend: Spend,
    ) -> Clock<'a> {
        let pondering = shared.pondering.load(Ordering::Relaxed);
        let mut plan = Plan::new(limits, start);
        if limits.movetime.is_none() {
            let part = |d: Duration| d * spend.plan.min(100) / 100;
            plan.soft = plan.soft.map(part);
            plan.hard = plan.hard.map(part);
        }
        Clock {
            limits,
            plan,
            pondered: pondering,
            began_pondering: pondering,
            share: spend.share.min(100),
        }
    }

    /// When the tree's playouts end on the clock: their share of the goal.
    fn goal(&self) -> Option<Duration> {
        self.plan.soft.map(|s| s * self.share / 100)
    }

    /// Whether `playouts` done or a playout of `depth` plies end the search.
    pub fn enough(&self, playouts: u64, depth: u32) -> bool {
        enough(self.limits, playouts, depth)
    }

    pub fn limits(&self) -> &SearchLimits {
        self.limits
    }

    /// The clock of a leaf's alpha-beta search (`mcts_ab`): out when
    /// this search's is (its share of the goal), so that a leaf searched
    /// at the last moment stops with it.
    pub fn leaf_plan(&self) -> Plan {
        Plan {
            hard: self.goal().or(self.plan.hard),
            ..self.plan
        }
    }

    /// Whether the clock runs and the tree's share of its goal is spent;
    /// in a search begun pondering, also whether it runs and `stop` is
    /// set: the nodes' searches saw `ponderhit` first (this clock only
    /// between playouts), so their share ran out first, and they set it
    /// (a `stop` sent after `ponderhit` is taken for theirs).
    pub fn spent(&self, shared: &Shared) -> bool {
        let running = !shared.pondering.load(Ordering::Relaxed);
        let goal = self.goal();
        let past = !self.pondered && goal.is_some_and(|g| self.plan.elapsed() >= g);
        let stopped = self.began_pondering && goal.is_some() && shared.stop.load(Ordering::Relaxed);
        running && (past || stopped)
    }

    /// The clock of a search that follows this one (the hybrid's last
    /// PVS): what is left of the goal and of the hard limit, from now on;
    /// the whole plan if the clock has not started (pondering, or a
    /// `ponderhit` not yet seen), and no limit without a clock.
    pub fn left(&self) -> Plan {
        let now = Instant::now();
        if self.pondered {
            return Plan {
                start: now,
                ..self.plan
            };
        }
        let elapsed = self.plan.elapsed();
        let left = |d: Duration| d.saturating_sub(elapsed).max(Duration::from_millis(1));
        Plan {
            start: now,
            soft: self.plan.soft.map(left),
            hard: self.plan.hard.map(left),
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
        let past_goal = self.goal().is_some_and(|g| self.plan.elapsed() >= g);
        clock && (past_goal || self.plan.past_hard())
    }

    /// Under `go infinite` or while pondering, waits for `stop`; then sets
    /// it, so that the caller's threads know the search is over.
    pub fn wait_for_stop(&self, shared: &Shared) {
        shared.wait_for_stop(self.limits.infinite);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The clock of a search that began `ago_ms` before now.
    fn begun<'a>(limits: &'a SearchLimits, shared: &Shared, ago_ms: u64, pct: u32) -> Clock<'a> {
        let start = Instant::now() - Duration::from_millis(ago_ms);
        let spend = Spend {
            share: pct,
            plan: 100,
        };
        Clock::new(limits, shared, start, spend)
    }

    /// A plan of 90% spends 90% of a clock's goal, and all of a
    /// `movetime`.
    #[test]
    fn a_smaller_plan_shrinks_the_clock_not_a_fixed_time() {
        let shared = Shared::new(1, 1);
        let spend = Spend {
            share: 100,
            plan: 90,
        };
        let clock = SearchLimits {
            time: Some(10_000),
            ..SearchLimits::default()
        };
        let whole = Plan::new(&clock, Instant::now()).soft;
        let part = Clock::new(&clock, &shared, Instant::now(), spend).leaf_plan();
        assert_eq!(part.soft, whole.map(|d| d * 9 / 10));
        assert_eq!(part.hard, part.soft);
        let fixed = SearchLimits::movetime(500);
        let plan = Clock::new(&fixed, &shared, Instant::now(), spend).leaf_plan();
        assert_eq!(plan.soft, Some(Duration::from_millis(500)));
    }

    /// With a 60% share, the tree's playouts end at 60% of the goal, and
    /// the search that follows has what is left of it; with the whole
    /// goal, they end at the goal.
    #[test]
    fn a_share_of_the_goal_ends_the_tree_and_leaves_the_rest() {
        let shared = Shared::new(1, 1);
        let limits = SearchLimits::movetime(10_000);
        let mut early = begun(&limits, &shared, 5_000, 60);
        assert!(!early.out_of_time(&shared));
        assert!(!early.spent(&shared));
        assert_eq!(early.leaf_plan().hard, Some(Duration::from_millis(6_000)));

        let mut late = begun(&limits, &shared, 7_000, 60);
        assert!(late.out_of_time(&shared));
        assert!(late.spent(&shared));
        let plan = late.left();
        let soft = plan.soft.expect("a goal");
        assert!(
            soft <= Duration::from_millis(3_000) && soft > Duration::from_millis(2_000),
            "{soft:?}"
        );
        assert_eq!(plan.soft, plan.hard);

        let mut whole = begun(&limits, &shared, 7_000, 100);
        assert!(!whole.out_of_time(&shared));
        assert_eq!(whole.leaf_plan().hard, Some(Duration::from_millis(10_000)));
    }

    /// Without a clock the search that follows has no limit of time; while
    /// pondering the share is never spent, and what follows has the whole
    /// plan, its clock to start at `ponderhit`.
    #[test]
    fn no_clock_or_pondering_leaves_the_whole_plan() {
        let shared = Shared::new(1, 1);
        let nodes = SearchLimits::nodes(1000);
        let clockless = begun(&nodes, &shared, 7_000, 40);
        assert!(!clockless.spent(&shared));
        let plan = clockless.left();
        assert_eq!((plan.soft, plan.hard), (None, None));

        let limits = SearchLimits::movetime(10_000);
        shared.pondering.store(true, Ordering::Relaxed);
        let pondering = begun(&limits, &shared, 7_000, 40);
        assert!(!pondering.spent(&shared));
        assert_eq!(pondering.left().soft, Some(Duration::from_millis(10_000)));
    }

    /// Begun pondering, after `ponderhit` a `stop` is the nodes'
    /// searches' share running out (their clock started first): spent;
    /// before it (a ponder miss), or in a search begun on the clock, a
    /// `stop` is not.
    #[test]
    fn after_ponderhit_a_stop_spends_the_share() {
        let shared = Shared::new(1, 1);
        let limits = SearchLimits::movetime(10_000);
        shared.pondering.store(true, Ordering::Relaxed);
        let pondered = begun(&limits, &shared, 0, 40);
        shared.stop.store(true, Ordering::Relaxed);
        assert!(!pondered.spent(&shared), "a ponder miss");
        shared.pondering.store(false, Ordering::Relaxed);
        assert!(pondered.spent(&shared));
        let on_the_clock = begun(&limits, &shared, 0, 40);
        assert!(!on_the_clock.spent(&shared));
    }
}
