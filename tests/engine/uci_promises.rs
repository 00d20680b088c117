//! What the engine promises a referee, end to end on the real binary: a
//! legal move whenever one exists (past our own draw limits too), `go mate`
//! and `go searchmoves`, a malformed `go` refused rather than run without a
//! limit, the end of the input and `stop` obeyed by any work, one piece
//! count rule, a large table that never stalls, and error lines that stay
//! short and printable.

use leiserchess::rules::fen;
use leiserchess::rules::game::{Game, Outcome};
use leiserchess::rules::moves::Move;
use session::{Engine, Score, PATIENCE};
use std::time::Duration;

use crate::common::{engine, rng, session};

/// A `go` with small limits must answer well within this (hang detection,
/// not a speed goal).
const PROMPT: Duration = Duration::from_secs(10);

fn game(fen_text: &str, moves: &[String]) -> Game {
    let mut g = Game::new(fen::parse(fen_text).expect("the FEN parses"));
    for m in moves {
        g.play_text(m).expect("the model plays the move");
    }
    g
}

/// Checks that `best` is one of `g`'s legal moves.
fn assert_legal(e: &Engine, g: &mut Game, best: &str) {
    let legal = g.legal_moves();
    match Move::parse(best) {
        Ok(m) if legal.contains(&m) => {}
        _ => e.fail(&format!("bestmove {best} is not legal here")),
    }
}

/// 130 plies of King moves from the two-King position: nothing can be
/// zapped but a King, so no ply resets the no-zap count.
fn quiet_game() -> Vec<String> {
    let mut rng = rng::Rng(0x5eed_0a11);
    let mut g = game(fen::ENDGAME, &[]);
    let mut moves = Vec::new();
    while moves.len() < 130 {
        let safe: Vec<Move> = g
            .legal_moves()
            .into_iter()
            .filter(|&m| {
                let mut after = g.clone();
                after.play(m).is_ok() && !after.is_over()
            })
            .collect();
        let m = rng.pick(&safe).expect("a King can always step safely");
        g.play(m).expect("legal");
        moves.push(m.to_string());
    }
    assert!(g.plies_since_zap() >= 100);
    moves
}

#[test]
fn a_game_past_the_no_zap_limit_is_taken_and_answered() {
    let moves = quiet_game();
    // Each search scores the draw as `draw` says (MCTS and the hybrid by
    // their tree's proof, PVS by its search).
    for search in ["pvs", "mcts", "hybrid"] {
        let mut model = game(fen::ENDGAME, &moves);
        assert_eq!(model.outcome(), Some(Outcome::NoZap));
        let mut e = Engine::spawn();
        e.send(&format!("setoption name Search value {search}"));
        // A draw score no evaluation lands on by chance.
        e.send("setoption name draw value -333");
        e.send(&format!("position endgame moves {}", moves.join(" ")));
        e.send("display");
        let (_, line) = e.until(PATIENCE, |l| l.starts_with("fen ") || l.contains("error"));
        assert_eq!(line, format!("fen {}", fen::to_fen(model.board())));
        e.send("go depth 4");
        let a = e.answer(PROMPT);
        assert_legal(&e, &mut model, &a.best);
        // Every reply is a draw by our 100-ply rule (the root's draw score);
        // with the course referee's 200 plies it is not.
        assert_eq!(a.last().score, Score::Cp(-333), "{search}: {:?}", a.last());
        e.send("setoption name no_zap_plies value 200");
        e.send("go depth 4");
        let a = e.answer(PROMPT);
        assert_legal(&e, &mut model, &a.best);
        assert_ne!(a.last().score, Score::Cp(-333), "{search}: {:?}", a.last());
        e.quit();
    }
}

#[test]
fn a_repeated_position_still_gets_a_move() {
    let cycle = ["h0g0", "a7b7", "g0h0", "b7a7"];
    let moves: Vec<String> = cycle
        .iter()
        .cycle()
        .take(12)
        .map(|m| m.to_string())
        .collect();
    let mut model = game(fen::ENDGAME, &moves);
    assert_eq!(model.outcome(), Some(Outcome::Repetition));
    let mut e = Engine::spawn();
    e.send(&format!("position endgame moves {}", moves.join(" ")));
    e.send("go depth 3");
    let a = e.answer(PROMPT);
    assert_legal(&e, &mut model, &a.best);
    e.quit();
}

#[test]
fn a_zapped_king_ends_the_move_list_and_answers_0000() {
    let mut e = Engine::spawn();
    e.send("position fen 8/8/8/8/8/8/8/nn6NN W moves h0L a0R");
    let (_, line) = e.line(PATIENCE);
    assert!(line.contains("move 2: the game is over"), "{line}");
    e.send("position fen 8/8/8/8/8/8/8/nn6NN W moves h0L");
    e.send("go depth 3");
    let a = e.answer(PROMPT);
    assert_eq!(a.best, "0000");
    e.quit();
}

#[test]
fn go_mate_stops_once_proven_or_at_the_proving_depth() {
    let mut e = Engine::spawn();
    // A zap in 1 (reference tactics): found, and the search ends by itself.
    e.send("position fen 3nw4/8/2NW1ee3/5SS2/8/8/8/5NE2 B");
    e.send("go mate 1");
    let a = e.answer(PROMPT);
    assert_eq!(a.last().score, Score::Mate(1), "{:?}", a.last());
    let mut g = game("3nw4/8/2NW1ee3/5SS2/8/8/8/5NE2 B", &[]);
    let m = Move::parse(&a.best).unwrap();
    assert!(g.play(m).is_ok() && g.is_over(), "{} does not zap", a.best);
    // A forced zap in 3 plies is a mate in 2: `mate 1` proves there is no
    // mate in 1 at depth 1 and stops there; `mate 2` finds it.
    let forced = "ne7/ee7/7nw/8/3sw3SS/8/1sw6/NE7 B";
    e.send(&format!("position fen {forced}"));
    e.send("go mate 1");
    let a = e.answer(PROMPT);
    assert_eq!(a.last().depth, 1, "{:?}", a.infos);
    assert!(!matches!(a.last().score, Score::Mate(k) if k > 0));
    e.send("go mate 2");
    let a = e.answer(PROMPT);
    assert_eq!(a.last().score, Score::Mate(2), "{:?}", a.last());
    assert!(a.last().depth <= 3, "{:?}", a.infos);
    e.quit();
}

#[test]
fn go_searchmoves_searches_only_those_root_moves() {
    let mut e = Engine::spawn();
    e.send("position startpos");
    for only in [&["d1R"][..], &["h0L", "f3f4"]] {
        e.send(&format!("go depth 4 searchmoves {}", only.join(" ")));
        let a = e.answer(PROMPT);
        assert!(
            only.contains(&a.best.as_str()),
            "{} not in {only:?}",
            a.best
        );
        for info in &a.infos {
            assert!(only.contains(&info.pv[0].as_str()), "{info:?}");
        }
    }
    // A move that is not legal here refuses the whole go.
    e.send("go depth 2 searchmoves h0L a7R");
    let (_, line) = e.line(PATIENCE);
    assert!(
        line.starts_with("info string error: go searchmoves: 'a7R'"),
        "{line}"
    );
    e.sync();
    e.quit();
}

#[test]
fn a_malformed_go_is_refused_whole() {
    let mut e = Engine::spawn();
    for go in [
        "go movetime 1.5",
        "go depth abc",
        "go wtime -5 btime 1000",
        "go depht 3",
        "go depth",
    ] {
        e.send(go);
        let (_, line) = e.line(PATIENCE);
        assert!(
            line.starts_with("info string error: go") && line.ends_with("; no search"),
            "{go}: {line}"
        );
        // Nothing else: no search started, so nothing but readyok follows.
        e.send("isready");
        assert_eq!(e.line(PATIENCE).1, "readyok", "{go}");
    }
    e.quit();
}

#[test]
fn the_end_of_the_input_stops_any_search() {
    for go in [
        "go depth 64",
        "go infinite",
        "go wtime 3600000 btime 3600000",
    ] {
        let mut e = Engine::spawn();
        // A search, not the book's instant move.
        e.send("setoption name OwnBook value false");
        e.send("position startpos");
        e.send(go);
        std::thread::sleep(Duration::from_millis(100));
        e.close_input();
        let rest = e.wait_exit();
        let bests: Vec<&String> = rest.iter().filter(|l| l.starts_with("bestmove ")).collect();
        assert_eq!(bests.len(), 1, "{go}: {rest:?}");
        let best = bests[0].split(' ').nth(1).unwrap_or("");
        assert_legal(&e, &mut game(fen::STARTPOS, &[]), best);
    }
}

#[test]
fn perft_answers_isready_and_obeys_stop_and_quit() {
    let mut e = Engine::spawn();
    e.send("perft 7");
    e.sync();
    e.send("stop");
    e.until(PATIENCE, |l| {
        l.starts_with("info string perft stopped at depth ")
    });
    e.send("perft 2");
    e.until(PATIENCE, |l| l == "perft 2 3757");
    e.send("perft 7");
    e.send("quit");
    e.close_input();
    e.wait_exit();
}

#[test]
fn more_than_eight_pieces_a_side_is_rejected_everywhere() {
    let crowded = [
        "ss7/8/8/8/8/8/NWNWNWNWNWNWNWNW/7NN W",
        "ssNWNWNWNWNWNWNW/NWNWNWNWNWNWNWNW/NWNWNWNWNWNWNWNW/NWNWNWNWNWNWNWNW/\
         nwnwnwnwnwnwnwnw/nwnwnwnwnwnwnwnw/nwnwnwnwnwnwnwnw/nwnwnwnwnwnwnwNN W",
    ];
    let mut e = Engine::spawn();
    #[cfg(feature = "debug-commands")]
    e.send("setoption name check_rep value true");
    e.send("position startpos moves h0L");
    for f in crowded {
        e.send(&format!("position fen {f}"));
        let (_, line) = e.until(PATIENCE, |l| l.contains("error"));
        assert!(
            line.contains("at most 8 (a King and seven Pawns)"),
            "{line}"
        );
    }
    // The position is the one before, and depth 1 answers for it.
    e.send("go depth 1");
    let a = e.answer(PROMPT);
    assert_legal(&e, &mut game(fen::STARTPOS, &["h0L".to_string()]), &a.best);
    e.quit();
}

#[test]
fn a_large_table_is_ready_at_once_and_can_be_cleared() {
    let mut e = Engine::spawn();
    e.send("setoption name hash value 4096");
    e.sync();
    e.send("go depth 6");
    let a = e.answer(PATIENCE);
    assert!(a.infos.iter().any(|i| i.nodes > 1000));
    e.send("ucinewgame");
    e.sync();
    e.send("go wtime 1000 btime 1000");
    e.answer(PROMPT);
    // `Clear Hash` empties the table (`dump tt` counts its entries).
    #[cfg(feature = "debug-commands")]
    {
        let entries = |e: &mut Engine| {
            e.send("dump tt");
            let (_, line) = e.until(PATIENCE, |l| l.contains("entries non-empty"));
            let n = line.split(", ").nth(1).and_then(|t| t.split(' ').next());
            n.and_then(|n| n.parse::<u64>().ok())
                .unwrap_or_else(|| e.fail("no entry count in 'dump tt'"))
        };
        e.send("setoption name hash value 1");
        e.send("go depth 6");
        e.answer(PATIENCE);
        assert!(entries(&mut e) > 1000);
        e.send("setoption name Clear Hash");
        assert_eq!(entries(&mut e), 0);
    }
    e.quit();
}

#[test]
fn error_lines_quote_briefly_and_escape_control_characters() {
    let junk = format!("\u{7}{}\u{1b}[2J", "x".repeat(4000));
    let input = format!(
        "{junk}\nposition fen {junk} W\nposition startpos moves {junk}\ngo depth {junk}\n\
         setoption name {junk} value 1\nsetoption name hash value {junk}\nquit\n"
    );
    let out = engine::run(&[], &input);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    for l in lines {
        assert!(l.starts_with("info string error"), "{l}");
        assert!(l.chars().count() < 260, "{} characters: {l}", l.len());
        assert!(!l.chars().any(char::is_control), "{l:?}");
    }
}

#[test]
fn version_and_the_d_alias() {
    let out = engine::run(&["--version"], "");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("leiserchess {}\n", env!("CARGO_PKG_VERSION"))
    );
    let out = engine::run(&[], "d\ndisplay\n");
    let text = String::from_utf8(out.stdout).unwrap();
    let half = text.len() / 2;
    assert!(text.contains(&format!("fen {}", fen::STARTPOS)));
    assert_eq!(text[..half], text[half..], "d and display differ");
}
