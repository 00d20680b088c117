//! The `check_rep` option and the `dump` command end to end, through the
//! real binary (a failed check exits the process): a board broken on
//! purpose (`debug corrupt board`) is caught with the documented message and
//! exit status; sound searches pass every check and search exactly the same
//! nodes; every dump prints. Only with the `debug-commands` feature.

use leiserchess::play::client::{Client, Stderr};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::common::engine;

use engine::run;

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8 output")
}

/// Runs `input` and expects a clean exit with no failed check.
fn run_ok(input: &str) -> String {
    let o = run(&[], input);
    let out = stdout(&o);
    assert!(o.status.success(), "status {:?}\n{out}", o.status);
    assert!(!out.contains("check_rep FAILED"), "{out}");
    out
}

/// Runs `input` and expects `check_rep` to fail on `structure`: the line on
/// stdout and stderr, status 3, nothing after it.
fn run_failing(input: &str, structure: &str) -> String {
    let o = run(&[], input);
    let out = stdout(&o);
    let want = format!("check_rep FAILED: {structure}: ");
    assert_eq!(o.status.code(), Some(3), "{out}");
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with(&want), "last line '{last}' of\n{out}");
    assert!(stderr(&o).contains(last), "stderr: {}", stderr(&o));
    last.to_string()
}

const ON: &str = "setoption name check_rep value true\n";

/// How long one search, or the exit at the end, may take before the test
/// gives up: far more than the slowest, so only a hang reaches it.
const PATIENCE: Duration = Duration::from_secs(120);

/// An engine fed one command at a time: a command after `go` would end the
/// search at once, so `go` waits for the search's `bestmove`.
struct Session {
    engine: Client,
    lines: Vec<String>,
}

impl Session {
    fn new() -> Session {
        let cmd = Command::new(env!("CARGO_BIN_EXE_leiserchess"));
        Session {
            engine: Client::start(cmd, Stderr::Inherit).expect("engine starts"),
            lines: Vec::new(),
        }
    }

    /// Sends `commands`; after each `go`, reads up to its `bestmove`.
    fn send(&mut self, commands: &str) -> &mut Session {
        for c in commands.lines() {
            self.engine.send(c).expect("write");
            if c.starts_with("go") {
                let lines = &mut self.lines;
                let read = self
                    .engine
                    .read_until(Instant::now() + PATIENCE, "the bestmove", |l| {
                        let l = std::str::from_utf8(&l.raw).expect("UTF-8 output");
                        lines.push(l.trim_end().to_string());
                        l.starts_with("bestmove")
                    });
                if let Err(e) = read {
                    panic!("engine failed during '{c}': {e}\n{}", self.lines.join("\n"));
                }
            }
        }
        self
    }

    /// Ends the input; expects a clean exit with no failed check; returns
    /// every output line.
    fn finish(&mut self) -> String {
        let exit = self
            .engine
            .wait_exit(Instant::now() + PATIENCE)
            .expect("engine exits");
        let rest: Vec<u8> = exit.rest.into_iter().flat_map(|l| l.raw).collect();
        let rest = String::from_utf8(rest).expect("UTF-8 output");
        self.lines.extend(rest.lines().map(str::to_string));
        let out = self.lines.join("\n");
        assert!(exit.status.success(), "status {:?}\n{out}", exit.status);
        assert!(!out.contains("check_rep FAILED"), "{out}");
        out
    }
}

#[test]
fn the_option_is_listed_and_off_by_default() {
    let out = run_ok("uci\nsetoption name CHECK_REP value true\n");
    assert!(out
        .lines()
        .any(|l| l == "option name check_rep type check default false"));
    assert!(out.contains("info string check_rep set to true"), "{out}");
}

#[test]
fn a_corrupted_board_is_caught_before_a_search() {
    for (how, detail) in [
        ("", "key is "),
        (" key", "key is "),
        (" occupancy", "White occupancy is "),
        (
            " kingsquare",
            "White King square is a0, but its King is on h0",
        ),
        (" twokings", "White has 2 Kings (h0 d1)"),
        (" noking", "White has no King"),
        (" toomany", "White has 9 pieces, at most 8"),
    ] {
        let input = format!("{ON}position startpos\ndebug corrupt board{how}\ngo depth 2\n");
        let line = run_failing(&input, "board");
        assert!(line.contains(detail), "{how}: {line}");
    }
}

#[test]
fn a_corrupted_board_is_caught_at_the_next_move() {
    let input = format!("position startpos moves h0R\n{ON}debug corrupt board key\nmove a7R\n");
    let line = run_failing(&input, "board");
    assert!(
        line.starts_with("check_rep FAILED: board: key is "),
        "{line}"
    );
}

#[test]
fn without_check_rep_nothing_is_checked() {
    // A wrong key alone does not stop a search: only check_rep notices.
    let out = run_ok("position startpos\ndebug corrupt board\ngo depth 2\n");
    assert!(out.contains("board corrupted (key)"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
}

#[test]
fn bad_debug_commands_are_reported() {
    let out = run_ok("debug\ndebug corrupt board nosuch\ndebug corrupt tt\n");
    let errors: Vec<&str> = out.lines().collect();
    assert_eq!(errors.len(), 3, "{out}");
    for e in errors {
        assert!(
            e.starts_with("info string error: debug wants 'corrupt board ["),
            "{e}"
        );
    }
}

#[test]
fn sound_searches_pass_every_check() {
    // Quiet positions, a bench tactic, a finished game, two threads racing
    // (Lazy SMP) and sharing nodes (the split search).
    let out = Session::new()
        .send(&format!(
            "{ON}position startpos\ngo depth 5\n\
             position fen 4nese2/1nn6/1SS6/8/4sw3/8/8/8 B\ngo depth 5\n\
             position fen 8/8/8/8/8/8/8/nn6NN W moves h0L\ngo depth 2\n\
             setoption name threads value 2\nsetoption name split_depth value 0\n\
             position endgame\ngo depth 6\n\
             position startpos moves g4L b3L\ngo nodes 50000\n\
             setoption name split_depth value 2\nposition startpos\ngo depth 6\n"
        ))
        .finish();
    let bests: Vec<&str> = out.lines().filter(|l| l.starts_with("bestmove ")).collect();
    assert_eq!(bests.len(), 6, "{out}");
    assert!(out.contains("info depth 5 "), "{out}");
    assert!(out.contains("info depth 6 "), "{out}");
    assert!(out.contains("no legal move: a King is zapped"), "{out}");
}

#[test]
fn check_rep_changes_no_search() {
    // The bench's node total, which fingerprints the search, is the same
    // with every check on.
    let total = |args: &[&str]| {
        let o = run(args, "");
        let out = stdout(&o);
        assert!(o.status.success(), "{out}{}", stderr(&o));
        out.lines()
            .last()
            .unwrap()
            .split(' ')
            .nth(1)
            .unwrap()
            .to_string()
    };
    assert_eq!(
        total(&["bench", "3", "--search", "pvs", "--check-rep"]),
        total(&["bench", "3", "--search", "pvs"])
    );
    // MCTS runs none of the checks: asking for them is refused.
    let o = run(&["bench", "--search", "mcts", "--check-rep"], "");
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("bench: --check-rep is for --search pvs"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn dump_lists_and_prints_every_structure() {
    let out = run_ok("dump\n");
    let names: Vec<&str> = out
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(names, ["board", "tt", "killers", "history", "coverage"]);

    let out = Session::new()
        .send("position startpos\ngo depth 4\ndump board\n")
        .finish();
    assert!(
        out.contains("fen ss7/3nwse3/2nwse4/1nwse3NW1/1se3NWSE1/4NWSE2/3NWSE3/7NN W"),
        "{out}"
    );
    assert!(out.contains("White: occupancy 0x"), "{out}");
    assert!(out.contains("King square h0"), "{out}");
    assert!(out.contains("check_rep ok"), "{out}");

    // The table, killers and history are PVS's: the hybrid's tree would
    // fill them with its own small searches first.
    const PVS: &str = "setoption name Search value pvs\n";
    let out = Session::new()
        .send(&format!("{PVS}go depth 4\ndump tt\n"))
        .finish();
    assert!(out.contains("16 MB"), "{out}");
    assert!(out.contains("hashfull "), "{out}");
    assert!(
        out.contains("this position (") && out.contains("depth 4 bound Exact"),
        "{out}"
    );
    assert!(out.contains("first 10 non-empty entries:"), "{out}");

    let out = Session::new()
        .send(&format!("{PVS}go depth 5\ndump killers\ndump history\n"))
        .finish();
    assert!(out.contains("ply   1: "), "{out}");
    let history = out
        .lines()
        .skip_while(|l| !l.starts_with("history: "))
        .collect::<Vec<_>>();
    let words: Vec<&str> = history[0]
        .trim_end_matches(':')
        .split_whitespace()
        .collect();
    let (n, shown): (usize, usize) = (words[1].parse().unwrap(), words[6].parse().unwrap());
    assert!(n > 0 && shown == n.min(20), "{out}");
    assert_eq!(history.len(), shown + 1, "{out}");
    assert!(
        history[1].split_whitespace().nth(1) == Some("White")
            || history[1].split_whitespace().nth(1) == Some("Black"),
        "{out}"
    );

    let out = run_ok("position endgame\ndump coverage\n");
    assert!(out.contains("White coverage map M"), "{out}");
    assert!(out.contains("Black coverage sum "), "{out}");

    let out = run_ok("dump nosuch\ndump board tt\n");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "info string error: unknown dump 'nosuch'; the dumps are board tt killers history coverage",
            "info string error: dump takes at most one name ('dump' lists them)"
        ]
    );
}

#[test]
fn dump_waits_for_no_search_and_help_lists_it() {
    // `dump` ends a running search first: its bestmove comes before the dump.
    let out = run_ok("go infinite\ndump board\n");
    let best = out.lines().position(|l| l.starts_with("bestmove")).unwrap();
    let dump = out.lines().position(|l| l.starts_with("fen ")).unwrap();
    assert!(best < dump, "{out}");
    let out = run_ok("help\n");
    assert!(out.lines().any(|l| l.starts_with("dump [name]")), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("debug")), "{out}");
}
