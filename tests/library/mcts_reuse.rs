//! Tree reuse between moves: the next search starts from the subtree under
//! the moves played, with its visits and means as they were; anything else
//! (another position, other options, `searchmoves`) starts afresh.

use crate::common::mcts_search::Mcts;
use leiserchess::rules::fen;
use leiserchess::rules::game::Game;
use leiserchess::search::mcts::{Kept, Outcome};
use leiserchess::search::time::SearchLimits;
use leiserchess::search::{Params, Root, Shared};
use std::sync::atomic::Ordering;

/// `n` playouts from the tree `kept` holds, after the stop flag is
/// cleared as the UCI loop clears it before each `go`.
fn search(
    shared: &Shared,
    root: &Root,
    n: u64,
    params: Params,
    kept: &mut Option<Kept>,
) -> Outcome {
    shared.stop.store(false, Ordering::Relaxed);
    Mcts {
        params,
        ..Mcts::default()
    }
    .search_in(root, &SearchLimits::nodes(n), shared, kept)
}

fn visits(o: &Outcome) -> u64 {
    o.root_edges.iter().map(|&(_, n, _)| u64::from(n)).sum()
}

#[test]
fn the_played_subtree_keeps_its_visits() {
    let shared = Shared::new(1, 1);
    let mut game = Game::from_fen(fen::STARTPOS).unwrap();
    let mut kept = None;
    let first = search(
        &shared,
        &Root::from_game(&game),
        4000,
        Params::default(),
        &mut kept,
    );
    assert_eq!(first.reused, 0);
    let pv = first.answer.last.as_ref().unwrap().pv.clone();
    assert!(pv.len() >= 2, "{pv:?}");
    game.play(pv[0]).unwrap();
    game.play(pv[1]).unwrap();
    // One playout more: the root's edges hold the kept visits plus it.
    let second = search(
        &shared,
        &Root::from_game(&game),
        1,
        Params::default(),
        &mut kept,
    );
    assert!(second.reused > 10, "{} playouts kept", second.reused);
    assert_eq!(visits(&second), second.reused);
    assert_eq!(second.answer.nodes, 1);
    // The same position again: the tree is taken whole, as it was.
    let again = search(
        &shared,
        &Root::from_game(&game),
        0,
        Params::default(),
        &mut kept,
    );
    assert_eq!(again.reused, second.reused + 1);
    assert_eq!(again.root_edges.len(), second.root_edges.len());
    for (a, b) in again.root_edges.iter().zip(&second.root_edges) {
        assert_eq!((a.0, a.1), (b.0, b.1));
        assert_eq!(a.2.map(f64::to_bits), b.2.map(f64::to_bits));
    }
}

#[test]
fn the_reused_tree_is_smaller_than_the_whole() {
    let shared = Shared::new(1, 1);
    let mut game = Game::from_fen(fen::STARTPOS).unwrap();
    let mut kept = None;
    let first = search(
        &shared,
        &Root::from_game(&game),
        4000,
        Params::default(),
        &mut kept,
    );
    let pv = first.answer.last.as_ref().unwrap().pv.clone();
    game.play(pv[0]).unwrap();
    game.play(pv[1]).unwrap();
    let second = search(
        &shared,
        &Root::from_game(&game),
        1,
        Params::default(),
        &mut kept,
    );
    assert!(
        second.bytes < first.bytes,
        "{} of {}",
        second.bytes,
        first.bytes
    );
}

#[test]
fn another_position_options_or_searchmoves_start_afresh() {
    let shared = Shared::new(1, 1);
    let mut game = Game::from_fen(fen::STARTPOS).unwrap();
    let root = Root::from_game(&game);
    let fresh = |kept: &mut Option<Kept>, root: &Root, params: Params| {
        let o = search(&shared, root, 1, params, kept);
        (o.reused, visits(&o))
    };
    let mut kept = None;
    search(&shared, &root, 2000, Params::default(), &mut kept);
    let other = "ss7/3nwse3/2nwse4/1nwse3SW1/1ne3NWSE1/4NWSE2/3NWSE3/7NN W";
    let other = Root::from_game(&Game::from_fen(other).unwrap());
    assert_eq!(fresh(&mut kept, &other, Params::default()), (0, 1));

    search(&shared, &root, 2000, Params::default(), &mut kept);
    let hand = Params {
        use_nnue: false,
        ..Params::default()
    };
    assert_eq!(fresh(&mut kept, &root, hand), (0, 1));

    search(&shared, &root, 2000, Params::default(), &mut kept);
    let mut only = root.clone();
    only.searchmoves = vec![game.legal_moves()[0]];
    assert_eq!(fresh(&mut kept, &only, Params::default()), (0, 1));
    // A tree searched under `searchmoves` is not the whole root's.
    assert_eq!(fresh(&mut kept, &root, Params::default()), (0, 1));
}

#[test]
fn more_lines_reported_keep_the_tree() {
    let shared = Shared::new(1, 1);
    let root = Root::from_game(&Game::from_fen(fen::STARTPOS).unwrap());
    let mut kept = None;
    search(&shared, &root, 2000, Params::default(), &mut kept);
    let lines = Params {
        multipv: 4,
        ..Params::default()
    };
    let again = search(&shared, &root, 1, lines, &mut kept);
    assert_eq!(again.reused, 2000);
    assert_eq!(again.answer.last.unwrap().lines.len(), 4);
}
