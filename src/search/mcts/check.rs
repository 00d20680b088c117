//! The tree's `check_rep` invariants: each node's visits are its edges'
//! (plus the playout that made it, and those that ended at its position
//! before it had a node), an edge into a node has the node's
//! visits (a proven one may have more: playouts end at it), no edge after
//! the node's ordered ones has been tried, every mean is an expected result (0 to 1), and a proven edge
//! into a node agrees with what the node's edges prove. While playouts are
//! in flight (more than one thread) the visit counts are not yet settled
//! and only the rest is checked. The search checks the nodes of each
//! playout's path, and the whole tree at the end, while the `check_rep`
//! option is on (only with the `debug-commands` feature).

use super::tree::{Proof, Tree, NONE, PENDING, ROOT};
use crate::check_rep::{ensure, CheckRep};

impl Tree {
    /// The invariants of `node` and its edges; `settled`: no playout is in
    /// flight, so every count is final.
    pub fn check_node(&self, node: u32, settled: bool) -> Result<(), String> {
        let n = self
            .nodes
            .get(node as usize)
            .ok_or(format!("no node {node}"))?;
        let end = n.first as usize + n.len as usize;
        ensure(end <= self.edges.len(), || {
            format!(
                "node {node}: edges {}..{end} of {}",
                n.first,
                self.edges.len()
            )
        })?;
        ensure(n.ordered <= n.len, || {
            format!("node {node}: {} edges ordered of {}", n.ordered, n.len)
        })?;
        let unordered = n.first as usize + n.ordered as usize..end;
        let stray = self.edges[unordered]
            .iter()
            .find(|e| e.visits > 0 || e.in_flight > 0 || e.child != NONE);
        ensure(stray.is_none(), || {
            format!(
                "node {node}: edge {} tried but not ordered",
                stray.unwrap().mv
            )
        })?;
        let mut sum = 0u64;
        for e in self.range(node) {
            let edge = &self.edges[e];
            sum += u64::from(edge.visits);
            ensure((0.0..=f64::from(edge.visits)).contains(&edge.w), || {
                format!(
                    "node {node} edge {}: w {} over {} visits",
                    edge.mv, edge.w, edge.visits
                )
            })?;
            let Some(child) = edge.child() else {
                ensure(
                    !settled || (edge.child == NONE && edge.in_flight == 0),
                    || format!("node {node} edge {}: in flight in a settled tree", edge.mv),
                )?;
                continue;
            };
            let c = self.nodes.get(child as usize).ok_or(format!(
                "node {node} edge {}: child {child} of {} nodes",
                edge.mv,
                self.nodes.len()
            ))?;
            // A playout ends at a proven edge: its node's visits stop there.
            let visits_agree = match edge.proof() {
                Some(_) => c.visits <= edge.visits,
                None => c.visits == edge.visits,
            };
            ensure(!settled || visits_agree, || {
                format!(
                    "node {node} edge {}: {} visits, its node {child} {}",
                    edge.mv, edge.visits, c.visits
                )
            })?;
            let kind = |p: Option<Proof>| p.as_ref().map(std::mem::discriminant);
            let solved = self.solve(child);
            ensure(kind(edge.proof()) == kind(solved), || {
                format!(
                    "node {node} edge {}: proof {:?}, its node proves {solved:?}",
                    edge.mv,
                    edge.proof()
                )
            })?;
        }
        // Less the playouts that ended here before the node was made.
        let visits = u64::from(n.visits.saturating_sub(n.leaf_visits));
        ensure(!settled || sum <= visits && visits <= sum + 1, || {
            format!("node {node}: {visits} visits, its edges {sum}")
        })
    }
}

/// Checks the nodes of a playout's `path` (see [`Tree::check_node`]);
/// exits on a broken invariant.
#[cfg(feature = "debug-commands")]
pub fn path(tree: &Tree, path: &[(u32, usize)], settled: bool) {
    for &(node, _) in path {
        crate::check_rep::report(Tree::NAME, tree.check_node(node, settled));
    }
}

impl CheckRep for Tree {
    const NAME: &'static str = "mcts tree";

    /// Every node settled (no playout in flight), and each node but the
    /// root the child of exactly one edge.
    fn check_rep(&self) -> Result<(), String> {
        let mut parents = vec![0u32; self.nodes.len()];
        for node in 0..self.nodes.len() as u32 {
            self.check_node(node, true)?;
            for e in self.range(node) {
                if let Some(c) = self.edges[e].child() {
                    parents[c as usize] += 1;
                }
            }
        }
        for (node, &p) in parents.iter().enumerate() {
            let want = u32::from(node as u32 != ROOT);
            ensure(p == want, || format!("node {node}: {p} parent edges"))?;
        }
        ensure(self.edges.iter().all(|e| e.child != PENDING), || {
            "a child still on its way in a settled tree".into()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::Move;
    use crate::search::mcts::tree::Edge;

    /// A root with two moves, the first grown into a node with one.
    fn small() -> Tree {
        let mv = |t: &str| Move::parse(t).unwrap();
        let mut t = Tree::new(1 << 20);
        t.add_root(&[
            Edge::new(mv("h0L"), 0.5, None),
            Edge::new(mv("g4L"), 0.5, None),
        ]);
        let child = t.add(&[Edge::new(mv("b3L"), 1.0, None)], 0).unwrap();
        assert_eq!(t.select(ROOT), 0);
        t.edges[0].child = child;
        t.backup(&[(ROOT, 0)], 0.6);
        t
    }

    #[test]
    fn a_tree_grown_by_its_playouts_passes() {
        let mut t = small();
        assert_eq!(t.check_rep(), Ok(()));
        assert_eq!(t.select(1), 2);
        t.backup(&[(ROOT, 0), (1, 2)], 0.3);
        assert_eq!(t.check_rep(), Ok(()));
    }

    /// An edge visited while the tree was full, then grown (a reused tree
    /// has room again): its node counts the earlier playouts too.
    #[test]
    fn a_node_made_after_its_edge_ended_playouts_keeps_their_count() {
        let mv = |t: &str| Move::parse(t).unwrap();
        let mut t = Tree::new(1 << 20);
        t.add_root(&[Edge::new(mv("h0L"), 1.0, None)]);
        assert_eq!(t.select(ROOT), 0);
        t.backup(&[(ROOT, 0)], 0.6);
        t.backup(&[(ROOT, 0)], 0.4);
        let child = t.add(&[Edge::new(mv("b3L"), 1.0, None)], t.edges[0].visits);
        t.edges[0].child = child.unwrap();
        t.backup(&[(ROOT, 0)], 0.5);
        assert_eq!(t.check_rep(), Ok(()));
        assert_eq!(t.select(1), 1);
        t.backup(&[(ROOT, 0), (1, 1)], 0.3);
        assert_eq!(t.check_rep(), Ok(()));
        assert_eq!((t.nodes[1].visits, t.edges[0].visits), (4, 4));
    }

    #[test]
    fn each_broken_invariant_is_named() {
        let mut t = small();
        t.nodes[ROOT as usize].visits = 5;
        assert_eq!(t.check_rep().unwrap_err(), "node 0: 5 visits, its edges 1");
        let mut t = small();
        t.edges[0].w = 2.0;
        assert_eq!(
            t.check_rep().unwrap_err(),
            "node 0 edge h0L: w 2 over 1 visits"
        );
        let mut t = small();
        t.nodes[1].visits = 2;
        assert!(t
            .check_rep()
            .unwrap_err()
            .contains("1 visits, its node 1 2"));
        let mut t = small();
        t.edges[0].set_proof(Some(Proof::Draw));
        assert!(t
            .check_rep()
            .unwrap_err()
            .contains("proof Some(Draw), its node proves None"));
        let mut t = small();
        t.nodes[ROOT as usize].ordered = 2;
        t.edges[1].child = PENDING;
        assert!(t
            .check_rep()
            .unwrap_err()
            .contains("in flight in a settled tree"));
        let mut t = small();
        t.edges[1].visits = 1;
        assert_eq!(
            t.check_rep().unwrap_err(),
            "node 0: edge g4L tried but not ordered"
        );
        let mut t = small();
        t.nodes[ROOT as usize].ordered = 2;
        t.edges[1].child = 1;
        t.edges[1].visits = 1;
        t.edges[1].w = 0.5;
        t.nodes[ROOT as usize].visits = 2;
        assert_eq!(t.check_rep().unwrap_err(), "node 1: 2 parent edges");
    }
}
