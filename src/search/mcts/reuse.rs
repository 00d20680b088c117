//! Tree reuse between moves: the tree a search ends with is kept, and the
//! next search starts from the subtree under the moves played since, when
//! the tree has them, copied into a fresh arena with the nodes in
//! breadth-first order and the rest dropped (compaction). The subtree's
//! visits, means and proofs stand as they were: they were found on the
//! same path of the same game, under the same options and net.

use super::tree::{Tree, NONE, ROOT};
use crate::eval::nnue::Network;
use crate::rules::board::Board;
use crate::search::{Params, Root};
use std::sync::Arc;

/// A finished search's tree and what it was searched for.
pub struct Kept {
    tree: Tree,
    board: Board,
    /// The keys of the game's positions before the tree's root.
    history: Vec<u64>,
    /// The root had all its moves (no `searchmoves`).
    whole: bool,
    params: Params,
    net: Arc<Network>,
}

impl Kept {
    /// Keeps `tree`, searched from `root` with `params` and `net`.
    pub fn new(tree: Tree, root: &Root, params: Params, net: Arc<Network>) -> Kept {
        Kept {
            tree,
            board: root.board.clone(),
            history: root.history.clone(),
            whole: root.searchmoves.is_empty(),
            params,
            net,
        }
    }

    /// The tree as the search left it.
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// The kept subtree for a search of `root` within `budget` bytes,
    /// compacted; `None` when there is none to reuse: another game or
    /// position, moves the tree never reached, other options (but
    /// `MultiPV`) or net, a
    /// root limited by `searchmoves`, or a subtree over the budget.
    pub fn reuse(
        self,
        root: &Root,
        params: Params,
        net: &Arc<Network>,
        budget: usize,
    ) -> Option<Tree> {
        // The lines reported change nothing in the tree.
        let same = |p: Params| Params { multipv: 1, ..p };
        if same(params) != same(self.params)
            || !Arc::ptr_eq(net, &self.net)
            || !root.searchmoves.is_empty()
        {
            return None;
        }
        let node = self.follow(root)?;
        if node == ROOT && !self.whole {
            return None;
        }
        compact(&self.tree, node, budget)
    }

    /// The node of `root`'s position: the kept root, or the node reached
    /// from it by the moves whose positions `root`'s history lists next.
    fn follow(&self, root: &Root) -> Option<u32> {
        let before = self.history.len();
        if root.history.len() < before || root.history[..before] != self.history[..] {
            return None;
        }
        let mut path: Vec<u64> = root.history[before..].to_vec();
        path.push(root.board.key());
        if path[0] != self.board.key() {
            return None;
        }
        let mut board = self.board.clone();
        let mut node = ROOT;
        for &key in &path[1..] {
            let edge = self.tree.range(node).find(|&e| {
                let mv = self.tree.edges[e].mv;
                let undo = board.make(mv);
                let hit = board.key() == key;
                board.unmake(mv, undo);
                hit
            })?;
            let edge = self.tree.edges[edge];
            if edge.child == NONE {
                return None;
            }
            board.make(edge.mv);
            node = edge.child;
        }
        Some(node)
    }
}

/// The subtree of `tree` under `from` in a new arena of `budget` bytes,
/// `from` its root; `None` if it does not fit.
fn compact(tree: &Tree, from: u32, budget: usize) -> Option<Tree> {
    let mut order = vec![from];
    let mut renumber = vec![NONE; tree.nodes.len()];
    renumber[from as usize] = ROOT;
    let mut edges = 0;
    let mut i = 0;
    while let Some(&old) = order.get(i) {
        i += 1;
        edges += tree.nodes[old as usize].len as usize;
        for e in tree.range(old) {
            let child = tree.edges[e].child;
            if child != NONE {
                renumber[child as usize] = order.len() as u32;
                order.push(child);
            }
        }
    }
    let mut out = Tree::new(budget);
    out.nodes.reserve_exact(order.len());
    out.edges.reserve_exact(edges);
    if out.bytes() > budget {
        return None;
    }
    for &old in &order {
        let mut node = tree.nodes[old as usize];
        node.first = out.edges.len() as u32;
        out.nodes.push(node);
        out.edges
            .extend(tree.edges[tree.range(old)].iter().map(|e| {
                let mut e = *e;
                if e.child != NONE {
                    e.child = renumber[e.child as usize];
                }
                e
            }));
    }
    Some(out)
}
