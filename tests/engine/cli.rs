//! The command lines of `leiserchess`: every command answers `--help` and
//! `-h` with its usage and arguments (exit 0); a bad argument is refused,
//! before any work, with a message naming it (exit 2); long or unprintable
//! arguments are echoed quoted, in refusals and failures alike; and flags
//! that set an engine option set it as `setoption` does, clamping with the
//! same report.

use std::process::Output;

use crate::common::engine;

/// A command, the arguments its help must name, and bad command lines
/// with what the refusal must name.
struct Case {
    name: &'static str,
    arguments: &'static [&'static str],
    refused: &'static [(&'static [&'static str], &'static str)],
}

const CASES: &[Case] = &[
    Case {
        name: "perft",
        arguments: &[
            "<DEPTH>",
            "--fen <FEN>",
            "--threads <N>",
            "--plain",
            "--divide",
        ],
        refused: &[
            (&["perft"], "<DEPTH>"),
            (&["perft", "13"], "invalid value '13' for '<DEPTH>'"),
            (&["perft", "-1"], "invalid value '-1' for '<DEPTH>'"),
            (
                &["perft", "2", "--fen", "ss7/8"],
                "invalid value 'ss7/8' for '--fen <FEN>': bad FEN",
            ),
            (
                &["perft", "2", "--threads", "two"],
                "invalid value 'two' for '--threads <N>'",
            ),
        ],
    },
    Case {
        name: "bench",
        arguments: &[
            "[DEPTH]",
            "--search <NAME>",
            "--playouts <N>",
            "--hash <MB>",
            "--ways <K>",
            "--hand",
            "--latency <PGN>",
            "--time <MS>",
            "--inc <MS>",
        ],
        refused: &[
            (&["bench", "31"], "invalid value '31' for '[DEPTH]'"),
            (
                &["bench", "--search", "alphabeta"],
                "invalid value 'alphabeta' for '--search <NAME>': \
                 option 'Search' wants one of pvs, mcts, bestfirst, hybrid, got 'alphabeta'",
            ),
            (
                &["bench", "--search", "mcts", "--playouts", "0"],
                "invalid value '0' for '--playouts <N>'",
            ),
            (
                &["bench", "--hash", "1e3"],
                "invalid value '1e3' for '--hash <MB>'",
            ),
            (
                &["bench", "--ways", "x"],
                "invalid value 'x' for '--ways <K>'",
            ),
            (
                &["bench", "--hash"],
                "a value is required for '--hash <MB>'",
            ),
            (&["bench", "--time", "50"], "--latency <PGN>"),
            (
                &["bench", "--latency", "games.pgn", "--inc", "-1"],
                "invalid value '-1' for '--inc <MS>'",
            ),
        ],
    },
    Case {
        name: "evalbench",
        arguments: &["[FILE]", "--seconds <S>"],
        refused: &[
            (
                &["evalbench", "--seconds", "-1"],
                "invalid value '-1' for '--seconds <S>'",
            ),
            (&["evalbench", "a", "b"], "unexpected argument 'b'"),
        ],
    },
    Case {
        name: "gui",
        arguments: &["--port <N>", "--engine-threads <N>", "--host <ADDR>"],
        refused: &[
            (
                &["gui", "--port", "70000"],
                "invalid value '70000' for '--port <N>'",
            ),
            (
                &["gui", "--engine-threads", "all"],
                "invalid value 'all' for '--engine-threads <N>'",
            ),
            (
                &["gui", "--host", "localhost"],
                "invalid value 'localhost' for '--host <ADDR>'",
            ),
        ],
    },
    Case {
        name: "datagen",
        arguments: &[
            "<FILE>",
            "--positions <N>",
            "--nodes <N>",
            "--random-plies <K>",
            "--threads <T>",
            "--seed <S>",
            "--max-plies <P>",
            "--net <FILE>",
            "--hand",
            "--format <V>",
        ],
        refused: &[
            (&["datagen"], "<FILE>"),
            (
                &["datagen", "/nonexistent/d.bin", "--format", "1"],
                "invalid value '1' for '--format <V>'",
            ),
            (
                &["datagen", "/nonexistent/d.bin", "--nodes", "0"],
                "invalid value '0' for '--nodes <N>'",
            ),
            (
                &["datagen", "/nonexistent/d.bin", "--threads", "257"],
                "invalid value '257' for '--threads <T>'",
            ),
            (
                &["datagen", "/nonexistent/d.bin", "--net", "n.nnue", "--hand"],
                "'--net <FILE>' cannot be used with '--hand'",
            ),
        ],
    },
    Case {
        name: "tune",
        arguments: &[
            "<DATA>...",
            "--epochs <N>",
            "--lambda <L>",
            "--validation <F>",
            "--seed <S>",
            "--out <FILE>",
            "--rate <R>",
        ],
        refused: &[
            (&["tune"], "<DATA>..."),
            (
                &["tune", "d.bin", "--lambda", "1.5"],
                "invalid value '1.5' for '--lambda <L>': not a number from 0 to 1",
            ),
            (
                &["tune", "d.bin", "--validation", "1"],
                "invalid value '1' for '--validation <F>'",
            ),
        ],
    },
    Case {
        name: "train",
        arguments: &[
            "<DATA>...",
            "--out <FILE>",
            "--epochs <N>",
            "--lambda <L>",
            "--validation <F>",
            "--seed <S>",
            "--rate <R>",
            "--batch <B>",
            "--threads <T>",
            "--beam",
            "--mirror",
            "--resume",
        ],
        refused: &[
            (&["train", "d.bin"], "--out <FILE>"),
            (
                &["train", "d.bin", "--out", "n.nnue", "--rate", "0"],
                "invalid value '0' for '--rate <R>': not a number above 0",
            ),
            (
                &["train", "d.bin", "--out", "n.nnue", "--batch", "0"],
                "invalid value '0' for '--batch <B>'",
            ),
        ],
    },
    Case {
        name: "train-policy",
        arguments: &[
            "<DATA>...",
            "--out <FILE>",
            "--labels <FILE>",
            "--positions <N>",
            "--depth <D>",
            "--threads <T>",
            "--epochs <N>",
            "--rate <R>",
            "--batch <B>",
            "--l2 <L>",
            "--validation <F>",
            "--seed <S>",
            "--held-out <FILE>",
        ],
        refused: &[
            (&["train-policy", "d.bin"], "--out <FILE>"),
            (
                &["train-policy", "d.bin", "--out", "p.policy", "--depth", "0"],
                "invalid value '0' for '--depth <D>'",
            ),
            (
                &["train-policy", "d.bin", "--out", "p.policy", "--l2", "1"],
                "invalid value '1' for '--l2 <L>'",
            ),
        ],
    },
    Case {
        name: "book",
        arguments: &["<PGN>...", "--out <FILE>", "--plies <N>", "--min-games <M>"],
        refused: &[
            (&["book", "g.pgn"], "--out <FILE>"),
            (
                &["book", "g.pgn", "--out", "b.bin", "--plies", "0"],
                "invalid value '0' for '--plies <N>'",
            ),
            (
                &["book", "g.pgn", "--out", "b.bin", "--min-games", "many"],
                "invalid value 'many' for '--min-games <M>'",
            ),
        ],
    },
    Case {
        name: "fit-error",
        arguments: &[
            "[DATA]",
            "--positions <N>",
            "--depth <D>",
            "--out <PATH>",
            "--svg <PATH>",
            "--table <PATH>",
            "--from-table <PATH>",
            "--family <NAME>",
            "--plies <K>",
        ],
        refused: &[
            (&["fit-error"], "<DATA>"),
            (
                &["fit-error", "d.bin", "--depth", "1"],
                "invalid value '1' for '--depth <D>'",
            ),
            (
                &["fit-error", "d.bin", "--family", "cauchy"],
                "invalid value 'cauchy' for '--family <NAME>'",
            ),
        ],
    },
    Case {
        name: "data",
        arguments: &["expand", "info"],
        refused: &[
            (&["data"], "requires a subcommand"),
            (&["data", "info"], "<FILE>"),
            (&["data", "expand", "in.bin"], "<OUT>"),
        ],
    },
    Case {
        name: "wdl",
        arguments: &["<DATA>...", "--out-svg <FILE>", "--bucket <CP>"],
        refused: &[
            (&["wdl"], "<DATA>..."),
            (
                &["wdl", "d.bin", "--bucket", "0"],
                "invalid value '0' for '--bucket <CP>'",
            ),
        ],
    },
];

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// Expects `out` refused with exit status 2, nothing on stdout, and a
/// message on stderr that contains `named`.
fn assert_refused(args: &[&str], out: &Output, named: &str) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(text(&out.stdout), "", "{args:?}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(err.contains(named), "{args:?} should name {named}: {err}");
}

#[test]
fn the_help_lists_every_command() {
    for flag in ["--help", "-h", "help"] {
        let out = engine::run(&[flag], "");
        assert!(out.status.success(), "{flag}: {out:?}");
        let help = text(&out.stdout);
        assert!(
            help.contains("Usage: leiserchess [OPTIONS]\n       leiserchess <COMMAND>"),
            "{help}"
        );
        for c in CASES {
            assert!(
                help.lines()
                    .any(|l| l.trim_start().starts_with(&format!("{} ", c.name))),
                "{flag} lists no {}: {help}",
                c.name
            );
        }
    }
}

#[test]
fn every_command_answers_help_with_its_arguments() {
    for c in CASES {
        for help in [
            vec![c.name, "--help"],
            vec![c.name, "-h"],
            vec!["help", c.name],
        ] {
            let out = engine::run(&help, "");
            let usage = text(&out.stdout);
            assert!(out.status.success(), "{help:?}: {out:?}");
            assert!(
                usage.contains(&format!("Usage: leiserchess {} ", c.name)),
                "{help:?}: {usage}"
            );
            for a in c.arguments {
                assert!(usage.contains(a), "{help:?} does not name {a}: {usage}");
            }
        }
    }
}

#[test]
fn bad_arguments_are_refused_by_name() {
    for c in CASES {
        let bogus = [c.name, "--bogus"];
        let out = engine::run(&bogus, "");
        assert_refused(&bogus, &out, "unexpected argument '--bogus'");
        for (args, named) in c.refused {
            assert_refused(args, &engine::run(args, ""), named);
        }
    }
    let out = engine::run(&["nosuch"], "");
    assert_refused(&["nosuch"], &out, "unrecognized subcommand 'nosuch'");
}

#[test]
fn long_and_unprintable_arguments_are_echoed_quoted() {
    let junk = format!("\u{1b}[2J{}", "9".repeat(5000));
    for args in [
        vec!["perft", junk.as_str()],
        vec!["tune", "d.bin", "--lambda", junk.as_str()],
        vec!["gui", junk.as_str()],
        // A command that fails on it, too.
        vec!["book", junk.as_str(), "--out", "/nonexistent/b.bin"],
    ] {
        let out = engine::run(&args, "");
        assert_eq!(out.status.code(), Some(2), "{:?}", args[0]);
        let err = text(&out.stderr);
        assert!(err.contains("\\u{1b}[2J999"), "{err}");
        assert!(err.contains("more characters)"), "{err}");
        assert!(!err.chars().any(|c| c.is_control() && c != '\n'), "{err:?}");
        assert!(err.lines().all(|l| l.chars().count() < 300), "{err}");
    }
}

/// The node total of a `bench` run's output.
fn nodes(out: &Output) -> String {
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let last = stdout.lines().last().unwrap_or_default();
    last.split(' ').nth(1).unwrap_or_default().to_string()
}

#[test]
fn bench_table_flags_clamp_as_setoption_does() {
    let pvs = ["bench", "1", "--search", "pvs"];
    let clamped = engine::run(&[&pvs[..], &["--hash", "0", "--ways", "99"]].concat(), "");
    let exact = engine::run(&[&pvs[..], &["--hash", "1", "--ways", "16"]].concat(), "");
    assert_eq!(nodes(&clamped), nodes(&exact));
    assert_eq!(text(&exact.stderr), "");
    // The report lines are `setoption`'s, without its `info string`.
    let uci = engine::run(
        &[],
        "setoption name hash value 0\nsetoption name tt_ways value 99\n",
    );
    let said: String = text(&uci.stdout)
        .lines()
        .map(|l| format!("{}\n", l.strip_prefix("info string ").unwrap_or(l)))
        .collect();
    assert_eq!(
        said,
        "hash set to 1 (0 is outside 1..4096)\ntt_ways set to 16 (99 is outside 1..16)\n"
    );
    assert_eq!(text(&clamped.stderr), said);
}

#[test]
fn bench_runs_each_search_and_refuses_the_other_ones_flags() {
    let pvs = engine::run(&["bench", "1", "--search", "pvs"], "");
    assert!(pvs.status.success(), "{}", text(&pvs.stderr));
    assert!(text(&pvs.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .starts_with("nodes "));
    let mcts = engine::run(&["bench", "--search", "mcts", "--playouts", "200"], "");
    let stdout = text(&mcts.stdout);
    assert!(mcts.status.success(), "{stdout}{}", text(&mcts.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 26, "{stdout}");
    assert!(
        lines[..24].iter().all(|l| l.contains(" playouts ")),
        "{stdout}"
    );
    assert!(lines[24].starts_with("tree nodes "), "{stdout}");
    let last: Vec<&str> = lines[25].split(' ').collect();
    assert_eq!(
        (last[0], last[2], last[4]),
        ("signature", "playouts", "playouts/s"),
        "{stdout}"
    );
    assert!(last[1].parse::<u64>().is_ok_and(|s| s > 0), "{stdout}");
    let args = ["bench", "2", "--search", "hybrid", "--playouts", "100"];
    let hybrid = engine::run(&args, "");
    let stdout = text(&hybrid.stdout);
    assert!(hybrid.status.success(), "{stdout}{}", text(&hybrid.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 25, "{stdout}");
    assert!(
        lines[..24].iter().all(|l| l.contains(" final nodes ")),
        "{stdout}"
    );
    let last: Vec<&str> = lines[24].split(' ').collect();
    assert_eq!(
        (last[0], last[2], last[4]),
        ("signature", "nodes", "nps"),
        "{stdout}"
    );
    assert!(last[1].parse::<u64>().is_ok_and(|s| s > 0), "{stdout}");
    // The default search is the hybrid.
    let plain = engine::run(&["bench", "2", "--playouts", "100"], "");
    assert_eq!(nodes(&plain), last[1], "{}", text(&plain.stdout));
    for (args, named) in [
        (&["bench", "4", "--search", "mcts"][..], "a depth"),
        (&["bench", "--search", "mcts", "--hash", "8"][..], "--hash"),
        (&["bench", "--search", "mcts", "--ways", "2"][..], "--ways"),
        (
            &["bench", "--search", "hybrid", "--hash", "8"][..],
            "--hash",
        ),
        (
            &["bench", "--search", "pvs", "--playouts", "100"][..],
            "--playouts",
        ),
        (&["bench", "--hash", "8"][..], "--hash"),
    ] {
        let out = engine::run(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert_eq!(text(&out.stdout), "", "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.starts_with(&format!("leiserchess: bench: {named} is for --search ")),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn threads_flags_clamp_as_setoption_does() {
    let out = engine::run(&["perft", "3", "--threads", "0"], "");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(text(&out.stderr), "threads set to 1 (0 is outside 1..64)\n");
    assert!(text(&out.stdout).starts_with("perft 3 "), "{out:?}");
}

#[test]
fn no_command_runs_the_uci_loop() {
    let out = engine::run(&[], "uci\nquit\n");
    assert!(out.status.success());
    assert!(text(&out.stdout).lines().any(|l| l == "uciok"));
}

#[test]
fn options_set_at_start_up_reach_the_uci_loop_and_bad_ones_are_refused() {
    // The book answers the start position at once, unless `OwnBook` is off.
    let book_move = |args: &[&str]| {
        let out = engine::run(args, "position startpos\ngo wtime 1000 btime 1000\n");
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(stdout.contains("bestmove "), "{stdout}");
        assert!(!stdout.contains("set to"), "set quietly: {stdout}");
        stdout.contains("info string book move")
    };
    assert!(book_move(&[]));
    assert!(!book_move(&["--option", "OwnBook=false"]));
    assert!(!book_move(&[
        "--option",
        "Search=mcts",
        "--option",
        "OwnBook=false"
    ]));
    let bad = engine::run(&["--option", "Search=alphabeta"], "uci\n");
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(
        text(&bad.stderr),
        "leiserchess: --option 'Search=alphabeta': option 'Search' wants one of pvs, mcts, bestfirst, hybrid, got 'alphabeta'\n"
    );
    assert!(text(&bad.stdout).is_empty());
    let shapeless = engine::run(&["--option", "Search"], "");
    assert_eq!(shapeless.status.code(), Some(2));
    assert!(text(&shapeless.stderr).contains("wants NAME=VALUE"));
    let with_command = engine::run(&["--option", "threads=2", "perft", "1"], "");
    assert_eq!(with_command.status.code(), Some(2));
}

/// `leiserchess gui` listens on the loopback unless told otherwise, and
/// says so when it is told to listen beyond this machine.
#[test]
fn the_gui_says_when_it_listens_beyond_the_loopback() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::{Command, Stdio};
    for (host, beyond) in [(None, false), (Some("0.0.0.0"), true)] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_leiserchess"));
        cmd.args(["gui", "--port", "0"]);
        if let Some(h) = host {
            cmd.args(["--host", h]);
        }
        let mut child = cmd.stdout(Stdio::piped()).spawn().expect("gui starts");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut first = String::new();
        out.read_line(&mut first).expect("the address line");
        let expected = format!("http://{}:", host.unwrap_or("127.0.0.1"));
        assert!(
            first.starts_with("leiserchess gui: open ") && first.contains(&expected),
            "{host:?}: {first}"
        );
        if beyond {
            let mut second = String::new();
            out.read_line(&mut second).expect("the warning");
            assert!(second.contains("listening beyond this machine"), "{second}");
        }
        child.kill().expect("kill");
        let mut rest = String::new();
        out.read_to_string(&mut rest).expect("the rest");
        child.wait().expect("wait");
        if !beyond {
            assert!(!rest.contains("beyond"), "{rest}");
        }
    }
}

#[test]
fn bench_latency_reports_every_part_and_names_a_bad_file() {
    let games = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/latency-games.pgn");
    let out = engine::run(&["bench", "--latency", games, "--time", "60"], "");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.starts_with("latency: 319 moves of 7 games at go time 60 inc 1 (ms)"),
        "{stdout}"
    );
    for row in [
        "replay",
        "set-up",
        "in-search",
        "search",
        "output",
        "total",
        "overhead",
    ] {
        let cells: Vec<&str> = stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(row))
            .unwrap_or_else(|| panic!("no {row} row: {stdout}"))
            .split_whitespace()
            .collect();
        let us: Vec<u64> = cells[1..].iter().map(|c| c.parse().unwrap()).collect();
        assert!(us.len() == 4 && us.is_sorted(), "{row}: {cells:?}");
    }
    assert!(stdout.contains("; bench's "), "{stdout}");
    for (args, named) in [
        (
            &["bench", "--latency", "no-such.pgn"][..],
            "'no-such.pgn': cannot read",
        ),
        (
            &["bench", "3", "--latency", games][..],
            "--latency takes no depth",
        ),
    ] {
        let out = engine::run(args, "");
        assert!(!out.status.success(), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(named), "{args:?}: {err}");
    }
}
