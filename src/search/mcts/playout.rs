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

use super::prior;
use super::tree::{Edge, Proof, Tree, NONE, ROOT};
use super::value::expected;
use crate::eval::evaluator::Evaluator;
use crate::eval::nnue::accumulator::{Accumulator, Before};
use crate::eval::policy::features::Candidate;
use crate::eval::policy::Policy;
use crate::rules::board::{Board, Undo};
use crate::rules::game::DrawRules;
use crate::rules::laser::Shots;
use crate::rules::movegen::for_each_move;
use crate::rules::moves::Move;
use crate::rules::repetition::{self, LastMove};
use crate::search::root::Root;
use crate::search::shared::Shared;
use crate::search::Params;

/// The board at the end of the current path, with what the draws, the Ko
/// rule and the evaluation need; rewound to the root after each playout.
pub struct Walker<'a> {
    board: Board,
    /// Keys of every position before the current one, game and path.
    keys: Vec<u64>,
    /// Plies since the last zap, for each position on `keys` and the current.
    zap_clock: Vec<u32>,
    /// The squares each move changed, the game's last move's first.
    touched: Vec<u64>,
    played: Vec<(Move, Undo)>,
    draws: DrawRules,
    evaluator: Evaluator<'a>,
    /// With the net, an accumulator per position from the root's on.
    accumulators: Vec<Accumulator>,
    hmb: i32,
    /// Reused by `moves`: each move with the squares it changes and what
    /// its shot zaps.
    scratch: Vec<Candidate>,
    scores: Vec<f64>,
    /// The priors' policy (`mcts_policy`); none: the plain heuristic.
    policy: Option<&'a Policy>,
}

impl<'a> Walker<'a> {
    pub fn new(root: &Root, params: Params, shared: &'a Shared) -> Walker<'a> {
        let mut zap_clock = vec![0; root.history.len()];
        zap_clock.push(root.plies_since_zap);
        let evaluator = Evaluator::choose(params.use_nnue, &shared.net, params.weights);
        Walker {
            board: root.board.clone(),
            keys: root.history.clone(),
            zap_clock,
            touched: root.last_move.map(|m| m.touched()).into_iter().collect(),
            played: Vec::new(),
            draws: DrawRules::in_tree(params.no_zap_plies),
            evaluator,
            accumulators: evaluator
                .net()
                .map(|n| Accumulator::refresh(n, &root.board))
                .into_iter()
                .collect(),
            hmb: params.hmb,
            scratch: Vec::new(),
            scores: Vec::new(),
            policy: params.mcts_policy.then_some(&*shared.policy),
        }
    }

    fn clock(&self) -> u32 {
        *self.zap_clock.last().expect("the root's clock")
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
        let last = self.touched.last().map(|&touched| LastMove {
            touched,
            zapped: self.clock() == 0,
        });
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
        repetition::breaks_ko(&self.keys, now, after)
    }

    /// Plays `m` with its shot.
    pub fn play(&mut self, m: Move) {
        let touched = m.touched();
        let clock = self.clock();
        self.keys.push(self.board.key());
        let before = self
            .evaluator
            .net()
            .map(|_| Before::of(&self.board, touched));
        let undo = self.board.make(m);
        if let (Some(net), Some(before)) = (self.evaluator.net(), before) {
            let mut acc = self.accumulators.last().expect("the root's").clone();
            acc.update(net, &self.board, &before, &undo);
            self.accumulators.push(acc);
        }
        self.zap_clock
            .push(if undo.zapped.is_some() { 0 } else { clock + 1 });
        self.touched.push(touched);
        self.played.push((m, undo));
    }

    /// Takes back every move since the root.
    pub fn rewind(&mut self) {
        while let Some((m, undo)) = self.played.pop() {
            self.board.unmake(m, undo);
            self.keys.pop();
            self.zap_clock.pop();
            self.touched.pop();
            if self.evaluator.net().is_some() {
                self.accumulators.pop();
            }
        }
    }

    /// Whether the current position is a draw by the tree's rules.
    pub fn is_draw(&self) -> bool {
        self.draws
            .draw(self.board.key(), &self.keys, self.clock())
            .is_some()
    }

    /// The evaluation's expected result for the side to move.
    pub fn value(&self) -> f64 {
        let cp = self
            .evaluator
            .score_cp(&self.board, self.accumulators.last(), 0);
        expected(cp.saturating_add(self.hmb))
    }
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
}

impl<'a> Search<'a> {
    /// The tree of `root` within `budget` bytes, its root made.
    pub fn new(root: &Root, params: Params, shared: &'a Shared, budget: usize) -> Search<'a> {
        let mut walker = Walker::new(root, params, shared);
        let mut edges = Vec::new();
        walker.moves(&root.searchmoves, &mut edges);
        let mut tree = Tree::new(budget);
        tree.add_root(&edges);
        Search {
            tree,
            walker,
            path: Vec::new(),
            edges,
            max_depth: 0,
        }
    }

    /// One playout; the root has at least one edge.
    pub fn playout(&mut self) {
        self.path.clear();
        let mut node = ROOT;
        let value = loop {
            let e = self.tree.select(node);
            self.path.push((node, e));
            let edge = self.tree.edges[e];
            if let Some(p) = edge.proof {
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
    }

    /// The value, for its mover, of edge `e` just played onto a position
    /// not in the tree; the position becomes the edge's child if it fits.
    fn leaf(&mut self, e: usize) -> f64 {
        if self.walker.is_draw() {
            self.tree.edges[e].proof = Some(Proof::Draw);
            return 0.5;
        }
        if !self.tree.full() {
            self.walker.moves(&[], &mut self.edges);
            if self.edges.is_empty() {
                self.tree.edges[e].proof = Some(Proof::Draw);
                return 0.5;
            }
            if let Some(child) = self.tree.add(&self.edges) {
                self.tree.edges[e].child = child;
            }
        }
        1.0 - self.walker.value()
    }
}
