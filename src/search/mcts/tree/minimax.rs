//! Implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant,
//! 2014): beside the playouts' means, each node keeps the minimax of its
//! subtree's own values, and PUCT can blend the two (`mcts_minimax`).

use super::{Edge, Tree};

impl Tree {
    /// With `mcts_minimax`, sets each node of `path` (whose values and
    /// proofs are backed up) to the best of its edges' implicit minimax
    /// values (Lanctot, Winands, Pepels and Sturtevant, 2014: a minimax
    /// of the leaves' own values beside the playouts' means), from the
    /// bottom up; a node none of whose edges has one keeps its
    /// position's own value.
    pub fn minimax_up(&mut self, path: &[(u32, usize)]) {
        if self.puct.minimax == 0.0 {
            return;
        }
        for &(node, _) in path.iter().rev() {
            if self.nodes[node as usize].scored {
                continue;
            }
            if let Some(best) = self.best_minimax(node) {
                self.nodes[node as usize].minimax = best as f32;
            }
        }
    }

    /// With `mcts_minimax` and `mcts_ab_minimax`, makes `value` (for its
    /// side to move) the implicit minimax value of `node`, just searched.
    pub fn score(&mut self, node: u32, value: f64) {
        if self.puct.minimax > 0.0 && self.puct.searched_minimax {
            let n = &mut self.nodes[node as usize];
            n.minimax = value as f32;
            n.scored = true;
        }
    }

    /// An edge's implicit minimax value for its mover: its proof's, else
    /// one less its child's (for the child's side to move), else its mean
    /// if it has playouts (a leaf the full tree did not keep), else none.
    pub fn edge_minimax(&self, e: &Edge) -> Option<f64> {
        match (e.proof(), e.child()) {
            (Some(p), _) => Some(p.value()),
            (None, Some(c)) => Some(1.0 - f64::from(self.nodes[c as usize].minimax)),
            (None, None) => e.q(),
        }
    }

    /// The best implicit minimax value of `node`'s edges, if one has any.
    pub fn best_minimax(&self, node: u32) -> Option<f64> {
        self.edges[self.range(node)]
            .iter()
            .filter_map(|e| self.edge_minimax(e))
            .reduce(f64::max)
    }

    /// The value PUCT gives an unproven edge of `mean`: with
    /// `mcts_minimax`, that share of it replaced by its implicit minimax
    /// value, which a single good or bad reply moves as the mean does not.
    pub(super) fn blend(&self, e: &Edge, mean: f64) -> f64 {
        let share = self.puct.minimax;
        if share == 0.0 {
            return mean;
        }
        self.edge_minimax(e)
            .map_or(mean, |m| (1.0 - share) * mean + share * m)
    }
}
