//! The UCI surface of this build. Compiled in both configurations: without
//! the `debug-commands` feature (`make pedantic`, and `make test` runs this
//! file so), the commands are exactly PROTOCOL.md's and `check_rep`, `dump`
//! and `debug` do not exist; with it (the default), exactly those plus
//! `dump` (listed), `debug` (hidden) and the `check_rep` option.

use leiserchess::config::EngineConfig;
use std::collections::BTreeSet;
use std::path::PathBuf;

const DEBUG: bool = cfg!(feature = "debug-commands");

use crate::common::engine;

/// Runs the engine binary on `input`; returns its exit status and stdout.
fn run(args: &[&str], input: &str) -> (Option<i32>, String) {
    let out = engine::run(args, input);
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    (out.status.code(), text)
}

fn run_ok(input: &str) -> Vec<String> {
    let (status, out) = run(&[], input);
    assert_eq!(status, Some(0), "{out}");
    out.lines().map(str::to_string).collect()
}

/// The commands of `docs/spec/PROTOCOL.md` (the course's protocol).
fn protocol_commands() -> BTreeSet<String> {
    let commands = commands_of(&protocol_text());
    assert!(commands.len() >= 15, "{commands:?}");
    commands
}

fn protocol_text() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/spec/PROTOCOL.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The first word of the first cell of every table row between the heading
/// `## Referee to engine` and the next heading of any level: what this
/// engine adds to the protocol is documented under headings of its own, and
/// is not the course's surface.
fn commands_of(text: &str) -> BTreeSet<String> {
    text.lines()
        .skip_while(|l| *l != "## Referee to engine")
        .skip(1)
        .take_while(|l| !l.starts_with('#'))
        .filter_map(|l| l.strip_prefix("| `"))
        .map(|cell| cell.split([' ', '`']).next().unwrap().to_string())
        .collect()
}

#[test]
fn added_protocol_sections_leave_the_command_list_alone() {
    let text = protocol_text();
    assert!(commands_of(&text).contains("perft"));
    let row = "| command | meaning |\n|---|---|\n| `bench [d]` | search the bench set |\n";
    for heading in ["## This engine's additions", "### This engine's additions"] {
        let extended = text.replacen(
            "## Engine to referee",
            &format!("{heading}\n\n{row}\n## Engine to referee"),
            1,
        );
        assert_ne!(extended, text);
        assert_eq!(commands_of(&extended), commands_of(&text), "{heading}");
        let appended = format!("{text}\n{heading}\n\n{row}");
        assert_eq!(commands_of(&appended), commands_of(&text), "{heading}");
    }
}

#[test]
fn help_lists_exactly_the_protocol_commands() {
    let listed: BTreeSet<String> = run_ok("help\n")
        .iter()
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    let mut want = protocol_commands();
    if DEBUG {
        want.insert("dump".to_string());
    }
    assert_eq!(listed, want);
}

#[test]
fn every_protocol_command_is_known() {
    let out = run_ok(
        "uci\nisready\nsetoption name hash value 1\nucinewgame\nposition startpos\n\
         go depth 1\nstop\nponderhit\nperft 1\ndisplay\neval\ngenerate\nmove h0R\nhelp\nquit\n",
    );
    assert!(
        !out.iter().any(|l| l.contains("unknown command")),
        "{out:?}"
    );
    // Every command word of PROTOCOL.md is among them.
    let sent = "uci isready setoption ucinewgame position go stop ponderhit perft display eval generate move help quit";
    let sent: BTreeSet<String> = sent.split(' ').map(str::to_string).collect();
    assert_eq!(sent, protocol_commands());
}

#[test]
fn the_options_are_the_engines_plus_check_rep_only_with_the_feature() {
    let out = run_ok("uci\n");
    let options: Vec<&String> = out.iter().filter(|l| l.starts_with("option ")).collect();
    let check_rep = "option name check_rep type check default false";
    assert_eq!(
        options.len(),
        leiserchess::config::options().count(),
        "{out:?}"
    );
    assert_eq!(options.iter().any(|l| *l == check_rep), DEBUG, "{out:?}");
    assert_eq!(EngineConfig::uci_lines().len(), options.len());

    let out = run_ok("setoption name check_rep value true\n");
    let want = if DEBUG {
        "info string check_rep set to true"
    } else {
        "info string error: unknown option 'check_rep'"
    };
    assert_eq!(out, [want]);
}

#[test]
fn dump_and_debug_exist_only_with_the_feature() {
    let out = run_ok("dump\ndump board\ndebug corrupt board\n");
    if DEBUG {
        assert_eq!(out[0].split_whitespace().next(), Some("board"), "{out:?}");
        assert!(out.iter().any(|l| l.starts_with("fen ")), "{out:?}");
        assert_eq!(
            out.last().unwrap(),
            "info string board corrupted (key), a testing aid for check_rep"
        );
    } else {
        assert_eq!(
            out,
            [
                "info string error: unknown command 'dump' (type 'help' for the list)",
                "info string error: unknown command 'dump' (type 'help' for the list)",
                "info string error: unknown command 'debug' (type 'help' for the list)",
            ]
        );
    }
}

#[test]
fn bench_check_rep_exists_only_with_the_feature() {
    if !DEBUG {
        let (status, _) = run(&["bench", "1", "--check-rep"], "");
        assert_eq!(status, Some(2), "the pedantic build has no --check-rep");
    }
    // With the feature, `check_rep` (tests/engine/check_rep.rs) runs it.
}
