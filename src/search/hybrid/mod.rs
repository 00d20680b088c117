//! The hybrid (`Search=hybrid`): a Monte-Carlo tree, whose well-visited
//! nodes are searched by small PVS searches (`mcts`, with its options),
//! then a final PVS of the root on the same table, whose move is played
//! unless the tree's solver has proven a win or that move lost
//! (`choice`). On a clock the tree has `hybrid_tree_time` percent of the
//! move's goal and the final search what is left; without one the tree
//! has `go nodes` playouts, else at most [`limits::PLAYOUTS`] (fewer
//! with `go depth`), and the final search `go depth`, `go mate` or `go
//! infinite`, else `go nodes` (`limits`).
//!
//! What it reports is the search that chose the move: before the final
//! search, one note with the tree's playouts and its searches' nodes;
//! then each iteration of the final search as PVS reports it, its nodes
//! counting the tree's searches' too. When the tree chose (a proof, or a
//! `stop` before the final search), its own last report follows, with
//! those nodes. The tree is kept between moves as MCTS keeps it.

pub mod choice;
pub mod limits;

use super::mcts::{self, Inputs, Kept, Part, Spend};
use super::pvs::{self, order::Order};
use super::report::{Answer, Iteration};
use super::time::SearchLimits;
use choice::By;
use std::time::Duration;

/// The percentage of PVS's clock plan (goal and hard limit) the hybrid
/// plans a move on, so that the two spend the same time: the clock, not
/// the plan, bounds a game's time, so what must match is the time a move
/// over the goal. At 10+0.1, planning on 92% of it, the hybrid spent
/// 89.2% of PVS's goal a move, PVS 81.8% (`autotest stats --moves --clock
/// 10+0.1`, 63 games at bfe2c32): 92 × 81.8 / 89.2 is 84 (BENCHMARKS.md,
/// "The hybrid against PVS at equal time").
pub const PLAN: u32 = 84;

/// The hybrid's answer, with the tree's outcome and the final search's
/// nodes (0 when it did not run).
pub struct Outcome {
    pub answer: Answer,
    pub tree: mcts::Outcome,
    pub final_nodes: u64,
    /// Whose move is played.
    pub by: By,
}

/// What is said of the tree before the final search.
pub fn tree_note(playouts: u64, searched: u64) -> String {
    format!("hybrid tree: {playouts} playouts, {searched} nodes in its searches")
}

/// What is said when the move is PVS's alone (`limits::pvs_alone`).
pub fn pvs_alone_note(why: limits::Alone) -> String {
    match why {
        limits::Alone::ShortGoal(goal) => format!(
            "hybrid: a goal of {} µs is under {} ms: PVS alone",
            goal.as_micros(),
            limits::LEAST_TREE_GOAL.as_millis()
        ),
        limits::Alone::Mate => "hybrid: go mate is PVS's: PVS alone".to_string(),
    }
}

/// Searches `inputs.root` within `limits`: the tree within the inputs'
/// resources from the reusable part of `kept` (leaving its tree there),
/// then the final PVS on every thread. `note` gets the tree's note,
/// `report` each reported iteration with the time since the `go` and
/// every node searched so far. With `infinite` or `ponder`, waits for
/// `shared.stop` before answering; the caller clears `shared.stop` before
/// starting.
pub fn think(
    inputs: Inputs,
    limits: &SearchLimits,
    kept: &mut Option<Kept>,
    mut report: impl FnMut(&Iteration, Duration, u64),
    note: impl FnOnce(&str),
) -> Outcome {
    let (params, shared) = (inputs.params, inputs.shared);
    let start = limits.start();
    let tree_limits = limits::tree(limits, start);
    let mut order = Order::default();
    let part = Part {
        spend: Spend {
            share: params.hybrid_tree_time,
            plan: PLAN,
        },
        order: &mut order,
    };
    let parted = mcts::think_part(inputs, &tree_limits, kept, part);
    let tree = parted.outcome;
    let searched = tree.searched;
    note(&tree_note(tree.answer.nodes, searched));
    let mut last = None;
    let mut final_nodes = 0;
    let mut pv_move = None;
    if let Some(plan) = parted.rest {
        if params.mcts_ab == 0 {
            // The tree's playouts did not touch the table.
            shared.tt.new_search();
        }
        let mut orders = vec![order];
        orders.resize_with(inputs.resources.threads.max(1), Order::default);
        let limits = limits::last(limits, start);
        let answer = pvs::think_planned(
            inputs.root,
            &limits,
            plan,
            params,
            shared,
            &mut orders,
            |it, _, n| report(it, start.elapsed(), searched + n),
        );
        final_nodes = answer.nodes;
        pv_move = answer.best;
        last = answer.last;
    } else {
        shared.wait_for_stop(limits.infinite);
    }
    let kept_tree = kept.as_ref().map(Kept::tree);
    let by = kept_tree.map_or(By::Tree, |t| choice::choose(t, pv_move));
    let nodes = searched + final_nodes;
    if by == By::Tree {
        last = tree.answer.last.clone();
        if let Some(it) = &last {
            report(it, start.elapsed(), nodes);
        }
    }
    let best = match by {
        By::Search(m) => Some(m),
        By::Tree => last.as_ref().and_then(|it| it.pv.first().copied()),
    };
    Outcome {
        answer: Answer {
            best,
            ponder: last.as_ref().and_then(|it| it.pv.get(1).copied()),
            last,
            nodes,
            elapsed: start.elapsed(),
            setup: None,
        },
        tree,
        final_nodes,
        by,
    }
}
