//! docs/ENGINE.md's worked examples of the time plan, written from the
//! plans the engine makes with the default options.

use leiserchess::search::time::{Plan, SearchLimits, Stability};
use std::time::{Duration, Instant};

/// A duration in ms, to the µs.
fn ms(d: Option<Duration>) -> String {
    let us = d.expect("a clock gives a plan").as_micros();
    let text = format!("{}.{:03}", us / 1000, us % 1000);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The plan of `go time LEFT inc INC` (in ms) and the limits it came from.
fn plan(left: u64, inc: u64) -> (Plan, SearchLimits) {
    let limits = SearchLimits {
        time: Some(left),
        inc,
        ..SearchLimits::default()
    };
    (Plan::new(&limits, Instant::now()), limits)
}

/// The sentences for the plan of `go time LEFT inc INC`: the overhead,
/// the goal's sum, the hard stop and when iterations stop starting.
fn example(left: u64, inc: u64) -> String {
    let (plan, limits) = plan(left, inc);
    let c = limits.clock;
    let overhead = (c.overhead * 1000).min(left * 10 * c.overhead_pct);
    let usable = left * 1000 - overhead;
    let sum = usable / c.moves + inc * 800;
    assert_eq!(
        plan.soft.unwrap().as_micros(),
        u128::from(sum.min(usable / 10)),
        "the plan is no longer the rest over time_moves plus 80% of the increment: \
         rewrite the example's words"
    );
    let at = |stability| ms(plan.soft_at(stability));
    let us = |x: u64| ms(Some(Duration::from_micros(x)));
    format!(
        "the overhead is {} ms, the goal {} / {} + {} = {} ms, the hard stop {} ms, and no \
         iteration starts after {} ms once the move is settled, {} ms when it just \
         changed, {} ms otherwise",
        us(overhead),
        us(usable),
        c.moves,
        us(inc * 800),
        ms(plan.soft),
        ms(plan.hard),
        at(Stability::Settled),
        at(Stability::Changed),
        at(Stability::Neutral),
    )
}

/// `text`'s words in lines of at most 76 characters.
fn wrap(text: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > 76 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out + &line + "\n"
}

/// The paragraph: a long clock and the tenth of a second.
fn time_example_text() -> String {
    wrap(&format!(
        "For example, with 60 s left and a 1 s increment {}. With 100 ms left and a 1 ms \
         increment {}.",
        example(60_000, 1_000),
        example(100, 1),
    ))
}

#[test]
fn time_example() {
    super::generated_block("docs/ENGINE.md", "time-example", &time_example_text());
}
