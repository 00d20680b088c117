//! The step machine against the fake executor (`fake.rs`): two
//! generations through every step, a crash or a stop signal in each
//! step then the same command, a changed command, the stop rules, the
//! training window, a bad state file.

use super::args::{Budget, Plan, StopRules};
use super::executor::{Artifact, Init, Job, SprtJob, SprtResult, Verdict};
use super::fake::{text, Call, Fake};
use super::machine::{start, Ending, BEST};
use super::record::row;
use super::state::{Made, State, FILE};
use super::steps::Step;
use std::path::{Path, PathBuf};

fn settings(positions: u64) -> Vec<(String, Option<String>)> {
    vec![
        ("--positions".to_string(), Some(positions.to_string())),
        ("--relabel-nodes".to_string(), Some("50".to_string())),
        ("--store".to_string(), None),
    ]
}

fn plan(stop: StopRules) -> Plan {
    Plan {
        budget: Budget {
            positions: 5000,
            epochs: 3,
            games: 40,
            relabel_nodes: Some(50),
            train_window: 2,
            warm_start: false,
            seed: 7,
        },
        stop,
        settings: settings(5000),
    }
}

pub(super) fn two_generations() -> Plan {
    plan(StopRules {
        generations: Some(2),
        ..StopRules::default()
    })
}

pub(super) fn saved(dir: &Path) -> State {
    State::from_json(&std::fs::read_to_string(dir.join(FILE)).unwrap()).unwrap()
}

pub(super) fn artifact(state: &State, g: u32, step: Step) -> Artifact {
    match state.generation(g).unwrap().made(step) {
        Some(Made::File(a)) => a.clone(),
        other => panic!("generation {g}, {step}: {other:?}"),
    }
}

fn sprt(state: &State, g: u32) -> SprtResult {
    match state.generation(g).unwrap().made(Step::Sprt) {
        Some(Made::Sprt(s)) => s.clone(),
        other => panic!("generation {g}, sprt: {other:?}"),
    }
}

/// The `train` jobs of `calls`, in order.
fn trainings(calls: &[Call]) -> Vec<&Job> {
    calls
        .iter()
        .filter_map(|c| match c {
            Call::Make(j @ Job::Train { .. }) => Some(j),
            _ => None,
        })
        .collect()
}

#[test]
fn warm_start_trains_each_candidate_from_the_best_net() {
    let dir = crate::scratch::dir("net_loop-warm");
    let mut warm = two_generations();
    warm.budget.warm_start = true;
    let mut fake = Fake::new(&dir, &VERDICTS);
    start(&dir, &warm, false, &mut fake).unwrap();
    let net1 = artifact(&saved(&dir), 1, Step::Train);
    let inits: Vec<_> = trainings(&fake.calls)
        .into_iter()
        .map(|j| match j {
            Job::Train { init, .. } => init.clone(),
            _ => unreachable!(),
        })
        .collect();
    // Generation 1 from the embedded net, generation 2 from generation
    // 1's, promoted.
    assert_eq!(inits, vec![Some(Init::Embedded), Some(Init::Net(net1))]);
}

/// Generation 1 promoted, generation 2 rejected.
pub(super) const VERDICTS: [(u32, Verdict); 1] = [(2, Verdict::H0)];

#[test]
fn two_generations_run_every_step_with_the_best_net() {
    let dir = crate::scratch::dir("net_loop-two");
    let mut fake = Fake::new(&dir, &VERDICTS);
    let ending = start(&dir, &two_generations(), false, &mut fake).unwrap();
    assert_eq!(ending, Ending::Done("2 generations made".to_string()));
    let state = saved(&dir);
    let (g1, g2) = (dir.join("gen-001"), dir.join("gen-002"));
    let net1 = artifact(&state, 1, Step::Train);
    let data = |g: u32| artifact(&state, g, Step::Relabel);
    let expected = vec![
        Call::Make(Job::Datagen {
            generation: 1,
            out: g1.join("data.bin"),
            positions: 5000,
            seed: 7,
            net: None,
        }),
        Call::Make(Job::Relabel {
            data: artifact(&state, 1, Step::Datagen),
            out: g1.join("relabelled.bin"),
            nodes: 50,
            net: None,
        }),
        Call::Make(Job::Train {
            data: vec![data(1)],
            out: g1.join("net.nnue"),
            epochs: 3,
            seed: 7,
            init: None,
        }),
        Call::Sprt(SprtJob {
            generation: 1,
            candidate: net1.clone(),
            best: None,
            pgn: g1.join("sprt.pgn"),
            games: 40,
            seed: 7,
        }),
        Call::Make(Job::Promote {
            net: net1.clone(),
            to: dir.join(BEST),
            generation: 1,
            sprt: sprt(&state, 1),
            against: None,
        }),
        // Generation 2 plays, relabels and is measured with generation
        // 1's net, and trains on both generations' data.
        Call::Make(Job::Datagen {
            generation: 2,
            out: g2.join("data.bin"),
            positions: 5000,
            seed: 8,
            net: Some(net1.clone()),
        }),
        Call::Make(Job::Relabel {
            data: artifact(&state, 2, Step::Datagen),
            out: g2.join("relabelled.bin"),
            nodes: 50,
            net: Some(net1.clone()),
        }),
        Call::Make(Job::Train {
            data: vec![data(1), data(2)],
            out: g2.join("net.nnue"),
            epochs: 3,
            seed: 8,
            init: None,
        }),
        Call::Sprt(SprtJob {
            generation: 2,
            candidate: artifact(&state, 2, Step::Train),
            best: Some(net1.clone()),
            pgn: g2.join("sprt.pgn"),
            games: 40,
            seed: 8,
        }),
    ];
    assert_eq!(fake.calls, expected);
    assert!(g1.is_dir() && g2.is_dir());
    // The state: generation 3 next, generation 1's net the best, one
    // rejection, each step's time and outputs.
    assert_eq!((state.generation, state.step), (3, Step::Datagen));
    assert_eq!(state.best, Some(net1));
    assert_eq!(state.rejections, 1);
    assert_eq!(state.started, 1_000_000.0);
    let times: Vec<(Step, f64)> = state.generations[0]
        .steps
        .iter()
        .map(|r| (r.step, r.seconds))
        .collect();
    use Step::*;
    assert_eq!(
        times,
        [
            (Datagen, 100.0),
            (Relabel, 20.0),
            (Train, 50.0),
            (Sprt, 30.0),
            (Decide, 1.0)
        ]
    );
    assert!(matches!(
        state.generation(1).unwrap().made(Decide),
        Some(Made::Promoted(a)) if a.path == dir.join(BEST)
    ));
    assert_eq!(
        state.generation(2).unwrap().made(Decide),
        Some(&Made::Rejected)
    );
    let Some(Made::Sprt(s)) = state.generation(2).unwrap().made(Sprt) else {
        panic!("{state:?}")
    };
    assert_eq!((s.verdict, s.wdl), (Verdict::H0, [10, 5, 2]));
    // The lines said: a progress line before each step, the decisions.
    assert_eq!(
        fake.said[0],
        "loop: generation 1, step datagen (1 of 5), elapsed 0s, \
         no estimate before a generation has run the step"
    );
    assert!(fake.said.contains(
        &"loop: generation 2, step train (3 of 5), elapsed 5m 21s, \
          left about 50s for the step, 1m 21s for the generation"
            .to_string()
    ));
    assert!(fake
        .said
        .contains(&"loop: generation 1: the candidate is promoted".to_string()));
    assert!(fake.said.contains(
        &"loop: generation 2: SPRT H0 after 17 games (+10 =5 -2), llr -2.95".to_string()
    ));
    assert!(fake
        .said
        .contains(&"loop: generation 2: the candidate is rejected (1 in a row)".to_string()));
    // The same command again: the loop has made its generations.
    let mut again = Fake::new(&dir, &VERDICTS);
    let ending = start(&dir, &two_generations(), false, &mut again).unwrap();
    assert_eq!(ending, Ending::Done("2 generations made".to_string()));
    assert!(again.calls.is_empty());
    assert_eq!(saved(&dir), state);
    assert_eq!(again.records, [fake.records.last().unwrap().clone()]);
}

/// The uninterrupted run's folder, calls and final state.
fn uninterrupted() -> (PathBuf, Vec<Call>, State) {
    let dir = crate::scratch::dir("net_loop-unbroken");
    let mut fake = Fake::new(&dir, &VERDICTS);
    start(&dir, &two_generations(), false, &mut fake).unwrap();
    let state = saved(&dir);
    (dir, fake.calls, state)
}

#[test]
fn a_crash_in_any_step_then_the_same_command_ends_as_an_unbroken_run() {
    let (unbroken, calls, state) = uninterrupted();
    for n in 0..calls.len() {
        for signal in [false, true] {
            let dir = crate::scratch::dir(&format!("net_loop-crash-{n}-{signal}"));
            let mut first = Fake::new(&dir, &VERDICTS);
            if signal {
                first.signal = Some(n);
            } else {
                first.crash = Some(n);
            }
            let ended = start(&dir, &two_generations(), false, &mut first);
            if signal {
                assert_eq!(ended, Ok(Ending::Signal("SIGTERM")));
            } else {
                let e = ended.unwrap_err();
                assert!(e.starts_with("generation "), "{e}");
                assert!(
                    e.ends_with("crashed; the same command runs the step again"),
                    "{e}"
                );
            }
            // The calls up to the one cut short; the steps before it saved.
            assert_eq!(
                text(&first.calls, &dir),
                text(&calls[..=n].to_vec(), &unbroken)
            );
            // The clock goes on from where the first run stopped.
            let mut second = Fake::new(&dir, &VERDICTS);
            second.clock = first.clock;
            start(&dir, &two_generations(), false, &mut second).unwrap();
            let after = format!("restarted after call {n}, signal {signal}");
            assert_eq!(
                text(&second.calls, &dir),
                text(&calls[n..].to_vec(), &unbroken),
                "{after}"
            );
            assert_eq!(text(&saved(&dir), &dir), text(&state, &unbroken), "{after}");
            assert_eq!(
                text(second.records.last().unwrap(), &dir),
                text(&row(&unbroken, &state), &unbroken),
                "{after}"
            );
        }
    }
}

#[test]
fn a_changed_command_is_refused_naming_what_differs_unless_forced() {
    let dir = crate::scratch::dir("net_loop-changed");
    let one = plan(StopRules {
        generations: Some(1),
        ..StopRules::default()
    });
    start(&dir, &one, false, &mut Fake::new(&dir, &[])).unwrap();
    let mut changed = one.clone();
    changed.budget.positions = 6000;
    changed.settings = settings(6000);
    changed.settings[2].1 = Some("/elsewhere".to_string());
    changed.stop.generations = Some(2);
    let mut fake = Fake::new(&dir, &[]);
    let e = start(&dir, &changed, false, &mut fake).unwrap_err();
    assert_eq!(
        e,
        format!(
            "{} was started with another command: --positions was '5000', now '6000'; \
             --store was not given, now '/elsewhere'; run the same command to go on, \
             or add --force to go on with the new settings",
            dir.join(FILE).display()
        )
    );
    assert!(fake.calls.is_empty());
    // Stop rules are not settings: a second generation is the same loop.
    let mut longer = one.clone();
    longer.stop.generations = Some(2);
    longer.stop.rejections = Some(5);
    let mut fake = Fake::new(&dir, &[]);
    start(&dir, &longer, false, &mut fake).unwrap();
    assert_eq!(fake.calls.len(), 5);
    // --force takes the new settings from the step the loop is at.
    changed.stop.generations = Some(3);
    let mut fake = Fake::new(&dir, &[]);
    start(&dir, &changed, true, &mut fake).unwrap();
    assert_eq!(
        fake.said[..2],
        [
            "loop: --force: --positions was '5000', now '6000'",
            "loop: --force: --store was not given, now '/elsewhere'"
        ]
    );
    assert!(matches!(
        &fake.calls[0],
        Call::Make(Job::Datagen {
            positions: 6000,
            ..
        })
    ));
    let now = saved(&dir).settings;
    assert!(now.contains(&("--positions".to_string(), Some("6000".to_string()))));
    assert!(now.contains(&("--store".to_string(), Some("/elsewhere".to_string()))));
}

#[test]
fn rejections_in_a_row_stop_the_loop_and_a_promotion_resets_them() {
    let dir = crate::scratch::dir("net_loop-rejections");
    let verdicts = [
        (1, Verdict::H0),
        (2, Verdict::H1),
        (3, Verdict::Undecided),
        (4, Verdict::H0),
    ];
    let rules = plan(StopRules {
        rejections: Some(2),
        ..StopRules::default()
    });
    let mut fake = Fake::new(&dir, &verdicts);
    let ending = start(&dir, &rules, false, &mut fake).unwrap();
    assert_eq!(
        ending,
        Ending::Done("2 candidates rejected in a row".to_string())
    );
    let state = saved(&dir);
    assert_eq!((state.generation, state.rejections), (5, 2));
    // Only generation 2's candidate was promoted: the best since.
    assert_eq!(state.best, Some(artifact(&state, 2, Step::Train)));
    let promotions = fake
        .calls
        .iter()
        .filter(|c| matches!(c, Call::Make(Job::Promote { .. })))
        .count();
    assert_eq!(promotions, 1);
}

#[test]
fn the_hours_stop_the_loop_before_a_generation_that_would_pass_them() {
    // A generation takes 201 s on the fake clock; 0.1 h is 360 s.
    let dir = crate::scratch::dir("net_loop-hours");
    let hours = |h: f64, generations: Option<u32>| {
        plan(StopRules {
            hours: Some(h),
            generations,
            ..StopRules::default()
        })
    };
    let mut fake = Fake::new(&dir, &[]);
    let ending = start(&dir, &hours(0.1, None), false, &mut fake).unwrap();
    assert_eq!(
        ending,
        Ending::Done(
            "0.1 hours would be passed: 3m 21s spent, and the last generation took 3m 21s"
                .to_string()
        )
    );
    assert_eq!(saved(&dir).generation, 2);
    // Started again 25 minutes after the first start: 0.4 h are spent.
    let mut later = Fake::new(&dir, &[]);
    later.clock += 1500.0;
    let ending = start(&dir, &hours(0.4, None), false, &mut later).unwrap();
    assert_eq!(ending, Ending::Done("0.4 hours spent".to_string()));
    assert!(later.calls.is_empty());
    // With more hours, it goes on.
    let mut more = Fake::new(&dir, &[]);
    more.clock += 1500.0;
    start(&dir, &hours(1.0, Some(2)), false, &mut more).unwrap();
    assert_eq!(saved(&dir).generation, 3);
}

#[test]
fn the_training_window_takes_the_newest_generations_data() {
    let dir = crate::scratch::dir("net_loop-window");
    let mut rules = plan(StopRules {
        generations: Some(3),
        ..StopRules::default()
    });
    rules.budget.relabel_nodes = None;
    let mut fake = Fake::new(&dir, &[]);
    start(&dir, &rules, false, &mut fake).unwrap();
    let state = saved(&dir);
    let trained: Vec<Vec<Artifact>> = fake
        .calls
        .iter()
        .filter_map(|c| match c {
            Call::Make(Job::Train { data, .. }) => Some(data.clone()),
            _ => None,
        })
        .collect();
    let data = |g| artifact(&state, g, Step::Datagen);
    assert_eq!(
        trained,
        [
            vec![data(1)],
            vec![data(1), data(2)],
            vec![data(2), data(3)]
        ]
    );
    assert!(state
        .generations
        .iter()
        .all(|g| g.made(Step::Relabel).is_none()));
}

#[test]
fn a_bad_state_file_is_named_with_what_is_wrong() {
    let dir = crate::scratch::dir("net_loop-bad-state");
    let refused = |text: &str| {
        std::fs::write(dir.join(FILE), text).unwrap();
        start(&dir, &two_generations(), false, &mut Fake::new(&dir, &[])).unwrap_err()
    };
    let name = dir.join(FILE).display().to_string();
    assert!(refused("{").starts_with(&format!("{name}: not JSON: ")));
    assert_eq!(
        refused(r#"{"format": 2}"#),
        format!("{name}: format 2 is not this autotest's (1)")
    );
    // A good state with one field broken at a time.
    std::fs::remove_file(dir.join(FILE)).unwrap();
    start(&dir, &two_generations(), false, &mut Fake::new(&dir, &[])).unwrap();
    let good = std::fs::read_to_string(dir.join(FILE)).unwrap();
    assert_eq!(
        refused(&good.replacen("\n  \"step\": \"datagen\"", "\n  \"step\": \"promote\"", 1)),
        format!("{name}: no step is named 'promote'")
    );
    assert_eq!(
        refused(&good.replacen("\"verdict\": \"H1\"", "\"verdict\": \"H2\"", 1)),
        format!("{name}: generation 1: no SPRT verdict is named 'H2'")
    );
    assert_eq!(
        refused(&good.replacen("\"rejections_in_a_row\"", "\"rejected\"", 1)),
        format!("{name}: no 'rejections_in_a_row'")
    );
}

#[test]
fn a_step_forced_out_of_the_plan_is_passed_over() {
    let dir = crate::scratch::dir("net_loop-forced-out");
    let mut first = Fake::new(&dir, &[]);
    first.crash = Some(1);
    start(&dir, &two_generations(), false, &mut first).unwrap_err();
    assert_eq!(saved(&dir).step, Step::Relabel);
    let mut plain = two_generations();
    plain.budget.relabel_nodes = None;
    plain.settings[1].1 = None;
    let mut second = Fake::new(&dir, &[]);
    start(&dir, &plain, true, &mut second).unwrap();
    let state = saved(&dir);
    assert_eq!(
        second.calls[0],
        Call::Make(Job::Train {
            data: vec![artifact(&state, 1, Step::Datagen)],
            out: dir.join("gen-001/net.nnue"),
            epochs: 3,
            seed: 7,
            init: None,
        })
    );
    assert!(state
        .generations
        .iter()
        .all(|g| g.made(Step::Relabel).is_none()));
}
