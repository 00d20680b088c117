//! What each part of the hybrid searches within. On a clock the tree has
//! `hybrid_tree_time` percent of the move's goal and the final PVS what
//! is left of it; `go nodes N` gives the tree N playouts; without a clock
//! or `go nodes` the tree has at most [`PLAYOUTS`], and with `go depth D`
//! ends sooner, once a playout is D plies long, as MCTS reads it (so
//! that `go depth 1` answers at once). `depth`, `mate` and `infinite` are
//! the final search's, as PVS reads them, and `nodes` too when nothing
//! else bounds it (`go nodes N` alone: N playouts, then a PVS of N
//! nodes). Under a goal of [`LEAST_TREE_GOAL`], and for `go mate` (a
//! question the tree's solver answers at no bounded distance), there is
//! no tree: the move is PVS's alone.

use crate::search::time::{Plan, SearchLimits};
use std::time::{Duration, Instant};

/// The least goal a move (a clock's or `movetime`) on which the tree
/// runs. At 10+0.1 (goals 119 ms and more in every hybrid move of the
/// SPRT) the hybrid beat PVS by 92 Elo; at 0.1+0.001 (goals of 2 to 4
/// ms) it lost by 115, the tree's share leaving the final PVS a
/// millisecond or less (BENCHMARKS.md, "The hybrid against PVS at equal
/// time"). 2+0.02's goals run from 30 to 96 ms; between 96 and 119 ms
/// nothing was measured.
pub const LEAST_TREE_GOAL: Duration = Duration::from_millis(100);

/// Why the hybrid leaves a move to PVS alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alone {
    /// The move's goal, under [`LEAST_TREE_GOAL`].
    ShortGoal(Duration),
    /// `go mate N`: PVS proves a mate within N moves or stops at the
    /// depth that rules one out; the tree's solver would answer with
    /// whatever mate it found first.
    Mate,
}

/// When PVS searches alone, as `Search=pvs` would: `go mate`, or a goal
/// under [`LEAST_TREE_GOAL`].
pub fn pvs_alone(limits: &SearchLimits) -> Option<Alone> {
    if limits.mate.is_some() {
        return Some(Alone::Mate);
    }
    if limits.infinite || limits.ponder {
        return None;
    }
    Plan::new(limits, limits.start())
        .soft
        .filter(|&goal| goal < LEAST_TREE_GOAL)
        .map(Alone::ShortGoal)
}

/// The most playouts of a tree when the `go` gives neither a clock nor
/// `nodes`: the MCTS bench's count, a fraction of a second with the
/// defaults.
pub const PLAYOUTS: u64 = 2_000;

/// The tree's limits for a `go` of `limits` whose clock runs from
/// `start`: the clock (of whose goal the tree takes its share), `nodes`
/// as its playouts, else without a clock [`PLAYOUTS`] and `depth`; no
/// `mate` or `infinite`.
pub fn tree(limits: &SearchLimits, start: Instant) -> SearchLimits {
    let clock = Plan::new(limits, start).soft.is_some();
    let by_depth = !clock && limits.nodes.is_none();
    SearchLimits {
        depth: limits.depth.filter(|_| by_depth),
        mate: None,
        infinite: false,
        nodes: limits.nodes.or((!clock).then_some(PLAYOUTS)),
        movetime: limits.movetime.filter(|_| clock),
        time: limits.time.filter(|_| clock),
        received: Some(start),
        ..*limits
    }
}

/// The final search's limits for a `go` of `limits` whose clock runs
/// from `start`: the `go`'s, but `nodes` only when neither a clock,
/// `depth`, `mate` nor `infinite` bounds it.
pub fn last(limits: &SearchLimits, start: Instant) -> SearchLimits {
    let clock = Plan::new(limits, start).soft.is_some();
    let bounded = clock || limits.depth.is_some() || limits.mate.is_some() || limits.infinite;
    SearchLimits {
        nodes: limits.nodes.filter(|_| !bounded),
        received: Some(start),
        ..*limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clock or `movetime` with a goal under 100 ms leaves the move to
    /// PVS; a longer one, no clock, or a search only `stop` ends keep
    /// the tree.
    #[test]
    fn a_goal_under_the_least_is_pvs_alone() {
        let clock = |time, inc| SearchLimits {
            time: Some(time),
            inc,
            ..SearchLimits::default()
        };
        let Some(Alone::ShortGoal(goal)) = pvs_alone(&clock(100, 1)) else {
            panic!("0.1+0.001 is PVS's");
        };
        assert!(goal < Duration::from_millis(5), "{goal:?}");
        assert!(pvs_alone(&clock(2_000, 20)).is_some());
        assert_eq!(pvs_alone(&clock(10_000, 100)), None);
        // The least clock a hybrid move had in the 10+0.1 SPRT.
        assert_eq!(pvs_alone(&clock(1_224, 100)), None);
        assert_eq!(
            pvs_alone(&SearchLimits::movetime(99)),
            Some(Alone::ShortGoal(Duration::from_millis(99)))
        );
        assert_eq!(pvs_alone(&SearchLimits::movetime(100)), None);
        assert_eq!(pvs_alone(&SearchLimits::depth(5)), None);
        assert_eq!(pvs_alone(&SearchLimits::nodes(500)), None);
        let pondering = SearchLimits {
            ponder: true,
            ..clock(100, 1)
        };
        assert_eq!(pvs_alone(&pondering), None);
        // `go mate`, on a clock or not, is PVS's question.
        for go in [SearchLimits::default(), clock(10_000, 100)] {
            let mate = SearchLimits {
                mate: Some(2),
                ..go
            };
            assert_eq!(pvs_alone(&mate), Some(Alone::Mate));
        }
    }

    /// On a clock the tree keeps it (and `go nodes`) and drops the final
    /// search's limits; without one it has `go nodes`, else [`PLAYOUTS`]
    /// and `go depth`.
    #[test]
    fn the_tree_has_the_clock_or_playouts_the_final_search_the_rest() {
        let now = Instant::now();
        let clock = SearchLimits {
            depth: Some(9),
            time: Some(60_000),
            ..SearchLimits::default()
        };
        let t = tree(&clock, now);
        assert_eq!((t.time, t.nodes, t.depth), (Some(60_000), None, None));
        assert_eq!(t.received, Some(now));
        let both = SearchLimits {
            nodes: Some(300),
            ..SearchLimits::movetime(500)
        };
        assert_eq!(tree(&both, now).nodes, Some(300));

        let t = tree(&SearchLimits::depth(5), now);
        assert_eq!((t.nodes, t.depth), (Some(PLAYOUTS), Some(5)));
        let both = SearchLimits {
            nodes: Some(300),
            ..SearchLimits::depth(5)
        };
        assert_eq!(tree(&both, now).depth, None);
        for go in [
            SearchLimits::infinite(),
            SearchLimits {
                mate: Some(2),
                ..SearchLimits::default()
            },
        ] {
            let t = tree(&go, now);
            assert_eq!(t.nodes, Some(PLAYOUTS), "{go:?}");
            assert!(
                t.depth.is_none() && t.mate.is_none() && !t.infinite,
                "{go:?}"
            );
        }
        assert_eq!(tree(&SearchLimits::nodes(77), now).nodes, Some(77));
        // `go infinite` on a running clock: the clock is not the tree's.
        let analysing = SearchLimits {
            time: Some(60_000),
            ..SearchLimits::infinite()
        };
        let t = tree(&analysing, now);
        assert_eq!((t.time, t.nodes), (None, Some(PLAYOUTS)));
    }

    /// The final search has the `go`'s limits, `nodes` only as its one
    /// bound.
    #[test]
    fn the_final_search_reads_nodes_only_when_nothing_else_bounds_it() {
        let now = Instant::now();
        assert_eq!(last(&SearchLimits::nodes(500), now).nodes, Some(500));
        for go in [
            SearchLimits::depth(5),
            SearchLimits::movetime(100),
            SearchLimits::infinite(),
            SearchLimits {
                mate: Some(3),
                ..SearchLimits::default()
            },
        ] {
            let with = SearchLimits {
                nodes: Some(500),
                ..go
            };
            let l = last(&with, now);
            assert_eq!(l.nodes, None, "{go:?}");
            assert_eq!(
                (l.depth, l.mate, l.movetime, l.infinite),
                (go.depth, go.mate, go.movetime, go.infinite)
            );
        }
    }
}
