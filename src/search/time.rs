//! What a `go` asks for, and the time plan derived from it (ENGINE.md
//! "Time"), in microseconds. The move overhead is kept back from the
//! clock: `move_overhead` ms, but never more than `move_overhead_pct`
//! percent of the time left. The goal is the rest over `time_moves` moves
//! (or `movestogo`) plus 80% of the increment, never more than a tenth of
//! the rest; the hard stop three times that, never past a quarter of the
//! rest. No iteration starts past half the goal, or past `time_stable`
//! percent of it once the best move has stood for [`STABLE_ITERATIONS`]
//! iterations, or `time_changed` percent when the last iteration changed
//! it.

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
    /// The most of the time left kept back, in percent
    /// (`move_overhead_pct`): on a short clock the overhead is this share
    /// of it instead.
    pub overhead_pct: u64,
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
        "move_overhead_pct",
        10,
        0,
        100,
        number_field!(overhead_pct),
        "The most of the time left that move_overhead keeps back, in percent",
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
            overhead_pct: 0,
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
        let plan = |soft, hard| Plan {
            start,
            soft,
            hard,
            stable_pct: l.clock.stable_pct,
            changed_pct: l.clock.changed_pct,
        };
        if let Some(t) = l.movetime {
            // A fixed time a move: the best move's history changes nothing.
            let t = Duration::from_millis(t);
            return Plan {
                stable_pct: NEUTRAL_PCT,
                changed_pct: NEUTRAL_PCT,
                ..plan(Some(t), Some(t))
            };
        }
        match l.time {
            Some(left) if !l.infinite => {
                let (goal, hard) = clock_plan(&l.clock, left, l.inc, l.movestogo);
                let us = Duration::from_micros;
                plan(Some(us(goal)), Some(us(hard)))
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

    /// After how long no iteration starts, given how the best move
    /// stands; None without a clock.
    pub fn soft_at(&self, stability: Stability) -> Option<Duration> {
        let pct = match stability {
            Stability::Changed => self.changed_pct,
            Stability::Neutral => NEUTRAL_PCT,
            Stability::Settled => self.stable_pct,
        };
        self.soft.map(|s| s * pct as u32 / 100)
    }

    /// Whether another iteration is worth starting, given how the best
    /// move stands.
    pub fn past_soft(&self, stability: Stability) -> bool {
        self.soft_at(stability).is_some_and(|s| self.elapsed() >= s)
    }
}

/// The goal and the hard stop, in microseconds, of a move with `left_ms`
/// on the clock, `inc_ms` added after it and `movestogo` (the rule in
/// the module's comment). In microseconds so that a 1 ms increment counts
/// (80% of it is 800 µs, not 0 ms); without a floor, so that it never
/// plans past the clock: with none left to plan both are 0, and the
/// search stops at once with its static pick.
fn clock_plan(c: &ClockUse, left_ms: u64, inc_ms: u64, movestogo: Option<u32>) -> (u64, u64) {
    let us = |ms: u64| ms.saturating_mul(1000);
    let left = us(left_ms);
    let reserve = us(c.overhead).min(left / 100 * c.overhead_pct.min(100));
    let usable = left - reserve;
    let goal = match movestogo {
        Some(n) if n > 0 => usable / u64::from(n),
        _ => (usable / c.moves.max(1)).saturating_add(us(inc_ms) / 5 * 4),
    };
    let goal = goal.min(usable / 10);
    (goal, goal.saturating_mul(3).min(usable / 4).max(goal))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(time: u64, inc: u64) -> SearchLimits {
        SearchLimits {
            time: Some(time),
            inc,
            ..SearchLimits::default()
        }
    }

    fn us(d: Option<Duration>) -> u128 {
        d.expect("a clock gives a plan").as_micros()
    }

    #[test]
    fn fischer_clock_plan() {
        let l = clock(60_000, 1_000);
        let p = Plan::new(&l, Instant::now());
        // 4% of 59.97 s plus 80% of 1 s: the 30 ms overhead is under 10%.
        assert_eq!(us(p.soft), 2_398_800 + 800_000);
        assert_eq!(us(p.hard), 3 * 3_198_800);
        // `time_moves` 20: a larger share of the clock.
        let c = ClockUse {
            moves: 20,
            ..l.clock
        };
        let p = Plan::new(&SearchLimits { clock: c, ..l }, Instant::now());
        assert_eq!(us(p.soft), 2_998_500 + 800_000);
    }

    #[test]
    fn a_one_ms_increment_counts_on_a_tenth_of_a_second() {
        let with = Plan::new(&clock(100, 1), Instant::now());
        let without = Plan::new(&clock(100, 0), Instant::now());
        // The overhead is 10% of 100 ms: 90 ms / 25 + 800 µs.
        assert_eq!(us(with.soft), 3_600 + 800);
        assert_eq!(us(without.soft), 3_600);
        assert_eq!(us(with.hard), 3 * 4_400);
    }

    #[test]
    fn the_overhead_is_the_lesser_of_the_option_and_its_share() {
        let l = clock(100, 0);
        let with_pct = |pct| {
            let c = ClockUse {
                overhead_pct: pct,
                ..l.clock
            };
            us(Plan::new(&SearchLimits { clock: c, ..l }, Instant::now()).soft)
        };
        // All 30 ms kept back (70 ms / 25), a fifth of the clock, or none.
        assert_eq!(with_pct(100), 2_800);
        assert_eq!(with_pct(50), 2_800);
        assert_eq!(with_pct(20), 3_200);
        assert_eq!(with_pct(0), 4_000);
        // On a long clock the option, not the share.
        assert_eq!(
            us(Plan::new(&clock(10_000, 0), Instant::now()).soft),
            398_800
        );
    }

    /// Every clock from 0 to 400 ms, for several increments, options and
    /// `movestogo`, and some long ones.
    fn clocks() -> impl Iterator<Item = SearchLimits> {
        let lefts = (0..=400).chain([1_000, 10_000, 60_000, 3_600_000]);
        lefts.flat_map(|left| {
            [0, 1, 3, 100, 5_000].into_iter().flat_map(move |inc| {
                [None, Some(1), Some(7)]
                    .into_iter()
                    .flat_map(move |movestogo| {
                        [(30, 10), (0, 0), (5_000, 100), (30, 100)].map(|(overhead, pct)| {
                            SearchLimits {
                                movestogo,
                                clock: ClockUse {
                                    overhead,
                                    overhead_pct: pct,
                                    ..ClockUse::default()
                                },
                                ..clock(left, inc)
                            }
                        })
                    })
            })
        })
    }

    #[test]
    fn never_a_hard_stop_past_the_clock_less_the_overhead() {
        for l in clocks() {
            let p = Plan::new(&l, Instant::now());
            let left = u128::from(l.time.unwrap()) * 1000;
            let overhead = u128::from(l.clock.overhead * 1000)
                .min(left * u128::from(l.clock.overhead_pct) / 100);
            assert!(us(p.soft) <= us(p.hard), "{l:?}");
            assert!(us(p.hard) <= left - overhead, "{l:?}");
            // Some time, unless the overhead keeps back the whole clock.
            assert_eq!(us(p.soft) > 0, left > overhead, "{l:?}");
        }
    }

    #[test]
    fn more_time_left_never_plans_less() {
        let mut last: Option<(SearchLimits, u128, u128)> = None;
        for l in clocks() {
            let p = Plan::new(&l, Instant::now());
            let now = (us(p.soft), us(p.hard));
            if let Some((before, soft, hard)) = last {
                let same = |a: &SearchLimits| (a.inc, a.movestogo, a.clock);
                if same(&before) == same(&l) && before.time < l.time {
                    assert!(soft <= now.0 && hard <= now.1, "{before:?} then {l:?}");
                }
            }
            last = Some((l, now.0, now.1));
        }
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
                ..ClockUse::default()
            },
            ..SearchLimits::default()
        };
        assert_eq!(started_ago(l, 0).soft, Some(Duration::from_millis(10_000)));
        let (settled, neutral, changed) =
            (Stability::Settled, Stability::Neutral, Stability::Changed);
        // 3 s in: past 20% of the goal, not past 50% or 90%.
        let p = started_ago(l, 3_000);
        assert!(p.past_soft(settled));
        assert!(!p.past_soft(neutral));
        assert!(!p.past_soft(changed));
        // 6 s in: past half, still under 90%.
        let p = started_ago(l, 6_000);
        assert!(p.past_soft(neutral));
        assert!(!p.past_soft(changed));
        assert!(started_ago(l, 9_100).past_soft(changed));
        // A fixed move time keeps the neutral half whatever the options.
        let fixed = SearchLimits {
            movetime: Some(10_000),
            ..l
        };
        assert!(!started_ago(fixed, 3_000).past_soft(settled));
        assert!(started_ago(fixed, 6_000).past_soft(changed));
        assert!(!started_ago(fixed, 4_000).past_soft(neutral));
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
