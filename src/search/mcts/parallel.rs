//! Monte-Carlo tree search on several threads, tree-parallel: each thread
//! runs whole playouts over the one tree. Under the tree's lock it walks
//! from the root by PUCT, counting each edge it takes as a playout in
//! flight (a loss to selection, so that the threads spread: a virtual
//! loss), and marks the position new to the tree as on its way; it plays
//! and values that position on its own board with the lock released;
//! then, under the lock again, it grows the tree and carries the value
//! and proofs up the path. No thread hands work to another: on two cores
//! two threads each do the work of one, where handing every position
//! between threads cost more than valuing it. The calling thread is the
//! watchdog: it watches the clock and reports.

use super::clock::{enough, Clock};
use super::leaf::Ask;
use super::playout::{self, Walker};
use super::tree::{Edge, Proof, Tree, NONE, PENDING, ROOT};
use super::{Grown as Grew, Reports};
use crate::rules::moves::Move;
use crate::search::pvs::order::Order;
use crate::search::report::Iteration;
use crate::search::root::Root;
use crate::search::shared::Shared;
use crate::search::time::{Plan, SearchLimits};
use crate::search::Params;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// How often the watchdog looks at the clock and the counts.
const WATCH_EVERY: Duration = Duration::from_micros(250);

/// What the search works on.
pub struct Work<'a> {
    pub root: &'a Root,
    pub params: Params,
    pub shared: &'a Shared,
    pub threads: usize,
    /// The leaves' searches' clock (`Clock::leaf_plan`).
    pub leaf_clock: Plan,
}

/// A playout's (node, edge) steps from the root.
type Path = Vec<(u32, usize)>;

/// What a walk ends at.
enum Found {
    /// A position not in the tree.
    New,
    /// A proven edge, its exact value for its mover.
    Proven(f64),
    /// A position another thread is valuing.
    Collision,
}

/// One walk from the root: its (node, edge) steps, the moves they play,
/// where it ends, and the node on the way due its search
/// (`mcts_ab_visits`).
struct Walk {
    path: Path,
    moves: Vec<Move>,
    found: Found,
    due: Option<Due>,
}

/// A node due its search: the plies from the root to it (its path is
/// the walk's first `plies` steps), and the plies its search goes deeper
/// than the first.
#[derive(Clone, Copy)]
struct Due {
    plies: usize,
    node: u32,
    deeper: u32,
    /// The node's visits when named (its search's node budget).
    visits: u32,
}

/// What the position at a walk's end becomes.
enum Grown {
    /// A node with these edges.
    Node(Vec<Edge>),
    /// No node: the tree is full (its moves were not listed).
    Leaf,
    /// A proven draw (repetition, the no-zap rule, no move).
    Draw,
    /// Nothing: the edge was proven already.
    Nothing,
}

/// The tree, its counts and the flags the threads share.
struct Shares<'t> {
    tree: Mutex<Tree>,
    limits: &'t SearchLimits,
    /// Set to end the search: a limit, a stop, a proven root.
    halt: AtomicBool,
    /// Playouts started (under the tree's lock: `go nodes N` makes N).
    started: AtomicU64,
    /// Playouts landed.
    done: AtomicU64,
    /// The longest walk, in plies.
    depth: AtomicU64,
    /// The PVS nodes of the nodes' searches, each thread's added as it ends.
    searched: AtomicU64,
    /// Threads still searching.
    running: AtomicUsize,
}

impl Shares<'_> {
    fn lock(&self) -> MutexGuard<'_, Tree> {
        self.tree.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Searches from `tree` (the root made) until a limit, a stop or a proof;
/// returns the tree, the playouts made and the nodes' searches' nodes.
pub fn run<R: FnMut(&Iteration, Duration, u64)>(
    work: &Work,
    tree: Tree,
    clock: &mut Clock,
    reports: &mut Reports<R>,
) -> Grew {
    let limits = *clock.limits();
    let shares = Shares {
        tree: Mutex::new(tree),
        limits: &limits,
        halt: AtomicBool::new(false),
        started: AtomicU64::new(0),
        done: AtomicU64::new(0),
        depth: AtomicU64::new(0),
        searched: AtomicU64::new(0),
        running: AtomicUsize::new(work.threads),
    };
    std::thread::scope(|scope| {
        let threads: Vec<_> = (0..work.threads)
            .map(|_| scope.spawn(|| search(work, &shares)))
            .collect();
        while shares.running.load(Ordering::Acquire) > 0 {
            std::thread::sleep(WATCH_EVERY);
            if clock.out_of_time(work.shared) {
                shares.halt.store(true, Ordering::Relaxed);
            }
            let done = shares.done.load(Ordering::Relaxed);
            if reports.due(done, true) {
                let depth = shares.depth.load(Ordering::Relaxed) as u32;
                reports.send(&shares.lock(), depth, done);
            }
        }
        // Joined by hand: the scope's own wait ends when the closures
        // return, not when the threads are gone.
        for t in threads {
            t.join().expect("a search thread panicked");
        }
    });
    let tree = shares.tree.into_inner().unwrap_or_else(|e| e.into_inner());
    let done = shares.done.load(Ordering::Relaxed);
    reports.end(&tree, shares.depth.load(Ordering::Relaxed) as u32, done);
    Grew {
        tree,
        playouts: done,
        searched: shares.searched.load(Ordering::Relaxed),
    }
}

/// One thread's playouts until halted, a limit is reached or the root is
/// proven.
fn search(work: &Work, shares: &Shares) {
    let mut order = Order::default();
    let mut walker = Walker::new(
        work.root,
        work.params,
        work.shared,
        &mut order,
        work.leaf_clock,
    );
    let mut edges = Vec::new();
    let p = work.params;
    let (ab_visits, grow) = (p.ab_visits(), p.ab_grow());
    let pv_prior = p.pv_prior();
    while !shares.halt.load(Ordering::Relaxed) {
        let (walk, full) = {
            let mut t = shares.lock();
            let started = shares.started.load(Ordering::Relaxed);
            let depth = shares.depth.load(Ordering::Relaxed) as u32;
            let over = t.range(ROOT).is_empty() || t.solve(ROOT).is_some();
            if over || enough(shares.limits, started, depth) {
                break;
            }
            let walk = walk(&mut t, ab_visits, grow);
            if !matches!(walk.found, Found::Collision) {
                shares.started.fetch_add(1, Ordering::Relaxed);
                shares
                    .depth
                    .fetch_max(walk.path.len() as u64, Ordering::Relaxed);
            }
            (walk, t.full())
        };
        let search = walk
            .due
            .and_then(|d| Some((d, search_at(&mut walker, &walk.moves[..d.plies], d)?)));
        let searched = |t: &mut Tree| {
            if let Some((d, (_, best))) = search {
                playout::searched(t, d.node, best, pv_prior);
            }
        };
        let Walk {
            path, moves, found, ..
        } = walk;
        let (value, grown) = match found {
            Found::New => value(work.params, &mut walker, &moves, full, &mut edges),
            Found::Proven(value) => (value, Grown::Nothing),
            Found::Collision => {
                let mut t = shares.lock();
                t.release(&path);
                searched(&mut t);
                drop(t);
                // The other thread is valuing the position: a walk at
                // once would most likely collide again.
                std::thread::yield_now();
                continue;
            }
        };
        let mut t = shares.lock();
        searched(&mut t);
        land(&mut t, &path, value, grown, work.params.check_rep);
        shares.done.fetch_add(1, Ordering::Relaxed);
        if t.solve(ROOT).is_some() {
            shares.halt.store(true, Ordering::Relaxed);
        }
    }
    let searched = walker.searched();
    shares.searched.fetch_add(searched, Ordering::Relaxed);
    shares.running.fetch_sub(1, Ordering::Release);
}

/// One walk from the root by PUCT, each edge taken counted in flight, to a
/// position new to the tree (marked as on its way), a proven edge, or one
/// already on its way; the first node on the way due its search at
/// `ab_visits` (and `grow`) is counted searched and named.
fn walk(t: &mut Tree, ab_visits: Option<u32>, grow: f64) -> Walk {
    let (mut path, mut moves, mut due) = (Vec::new(), Vec::new(), None);
    let mut node = ROOT;
    loop {
        if due.is_none() {
            due = t.due(node, ab_visits, grow).map(|deeper| Due {
                plies: moves.len(),
                node,
                deeper,
                visits: t.nodes[node as usize].visits,
            });
        }
        let e = t.select(node);
        t.edges[e].in_flight += 1;
        path.push((node, e));
        let edge = t.edges[e];
        let found = if let Some(p) = edge.proof() {
            Found::Proven(p.value())
        } else {
            moves.push(edge.mv);
            match edge.child {
                NONE => {
                    t.edges[e].child = PENDING;
                    Found::New
                }
                PENDING => Found::Collision,
                child => {
                    node = child;
                    continue;
                }
            }
        };
        return Walk {
            path,
            moves,
            found,
            due,
        };
    }
}

/// The leaf search's score and best move in the position `moves` from
/// the root, the search `due`.
fn search_at(walker: &mut Walker, moves: &[Move], due: Due) -> Option<(i32, Option<Move>)> {
    for &m in moves {
        walker.play(m);
    }
    let found = walker.search(Ask::Node {
        deeper: due.deeper,
        visits: due.visits,
    });
    walker.rewind();
    found
}

/// The value, for its mover, of the position `moves` from the root, and
/// what it becomes: its moves listed unless the tree is `full`.
fn value(
    params: Params,
    walker: &mut Walker,
    moves: &[Move],
    full: bool,
    edges: &mut Vec<Edge>,
) -> (f64, Grown) {
    for &m in moves {
        walker.play(m);
    }
    let (value, grown) = walker.arrive(full, params.pv_prior(), edges);
    walker.rewind();
    let grown = match grown {
        playout::Grown::Node => Grown::Node(edges.clone()),
        playout::Grown::Leaf => Grown::Leaf,
        playout::Grown::Draw => Grown::Draw,
    };
    (value, grown)
}

/// Grows the tree at `path`'s end and carries the value and proofs up it;
/// with `check_rep`, checks the path's nodes.
#[cfg_attr(not(feature = "debug-commands"), allow(unused_variables))]
fn land(t: &mut Tree, path: &Path, value: f64, grown: Grown, check_rep: bool) {
    let &(_, e) = path.last().expect("a walk takes an edge");
    match grown {
        Grown::Node(edges) => {
            let leaf_visits = t.edges[e].visits;
            t.edges[e].child = t.add(&edges, leaf_visits).unwrap_or(NONE);
        }
        Grown::Leaf => t.edges[e].child = NONE,
        Grown::Draw => {
            t.edges[e].child = NONE;
            t.edges[e].set_proof(Some(Proof::Draw));
        }
        Grown::Nothing => {}
    }
    t.release(path);
    t.backup(path, value);
    t.prove_up(path);
    #[cfg(feature = "debug-commands")]
    if check_rep {
        super::check::path(t, path, false);
    }
}
