//! Which promotion is worth most: for every leaf that can be deepened, the
//! probability that its value, once searched as deep as the best line, lies
//! across the root's decision (its *benefit*: the error model's
//! distribution of the change over its *missing depth*, the best line's
//! depth less its own, at least one ply) over the nodes one more ply
//! costs.
//!
//! Values here are the root side's: a root move's value `V` is its node's
//! value one ply up; a reply's is its own (the root side is to move
//! there). With `b` the best root move and `V₂` the second best value:
//! - the best move's decision falls if any of its replies drops below
//!   `V₂` (the opponent finds a refutation): a reply `r` is worth
//!   `P(v_r + Δ < V₂)`;
//! - another move `m` overtakes only if every reply at or below `V_b` (its
//!   *blockers*) rises above it: each blocker is worth the product of
//!   their chances `Π P(v_r + Δ > V_b)` (zero if an exact one blocks);
//! - a root move not yet expanded is one leaf, worth `P(V_b + Δ < V₂)` if
//!   it is the best, `P(V_m + Δ > V_b)` if not; expanding it costs its
//!   replies' quiescence searches.

use super::model::ErrorModel;
use super::tree::{up, Tree, ROOT};

/// What a promotion does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A root move's replies added and searched at depth 0 (one batch).
    Expand,
    /// A reply searched one ply deeper than its `depth`.
    Deepen { depth: u32 },
}

/// One possible promotion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    pub node: usize,
    pub kind: Kind,
    /// The probability that it changes the root's best move.
    pub benefit: f64,
    /// Its expected nodes.
    pub cost: f64,
}

impl Candidate {
    pub fn ratio(&self) -> f64 {
        self.benefit / self.cost
    }

    /// The depth below the root its search reaches.
    pub fn reach(&self, tree: &Tree) -> u32 {
        let ply = tree.nodes[self.node].ply;
        match self.kind {
            Kind::Expand => ply + 1,
            Kind::Deepen { depth } => ply + depth + 1,
        }
    }
}

/// Every promotion with a benefit, in the tree's order (root moves in
/// generation order, each one's replies after it). None while fewer than
/// two root moves are valued: with one there is nothing to decide.
pub fn candidates(tree: &Tree, model: &ErrorModel) -> Vec<Candidate> {
    let ranked = tree.ranked();
    let [b, second, ..] = ranked[..] else {
        return Vec::new();
    };
    let value = |n: usize| up(tree.nodes[n].value);
    let (best, v2) = (value(b), value(second));
    // The best line's depth below the root, and a leaf's missing depth.
    let target = tree.nodes[ROOT].depth.unwrap_or(1);
    let missing = |n: usize| {
        let node = &tree.nodes[n];
        let reach = node.ply + node.depth.unwrap_or(0);
        f64::from(target.saturating_sub(reach).max(1))
    };
    // P(the change over `plies` is at most x), and above it.
    let below = |x: i32, plies: f64| model.cdf(f64::from(x), plies);
    let above = |x: i32, plies: f64| 1.0 - below(x, plies);
    let mut out = Vec::new();
    for &m in &tree.nodes[ROOT].children {
        let node = &tree.nodes[m];
        if node.exact || node.depth.is_none() {
            continue;
        }
        if node.children.is_empty() {
            let benefit = if m == b {
                below(v2 - best, missing(m))
            } else {
                above(best - value(m), missing(m))
            };
            let cost = model.nodes(0) * f64::from(node.moves.max(1));
            out.push(Candidate {
                node: m,
                kind: Kind::Expand,
                benefit,
                cost,
            });
            continue;
        }
        // A reply's value is already the root side's.
        let replies = node.children.iter().map(|&r| (r, &tree.nodes[r]));
        let blockers: f64 = if m == b {
            1.0
        } else {
            replies
                .clone()
                .filter(|(_, r)| r.value <= best)
                .map(|(i, r)| {
                    if r.exact {
                        0.0
                    } else {
                        above(best - r.value, missing(i))
                    }
                })
                .product()
        };
        for (r, reply) in replies {
            let Some(depth) = reply.depth.filter(|_| !reply.exact) else {
                continue;
            };
            let benefit = if m == b {
                below(v2 - reply.value, missing(r))
            } else if reply.value <= best {
                blockers
            } else {
                0.0
            };
            out.push(Candidate {
                node: r,
                kind: Kind::Deepen { depth },
                benefit,
                cost: model.deepening(depth),
            });
        }
    }
    out
}

/// The candidate with the best benefit per node among those reaching at
/// most `max_reach` plies below the root and worth at least `floor`; the
/// first of equals.
pub fn pick(tree: &Tree, model: &ErrorModel, max_reach: u32, floor: f64) -> Option<Candidate> {
    candidates(tree, model)
        .into_iter()
        .filter(|c| c.benefit >= floor && c.reach(tree) <= max_reach)
        .fold(None, |best: Option<Candidate>, c| match best {
            Some(b) if b.ratio() >= c.ratio() => Some(b),
            _ => Some(c),
        })
}

#[cfg(test)]
mod tests {
    use super::super::model::{normal_cdf, ErrorModel, Family};
    use super::super::tree::{Tree, ROOT};
    use super::*;
    use crate::rules::fen;
    use crate::search::{Params, Root};

    /// The two Kings' endgame with the root's values set by hand (the root
    /// side's view): A = 30 (expanded: replies 30 at depth 2, 60, 200, the
    /// rest 300), B = 10 (expanded: replies 10, 40, the rest 300), C = −20
    /// (a leaf), every other root move −500; a spread of 50 cp × k
    /// (growth 1), normal, `ebf` 3, `nodes0` 10, `qnodes` 10. By hand,
    /// with Φ the normal distribution: V_b = 30 (A), V₂ = 10 (B), the best
    /// line 4 plies deep (A's reply 30: 2 plies of tree and its depth 2);
    /// a depth-0 reply misses 2 plies (spread 100), C 3 (spread 150):
    /// - B's reply 10 is its only blocker: 1 − Φ(20/100) = 0.42074 for a
    ///   ply from depth 0, 30 − 10 = 20 nodes: 0.021037 a node;
    /// - A's reply 60: Φ((10 − 60)/100) = 0.30854, 20 nodes: 0.015427;
    /// - C expanded: 1 − Φ(50/150) = 0.36944 for its 6 replies' depth-0
    ///   searches, 60 nodes: 0.0061573;
    /// - A's reply 30 at depth 2, the best line itself (one ply):
    ///   Φ(−20/50) = 0.34458, 270 − 90 = 180 nodes: 0.0019143;
    /// - A's reply 200: Φ(−190/100) = 0.028717 over 20: 0.0014358.
    #[test]
    fn the_promotion_order_matches_a_hand_computation() {
        let model = ErrorModel {
            error_cp: 50.0,
            growth: 1.0,
            ebf: 3.0,
            nodes0: 10.0,
            qnodes: 10.0,
            family: Family::Normal,
            quantiles: vec![0.0, 1.0],
        };
        let params = Params::default();
        let mut tree = Tree::new(&Root::new(fen::parse(fen::ENDGAME).unwrap()), &params);
        let moves = tree.expand(ROOT);
        let (a, b, c) = (moves[0], moves[1], moves[2]);
        let a_replies = tree.expand(a);
        let b_replies = tree.expand(b);
        assert_eq!(tree.nodes[c].moves, 6, "C's replies");
        for (i, &r) in a_replies.iter().enumerate() {
            let (value, depth) = [(30, 2), (60, 0), (200, 0)]
                .get(i)
                .copied()
                .unwrap_or((300, 0));
            tree.set_leaf(r, value, depth, Vec::new());
        }
        for (i, &r) in b_replies.iter().enumerate() {
            let value = [10, 40].get(i).copied().unwrap_or(300);
            tree.set_leaf(r, value, 0, Vec::new());
        }
        // A root move's node holds the opponent's view.
        for &m in &moves[2..] {
            let v = if m == c { -20 } else { -500 };
            tree.set_leaf(m, -v, 0, Vec::new());
        }
        assert_eq!(tree.ranked()[..3], [a, b, c]);
        let mut all = candidates(&tree, &model);
        all.sort_by(|x, y| y.ratio().total_cmp(&x.ratio()));
        let phi = normal_cdf;
        let expected = [
            (b_replies[0], 1.0 - phi(0.2), 20.0),
            (a_replies[1], phi(-0.5), 20.0),
            (c, 1.0 - phi(1.0 / 3.0), 60.0),
            (a_replies[0], phi(-0.4), 180.0),
            (a_replies[2], phi(-1.9), 20.0),
        ];
        for (got, (node, benefit, cost)) in all.iter().zip(expected) {
            assert_eq!(got.node, node, "{all:?}");
            assert!((got.benefit - benefit).abs() < 1e-9, "{got:?}");
            assert_eq!(got.cost, cost, "{got:?}");
        }
        assert_eq!(tree.nodes[ROOT].depth, Some(4));
        assert!((all[0].ratio() - 0.021_037).abs() < 1e-6);
        assert_eq!(all[2].kind, Kind::Expand);
        assert_eq!(all[3].kind, Kind::Deepen { depth: 2 });
        // B's reply 40 is no blocker: deepening it cannot help B overtake.
        let b2 = all.iter().find(|x| x.node == b_replies[1]).unwrap();
        assert_eq!(b2.benefit, 0.0);
        assert_eq!(
            pick(&tree, &model, 64, 1e-4).map(|x| x.node),
            Some(b_replies[0])
        );
    }
}
