//! One `go`: what it searches (`Root`) with what its threads share
//! (`Shared`), iterative deepening on the main thread, helper threads
//! searching the same position into the shared table (Lazy SMP, odd helpers
//! one ply deeper), the stop rules, and the answer.

use super::order::{Order, MAX_PLY};
use super::time::{Plan, SearchLimits, Stability};
use super::tt::Table;
use super::{Params, Worker, MATE, MATE_BOUND};
use crate::eval::nnue::Network;
use crate::rules::board::Board;
use crate::rules::game::Game;
use crate::rules::moves::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the threads of one search share.
pub struct Shared {
    pub tt: Table,
    /// Set to end the search (by `stop`, or by the main thread's limits).
    pub stop: AtomicBool,
    /// While set, the clock does not run (`go ponder` until `ponderhit`).
    pub pondering: AtomicBool,
    /// The helper threads' nodes.
    pub nodes: AtomicU64,
    /// The learned evaluation's net (`EvalFile`), used with `use_nnue`.
    pub net: Arc<Network>,
}

impl Shared {
    /// Idle search state with a table of `hash_mb` MB in `ways`-way
    /// buckets and the embedded net.
    pub fn new(hash_mb: usize, ways: usize) -> Shared {
        Shared::with_net(hash_mb, ways, Network::shared_embedded())
    }

    /// The same with `net`.
    pub fn with_net(hash_mb: usize, ways: usize, net: Arc<Network>) -> Shared {
        Shared {
            tt: Table::new(hash_mb, ways),
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            net,
        }
    }
}

/// The position to search: the board and the keys of the game's earlier
/// positions (for repetitions and the Ko rule).
#[derive(Clone)]
pub struct Root {
    pub board: Board,
    pub history: Vec<u64>,
    pub plies_since_zap: u32,
    /// The move that led to `board`, if the game has one.
    pub last_move: Option<Move>,
    /// The root moves to search (`go searchmoves`); empty: all.
    pub searchmoves: Vec<Move>,
}

impl Root {
    /// `board` with no game before it.
    pub fn new(board: Board) -> Root {
        Root {
            board,
            history: Vec::new(),
            plies_since_zap: 0,
            last_move: None,
            searchmoves: Vec::new(),
        }
    }

    pub fn from_game(g: &Game) -> Root {
        Root {
            board: g.board().clone(),
            history: g.history().to_vec(),
            plies_since_zap: g.plies_since_zap(),
            last_move: g.moves().last().copied(),
            searchmoves: Vec::new(),
        }
    }
}

/// One completed iteration: its best line's score and moves, and with
/// `MultiPV` more than 1 the root's best lines, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub nodes: u64,
    pub pv: Vec<Move>,
    /// Every line found, the best (`score`, `pv`) first; of the main
    /// thread only.
    pub lines: Vec<Line>,
}

/// One root move's line: its score and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub score: i32,
    pub pv: Vec<Move>,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct Answer {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub last: Option<Iteration>,
    /// All threads' nodes.
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Searches `root` within `limits` with one `Order` per thread (their
/// count is the thread count), calling `report` after every completed
/// iteration with the iteration, the elapsed time and all threads' nodes.
/// With `infinite` or `ponder`, waits for `shared.stop` before answering.
/// The caller clears `shared.stop` before starting the search, so that a
/// `stop` sent at once is not lost.
pub fn think(
    root: &Root,
    limits: &SearchLimits,
    params: Params,
    shared: &Shared,
    orders: &mut [Order],
    mut report: impl FnMut(&Iteration, Duration, u64),
) -> Answer {
    let start = Instant::now();
    shared.nodes.store(0, Ordering::Relaxed);
    shared.tt.new_search();
    let plan = Plan::new(limits, start);
    let params = match limits.mate {
        Some(_) => params.exhaustive(),
        None => params,
    };
    // A mate in N moves is a King zap at ply 2N − 1: the deepest iteration
    // that can prove one, or prove there is none.
    let mate_plies = limits.mate.map(|n| 2 * n.max(1) - 1);
    let max_depth = limits
        .depth
        .into_iter()
        .chain(mate_plies)
        .min()
        .unwrap_or(MAX_PLY as u32 / 2)
        .clamp(1, MAX_PLY as u32 / 2);
    let done = |score: i32| match mate_plies {
        Some(p) => score >= MATE - p as i32,
        None => score.abs() >= MATE_BOUND && limits.depth.is_none(),
    };
    let (main_order, helper_orders) = orders.split_first_mut().expect("at least one thread");
    let (last, main_nodes) = std::thread::scope(|scope| {
        let mut helpers = Vec::with_capacity(helper_orders.len());
        for (t, order) in helper_orders.iter_mut().enumerate() {
            helpers.push(scope.spawn(move || {
                let mut w = Worker::new(root, params, shared, order, plan, None, false);
                for d in 1..=max_depth {
                    if shared.stop.load(Ordering::Relaxed)
                        || w.iterate(d + (t % 2) as u32).is_none()
                    {
                        break;
                    }
                }
                // `poll` has counted every full 1024.
                shared.nodes.fetch_add(w.nodes() % 1024, Ordering::Relaxed);
            }));
        }
        let mut w = Worker::new(root, params, shared, main_order, plan, limits.nodes, true);
        let mut last: Option<Iteration> = None;
        // Iterations in a row that gave the current best move.
        let mut streak = 0;
        for d in 1..=max_depth {
            let Some(it) = w.iterate(d) else { break };
            let helpers = shared.nodes.load(Ordering::Relaxed);
            report(&it, start.elapsed(), helpers + it.nodes);
            let proven = done(it.score);
            let best = |i: &Iteration| i.pv.first().copied();
            let same = last.as_ref().is_some_and(|l| best(l) == best(&it));
            streak = if same { streak + 1 } else { 1 };
            let stability = Stability::of(streak, last.is_none());
            last = Some(it);
            let clock = !shared.pondering.load(Ordering::Relaxed);
            if shared.stop.load(Ordering::Relaxed) || clock && plan.past_soft(stability) || proven {
                break;
            }
        }
        // `go infinite` and pondering answer only when told to stop.
        while (limits.infinite || shared.pondering.load(Ordering::Relaxed))
            && !shared.stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        shared.stop.store(true, Ordering::Relaxed);
        // Joined by hand: the scope's own wait ends when the closures
        // return, before the threads have exited; one still exiting when
        // the process ends leaves its stack behind (valgrind: possibly lost).
        for h in helpers {
            h.join().expect("a search helper panicked");
        }
        (last, w.nodes())
    });
    let best = last.as_ref().and_then(|it| it.pv.first().copied());
    Answer {
        best,
        ponder: last.as_ref().and_then(|it| it.pv.get(1).copied()),
        last,
        nodes: main_nodes + shared.nodes.load(Ordering::Relaxed),
        elapsed: start.elapsed(),
    }
}

/// A fixed-depth search of `root` on one thread with a fresh table of
/// `hash_mb` MB in `ways`-way buckets: deterministic.
pub fn search_depth(
    root: &Root,
    depth: u32,
    params: Params,
    hash_mb: usize,
    ways: usize,
) -> Answer {
    let shared = Shared::new(hash_mb, ways);
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    think(
        root,
        &limits,
        params,
        &shared,
        &mut [Order::default()],
        |_, _, _| {},
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen;

    /// With `null_r` on, the bench positions cost fewer nodes, and every
    /// King zap the full search proves is still proven. The hand-written
    /// evaluation: a tenth of the nodes is its measured saving at depth 5
    /// (the net's is smaller, 7%).
    #[test]
    fn null_move_pruning_prunes_and_keeps_forced_zaps() {
        let hand = Params {
            use_nnue: false,
            ..Params::default()
        };
        let with = Params { null_r: 3, ..hand };
        let (mut plain_nodes, mut null_nodes, mut zaps) = (0, 0, 0);
        for text in super::super::bench::POSITIONS {
            let root = Root::new(fen::parse(text).unwrap());
            let plain = search_depth(&root, 5, hand, 1, 4);
            let null = search_depth(&root, 5, with, 1, 4);
            plain_nodes += plain.nodes;
            null_nodes += null.nodes;
            let score = |a: &Answer| a.last.as_ref().unwrap().score;
            if score(&plain) >= MATE_BOUND {
                zaps += 1;
                assert!(score(&null) >= MATE_BOUND, "{text}");
            }
        }
        assert!(
            zaps > 0 && null_nodes < plain_nodes * 9 / 10,
            "{null_nodes} vs {plain_nodes}"
        );
    }

    /// Lavender to move in the two Kings' endgame after h0g0 a7b7 g0h0,
    /// searched one ply with only b7a7, which brings back the start.
    fn back_to_the_start(game: &Game, params: Params) -> i32 {
        let mut root = Root::from_game(game);
        root.searchmoves = vec![Move::parse("b7a7").unwrap()];
        let answer = search_depth(&root, 1, params, 1, 4);
        answer.last.expect("an iteration").score
    }

    #[test]
    fn the_search_scores_a_second_occurrence_as_a_draw() {
        let params = Params {
            draw: 37,
            ..Params::default()
        };
        let mut game = Game::from_fen(fen::ENDGAME).unwrap();
        for m in ["h0g0", "a7b7", "g0h0"] {
            game.play_text(m).unwrap();
        }
        // The game would not call it a draw (its third occurrence would).
        assert_eq!(back_to_the_start(&game, params), 37);
        // Without the game before it the same move is searched and scored.
        let fresh = Game::new(game.board().clone());
        assert_ne!(back_to_the_start(&fresh, params), 37);
    }
}
