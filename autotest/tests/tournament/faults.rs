//! Engine faults, with scripted fake engines (`tests/fake/scripted.sh MODE`):
//! every misbehaviour, for either colour of the misbehaving engine, must end
//! the game as a loss for that engine with the right `FaultKind`; a whole
//! tournament of misbehavers must finish, record every game and count the
//! faults; no engine process may be left behind.
//!
//! The fakes never search: a well-behaved fake plays a fixed cycle of pawn
//! steps from the start position (Tangerine d1c1 c1d1 …, Lavender e6f6
//! f6e6 …), and misbehavers fail on their first move, so the good engine
//! moves at most once before the fault. `safe_moves_of_the_fakes` checks
//! those moves on the rules code, so the tests fail loudly if the
//! assumption breaks. No engine process may be left behind (see
//! `common::fake`).

use crate::common::{
    fake::{
        assert_no_leftovers, bounded, engine, fake, leftovers, pid_dir, started, tournament_spec,
        BAD_CLOCK_MS, GAME_LIMIT, GOOD_CLOCK_MS,
    },
    spec::fischer,
};
use autotest::config::spec::{EngineLimits, EngineSpec, Schedule, TournamentSpec};
use autotest::openings::Opening;
use autotest::referee;
use autotest::referee::record::{FaultKind, GameRecord, Termination};
use autotest::tournament;
use leiserchess::rules::fen::STARTPOS;
use leiserchess::rules::game::{Game, MoveError, Outcome};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Plays one game from the start position between the good fake and a
/// misbehaving one, `bad_white` saying which colour misbehaves.
fn game(
    test: &str,
    bad: EngineSpec,
    bad_white: bool,
    pids: PathBuf,
    limit: Duration,
) -> GameRecord {
    let good = engine("good", "good", fischer(GOOD_CLOCK_MS), &pids);
    let t = tournament_spec(vec![]);
    let (rec, elapsed) = bounded(limit, move || {
        let (white, black) = if bad_white {
            (&bad, &good)
        } else {
            (&good, &bad)
        };
        referee::play(white, black, &Opening::startpos(), &t, "1")
    });
    eprintln!(
        "{test}: {} in {} ms: {}",
        rec.result,
        elapsed.as_millis(),
        rec.termination
    );
    rec
}

/// A misbehaving fake in `mode` fails as `kind` and loses.
fn check(test: &str, mode: &str, kind: FaultKind, bad_white: bool) {
    check_within(test, mode, kind, bad_white, GAME_LIMIT);
}

fn check_within(test: &str, mode: &str, kind: FaultKind, bad_white: bool, limit: Duration) {
    let pids = pid_dir(test);
    let bad = engine("bad", mode, fischer(BAD_CLOCK_MS), &pids);
    let rec = game(test, bad, bad_white, pids.clone(), limit);
    check_fault(&rec, "bad", kind, bad_white);
    // The good engine moves only when it is Tangerine, and then once;
    // engines that fail before the game never let it move.
    let before_game = mode == "early-exit" || mode == "hang-handshake";
    let expected_moves = if bad_white || before_game { 0 } else { 1 };
    let texts: Vec<&str> = rec.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["d1c1"][..expected_moves], "{test}: moves");
    assert!(started(&pids) >= 1, "{test}: no fake engine started");
    assert_no_leftovers(&pids);
}

fn check_fault(rec: &GameRecord, name: &str, kind: FaultKind, bad_white: bool) {
    match &rec.termination {
        Termination::Fault {
            engine,
            kind: k,
            detail,
        } => {
            assert_eq!(engine, name, "the engine at fault ({detail})");
            assert_eq!(*k, kind, "the fault of {engine} ({detail})");
        }
        other => panic!("expected a {} fault of {name}, got: {other}", kind.name()),
    }
    let loss = if bad_white { "0-1" } else { "1-0" };
    assert_eq!(
        rec.result, loss,
        "a fault is a loss for the engine at fault"
    );
}

/// The leftover check sees a fake that is still running, and one that
/// exited but was not waited for.
#[test]
fn leftover_check_works() {
    let pids = pid_dir("leftover_check");
    let mut child = std::process::Command::new(fake())
        .args(["hang", &*pids.to_string_lossy()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("start a fake");
    let deadline = Instant::now() + Duration::from_secs(5);
    while started(&pids) == 0 {
        assert!(Instant::now() < deadline, "the fake wrote no pid");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(leftovers(&pids).len(), 1, "a running fake is a leftover");
    // Closing its input ends it; until waited for, it is a zombie.
    drop(child.stdin.take());
    std::thread::sleep(Duration::from_millis(200));
    let left = leftovers(&pids);
    assert_eq!(left.len(), 1, "an unreaped fake is a leftover");
    assert!(left[0].contains("state Z"), "{left:?}");
    child.wait().expect("wait");
    assert_no_leftovers(&pids);
}

/// The fakes' moves are legal and zap nothing; the misbehavers' moves are
/// refused; two good fakes draw by repetition after 8 plies.
#[test]
fn safe_moves_of_the_fakes() {
    let mut g = Game::from_fen(STARTPOS).expect("startpos");
    // Tangerine's King (h0, facing north) fires up the empty h file, and
    // Lavender's (a7, facing south) down the empty a file: pawn steps on
    // d1/c1 and e6/f6 touch neither beam.
    for (ply, m) in ["d1c1", "e6f6", "c1d1", "f6e6", "d1c1", "e6f6", "c1d1"]
        .iter()
        .enumerate()
    {
        g.play_text(m)
            .unwrap_or_else(|e| panic!("ply {ply}: {m}: {e}"));
        assert_eq!(g.outcome(), None, "ply {ply}: {m} ends the game");
        assert_eq!(
            g.plies_since_zap(),
            ply as u32 + 1,
            "ply {ply}: {m} zaps a piece"
        );
    }
    g.play_text("f6e6").expect("f6e6");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Repetition),
        "the start position a third time"
    );

    for moves in [&[][..], &["d1c1"][..]] {
        let mut g = Game::from_fen(STARTPOS).expect("startpos");
        for m in moves {
            g.play_text(m).expect("a fake's move");
        }
        assert!(
            matches!(g.play_text("a0a0"), Err(MoveError::Parse(_))),
            "a0a0 must not parse"
        );
        assert!(
            matches!(g.play_text("a3a4"), Err(MoveError::NotAvailable(_))),
            "a3a4 must parse but not be a move"
        );
    }
}

/// The control: two good fakes play a whole game without a fault.
#[test]
fn good_against_good_draws_by_repetition() {
    let pids = pid_dir("good_against_good");
    let a = engine("good-a", "good", fischer(GOOD_CLOCK_MS), &pids);
    let b = engine("good-b", "good", fischer(GOOD_CLOCK_MS), &pids);
    let t = tournament_spec(vec![]);
    let (rec, elapsed) = bounded(GAME_LIMIT, move || {
        referee::play(&a, &b, &Opening::startpos(), &t, "1")
    });
    eprintln!(
        "good_against_good: {} in {} ms: {}",
        rec.result,
        elapsed.as_millis(),
        rec.termination
    );
    assert_eq!(rec.termination, Termination::Repetition);
    assert_eq!(rec.result, "1/2-1/2");
    let texts: Vec<&str> = rec.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(
        texts,
        ["d1c1", "e6f6", "c1d1", "f6e6", "d1c1", "e6f6", "c1d1", "f6e6"]
    );
    assert!(
        rec.moves
            .iter()
            .all(|m| m.depth == Some(1) && m.nodes == Some(1)),
        "info lines are read"
    );
    assert_eq!(started(&pids), 2);
    assert_no_leftovers(&pids);
}

macro_rules! fault_tests {
    ($($white:ident, $black:ident: $mode:expr => $kind:ident;)*) => {$(
        #[test]
        fn $white() {
            check(stringify!($white), $mode, FaultKind::$kind, true);
        }
        #[test]
        fn $black() {
            check(stringify!($black), $mode, FaultKind::$kind, false);
        }
    )*};
}

fault_tests! {
    illegal_white, illegal_black: "illegal" => IllegalMove;
    illegal_legalform_white, illegal_legalform_black: "illegal-legalform" => IllegalMove;
    crash_white, crash_black: "crash" => Crash;
    early_exit_white, early_exit_black: "early-exit" => Crash;
    hang_white, hang_black: "hang" => Hang;
    slow_white, slow_black: "slow" => TimeForfeit;
    garbage_white, garbage_black: "garbage" => IllegalMove;
}

// Cases an earlier referee misclassified.

/// Output that is not UTF-8 is garbage like any other: the engine is still
/// running, and its garbage `bestmove` is an illegal move.
#[test]
fn garbage_binary_white() {
    check(
        "garbage_binary_white",
        "garbage-binary",
        FaultKind::IllegalMove,
        true,
    );
}

#[test]
fn garbage_binary_black() {
    check(
        "garbage_binary_black",
        "garbage-binary",
        FaultKind::IllegalMove,
        false,
    );
}

/// An engine that never answers `uci` is hung, not crashed. (Takes the
/// referee's fixed 10 s handshake limit.)
#[test]
fn hang_in_handshake() {
    check_within(
        "hang_in_handshake",
        "hang-handshake",
        FaultKind::Hang,
        true,
        Duration::from_secs(20),
    );
}

/// An engine given a large table may take longer than the handshake's
/// 10 s to answer `isready`, at the start and before each game: 3 s more
/// a GB of `Hash`.
#[test]
fn a_large_table_may_take_longer_to_be_ready() {
    let pids = pid_dir("a_large_table_may_take_longer_to_be_ready");
    let mut big = engine("big", "slow-isready:10500", fischer(GOOD_CLOCK_MS), &pids);
    big.options = vec![("Hash".to_string(), "2048".to_string())];
    let rec = game(
        "a_large_table_may_take_longer_to_be_ready",
        big,
        true,
        pids.clone(),
        Duration::from_secs(40),
    );
    assert_eq!(rec.termination, Termination::Repetition);
    assert_no_leftovers(&pids);
}

/// An engine whose program does not exist crashes (it could not start).
fn missing_command(test: &str, bad_white: bool) {
    let pids = pid_dir(test);
    let bad = EngineSpec {
        name: "missing".to_string(),
        command: vec![format!("{}/no-such-engine", env!("CARGO_TARGET_TMPDIR"))],
        dir: None,
        options: Vec::new(),
        limits: fischer(BAD_CLOCK_MS),
        restart: true,
    };
    let rec = game(test, bad, bad_white, pids.clone(), GAME_LIMIT);
    check_fault(&rec, "missing", FaultKind::Crash, bad_white);
    assert!(rec.moves.is_empty());
    assert_no_leftovers(&pids);
}

#[test]
fn missing_command_white() {
    missing_command("missing_command_white", true);
}

#[test]
fn missing_command_black() {
    missing_command("missing_command_black", false);
}

/// Runs a tournament of the good fake against `bad` that must not get
/// past the check before the first game; its error.
fn stopped_before_the_first_game(test: &str, bad: EngineSpec, pids: &Path) -> String {
    let pgn = pids.with_extension("pgn");
    let spec = TournamentSpec {
        pgn_out: Some(pgn.clone()),
        ..tournament_spec(vec![
            engine("good", "good", fischer(GOOD_CLOCK_MS), pids),
            bad,
        ])
    };
    let ((result, reported), elapsed) = bounded(Duration::from_secs(20), move || {
        let mut reported = 0;
        let result = tournament::run(&spec, &[], |_, _, _, _| reported += 1);
        (result, reported)
    });
    let err = match result {
        Ok(s) => panic!("{test}: the tournament ran {} games", s.games.len()),
        Err(e) => e,
    };
    eprintln!("{test}: stopped in {} ms: {err}", elapsed.as_millis());
    assert_eq!(reported, 0, "{test}: no game is played");
    assert!(!pgn.exists(), "{test}: no PGN file is written");
    assert_no_leftovers(pids);
    err
}

/// A missing program stops the tournament before the first game, with
/// an error naming the engine, its command and what failed (it was
/// scored as a crash in every game before).
#[test]
fn missing_program_stops_the_run() {
    let pids = pid_dir("missing_program_stops_the_run");
    let program = format!("{}/no-such-engine", env!("CARGO_TARGET_TMPDIR"));
    let bad = EngineSpec {
        name: "missing".to_string(),
        command: vec![program.clone(), "--uci".to_string()],
        dir: None,
        options: Vec::new(),
        limits: fischer(BAD_CLOCK_MS),
        restart: true,
    };
    let err = stopped_before_the_first_game("missing_program", bad, &pids);
    assert!(
        err.starts_with(&format!(
            "could not start engine 'missing' ({program} --uci): {program}: "
        )),
        "{err}"
    );
    assert!(err.contains("No such file"), "{err}");
    assert_eq!(err.lines().count(), 1, "only the missing engine: {err}");
}

/// An engine that never answers `uci` stops the tournament too, once the
/// handshake limit (10 s) has passed.
#[test]
fn mute_engine_stops_the_run() {
    let pids = pid_dir("mute_engine_stops_the_run");
    let bad = engine("mute", "hang-handshake", fischer(BAD_CLOCK_MS), &pids);
    let err = stopped_before_the_first_game("mute_engine", bad, &pids);
    assert!(err.starts_with("engine 'mute' ("), "{err}");
    assert!(
        err.ends_with("did not answer the start-up check: no 'uciok' within 10 s of 'uci'"),
        "{err}"
    );
}

/// An engine that answers `uci` but never `isready`: the message says in
/// words what it did not answer, within how many seconds.
#[test]
fn engine_not_ready_stops_the_run() {
    let pids = pid_dir("engine_not_ready_stops_the_run");
    let bad = engine("sleepy", "hang-isready", fischer(BAD_CLOCK_MS), &pids);
    let err = stopped_before_the_first_game("not_ready", bad, &pids);
    assert!(err.starts_with("engine 'sleepy' ("), "{err}");
    assert!(
        err.ends_with("did not answer the start-up check: no 'readyok' within 10 s of 'isready'"),
        "{err}"
    );
}

/// An engine that exits during the handshake is named with its exit
/// status; the engines that passed are not.
#[test]
fn engine_exiting_in_the_handshake_stops_the_run() {
    let pids = pid_dir("engine_exiting_in_the_handshake");
    // `crash` exits on `go`; `early-exit` right after its first `readyok`,
    // so it passes the check: this one exits on `uci` itself.
    let bad = EngineSpec {
        name: "quitter".to_string(),
        command: vec![
            "/bin/sh".to_string(),
            "-c".to_string(),
            "exit 7".to_string(),
        ],
        dir: None,
        options: Vec::new(),
        limits: fischer(BAD_CLOCK_MS),
        restart: true,
    };
    let err = stopped_before_the_first_game("exiting", bad, &pids);
    assert!(
        err.starts_with("engine 'quitter' (/bin/sh -c exit 7) exited during the start-up check: "),
        "{err}"
    );
    assert!(err.contains("7"), "the exit status: {err}");
    assert!(!err.contains("'good'"), "{err}");
}

/// An engine on a fixed time per move (no clock) that answers far too late
/// but is alive: a time forfeit like with a clock, not a hang.
#[test]
fn slow_on_movetime_is_a_time_forfeit() {
    let test = "slow_on_movetime";
    let pids = pid_dir(test);
    let limits = EngineLimits {
        movetime_ms: Some(100),
        ..EngineLimits::default()
    };
    // The referee allows movetime + margin + 1 s: answer after 2.5 s.
    let bad = engine("bad", "slow:2500", limits, &pids);
    let rec = game(test, bad, false, pids.clone(), GAME_LIMIT);
    check_fault(&rec, "bad", FaultKind::TimeForfeit, false);
    assert_no_leftovers(&pids);
}

/// A gauntlet of the good fake against three misbehavers, two games each,
/// two at a time: it ends, every game is recorded and every fault counted.
#[test]
fn tournament_counts_faults() {
    let pids = pid_dir("tournament");
    let bad = fischer(BAD_CLOCK_MS);
    let spec = TournamentSpec {
        schedule: Schedule::Gauntlet,
        concurrency: 2,
        ..tournament_spec(vec![
            engine("good", "good", fischer(GOOD_CLOCK_MS), &pids),
            engine("crasher", "crash", bad.clone(), &pids),
            engine("hanger", "hang", bad.clone(), &pids),
            engine("cheater", "illegal", bad, &pids),
        ])
    };
    let expected = tournament::schedule(&spec, 0).len();
    assert_eq!(expected, 6, "3 encounters of 2 games");
    let spec2 = spec.clone();
    let ((summary, reported), elapsed) = bounded(Duration::from_secs(60), move || {
        let mut reported = Vec::new();
        let summary = tournament::run(&spec2, &[], |rec, done, total, _| {
            reported.push((rec.clone(), done, total))
        });
        (summary, reported)
    });
    let summary = summary.expect("the tournament runs");
    eprintln!(
        "tournament: {} games in {} ms",
        summary.games.len(),
        elapsed.as_millis()
    );
    for g in &summary.games {
        eprintln!(
            "  {} - {}: {} ({})",
            g.white, g.black, g.result, g.termination
        );
    }

    assert_eq!(summary.games.len(), expected, "every game is recorded");
    assert_eq!(
        reported.iter().map(|r| (r.1, r.2)).collect::<Vec<_>>(),
        (1..=6).map(|d| (d, 6)).collect::<Vec<_>>()
    );
    assert_eq!(
        reported.into_iter().map(|r| r.0).collect::<Vec<_>>(),
        summary.games
    );
    for (name, kind) in [
        ("crasher", FaultKind::Crash),
        ("hanger", FaultKind::Hang),
        ("cheater", FaultKind::IllegalMove),
    ] {
        let games: Vec<&GameRecord> = summary
            .games
            .iter()
            .filter(|g| g.white == name || g.black == name)
            .collect();
        assert_eq!(games.len(), 2, "{name} plays two games");
        assert_eq!(
            games.iter().filter(|g| g.white == name).count(),
            1,
            "{name} plays each colour once"
        );
        for g in games {
            check_fault(g, name, kind, g.white == name);
        }
    }

    let s = &summary.standings;
    assert_eq!(s.len(), 4);
    assert_eq!(
        (s[0].wins, s[0].draws, s[0].losses),
        (6, 0, 0),
        "good wins every game"
    );
    assert!(
        s[0].faults.is_empty(),
        "good made no fault: {:?}",
        s[0].faults
    );
    assert_eq!(s[0].pairs, [0, 0, 0, 0, 3], "good wins every pair");
    for (i, fault) in [(1, "crash"), (2, "hang"), (3, "illegal move")] {
        let st = &s[i];
        assert_eq!(
            (st.wins, st.draws, st.losses),
            (0, 0, 2),
            "{}",
            spec.engines[i].name
        );
        assert_eq!(
            st.faults.iter().map(|(k, n)| (*k, *n)).collect::<Vec<_>>(),
            [(fault, 2)],
            "{}",
            spec.engines[i].name
        );
        assert_eq!(st.pairs, [1, 0, 0, 0, 0], "{}", spec.engines[i].name);
    }
    // The check before the first game starts each of the 4 engines once;
    // then 6 games, 2 engines each.
    assert_eq!(started(&pids), 4 + 12, "every game starts both its engines");
    assert_no_leftovers(&pids);
}
