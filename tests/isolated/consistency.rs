//! Consistency checks of the rules and the search, each case in a process
//! of its own (`main.rs`), so that a crash is that case's failure:
//! * `playout/…`: random playouts (fixed seeds) from several positions; at
//!   every position every generated move is made and unmade, and after each
//!   `make` and `unmake` the board's bookkeeping (`Board::check_rep_with`,
//!   `key() == compute_key()`, occupancy, King squares) is checked, and the
//!   unmade board must equal the board before.
//! * `game/…`: random games through `Game`: history, moves, the no-zap
//!   clock, repetitions, the outcome and the Ko rule agree with a
//!   recomputation, and replaying the moves gives the same game.
//! * `search/…`: fixed-depth searches of a few positions (one and two
//!   threads, two racing or sharing the tree, a 1 MB table of 1 and 4 ways,
//!   several searches in a row along a game), then the table's and the move-ordering tables' `check_rep`.

use crate::common::rng::Rng;
use crate::{case, Case};
use leiserchess::check_rep::CheckRep;
use leiserchess::rules::board::Board;
use leiserchess::rules::fen;
use leiserchess::rules::game::{Game, MoveError, Outcome};
use leiserchess::rules::movegen;
use leiserchess::rules::moves::{Move, MoveList};
use leiserchess::rules::piece::{Color, Kind};
use leiserchess::rules::square::Square;
use leiserchess::search::bench::POSITIONS;
use leiserchess::search::pvs::order::Order;
use leiserchess::search::pvs::think;
use leiserchess::search::time::SearchLimits;
use leiserchess::search::{Params, Root, Shared};
use std::sync::atomic::Ordering;

/// The playout, game and search cases.
pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for seed in 1..=4u64 {
        v.push(case(format!("playout/startpos_seed{seed}"), move || {
            playout(fen::STARTPOS, seed, 300)
        }));
    }
    v.push(case("playout/endgame_seed5", || {
        playout(fen::ENDGAME, 5, 200)
    }));
    v.push(case("playout/bench_positions", || {
        for (i, text) in POSITIONS.iter().enumerate() {
            playout(text, 100 + i as u64, 80);
        }
    }));
    for seed in 1..=3u64 {
        v.push(case(format!("game/startpos_seed{seed}"), move || {
            game_history(fen::STARTPOS, seed, 400)
        }));
    }
    v.push(case("game/bench_positions", || {
        for (i, text) in POSITIONS.iter().enumerate() {
            game_history(text, 200 + i as u64, 120);
        }
    }));
    v.push(case("search/one_thread_4_ways", || {
        search_positions(1, 4, 5, LAZY)
    }));
    v.push(case("search/one_thread_1_way", || {
        search_positions(1, 1, 5, LAZY)
    }));
    v.push(case("search/two_threads_4_ways", || {
        search_positions(2, 4, 5, LAZY)
    }));
    v.push(case("search/two_threads_split", || {
        search_positions(2, 4, 5, 2)
    }));
    v.push(case("search/game_two_threads", || {
        search_game(2, 4, 16, LAZY)
    }));
    v.push(case("search/game_two_threads_split", || {
        search_game(2, 4, 16, 2)
    }));
    v
}

fn generated(b: &Board) -> Vec<Move> {
    let mut list = MoveList::new();
    movegen::generate(b, &mut list);
    list.iter().collect()
}

fn piece_count(b: &Board) -> usize {
    b.squares().iter().flatten().count()
}

/// The board's bookkeeping against its squares. `zapped_king`: right after
/// a `make` that zapped a King, when one King is missing by design.
fn check_board(b: &Board, zapped_king: bool, what: &dyn Fn() -> String) {
    assert_eq!(
        b.key(),
        b.compute_key(),
        "key differs from compute_key: {}",
        what()
    );
    for c in Color::BOTH {
        let from_squares = Square::all()
            .filter(|&s| b.piece_at(s).is_some_and(|p| p.color() == c))
            .fold(0u64, |bits, s| bits | s.bit());
        assert_eq!(b.pieces(c), from_squares, "{c:?} occupancy: {}", what());
        if !zapped_king {
            let k = b.piece_at(b.king(c));
            assert!(
                k.is_some_and(|p| p.is_king() && p.color() == c),
                "{c:?} King square holds {k:?}: {}",
                what()
            );
            assert_eq!(b.count(c, Kind::King), 1, "{c:?} Kings: {}", what());
        }
    }
    assert_eq!(
        b.occupied(),
        b.pieces(Color::White) | b.pieces(Color::Black),
        "occupied(): {}",
        what()
    );
    if let Err(e) = b.check_rep_with(zapped_king) {
        panic!("Board::check_rep_with({zapped_king}): {e}: {}", what());
    }
}

/// A random playout from `start`: at every position, every generated move
/// is made and unmade with the board checked after each; then a random
/// legal move (preferring zaps half the time) is played.
fn playout(start: &str, seed: u64, plies: usize) {
    let mut rng = Rng(seed);
    let mut game = Game::from_fen(start).expect("a valid FEN");
    for ply in 0..plies {
        let mut b = game.board().clone();
        let position = fen::to_fen(&b);
        let here = || format!("{position} (seed {seed}, ply {ply})");
        check_board(&b, false, &here);
        let before = b.clone();
        let mut zaps = Vec::new();
        for m in generated(&b) {
            let at = || format!("after make {m} in {}", here());
            let undo = b.make(m);
            assert_ne!(b.side(), before.side(), "side to move: {}", at());
            check_board(&b, undo.king_zapped(), &at);
            if undo.zapped.is_some() {
                zaps.push(m);
            }
            b.unmake(m, undo);
            let at = || format!("after unmake {m} in {}", here());
            check_board(&b, false, &at);
            assert_eq!(b, before, "unmake does not restore the board: {}", at());
        }
        let legal = game.legal_moves();
        if legal.is_empty() {
            assert!(game.outcome().is_some(), "no legal move: {}", here());
            break;
        }
        let zaps: Vec<Move> = zaps.into_iter().filter(|m| legal.contains(m)).collect();
        let m = match rng.pick(&zaps) {
            Some(m) if rng.below(2) == 0 => m,
            _ => legal[rng.below(legal.len())],
        };
        game.play(m)
            .unwrap_or_else(|e| panic!("legal move {m} refused ({e}): {}", here()));
        if game.outcome().is_some() {
            break;
        }
    }
}

/// A random game through `Game`, recomputing its bookkeeping alongside.
fn game_history(start: &str, seed: u64, plies: usize) {
    let mut rng = Rng(seed);
    let mut game = Game::from_fen(start).expect("a valid FEN");
    let mut keys: Vec<u64> = Vec::new();
    let mut since_zap = 0u32;
    for ply in 0..plies {
        let position = fen::to_fen(game.board());
        let here = || format!("{position} (seed {seed}, ply {ply})");
        assert_eq!(game.history(), &keys[..], "history: {}", here());
        assert_eq!(
            game.moves().len(),
            keys.len(),
            "moves vs history: {}",
            here()
        );
        assert_eq!(
            game.plies_since_zap(),
            since_zap,
            "no-zap clock: {}",
            here()
        );
        let legal = game.legal_moves();
        if game.outcome().is_some() {
            assert!(legal.is_empty(), "moves after the end: {}", here());
            break;
        }
        assert!(!legal.is_empty(), "no legal move, no outcome: {}", here());
        // The Ko rule: every generated move is either legal or refused as Ko.
        let before = game.board().key();
        for m in generated(game.board()) {
            let mut b = game.board().clone();
            b.make(m);
            let ko = b.key() == before ^ leiserchess::rules::zobrist::SIDE_KEY
                || keys.last() == Some(&b.key());
            assert_eq!(legal.contains(&m), !ko, "Ko rule for {m}: {}", here());
            if ko {
                let mut g = game.clone();
                assert_eq!(g.play(m), Err(MoveError::Ko(m)), "{m}: {}", here());
            }
        }
        let m = legal[rng.below(legal.len())];
        let pieces = piece_count(game.board());
        let mover = game.board().side();
        keys.push(before);
        game.play(m)
            .unwrap_or_else(|e| panic!("legal move {m} refused ({e}): {}", here()));
        let zapped = piece_count(game.board()) < pieces;
        since_zap = if zapped { 0 } else { since_zap + 1 };
        let b = game.board();
        let king_gone = Color::BOTH.iter().any(|&c| !b.has_king(c));
        check_board(b, king_gone, &here);
        let seen = 1 + keys.iter().filter(|&&k| k == b.key()).count();
        let expected = if king_gone {
            let loser = Color::BOTH.into_iter().find(|&c| !b.has_king(c)).unwrap();
            assert!(loser == mover || loser == mover.opp());
            Some(Outcome::KingZapped {
                winner: loser.opp(),
            })
        } else if seen >= 3 {
            Some(Outcome::Repetition)
        } else if since_zap >= 100 {
            Some(Outcome::NoZap)
        } else {
            None
        };
        assert_eq!(game.outcome(), expected, "outcome after {m}: {}", here());
        if let Some(o) = expected {
            assert_eq!(game.clone().play(m), Err(MoveError::GameOver(o)));
        }
    }
    // Replaying the moves gives the same game.
    let mut again = Game::from_fen(start).expect("a valid FEN");
    for &m in game.moves() {
        again.play(m).expect("a replayed move is legal");
    }
    assert_eq!(again.board(), game.board(), "replay: board");
    assert_eq!(again.history(), game.history(), "replay: history");
    assert_eq!(again.outcome(), game.outcome(), "replay: outcome");
}

/// Search state with a 1 MB table (small: entries get replaced).
fn shared(ways: usize) -> Shared {
    Shared::new(1, ways)
}

/// `split_depth` for threads that race through the whole tree (Lazy SMP)
/// rather than share it.
const LAZY: u32 = 0;

/// The default parameters with `split_depth`.
fn params(split_depth: u32) -> Params {
    Params {
        split_depth,
        ..Params::default()
    }
}

/// Searches `root` to `depth` with `orders.len()` threads (sharing nodes
/// from `split_depth` plies deep, or racing with `LAZY`), then checks the
/// answer and every table.
fn search_and_check(
    root: &Root,
    sh: &Shared,
    orders: &mut [Order],
    depth: u32,
    split_depth: u32,
    what: &str,
) {
    let limits = SearchLimits::depth(depth);
    // `think` leaves `stop` set; the caller clears it before a search.
    sh.stop.store(false, Ordering::Relaxed);
    let answer = think(root, &limits, params(split_depth), sh, orders, |_, _, _| {});
    let mut game = Game::new(root.board.clone());
    let legal = game.legal_moves();
    let best = answer
        .best
        .unwrap_or_else(|| panic!("no best move: {what}"));
    assert!(
        generated(&root.board).contains(&best),
        "best move {best} is not a move: {what}"
    );
    if root.history.is_empty() {
        assert!(legal.contains(&best), "best move {best} illegal: {what}");
    }
    check_tables(sh, orders, what);
}

/// The table's and every thread's move-ordering tables' invariants.
fn check_tables(sh: &Shared, orders: &[Order], what: &str) {
    assert_eq!(sh.tt.check_rep(), Ok(()), "tt: {what}");
    for (i, o) in orders.iter().enumerate() {
        assert_eq!(o.check_rep(), Ok(()), "order (thread {i}): {what}");
    }
}

/// Every bench position searched to `depth` with a fresh 1 MB table.
fn search_positions(threads: usize, ways: usize, depth: u32, split_depth: u32) {
    for (i, text) in POSITIONS.iter().enumerate() {
        let game = Game::from_fen(text).expect("a bench FEN");
        let root = Root::from_game(&game);
        let sh = shared(ways);
        let mut orders: Vec<Order> = (0..threads).map(|_| Order::default()).collect();
        let what = format!(
            "position {i} {text}, {threads} threads, {ways} ways, split_depth {split_depth}"
        );
        search_and_check(&root, &sh, &mut orders, depth, split_depth, &what);
    }
}

/// A game from the start position, each move searched with the same table
/// and orders (so entries age and are replaced), checked after each.
fn search_game(threads: usize, ways: usize, plies: usize, split_depth: u32) {
    let mut game = Game::from_fen(fen::STARTPOS).expect("the start position");
    let sh = shared(ways);
    let mut orders: Vec<Order> = (0..threads).map(|_| Order::default()).collect();
    for ply in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let root = Root::from_game(&game);
        let what = format!("ply {ply} of {:?}", game.moves());
        let depth = 3 + (ply % 3) as u32;
        let limits = SearchLimits::depth(depth);
        sh.stop.store(false, Ordering::Relaxed);
        let answer = think(
            &root,
            &limits,
            params(split_depth),
            &sh,
            &mut orders,
            |_, _, _| {},
        );
        check_tables(&sh, &orders, &what);
        let best = answer
            .best
            .unwrap_or_else(|| panic!("no best move: {what}"));
        game.play(best)
            .unwrap_or_else(|e| panic!("the search's move {best} refused ({e}): {what}"));
    }
    // The same positions with the table's contents carried over.
    let root = Root::from_game(&game);
    if game.outcome().is_none() {
        search_and_check(&root, &sh, &mut orders, 5, split_depth, "after the game");
    }
}
