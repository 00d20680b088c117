//! The engines' standard error: each engine's goes to `NAME.stderr.log`
//! beside the PGN file, a block per game (and one for the start-up check)
//! under a header line; an engine that dies is reported with its last 10
//! lines.

use crate::common::{
    fake::{
        assert_no_leftovers, bounded, engine, pid_dir, tournament_spec, GAME_LIMIT, GOOD_CLOCK_MS,
    },
    scratch,
    spec::fischer,
};
use autotest::config::spec::TournamentSpec;
use autotest::openings::Opening;
use autotest::referee::record::{FaultKind, Termination};
use autotest::{referee, tournament};
use std::time::Duration;

/// Two games of a fake that writes on its standard error against a silent
/// one: its log holds the start-up check's lines and each game's, under
/// their headers; the silent engine gets no log. A second run replaces the
/// log as it replaces the PGN file.
#[test]
fn each_engines_standard_error_goes_beside_the_pgn() {
    let pids = pid_dir("stderr_log");
    let dir = scratch::dir("stderr/log");
    let spec = TournamentSpec {
        pgn_out: Some(dir.join("games.pgn")),
        ..tournament_spec(vec![
            engine("noisy one", "stderr", fischer(GOOD_CLOCK_MS), &pids),
            engine("quiet", "good", fischer(GOOD_CLOCK_MS), &pids),
        ])
    };
    for _ in 0..2 {
        let spec = spec.clone();
        let (summary, _) = bounded(Duration::from_secs(30), move || {
            tournament::run(&spec, &[], |_, _, _, _| {})
        });
        assert_eq!(summary.expect("the run").games.len(), 2);
    }
    let log = std::fs::read_to_string(dir.join("noisy_one.stderr.log"))
        .expect("noisy_one.stderr.log beside games.pgn");
    let plies = |from: usize| -> String {
        (from..8)
            .step_by(2)
            .map(|p| format!("scripted.sh: go at ply {p}\n"))
            .collect()
    };
    let expected = format!(
        "== start-up check ==\nscripted.sh: started\n\
         == round 1.1: noisy one vs quiet ==\nscripted.sh: started\n{}\
         == round 1.2: quiet vs noisy one ==\nscripted.sh: started\n{}",
        plies(0),
        plies(1)
    );
    assert_eq!(log, expected);
    assert!(
        !dir.join("quiet.stderr.log").exists(),
        "quiet wrote nothing"
    );
    assert_no_leftovers(&pids);
}

/// An engine that writes 12 lines on its standard error and exits in the
/// game: the fault quotes the last 10 lines, and its log has all 12.
#[test]
fn a_dying_engine_is_reported_with_its_last_lines() {
    let pids = pid_dir("stderr_dying");
    let dir = scratch::dir("stderr/dying");
    let good = engine("good", "good", fischer(GOOD_CLOCK_MS), &pids);
    let bad = engine("bad", "crash-stderr", fischer(GOOD_CLOCK_MS), &pids);
    let t = TournamentSpec {
        pgn_out: Some(dir.join("games.pgn")),
        ..tournament_spec(vec![])
    };
    let (rec, _) = bounded(GAME_LIMIT, move || {
        referee::play(&good, &bad, &Opening::startpos(), &t, "7")
    });
    let Termination::Fault {
        engine,
        kind,
        detail,
    } = &rec.termination
    else {
        panic!("a fault: {}", rec.termination)
    };
    assert_eq!((engine.as_str(), *kind), ("bad", FaultKind::Crash));
    let last: Vec<String> = (3..=12)
        .map(|i| format!("\"scripted.sh: dying, line {i} of 12\""))
        .collect();
    assert_eq!(
        detail,
        &format!(
            "exited: exit status: 3; its last 10 standard-error lines: {}",
            last.join(" | ")
        )
    );
    let log = std::fs::read_to_string(dir.join("bad.stderr.log")).expect("bad.stderr.log");
    let all: String = (1..=12)
        .map(|i| format!("scripted.sh: dying, line {i} of 12\n"))
        .collect();
    assert_eq!(log, format!("== round 7: good vs bad ==\n{all}"));
    assert_no_leftovers(&pids);
}
