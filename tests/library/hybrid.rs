//! The hybrid (`Search=hybrid`) as a library: on a clock its tree ends at
//! its share of the goal and the final PVS, on one thread or two, chooses
//! the move and reports it, every node counted; without a clock the tree
//! has `go nodes` (or its default) playouts and the final search `go
//! depth` or `go infinite`; pondering, the tree's share runs from
//! `ponderhit`; a `stop` before the final search, or a proven
//! root, leaves the move to the tree; `bench --search hybrid`'s signature.

use leiserchess::config::EngineConfig;
use leiserchess::rules::fen;
use leiserchess::rules::game::Game;
use leiserchess::search::bench;
use leiserchess::search::hybrid::choice::By;
use leiserchess::search::hybrid::{self, limits::PLAYOUTS, Outcome};
use leiserchess::search::mcts::{Inputs, Resources};
use leiserchess::search::time::SearchLimits;
use leiserchess::search::{Iteration, Params, Root, Shared};
use std::cell::RefCell;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// A quiet middle-game position: no zap in reach decides it.
fn game() -> Game {
    let mut game = Game::from_fen(fen::STARTPOS).unwrap();
    for m in ["f3f4", "d5U", "e1R", "e6U", "h0R", "e6U", "f4L", "e6f6"] {
        game.play_text(m).unwrap();
    }
    game
}

/// What a search said, in order: `Ok` an iteration with its nodes, `Err`
/// a note.
type Said = Vec<Result<(Iteration, u64), String>>;

/// `game` searched by the hybrid within `limits` on `threads` threads, in
/// `shared`'s table under its stop flag as the caller left it.
fn search(game: &Game, shared: &Shared, limits: &SearchLimits, threads: usize) -> (Outcome, Said) {
    let said = RefCell::new(Vec::new());
    let root = Root::from_game(game);
    let inputs = Inputs {
        root: &root,
        params: Params::default(),
        shared,
        resources: Resources {
            threads,
            ..Resources::default()
        },
    };
    let mut kept = None;
    let out = hybrid::think(
        inputs,
        limits,
        &mut kept,
        |it, _, nodes| said.borrow_mut().push(Ok((it.clone(), nodes))),
        |text| said.borrow_mut().push(Err(text.to_string())),
    );
    assert!(kept.is_some(), "the tree is kept");
    (out, said.into_inner())
}

/// The final search's move, its last report and the nodes it counts.
fn check_final_search(out: &Outcome, said: &Said, what: &str) {
    let best = out.answer.best.expect("a move");
    assert_eq!(out.by, By::Search(best), "{what}");
    assert!(game().legal_moves().contains(&best), "{what}");
    assert!(out.final_nodes > 0, "{what}");
    assert_eq!(
        out.answer.nodes,
        out.tree.searched + out.final_nodes,
        "{what}"
    );
    let note = hybrid::tree_note(out.tree.answer.nodes, out.tree.searched);
    assert_eq!(said.first(), Some(&Err(note)), "{what}");
    let Some(Ok((last, nodes))) = said.last() else {
        panic!("{what}: no iteration reported: {said:?}");
    };
    assert_eq!(last.pv.first(), Some(&best), "{what}");
    assert_eq!(Some(last), out.answer.last.as_ref(), "{what}");
    assert!(*nodes > out.tree.searched, "{what}");
}

#[test]
fn on_a_clock_the_final_search_chooses_the_move_and_reports_it() {
    for threads in [1, 2] {
        let (out, said) = search(
            &game(),
            &Shared::new(16, 4),
            &SearchLimits::movetime(400),
            threads,
        );
        let what = format!("{threads} threads");
        check_final_search(&out, &said, &what);
        assert!(out.tree.answer.nodes > 0, "{what}: the tree's playouts ran");
        assert!(
            out.tree.searched > 0,
            "{what}: the tree's nodes were searched"
        );
        assert!(out.answer.elapsed < Duration::from_millis(1_000), "{what}");
    }
}

/// `go nodes N depth D`: N playouts, then the final search to depth D,
/// the same each time on one thread; `go depth D` alone: playouts until
/// one is D plies long.
#[test]
fn without_a_clock_the_tree_has_its_playouts_and_the_search_its_depth() {
    let limits = SearchLimits {
        nodes: Some(300),
        ..SearchLimits::depth(4)
    };
    let run = || search(&game(), &Shared::new(16, 4), &limits, 1);
    let ((a, said), (b, _)) = (run(), run());
    check_final_search(&a, &said, "go nodes 300 depth 4");
    assert_eq!(a.tree.answer.nodes, 300);
    assert_eq!(a.answer.last.as_ref().unwrap().depth, 4);
    assert_eq!(
        (a.answer.best, a.answer.nodes, a.tree.root_edges.clone()),
        (b.answer.best, b.answer.nodes, b.tree.root_edges)
    );
    let (depth, said) = search(&game(), &Shared::new(16, 4), &SearchLimits::depth(3), 1);
    check_final_search(&depth, &said, "go depth 3");
    assert!(depth.tree.answer.nodes < PLAYOUTS);
    assert_eq!(depth.tree.answer.last.as_ref().unwrap().depth, 3);
    assert_eq!(depth.answer.last.as_ref().unwrap().depth, 3);
}

/// `go infinite`: the tree's default playouts, then the final search
/// until `stop`.
#[test]
fn go_infinite_searches_until_stop_after_the_tree() {
    let shared = Shared::new(16, 4);
    let (out, said) = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(1_500));
            shared.stop.store(true, Ordering::Relaxed);
        });
        search(&game(), &shared, &SearchLimits::infinite(), 1)
    });
    check_final_search(&out, &said, "go infinite");
    assert_eq!(out.tree.answer.nodes, PLAYOUTS);
    assert!(out.answer.elapsed >= Duration::from_millis(1_500));
}

/// Pondering, the tree grows until `ponderhit`; its share of the clock
/// runs from then, and the final search has the rest.
#[test]
fn after_ponderhit_the_tree_s_share_runs_then_the_final_search() {
    let shared = Shared::new(16, 4);
    shared.pondering.store(true, Ordering::Relaxed);
    let limits = SearchLimits {
        ponder: true,
        ..SearchLimits::movetime(400)
    };
    let (out, said) = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            shared.pondering.store(false, Ordering::Relaxed);
        });
        search(&game(), &shared, &limits, 1)
    });
    check_final_search(&out, &said, "go ponder movetime 400, ponderhit");
    assert!(
        out.answer.elapsed >= Duration::from_millis(500),
        "{:?}",
        out.answer.elapsed
    );
}

/// A `stop` before the final search, or a root the tree proves, leaves
/// the move to the tree: its last report follows the note, with its
/// searches' nodes.
#[test]
fn a_stop_or_a_proof_leaves_the_move_to_the_tree() {
    let shared = Shared::new(16, 4);
    shared.stop.store(true, Ordering::Relaxed);
    let (stopped, said) = search(&game(), &shared, &SearchLimits::movetime(10_000), 1);
    assert_eq!((stopped.by, stopped.final_nodes), (By::Tree, 0));
    let best = stopped.answer.best.expect("a move");
    assert!(game().legal_moves().contains(&best));
    assert!(stopped.answer.elapsed < Duration::from_millis(1_000));
    assert!(said.len() <= 2 && said[0].is_err(), "{said:?}");

    let zap = Game::from_fen("2se5/SWee2swsw2/1nw6/8/8/5SE2/3SW2SW1/4SS3 B").unwrap();
    let (proven, said) = search(&zap, &Shared::new(16, 4), &SearchLimits::movetime(2_000), 1);
    assert_eq!((proven.by, proven.final_nodes), (By::Tree, 0));
    assert!(proven.tree.proven.is_some());
    let best = proven.answer.best.expect("a move");
    let mut after = zap.clone();
    after.play(best).unwrap();
    assert!(after.outcome().is_some(), "{best} zaps the King");
    let Some(Ok((last, nodes))) = said.last() else {
        panic!("no report: {said:?}");
    };
    assert_eq!(
        (last.pv.first(), *nodes),
        (Some(&best), proven.answer.nodes)
    );
}

/// The test build searches as the release build does: the hybrid's bench
/// signature is `bench/signature-hybrid.txt`, which `make signature`
/// checks in release; it covers the final searches, and differs from
/// PVS's and MCTS's.
#[test]
fn the_bench_signature_is_the_committed_one() {
    let config = EngineConfig::default();
    let (playouts, depth) = (bench::DEFAULT_PLAYOUTS, bench::HYBRID_DEPTH);
    let lines = bench::run_hybrid(playouts, depth, config.search, config.tree_mb);
    assert_eq!(lines.len(), bench::POSITIONS.len());
    for l in &lines {
        let best = l.best.unwrap_or_else(|| panic!("{}: no move", l.fen));
        let mut game = Game::from_fen(l.fen).unwrap();
        assert!(game.legal_moves().contains(&best), "{}: {best}", l.fen);
    }
    let finals: u64 = lines.iter().map(|l| l.final_nodes).sum();
    assert!(lines.iter().filter(|l| l.by_search).count() > 10);
    let total: u64 = lines.iter().map(|l| l.signature).sum();
    let committed = |file: &str| -> u64 {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        text.trim()
            .parse()
            .unwrap_or_else(|e| panic!("{file}: {e}"))
    };
    assert_eq!(
        total,
        committed("bench/signature-hybrid.txt"),
        "the hybrid bench's searches changed: the search's behaviour changed; if on purpose, \
         update bench/signature-hybrid.txt"
    );
    assert!(finals > 0 && total > finals);
    for other in ["bench/signature-pvs.txt", "bench/signature-mcts.txt"] {
        assert_ne!(total, committed(other), "{other}");
    }
}
