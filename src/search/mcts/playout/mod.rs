//! One playout: from the root, PUCT picks an edge at each node and the
//! board follows it, until a proven edge (its exact value), or an edge
//! without a child: there the new position is a draw by the tree's rules
//! (a repetition, the no-zap rule, or no move the Ko rule allows: value
//! ½, proven), or it is evaluated and, while the budget allows, becomes a
//! node. The value goes back up the path, and proofs with it.
//!
//! Once the arena is full the playouts go on over the tree there is:
//! a leaf that could not be added is evaluated again each time one reaches
//! it, which still refines its ancestors' means.

use super::leaf::{Ask, LeafSearch};
use super::prior;
use super::tree::{Edge, Proof, Puct, Tree, NONE, ROOT};
use super::value::expected;
use crate::eval::evaluator::Evaluator;
use crate::eval::nnue::accumulator::{Accumulator, Before, Stack};
use crate::eval::policy::features::Candidate;
use crate::eval::policy::Policy;
use crate::rules::board::{Board, Undo};
use crate::rules::game::DrawRules;
use crate::rules::laser::Shots;
use crate::rules::movegen::for_each_move;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::repetition;
use crate::search::pvs::order::Order;
use crate::search::root::Root;
use crate::search::shared::Shared;
use crate::search::time::Plan;
use crate::search::trail::Trail;
use crate::search::Params;

/// The board at the end of the current path, with what the draws, the Ko
/// rule and the evaluation need; rewound to the root after each playout.
pub struct Walker<'a> {
    board: Board,
    /// The positions before the current one, game and path, as the draw
    /// and Ko rules read them.
    trail: Trail,
    played: Vec<(Move, Undo)>,
    draws: DrawRules,
    evaluator: Evaluator<'a>,
    /// With the net, an accumulator per position from the root's on.
    accumulators: Stack,
    hmb: i32,
    /// Reused by `moves`: each move with the squares it changes and what
    /// its shot zaps.
    scratch: Vec<Candidate>,
    scores: Vec<f64>,
    /// The priors' policy (`mcts_policy`); none: the plain heuristic.
    policy: Option<&'a Policy>,
    /// The move that led to the root, if the game has one.
    root_move: Option<Move>,
    root_side: Color,
    /// With `mcts_ab`, the alpha-beta search that values new leaves or
    /// well-visited nodes.
    leaf: Option<LeafSearch<'a>>,
    /// Whether each new leaf is valued by `leaf` (not with `mcts_ab_visits`).
    search_leaves: bool,
}

impl<'a> Walker<'a> {
    /// The walker of a search from `root`; `order` and `clock` serve the
    /// leaves' alpha-beta searches (`mcts_ab`).
    pub fn new(
        root: &Root,
        params: Params,
        shared: &'a Shared,
        order: &'a mut Order,
        clock: Plan,
    ) -> Walker<'a> {
        let mut trail = Trail::default();
        trail.reset(root);
        let evaluator = Evaluator::choose(params.use_nnue, &shared.net, params.weights);
        let mut accumulators = Stack::new();
        if let Some(net) = evaluator.net() {
            accumulators.push(Accumulator::refresh(net, &root.board));
        }
        Walker {
            board: root.board.clone(),
            trail,
            played: Vec::new(),
            draws: DrawRules::in_tree(params.no_zap_plies),
            evaluator,
            accumulators,
            hmb: params.hmb,
            scratch: Vec::new(),
            scores: Vec::new(),
            policy: params.mcts_policy.then_some(&*shared.policy),
            root_move: root.last_move,
            root_side: root.board.side(),
            leaf: LeafSearch::new(root, params, shared, order, clock),
            search_leaves: params.mcts_ab > 0 && params.ab_visits().is_none(),
        }
    }

    fn clock(&self) -> u32 {
        self.trail.zap_clock()
    }

    /// The edges of the current position (only the moves of `only`, if
    /// any), Ko respected, each with its prior and, for a King zap, its
    /// proof, into `out`.
    pub fn moves(&mut self, only: &[Move], out: &mut Vec<Edge>) {
        out.clear();
        self.scratch.clear();
        let board = &self.board;
        let side = board.side();
        let shots = Shots::new(board);
        let scratch = &mut self.scratch;
        for_each_move(board.pieces(side), board.pieces(side.opp()), |m, fp| {
            if only.is_empty() || only.contains(&m) {
                let victim = shots.victim(board, m, fp.touched);
                scratch.push(Candidate {
                    mv: m,
                    touched: fp.touched,
                    victim,
                });
            }
        });
        let last = self.trail.last_move();
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.retain(|c| {
            !(repetition::may_break_ko(c.touched, c.victim.is_some(), last)
                && self.undoes_last(c.mv))
        });
        prior::priors(self.policy, &self.board, &scratch, &mut self.scores);
        for (c, &p) in scratch.iter().zip(&self.scores) {
            let (m, victim) = (c.mv, c.victim.map(|(_, v)| v));
            let proof = victim.filter(|v| v.is_king()).map(|v| {
                if v.color() == side {
                    Proof::Loss(1)
                } else {
                    Proof::Win(1)
                }
            });
            out.push(Edge::new(m, p as f32, proof));
        }
        self.scratch = scratch;
    }

    /// Whether `m`, played without its shot, recreates the position
    /// before the opponent's last move (the Ko rule; only asked of moves
    /// that zap nothing).
    fn undoes_last(&mut self, m: Move) -> bool {
        let now = self.board.key();
        let undo = self.board.make_with(m, |_| None);
        let after = self.board.key();
        self.board.unmake(m, undo);
        repetition::breaks_ko(self.trail.keys(), now, after)
    }

    /// Plays `m` with its shot.
    pub fn play(&mut self, m: Move) {
        let touched = m.touched();
        let key = self.board.key();
        let before = self
            .evaluator
            .net()
            .map(|_| Before::of(&self.board, touched));
        let undo = self.board.make(m);
        if let (Some(net), Some(before)) = (self.evaluator.net(), before) {
            self.accumulators
                .push_child(net, &self.board, &before, &undo);
        }
        self.trail.push(key, touched, undo.zapped.is_some());
        self.played.push((m, undo));
    }

    /// Takes back the last move played.
    fn undo(&mut self) {
        if let Some((m, undo)) = self.played.pop() {
            self.board.unmake(m, undo);
            self.trail.pop();
            if self.evaluator.net().is_some() {
                self.accumulators.pop();
            }
        }
    }

    /// Takes back every move since the root.
    pub fn rewind(&mut self) {
        while !self.played.is_empty() {
            self.undo();
        }
    }

    /// Whether the current position is a draw by the tree's rules.
    pub fn is_draw(&self) -> bool {
        self.draws
            .draw(self.board.key(), self.trail.keys(), self.clock())
            .is_some()
    }

    /// The evaluation's score for the side to move, its move bonus added.
    fn static_cp(&self) -> i32 {
        let cp = self
            .evaluator
            .score_cp(&self.board, self.accumulators.last());
        cp.saturating_add(self.hmb)
    }

    /// The expected result for the side to move, whose moves are `edges`:
    /// with `mcts_ab` at each new leaf, its alpha-beta search's score (see
    /// `leaf`), the search's best move given `pv_prior` of the priors;
    /// else the evaluation's. A search a `stop` cut short falls back to
    /// the evaluation.
    pub fn leaf_value(&mut self, edges: &mut [Edge], pv_prior: f32) -> f64 {
        if !self.search_leaves {
            return expected(self.static_cp());
        }
        let Some((cp, best)) = self.search(Ask::Leaf) else {
            return expected(self.static_cp());
        };
        if let Some(best) = best.filter(|_| pv_prior > 0.0) {
            for e in edges.iter_mut() {
                let pv = if e.mv == best { pv_prior } else { 0.0 };
                e.set_prior((1.0 - pv_prior) * e.prior() + pv);
            }
        }
        expected(cp)
    }

    /// The leaf search's score for the side to move and its best move,
    /// searched as `ask` says; none without `mcts_ab`, after a `stop` or
    /// past the budget.
    pub fn search(&mut self, ask: Ask) -> Option<(i32, Option<Move>)> {
        let last = self.played.last().map(|&(m, _)| m).or(self.root_move);
        let clock = self.clock();
        let leaf = self.leaf.as_mut()?;
        leaf.score(
            ask,
            &self.board,
            self.trail.keys(),
            clock,
            last,
            self.root_side,
        )
    }

    /// The PVS nodes the leaf search has searched (none without `mcts_ab`).
    pub fn searched(&self) -> u64 {
        self.leaf.as_ref().map_or(0, LeafSearch::nodes)
    }

    /// The current position, new to the tree: its value for the mover
    /// of the move that led to it, and what it becomes. A draw by the
    /// tree's rules, or no move the Ko rule allows, is worth ½; else its
    /// moves go into `edges` (unless the tree is `full`: then they are not
    /// listed) and it is valued by [`Walker::leaf_value`].
    pub fn arrive(&mut self, full: bool, pv_prior: f32, edges: &mut Vec<Edge>) -> (f64, Grown) {
        edges.clear();
        if self.is_draw() {
            return (0.5, Grown::Draw);
        }
        if !full {
            self.moves(&[], edges);
            if edges.is_empty() {
                return (0.5, Grown::Draw);
            }
        }
        let value = 1.0 - self.leaf_value(edges, pv_prior);
        (value, if full { Grown::Leaf } else { Grown::Node })
    }
}

/// What a position new to the tree becomes ([`Walker::arrive`]).
pub enum Grown {
    /// A node with the edges listed.
    Node,
    /// No node: the tree is full.
    Leaf,
    /// A proven draw.
    Draw,
}

/// The tree and the board that walks it.
pub struct Search<'a> {
    pub tree: Tree,
    pub walker: Walker<'a>,
    /// The current playout's (node, edge) steps.
    path: Vec<(u32, usize)>,
    edges: Vec<Edge>,
    /// The longest path so far, in plies.
    pub max_depth: u32,
    /// The share of a new node's priors its leaf search's best move gets
    /// (`mcts_pv_prior`).
    pv_prior: f32,
    /// The visits at which a node's position is searched and its best
    /// move given `pv_prior` (`mcts_ab_visits`), and the growth of its
    /// visits that searches it again (`mcts_ab_grow`).
    ab_visits: Option<u32>,
    ab_grow: f64,
    /// The `check_rep` option: check each playout's path.
    #[cfg(feature = "debug-commands")]
    check_rep: bool,
}

impl<'a> Search<'a> {
    /// The search of `root` over `kept` (a tree whose root is `root`'s
    /// position), or else over a new tree within `budget` bytes, its root
    /// made.
    pub fn new(
        root: &Root,
        params: Params,
        shared: &'a Shared,
        budget: usize,
        kept: Option<Tree>,
        order: &'a mut Order,
        clock: Plan,
    ) -> Search<'a> {
        let mut walker = Walker::new(root, params, shared, order, clock);
        let mut edges = Vec::new();
        let mut tree = kept.unwrap_or_else(|| {
            walker.moves(&root.searchmoves, &mut edges);
            let mut tree = Tree::new(budget);
            tree.add_root(&edges);
            tree
        });
        tree.puct = Puct::of(&params);
        Search {
            tree,
            walker,
            path: Vec::new(),
            edges,
            max_depth: 0,
            pv_prior: params.pv_prior(),
            ab_visits: params.ab_visits(),
            ab_grow: params.ab_grow(),
            #[cfg(feature = "debug-commands")]
            check_rep: params.check_rep,
        }
    }

    /// One playout; the root has at least one edge.
    pub fn playout(&mut self) {
        self.path.clear();
        let mut node = ROOT;
        let value = loop {
            if let Some(deeper) = self.tree.due(node, self.ab_visits, self.ab_grow) {
                let visits = self.tree.nodes[node as usize].visits;
                if let Some((_, best)) = self.walker.search(Ask::Node { deeper, visits }) {
                    searched(&mut self.tree, node, best, self.pv_prior);
                }
            }
            let e = self.tree.select(node);
            self.path.push((node, e));
            let edge = self.tree.edges[e];
            if let Some(p) = edge.proof() {
                break p.value();
            }
            self.walker.play(edge.mv);
            if edge.child != NONE {
                node = edge.child;
                continue;
            }
            break self.leaf(e);
        };
        self.walker.rewind();
        self.max_depth = self.max_depth.max(self.path.len() as u32);
        self.tree.backup(&self.path, value);
        self.tree.prove_up(&self.path);
        #[cfg(feature = "debug-commands")]
        if self.check_rep {
            super::check::path(&self.tree, &self.path, true);
        }
    }

    /// The value, for its mover, of edge `e` just played onto a position
    /// not in the tree; the position becomes the edge's child if it fits.
    fn leaf(&mut self, e: usize) -> f64 {
        let full = self.tree.full();
        let (value, grown) = self.walker.arrive(full, self.pv_prior, &mut self.edges);
        match grown {
            Grown::Draw => self.tree.edges[e].set_proof(Some(Proof::Draw)),
            Grown::Node => {
                let leaf_visits = self.tree.edges[e].visits;
                if let Some(child) = self.tree.add(&self.edges, leaf_visits) {
                    self.tree.edges[e].child = child;
                }
            }
            Grown::Leaf => {}
        }
        value
    }
}

/// What the search of `node` does to the tree with the `best` move it
/// found: that move gets `pv_prior` of the node's priors, and at the root
/// it is the root's search's move (`mcts_root_move`).
pub fn searched(tree: &mut Tree, node: u32, best: Option<Move>, pv_prior: f32) {
    if let Some(best) = best {
        tree.lead(node, best, pv_prior);
    }
}

#[cfg(test)]
mod bias;

#[cfg(test)]
mod tests;
