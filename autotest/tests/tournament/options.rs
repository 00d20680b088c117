//! The engines' UCI options before the first game: an option the engine's
//! `uci` answer does not list, or one it refuses (our engine's
//! `info string error` line, another's line on its standard error), stops
//! the run with a message naming the engine and quoting it; no game is
//! played and no PGN written. Names compare as UCI compares them, ignoring
//! case.

use crate::common::{
    fake::{assert_no_leftovers, bounded, engine, fake, pid_dir, tournament_spec, GOOD_CLOCK_MS},
    programs::leiserchess,
    scratch,
    spec::{fischer, options},
};
use autotest::config::spec::{EngineSpec, TournamentSpec};
use autotest::tournament;
use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

fn autotest(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_autotest"))
        // Not about the results database: none kept in the user's home.
        .env("AUTOTEST_DB", "none")
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run autotest")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `autotest ARGS -games 2 -pgnout games.pgn` in a fresh directory
/// and checks that it stopped before the first game; its standard error.
fn stopped(test: &str, args: &[&str]) -> String {
    let dir = scratch::dir(&format!("options/{test}"));
    let mut all = args.to_vec();
    all.extend(["-games", "2", "-pgnout", "games.pgn"]);
    let out = autotest(&all, &dir);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    eprintln!("{test}: {stderr}");
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(!stderr.contains("game 1/"), "{stderr}");
    assert_eq!(stdout, "", "no table");
    assert!(!dir.join("games.pgn").exists(), "no PGN is written");
    stderr
}

/// `option.nosuch=3` for an engine without it: the run stops, naming the
/// engine and the option, and listing the options the engine has.
#[test]
fn an_unknown_option_stops_the_run() {
    let pids = pid_dir("options_unknown");
    let cmd = format!("cmd={} good {}", fake().display(), pids.display());
    let stderr = stopped(
        "unknown",
        &[
            "-engine",
            &cmd,
            "name=a",
            "option.nosuch=3",
            "-engine",
            &cmd,
            "name=b",
        ],
    );
    assert!(stderr.starts_with("autotest: engine 'a' ("), "{stderr}");
    assert!(
        stderr.ends_with(
            " has no option 'nosuch': its 'uci' answer does not list it (its options: Hash)\n"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("'b'"), "b passed: {stderr}");
    assert_no_leftovers(&pids);
}

/// A name a letter off gets the close one suggested.
#[test]
fn a_misspelt_option_gets_the_close_name() {
    let pids = pid_dir("options_misspelt");
    let cmd = format!("cmd={} good {}", fake().display(), pids.display());
    let stderr = stopped(
        "misspelt",
        &[
            "-engine",
            &cmd,
            "name=a",
            "-engine",
            &cmd,
            "name=b",
            "-each",
            "option.hsah=2",
        ],
    );
    assert!(
        stderr.contains(
            " has no option 'hsah': its 'uci' answer does not list it (did you mean Hash?)"
        ),
        "{stderr}"
    );
    assert_no_leftovers(&pids);
}

/// `option.hash=abc` on the real engine: it answers with an
/// `info string error` line, which the run stops with.
#[test]
fn a_value_the_real_engine_refuses_stops_the_run() {
    let cmd = format!("cmd={}", leiserchess().display());
    let stderr = stopped(
        "real_refusal",
        &[
            "-engine",
            &cmd,
            "name=dev",
            "option.hash=abc",
            "-engine",
            &cmd,
            "name=base",
            "-each",
            "depth=1",
        ],
    );
    assert!(stderr.starts_with("autotest: engine 'dev' ("), "{stderr}");
    assert!(
        stderr.contains(") refused an option: \"info string error: "),
        "{stderr}"
    );
    assert!(
        stderr.contains("'hash'") && stderr.contains("'abc'"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "only dev: {stderr}");
}

/// Runs a tournament of a good fake against `other`; the check's error, if
/// it stopped the run (then nothing was played nor written).
fn check(test: &str, other: EngineSpec, pids: &Path) -> Result<(), String> {
    let pgn = pids.with_extension("pgn");
    let _ = std::fs::remove_file(&pgn);
    let spec = TournamentSpec {
        pgn_out: Some(pgn.clone()),
        games: 1,
        repeat: false,
        ..tournament_spec(vec![
            engine("good", "good", fischer(GOOD_CLOCK_MS), pids),
            other,
        ])
    };
    let (result, _) = bounded(Duration::from_secs(20), move || {
        tournament::run(&spec, &[], |_, _, _, _| {})
    });
    match result {
        Ok(s) => {
            assert_eq!(s.games.len(), 1, "{test}");
            Ok(())
        }
        Err(e) => {
            eprintln!("{test}: {e}");
            assert!(!pgn.exists(), "{test}: no PGN is written");
            Err(e)
        }
    }
}

/// An engine that writes an error line on its standard error when it gets
/// an option refused it; its line is quoted.
#[test]
fn a_refusal_on_the_standard_error_stops_the_run() {
    let pids = pid_dir("options_stderr_refusal");
    let picky = engine("picky", "refuse-stderr", fischer(GOOD_CLOCK_MS), &pids);
    let err = check("stderr_refusal", picky, &pids).expect_err("the run stops");
    assert!(err.starts_with("engine 'picky' ("), "{err}");
    assert!(
        err.ends_with(
            ") refused an option on its standard error: \
             \"scripted.sh: error: option Hash refused\""
        ),
        "{err}"
    );
    assert_no_leftovers(&pids);
}

/// The same engine given no option refuses nothing; an engine that writes
/// other lines on its standard error is no refusal; names ignore case.
#[test]
fn engines_that_refuse_nothing_play() {
    let pids = pid_dir("options_accepted");
    let mut picky = engine("picky", "refuse-stderr", fischer(GOOD_CLOCK_MS), &pids);
    picky.options.clear();
    check("no_options", picky, &pids).expect("nothing to refuse");
    let mut noisy = engine("noisy", "stderr", fischer(GOOD_CLOCK_MS), &pids);
    noisy.options = options(&[("hASH", "2")]);
    check("noisy", noisy, &pids).expect("no refusal");
    assert_no_leftovers(&pids);
}
