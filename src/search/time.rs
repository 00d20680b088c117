//! What a `go` asks for, and the time plan derived from it (PROTOCOL.md
//! "Time": the remaining time over `time_moves` moves (50: about 2%) plus
//! 80% of the increment, never more than a tenth of what is left, and a
//! hard stop at three times that), all after the move overhead is kept back
//! from the clock.

use crate::setting::{self, Setting};
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
    /// Milliseconds never planned from the clock (the `move_overhead`
    /// option): process start, output and the referee's own work need them.
    pub overhead: u64,
    /// The moves the clock is shared over when `go` gives no `movestogo`
    /// (the `time_moves` option).
    pub moves: u64,
}

/// How the clock is used, as UCI options: name, default, range, field.
pub const TIME: &[Setting<SearchLimits>] = &[
    Setting::spin("move_overhead", 30, 0, 5000, |l, v| l.overhead = v as u64),
    Setting::spin("time_moves", 50, 5, 500, |l, v| l.moves = v as u64),
];

impl Default for SearchLimits {
    /// No limit, and the clock's use at [`TIME`]'s defaults.
    fn default() -> Self {
        let none = SearchLimits {
            depth: None,
            mate: None,
            nodes: None,
            movetime: None,
            time: None,
            inc: 0,
            movestogo: None,
            infinite: false,
            ponder: false,
            overhead: 0,
            moves: 0,
        };
        setting::defaults(none, TIME)
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
}

impl Plan {
    pub fn new(l: &SearchLimits, start: Instant) -> Plan {
        let ms = Duration::from_millis;
        if let Some(t) = l.movetime {
            return Plan {
                start,
                soft: Some(ms(t)),
                hard: Some(ms(t)),
            };
        }
        match l.time {
            Some(left) if !l.infinite => {
                let usable = left.saturating_sub(l.overhead);
                let goal = match l.movestogo {
                    Some(n) if n > 0 => usable / n as u64,
                    _ => usable / l.moves.max(1) + l.inc * 4 / 5,
                };
                let goal = goal.min(usable / 10).max(1);
                Plan {
                    start,
                    soft: Some(ms(goal)),
                    hard: Some(ms((goal * 3).min(usable / 4).max(goal))),
                }
            }
            _ => Plan {
                start,
                soft: None,
                hard: None,
            },
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn past_hard(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether another iteration is worth starting: it usually takes longer
    /// than all the earlier ones together, so stop at half the goal.
    pub fn past_soft(&self) -> bool {
        self.soft.is_some_and(|s| self.elapsed() >= s / 2)
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
            overhead: 30,
            ..SearchLimits::default()
        };
        let p = Plan::new(&l, Instant::now());
        // 2% of 59.97 s plus 80% of 1 s.
        assert_eq!(p.soft, Some(Duration::from_millis(1199 + 800)));
        assert_eq!(p.hard, Some(Duration::from_millis(3 * 1999)));
        // `time_moves` 25: twice the share of the clock.
        let p = Plan::new(&SearchLimits { moves: 25, ..l }, Instant::now());
        assert_eq!(p.soft, Some(Duration::from_millis(2398 + 800)));
    }

    #[test]
    fn low_clock_never_plans_past_it() {
        let l = SearchLimits {
            time: Some(100),
            inc: 2_000,
            overhead: 30,
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
        let p = Plan::new(
            &SearchLimits {
                depth: Some(3),
                ..SearchLimits::default()
            },
            Instant::now(),
        );
        assert!(p.soft.is_none() && p.hard.is_none());
    }
}
