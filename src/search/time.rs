//! What a `go` asks for, and the time plan derived from it (PROTOCOL.md
//! "Time": the remaining time over `time_moves` moves (25: 4%) plus
//! 80% of the increment, never more than a tenth of what is left, and a
//! hard stop at three times that), all after the move overhead is kept back
//! from the clock. No iteration starts past half that goal, or past
//! `time_stable` percent of it once the best move has stood for
//! [`STABLE_ITERATIONS`] iterations, or `time_changed` percent when the
//! last iteration changed it.

use crate::declaration::{self, number_field, Declaration};
use std::time::{Duration, Instant};

/// The limits of one search, as `go` gives them, with the clock's use
/// from the options in [`TIME`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SearchLimits {
    pub depth: Option<u32>,
    /// `go mate N`: stop once a King zap in at most N moves is proven.
    pub mate: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    /// The side to move's remaining clock and increment, in ms.
    pub time: Option<u64>,
    pub inc: u64,
    pub movestogo: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// How the clock is used: the options', not the `go`'s.
    pub clock: ClockUse,
    /// When the `go` was read: the search's clock runs from then, so that
    /// the work before the search starts (a thread to start on a busy
    /// machine) is charged to the move as the referee charges it. None:
    /// from the search's start.
    pub received: Option<Instant>,
}

/// How the clock is used, from the options in [`TIME`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ClockUse {
    /// Milliseconds never planned from the clock (the `move_overhead`
    /// option): process start, output and the referee's own work need them.
    pub overhead: u64,
    /// The moves the clock is shared over when `go` gives no `movestogo`
    /// (the `time_moves` option).
    pub moves: u64,
    /// Percent of the goal after which no iteration starts once the best
    /// move is settled (`time_stable`), or just changed (`time_changed`).
    pub stable_pct: u64,
    pub changed_pct: u64,
}

/// How the clock is used, as UCI options: name, default, range, field.
pub const TIME: &[Declaration<ClockUse>] = &[
    Declaration::spin(
        "move_overhead",
        30,
        0,
        5000,
        number_field!(overhead),
        "Milliseconds kept back from every clock (process start, output, the referee)",
    ),
    Declaration::spin(
        "time_moves",
        25,
        5,
        500,
        number_field!(moves),
        "Moves a clock is shared over when `go` gives no `movestogo`",
    ),
    Declaration::spin(
        "time_stable",
        34,
        5,
        100,
        number_field!(stable_pct),
        "No new iteration past N% of the time goal once the best move held 3 iterations",
    ),
    Declaration::spin(
        "time_changed",
        94,
        5,
        100,
        number_field!(changed_pct),
        "No new iteration past N% of the time goal when the last one changed the move",
    ),
];

impl Default for ClockUse {
    /// [`TIME`]'s defaults.
    fn default() -> Self {
        let zero = ClockUse {
            overhead: 0,
            moves: 0,
            stable_pct: 0,
            changed_pct: 0,
        };
        declaration::defaults(zero, TIME)
    }
}

/// Iterations in a row with one best move after which it counts as
/// settled.
pub const STABLE_ITERATIONS: u32 = 3;

/// Percent of the goal after which no iteration starts when the best move
/// is neither settled nor just changed: an iteration usually takes longer
/// than all the earlier ones together.
const NEUTRAL_PCT: u64 = 50;

/// How the best move has behaved over the last iterations.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stability {
    /// The last iteration changed it.
    Changed,
    Neutral,
    /// The same for [`STABLE_ITERATIONS`] iterations or more.
    Settled,
}

impl Stability {
    /// After an iteration whose best move has been the same for `streak`
    /// iterations (1: it just changed, or this is the first).
    pub fn of(streak: u32, first: bool) -> Stability {
        match streak {
            1 if !first => Stability::Changed,
            s if s >= STABLE_ITERATIONS => Stability::Settled,
            _ => Stability::Neutral,
        }
    }
}

impl SearchLimits {
    /// `go depth d`: no other limit.
    pub fn depth(d: u32) -> SearchLimits {
        SearchLimits {
            depth: Some(d),
            ..SearchLimits::default()
        }
    }

    /// `go nodes n`: no other limit.
    pub fn nodes(n: u64) -> SearchLimits {
        SearchLimits {
            nodes: Some(n),
            ..SearchLimits::default()
        }
    }

    /// `go movetime ms`: no other limit.
    pub fn movetime(ms: u64) -> SearchLimits {
        SearchLimits {
            movetime: Some(ms),
            ..SearchLimits::default()
        }
    }

    /// `go infinite`: until `stop`.
    pub fn infinite() -> SearchLimits {
        SearchLimits {
            infinite: true,
            ..SearchLimits::default()
        }
    }

    /// When the search's clock starts: when the `go` was read, or now.
    pub fn start(&self) -> Instant {
        self.received.unwrap_or_else(Instant::now)
    }
}

impl Default for SearchLimits {
    /// No limit, and the clock's use at [`TIME`]'s defaults.
    fn default() -> Self {
        SearchLimits {
            depth: None,
            mate: None,
            nodes: None,
            movetime: None,
            time: None,
            inc: 0,
            movestogo: None,
            infinite: false,
            ponder: false,
            clock: ClockUse::default(),
            received: None,
        }
    }
}

/// When the search should stop.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub start: Instant,
    /// Do not start another iteration after this.
    pub soft: Option<Duration>,
    /// Stop at once after this.
    pub hard: Option<Duration>,
    /// `time_stable` and `time_changed`.
    pub stable_pct: u64,
    pub changed_pct: u64,
}

impl Plan {
    /// No clock: a search that only a stop or its own limits end.
    pub fn unbounded() -> Plan {
        Plan::new(&SearchLimits::default(), Instant::now())
    }

    pub fn new(l: &SearchLimits, start: Instant) -> Plan {
        let ms = Duration::from_millis;
        let plan = |soft, hard| Plan {
            start,
            soft,
            hard,
            stable_pct: l.clock.stable_pct,
            changed_pct: l.clock.changed_pct,
        };
        if let Some(t) = l.movetime {
            // A fixed time a move: the best move's history changes nothing.
            return Plan {
                stable_pct: NEUTRAL_PCT,
                changed_pct: NEUTRAL_PCT,
                ..plan(Some(ms(t)), Some(ms(t)))
            };
        }
        match l.time {
            Some(left) if !l.infinite => {
                let usable = left.saturating_sub(l.clock.overhead);
                let goal = match l.movestogo {
                    Some(n) if n > 0 => usable / n as u64,
                    _ => usable / l.clock.moves.max(1) + l.inc * 4 / 5,
                };
                let goal = goal.min(usable / 10).max(1);
                plan(
                    Some(ms(goal)),
                    Some(ms((goal * 3).min(usable / 4).max(goal))),
                )
            }
            _ => plan(None, None),
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn past_hard(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// After how long no iteration starts, given how settled the best move
    /// is; None without a clock.
    pub fn soft_at(&self, stability: Stability) -> Option<Duration> {
        let pct = match stability {
            Stability::Changed => self.changed_pct,
            Stability::Neutral => NEUTRAL_PCT,
            Stability::Settled => self.stable_pct,
        };
        self.soft.map(|s| s * pct as u32 / 100)
    }

    /// Whether another iteration is worth starting, given how settled the
    /// best move is.
    pub fn past_soft(&self, stability: Stability) -> bool {
        self.soft_at(stability).is_some_and(|s| self.elapsed() >= s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fischer_clock_plan() {
        let l = SearchLimits {
            time: Some(60_000),
            inc: 1_000,
            ..SearchLimits::default()
        };
        let p = Plan::new(&l, Instant::now());
        // 4% of 59.97 s plus 80% of 1 s.
        assert_eq!(p.soft, Some(Duration::from_millis(2398 + 800)));
        assert_eq!(p.hard, Some(Duration::from_millis(3 * 3198)));
        // `time_moves` 20: a larger share of the clock.
        let p = Plan::new(
            &SearchLimits {
                clock: ClockUse {
                    moves: 20,
                    ..l.clock
                },
                ..l
            },
            Instant::now(),
        );
        assert_eq!(p.soft, Some(Duration::from_millis(2998 + 800)));
    }

    /// A plan for a 10 s goal whose search started `elapsed_ms` ago.
    fn started_ago(l: SearchLimits, elapsed_ms: u64) -> Plan {
        let ago = Instant::now() - Duration::from_millis(elapsed_ms);
        Plan::new(&l, ago)
    }

    #[test]
    fn a_settled_best_move_stops_sooner_and_a_changed_one_later() {
        let l = SearchLimits {
            time: Some(500_030),
            clock: ClockUse {
                overhead: 30,
                moves: 50,
                stable_pct: 20,
                changed_pct: 90,
            },
            ..SearchLimits::default()
        };
        assert_eq!(started_ago(l, 0).soft, Some(Duration::from_millis(10_000)));
        // 3 s in: past 20% of the goal, not past 50% or 90%.
        let p = started_ago(l, 3_000);
        assert!(p.past_soft(Stability::Settled));
        assert!(!p.past_soft(Stability::Neutral));
        assert!(!p.past_soft(Stability::Changed));
        // 6 s in: past half, still under 90%.
        let p = started_ago(l, 6_000);
        assert!(p.past_soft(Stability::Neutral));
        assert!(!p.past_soft(Stability::Changed));
        assert!(started_ago(l, 9_100).past_soft(Stability::Changed));
        // A fixed move time keeps the neutral half whatever the options.
        let fixed = SearchLimits {
            movetime: Some(10_000),
            ..l
        };
        assert!(!started_ago(fixed, 3_000).past_soft(Stability::Settled));
        assert!(started_ago(fixed, 6_000).past_soft(Stability::Changed));
    }

    #[test]
    fn stability_counts_iterations_with_one_best_move() {
        assert_eq!(Stability::of(1, true), Stability::Neutral);
        assert_eq!(Stability::of(1, false), Stability::Changed);
        assert_eq!(Stability::of(2, false), Stability::Neutral);
        assert_eq!(Stability::of(STABLE_ITERATIONS, false), Stability::Settled);
        assert_eq!(Stability::of(9, false), Stability::Settled);
    }

    #[test]
    fn low_clock_never_plans_past_it() {
        let l = SearchLimits {
            time: Some(100),
            inc: 2_000,
            ..SearchLimits::default()
        };
        let p = Plan::new(&l, Instant::now());
        assert!(p.hard.unwrap() <= Duration::from_millis(70));
        assert!(p.soft.unwrap() <= p.hard.unwrap());
    }

    #[test]
    fn infinite_and_depth_searches_have_no_deadline() {
        let p = Plan::new(
            &SearchLimits {
                infinite: true,
                time: Some(5),
                ..SearchLimits::default()
            },
            Instant::now(),
        );
        assert!(p.hard.is_none());
        let p = Plan::new(&SearchLimits::depth(3), Instant::now());
        assert!(p.soft.is_none() && p.hard.is_none());
    }
}
