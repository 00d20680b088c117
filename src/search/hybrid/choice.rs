//! Which search's move the hybrid plays: the final PVS's, unless the
//! tree's solver has proven a win (the quickest is played) or proven the
//! PVS's move lost (the tree's own move is played: its most visited move
//! not proven lost).

use crate::rules::moves::Move;
use crate::search::mcts::tree::{Proof, Tree, ROOT};

/// The search whose move is played.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum By {
    /// The tree's move (`Tree::best` at its root).
    Tree,
    /// The final PVS's.
    Search(Move),
}

/// The move played, given the tree and the final search's move (none if
/// it did not run or answered nothing).
pub fn choose(tree: &Tree, searched: Option<Move>) -> By {
    let edges = &tree.edges[tree.range(ROOT)];
    let proof = |m: Move| edges.iter().find(|e| e.mv == m).and_then(|e| e.proof());
    let won = edges
        .iter()
        .any(|e| matches!(e.proof(), Some(Proof::Win(_))));
    match searched {
        Some(m) if !won && !matches!(proof(m), Some(Proof::Loss(_))) => By::Search(m),
        _ => By::Tree,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mcts::tree::Edge;

    fn mv(text: &str) -> Move {
        Move::parse(text).unwrap()
    }

    fn tree() -> Tree {
        let mut t = Tree::new(1 << 20);
        t.add_root(&[
            Edge::new(mv("h0L"), 0.5, None),
            Edge::new(mv("g4L"), 0.5, None),
        ]);
        t
    }

    #[test]
    fn the_search_s_move_unless_a_win_is_proven_or_the_move_lost() {
        let mut t = tree();
        assert_eq!(choose(&t, Some(mv("g4L"))), By::Search(mv("g4L")));
        assert_eq!(choose(&t, None), By::Tree);
        t.edges[1].set_proof(Some(Proof::Loss(2)));
        assert_eq!(choose(&t, Some(mv("g4L"))), By::Tree);
        assert_eq!(choose(&t, Some(mv("h0L"))), By::Search(mv("h0L")));
        t.edges[1].set_proof(Some(Proof::Draw));
        assert_eq!(choose(&t, Some(mv("g4L"))), By::Search(mv("g4L")));
        t.edges[0].set_proof(Some(Proof::Win(1)));
        assert_eq!(choose(&t, Some(mv("g4L"))), By::Tree);
        assert_eq!(t.edges[t.best(ROOT).unwrap()].mv, mv("h0L"));
    }
}
