//! The step machine: from the state's generation and step, runs each
//! step through the executor, records what it made and writes the state
//! after each one ends, until a stop rule is met or a stop signal comes.
//!
//! A step done is never run again; a step cut short (a failure, a kill,
//! a signal) is run again from its start when the loop is started again,
//! and the engine's commands go on from their own partial output there
//! (datagen appends to its file, relabel from its cursor, train from its
//! checkpoint, the SPRT from its PGN). Generation G's data are made with
//! seed S+G-1 by the best net, scored again by it when the loop relabels,
//! a candidate trained on the newest generations' data, played against
//! the best by SPRT, and promoted on H1 (the best from then on) or
//! rejected. The loop's record goes to the executor (the results
//! database) at the start and after each step.

use super::args::Plan;
use super::executor::{Artifact, Executor, Init, Job, SprtJob, Verdict};
use super::progress;
use super::record;
use super::state::{Made, State, StepRecord};
use super::steps::{steps, Step};
use crate::tournament::progress::duration;
use std::path::{Path, PathBuf};

/// The best net's copy in the loop's folder.
pub const BEST: &str = "best.nnue";

/// Why the loop ended without an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// A stop rule was met: what it says.
    Done(String),
    /// A stop signal came, by name.
    Signal(&'static str),
}

/// The folder of generation `g`'s files.
pub fn generation_dir(dir: &Path, g: u32) -> PathBuf {
    dir.join(format!("gen-{g:03}"))
}

/// Opens the loop in `dir` (its state, or a new one; a changed command
/// refused unless `force`) and runs it.
pub fn start(
    dir: &Path,
    plan: &Plan,
    force: bool,
    exec: &mut dyn Executor,
) -> Result<Ending, String> {
    let mut changed = Vec::new();
    let now = exec.now();
    let mut state = State::open(dir, plan.settings.clone(), force, now, |d| {
        changed = d.to_vec();
    })?;
    for c in changed {
        exec.say(&format!("loop: --force: {c}"));
    }
    exec.record(&record::row(dir, &state));
    run(dir, plan, &mut state, exec)
}

/// Runs the loop in `dir` from `state` until a stop rule or a signal.
/// An error is a step's (its generation and step named) or the state
/// file's; the state on disk is then the one after the last step done.
pub fn run(
    dir: &Path,
    plan: &Plan,
    state: &mut State,
    exec: &mut dyn Executor,
) -> Result<Ending, String> {
    let order = steps(plan.budget.relabel_nodes.is_some());
    loop {
        // A step that --force took out of the plan is passed over; every
        // plan ends with the last step, `decide`.
        let k = order
            .iter()
            .position(|&s| s >= state.step)
            .expect("a step at or after any");
        state.step = order[k];
        if k == 0 {
            if let Some(why) = stop_rule(plan, state, exec.now()) {
                return Ok(Ending::Done(why));
            }
        }
        if let Some(signal) = exec.stop_signal() {
            return Ok(Ending::Signal(signal));
        }
        let start = exec.now();
        exec.say(&progress::line(state, &order, k, start));
        let made = match step(dir, plan, state, exec) {
            Ok(made) => made,
            Err(_) if exec.stop_signal().is_some() => {
                return Ok(Ending::Signal(exec.stop_signal().expect("checked")))
            }
            Err(e) => {
                return Err(format!(
                    "generation {}, step {}: {e}; the same command runs the step again",
                    state.generation, state.step
                ))
            }
        };
        let ended = exec.now();
        let decided = done(state, made, ended - start, ended);
        if let Some(line) = decided {
            exec.say(&line);
        }
        match order.get(k + 1) {
            Some(&next) => state.step = next,
            None => {
                state.generation += 1;
                state.step = order[0];
            }
        }
        state.save(dir)?;
        exec.record(&record::row(dir, state));
    }
}

/// The first stop rule met before a new generation, in words.
fn stop_rule(plan: &Plan, state: &State, now: f64) -> Option<String> {
    let done = state.generation - 1;
    if let Some(n) = plan.stop.generations.filter(|&n| done >= n) {
        return Some(format!("{n} generations made"));
    }
    if let Some(k) = plan.stop.rejections.filter(|&k| state.rejections >= k) {
        return Some(format!("{k} candidates rejected in a row"));
    }
    let hours = plan.stop.hours?;
    let (spent, budget) = (now - state.started, hours * 3600.0);
    let ms = |s: f64| (s.max(0.0) * 1000.0).round() as u64;
    if spent >= budget {
        return Some(format!("{hours} hours spent"));
    }
    let last: f64 = state
        .generation(done)?
        .steps
        .iter()
        .map(|r| r.seconds)
        .sum();
    (spent + last > budget).then(|| {
        format!(
            "{hours} hours would be passed: {} spent, and the last generation took {}",
            duration(ms(spent)),
            duration(ms(last))
        )
    })
}

/// The state's step run: what it made.
fn step(dir: &Path, plan: &Plan, state: &State, exec: &mut dyn Executor) -> Result<Made, String> {
    let g = state.generation;
    let b = &plan.budget;
    let here = generation_dir(dir, g);
    let seed = b.seed.wrapping_add(u64::from(g) - 1);
    let mine = |step: Step| state.generation(g).and_then(|r| r.made(step));
    let file = |step: Step| match mine(step) {
        Some(Made::File(a)) => Ok(a.clone()),
        _ => Err(format!("generation {g} has no {step} file")),
    };
    let job = match state.step {
        Step::Datagen => Job::Datagen {
            generation: g,
            out: here.join("data.bin"),
            positions: b.positions,
            seed,
            net: state.best.clone(),
        },
        Step::Relabel => Job::Relabel {
            data: file(Step::Datagen)?,
            out: here.join("relabelled.bin"),
            nodes: b.relabel_nodes.ok_or("the loop does not relabel")?,
            net: state.best.clone(),
        },
        Step::Train => Job::Train {
            data: training_data(state, b.train_window),
            out: here.join("net.nnue"),
            epochs: b.epochs,
            seed,
            init: b.warm_start.then(|| Init::best(&state.best)),
        },
        Step::Sprt => {
            let job = SprtJob {
                generation: g,
                candidate: file(Step::Train)?,
                best: state.best.clone(),
                pgn: here.join("sprt.pgn"),
                games: b.games,
                seed,
            };
            return exec.sprt(&job).map(Made::Sprt);
        }
        Step::Decide => {
            return match mine(Step::Sprt) {
                Some(Made::Sprt(s)) if s.verdict == Verdict::H1 => {
                    let job = Job::Promote {
                        net: file(Step::Train)?,
                        to: dir.join(BEST),
                        generation: g,
                        sprt: s.clone(),
                        against: state.best.clone(),
                    };
                    exec.make(&job).map(Made::Promoted)
                }
                Some(Made::Sprt(_)) => Ok(Made::Rejected),
                _ => Err(format!("generation {g} has no SPRT")),
            }
        }
    };
    std::fs::create_dir_all(&here).map_err(|e| format!("cannot make {}: {e}", here.display()))?;
    exec.make(&job).map(Made::File)
}

/// The data of the newest `window` generations, this one's included,
/// oldest first: each one's relabelled data where it has them.
fn training_data(state: &State, window: u32) -> Vec<Artifact> {
    let first = state.generation.saturating_sub(window - 1).max(1);
    state
        .generations
        .iter()
        .filter(|g| g.number >= first && g.number <= state.generation)
        .filter_map(|g| match g.made(Step::Relabel).or(g.made(Step::Datagen)) {
            Some(Made::File(a)) => Some(a.clone()),
            _ => None,
        })
        .collect()
}

/// `made` recorded as the step's, with its time and end, the best net
/// and the rejections in a row brought up to date by a decision; the
/// line that tells a decision.
fn done(state: &mut State, made: Made, seconds: f64, ended: f64) -> Option<String> {
    let g = state.generation;
    let line = match &made {
        Made::Promoted(_) => {
            let candidate = state.generation(g).and_then(|r| r.made(Step::Train));
            if let Some(Made::File(net)) = candidate {
                state.best = Some(net.clone());
            }
            state.rejections = 0;
            Some(format!("loop: generation {g}: the candidate is promoted"))
        }
        Made::Rejected => {
            state.rejections += 1;
            Some(format!(
                "loop: generation {g}: the candidate is rejected ({} in a row)",
                state.rejections
            ))
        }
        Made::Sprt(s) => Some(format!(
            "loop: generation {g}: SPRT {} after {} games (+{} ={} -{}), llr {:.2}",
            s.verdict.name(),
            s.wdl.iter().sum::<u64>(),
            s.wdl[0],
            s.wdl[1],
            s.wdl[2],
            s.llr
        )),
        Made::File(_) => None,
    };
    let step = state.step;
    state.current().steps.push(StepRecord {
        step,
        seconds,
        ended,
        made,
    });
    line
}
