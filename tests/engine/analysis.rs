//! The analysis options end to end on the real binary: `MultiPV k` prints k
//! ranked lines an iteration, each with a different first move and its own
//! score, and `bestmove` is the first line's move; `UCI_ShowWDL` puts a
//! `wdl W D L` summing to 1000 after each score; with the defaults the
//! `info` line has neither word.

use leiserchess::rules::game::Game;
use session::{Engine, PATIENCE};

use crate::common::session;

/// The `info depth …` lines of one `go`, up to its `bestmove` move.
fn infos(e: &mut Engine, go: &str) -> (Vec<String>, String) {
    e.send(go);
    let mut lines = Vec::new();
    loop {
        let (_, line) = e.line(PATIENCE);
        if let Some(best) = line.strip_prefix("bestmove ") {
            let best = best.split(' ').next().unwrap_or("").to_string();
            return (lines, best);
        }
        if line.starts_with("info depth ") {
            lines.push(line);
        }
    }
}

/// The value after `key` in an `info` line.
fn after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split(' ').collect();
    let at = words.iter().position(|w| *w == key)?;
    words.get(at + 1).copied()
}

#[test]
fn multipv_prints_ranked_lines_and_wdl_sums_to_a_thousand() {
    let mut e = Engine::spawn();
    e.send("setoption name MultiPV value 3");
    e.send("setoption name UCI_ShowWDL value true");
    e.send("position startpos moves g4L");
    let (lines, best) = infos(&mut e, "go depth 5");
    let last: Vec<&String> = lines
        .iter()
        .filter(|l| after(l, "depth") == Some("5"))
        .collect();
    assert_eq!(last.len(), 3, "{lines:#?}");
    let mut firsts = Vec::new();
    let mut scores = Vec::new();
    for (k, line) in last.iter().enumerate() {
        assert_eq!(
            after(line, "multipv"),
            Some(&*(k + 1).to_string()),
            "{line}"
        );
        let cp: i32 = after(line, "cp").expect("a cp score").parse().unwrap();
        scores.push(cp);
        let words: Vec<&str> = line.split(' ').collect();
        let w = words.iter().position(|w| *w == "wdl").expect("wdl") + 1;
        let wdl: Vec<u32> = words[w..w + 3].iter().map(|n| n.parse().unwrap()).collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{line}");
        firsts.push(after(line, "pv").unwrap().to_string());
    }
    assert!(scores.windows(2).all(|s| s[0] >= s[1]), "{scores:?}");
    let mut distinct = firsts.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "{firsts:?}");
    assert_eq!(best, firsts[0]);
    let mut game = Game::from_fen(leiserchess::rules::fen::STARTPOS).unwrap();
    game.play_text("g4L").unwrap();
    let legal: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    assert!(firsts.iter().all(|m| legal.contains(m)), "{firsts:?}");
    e.quit();
}

#[test]
fn defaults_print_one_line_without_multipv_or_wdl() {
    let mut e = Engine::spawn();
    e.send("position startpos moves g4L");
    let (lines, best) = infos(&mut e, "go depth 4");
    assert_eq!(lines.len(), 4, "{lines:#?}");
    for line in &lines {
        assert!(
            !line.contains(" multipv ") && !line.contains(" wdl "),
            "{line}"
        );
    }
    assert_eq!(after(lines.last().unwrap(), "pv"), Some(&*best));
    e.quit();
}

#[test]
fn more_lines_than_moves_stop_at_the_moves() {
    // The two Kings alone: each has a handful of moves.
    let mut e = Engine::spawn();
    e.send("setoption name MultiPV value 16");
    e.send("position endgame");
    let (lines, _) = infos(&mut e, "go depth 2");
    let game = Game::from_fen(leiserchess::rules::fen::ENDGAME).unwrap();
    let moves = game.clone().legal_moves().len();
    assert!(moves < 16, "{moves}");
    let depth2 = lines
        .iter()
        .filter(|l| after(l, "depth") == Some("2"))
        .count();
    assert_eq!(depth2, moves, "{lines:#?}");
    e.quit();
}
