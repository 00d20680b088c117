//! The promotion tree's `check_rep` invariants: every child is its
//! parent's move played (position, ply, zap clock), the tree is no deeper
//! than its two plies, a valued inner node holds its best child's value
//! one ply up and its depth plus one, that child is the best, and a final
//! value is final for a reason (a zapped King, a draw, a proven zap, or
//! every child final). The search checks the whole tree after every
//! promotion while the `check_rep` option is on (only with the
//! `debug-commands` feature).

use super::tree::{up, Tree, ROOT, TREE_PLIES};
use crate::check_rep::{ensure, CheckRep};
use crate::search::MATE_BOUND;

impl CheckRep for Tree {
    const NAME: &'static str = "bestfirst tree";

    fn check_rep(&self) -> Result<(), String> {
        for (i, n) in self.nodes.iter().enumerate() {
            let name = || match n.mv {
                Some(m) => format!("node {i} ({m})"),
                None => format!("node {i} (root)"),
            };
            ensure(n.ply <= TREE_PLIES, || format!("{}: ply {}", name(), n.ply))?;
            if i != ROOT {
                let p = &self.nodes[n.parent];
                ensure(p.children.contains(&i) && n.ply == p.ply + 1, || {
                    format!("{}: not a child of node {}", name(), n.parent)
                })?;
                let mut board = p.board.clone();
                let mv = n.mv.ok_or_else(|| format!("{}: no move", name()))?;
                let undo = board.make(mv);
                ensure(board.key() == n.board.key(), || {
                    format!(
                        "{}: its position is not node {}'s after it",
                        name(),
                        n.parent
                    )
                })?;
                let clock = if undo.zapped.is_some() {
                    0
                } else {
                    p.zap_clock + 1
                };
                ensure(n.zap_clock == clock, || {
                    format!("{}: zap clock {}, expected {clock}", name(), n.zap_clock)
                })?;
            }
            let valued = n.children.iter().all(|&c| self.nodes[c].depth.is_some());
            if n.children.is_empty() || !valued {
                continue;
            }
            let best = n
                .best
                .ok_or_else(|| format!("{}: valued but no best child", name()))?;
            let b = &self.nodes[best];
            let top = n.children.iter().map(|&c| up(self.nodes[c].value)).max();
            ensure(top == Some(up(b.value)), || {
                format!("{}: best child {best} is not the best", name())
            })?;
            ensure(
                n.value == up(b.value) && n.depth == b.depth.map(|d| d + 1),
                || {
                    format!(
                        "{}: value {} depth {:?}, its best child's {} {:?}",
                        name(),
                        n.value,
                        n.depth,
                        b.value,
                        b.depth
                    )
                },
            )?;
            let all = n.children.iter().all(|&c| self.nodes[c].exact);
            let proven = n.value >= MATE_BOUND && b.exact;
            ensure(n.exact == (all || proven), || {
                format!(
                    "{}: final {} but children say {}",
                    name(),
                    n.exact,
                    all || proven
                )
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::tree::Tree;
    use crate::check_rep::CheckRep;
    use crate::rules::fen;
    use crate::search::{Params, Root};

    #[test]
    fn a_wrong_value_and_a_wrong_position_are_caught() {
        let params = Params::default();
        let mut tree = Tree::new(&Root::new(fen::parse(fen::STARTPOS).unwrap()), &params);
        let fresh = tree.expand(super::ROOT);
        for (i, &c) in fresh.iter().enumerate() {
            tree.set_leaf(c, i as i32 % 7 - 3, 0, Vec::new());
        }
        assert_eq!(tree.check_rep(), Ok(()));
        let mut bad = Tree::new(&Root::new(fen::parse(fen::STARTPOS).unwrap()), &params);
        bad.expand(super::ROOT);
        for &c in &fresh {
            bad.set_leaf(c, 0, 0, Vec::new());
        }
        bad.nodes[super::ROOT].value = 5;
        assert!(bad.check_rep().unwrap_err().contains("value 5"));
        tree.nodes[fresh[3]].board = tree.nodes[fresh[4]].board.clone();
        assert!(tree
            .check_rep()
            .unwrap_err()
            .contains("is not node 0's after it"));
    }
}
