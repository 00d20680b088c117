//! The hybrid (`Search=hybrid`) through the engine's UCI loop, end to end
//! on the real binary: on a clock and by depth, the tree's note comes
//! before the final search's `info` lines, and the last `info` line before
//! `bestmove` is the final search's, its PV starting with the move played
//! and its nodes counting the tree's searches' too; options the search
//! chosen does not read say so when set; under a 100 ms goal, PVS alone.

use crate::common::session::{Engine, PATIENCE};

fn hybrid_engine() -> Engine {
    let mut e = Engine::spawn();
    e.send("setoption name Search value hybrid");
    e.send("setoption name OwnBook value false");
    e.sync();
    e
}

/// Sends `go` and checks its answer: one note of the tree's playouts and
/// nodes, before every `info depth` line; the last of those has the
/// bestmove first in its PV and more nodes than the tree's searches.
/// Returns the last line's depth.
fn go_and_check(e: &mut Engine, go: &str) -> u32 {
    let from = e.transcript.len();
    e.send(go);
    let a = e.answer(PATIENCE);
    let said = &e.transcript[from..];
    let notes: Vec<usize> = (0..said.len())
        .filter(|&i| said[i].starts_with("< info string hybrid tree: "))
        .collect();
    let first_info = said.iter().position(|l| l.starts_with("< info depth "));
    let [note] = notes[..] else {
        e.fail(&format!("{go}: not one tree note"));
    };
    if first_info.is_none_or(|i| i < note) {
        e.fail(&format!("{go}: no info line after the tree's note"));
    }
    // "info string hybrid tree: P playouts, N nodes in its searches"
    let words: Vec<&str> = said[note].split_whitespace().collect();
    let tree_nodes: u64 = words[7]
        .parse()
        .unwrap_or_else(|_| e.fail("the note's nodes"));
    let last = a.last();
    if last.pv.first() != Some(&a.best) {
        e.fail(&format!("{go}: the last PV does not start with {}", a.best));
    }
    if last.nodes <= tree_nodes {
        e.fail(&format!(
            "{go}: {} nodes, the tree's {tree_nodes}",
            last.nodes
        ));
    }
    last.depth
}

#[test]
fn the_last_info_line_is_the_final_search_s_with_every_node() {
    let mut e = hybrid_engine();
    e.send("position startpos moves f3f4 d5U e1R e6U");
    go_and_check(&mut e, "go movetime 600");
    go_and_check(&mut e, "go wtime 3000 btime 3000 winc 30 binc 30");
    assert_eq!(go_and_check(&mut e, "go depth 4"), 4);
    e.quit();
}

/// At 0.1+0.001 (a goal of a few ms) the hybrid grows no tree: it says
/// so and PVS alone answers, as `Search=pvs` would.
#[test]
fn a_goal_under_100_ms_is_pvs_alone() {
    let mut e = hybrid_engine();
    e.send("position startpos moves f3f4 d5U e1R e6U");
    let from = e.transcript.len();
    e.send("go wtime 100 btime 100 winc 1 binc 1");
    let a = e.answer(PATIENCE);
    let said = &e.transcript[from..];
    let alone: Vec<&String> = said
        .iter()
        .filter(|l| l.starts_with("< info string hybrid: a goal of "))
        .collect();
    let [note] = alone[..] else {
        e.fail("not one note of PVS alone");
    };
    if !note.ends_with(" µs is under 100 ms: PVS alone") {
        e.fail(&format!("the note: {note}"));
    }
    if said.iter().any(|l| l.contains("hybrid tree:")) {
        e.fail("a tree grew under a 100 ms goal");
    }
    if a.last().pv.first() != Some(&a.best) {
        e.fail("the last PV does not start with the move played");
    }
    e.quit();
}

#[test]
fn an_option_the_search_does_not_read_says_so() {
    let mut e = Engine::spawn();
    for (line, said) in [
        (
            "setoption name Search value pvs",
            "info string Search set to pvs",
        ),
        (
            "setoption name mcts_cpuct value 200",
            "info string mcts_cpuct set to 200; no effect while Search is pvs (it serves mcts and hybrid)",
        ),
        (
            "setoption name Search value mcts",
            "info string Search set to mcts",
        ),
        (
            "setoption name hybrid_tree_time value 40",
            "info string hybrid_tree_time set to 40; no effect while Search is mcts (it serves hybrid)",
        ),
        (
            "setoption name Search value pvs",
            "info string Search set to pvs; no effect under pvs: mcts_cpuct, hybrid_tree_time",
        ),
        (
            "setoption name Search value hybrid",
            "info string Search set to hybrid",
        ),
    ] {
        e.send(line);
        let (_, got) = e.line(PATIENCE);
        if got != said {
            e.fail(&format!("{line}: said '{got}', not '{said}'"));
        }
    }
    e.quit();
}
