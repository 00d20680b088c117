//! The best-first search by depth promotion, as a library and through the
//! UCI loop: a legal answer and legal lines on the reference positions
//! (with `check_rep` on in debug builds), the same answer for the same
//! `go nodes N`, `go depth N` never exceeded, a repetition at the root
//! scored a draw, a King zap in one played, `stop` answered within 50 ms,
//! and the `Search` option and `bench` taking `bestfirst`.

use leiserchess::rules::fen;
use leiserchess::rules::game::Game;
use leiserchess::rules::moves::Move;
use leiserchess::search::bestfirst::{self, model::ErrorModel, Outcome};
use leiserchess::search::pvs::order::Order;
use leiserchess::search::time::SearchLimits;
use leiserchess::search::{Params, Root, Shared, MATE_BOUND};
use session::{Engine, Score, PATIENCE};
use std::time::Duration;

use crate::common::{reference, session};
use crate::cpu;

fn params() -> Params {
    Params {
        check_rep: cfg!(feature = "debug-commands"),
        ..Params::default()
    }
}

fn search(root: &Root, limits: &SearchLimits, params: Params) -> Outcome {
    // Small: `check_rep` scans the whole table after every leaf's search.
    let shared = Shared::new(1, 4);
    let model = ErrorModel::embedded();
    bestfirst::think(
        root,
        limits,
        params,
        &shared,
        &mut Order::default(),
        model,
        |_, _, _| {},
    )
}

/// Plays `line` on a copy of `game`; the moves after a game ends are not
/// the line's business (a leaf's line may run past a zapped King).
fn check_line(game: &Game, line: &[Move]) -> Result<(), String> {
    let mut g = game.clone();
    for (i, &m) in line.iter().enumerate() {
        if g.outcome().is_some() {
            return Ok(());
        }
        if !g.legal_moves().contains(&m) {
            return Err(format!("move {} of the line, {m}, is not legal", i + 1));
        }
        g.play(m).map_err(|e| e.to_string())?;
    }
    Ok(())
}

#[test]
fn a_legal_move_and_legal_lines_on_the_reference_positions() {
    let _cpu = cpu::shared();
    let fens = reference::fens("positions.txt");
    let some: Vec<&String> = fens.iter().step_by(2).collect();
    assert!(some.len() >= 100);
    for text in some {
        let mut game = Game::from_fen(text).unwrap();
        if game.legal_moves().is_empty() {
            continue;
        }
        let o = search(
            &Root::from_game(&game),
            &SearchLimits::nodes(4000),
            params(),
        );
        let best = o.answer.best.unwrap_or_else(|| panic!("{text}: no move"));
        assert!(game.legal_moves().contains(&best), "{text}: {best}");
        let last = o.answer.last.as_ref().expect("an iteration");
        assert_eq!(last.pv.first(), Some(&best), "{text}");
        for line in &last.lines {
            check_line(&game, &line.pv).unwrap_or_else(|e| panic!("{text}: {e}"));
        }
    }
}

#[test]
fn the_same_go_nodes_gives_the_same_search() {
    let _cpu = cpu::shared();
    let root = Root::new(fen::parse(fen::STARTPOS).unwrap());
    let a = search(&root, &SearchLimits::nodes(60_000), Params::default());
    let b = search(&root, &SearchLimits::nodes(60_000), Params::default());
    assert_eq!(a.answer.best, b.answer.best);
    assert_eq!(a.answer.nodes, b.answer.nodes);
    assert_eq!(a.promotions, b.promotions);
    assert_eq!(a.answer.last.unwrap().pv, b.answer.last.unwrap().pv);
}

#[test]
fn go_depth_bounds_every_promotion() {
    let _cpu = cpu::shared();
    for text in &leiserchess::search::bench::POSITIONS[..6] {
        let root = Root::new(fen::parse(text).unwrap());
        let limits = SearchLimits::depth(4);
        let o = search(&root, &limits, params());
        assert!(o.promotions.len() <= 5, "{text}: {:?}", o.promotions);
        let depth = o.answer.last.unwrap().depth;
        assert!((1..=4).contains(&depth), "{text}: depth {depth}");
    }
}

#[test]
fn a_repetition_at_the_root_is_scored_a_draw() {
    let _cpu = cpu::shared();
    // Lavender to move after h0g0 a7b7 g0h0: b7a7 brings back the start
    // position a second time, a draw in the tree.
    let mut game = Game::from_fen(fen::ENDGAME).unwrap();
    for m in ["h0g0", "a7b7", "g0h0"] {
        game.play_text(m).unwrap();
    }
    let mut root = Root::from_game(&game);
    root.searchmoves = vec![Move::parse("b7a7").unwrap(), Move::parse("b7b6").unwrap()];
    let p = Params {
        draw: 37,
        multipv: 2,
        ..params()
    };
    let o = search(&root, &SearchLimits::nodes(20_000), p);
    let lines = o.answer.last.unwrap().lines;
    let draw = lines
        .iter()
        .find(|l| l.pv[0] == Move::parse("b7a7").unwrap());
    assert_eq!(draw.map(|l| l.score), Some(37), "{lines:?}");
}

#[test]
fn a_king_zap_in_one_is_found() {
    let _cpu = cpu::shared();
    // The bench's tactical position: White zaps Black's King in one.
    let game = Game::from_fen("8/8/8/8/8/8/3nn1SS2/1SW6 W").unwrap();
    let o = search(
        &Root::from_game(&game),
        &SearchLimits::nodes(20_000),
        params(),
    );
    let last = o.answer.last.unwrap();
    assert!(last.score >= MATE_BOUND, "{last:?}");
    let mut after = game.clone();
    after.play(o.answer.best.unwrap()).unwrap();
    assert!(after.outcome().is_some());
}

fn engine() -> Engine {
    let mut e = Engine::spawn();
    e.send("setoption name Search value bestfirst");
    e.send("setoption name OwnBook value false");
    e.sync();
    e
}

#[test]
fn stop_answers_within_50ms() {
    let _cpu = cpu::alone();
    let mut e = engine();
    let mut figures = Vec::new();
    for pos in ["startpos", "startpos moves g4L b3L", "startpos moves h0g1"] {
        e.send(&format!("position {pos}"));
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        let sent = e.send("stop");
        let a = e.answer(PATIENCE);
        figures.push(a.at.saturating_duration_since(sent));
        assert!(!a.infos.is_empty(), "{pos}: no info line");
        let mut g = Game::from_fen(fen::STARTPOS).unwrap();
        for m in pos.split_whitespace().skip(2) {
            g.play_text(m).unwrap();
        }
        let best = Move::parse(&a.best).unwrap();
        assert!(g.legal_moves().contains(&best), "{pos}: {}", a.best);
    }
    e.quit();
    eprintln!("stop latencies: {figures:?}");
    assert!(
        figures.iter().all(|l| *l <= Duration::from_millis(50)),
        "{figures:?}"
    );
}

#[test]
fn a_clock_search_reports_depth_and_a_legal_line() {
    let _cpu = cpu::shared();
    let mut e = engine();
    e.send("position startpos moves g4L");
    e.send("go wtime 3000 btime 3000 winc 30 binc 30");
    let a = e.answer(PATIENCE);
    e.quit();
    let mut g = Game::from_fen(fen::STARTPOS).unwrap();
    g.play_text("g4L").unwrap();
    let info = a.infos.last().expect("an info line");
    assert!(info.depth >= 2, "{info:?}");
    assert!(matches!(info.score, Score::Cp(_)), "{info:?}");
    assert_eq!(info.pv.first(), Some(&a.best));
    let line: Vec<Move> = info.pv.iter().map(|m| Move::parse(m).unwrap()).collect();
    check_line(&g, &line).unwrap();
}

#[test]
fn bench_takes_bestfirst() {
    let _cpu = cpu::shared();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_leiserchess"))
        .args(["bench", "--search", "bestfirst", "3"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert_eq!(text.lines().filter(|l| l.contains("bestmove")).count(), 24);
    assert!(
        text.lines().any(|l| l.starts_with("depth  2 promotions")),
        "{text}"
    );
    assert!(text.lines().last().unwrap().starts_with("nodes "), "{text}");
}
