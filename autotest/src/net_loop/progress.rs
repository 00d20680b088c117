//! The line said before each step:
//!
//! ```text
//! loop: generation 2, step train (3 of 5), elapsed 4m 10s, left about 1m 30s for the step, 3m 20s for the generation
//! ```
//!
//! Elapsed is the time since the loop's first start. The time left is
//! estimated from the latest earlier generation that ran each step: the
//! step's own time, and the sum of the times of it and the steps after
//! it; before a generation has run a step there is no estimate.

use super::state::State;
use super::steps::Step;
use crate::tournament::progress::duration;

/// The line before `steps[k]` of the generation in progress, at `now`.
pub fn line(state: &State, steps: &[Step], k: usize, now: f64) -> String {
    let ms = |seconds: f64| (seconds.max(0.0) * 1000.0).round() as u64;
    let head = format!(
        "loop: generation {}, step {} ({} of {}), elapsed {}",
        state.generation,
        steps[k],
        k + 1,
        steps.len(),
        duration(ms(now - state.started))
    );
    let step = last_time(state, steps[k]);
    let rest: Option<f64> = steps[k..].iter().map(|&s| last_time(state, s)).sum();
    match (step, rest) {
        (Some(s), Some(g)) => format!(
            "{head}, left about {} for the step, {} for the generation",
            duration(ms(s)),
            duration(ms(g))
        ),
        (Some(s), None) => format!("{head}, left about {} for the step", duration(ms(s))),
        (None, _) => format!("{head}, no estimate before a generation has run the step"),
    }
}

/// How long `step` took in the latest generation before the one in
/// progress that ran it.
fn last_time(state: &State, step: Step) -> Option<f64> {
    state
        .generations
        .iter()
        .rev()
        .filter(|g| g.number < state.generation)
        .find_map(|g| g.steps.iter().find(|r| r.step == step))
        .map(|r| r.seconds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net_loop::state::{Generation, Made, StepRecord};
    use crate::net_loop::steps::steps;

    fn record(step: Step, seconds: f64) -> StepRecord {
        StepRecord {
            step,
            seconds,
            ended: 0.0,
            made: Made::Rejected,
        }
    }

    #[test]
    fn the_estimate_is_the_latest_generation_that_ran_each_step() {
        let all = steps(true);
        let mut state = State::new(Vec::new(), 1000.0);
        assert_eq!(
            line(&state, &all, 0, 1065.0),
            "loop: generation 1, step datagen (1 of 5), elapsed 1m 05s, \
             no estimate before a generation has run the step"
        );
        // Generation 1 ran without relabelling, generation 2 with it.
        state.generations = vec![
            Generation {
                number: 1,
                steps: vec![
                    record(Step::Datagen, 100.0),
                    record(Step::Train, 50.0),
                    record(Step::Sprt, 30.0),
                    record(Step::Decide, 0.0),
                ],
            },
            Generation {
                number: 2,
                steps: vec![record(Step::Datagen, 90.0), record(Step::Relabel, 20.0)],
            },
        ];
        state.generation = 2;
        // Generation 2's own times do not count for itself.
        assert_eq!(
            line(&state, &all, 2, 4600.0),
            "loop: generation 2, step train (3 of 5), elapsed 1h 00m, \
             left about 50s for the step, 1m 20s for the generation"
        );
        assert_eq!(
            line(&state, &all, 1, 1000.0),
            "loop: generation 2, step relabel (2 of 5), elapsed 0s, \
             no estimate before a generation has run the step"
        );
        state.generation = 3;
        assert_eq!(
            line(&state, &all, 0, 1000.0),
            "loop: generation 3, step datagen (1 of 5), elapsed 0s, \
             left about 1m 30s for the step, 3m 10s for the generation"
        );
        // A step no generation ran leaves the generation's time unknown.
        state.generations.pop();
        assert_eq!(
            line(&state, &all, 0, 1000.0),
            "loop: generation 3, step datagen (1 of 5), elapsed 0s, \
             left about 1m 40s for the step"
        );
    }
}
