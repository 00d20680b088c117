//! The loop's state as the results database records it (`db::loops`):
//! the loop by its folder and first start, each generation begun with
//! the best net it played with (the candidate of the last promotion
//! before it), its data, candidate, SPRT and decision, and each step's
//! time and end.

use super::executor::Verdict;
use super::state::{Made, State};
use super::steps::Step;
use crate::db::loops::{GenerationRow, LoopRow, SprtFigures, StepRow};
use crate::db::text_enums::{Decision, LoopStep, LoopVerdict};
use serde_json::{Map, Value};
use std::path::Path;

/// The database's word for a step.
pub fn step(s: Step) -> LoopStep {
    match s {
        Step::Datagen => LoopStep::Datagen,
        Step::Relabel => LoopStep::Relabel,
        Step::Train => LoopStep::Train,
        Step::Sprt => LoopStep::Sprt,
        Step::Decide => LoopStep::Decide,
    }
}

/// The database's word for a verdict.
pub fn verdict(v: Verdict) -> LoopVerdict {
    match v {
        Verdict::H1 => LoopVerdict::H1,
        Verdict::H0 => LoopVerdict::H0,
        Verdict::Undecided => LoopVerdict::Undecided,
    }
}

/// The record of the loop in `dir` whose state is `state`.
pub fn row(dir: &Path, state: &State) -> LoopRow {
    let settings: Map<String, Value> = state
        .settings
        .iter()
        .map(|(k, v)| (k.clone(), v.clone().map_or(Value::Null, Value::String)))
        .collect();
    let mut best: Option<String> = None;
    let mut generations = Vec::new();
    for g in &state.generations {
        let sha = |s: Step| match g.made(s) {
            Some(Made::File(a)) => Some(a.sha256.clone()),
            _ => None,
        };
        let mut row = GenerationRow {
            number: g.number,
            best: best.clone(),
            data: sha(Step::Datagen),
            relabelled: sha(Step::Relabel),
            candidate: sha(Step::Train),
            ..GenerationRow::default()
        };
        for r in &g.steps {
            match &r.made {
                Made::Sprt(s) => {
                    row.sprt = Some(SprtFigures {
                        wdl: s.wdl,
                        llr: s.llr,
                        verdict: verdict(s.verdict),
                    })
                }
                Made::Promoted(_) => {
                    row.decision = Some(Decision::Promoted);
                    best = row.candidate.clone();
                }
                Made::Rejected => row.decision = Some(Decision::Rejected),
                Made::File(_) => {}
            }
            row.steps.push(StepRow {
                step: step(r.step),
                seconds: r.seconds,
                ended: Some(r.ended),
            });
        }
        generations.push(row);
    }
    LoopRow {
        dir: dir.display().to_string(),
        settings: Value::Object(settings).to_string(),
        // The loop's key with its folder: to the millisecond, the same
        // whether the state was just made or read back from its file.
        started: (state.started * 1000.0).round() / 1000.0,
        best: state.best.as_ref().map(|a| a.sha256.clone()),
        generations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::text_enums::{words, TextEnum};

    /// Every step and verdict has its database word, the same as the
    /// state file's.
    #[test]
    fn the_loop_s_words_are_the_database_s() {
        let all = [
            Step::Datagen,
            Step::Relabel,
            Step::Train,
            Step::Sprt,
            Step::Decide,
        ];
        let names: Vec<&str> = all.iter().map(|s| step(*s).as_str()).collect();
        assert_eq!(names, all.map(Step::name));
        assert_eq!(names, words::<LoopStep>());
        let verdicts = [Verdict::H1, Verdict::H0, Verdict::Undecided];
        let names: Vec<&str> = verdicts.iter().map(|v| verdict(*v).as_str()).collect();
        assert_eq!(names, verdicts.map(Verdict::name));
        assert_eq!(names, words::<LoopVerdict>());
    }

    /// The loop's start, its key, is the same to the bit when the state
    /// read back from its file is off in the last bit.
    #[test]
    fn the_start_is_kept_to_the_millisecond() {
        let started: f64 = 1_796_678_300.225_876_3;
        let one_off = f64::from_bits(started.to_bits() + 1);
        let dir = Path::new("/l");
        let a = row(dir, &State::new(Vec::new(), started));
        let b = row(dir, &State::new(Vec::new(), one_off));
        assert_eq!(a.started.to_bits(), b.started.to_bits());
        assert_eq!(a.started, 1_796_678_300.226);
    }
}
