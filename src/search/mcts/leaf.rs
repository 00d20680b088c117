//! A new leaf valued by alpha-beta (`mcts_ab` k > 0): our PVS from the
//! leaf's position, k − 1 plies and its quiescence, on one worker per
//! thread that keeps its move-ordering tables and shares the transposition
//! table with every other leaf's search. The evaluation alone misses the
//! shots a ply or two ahead that decide Leiserchess games; a small search
//! sees them, and its table makes the next leaf's search cheaper.
//!
//! The search's best move also gets a share of the node's priors
//! (`mcts_pv_prior`), so that it is the reply tried first. Without it the
//! first reply tried is the policy's, often weaker than the one the
//! search assumed: an edge's second value then sits above its first, its
//! mean rises with its visits, and the tree favours the moves it has
//! looked at most (`playout`'s `parity` measurements).

use crate::rules::board::Board;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::search::pvs::order::Order;
use crate::search::pvs::Worker;
use crate::search::root::Root;
use crate::search::shared::Shared;
use crate::search::time::{Plan, SearchLimits};
use crate::search::Params;
use std::time::Instant;

pub struct LeafSearch<'a> {
    worker: Worker<'a>,
    /// The leaf as the worker's root, rewritten for each leaf.
    root: Root,
    /// `mcts_ab` − 1 (0: the quiescence alone).
    depth: u32,
}

impl<'a> LeafSearch<'a> {
    /// The leaf search of a Monte-Carlo search from `root`, or none with
    /// `mcts_ab` 0. Draws score `draw` for `root`'s side to move, as in
    /// PVS. The worker never looks at the clock: the tree's search does,
    /// between playouts, and a `stop` ends the worker's search too.
    pub fn new(
        root: &Root,
        params: Params,
        shared: &'a Shared,
        order: &'a mut Order,
    ) -> Option<LeafSearch<'a>> {
        if params.mcts_ab == 0 {
            return None;
        }
        let leaf_params = Params {
            multipv: 1,
            ..params
        };
        let plan = Plan::new(&SearchLimits::default(), Instant::now());
        let worker = Worker::new(root, leaf_params, shared, order, plan, None, false);
        Some(LeafSearch {
            worker,
            root: Root::new(root.board.clone()),
            depth: params.mcts_ab - 1,
        })
    }

    /// The score for the side to move of `board` and its best move (none
    /// if it stands pat), searched with `keys` the positions before it,
    /// `plies_since_zap` and the move that led to it; none if a `stop`
    /// ended the search first.
    pub fn score(
        &mut self,
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
        let it = self.worker.iterate(self.depth)?;
        Some((it.score, it.pv.first().copied()))
    }
}
