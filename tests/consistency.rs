//! Consistency cases, each in its own process (crash isolation).
//!
//! The harness (libtest-mimic) lists one trial per case. A trial re-executes
//! this test binary with `LEISERCHESS_CASE=<name>`; in that child mode the
//! binary runs just that case and exits 0 on success (a failed check panics:
//! exit status 101). The parent waits at most `CASE_TIMEOUT` and reports a
//! failure with the child's exit status or the signal that killed it
//! (SIGSEGV, SIGABRT, …) and the tail of its standard error. A crash, an
//! abort or a stack overflow in one case is that case's failure, and the
//! other cases still run.
//!
//! Cases:
//! * `playout/…`: random playouts (fixed seeds) from several positions; at
//!   every position every generated move is made and unmade, and after each
//!   `make` and `unmake` the board's bookkeeping (`Board::check_rep_with`,
//!   `key() == compute_key()`, occupancy, King squares) is checked, and the
//!   unmade board must equal the board before.
//! * `game/…`: random games through `Game`: history, moves, the no-zap
//!   clock, repetitions, the outcome and the Ko rule agree with a
//!   recomputation, and replaying the moves gives the same game.
//! * `search/…`: fixed-depth searches of a few positions (one and two
//!   threads, two racing or sharing the tree, a 1 MB table of 1 and 4 ways,
//!   several searches in a row along a game), then the table's and the move-ordering tables' `check_rep`.
//! * `demo/abort`: calls `std::process::abort()` in its child. It runs only
//!   with `LEISERCHESS_DEMO_CRASH=1`; without it, it is reported ignored.
//! * `meta/crash_is_isolated`: runs this harness with
//!   `LEISERCHESS_DEMO_CRASH=1` and checks that `demo/abort` is reported
//!   failed with SIGABRT while every other case still ran and passed.

use leiserchess::check_rep::CheckRep;
use leiserchess::play::client::{Client, ClientError, Stderr};
use leiserchess::rules::board::Board;
use leiserchess::rules::fen;
use leiserchess::rules::game::{Game, MoveError, Outcome};
use leiserchess::rules::movegen;
use leiserchess::rules::moves::{Move, MoveList};
use leiserchess::rules::piece::{Color, Kind};
use leiserchess::rules::square::Square;
use leiserchess::search::bench::POSITIONS;
use leiserchess::search::pvs::order::Order;
use leiserchess::search::pvs::think;
use leiserchess::search::time::SearchLimits;
use leiserchess::search::{Params, Root, Shared};
use libtest_mimic::{Arguments, Completion, Failed, Trial};
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitStatus};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

#[path = "common/rng.rs"]
mod rng;

use rng::Rng;

/// Names the case a child process runs.
const CASE_VAR: &str = "LEISERCHESS_CASE";
/// Enables the deliberately crashing case.
const DEMO_VAR: &str = "LEISERCHESS_DEMO_CRASH";
/// How long one case may run before its process is killed.
const CASE_TIMEOUT: Duration = Duration::from_secs(120);
/// How much of a failed child's standard error a failure shows.
const STDERR_TAIL_LINES: usize = 20;

const DEMO_CASE: &str = "demo/abort";
const META_CASE: &str = "meta/crash_is_isolated";

/// A case: a name and what its child process runs (panics on failure).
struct Case {
    name: String,
    run: Box<dyn Fn() + Send + Sync>,
}

fn case(name: impl Into<String>, run: impl Fn() + Send + Sync + 'static) -> Case {
    Case {
        name: name.into(),
        run: Box::new(run),
    }
}

/// Every case that runs in a child process, the crash demo first (so that
/// when the cases run one at a time, all the others run after it).
fn cases() -> Vec<Case> {
    let mut v = vec![case(DEMO_CASE, || std::process::abort())];
    for seed in 1..=4u64 {
        v.push(case(format!("playout/startpos_seed{seed}"), move || {
            playout(fen::STARTPOS, seed, 300)
        }));
    }
    v.push(case("playout/endgame_seed5", || {
        playout(fen::ENDGAME, 5, 200)
    }));
    v.push(case("playout/bench_positions", || {
        for (i, text) in POSITIONS.iter().enumerate() {
            playout(text, 100 + i as u64, 80);
        }
    }));
    for seed in 1..=3u64 {
        v.push(case(format!("game/startpos_seed{seed}"), move || {
            game_history(fen::STARTPOS, seed, 400)
        }));
    }
    v.push(case("game/bench_positions", || {
        for (i, text) in POSITIONS.iter().enumerate() {
            game_history(text, 200 + i as u64, 120);
        }
    }));
    v.push(case("search/one_thread_4_ways", || {
        search_positions(1, 4, 5, LAZY)
    }));
    v.push(case("search/one_thread_1_way", || {
        search_positions(1, 1, 5, LAZY)
    }));
    v.push(case("search/two_threads_4_ways", || {
        search_positions(2, 4, 5, LAZY)
    }));
    v.push(case("search/two_threads_split", || {
        search_positions(2, 4, 5, 2)
    }));
    v.push(case("search/game_two_threads", || {
        search_game(2, 4, 16, LAZY)
    }));
    v.push(case("search/game_two_threads_split", || {
        search_game(2, 4, 16, 2)
    }));
    v
}

fn main() {
    if let Ok(name) = std::env::var(CASE_VAR) {
        child(&name);
        return;
    }
    let args = Arguments::from_args();
    let mut trials: Vec<Trial> = cases()
        .into_iter()
        .map(|c| {
            let name = c.name;
            if name == DEMO_CASE {
                Trial::ignorable_test(name.clone(), move || {
                    if std::env::var(DEMO_VAR).as_deref() != Ok("1") {
                        return Ok(Completion::ignored_with(format!(
                            "crash demo: runs only with {DEMO_VAR}=1"
                        )));
                    }
                    run_isolated(&name).map(|()| Completion::Completed)
                })
            } else {
                Trial::test(name.clone(), move || run_isolated(&name))
            }
        })
        .collect();
    trials.push(Trial::ignorable_test(META_CASE, meta_crash_is_isolated));
    libtest_mimic::run(&args, trials).exit();
}

/// Child mode: runs case `name` and exits 0, or panics (exit status 101).
fn child(name: &str) {
    let all = cases();
    let Some(c) = all.iter().find(|c| c.name == name) else {
        eprintln!("no case named '{name}'");
        std::process::exit(2);
    };
    (c.run)();
}

// ---------------------------------------------------------------------------
// The parent: one process per case

/// What a finished child did.
struct ChildRun {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

/// Runs `cmd` with its output captured, killing it after `timeout`. `Err`
/// if it could not be started or timed out (with what it printed so far).
fn run_with_timeout(cmd: Command, timeout: Duration) -> Result<ChildRun, String> {
    let program = cmd.get_program().to_owned();
    let mut child = Client::start(cmd, Stderr::Capture)
        .map_err(|e| format!("cannot start {program:?}: {e}"))?;
    let stderr = |child: &Client| String::from_utf8_lossy(&child.stderr()).into_owned();
    match child.wait_exit(Instant::now() + timeout) {
        Ok(exit) => Ok(ChildRun {
            status: exit.status,
            stdout: exit
                .rest
                .iter()
                .map(|l| String::from_utf8_lossy(&l.raw))
                .collect(),
            stderr: stderr(&child),
        }),
        // Dropping the client kills the child.
        Err(ClientError::Timeout { .. }) => Err(format!(
            "timed out after {} s (killed){}",
            timeout.as_secs(),
            tail(&stderr(&child))
        )),
        Err(e) => Err(format!("cannot wait for the child: {e}")),
    }
}

/// Runs case `name` in a child process of this binary.
fn run_isolated(name: &str) -> Result<(), Failed> {
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.env(CASE_VAR, name);
    let run = run_with_timeout(cmd, CASE_TIMEOUT)?;
    if run.status.success() {
        return Ok(());
    }
    Err(format!(
        "case '{name}' {}{}",
        describe(run.status),
        tail(&run.stderr)
    )
    .into())
}

/// "exited with status N" or "killed by signal N (SIGNAME)".
fn describe(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(sig)) => {
            let core = if status.core_dumped() {
                ", core dumped"
            } else {
                ""
            };
            format!("killed by signal {sig} ({}{core})", signal_name(sig))
        }
        (None, None) => format!("ended with {status}"),
    }
}

/// The name of a common signal (Linux numbering).
fn signal_name(sig: i32) -> &'static str {
    match sig {
        1 => "SIGHUP",
        2 => "SIGINT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        15 => "SIGTERM",
        _ => "unnamed signal",
    }
}

/// The last lines of a child's standard error, for a failure message; a
/// panic's backtrace is left out (the message before it is kept).
fn tail(stderr: &str) -> String {
    let lines: Vec<&str> = stderr
        .lines()
        .take_while(|l| !l.starts_with("stack backtrace:"))
        .collect();
    if lines.is_empty() {
        return "; its standard error was empty".to_string();
    }
    let from = lines.len().saturating_sub(STDERR_TAIL_LINES);
    format!(
        "; the last {} lines of its standard error:\n{}",
        lines.len() - from,
        lines[from..].join("\n")
    )
}

/// Runs this harness again with the crash demo on, one case at a time and
/// the demo first, and checks what it reports: the demo failed with
/// SIGABRT, every other case ran after it and passed.
fn meta_crash_is_isolated() -> Result<Completion, Failed> {
    if std::env::var(DEMO_VAR).is_ok() {
        // This is the inner run (or the user asked for the demo): no recursion.
        return Ok(Completion::ignored_with(format!(
            "runs the harness with {DEMO_VAR}=1 itself"
        )));
    }
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.env(DEMO_VAR, "1").env_remove(CASE_VAR).args([
        "--test-threads",
        "1",
        "--color",
        "never",
        "--skip",
        "meta/",
    ]);
    let run = run_with_timeout(cmd, 2 * CASE_TIMEOUT)?;
    let out = &run.stdout;
    let context = || format!("\n--- the inner run's output ---\n{out}{}", run.stderr);
    if run.status.code() != Some(101) {
        return Err(format!(
            "the inner run {}, expected exit status 101 (a failed test){}",
            describe(run.status),
            context()
        )
        .into());
    }
    let names: Vec<String> = cases().into_iter().map(|c| c.name).collect();
    // Result lines: `test NAME<padding> ... ok|FAILED|ignored`, in order.
    let results: Vec<(&str, &str)> = out
        .lines()
        .filter_map(|l| l.strip_prefix("test ")?.split_once(" ... "))
        .map(|(name, result)| (name.trim(), result.trim()))
        .collect();
    let position = |name: &str| results.iter().position(|(n, _)| *n == name);
    let result_of = |name: &str| position(name).map(|i| results[i].1);
    if result_of(DEMO_CASE) != Some("FAILED") {
        return Err(format!("'{DEMO_CASE}' was not reported FAILED{}", context()).into());
    }
    let signal = format!("case '{DEMO_CASE}' killed by signal 6 (SIGABRT");
    if !out.contains(&signal) {
        return Err(format!("no '{signal}' in the failure report{}", context()).into());
    }
    let demo_at = position(DEMO_CASE);
    for name in names.iter().filter(|n| *n != DEMO_CASE) {
        if result_of(name) != Some("ok") {
            return Err(format!("'{name}' did not run and pass{}", context()).into());
        }
        if position(name) < demo_at {
            return Err(format!("'{name}' ran before the crash demo{}", context()).into());
        }
    }
    let summary = format!("{} passed; 1 failed", names.len() - 1);
    if !out.contains(&summary) {
        return Err(format!("no '{summary}' in the summary{}", context()).into());
    }
    Ok(Completion::Completed)
}

// ---------------------------------------------------------------------------
// The cases

fn generated(b: &Board) -> Vec<Move> {
    let mut list = MoveList::new();
    movegen::generate(b, &mut list);
    list.iter().collect()
}

fn piece_count(b: &Board) -> usize {
    b.squares().iter().flatten().count()
}

/// The board's bookkeeping against its squares. `zapped_king`: right after
/// a `make` that zapped a King, when one King is missing by design.
fn check_board(b: &Board, zapped_king: bool, what: &dyn Fn() -> String) {
    assert_eq!(
        b.key(),
        b.compute_key(),
        "key differs from compute_key: {}",
        what()
    );
    for c in Color::BOTH {
        let from_squares = Square::all()
            .filter(|&s| b.piece_at(s).is_some_and(|p| p.color() == c))
            .fold(0u64, |bits, s| bits | s.bit());
        assert_eq!(b.pieces(c), from_squares, "{c:?} occupancy: {}", what());
        if !zapped_king {
            let k = b.piece_at(b.king(c));
            assert!(
                k.is_some_and(|p| p.is_king() && p.color() == c),
                "{c:?} King square holds {k:?}: {}",
                what()
            );
            assert_eq!(b.count(c, Kind::King), 1, "{c:?} Kings: {}", what());
        }
    }
    assert_eq!(
        b.occupied(),
        b.pieces(Color::White) | b.pieces(Color::Black),
        "occupied(): {}",
        what()
    );
    if let Err(e) = b.check_rep_with(zapped_king) {
        panic!("Board::check_rep_with({zapped_king}): {e}: {}", what());
    }
}

/// A random playout from `start`: at every position, every generated move
/// is made and unmade with the board checked after each; then a random
/// legal move (preferring zaps half the time) is played.
fn playout(start: &str, seed: u64, plies: usize) {
    let mut rng = Rng(seed);
    let mut game = Game::from_fen(start).expect("a valid FEN");
    for ply in 0..plies {
        let mut b = game.board().clone();
        let position = fen::to_fen(&b);
        let here = || format!("{position} (seed {seed}, ply {ply})");
        check_board(&b, false, &here);
        let before = b.clone();
        let mut zaps = Vec::new();
        for m in generated(&b) {
            let at = || format!("after make {m} in {}", here());
            let undo = b.make(m);
            assert_ne!(b.side(), before.side(), "side to move: {}", at());
            check_board(&b, undo.king_zapped(), &at);
            if undo.zapped.is_some() {
                zaps.push(m);
            }
            b.unmake(m, undo);
            let at = || format!("after unmake {m} in {}", here());
            check_board(&b, false, &at);
            assert_eq!(b, before, "unmake does not restore the board: {}", at());
        }
        let legal = game.legal_moves();
        if legal.is_empty() {
            assert!(game.outcome().is_some(), "no legal move: {}", here());
            break;
        }
        let zaps: Vec<Move> = zaps.into_iter().filter(|m| legal.contains(m)).collect();
        let m = match rng.pick(&zaps) {
            Some(m) if rng.below(2) == 0 => m,
            _ => legal[rng.below(legal.len())],
        };
        game.play(m)
            .unwrap_or_else(|e| panic!("legal move {m} refused ({e}): {}", here()));
        if game.outcome().is_some() {
            break;
        }
    }
}

/// A random game through `Game`, recomputing its bookkeeping alongside.
fn game_history(start: &str, seed: u64, plies: usize) {
    let mut rng = Rng(seed);
    let mut game = Game::from_fen(start).expect("a valid FEN");
    let mut keys: Vec<u64> = Vec::new();
    let mut since_zap = 0u32;
    for ply in 0..plies {
        let position = fen::to_fen(game.board());
        let here = || format!("{position} (seed {seed}, ply {ply})");
        assert_eq!(game.history(), &keys[..], "history: {}", here());
        assert_eq!(
            game.moves().len(),
            keys.len(),
            "moves vs history: {}",
            here()
        );
        assert_eq!(
            game.plies_since_zap(),
            since_zap,
            "no-zap clock: {}",
            here()
        );
        let legal = game.legal_moves();
        if game.outcome().is_some() {
            assert!(legal.is_empty(), "moves after the end: {}", here());
            break;
        }
        assert!(!legal.is_empty(), "no legal move, no outcome: {}", here());
        // The Ko rule: every generated move is either legal or refused as Ko.
        let before = game.board().key();
        for m in generated(game.board()) {
            let mut b = game.board().clone();
            b.make(m);
            let ko = b.key() == before ^ leiserchess::rules::zobrist::SIDE_KEY
                || keys.last() == Some(&b.key());
            assert_eq!(legal.contains(&m), !ko, "Ko rule for {m}: {}", here());
            if ko {
                let mut g = game.clone();
                assert_eq!(g.play(m), Err(MoveError::Ko(m)), "{m}: {}", here());
            }
        }
        let m = legal[rng.below(legal.len())];
        let pieces = piece_count(game.board());
        let mover = game.board().side();
        keys.push(before);
        game.play(m)
            .unwrap_or_else(|e| panic!("legal move {m} refused ({e}): {}", here()));
        let zapped = piece_count(game.board()) < pieces;
        since_zap = if zapped { 0 } else { since_zap + 1 };
        let b = game.board();
        let king_gone = Color::BOTH.iter().any(|&c| !b.has_king(c));
        check_board(b, king_gone, &here);
        let seen = 1 + keys.iter().filter(|&&k| k == b.key()).count();
        let expected = if king_gone {
            let loser = Color::BOTH.into_iter().find(|&c| !b.has_king(c)).unwrap();
            assert!(loser == mover || loser == mover.opp());
            Some(Outcome::KingZapped {
                winner: loser.opp(),
            })
        } else if seen >= 3 {
            Some(Outcome::Repetition)
        } else if since_zap >= 100 {
            Some(Outcome::NoZap)
        } else {
            None
        };
        assert_eq!(game.outcome(), expected, "outcome after {m}: {}", here());
        if let Some(o) = expected {
            assert_eq!(game.clone().play(m), Err(MoveError::GameOver(o)));
        }
    }
    // Replaying the moves gives the same game.
    let mut again = Game::from_fen(start).expect("a valid FEN");
    for &m in game.moves() {
        again.play(m).expect("a replayed move is legal");
    }
    assert_eq!(again.board(), game.board(), "replay: board");
    assert_eq!(again.history(), game.history(), "replay: history");
    assert_eq!(again.outcome(), game.outcome(), "replay: outcome");
}

/// Search state with a 1 MB table (small: entries get replaced).
fn shared(ways: usize) -> Shared {
    Shared::new(1, ways)
}

/// `split_depth` for threads that race through the whole tree (Lazy SMP)
/// rather than share it.
const LAZY: u32 = 0;

/// The default parameters with `split_depth`.
fn params(split_depth: u32) -> Params {
    Params {
        split_depth,
        ..Params::default()
    }
}

/// Searches `root` to `depth` with `orders.len()` threads (sharing nodes
/// from `split_depth` plies deep, or racing with `LAZY`), then checks the
/// answer and every table.
fn search_and_check(
    root: &Root,
    sh: &Shared,
    orders: &mut [Order],
    depth: u32,
    split_depth: u32,
    what: &str,
) {
    let limits = SearchLimits::depth(depth);
    // `think` leaves `stop` set; the caller clears it before a search.
    sh.stop.store(false, Ordering::Relaxed);
    let answer = think(root, &limits, params(split_depth), sh, orders, |_, _, _| {});
    let mut game = Game::new(root.board.clone());
    let legal = game.legal_moves();
    let best = answer
        .best
        .unwrap_or_else(|| panic!("no best move: {what}"));
    assert!(
        generated(&root.board).contains(&best),
        "best move {best} is not a move: {what}"
    );
    if root.history.is_empty() {
        assert!(legal.contains(&best), "best move {best} illegal: {what}");
    }
    check_tables(sh, orders, what);
}

/// The table's and every thread's move-ordering tables' invariants.
fn check_tables(sh: &Shared, orders: &[Order], what: &str) {
    assert_eq!(sh.tt.check_rep(), Ok(()), "tt: {what}");
    for (i, o) in orders.iter().enumerate() {
        assert_eq!(o.check_rep(), Ok(()), "order (thread {i}): {what}");
    }
}

/// Every bench position searched to `depth` with a fresh 1 MB table.
fn search_positions(threads: usize, ways: usize, depth: u32, split_depth: u32) {
    for (i, text) in POSITIONS.iter().enumerate() {
        let game = Game::from_fen(text).expect("a bench FEN");
        let root = Root::from_game(&game);
        let sh = shared(ways);
        let mut orders: Vec<Order> = (0..threads).map(|_| Order::default()).collect();
        let what = format!(
            "position {i} {text}, {threads} threads, {ways} ways, split_depth {split_depth}"
        );
        search_and_check(&root, &sh, &mut orders, depth, split_depth, &what);
    }
}

/// A game from the start position, each move searched with the same table
/// and orders (so entries age and are replaced), checked after each.
fn search_game(threads: usize, ways: usize, plies: usize, split_depth: u32) {
    let mut game = Game::from_fen(fen::STARTPOS).expect("the start position");
    let sh = shared(ways);
    let mut orders: Vec<Order> = (0..threads).map(|_| Order::default()).collect();
    for ply in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let root = Root::from_game(&game);
        let what = format!("ply {ply} of {:?}", game.moves());
        let depth = 3 + (ply % 3) as u32;
        let limits = SearchLimits::depth(depth);
        sh.stop.store(false, Ordering::Relaxed);
        let answer = think(
            &root,
            &limits,
            params(split_depth),
            &sh,
            &mut orders,
            |_, _, _| {},
        );
        check_tables(&sh, &orders, &what);
        let best = answer
            .best
            .unwrap_or_else(|| panic!("no best move: {what}"));
        game.play(best)
            .unwrap_or_else(|e| panic!("the search's move {best} refused ({e}): {what}"));
    }
    // The same positions with the table's contents carried over.
    let root = Root::from_game(&game);
    if game.outcome().is_none() {
        search_and_check(&root, &sh, &mut orders, 5, split_depth, "after the game");
    }
}
