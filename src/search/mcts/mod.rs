//! Monte-Carlo tree search: AlphaZero-style PUCT over an arena tree
//! (`tree`), each playout adding at most one node and valuing it by the
//! evaluation's score turned into an expected result through the
//! win/draw/loss model (`value`); the priors come from the trained move
//! policy, or with `mcts_policy` off from a cheap move score (`prior`),
//! and a node that has earned its playouts is searched by PVS, and again
//! a ply deeper each time its visits grow by a factor, each search's best
//! move given a share of the priors (`leaf`); `playout` walks the board. King zaps and draws found in the tree are
//! exact, and a solver carries them up: a proven root ends the search. One
//! thread is the plain, deterministic search; more share the tree
//! (`parallel`).
//!
//! Here, `think`: the playouts within the limits, the reports and the
//! answer. Nodes are playouts; a report's `depth` and `seldepth` are both
//! the longest playout's length in plies, and `go depth N` stops once a
//! playout reaches N. The best move is the quickest proven win, else the
//! most visited root edge not proven lost; the line below it follows the
//! same rule. The score is the best edge's mean turned back into
//! centipawns, or for a proven root `±(MATE − plies)` (a draw: `draw`,
//! as PVS scores one). With
//! `MultiPV` k, the root's first k edges by the same rule, then by visits,
//! each with its share of the playouts. `go mate` stops at a proven win
//! like any other limit does. The tree is kept for the next search
//! (`reuse`). The hybrid (`search::hybrid`) grows its tree here too, on
//! its share of the clock (`think_part`).

mod check;
mod clock;
mod edge;
mod leaf;
mod parallel;
mod playout;
pub mod prior;
mod puct;
mod reuse;
pub mod tree;
pub mod value;

pub use reuse::Kept;

use super::pvs::order::Order;
use super::report::{Answer, Iteration, Line, Visits};
use super::root::Root;
use super::shared::Shared;
use super::time::{Plan, SearchLimits};
use super::{Params, MATE};
use crate::rules::moves::Move;
use clock::Clock;
pub use clock::Spend;
use playout::Search;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use tree::{Proof, Tree, ROOT};

/// The tree's byte budget when the caller gives none.
pub const DEFAULT_BUDGET: usize = 256 << 20;

/// Playouts between two looks at the clock: a playout takes a few
/// microseconds, so a stop is seen within a millisecond. A leaf's
/// alpha-beta search (`mcts_ab`) takes longer: then every playout.
const CLOCK_EVERY: u64 = 16;

/// Playouts before the first report; then one at each doubling, or a
/// second after the last, whichever comes first.
const FIRST_REPORT: u64 = 1024;
const REPORT_EVERY: Duration = Duration::from_secs(1);

/// The result of a search, beside the shared answer.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub answer: Answer,
    /// The arena reached its budget and stopped growing (the playouts
    /// went on over the tree it had).
    pub tree_full: bool,
    /// The arena's bytes at the end.
    pub bytes: usize,
    /// The tree's nodes at the end.
    pub nodes: usize,
    /// The root's edges: move, visits, mean for the mover (tests compare
    /// trees with them).
    pub root_edges: Vec<(Move, u32, Option<f64>)>,
    /// The root's playouts kept from the last search (tree reuse).
    pub reused: u64,
    /// The PVS nodes of the nodes' searches (`mcts_ab`), every thread's.
    pub searched: u64,
    /// The root's proof, if the tree has one (the search ended on it).
    pub proven: Option<Proof>,
}

/// What a search may use: the tree's bytes (the root's node aside) and
/// its threads (more than one: the tree-parallel search, `parallel`).
#[derive(Clone, Copy, Debug)]
pub struct Resources {
    pub bytes: usize,
    pub threads: usize,
}

impl Default for Resources {
    fn default() -> Resources {
        Resources {
            bytes: DEFAULT_BUDGET,
            threads: 1,
        }
    }
}

/// Searches `root` within `limits` on one thread with the default budget
/// and a new tree, calling `report` with each iteration, the elapsed time
/// and the playouts. With `infinite` or `ponder`, waits for `shared.stop`
/// before answering; the caller clears `shared.stop` before starting.
pub fn think(
    root: &Root,
    limits: &SearchLimits,
    params: Params,
    shared: &Shared,
    report: impl FnMut(&Iteration, Duration, u64),
) -> Answer {
    let inputs = Inputs {
        root,
        params,
        shared,
        resources: Resources::default(),
    };
    think_within(inputs, limits, &mut None, report).answer
}

/// `think` of `inputs` within their resources, telling whether the tree's
/// budget was reached; starts from the reusable part of `kept` (see
/// `reuse`) and leaves its tree there.
pub fn think_within(
    inputs: Inputs,
    limits: &SearchLimits,
    kept: &mut Option<Kept>,
    report: impl FnMut(&Iteration, Duration, u64),
) -> Outcome {
    let start = limits.start();
    let mut clock = Clock::new(limits, inputs.shared, start, Spend::WHOLE);
    let order = &mut Order::default();
    let mut outcome = inputs.grow(start, kept, &mut clock, order, report);
    clock.wait_for_stop(inputs.shared);
    outcome.answer.elapsed = start.elapsed();
    outcome
}

/// The hybrid's tree: its share of the clock's plan and the move's, and
/// the move-ordering tables its nodes' searches fill on the calling thread,
/// for the search that follows.
pub struct Part<'o> {
    pub spend: Spend,
    pub order: &'o mut Order,
}

/// What the hybrid's tree leaves: its outcome, and the clock of the
/// search that follows it, none when the tree answers the move itself.
pub struct Parted {
    pub outcome: Outcome,
    pub rest: Option<Plan>,
}

/// `think_within`'s search for the hybrid, on `part.spend`'s share of
/// the clock's goal, without reports; it does not wait for a `stop`.
/// Its `rest` is none when the root is proven or a `stop` ended the
/// tree, else what is left of the clock. A tree that ended on its share
/// clears `stop`, which its nodes' searches set as the share ran out
/// (a `stop` sent in that instant is taken for theirs: the search that
/// follows ends on the clock).
pub fn think_part(
    inputs: Inputs,
    limits: &SearchLimits,
    kept: &mut Option<Kept>,
    part: Part,
) -> Parted {
    let shared = inputs.shared;
    let start = limits.start();
    let mut clock = Clock::new(limits, shared, start, part.spend);
    let outcome = inputs.grow(start, kept, &mut clock, part.order, |_, _, _| {});
    let rest = if outcome.proven.is_some() {
        None
    } else if clock.spent(shared) {
        shared.stop.store(false, Ordering::Relaxed);
        Some(clock.left())
    } else {
        (!shared.stop.load(Ordering::Relaxed)).then(|| clock.left())
    };
    Parted { outcome, rest }
}

/// What a search is given beside its limits: the position, the options,
/// the table and stop flag it shares, and what its tree may use.
#[derive(Clone, Copy)]
pub struct Inputs<'w> {
    pub root: &'w Root,
    pub params: Params,
    pub shared: &'w Shared,
    pub resources: Resources,
}

/// What the playouts left: the tree, the playouts made and the PVS nodes
/// of the nodes' searches.
struct Grown {
    tree: Tree,
    playouts: u64,
    searched: u64,
}

impl Inputs<'_> {
    /// The playouts from `kept`'s reusable tree on `clock`, begun at
    /// `start`, the nodes' searches ordered by `order` on this thread; the
    /// tree left in `kept`.
    fn grow(
        &self,
        start: Instant,
        kept: &mut Option<Kept>,
        clock: &mut Clock,
        order: &mut Order,
        report: impl FnMut(&Iteration, Duration, u64),
    ) -> Outcome {
        let Inputs {
            root,
            params,
            shared,
            resources,
        } = *self;
        let budget = resources.bytes;
        let reused = kept
            .take()
            .and_then(|k| k.reuse(root, params, &shared.net, budget));
        let mut reports = Reports {
            report,
            start,
            sent_at: start,
            next: FIRST_REPORT,
            multipv: params.multipv,
            draw: params.draw,
            last: None,
        };
        if params.mcts_ab > 0 {
            shared.tt.new_search();
        }
        let leaf_clock = clock.leaf_plan();
        let search = Search::new(root, params, shared, budget, reused, order, leaf_clock);
        let reused = u64::from(search.tree.nodes[ROOT as usize].visits);
        let grown = if resources.threads > 1 {
            let work = parallel::Work {
                root,
                params,
                shared,
                threads: resources.threads,
                leaf_clock,
            };
            let Search { tree, .. } = search;
            parallel::run(&work, tree, clock, &mut reports)
        } else {
            let every = if params.mcts_ab > 0 { 1 } else { CLOCK_EVERY };
            one_thread(search, shared, every, clock, &mut reports)
        };
        let Grown {
            tree,
            playouts,
            searched,
        } = grown;
        #[cfg(feature = "debug-commands")]
        if params.check_rep {
            crate::check_rep::check(&tree);
        }
        let root_edges = tree.edges[tree.range(ROOT)]
            .iter()
            .map(|e| (e.mv, e.visits, e.q()))
            .collect();
        let (tree_full, bytes, nodes) = (tree.full(), tree.bytes(), tree.nodes.len());
        let proven = tree.solve(ROOT);
        *kept = Some(Kept::new(tree, root, params, shared.net.clone()));
        let last = reports.last;
        Outcome {
            answer: Answer {
                best: last.as_ref().and_then(|it| it.pv.first().copied()),
                ponder: last.as_ref().and_then(|it| it.pv.get(1).copied()),
                last,
                nodes: playouts,
                elapsed: start.elapsed(),
                setup: None,
            },
            tree_full,
            bytes,
            nodes,
            root_edges,
            reused,
            searched,
            proven,
        }
    }
}

/// The playouts on this thread until a limit or a proof ends them.
fn one_thread<R: FnMut(&Iteration, Duration, u64)>(
    mut search: Search,
    shared: &Shared,
    clock_every: u64,
    clock: &mut Clock,
    reports: &mut Reports<R>,
) -> Grown {
    let mut playouts = 0u64;
    let has_moves = !search.tree.range(ROOT).is_empty();
    while has_moves && search.tree.solve(ROOT).is_none() {
        if clock.enough(playouts, search.max_depth)
            || playouts.is_multiple_of(clock_every) && clock.out_of_time(shared)
        {
            break;
        }
        search.playout();
        playouts += 1;
        if reports.due(playouts, playouts.is_multiple_of(clock_every)) {
            reports.send(&search.tree, search.max_depth, playouts);
        }
    }
    reports.end(&search.tree, search.max_depth, playouts);
    let searched = search.walker.searched();
    Grown {
        tree: search.tree,
        playouts,
        searched,
    }
}

/// A search's reports: the first after [`FIRST_REPORT`] playouts, then one
/// at each doubling or [`REPORT_EVERY`] after the last, and one at the end
/// unless the last was of the same playouts; the last kept for the answer.
struct Reports<R> {
    report: R,
    start: Instant,
    sent_at: Instant,
    next: u64,
    multipv: usize,
    /// A proven draw's score for the root's side to move (`draw`).
    draw: i32,
    last: Option<Iteration>,
}

impl<R: FnMut(&Iteration, Duration, u64)> Reports<R> {
    /// Whether a report is due after `playouts`: at the count, or (the
    /// clock read only if `look`) a while after the last.
    fn due(&self, playouts: u64, look: bool) -> bool {
        playouts >= self.next || playouts > 0 && look && self.sent_at.elapsed() >= REPORT_EVERY
    }

    fn send(&mut self, tree: &Tree, depth: u32, playouts: u64) {
        while self.next <= playouts {
            self.next *= 2;
        }
        self.sent_at = Instant::now();
        let it = iteration(tree, depth, self.multipv, self.draw, playouts);
        (self.report)(&it, self.start.elapsed(), playouts);
        self.last = Some(it);
    }

    /// The report at the end (none for a root without moves).
    fn end(&mut self, tree: &Tree, depth: u32, playouts: u64) {
        let fresh = self.last.as_ref().is_none_or(|l| l.nodes != playouts);
        if !tree.range(ROOT).is_empty() && fresh {
            self.send(tree, depth, playouts);
        }
    }
}

/// The report of `tree` as it stands, its longest playout `depth` plies:
/// the first `multipv` root edges of [`Tree::ranked`], each scored by its
/// proof (a draw: `draw`) or its mean.
fn iteration(tree: &Tree, depth: u32, multipv: usize, draw: i32, playouts: u64) -> Iteration {
    let root = u64::from(tree.nodes[ROOT as usize].visits);
    let lines: Vec<Line> = tree
        .ranked(ROOT)
        .into_iter()
        .take(multipv.max(1))
        .map(|e| {
            let edge = tree.edges[e];
            Line {
                score: score(edge.proof(), edge.q(), draw),
                pv: tree.line_from(e),
                visits: Some(Visits {
                    edge: u64::from(edge.visits),
                    root,
                }),
            }
        })
        .collect();
    let first = lines.first();
    Iteration {
        depth,
        seldepth: depth,
        score: first.map_or(0, |l| l.score),
        nodes: playouts,
        pv: first.map_or(Vec::new(), |l| l.pv.clone()),
        lines,
    }
}

/// A root edge's score for the side to move: a proven King zap `k` plies
/// away counting the edge's move as `MATE − k` (lost: its negative), a
/// proven draw `draw` (the `draw` option, as PVS scores a draw at the
/// root), else its mean in centipawns (unvisited: even).
fn score(proof: Option<Proof>, q: Option<f64>, draw: i32) -> i32 {
    match proof {
        Some(Proof::Win(k)) => MATE - i32::from(k),
        Some(Proof::Loss(k)) => -(MATE - i32::from(k)),
        Some(Proof::Draw) => draw,
        None => value::centipawns(q.unwrap_or(0.5)),
    }
}
