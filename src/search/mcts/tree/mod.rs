//! The search tree in one arena: nodes in one vector, edges in another,
//! each node's edges contiguous (its moves, priors, visits, values and
//! child). A node is made only when a playout first reaches it, whole:
//! all its moves with their priors. Edges whose move ends the game (a King
//! zapped, a draw) are never given a child; they carry their exact result
//! as a [`Proof`], and the solver proves nodes from them.
//!
//! The arena keeps within a byte budget counted on the vectors' capacity:
//! it grows by doubling up to the budget, and once a node no longer fits
//! none is added (`full`). The root is made whatever the budget: every
//! answer needs its moves.
//!
//! Selection is PUCT's (its constants in `puct`).

pub use super::edge::{Edge, Proof, NONE, PENDING};
pub use super::puct::Puct;
use crate::rules::moves::Move;
use std::mem::size_of;

/// The root's node.
pub const ROOT: u32 = 0;
/// A node is searched at most this many times past its first search
/// (`mcts_ab_grow`): its last search is this many plies deeper.
pub const MAX_SEARCHES: u32 = 8;

/// A position of the tree: where its edges are, and the playouts that
/// passed through it (its creating one included).
#[derive(Clone, Copy, Debug)]
pub struct Node {
    pub first: u32,
    pub len: u32,
    pub visits: u32,
    /// Of `visits`, the playouts that ended at the position before it had
    /// a node (while the tree was full: a reused, compacted tree has room
    /// again): its edge counted them, its own edges did not.
    pub leaf_visits: u32,
    /// The edges in the order PUCT tries them, a prefix of `len`: all
    /// tried (visited, in flight or proven) but perhaps the last, which is
    /// the untried edge of the highest prior; the edges after it are
    /// untried (see [`Tree::select`]).
    pub ordered: u32,
    /// The searches its position has had (`mcts_ab_visits`, and again
    /// with `mcts_ab_grow`).
    pub searches: u8,
}

pub struct Tree {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    budget: usize,
    full: bool,
    /// Selection's constants: the search's, set by it.
    pub puct: Puct,
}

impl Tree {
    /// An empty tree that will keep within `budget` bytes (the root aside).
    pub fn new(budget: usize) -> Tree {
        Tree {
            nodes: Vec::new(),
            edges: Vec::new(),
            budget,
            full: false,
            puct: Puct::default(),
        }
    }

    /// The bytes the arena holds (its vectors' capacity).
    pub fn bytes(&self) -> usize {
        self.nodes.capacity() * size_of::<Node>() + self.edges.capacity() * size_of::<Edge>()
    }

    /// Whether a node failed to fit in the budget.
    pub fn full(&self) -> bool {
        self.full
    }

    /// Makes the root from its edges, whatever the budget.
    pub fn add_root(&mut self, edges: &[Edge]) {
        self.nodes.clear();
        self.edges.clear();
        self.edges.extend_from_slice(edges);
        self.nodes.push(Node {
            first: 0,
            len: edges.len() as u32,
            visits: 0,
            leaf_visits: 0,
            ordered: 0,
            searches: 0,
        });
    }

    /// Adds a node with `edges` and returns its index, or `None` (and the
    /// tree is full from then on) when it does not fit the budget. Its
    /// visits: the playout that makes it, and the `leaf_visits` its edge
    /// had before (see [`Node::leaf_visits`]).
    pub fn add(&mut self, edges: &[Edge], leaf_visits: u32) -> Option<u32> {
        let index = u32::try_from(self.nodes.len())
            .ok()
            .filter(|&i| i < PENDING);
        let first = u32::try_from(self.edges.len() + edges.len()).ok();
        let node_room = if self.nodes.len() == self.nodes.capacity() {
            size_of::<Node>()
        } else {
            0
        };
        let spare = self.budget.saturating_sub(self.bytes() + node_room);
        let fits =
            index.is_some() && first.is_some() && reserve(&mut self.edges, edges.len(), spare) && {
                let spare = self.budget.saturating_sub(self.bytes());
                reserve(&mut self.nodes, 1, spare)
            };
        let (Some(index), true) = (index, fits) else {
            self.full = true;
            return None;
        };
        self.nodes.push(Node {
            first: self.edges.len() as u32,
            len: edges.len() as u32,
            visits: leaf_visits.saturating_add(1),
            leaf_visits,
            ordered: 0,
            searches: 0,
        });
        self.edges.extend_from_slice(edges);
        Some(index)
    }

    /// The edges of `node`, as indices into `edges`.
    pub fn range(&self, node: u32) -> std::ops::Range<usize> {
        let n = &self.nodes[node as usize];
        n.first as usize..(n.first + n.len) as usize
    }

    /// The edge PUCT picks at `node`: the largest
    /// `Q + C·P·√N / (1 + n)` ([`Puct`]'s `C`), `Q` exact for a proven edge and the
    /// first-play urgency for an unvisited one; ties to the first. Playouts
    /// in flight count in `n` and `N` and as losses in `Q`.
    ///
    /// Only the node's ordered edges are read: the untried edges after
    /// them score no more than the untried one of the highest prior, which
    /// is kept last among them (moved there, among untried edges, when the
    /// one before is tried). The edges after are untried with no higher
    /// prior, or lost King zaps (valued 0, below any first-play urgency),
    /// or winning ones (whose node is proven and never walked through).
    /// [`Tree::select_plain`], reading them all, is the oracle.
    pub fn select(&mut self, node: u32) -> usize {
        let Node {
            first,
            len,
            ordered,
            ..
        } = self.nodes[node as usize];
        let (first, mut end) = (first as usize, (first + ordered) as usize);
        let stop = first + len as usize;
        // Lost King zaps of a higher prior are ordered on the way.
        while end < stop && (end == first || tried(&self.edges[end - 1])) {
            let mut top = end;
            for i in end..stop {
                if self.edges[i].prior() > self.edges[top].prior() {
                    top = i;
                }
            }
            self.edges[end..=top].rotate_right(1);
            end += 1;
        }
        self.nodes[node as usize].ordered = (end - first) as u32;
        self.select_in(node, first..end)
    }

    /// [`Tree::select`] reading every edge of `node`.
    pub fn select_plain(&self, node: u32) -> usize {
        self.select_in(node, self.range(node))
    }

    /// PUCT's pick among the edges `range` of `node`.
    fn select_in(&self, node: u32, range: std::ops::Range<usize>) -> usize {
        let (mut w, mut n, mut flying) = (0.0, 0u64, 0u64);
        for e in &self.edges[range.clone()] {
            w += e.w;
            n += u64::from(e.visits);
            flying += u64::from(e.in_flight);
        }
        let fpu = if n > 0 {
            (w / n as f64 - self.puct.fpu_reduction).max(0.0)
        } else {
            0.5
        };
        let visits = u64::from(self.nodes[node as usize].visits) + flying;
        let sqrt_n = (visits.max(1) as f64).sqrt();
        let c = self.puct.c;
        let mut best = (range.start, f64::NEG_INFINITY);
        for i in range {
            let e = &self.edges[i];
            let n = f64::from(e.visits) + f64::from(e.in_flight);
            let u = c * f64::from(e.prior()) * sqrt_n / (1.0 + n);
            let q = match e.proof() {
                // A proven loss is the mover's last resort: with a prior
                // the searches raised, exploration would keep picking it.
                Some(Proof::Loss(_)) => {
                    if best.1 == f64::NEG_INFINITY {
                        best = (i, f64::MIN);
                    }
                    continue;
                }
                Some(p) => Some(p.value()),
                None if n > 0.0 => Some(e.w / n),
                None => None,
            };
            let score = q.unwrap_or(fpu) + u;
            if score > best.1 {
                best = (i, score);
            }
        }
        best.0
    }

    /// Whether `node` is due a search: `at` playouts or more have passed
    /// through it and none has searched it (`mcts_ab_visits`), or with
    /// `grow` g > 1, `at`·g^k after its k-th search (`mcts_ab_grow`). The
    /// searches it had before (each one a ply deeper than the last),
    /// counting this one as made.
    pub fn due(&mut self, node: u32, at: Option<u32>, grow: f64) -> Option<u32> {
        let n = &mut self.nodes[node as usize];
        let at = f64::from(at?);
        let k = u32::from(n.searches);
        let next = match k {
            0 => at,
            _ if grow <= 1.0 || k > MAX_SEARCHES => return None,
            _ => (at * grow.powi(k as i32)).ceil(),
        };
        (f64::from(n.visits) >= next).then(|| {
            n.searches += 1;
            k
        })
    }

    /// Gives `share` of `node`'s priors to the edge of `mv`, the others
    /// keeping the rest in proportion (nothing if no edge plays `mv`, or
    /// its edge holds that share already, within the priors' rounding).
    /// Selection's order is then found again: the tried edges stay
    /// ordered, the untried ones are ranked anew.
    pub fn lead(&mut self, node: u32, mv: Move, share: f32) {
        let range = self.range(node);
        // A node searched again with the same best move keeps its priors:
        // mixed in at each search, the share would compound towards 1.
        match self.edges[range.clone()].iter().find(|e| e.mv == mv) {
            Some(e) if e.prior() < share * 0.99 => {}
            _ => return,
        }
        for e in &mut self.edges[range.clone()] {
            let pv = if e.mv == mv { share } else { 0.0 };
            e.set_prior((1.0 - share) * e.prior() + pv);
        }
        let n = &mut self.nodes[node as usize];
        let ordered = &self.edges[range.start..range.start + n.ordered as usize];
        n.ordered = ordered.iter().take_while(|e| tried(e)).count() as u32;
    }

    /// The proof of the edge into `node` (its mover's view), if its edges
    /// prove one: a winning move for the side to move loses the edge's
    /// mover the game (the quickest), all moves lost for it wins it (the
    /// longest defence); all proven with the best a draw is a draw, and so
    /// is a node without moves.
    pub fn solve(&self, node: u32) -> Option<Proof> {
        let (mut all, mut draw, mut longest, mut quickest) = (true, false, 0u16, None);
        for e in &self.edges[self.range(node)] {
            match e.proof() {
                Some(Proof::Win(k)) => quickest = Some(quickest.map_or(k, |q: u16| q.min(k))),
                Some(Proof::Loss(k)) => longest = longest.max(k),
                Some(Proof::Draw) => draw = true,
                None => all = false,
            }
        }
        if let Some(k) = quickest {
            return Some(Proof::Loss(k.saturating_add(1)));
        }
        let empty = self.nodes[node as usize].len == 0;
        match (all, draw || empty) {
            (false, _) => None,
            (true, true) => Some(Proof::Draw),
            (true, false) => Some(Proof::Win(longest.saturating_add(1))),
        }
    }

    /// Adds a playout's `value` (for the mover of the path's last edge) to
    /// every edge and node of `path` (node, edge), alternating the view.
    pub fn backup(&mut self, path: &[(u32, usize)], value: f64) {
        let mut v = value;
        for &(node, e) in path.iter().rev() {
            let edge = &mut self.edges[e];
            edge.visits = edge.visits.saturating_add(1);
            edge.w += v;
            let n = &mut self.nodes[node as usize];
            n.visits = n.visits.saturating_add(1);
            v = 1.0 - v;
        }
    }

    /// Takes the playout of `path` off the edges' playouts in flight.
    pub fn release(&mut self, path: &[(u32, usize)]) {
        for &(_, e) in path {
            let edge = &mut self.edges[e];
            edge.in_flight = edge.in_flight.saturating_sub(1);
        }
    }

    /// Carries proofs up `path` from its last edge for as long as each
    /// edge's child is proven. The values already backed up stay as they
    /// are: a proven edge is valued by its proof from now on.
    pub fn prove_up(&mut self, path: &[(u32, usize)]) {
        for &(_, e) in path.iter().rev() {
            let edge = self.edges[e];
            let proof = match edge.proof() {
                Some(p) => p,
                None if edge.child().is_some() => match self.solve(edge.child) {
                    Some(p) => p,
                    None => return,
                },
                None => return,
            };
            self.edges[e].set_proof(Some(proof));
        }
    }

    /// The edge to play at `node`: the quickest proven win; else the most
    /// visited edge not proven lost (ties to the better mean, then the
    /// first); else, all lost, the longest defence.
    pub fn best(&self, node: u32) -> Option<usize> {
        let range = self.range(node);
        let edges = &self.edges[range.clone()];
        let at = |i: usize| range.start + i;
        let win = |e: &Edge| match e.proof() {
            Some(Proof::Win(k)) => Some(k),
            _ => None,
        };
        if let Some((i, _)) = edges
            .iter()
            .enumerate()
            .filter_map(|(i, e)| win(e).map(|k| (i, k)))
            .min_by_key(|&(i, k)| (k, i))
        {
            return Some(at(i));
        }
        let mut best: Option<(usize, u32, f64)> = None;
        for (i, e) in edges.iter().enumerate() {
            if lost(e) {
                continue;
            }
            let q = e.q().unwrap_or(0.0);
            if best.is_none_or(|(_, n, bq)| e.visits > n || e.visits == n && q > bq) {
                best = Some((i, e.visits, q));
            }
        }
        if let Some((i, _, _)) = best {
            return Some(at(i));
        }
        let loss = |e: &Edge| match e.proof() {
            Some(Proof::Loss(k)) => k,
            _ => 0,
        };
        let i = (0..edges.len()).max_by_key(|&i| (loss(&edges[i]), std::cmp::Reverse(i)))?;
        Some(at(i))
    }

    /// The edges of `node` as reported, best first: [`best`](Tree::best),
    /// then the others by visits (ties to the better mean, then the first).
    pub fn ranked(&self, node: u32) -> Vec<usize> {
        let Some(best) = self.best(node) else {
            return Vec::new();
        };
        let mut rest: Vec<usize> = self.range(node).filter(|&e| e != best).collect();
        let key = |e: usize| {
            let edge = &self.edges[e];
            (edge.visits, edge.q().unwrap_or(0.0))
        };
        rest.sort_by(|&a, &b| {
            key(b)
                .partial_cmp(&key(a))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        std::iter::once(best).chain(rest).collect()
    }

    /// The line from edge `e` on: its move, then the best edges below it
    /// as far as the tree goes.
    pub fn line_from(&self, e: usize) -> Vec<Move> {
        let mut line = vec![self.edges[e].mv];
        let mut edge = self.edges[e];
        while let Some(child) = edge.child().filter(|_| edge.visits > 0) {
            let Some(next) = self.best(child) else {
                break;
            };
            edge = self.edges[next];
            line.push(edge.mv);
        }
        line
    }

    /// The line of best edges from the root, as far as the tree goes.
    pub fn pv(&self) -> Vec<Move> {
        self.best(ROOT).map_or(Vec::new(), |e| self.line_from(e))
    }
}

/// Whether PUCT has tried the edge: visited, in flight or proven.
fn tried(e: &Edge) -> bool {
    e.visits > 0 || e.in_flight > 0 || e.proof().is_some()
}

/// Whether the edge is proven lost for its mover.
fn lost(e: &Edge) -> bool {
    matches!(e.proof(), Some(Proof::Loss(_)))
}

/// Makes room in `v` for `extra` more items, taking at most `spare` more
/// bytes: doubling the capacity when that fits, else exactly what fits.
/// `false` when even `extra` does not.
fn reserve<T>(v: &mut Vec<T>, extra: usize, spare: usize) -> bool {
    let need = v.len() + extra;
    if need <= v.capacity() {
        return true;
    }
    let most = v.capacity() + spare / size_of::<T>();
    if need > most {
        return false;
    }
    let want = (v.capacity() * 2).max(need).max(16).min(most);
    v.reserve_exact(want - v.len());
    true
}

#[cfg(test)]
mod tests;
