//! docs/ENGINE.md's worked example of the time plan, written from the
//! plan the engine makes with the default options.

use leiserchess::search::time::{Plan, SearchLimits, Stability};
use std::time::{Duration, Instant};

/// The example: 60 s left, a 1 s increment.
const LEFT_MS: u64 = 60_000;
const INC_MS: u64 = 1_000;

/// The paragraph for the plan of `go time 60000 inc 1000`.
fn time_example_text() -> String {
    let limits = SearchLimits {
        time: Some(LEFT_MS),
        inc: INC_MS,
        ..SearchLimits::default()
    };
    let clock = limits.clock;
    let plan = Plan::new(&limits, Instant::now());
    let ms = |d: Option<Duration>| d.expect("a clock gives a plan").as_millis();
    let goal = ms(plan.soft);
    let usable = LEFT_MS - clock.overhead;
    let inc_share = INC_MS * 4 / 5;
    assert_eq!(
        goal,
        u128::from(usable / clock.moves + inc_share),
        "the plan is no longer the remaining time over time_moves plus 80% of the increment: \
         rewrite the example's words"
    );
    format!(
        "For example, with {} s left and a {} s increment, the goal is {usable} / {} +\n\
         {inc_share} = {goal} ms, the hard stop {} ms, and no iteration starts after about\n\
         {} ms once the move is settled, {} ms when it just changed, {} ms\n\
         otherwise.\n",
        LEFT_MS / 1000,
        INC_MS / 1000,
        clock.moves,
        ms(plan.hard),
        ms(plan.soft_at(Stability::Settled)),
        ms(plan.soft_at(Stability::Changed)),
        ms(plan.soft_at(Stability::Neutral)),
    )
}

#[test]
fn time_example() {
    super::generated_block("docs/ENGINE.md", "time-example", &time_example_text());
}
