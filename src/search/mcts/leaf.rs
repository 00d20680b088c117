//! A position searched by alpha-beta (`mcts_ab` k > 0): our PVS from it,
//! k − 1 plies and its quiescence, on one worker per thread that keeps its
//! move-ordering tables and shares the transposition table with every
//! other search. The evaluation alone misses the shots a ply or two ahead
//! that decide Leiserchess games; a small search sees them, and its table
//! makes the next one cheaper. Either each new leaf is searched and valued
//! by it, or (`mcts_ab_visits`) each node once it has earned its visits,
//! and (`mcts_ab_grow`) again a ply deeper each time its visits have grown
//! by that factor: the root, the most visited node, is searched deepest,
//! an iterative deepening spread over the move's playouts.
//!
//! The search's best move also gets a share of the node's priors
//! (`mcts_pv_prior`), so that it is the reply tried first. Without it a
//! searched leaf's first reply tried is the policy's, often weaker than
//! the one the search assumed: an edge's second value then sits above its
//! first, its mean rises with its visits, and the tree favours the moves
//! it has looked at most (`playout`'s `bias` measurements).

use crate::rules::board::Board;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::search::pvs::order::Order;
use crate::search::pvs::Worker;
use crate::search::root::Root;
use crate::search::shared::Shared;
use crate::search::time::Plan;
use crate::search::Params;

/// What a search is asked to look at.
#[derive(Clone, Copy, Debug)]
pub enum Ask {
    /// A new leaf: `mcts_ab` − 1 plies, bounded by the clock alone.
    Leaf,
    /// A node of `visits`, `deeper` plies beyond `mcts_ab` − 1 within
    /// `mcts_ab_nodes` PVS nodes a visit.
    Node { deeper: u32, visits: u32 },
}

pub struct LeafSearch<'a> {
    worker: Worker<'a>,
    /// The leaf as the worker's root, rewritten for each leaf.
    root: Root,
    /// `mcts_ab` − 1 (0: the quiescence alone).
    depth: u32,
    /// `mcts_ab_nodes`: a search's PVS nodes per visit of its node.
    per_visit: u64,
}

impl<'a> LeafSearch<'a> {
    /// The leaf search of a Monte-Carlo search from `root`, or none with
    /// `mcts_ab` 0. Draws score `draw` for `root`'s side to move, as in
    /// PVS. The tree's search looks at the clock between playouts; the
    /// worker looks at `clock` (the tree's: see `Clock::leaf_plan`) as it
    /// searches, and when it runs out stops both searches, so that a long
    /// leaf search never overruns the move's time. A `stop` ends it too.
    pub fn new(
        root: &Root,
        params: Params,
        shared: &'a Shared,
        order: &'a mut Order,
        clock: Plan,
    ) -> Option<LeafSearch<'a>> {
        if params.mcts_ab == 0 {
            return None;
        }
        // `check_rep` stays with the tree: its full scan of the table at
        // each iteration's end would cost a leaf search several times
        // over, and PVS's own games check the worker.
        let leaf_params = Params {
            multipv: 1,
            #[cfg(feature = "debug-commands")]
            check_rep: false,
            ..params
        };
        let worker = Worker::new(root, leaf_params, shared, order, clock, None, true);
        Some(LeafSearch {
            worker,
            root: Root::new(root.board.clone()),
            depth: params.mcts_ab - 1,
            per_visit: u64::from(params.mcts_ab_nodes),
        })
    }

    /// The PVS nodes of every search so far.
    pub fn nodes(&self) -> u64 {
        self.worker.nodes()
    }

    /// The score for the side to move of `board` and its best move (none
    /// if it stands pat), searched as `ask` says with `keys` the
    /// positions before it, `plies_since_zap` and the move that led to
    /// it, from the deepest iteration completed before a `stop` or the
    /// node budget; none if not even the first was.
    #[allow(clippy::too_many_arguments)]
    pub fn score(
        &mut self,
        ask: Ask,
        board: &Board,
        keys: &[u64],
        plies_since_zap: u32,
        last_move: Option<Move>,
        root_side: Color,
    ) -> Option<(i32, Option<Move>)> {
        self.root.board.clone_from(board);
        self.root.history.clear();
        self.root.history.extend_from_slice(keys);
        self.root.plies_since_zap = plies_since_zap;
        self.root.last_move = last_move;
        self.worker.reset(&self.root, root_side);
        let (deeper, per_visit, visits) = match ask {
            Ask::Leaf => (0, 0, 1),
            Ask::Node { deeper, visits } => (deeper, self.per_visit, visits),
        };
        let budget = (per_visit > 0).then(|| per_visit * u64::from(visits.max(1)));
        self.worker.cap_nodes(budget);
        // Iterative deepening: the table holds the shallower iterations
        // from the node's earlier searches, and a search past its budget
        // still answers with the deepest one it completed.
        let mut found = None;
        for depth in self.depth..=self.depth + deeper {
            let Some(it) = self.worker.iterate(depth) else {
                break;
            };
            found = Some((it.score, it.pv.first().copied()));
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen;
    use crate::search::bench::POSITIONS;
    use crate::search::time::SearchLimits;
    use std::sync::atomic::Ordering;
    use std::time::Instant;

    /// A leaf search whose clock has run out stops before its first
    /// iteration ends, and stops the tree's search with it; without a
    /// clock the same search answers.
    #[test]
    fn a_leaf_search_stops_with_the_tree_s_clock() {
        let root = Root::new(fen::parse(POSITIONS[3]).unwrap());
        let side = root.board.side();
        let params = Params {
            mcts_ab: 8,
            ..Params::default()
        };
        let out = SearchLimits::movetime(0);
        let shared = Shared::new(16, 4);
        let mut order = Order::default();
        let clock = Plan::new(&out, Instant::now());
        let mut leaf = LeafSearch::new(&root, params, &shared, &mut order, clock).unwrap();
        assert_eq!(
            leaf.score(Ask::Leaf, &root.board, &root.history, 0, None, side),
            None
        );
        assert!(shared.stop.load(Ordering::Relaxed));

        let shallow = Params {
            mcts_ab: 2,
            ..params
        };
        let shared = Shared::new(16, 4);
        let mut order = Order::default();
        let clock = Plan::unbounded();
        let mut leaf = LeafSearch::new(&root, shallow, &shared, &mut order, clock).unwrap();
        assert!(leaf
            .score(Ask::Leaf, &root.board, &root.history, 0, None, side)
            .is_some());
    }

    /// A search past its node budget (`mcts_ab_nodes` × visits) stops
    /// with an answer from a shallower iteration, and leaves the tree's
    /// search running; with a budget it cannot reach the same search
    /// goes to its depth.
    #[test]
    fn a_leaf_search_stops_at_its_node_budget_with_an_answer() {
        let root = Root::new(fen::parse(POSITIONS[3]).unwrap());
        let side = root.board.side();
        let params = Params {
            mcts_ab: 2,
            mcts_ab_nodes: 20,
            ..Params::default()
        };
        let run = |ask: Ask| {
            let shared = Shared::new(16, 4);
            let mut order = Order::default();
            let mut leaf =
                LeafSearch::new(&root, params, &shared, &mut order, Plan::unbounded()).unwrap();
            let found = leaf.score(ask, &root.board, &root.history, 0, None, side);
            assert!(!shared.stop.load(Ordering::Relaxed));
            (found, leaf.worker.nodes())
        };
        let (capped, capped_nodes) = run(Ask::Node {
            deeper: 5,
            visits: 100,
        });
        let (full, full_nodes) = run(Ask::Node {
            deeper: 5,
            visits: 1_000_000,
        });
        assert!(capped.is_some() && full.is_some());
        assert!(
            capped_nodes < 2_000 + 200,
            "{capped_nodes} nodes past a 2,000 budget"
        );
        assert!(
            full_nodes > 4 * capped_nodes,
            "{full_nodes} against {capped_nodes}"
        );
    }
}
