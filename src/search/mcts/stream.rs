//! Monte-Carlo tree search on several threads, streamed rather than
//! batched: a gatherer walks the tree and sends each position new to it
//! down a queue to the evaluators; they value it and list its moves, and
//! send the result to the backer-up, which grows the tree and carries the
//! value up the path. No thread waits for a batch to fill: each event goes
//! on as soon as its work is done, and the queue to the evaluators bounds
//! the playouts in flight. The tree is one arena behind a lock, held only
//! while a walk or an update runs; an edge holds its child's visits and
//! mean, so a walk never reads a node it does not descend into, and counts
//! the playouts in flight through it, which selection takes for losses so
//! that they spread. The calling thread is the watchdog: it watches the
//! clock and the limits and reports.
//!
//! `Threads` counts the evaluators, who do the work; the gatherer and the
//! backer-up are two threads more that mostly wait on their queues.

use super::playout::Walker;
use super::tree::{Edge, Proof, Tree, NONE, PENDING, ROOT};
use super::watch::{enough, Watch};
use super::Reports;
use crate::rules::moves::Move;
use crate::search::pvs::order::Order;
use crate::search::root::{Iteration, Root};
use crate::search::shared::Shared;
use crate::search::time::SearchLimits;
use crate::search::Params;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// New positions queued to the evaluators, per evaluator: enough that none
/// waits for the gatherer, few enough that selection sees fresh values.
const QUEUED_PER_EVALUATOR: usize = 16;

/// How often the watchdog looks at the clock and the counts.
const WATCH_EVERY: Duration = Duration::from_micros(250);

/// What the search works on.
pub struct Work<'a> {
    pub root: &'a Root,
    pub params: Params,
    pub shared: &'a Shared,
    pub evaluators: usize,
}

/// A playout's (node, edge) steps from the root.
type Path = Vec<(u32, usize)>;

/// What a gatherer's walk ends at.
enum Found {
    /// A position not in the tree, and the moves from the root to it.
    New { path: Path, moves: Vec<Move> },
    /// A proven edge, its exact value for its mover.
    Proven { path: Path, value: f64 },
    /// A position another playout is having evaluated.
    Collision { path: Path },
}

/// What the backer-up is sent.
enum Landing {
    /// A playout's value for the mover of the path's last edge, and what
    /// the position at its end becomes.
    Value {
        path: Path,
        value: f64,
        grown: Grown,
    },
    /// A walk that ended at a position already being evaluated: only its
    /// playout in flight to take back.
    Collision { path: Path },
}

enum Grown {
    /// A node with these edges.
    Node(Vec<Edge>),
    /// A proven draw (repetition, the no-zap rule, no move).
    Draw,
    /// Nothing: the edge was proven already.
    Nothing,
}

/// The counts and flags the threads share.
#[derive(Default)]
struct State {
    /// Set to end the gathering: a limit, a stop, a proven root.
    halt: AtomicBool,
    /// Set once every playout has landed.
    over: AtomicBool,
    /// Playouts landed.
    done: AtomicU64,
    /// The longest walk, in plies.
    depth: AtomicU32,
}

/// Searches from `tree` (the root made) until a limit, a stop or a proof;
/// returns the tree and the playouts made.
pub fn run<R: FnMut(&Iteration, Duration, u64)>(
    work: &Work,
    tree: Tree,
    watch: &mut Watch,
    reports: &mut Reports<R>,
) -> (Tree, u64) {
    let tree = Mutex::new(tree);
    let state = State::default();
    let limits = *watch.limits();
    let (to_eval, queued) = sync_channel(QUEUED_PER_EVALUATOR * work.evaluators);
    let queued = Mutex::new(queued);
    let (to_land, landings) = channel();
    std::thread::scope(|scope| {
        let mut threads = Vec::new();
        for _ in 0..work.evaluators {
            let to_land = to_land.clone();
            let (queued, work) = (&queued, &work);
            threads.push(scope.spawn(move || evaluate(work, queued, to_land)));
        }
        let (tree, state, limits) = (&tree, &state, &limits);
        threads.push(scope.spawn(move || gather(tree, to_eval, to_land, limits, state)));
        let check_rep = work.params.check_rep;
        threads.push(scope.spawn(move || land(tree, landings, state, check_rep)));
        while !state.over.load(Ordering::Acquire) {
            std::thread::sleep(WATCH_EVERY);
            if watch.out_of_time(work.shared) {
                state.halt.store(true, Ordering::Relaxed);
            }
            let done = state.done.load(Ordering::Relaxed);
            if reports.due(done, true) {
                let depth = state.depth.load(Ordering::Relaxed);
                reports.send(&lock(tree), depth, done);
            }
        }
        // Joined by hand: the scope's own wait ends when the closures
        // return, not when the threads are gone.
        for t in threads {
            t.join().expect("a search thread panicked");
        }
    });
    let tree = tree.into_inner().unwrap_or_else(|e| e.into_inner());
    let done = state.done.load(Ordering::Relaxed);
    reports.end(&tree, state.depth.load(Ordering::Relaxed), done);
    (tree, done)
}

fn lock(tree: &Mutex<Tree>) -> MutexGuard<'_, Tree> {
    tree.lock().unwrap_or_else(|e| e.into_inner())
}

/// The gatherer: walks until halted, a limit is reached or the root is
/// proven; its queues close when it returns, which ends the others.
fn gather(
    tree: &Mutex<Tree>,
    to_eval: SyncSender<(Path, Vec<Move>)>,
    to_land: Sender<Landing>,
    limits: &SearchLimits,
    state: &State,
) {
    let (mut started, mut depth) = (0u64, 0u32);
    while !state.halt.load(Ordering::Relaxed) && !enough(limits, started, depth) {
        let found = {
            let mut t = lock(tree);
            if t.range(ROOT).is_empty() || t.solve(ROOT).is_some() {
                break;
            }
            walk(&mut t)
        };
        let sent = match found {
            Found::New { path, moves } => {
                started += 1;
                depth = depth.max(path.len() as u32);
                to_eval.send((path, moves)).is_ok()
            }
            Found::Proven { path, value } => {
                started += 1;
                depth = depth.max(path.len() as u32);
                let grown = Grown::Nothing;
                to_land.send(Landing::Value { path, value, grown }).is_ok()
            }
            Found::Collision { path } => {
                // Give the evaluators a moment: the walks that would follow
                // at once are likely to collide again.
                std::thread::yield_now();
                to_land.send(Landing::Collision { path }).is_ok()
            }
        };
        state.depth.store(depth, Ordering::Relaxed);
        if !sent {
            break;
        }
    }
}

/// One walk from the root by PUCT, each edge taken counted in flight, to a
/// position new to the tree (marked as on its way), a proven edge, or one
/// already on its way.
fn walk(t: &mut Tree) -> Found {
    let (mut path, mut moves) = (Vec::new(), Vec::new());
    let mut node = ROOT;
    loop {
        let e = t.select(node);
        t.edges[e].in_flight += 1;
        path.push((node, e));
        let edge = t.edges[e];
        if let Some(p) = edge.proof {
            return Found::Proven {
                path,
                value: p.value(),
            };
        }
        moves.push(edge.mv);
        match edge.child {
            NONE => {
                t.edges[e].child = PENDING;
                return Found::New { path, moves };
            }
            PENDING => return Found::Collision { path },
            child => node = child,
        }
    }
}

/// An evaluator: plays each queued position's moves from the root on its
/// own board, values the position and lists its moves.
fn evaluate(work: &Work, queued: &Mutex<Receiver<(Path, Vec<Move>)>>, to_land: Sender<Landing>) {
    let mut order = Order::default();
    let mut walker = Walker::new(work.root, work.params, work.shared, &mut order);
    let mut edges = Vec::new();
    loop {
        let next = queued.lock().unwrap_or_else(|e| e.into_inner()).recv();
        let Ok((path, moves)) = next else { return };
        for &m in &moves {
            walker.play(m);
        }
        let (value, grown) = if walker.is_draw() {
            (0.5, Grown::Draw)
        } else {
            walker.moves(&[], &mut edges);
            if edges.is_empty() {
                (0.5, Grown::Draw)
            } else {
                let (settle, pv_prior) = (work.params.mcts_settle, work.params.pv_prior());
                let value = walker.leaf_value(&mut edges, settle, pv_prior);
                (1.0 - value, Grown::Node(edges.clone()))
            }
        };
        walker.rewind();
        if to_land.send(Landing::Value { path, value, grown }).is_err() {
            return;
        }
    }
}

/// The backer-up: grows the tree and carries each value and proof up its
/// path, until every sender is gone; with `check_rep`, checks the path's
/// nodes after each.
#[cfg_attr(not(feature = "debug-commands"), allow(unused_variables))]
fn land(tree: &Mutex<Tree>, landings: Receiver<Landing>, state: &State, check_rep: bool) {
    for landing in landings {
        let mut t = lock(tree);
        match landing {
            Landing::Collision { path } => t.release(&path),
            Landing::Value { path, value, grown } => {
                let &(_, e) = path.last().expect("a walk takes an edge");
                match grown {
                    Grown::Node(edges) => {
                        let leaf_visits = t.edges[e].visits;
                        t.edges[e].child = t.add(&edges, leaf_visits).unwrap_or(NONE);
                    }
                    Grown::Draw => {
                        t.edges[e].child = NONE;
                        t.edges[e].proof = Some(Proof::Draw);
                    }
                    Grown::Nothing => {}
                }
                t.release(&path);
                t.backup(&path, value);
                t.prove_up(&path);
                #[cfg(feature = "debug-commands")]
                if check_rep {
                    super::check::path(&t, &path, false);
                }
                state.done.fetch_add(1, Ordering::Relaxed);
                if t.solve(ROOT).is_some() {
                    state.halt.store(true, Ordering::Relaxed);
                }
            }
        }
    }
    state.over.store(true, Ordering::Release);
}
