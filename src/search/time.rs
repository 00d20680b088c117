//! What a `go` asks for, and the time plan derived from it (PROTOCOL.md
//! "Time": about 2% of the remaining time plus 80% of the increment, never
//! more than a tenth of what is left, and a hard stop at three times that),
//! all after the move overhead is kept back from the clock.

use std::time::{Duration, Instant};

/// The limits of one search, as `go` gives them.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
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
                    _ => usable / 50 + l.inc * 4 / 5,
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
