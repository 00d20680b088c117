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
//! assumption breaks.
//!
//! Leftover processes: each fake writes its pid to a directory of its own
//! test (its second argument); after the game every one of those pids must
//! be gone from /proc (neither running nor an unreaped zombie).

use autotest::openings::Opening;
use autotest::record::{FaultKind, GameRecord, Termination};
use autotest::referee;
use autotest::spec::{Clock, EngineLimits, EngineSpec, Schedule, TournamentSpec};
use autotest::tournament;
use leiserchess::fen::STARTPOS;
use leiserchess::game::{Game, MoveError, Outcome};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The fake engine script.
fn fake() -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake/scripted.sh");
    // Make it executable, whatever mode the checkout gave it.
    let mut perm = std::fs::metadata(&path)
        .expect("tests/fake/scripted.sh exists")
        .permissions();
    if perm.mode() & 0o111 != 0o111 {
        perm.set_mode(perm.mode() | 0o755);
        // Tests run in parallel: another one may be doing the same.
        let _ = std::fs::set_permissions(&path, perm);
    }
    path
}

/// A fresh directory for the pids of one test's fakes.
fn pid_dir(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("faults")
        .join(format!("{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the pid directory");
    dir
}

/// The clock of the well-behaved engine: roomy, so that a loaded machine
/// does not make it lose on time.
const GOOD_CLOCK_MS: u64 = 2_000;
/// The clock of the misbehaving engine: small, so hangs are found fast.
const BAD_CLOCK_MS: u64 = 200;
/// Every single-game test must end within this.
const GAME_LIMIT: Duration = Duration::from_secs(10);

fn fischer(ms: u64) -> EngineLimits {
    EngineLimits {
        clock: Some(Clock::Fischer {
            base_ms: ms,
            inc_ms: 0,
        }),
        ..EngineLimits::default()
    }
}

/// A fake engine in `mode`, writing its pid into `pids`.
fn engine(name: &str, mode: &str, limits: EngineLimits, pids: &Path) -> EngineSpec {
    EngineSpec {
        name: name.to_string(),
        command: vec![
            fake().to_string_lossy().into_owned(),
            mode.to_string(),
            pids.to_string_lossy().into_owned(),
        ],
        dir: None,
        options: vec![("Hash".to_string(), "1".to_string())],
        limits,
    }
}

fn tournament_spec(engines: Vec<EngineSpec>) -> TournamentSpec {
    TournamentSpec {
        title: "faults".to_string(),
        engines,
        schedule: Schedule::RoundRobin,
        games: 2,
        rounds: 1,
        concurrency: 1,
        repeat: true,
        max_plies: 0,
        repetitions: 3,
        no_zap_plies: 100,
        time_margin_ms: 50,
        recover: true,
        ..TournamentSpec::default()
    }
}

/// Runs `f` on a thread and fails if it takes longer than `limit`.
fn bounded<T: Send + 'static>(
    limit: Duration,
    f: impl FnOnce() -> T + Send + 'static,
) -> (T, Duration) {
    let (tx, rx) = mpsc::channel();
    let start = Instant::now();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(limit) {
        Ok(v) => (v, start.elapsed()),
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("did not finish within {limit:?}"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("the test thread panicked"),
    }
}

/// The pids the fakes of `dir` wrote that are still there: running, or
/// exited but never waited for (zombies).
fn leftovers(dir: &Path) -> Vec<String> {
    let mut left = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read the pid directory") {
        let pid = entry
            .expect("pid file")
            .file_name()
            .to_string_lossy()
            .into_owned();
        if let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            // "pid (comm) S ppid …": a recycled pid would not be one of ours.
            let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
            let mut fields = after.split_whitespace();
            let state = fields.next().unwrap_or("?");
            let ppid = fields.next().unwrap_or("?");
            let cmdline =
                std::fs::read_to_string(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let ours =
                ppid == std::process::id().to_string() || cmdline.contains(&*dir.to_string_lossy());
            if ours {
                left.push(format!(
                    "{pid} (state {state}, {})",
                    cmdline.replace('\0', " ").trim()
                ));
            }
        }
    }
    left
}

/// How many fakes were started with pids in `dir`.
fn started(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.count())
}

fn assert_no_leftovers(dir: &Path) {
    let left = leftovers(dir);
    assert!(left.is_empty(), "engine processes left behind: {left:?}");
    let _ = std::fs::remove_dir_all(dir);
}

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

/// An engine whose program does not exist crashes (it could not start).
fn missing_command(test: &str, bad_white: bool) {
    let pids = pid_dir(test);
    let bad = EngineSpec {
        name: "missing".to_string(),
        command: vec![format!("{}/no-such-engine", env!("CARGO_TARGET_TMPDIR"))],
        dir: None,
        options: Vec::new(),
        limits: fischer(BAD_CLOCK_MS),
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
        let summary = tournament::run(&spec2, &[], |rec, done, total| {
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
    // 6 games, 2 engines each.
    assert_eq!(started(&pids), 12, "every game starts both its engines");
    assert_no_leftovers(&pids);
}
