//! Best-first search by depth promotion: a tree over the root's moves and
//! their replies (`tree`), each leaf valued by our PVS at its own depth
//! (one worker, the shared table), grown one promotion at a time, always
//! the one with the best ratio of benefit — the probability that a ply
//! more changes the root's decision, from the fitted error model
//! (`model`) — to cost, the nodes that ply takes (`select`).
//!
//! Here, `think`: the root's moves searched at depth 0 as one batch, then
//! promotions — a root move's first one adds its replies and searches them
//! at depth 0 as one batch, later ones search a reply a ply deeper — until
//! a limit, or until the best promotion's benefit over its cost, times the
//! nodes the time left buys, falls below [`STOP`]: nothing left is worth
//! its time. A report's `depth` is the root's: one more than its best
//! move's (a root move's is one more than its best reply's, a reply's its
//! search's), `seldepth` the deepest a leaf's search went, `pv` the tree's
//! best line and the leaf's line after it. `go depth N` promotes no leaf
//! whose search would reach more than N plies below the root. One thread:
//! the batches are where more would go.

mod check;
pub mod model;
pub mod select;
pub mod tree;

use super::pvs::order::{Order, MAX_PLY};
use super::pvs::Worker;
use super::report::{Answer, Iteration, Line};
use super::root::Root;
use super::shared::Shared;
use super::time::{Plan, SearchLimits};
use super::{Params, MATE_BOUND};
use model::ErrorModel;
use select::{Candidate, Kind};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use tree::{up, Tree, ROOT};

/// The least chance of changing the root's move, per node, times the
/// nodes the time left buys, that a promotion must offer (5%).
const STOP: f64 = 0.05;

/// A promotion less likely than this to change the decision is never
/// worth it, however much time is left (`go infinite` and `go depth`
/// have no clock to weigh it against).
const FLOOR: f64 = 1e-4;

/// Nodes a second assumed until the search has run `SETTLED` seconds and
/// measured its own.
const FIRST_NPS: f64 = 1e6;
const SETTLED: f64 = 0.01;

/// The result of a search, beside the shared answer.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub answer: Answer,
    /// Promotions by the depth below the root their search reached
    /// (an expansion's batch counts once per reply).
    pub promotions: Vec<u64>,
    /// Nodes spent by the same depth.
    pub nodes_by_depth: Vec<u64>,
    /// The tree's positions at the end.
    pub tree_nodes: usize,
}

/// Searches `root` within `limits` with `model`, one `order` (the PVS
/// worker's move-ordering tables), calling `report` whenever the root's
/// depth or best move changes, and at the end, with the iteration, the
/// elapsed time and the nodes. With `infinite` or `ponder`, waits for
/// `shared.stop` before answering.
pub fn think(
    root: &Root,
    limits: &SearchLimits,
    params: Params,
    shared: &Shared,
    order: &mut Order,
    model: &ErrorModel,
    mut report: impl FnMut(&Iteration, Duration, u64),
) -> Outcome {
    let start = limits.start();
    shared.nodes.store(0, Ordering::Relaxed);
    shared.tt.new_search();
    let plan = Plan::new(limits, start);
    let leaf_params = Params {
        multipv: 1,
        ..params
    };
    let worker = Worker::new(root, leaf_params, shared, order, plan, limits.nodes, true);
    let mut s = Search {
        tree: Tree::new(root, &params),
        worker,
        params,
        limits,
        plan,
        pondered: shared.pondering.load(Ordering::Relaxed),
        shared,
        seldepth: 0,
        promotions: Vec::new(),
        nodes_by_depth: Vec::new(),
    };
    let fresh = s.tree.expand(ROOT);
    s.batch(&fresh);
    s.check();
    let mut shown: Option<(Option<u32>, Option<usize>)> = None;
    loop {
        let now = (s.tree.nodes[ROOT].depth, s.tree.nodes[ROOT].best);
        if shown != Some(now) && now.0.is_some() {
            if let Some(it) = s.iteration() {
                report(&it, start.elapsed(), s.worker.nodes());
            }
            shown = Some(now);
        }
        let Some(c) = s.next(model) else { break };
        s.promote(c);
        s.check();
    }
    while (limits.infinite || shared.pondering.load(Ordering::Relaxed))
        && !shared.stop.load(Ordering::Relaxed)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
    shared.stop.store(true, Ordering::Relaxed);
    let last = s.iteration();
    let now = (s.tree.nodes[ROOT].depth, s.tree.nodes[ROOT].best);
    if let Some(it) = last.as_ref().filter(|_| shown != Some(now)) {
        report(it, start.elapsed(), s.worker.nodes());
    }
    let best = s.best_move();
    let line = best.map(|m| s.tree.line(m)).unwrap_or_default();
    Outcome {
        answer: Answer {
            best: best.and_then(|m| s.tree.nodes[m].mv),
            ponder: line.first().copied(),
            last,
            nodes: s.worker.nodes(),
            elapsed: start.elapsed(),
            setup: None,
        },
        promotions: s.promotions,
        nodes_by_depth: s.nodes_by_depth,
        tree_nodes: s.tree.nodes.len(),
    }
}

/// One search's state.
struct Search<'a, 'l> {
    tree: Tree,
    worker: Worker<'a>,
    params: Params,
    limits: &'l SearchLimits,
    plan: Plan,
    /// The search began pondering and has not yet seen `ponderhit`.
    pondered: bool,
    shared: &'a Shared,
    seldepth: u32,
    promotions: Vec<u64>,
    nodes_by_depth: Vec<u64>,
}

impl Search<'_, '_> {
    fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
    }

    /// Searches leaf `n` to `depth` plies and carries the value up; false
    /// if the search was stopped first (the leaf keeps what it had).
    fn search(&mut self, n: usize, depth: u32) -> bool {
        let root = self.tree.root_of(n);
        self.worker.reset(&root, self.tree.root_side());
        let node = &self.tree.nodes[n];
        if node.depth.is_some() {
            self.worker.aim(node.value);
        }
        let before = self.worker.nodes();
        let Some(it) = self.worker.iterate(depth) else {
            return false;
        };
        let reach = (self.tree.nodes[n].ply + depth) as usize;
        let spent = self.worker.nodes() - before;
        for (counts, add) in [(&mut self.promotions, 1), (&mut self.nodes_by_depth, spent)] {
            if counts.len() <= reach {
                counts.resize(reach + 1, 0);
            }
            counts[reach] += add;
        }
        self.seldepth = self.seldepth.max(self.tree.nodes[n].ply + it.seldepth);
        self.tree.set_leaf(n, it.score, depth, it.pv);
        true
    }

    /// Searches new leaves at depth 0, one after the other, until a stop.
    fn batch(&mut self, leaves: &[usize]) {
        for &n in leaves {
            if self.stopped() || !self.search(n, 0) {
                return;
            }
        }
    }

    /// Carries out promotion `c`.
    fn promote(&mut self, c: Candidate) {
        match c.kind {
            Kind::Expand => {
                let fresh = self.tree.expand(c.node);
                if self.tree.nodes[c.node].children.is_empty() {
                    // No replies the Ko rule allows: nothing to deepen.
                    self.tree.nodes[c.node].exact = true;
                }
                self.batch(&fresh);
                let mut at = c.node;
                while at != ROOT {
                    self.tree.update(at);
                    at = self.tree.nodes[at].parent;
                }
                self.tree.update(ROOT);
            }
            Kind::Deepen { depth } => {
                self.search(c.node, depth + 1);
            }
        }
    }

    /// The next promotion, or none when the search should end: stopped, a
    /// limit reached, a proven win, or no promotion worth its nodes.
    fn next(&mut self, model: &ErrorModel) -> Option<Candidate> {
        let clock = !self.shared.pondering.load(Ordering::Relaxed);
        if clock && self.pondered {
            // `ponderhit`: our clock starts now, as the worker's does.
            self.pondered = false;
            self.plan.start = Instant::now();
        }
        let root = &self.tree.nodes[ROOT];
        let won = root.exact && root.value >= MATE_BOUND;
        // The whole goal: PVS stops starting iterations at part of it
        // because an iteration runs on past it; a promotion is short, and
        // the benefit rule already weighs what the time left buys.
        let past_goal = self.plan.soft.is_some_and(|g| self.plan.elapsed() >= g);
        if self.stopped() || won || clock && past_goal {
            return None;
        }
        let max_reach = self.limits.depth.unwrap_or(MAX_PLY as u32 / 2);
        let c = select::pick(&self.tree, model, max_reach, FLOOR)?;
        let budget = if clock { self.budget() } else { f64::INFINITY };
        let worth = c.ratio() * budget >= STOP;
        worth.then_some(c)
    }

    /// The nodes still to spend: to the node limit, or what the time to
    /// the soft limit buys at the speed so far; unbounded without either.
    fn budget(&self) -> f64 {
        let nodes = self.worker.nodes() as f64;
        let by_nodes = self.limits.nodes.map(|n| n as f64 - nodes);
        let by_time = self.plan.soft.map(|soft| {
            let elapsed = self.plan.elapsed().as_secs_f64();
            // The first milliseconds are mostly setting up.
            let nps = if elapsed > SETTLED {
                nodes / elapsed
            } else {
                FIRST_NPS
            };
            (soft.as_secs_f64() - elapsed).max(0.0) * nps
        });
        match (by_nodes, by_time) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b).unwrap_or(f64::INFINITY),
        }
    }

    /// The root move to play: the best valued one (after a stop in the
    /// first batch, the best of those valued so far; before any, the
    /// first).
    fn best_move(&self) -> Option<usize> {
        let ranked = self.tree.ranked();
        ranked
            .first()
            .or(self.tree.nodes[ROOT].children.first())
            .copied()
    }

    /// The root's state as an iteration: its value and line, and with
    /// `MultiPV` k the k best root moves' lines; none before a root move
    /// is valued. A stop within the first batch leaves a depth of 1 over
    /// the moves valued.
    fn iteration(&self) -> Option<Iteration> {
        let root = &self.tree.nodes[ROOT];
        let line = |m: usize| {
            let mut pv = vec![self.tree.nodes[m].mv.expect("a root move")];
            pv.extend(self.tree.line(m));
            Line {
                score: up(self.tree.nodes[m].value),
                pv,
                visits: None,
            }
        };
        let lines: Vec<Line> = self
            .tree
            .ranked()
            .into_iter()
            .take(self.params.multipv.max(1))
            .map(line)
            .collect();
        Some(Iteration {
            depth: root.depth.unwrap_or(1),
            seldepth: self.seldepth,
            score: lines.first()?.score,
            nodes: self.worker.nodes(),
            pv: lines.first()?.pv.clone(),
            lines,
        })
    }

    /// The tree's invariants, with `check_rep` on in debug builds.
    fn check(&self) {
        #[cfg(feature = "debug-commands")]
        if self.params.check_rep {
            crate::check_rep::check(&self.tree);
        }
    }
}
