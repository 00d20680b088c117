//! The second adversarial round, end to end on the real binary: a running
//! `perft` leaves the loop free (`isready`, `d`, `position` at once; `stop`,
//! `quit` and a new `go` end it); a `go`
//! that gives the side to move no limit searches the default budget; file
//! options refuse FIFOs and devices without blocking and quote long paths
//! briefly; a huge `Hash` is clamped; a bad `searchmoves` word is named with
//! its offset; the FEN's side to move is `W` or `B` exactly; `perft 0`
//! agrees with the command line; every command answers `--help`.

use session::{Engine, PATIENCE};
use std::time::{Duration, Instant};

use crate::common::{engine, scratch, session};

/// What "at once" means here: far below a perft 7 or an unbounded search,
/// far above any scheduling delay (hang detection, not a speed goal).
const AT_ONCE: Duration = Duration::from_secs(3);

/// The wait for a `go` on the default budget (5 s) to answer.
const BUDGET_AND_SLACK: Duration = Duration::from_secs(15);

#[test]
fn a_running_perft_leaves_the_loop_free() {
    let mut e = Engine::spawn();
    e.send("perft 7");
    // A new search stops the perft (it would compete for the cores) and
    // runs at once.
    e.send("go depth 5");
    e.until(AT_ONCE, |l| {
        l.starts_with("info string perft stopped at depth ")
    });
    let a = e.answer(PATIENCE);
    assert!(!a.best.is_empty());

    // Commands that do not search run beside the perft.
    e.send("perft 7");
    e.send("d");
    e.until(AT_ONCE, |l| l.starts_with("fen "));
    e.send("position startpos moves g4L");
    e.sync();
    e.send("stop");
    e.until(AT_ONCE, |l| {
        l.starts_with("info string perft stopped at depth ")
    });

    e.send("perft 7");
    e.send("isready");
    e.until(AT_ONCE, |l| l == "readyok");
    let t = e.send("quit");
    e.close_input();
    e.wait_exit();
    assert!(t.elapsed() < AT_ONCE, "quit took {:?}", t.elapsed());
}

#[test]
fn a_go_without_a_limit_for_the_side_to_move_searches_the_default_budget() {
    let runs: Vec<_> = [
        "go wtime 1000 winc 10",
        "go inc 10",
        "go winc 10 binc 10",
        "go movestogo 5",
    ]
    .into_iter()
    .map(|go| {
        std::thread::spawn(move || {
            let mut e = Engine::spawn();
            e.send("setoption name OwnBook value false");
            // Black to move: White's clock is no clock of its own.
            e.send("position startpos moves g4L");
            e.send(go);
            e.until(AT_ONCE, |l| {
                l.starts_with(
                    "info string go gives the side to move no clock or limit: searching 5000 ms",
                )
            });
            let a = e.answer(BUDGET_AND_SLACK);
            assert!(!a.best.is_empty(), "{go}");
            e.quit();
        })
    })
    .collect();
    for r in runs {
        r.join().expect("every unlimited go answers on the budget");
    }
}

#[test]
fn file_options_refuse_fifos_and_devices_at_once() {
    let dir = scratch::dir("uci-fifo");
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let mut e = Engine::spawn();
    for (option, path, what) in [
        ("EvalFile", fifo.to_str().unwrap(), "net file"),
        ("BookFile", fifo.to_str().unwrap(), "book"),
        ("EvalFile", "/dev/zero", "net file"),
        ("BookFile", "/dev/zero", "book"),
    ] {
        e.send(&format!("setoption name {option} value {path}"));
        let want = format!(
            "info string error: {what} '{path}': not a regular file (a FIFO, socket or device)"
        );
        e.until(AT_ONCE, |l| l.starts_with(&want));
        e.send("isready");
        e.until(AT_ONCE, |l| l == "readyok");
    }
    // The engine still searches with the embedded net and book.
    e.send("go depth 2");
    e.answer(PATIENCE);
    e.quit();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_huge_path_is_quoted_briefly() {
    let path = "p".repeat(1_500_000);
    let input =
        format!("setoption name EvalFile value {path}\nsetoption name BookFile value {path}\n");
    let out = engine::run(&[], &input);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 4, "{}", &text[..text.len().min(2000)]);
    for l in text.lines() {
        assert!(l.chars().count() < 300, "{} characters", l.len());
        assert!(l.contains("(1499920 more characters)"), "{l}");
    }
    // The command line's echoes are quoted the same way (datagen's file
    // name is too long to create).
    let long = "9".repeat(100_000);
    for args in [["perft", &long], ["gui", &long], ["datagen", &long]] {
        let out = engine::run(&args[..], "");
        assert!(!out.status.success());
        let text = String::from_utf8(out.stderr).unwrap();
        let first = text.lines().next().unwrap_or("");
        assert!(first.chars().count() < 300, "{} characters", first.len());
    }
}

#[test]
fn smaller_defects() {
    let input = "setoption name Hash value 99999999999999999999\n\
                 go searchmoves zz\n\
                 position fen ss7/8/8/8/8/8/8/7NN w\n\
                 position fen ss7/8/8/8/8/8/8/7NN b\n\
                 perft 0\n";
    let out = engine::run(&[], input);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "info string hash set to 4096 (99999999999999999999 is outside 1..4096)",
            "info string error: go searchmoves: 'zz' at offset 15 is not a move: does not start with a square a0..h7; no search",
            "info string error: bad FEN 'ss7/8/8/8/8/8/8/7NN w': side to move must be W or B (upper case), found 'w' at offset 20; position unchanged",
            "info string error: bad FEN 'ss7/8/8/8/8/8/8/7NN b': side to move must be W or B (upper case), found 'b' at offset 20; position unchanged",
            "perft 0 1",
        ],
        "{text}"
    );
    let cli = engine::run(&["perft", "0"], "");
    assert!(cli.status.success());
    let cli = String::from_utf8(cli.stdout).unwrap();
    assert_eq!(cli.lines().next(), Some("perft 0 1"), "{cli}");
}

#[test]
fn every_command_answers_help_with_its_usage() {
    for cmd in [
        "perft",
        "bench",
        "evalbench",
        "gui",
        "datagen",
        "tune",
        "train",
        "book",
        "wdl",
    ] {
        for flag in ["--help", "-h"] {
            let started = Instant::now();
            let out = engine::run(&[cmd, flag], "");
            assert!(out.status.success(), "{cmd} {flag}: {out:?}");
            let text = String::from_utf8(out.stdout).unwrap();
            assert!(
                text.contains(&format!("\nUsage: leiserchess {cmd} ")),
                "{cmd} {flag}: {text}"
            );
            assert!(started.elapsed() < AT_ONCE, "{cmd} {flag} did work");
        }
    }
}
