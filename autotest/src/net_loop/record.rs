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
    use crate::net_loop::fake::Fake;
    use crate::net_loop::machine::start;
    use crate::net_loop::tests::{artifact, saved, two_generations, VERDICTS};

    /// The loop's record: at the start, then after each of the ten steps the
    /// state saved then, the last one each generation's best, data,
    /// candidate, SPRT, decision and steps.
    #[test]
    fn the_record_follows_the_state_step_by_step() {
        let dir = crate::scratch::dir("net_loop-record");
        let mut fake = Fake::new(&dir, &VERDICTS);
        start(&dir, &two_generations(), false, &mut fake).unwrap();
        let state = saved(&dir);
        let steps_done: Vec<usize> = fake
            .records
            .iter()
            .map(|r| r.generations.iter().map(|g| g.steps.len()).sum())
            .collect();
        assert_eq!(steps_done, (0..=10).collect::<Vec<_>>());
        let last = fake.records.last().unwrap();
        assert_eq!(last, &row(&dir, &state));
        assert_eq!(last.dir, dir.display().to_string());
        assert_eq!(last.started, 1_000_000.0);
        assert_eq!(
            last.settings,
            r#"{"--positions":"5000","--relabel-nodes":"50","--store":null}"#
        );
        let sha = |g, step| Some(artifact(&state, g, step).sha256);
        assert_eq!(last.best, sha(1, Step::Train));
        let [g1, g2] = &last.generations[..] else {
            panic!("{last:?}")
        };
        assert_eq!(g1.best, None);
        assert_eq!(g2.best, sha(1, Step::Train));
        assert_eq!(
            (&g2.data, &g2.relabelled, &g2.candidate),
            (
                &sha(2, Step::Datagen),
                &sha(2, Step::Relabel),
                &sha(2, Step::Train)
            )
        );
        let figures = |wdl, llr, verdict| Some(SprtFigures { wdl, llr, verdict });
        assert_eq!(g1.sprt, figures([10, 5, 1], 2.95, LoopVerdict::H1));
        assert_eq!(g2.sprt, figures([10, 5, 2], -2.95, LoopVerdict::H0));
        assert_eq!(
            (g1.decision, g2.decision),
            (Some(Decision::Promoted), Some(Decision::Rejected))
        );
        // Each step's time and end on the fake clock: generation 2's train
        // ended 201 + 120 + 50 seconds after the start.
        let train = g2.steps[2];
        assert_eq!(
            (train.step, train.seconds, train.ended),
            (LoopStep::Train, 50.0, Some(1_000_371.0))
        );
    }

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
