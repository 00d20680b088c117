//! The Monte-Carlo search on more than one thread: the playouts
//! asked are the playouts made, each one lands (the root's visits add up
//! and the tree's invariants hold at the end), a King zap is proven, a
//! stop ends it at once, and the memory bound holds through a long
//! `go infinite`; leaves valued by a PVS land too, and so do nodes
//! searched once they have earned their visits.

use crate::common::mcts_search::Mcts;
use leiserchess::check_rep::CheckRep;
use leiserchess::rules::fen;
use leiserchess::rules::game::Game;
use leiserchess::search::mcts::tree::{MAX_SEARCHES, ROOT};
use leiserchess::search::mcts::{self, Kept, Outcome};
use leiserchess::search::time::SearchLimits;
use leiserchess::search::{Params, Root, Shared, MATE};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// A search with a new tree, and the tree it leaves.
fn search(shared: &Shared, root: &Root, limits: &SearchLimits, engine: Mcts) -> (Outcome, Kept) {
    let mut kept = None;
    let o = engine.search_in(root, limits, shared, &mut kept);
    (o, kept.expect("the tree is kept"))
}

#[test]
fn every_playout_asked_is_made_and_lands() {
    for (text, n) in [(fen::STARTPOS, 5000), (fen::ENDGAME, 3000)] {
        let root = Root::from_game(&Game::from_fen(text).unwrap());
        let (o, kept) = search(
            &Shared::new(1, 1),
            &root,
            &SearchLimits::nodes(n),
            Mcts::on(2, mcts::DEFAULT_BUDGET),
        );
        if o.answer
            .last
            .as_ref()
            .is_some_and(|it| it.score.abs() > MATE - 100)
        {
            // Proven before the playouts ran out.
            assert!(o.answer.nodes <= n);
        } else {
            assert_eq!(o.answer.nodes, n, "{text}");
            let visits: u64 = o.root_edges.iter().map(|e| u64::from(e.1)).sum();
            assert_eq!(visits, n, "{text}");
        }
        assert_eq!(kept.tree().check_rep(), Ok(()), "{text}");
    }
}

/// With leaves valued by a PVS (`mcts_ab`), each thread runs its own:
/// every playout lands, and the tree holds.
#[test]
fn searched_leaves_land_on_two_threads() {
    let root = Root::from_game(&Game::from_fen(fen::STARTPOS).unwrap());
    let params = Params {
        mcts_ab: 2,
        mcts_pv_prior: 50,
        mcts_ab_visits: 0,
        ..Params::default()
    };
    let engine = Mcts {
        params,
        ..Mcts::on(2, mcts::DEFAULT_BUDGET)
    };
    let mut kept = None;
    let o = engine.search_in(
        &root,
        &SearchLimits::nodes(300),
        &Shared::new(1, 1),
        &mut kept,
    );
    assert_eq!(o.answer.nodes, 300);
    let visits: u64 = o.root_edges.iter().map(|e| u64::from(e.1)).sum();
    assert_eq!(visits, 300);
    assert_eq!(kept.unwrap().tree().check_rep(), Ok(()));
}

/// With `mcts_ab_visits` N, a node is searched by the first walk that
/// finds N playouts through it, and again at 2N, 4N … (`mcts_ab_grow`
/// 200), never earlier. A walk names only the first node due on its way,
/// and with two threads one other walk is in flight: a node waits a few
/// playouts (slack 4) and one more for each ancestor, since a line of
/// nodes with about the same visits comes due at once and is named from
/// the top, a walk each.
#[test]
fn nodes_that_earned_their_visits_are_searched_on_two_threads() {
    let root = Root::from_game(&Game::from_fen(fen::STARTPOS).unwrap());
    let at = 8;
    let params = Params {
        mcts_ab: 2,
        mcts_ab_visits: at,
        mcts_ab_grow: 200,
        mcts_pv_prior: 50,
        ..Params::default()
    };
    let engine = Mcts {
        params,
        ..Mcts::on(2, mcts::DEFAULT_BUDGET)
    };
    let mut kept = None;
    let o = engine.search_in(
        &root,
        &SearchLimits::nodes(3000),
        &Shared::new(1, 1),
        &mut kept,
    );
    assert_eq!(o.answer.nodes, 3000);
    let kept = kept.unwrap();
    let tree = kept.tree();
    assert_eq!(tree.check_rep(), Ok(()));
    let due = |visits: u32| (0..=MAX_SEARCHES).filter(|&k| at << k <= visits).count() as u8;
    let again = tree.nodes.iter().filter(|n| n.searches > 1).count();
    assert!(again > 5, "{again} nodes searched more than once");
    let mut depth = vec![0u32; tree.nodes.len()];
    let mut stack = vec![ROOT];
    while let Some(node) = stack.pop() {
        for e in tree.range(node) {
            if let Some(child) = tree.edges[e].child() {
                depth[child as usize] = depth[node as usize] + 1;
                stack.push(child);
            }
        }
    }
    for (i, n) in tree.nodes.iter().enumerate() {
        assert!(
            n.searches >= due(n.visits.saturating_sub(4 + depth[i])),
            "node {i} at depth {}: {n:?}",
            depth[i]
        );
        assert!(n.searches <= due(n.visits), "node {i}: {n:?}");
    }
}

#[test]
fn a_zap_in_one_is_proven_on_two_threads() {
    let root = Root::from_game(&Game::from_fen("8/8/8/8/8/8/3nn1SS2/1SW6 W").unwrap());
    let (o, _) = search(
        &Shared::new(1, 1),
        &root,
        &SearchLimits::nodes(100_000),
        Mcts::on(2, mcts::DEFAULT_BUDGET),
    );
    assert_eq!(o.answer.last.unwrap().score, MATE - 1);
    assert!(o.answer.nodes < 100_000);
}

#[test]
fn a_stop_ends_an_infinite_search_at_once() {
    let root = Root::from_game(&Game::from_fen(fen::STARTPOS).unwrap());
    let shared = Shared::new(1, 1);
    let infinite = SearchLimits::infinite();
    std::thread::scope(|s| {
        let search =
            s.spawn(|| search(&shared, &root, &infinite, Mcts::on(2, mcts::DEFAULT_BUDGET)));
        std::thread::sleep(Duration::from_millis(200));
        let sent = Instant::now();
        shared.stop.store(true, Ordering::Relaxed);
        let (o, _) = search.join().unwrap();
        // Hang detection, not a speed goal (BENCHMARKS.md has the figures).
        assert!(
            sent.elapsed() < Duration::from_secs(1),
            "{:?}",
            sent.elapsed()
        );
        assert!(o.answer.nodes > 0 && o.answer.best.is_some());
    });
}

#[test]
fn the_memory_bound_holds_through_a_long_infinite_search() {
    let root = Root::from_game(&Game::from_fen(fen::STARTPOS).unwrap());
    let shared = Shared::new(1, 1);
    let infinite = SearchLimits::infinite();
    let budget = 2 << 20;
    std::thread::scope(|s| {
        let search = s.spawn(|| search(&shared, &root, &infinite, Mcts::on(2, budget)));
        std::thread::sleep(Duration::from_millis(1500));
        shared.stop.store(true, Ordering::Relaxed);
        let (o, kept) = search.join().unwrap();
        assert!(
            o.tree_full,
            "{} playouts did not fill {budget} bytes",
            o.answer.nodes
        );
        assert!(o.bytes <= budget, "{} bytes", o.bytes);
        assert_eq!(kept.tree().check_rep(), Ok(()));
    });
}

/// With `check_rep` on, each playout's path is checked as it lands (a
/// broken invariant exits the process) and the whole tree at the end.
#[cfg(feature = "debug-commands")]
#[test]
fn check_rep_passes_on_one_and_two_threads() {
    let params = Params {
        check_rep: true,
        ..Params::default()
    };
    for text in [
        fen::STARTPOS,
        fen::ENDGAME,
        "ss7/3nwse3/2nwse4/1nwse3SW1/1ne3NWSE1/4NWSE2/3NWSE3/7NN W",
    ] {
        let root = Root::from_game(&Game::from_fen(text).unwrap());
        for threads in [1, 2] {
            let engine = Mcts {
                params,
                ..Mcts::on(threads, 1 << 20)
            };
            let o = engine.search(&root, &SearchLimits::nodes(4000));
            assert!(o.answer.best.is_some(), "{text} on {threads}");
        }
    }
}
