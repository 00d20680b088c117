//! The promotion tree: the root, its moves, and (once a root move is
//! expanded) the replies to it. Every node holds its position, a negamax
//! value from its side to move's view and the depth that value was
//! searched to; a leaf's value comes from a PVS search of its position, an
//! inner node's from its children, one ply up.

use crate::rules::board::Board;
use crate::rules::game::DrawRules;
use crate::rules::movegen::generate;
use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::Color;
use crate::rules::repetition;
use crate::search::root::Root;
use crate::search::trail::Trail;
use crate::search::{Params, MATE, MATE_BOUND};

/// The root's index.
pub const ROOT: usize = 0;

/// The deepest the tree grows: the root's moves and their replies; below,
/// the leaves' own PVS searches.
pub const TREE_PLIES: u32 = 2;

/// One position of the tree.
#[derive(Clone, Debug)]
pub struct Node {
    /// The move from the parent (none at the root).
    pub mv: Option<Move>,
    pub parent: usize,
    pub ply: u32,
    pub board: Board,
    /// Plies since the last zap at this position.
    pub zap_clock: u32,
    /// Indices of the children, in generation order; empty for a leaf.
    pub children: Vec<usize>,
    /// The value for the side to move, cp (`±(MATE − p)` for a King zap
    /// `p` plies ahead); meaningful once `depth` is set.
    pub value: i32,
    /// The depth `value` was searched to: a leaf's PVS depth (0: the
    /// quiescence search), an inner node's one more than its best child's.
    pub depth: Option<u32>,
    /// The value is final: a draw by the rules, a zapped King, a proven
    /// King zap, or (inner) every child's value final.
    pub exact: bool,
    /// The child the value comes from (inner nodes).
    pub best: Option<usize>,
    /// A leaf's line from its PVS search.
    pub line: Vec<Move>,
    /// The moves a leaf has (its expansion's batch size).
    pub moves: u32,
}

impl Node {
    /// A position not yet valued, with no children.
    fn fresh(mv: Option<Move>, parent: usize, ply: u32, board: Board, zap_clock: u32) -> Node {
        Node {
            mv,
            parent,
            ply,
            board,
            zap_clock,
            children: Vec::new(),
            value: 0,
            depth: None,
            exact: false,
            best: None,
            line: Vec::new(),
            moves: 0,
        }
    }
}

/// `value` seen from the parent: negated, a King zap one ply further away.
pub fn up(value: i32) -> i32 {
    if value >= MATE_BOUND {
        -(value - 1)
    } else if value <= -MATE_BOUND {
        -(value + 1)
    } else {
        -value
    }
}

/// The tree and what every node's position needs: the game before the
/// root and the draw rules.
pub struct Tree {
    pub nodes: Vec<Node>,
    /// The root's trail: the game before it and its last move.
    root: Root,
    searchmoves: Vec<Move>,
    draws: DrawRules,
    /// The root's side to move and the score of a draw for it.
    root_side: Color,
    draw: i32,
}

impl Tree {
    /// The tree of `root` alone.
    pub fn new(root: &Root, params: &Params) -> Tree {
        let node = Node::fresh(None, ROOT, 0, root.board.clone(), root.plies_since_zap);
        let mut tree = Tree {
            nodes: vec![node],
            root: Root {
                searchmoves: Vec::new(),
                ..root.clone()
            },
            searchmoves: root.searchmoves.clone(),
            draws: DrawRules::in_tree(params.no_zap_plies),
            root_side: root.board.side(),
            draw: params.draw,
        };
        tree.nodes[ROOT].moves = tree.legal(ROOT).len() as u32;
        tree
    }

    pub fn root_side(&self) -> Color {
        self.root_side
    }

    /// The trail from the game's start to node `n`.
    pub fn trail(&self, n: usize) -> Trail {
        let mut path = Vec::new();
        let mut at = n;
        while at != ROOT {
            path.push(at);
            at = self.nodes[at].parent;
        }
        let mut trail = Trail::default();
        trail.reset(&self.root);
        for &c in path.iter().rev() {
            let (node, parent) = (&self.nodes[c], &self.nodes[self.nodes[c].parent]);
            let touched = node.mv.expect("a child's move").touched();
            trail.push(parent.board.key(), touched, node.zap_clock == 0);
        }
        trail
    }

    /// Node `n` as a search's root.
    pub fn root_of(&self, n: usize) -> Root {
        let node = &self.nodes[n];
        Root {
            board: node.board.clone(),
            history: self.trail(n).keys().to_vec(),
            plies_since_zap: node.zap_clock,
            last_move: if n == ROOT {
                self.root.last_move
            } else {
                node.mv
            },
            searchmoves: Vec::new(),
        }
    }

    /// Node `n`'s moves the Ko rule allows (at the root, within
    /// `searchmoves`); none after a King is zapped.
    pub fn legal(&self, n: usize) -> Vec<Move> {
        let node = &self.nodes[n];
        if node.exact && node.value.abs() >= MATE_BOUND {
            return Vec::new();
        }
        let mut list = MoveList::new();
        generate(&node.board, &mut list);
        let trail = self.trail(n);
        let now = node.board.key();
        let mut board = node.board.clone();
        list.iter()
            .filter(|m| n != ROOT || self.searchmoves.is_empty() || self.searchmoves.contains(m))
            .filter(|&m| {
                let undo = board.make(m);
                let after = board.key();
                board.unmake(m, undo);
                !repetition::breaks_ko(trail.keys(), now, after)
            })
            .collect()
    }

    /// Adds node `n`'s children, one for each legal move; the ones that
    /// end the game (a King zapped, a draw by the rules) get their exact
    /// value. Returns the children still to evaluate.
    pub fn expand(&mut self, n: usize) -> Vec<usize> {
        let moves = self.legal(n);
        let mut trail = self.trail(n);
        let mut fresh = Vec::new();
        for m in moves {
            let parent = &self.nodes[n];
            let mut board = parent.board.clone();
            let undo = board.make(m);
            let zap_clock = if undo.zapped.is_some() {
                0
            } else {
                parent.zap_clock + 1
            };
            let mut child = Node::fresh(Some(m), n, parent.ply + 1, board, zap_clock);
            trail.push(parent.board.key(), m.touched(), zap_clock == 0);
            if let Some((_, p)) = undo.zapped.filter(|(_, p)| p.is_king()) {
                // The side to move here lost if its King went.
                let lost = p.color() == child.board.side();
                child.value = if lost { -MATE } else { MATE };
                child.exact = true;
                child.depth = Some(0);
            } else if self
                .draws
                .draw(child.board.key(), trail.keys(), zap_clock)
                .is_some()
            {
                child.value = self.draw_for(child.board.side());
                child.exact = true;
                child.depth = Some(0);
            }
            trail.pop();
            let index = self.nodes.len();
            if !child.exact {
                fresh.push(index);
            }
            self.nodes.push(child);
            self.nodes[n].children.push(index);
        }
        for &c in &fresh {
            self.nodes[c].moves = self.legal(c).len() as u32;
        }
        fresh
    }

    /// The score of a draw for `side`: the `draw` option is the root
    /// side's.
    pub fn draw_for(&self, side: Color) -> i32 {
        if side == self.root_side {
            self.draw
        } else {
            -self.draw
        }
    }

    /// Sets leaf `n`'s search result and carries it up to the root.
    pub fn set_leaf(&mut self, n: usize, value: i32, depth: u32, line: Vec<Move>) {
        let node = &mut self.nodes[n];
        node.value = value;
        node.depth = Some(depth);
        node.exact = value.abs() >= MATE_BOUND;
        node.line = line;
        let mut at = n;
        while at != ROOT {
            at = self.nodes[at].parent;
            self.update(at);
        }
    }

    /// Recomputes inner node `n` from its children, all of them evaluated:
    /// the best child's value one ply up, its depth plus one. A node with
    /// no moves keeps its own value (a leaf's).
    pub fn update(&mut self, n: usize) {
        let Some(best) = self.best_child(n) else {
            return;
        };
        let exact = self.nodes[n].children.iter().all(|&c| self.nodes[c].exact);
        let child = &self.nodes[best];
        let (value, depth) = (up(child.value), child.depth.map(|d| d + 1));
        let exact = exact || value >= MATE_BOUND && child.exact;
        let node = &mut self.nodes[n];
        node.value = value;
        node.depth = depth;
        node.best = Some(best);
        node.exact = exact;
    }

    /// The child of `n` with the highest value from `n`'s view, the first
    /// of equals; none if a child is not yet evaluated.
    pub fn best_child(&self, n: usize) -> Option<usize> {
        let children = &self.nodes[n].children;
        if children.iter().any(|&c| self.nodes[c].depth.is_none()) {
            return None;
        }
        let mut best: Option<usize> = None;
        for &c in children {
            if best.is_none_or(|b| up(self.nodes[c].value) > up(self.nodes[b].value)) {
                best = Some(c);
            }
        }
        best
    }

    /// The line from node `n`: down the best children, then the leaf's
    /// own line.
    pub fn line(&self, n: usize) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut at = n;
        while let Some(b) = self.nodes[at].best {
            moves.extend(self.nodes[b].mv);
            at = b;
        }
        moves.extend(self.nodes[at].line.iter().copied());
        moves
    }

    /// The root's valued children by value from the root's view, best
    /// first (ties in generation order).
    pub fn ranked(&self) -> Vec<usize> {
        let mut children = self.nodes[ROOT].children.clone();
        children.retain(|&c| self.nodes[c].depth.is_some());
        children.sort_by_key(|&c| std::cmp::Reverse(up(self.nodes[c].value)));
        children
    }
}
