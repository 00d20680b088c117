//! `mcts_root_time`: on a clock, the tree's playouts end at their share of
//! the goal and the root is searched again by PVS with the rest, its move
//! the one played, on one thread or two; no last search without a clock
//! (`go nodes` keeps its tree and the bench its signature), after a
//! `stop`, with the option at 0, or with `mcts_root_move` off.

use crate::common::mcts_search::Mcts;
use leiserchess::rules::game::Game;
use leiserchess::search::mcts::{self, Outcome};
use leiserchess::search::time::SearchLimits;
use leiserchess::search::{Params, Root, Shared};
use std::sync::atomic::Ordering;

/// A quiet middle-game position: no zap in reach decides it.
fn game() -> Game {
    let mut game = Game::from_fen(leiserchess::rules::fen::STARTPOS).unwrap();
    for m in ["f3f4", "d5U", "e1R", "e6U", "h0R", "e6U", "f4L", "e6f6"] {
        game.play_text(m).unwrap();
    }
    game
}

/// The quiet position searched with `params` on `threads` threads, in
/// `shared`'s table and under its stop flag as the caller left it.
fn search(shared: &Shared, limits: &SearchLimits, params: Params, threads: usize) -> Outcome {
    Mcts {
        params,
        ..Mcts::on(threads, mcts::DEFAULT_BUDGET)
    }
    .search_in(&Root::from_game(&game()), limits, shared, &mut None)
}

fn keeping(pct: u32) -> Params {
    Params {
        mcts_root_time: pct,
        ..Params::default()
    }
}

#[test]
fn on_a_clock_the_root_s_last_search_chooses_the_move() {
    for threads in [1, 2] {
        let o = search(
            &Shared::new(16, 4),
            &SearchLimits::movetime(300),
            keeping(50),
            threads,
        );
        let searched = o.root_searched.expect("a last search of the root");
        assert_eq!(o.answer.best, Some(searched), "{threads} threads");
        assert!(game().legal_moves().contains(&searched));
        assert!(o.answer.nodes > 0, "the tree's playouts ran first");
        let last = o.answer.last.expect("a report");
        assert_eq!(last.pv.first(), Some(&searched), "the last report says it");
    }
}

#[test]
fn no_last_search_without_the_option_a_clock_or_the_root_s_move() {
    let o = search(
        &Shared::new(16, 4),
        &SearchLimits::movetime(100),
        keeping(0),
        1,
    );
    assert!(o.root_searched.is_none());
    let off = Params {
        mcts_root_move: false,
        ..keeping(50)
    };
    let o = search(&Shared::new(16, 4), &SearchLimits::movetime(100), off, 1);
    assert!(o.root_searched.is_none());

    // `go nodes`: the same tree as without the option.
    let nodes = SearchLimits::nodes(1500);
    let with = search(&Shared::new(16, 4), &nodes, keeping(50), 1);
    let without = search(&Shared::new(16, 4), &nodes, keeping(0), 1);
    assert!(with.root_searched.is_none());
    assert_eq!(with.root_edges, without.root_edges);

    // A `stop` before the tree's share is spent answers at once.
    let shared = Shared::new(16, 4);
    shared.stop.store(true, Ordering::Relaxed);
    let stopped = search(&shared, &SearchLimits::movetime(10_000), keeping(50), 1);
    assert!(stopped.root_searched.is_none());
    assert!(game().legal_moves().contains(&stopped.answer.best.unwrap()));
}
