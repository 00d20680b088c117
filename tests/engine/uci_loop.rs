//! The UCI loop end to end: the real binary fed on stdin, and the engine's
//! line handler; bad input must get one `info string` line and change nothing.

use leiserchess::protocol::uci::{Engine, Flow};
use leiserchess::rules::fen;

use crate::common::engine;

/// Runs the engine binary on `input` and returns its output lines.
fn run_binary(input: &str) -> Vec<String> {
    let out = engine::run(&[], input);
    assert!(out.status.success(), "exit status {:?}", out.status);
    String::from_utf8(out.stdout)
        .expect("UTF-8 output")
        .lines()
        .map(str::to_string)
        .collect()
}

/// Sends one line to `engine` and returns the answer lines.
fn send(engine: &mut Engine, line: &str) -> Vec<String> {
    let mut out = Vec::new();
    assert_eq!(engine.handle(line, &mut out), Flow::Continue, "{line}");
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn fen_of(engine: &Engine) -> String {
    fen::to_fen(engine.game().board())
}

#[test]
fn handshake_and_quit() {
    let out = run_binary("uci\nisready\nquit\nisready\n");
    assert!(out[0].starts_with("id name leiserchess"));
    assert!(out
        .iter()
        .any(|l| l.starts_with("option name threads type spin")));
    let uciok = out.iter().position(|l| l == "uciok").expect("uciok");
    assert_eq!(out[uciok + 1..], ["readyok"], "nothing after quit");
}

#[test]
fn end_of_input_ends_the_loop_and_crlf_is_accepted() {
    let out = run_binary("isready\r\nposition startpos moves h0L\r\ngenerate\r\n");
    assert_eq!(out[0], "readyok");
    assert!(out[1].split(' ').any(|m| m == "a7L"), "{}", out[1]);
}

#[test]
fn position_with_moves_and_perft_from_the_current_position() {
    let out = run_binary("position startpos moves h0L a7R\nperft 2\n");
    // After two rotations the position is a new one; its counts come from
    // the library's perft, which the perft suite checks against the reference.
    let mut b = fen::parse(fen::STARTPOS).unwrap();
    for m in ["h0L", "a7R"] {
        let m = leiserchess::rules::moves::Move::parse(m).unwrap();
        b.make(m);
    }
    let want: Vec<String> = (1..=2)
        .map(|d| format!("perft {d} {}", leiserchess::rules::perft::perft(&mut b, d)))
        .collect();
    assert_eq!(out, want);
}

#[test]
fn perft_defaults_to_depth_four() {
    let out = run_binary("perft");
    assert_eq!(
        out,
        [
            "perft 1 61",
            "perft 2 3757",
            "perft 3 239205",
            "perft 4 15537748"
        ]
    );
}

#[test]
fn malformed_fen_is_reported_and_the_position_kept() {
    let mut e = Engine::default();
    send(&mut e, "position startpos moves h0L");
    let before = fen_of(&e);
    let cases = [
        ("position fen ss7/8/8/8/8/8/8/7NNx W", "more than 8 squares"),
        ("position fen ss7/8/8/8/8/8/8/7NQ W", "'Q' at offset 18"),
        (
            "position fen 8/8/8/8/8/8/8/7NN W",
            "Lavender (lower case) has no King",
        ),
        ("position fen ss7/8/8/8/8/8/8/6NNNN W", "more than one King"),
        (
            "position fen ss7/8/8/8/8/8/8/7NN X",
            "side to move must be W or B",
        ),
        ("position fen ss7/8/8/8/8/8/8/7NN", "missing side to move"),
        ("position fen", "expected 8 ranks"),
        ("position nonsense", "position wants startpos"),
    ];
    for (line, needle) in cases {
        let out = send(&mut e, line);
        assert_eq!(out.len(), 1, "{line}: {out:?}");
        assert!(out[0].starts_with("info string error"), "{line}: {out:?}");
        assert!(out[0].contains(needle), "{line}: {out:?}");
        assert_eq!(fen_of(&e), before, "{line} changed the position");
    }
}

#[test]
fn bad_moves_in_position_keep_the_old_position() {
    let mut e = Engine::default();
    send(&mut e, "position endgame");
    let before = fen_of(&e);
    let cases = [
        (
            "position startpos moves h0L zz",
            "move 2: cannot parse move 'zz'",
        ),
        (
            "position startpos moves h0L a7R a0a1",
            "move 3: illegal move 'a0a1'",
        ),
        ("position startpos moves h0h2", "must be adjacent"),
        ("position startpos moves a7L", "not a move of this position"),
    ];
    for (line, needle) in cases {
        let out = send(&mut e, line);
        assert_eq!(out.len(), 1, "{line}: {out:?}");
        assert!(out[0].starts_with("info string error"), "{line}: {out:?}");
        assert!(out[0].contains(needle), "{line}: {out:?}");
        assert_eq!(fen_of(&e), before, "{line} changed the position");
    }
}

#[test]
fn ko_is_enforced_in_position_and_move() {
    let mut e = Engine::default();
    let ko = "position fen ww7/8/8/3nw4/3NW4/8/8/7EE W moves d3d4e3 d3e3d4";
    let out = send(&mut e, ko);
    assert!(out[0].contains("Ko rule"), "{out:?}");
    send(
        &mut e,
        "position fen ww7/8/8/3nw4/3NW4/8/8/7EE W moves d3d4e3",
    );
    let before = fen_of(&e);
    let out = send(&mut e, "move D3E3D4");
    assert!(out[0].contains("Ko rule"), "{out:?}");
    assert_eq!(fen_of(&e), before);
    assert!(send(&mut e, "move d3e3f4").is_empty());
    assert_ne!(fen_of(&e), before);
}

#[test]
fn unknown_commands_and_options_are_reported() {
    let mut e = Engine::default();
    let before = fen_of(&e);
    let cases = [
        ("frobnicate", "unknown command 'frobnicate'"),
        ("setoption name nosuch value 3", "unknown option 'nosuch'"),
        ("setoption name threads value many", "wants a whole number"),
        ("setoption name threads", "needs a value"),
        ("setoption threads 2", "needs 'name <id>'"),
        (
            "setoption value 2 name threads",
            "option 'threads' needs a value",
        ),
        ("perft 99", "perft depth must be"),
        ("perft -1", "perft depth must be"),
        ("move", "exactly one move"),
        ("move h0h0", "must be adjacent"),
    ];
    for (line, needle) in cases {
        let out = send(&mut e, line);
        assert_eq!(out.len(), 1, "{line}: {out:?}");
        assert!(out[0].starts_with("info string"), "{line}: {out:?}");
        assert!(out[0].contains(needle), "{line}: {out:?}");
    }
    assert_eq!(fen_of(&e), before);
    assert!(send(&mut e, "").is_empty());
}

#[test]
fn options_are_case_insensitive_and_clamped() {
    let mut e = Engine::default();
    assert_eq!(
        send(&mut e, "setoption name THREADS value 2"),
        ["info string threads set to 2"]
    );
    let out = send(&mut e, "setoption name threads value 1000");
    assert!(out[0].contains("threads set to 64"), "{out:?}");
}

#[test]
fn perft_with_many_threads_counts_right() {
    let out = run_binary("setoption name threads value 64\nperft 3\n");
    assert_eq!(out[1..], ["perft 1 61", "perft 2 3757", "perft 3 239205"]);
}

#[test]
fn unknown_tokens_before_a_command_are_skipped() {
    let mut e = Engine::default();
    let out = send(&mut e, "hello isready");
    assert_eq!(out, ["info string ignoring unknown 'hello'", "readyok"]);
}

#[test]
fn display_generate_move_and_help() {
    let mut e = Engine::default();
    let board = send(&mut e, "display");
    assert!(board.iter().any(|l| l == &format!("fen {}", fen::STARTPOS)));
    assert!(board.iter().any(|l| l.starts_with("Tangerine (W) to move")));
    let moves = send(&mut e, "generate");
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].split(' ').count(), 61);
    assert!(send(&mut e, "move h0L").is_empty());
    assert!(fen_of(&e).ends_with("7WW B"));
    let help = send(&mut e, "help");
    for cmd in [
        "uci", "position", "perft", "display", "generate", "move", "quit",
    ] {
        assert!(help.iter().any(|l| l.starts_with(cmd)), "help lacks {cmd}");
    }
}

#[test]
fn game_over_is_reported_and_further_moves_refused() {
    let mut e = Engine::default();
    send(&mut e, "position fen 8/8/8/8/8/8/8/nn6NN W");
    let out = send(&mut e, "move h0L");
    assert_eq!(
        out,
        ["info string game over: 1-0 Tangerine wins: King zapped"]
    );
    let out = send(&mut e, "move a0R");
    assert!(out[0].contains("the game is over"), "{out:?}");
    assert!(send(&mut e, "display")
        .iter()
        .any(|l| l.starts_with("game over: 1-0")));
}

#[test]
fn ucinewgame_resets_to_the_start_position() {
    let mut e = Engine::default();
    send(&mut e, "position endgame moves h0g0");
    assert!(send(&mut e, "ucinewgame").is_empty());
    assert_eq!(fen_of(&e), fen::STARTPOS);
}
