//! Monte-Carlo tree search through the engine's UCI loop, end to end on the
//! real binary: `setoption name Search value mcts` switches the search; a
//! `go` on the clock, by playouts or infinite answers one legal `bestmove`
//! in varied positions; `stop` is answered at once; a King zap in one is
//! played with a mate score; a small tree budget fills and says so, and
//! the full tree reused stays consistent; a bad
//! choice is refused naming the choices and changes nothing.

use leiserchess::rules::fen;
use leiserchess::rules::game::Game;
use session::{Engine, Score, PATIENCE};
use std::time::{Duration, Instant};

use crate::common::session;

/// What "at once" means for `stop` (hang detection, not a speed goal).
const AT_ONCE: Duration = Duration::from_secs(2);

fn mcts_engine() -> Engine {
    let mut e = Engine::spawn();
    e.send("setoption name Search value mcts");
    e.send("setoption name OwnBook value false");
    e.sync();
    e
}

/// Plays `moves` from the start and checks `best` is legal after them.
fn legal_after(moves: &[String], best: &str) -> bool {
    let mut g = Game::from_fen(fen::STARTPOS).unwrap();
    for m in moves {
        g.play_text(m).unwrap();
    }
    g.legal_moves().iter().any(|m| m.to_string() == best)
}

#[test]
fn mcts_plays_a_game_of_legal_moves_by_playouts_and_on_the_clock() {
    let mut e = mcts_engine();
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..24 {
        let position = format!("position startpos moves {}", moves.join(" "));
        e.send(position.trim_end());
        // Alternate a playout budget and a clock, as referees do.
        if ply % 2 == 0 {
            e.send("go nodes 400");
        } else {
            e.send("go wtime 2000 btime 2000 winc 20 binc 20");
        }
        let a = e.answer(PATIENCE);
        if a.best == "0000" {
            break;
        }
        assert!(legal_after(&moves, &a.best), "ply {ply}: {}", a.best);
        assert!(!a.infos.is_empty(), "ply {ply}: no info line");
        moves.push(a.best);
        let mut g = Game::from_fen(fen::STARTPOS).unwrap();
        for m in &moves {
            g.play_text(m).unwrap();
        }
        if g.outcome().is_some() {
            break;
        }
    }
    assert!(moves.len() >= 2, "{moves:?}");
    e.quit();
}

#[test]
fn stop_ends_an_infinite_mcts_at_once() {
    let mut e = mcts_engine();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let sent = e.send("stop");
    let a = e.answer(AT_ONCE);
    assert!(a.at.duration_since(sent) < AT_ONCE);
    assert!(legal_after(&[], &a.best), "{}", a.best);
    e.quit();
}

#[test]
fn a_zap_in_one_is_played_with_a_mate_score() {
    let mut e = mcts_engine();
    // The bench's tactical position: White zaps Black's King in one.
    e.send("position fen 8/8/8/8/8/8/3nn1SS2/1SW6 W");
    e.send("go nodes 20000");
    let a = e.answer(PATIENCE);
    assert_eq!(a.infos.last().unwrap().score, Score::Mate(1), "{a:?}");
    let mut g = Game::from_fen("8/8/8/8/8/8/3nn1SS2/1SW6 W").unwrap();
    g.play_text(&a.best).unwrap();
    assert!(g.outcome().is_some(), "{} does not end the game", a.best);
    e.quit();
}

#[test]
fn a_small_tree_fills_says_so_and_still_answers() {
    let mut e = mcts_engine();
    e.send("setoption name mcts_tree_mb value 1");
    e.send("position startpos");
    let start = Instant::now();
    e.send("go nodes 5000");
    let (_, said) = e.until(PATIENCE, |l| {
        l.starts_with("info string the search tree filled")
    });
    assert!(said.contains("(1 MB)"), "{said}");
    let a = e.answer(PATIENCE);
    assert!(legal_after(&[], &a.best), "{}", a.best);
    assert!(start.elapsed() < PATIENCE);
    e.quit();
}

/// A tree that filled is kept and compacted for the next move, where it
/// has room again: positions that ended playouts while it was full become
/// nodes then, with those playouts counted (`check_rep` of every playout
/// and of the tree, on one thread and on two).
#[cfg(feature = "debug-commands")]
#[test]
fn a_full_tree_reused_with_room_again_stays_consistent() {
    for threads in [1, 2] {
        let mut e = mcts_engine();
        e.send("setoption name check_rep value true");
        e.send("setoption name mcts_tree_mb value 1");
        e.send(&format!("setoption name Threads value {threads}"));
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..4 {
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            e.send("go nodes 4000");
            let a = e.answer(PATIENCE);
            assert!(legal_after(&moves, &a.best), "{} after {moves:?}", a.best);
            moves.push(a.best);
        }
        e.sync();
        e.quit();
    }
}

#[test]
fn a_bad_choice_is_refused_and_the_search_stays() {
    let mut e = Engine::spawn();
    e.send("uci");
    let (_, line) = e.until(PATIENCE, |l| l.starts_with("option name Search "));
    assert_eq!(
        line,
        "option name Search type combo default hybrid var pvs var mcts var bestfirst var hybrid"
    );
    e.send("setoption name Search value pvs");
    e.until(PATIENCE, |l| l == "info string Search set to pvs");
    e.send("setoption name Search value alphabeta");
    let (_, said) = e.until(PATIENCE, |l| l.starts_with("info string"));
    assert_eq!(
        said,
        "info string error: option 'Search' wants one of pvs, mcts, bestfirst, hybrid, got 'alphabeta'"
    );
    // Still PVS: an MCTS option says it has no effect, and the iterations
    // go depth by depth from 1.
    e.send("setoption name mcts_cpuct value 200");
    let (_, said) = e.line(PATIENCE);
    assert_eq!(
        said,
        "info string mcts_cpuct set to 200; no effect while Search is pvs (it serves mcts and hybrid)"
    );
    e.send("position startpos");
    e.send("go depth 3");
    let a = e.answer(PATIENCE);
    let depths: Vec<u32> = a.infos.iter().map(|i| i.depth).collect();
    assert_eq!(depths, [1, 2, 3]);
    e.quit();
}

#[test]
fn the_next_move_starts_from_the_kept_tree_until_ucinewgame() {
    let mut e = mcts_engine();
    let reused = |e: &mut Engine, moves: &str| {
        e.send(&format!("position startpos moves {moves}"));
        let from = e.transcript.len();
        e.send("go nodes 10");
        let a = e.answer(PATIENCE);
        let said = e.transcript[from..]
            .iter()
            .any(|l| l.starts_with("< info string the search started from the last tree's"));
        (a, said)
    };
    e.send("position startpos");
    e.send("go nodes 6000");
    let a = e.answer(PATIENCE);
    let ponder = a.ponder.clone().expect("a ponder move after 6000 playouts");
    let line = format!("{} {ponder}", a.best);
    assert!(reused(&mut e, &line).1, "no reuse after {line}");
    e.send("ucinewgame");
    e.send("position startpos");
    e.send("go nodes 6000");
    e.answer(PATIENCE);
    e.send("ucinewgame");
    assert!(!reused(&mut e, &line).1, "a tree kept across ucinewgame");
    e.quit();
}

#[test]
fn multipv_lists_the_most_visited_root_moves_with_their_scores() {
    let mut e = mcts_engine();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go nodes 3000");
    let a = e.answer(PATIENCE);
    let last: Vec<&str> = e
        .transcript
        .iter()
        .filter_map(|l| l.strip_prefix("< "))
        .filter(|l| l.starts_with("info depth"))
        .collect();
    let tail = &last[last.len() - 3..];
    for (k, l) in tail.iter().enumerate() {
        assert!(l.contains(&format!(" multipv {} ", k + 1)), "{l}");
    }
    assert!(tail[0].contains(&format!(" pv {}", a.best)), "{}", tail[0]);
    let firsts: Vec<&str> = tail
        .iter()
        .map(|l| l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap())
        .collect();
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2],
        "{firsts:?}"
    );
    e.quit();
}
