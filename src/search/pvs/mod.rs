//! Principal variation search (PVS): each thread's `Worker` searches with
//! null-window scouts, a quiescence search over zapping moves, late-move
//! reductions, futility and margin pruning, and a one-ply extension for
//! moves that zap an enemy piece (`worker` holds a thread's state and its
//! root, `node` the search below the root). Inside the tree a position's
//! second occurrence is a draw (`DrawRules::in_tree`).
//!
//! Here, `think`: one `go` — iterative deepening on the main thread,
//! helper threads taking shares of the main thread's nodes from
//! `split_depth` plies deep (`split`, the default) or, with `split_depth`
//! 0, searching the same position into the shared table (Lazy SMP, every
//! other helper one ply deeper), the stop rules and the
//! answer. Beside it: `movepick` (a node's moves in order) with its
//! killer and history tables (`order`), `trail` (the positions before
//! the one searched, for the draw and Ko rules), `split_points` (the
//! nodes the split search shares) and `split` (a thread's work on them),
//! and the thread's `check_rep` invariants (`check`).

/// Runs the statements only while the `check_rep` option is on, and only in
/// builds with the `debug-commands` feature: without it they do not exist,
/// and with it the cost when off is one predictable branch.
macro_rules! check_rep {
    ($self:ident, $($body:tt)*) => {
        #[cfg(feature = "debug-commands")]
        {
            if $self.params.check_rep {
                $($body)*
            }
        }
    };
}

mod check;
pub mod movepick;
mod node;
pub mod order;
mod split;
mod split_points;
mod worker;

use super::report::{Answer, Iteration};
use super::root::Root;
use super::shared::Shared;
use super::time::{Plan, SearchLimits, Stability};
use super::{Params, MATE, MATE_BOUND};
use order::{Order, MAX_PLY};
use split_points::Splits;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
pub use worker::Worker;
use worker::COUNT_EVERY;

/// Above every score.
const INF: i32 = MATE + 1;

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
    report: impl FnMut(&Iteration, Duration, u64),
) -> Answer {
    shared.tt.new_search();
    let plan = Plan::new(limits, limits.start());
    think_planned(root, limits, plan, params, shared, orders, report)
}

/// `think` on `plan`'s clock rather than the one `limits` give, in the
/// table's current generation: a search that follows another of the
/// same move (the hybrid's final search, after its tree) and
/// inherits what is left of its time.
pub fn think_planned(
    root: &Root,
    limits: &SearchLimits,
    plan: Plan,
    params: Params,
    shared: &Shared,
    orders: &mut [Order],
    mut report: impl FnMut(&Iteration, Duration, u64),
) -> Answer {
    let called = Instant::now();
    let start = plan.start;
    shared.nodes.store(0, Ordering::Relaxed);
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
    let splits = Splits::default();
    let splitting = params.split_depth > 0 && !helper_orders.is_empty();
    let splits = splitting.then_some(&splits);
    let (last, pick, main_nodes, setup) = std::thread::scope(|scope| {
        let mut helpers = Vec::with_capacity(helper_orders.len());
        for (t, order) in helper_orders.iter_mut().enumerate() {
            helpers.push(scope.spawn(move || {
                let mut w = Worker::new(root, params, shared, order, plan, None, false);
                match splits {
                    // Split search: helpers search only shares of the
                    // main thread's nodes.
                    Some(splits) => {
                        w.splits = Some(splits);
                        w.help_until(splits, None);
                    }
                    None => {
                        for d in 1..=max_depth {
                            let d = d + t as u32 % 2;
                            if shared.stop.load(Ordering::Relaxed) || w.iterate(d).is_none() {
                                break;
                            }
                        }
                    }
                }
                // `poll` has counted every full `COUNT_EVERY`.
                shared
                    .nodes
                    .fetch_add(w.nodes() % COUNT_EVERY, Ordering::Relaxed);
            }));
        }
        let mut w = Worker::new(root, params, shared, main_order, plan, limits.nodes, true);
        w.splits = splits;
        let setup = called.elapsed();
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
        // Stopped before depth 1 scored a move: the best move one ply
        // down by the static score, rather than no answer.
        let pick = if last.is_none() {
            w.static_pick()
        } else {
            None
        };
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
        (last, pick, w.nodes(), setup)
    });
    let best = last.as_ref().and_then(|it| it.pv.first().copied()).or(pick);
    Answer {
        best,
        ponder: last.as_ref().and_then(|it| it.pv.get(1).copied()),
        last,
        nodes: main_nodes + shared.nodes.load(Ordering::Relaxed),
        elapsed: start.elapsed(),
        setup: Some(setup),
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
    let limits = SearchLimits::depth(depth);
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
    use crate::rules::game::Game;
    use crate::rules::moves::Move;

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

    /// The late-move reductions cut the tree: on four bench positions at
    /// depth 6, moves reduced only after the first 24 (`lmr_r1` 24, where
    /// the two-ply reductions start) search over twice the nodes, and
    /// two-ply reductions only after the first 100 (`lmr_r2` 100) more.
    #[test]
    fn later_reductions_search_more_nodes() {
        let nodes = |params: Params| -> u64 {
            crate::search::bench::POSITIONS[..4]
                .iter()
                .map(|text| {
                    let root = Root::new(fen::parse(text).unwrap());
                    search_depth(&root, 6, params, 16, 4).nodes
                })
                .sum()
        };
        let default = Params::default();
        let reduced = nodes(default);
        let later_r1 = nodes(Params {
            lmr_r1: 24,
            ..default
        });
        let no_r2 = nodes(Params {
            lmr_r2: 100,
            ..default
        });
        assert!(later_r1 > 2 * reduced, "{later_r1} against {reduced}");
        assert!(no_r2 > reduced, "{no_r2} against {reduced}");
    }

    /// `hmb` is added to the score of the side to move at the leaves: in
    /// the two Kings' endgame, where nothing is zapped within two plies,
    /// the root's score moves by it, down at depth 1 (the opponent moves
    /// at the leaves) and up at depth 2.
    #[test]
    fn the_bonus_for_the_move_goes_to_the_side_to_move_at_the_leaves() {
        let root = Root::new(fen::parse(fen::ENDGAME).unwrap());
        let score = |depth, hmb| {
            let params = Params {
                hmb,
                ..Params::default()
            };
            let answer = search_depth(&root, depth, params, 1, 4);
            answer.last.expect("an iteration").score
        };
        for hmb in [5, 40] {
            assert_eq!(score(1, hmb), score(1, 0) - hmb, "hmb {hmb}");
            assert_eq!(score(2, hmb), score(2, 0) + hmb, "hmb {hmb}");
        }
    }
}
