//! `leiserchess bench`: a fixed-depth search of a fixed position set, one
//! thread, the 16 MB table cleared before each position. Single-thread
//! search is deterministic, so the node total is the search's fingerprint.
//!
//! `leiserchess bench --search mcts`: the same positions by Monte-Carlo
//! tree search, a fixed number of playouts each on one thread, a fresh tree
//! each. The playouts add up to the same total whatever the tree does, so
//! its fingerprint is the trees' shape instead ([`tree_signature`]).
//!
//! `leiserchess bench --search hybrid`: the same positions by the hybrid,
//! `go nodes P depth D`: a fresh tree's P playouts, then the final PVS to
//! depth D on the table the tree's searches filled, one thread. Its
//! fingerprint is the tree's plus the final search's nodes.
//!
//! One table serves the whole run: a cleared table searches exactly as a
//! new one, and a new one per position made the time depend on the
//! allocator (a fresh mapping's pages are faulted in during the search, a
//! reused block's were zeroed before it), so the nps moved by 4% with the
//! size of the rest of the program (measured at 4847ac8).

use super::bestfirst;
use super::hybrid::{self, choice::By};
use super::mcts;
use super::pvs::order::Order;
use super::pvs::think;
use super::time::SearchLimits;
use super::tt::TableSize;
use super::{Params, Root, Shared};
use crate::rules::fen;
use crate::rules::moves::Move;
use std::sync::atomic::Ordering;
use std::time::Duration;

pub const DEFAULT_DEPTH: u32 = 6;

/// Playouts of each position under MCTS: a few seconds for the whole set
/// with the nodes' searches (the tactical positions are proven sooner).
pub const DEFAULT_PLAYOUTS: u64 = 2_000;

/// The hybrid's final search's depth: its bench is then about as long as
/// MCTS's.
pub const HYBRID_DEPTH: u32 = 5;

/// Start, early and late middlegames and endgames from the reference set,
/// and tactical positions (a King zap in one, or forced in three).
pub const POSITIONS: [&str; 24] = [
    fen::STARTPOS,
    // After g4L b3L: the reference engine's depth-7 timing position.
    "ss7/3nwse3/2nwse4/1nwse3SW1/1ne3NWSE1/4NWSE2/3NWSE3/7NN W",
    "ss7/3nwse3/2nwse4/1nw4NW1/2se3NW1/4NWSE2/3NWSE3/7WW B",
    "nn2sw4/4ne3/1ne2SWsw2/2se1SW2SW/7SW/3NW1NE2/5NW2/2se4SS W",
    "ss2se4/3sw4/3se4/2se3NW1/nwnw2SWNE2/2ne3NWSE/3NWNW3/7EE B",
    "se1NE5/8/1ee6/nw2nese3/8/5NN2/8/3SW1NE2 W",
    "3ss4/4nw3/8/4NW3/4SW3/2NE5/7WW/8 B",
    "swnn3SW2/ne2se1nw2/5sw2/3nw4/2SW3SE1/6NE1/3NW4/1NE4nwNN W",
    "ss5se1/3nw4/1nw6/2se1se1NW1/4NE1SW1/1nw1NWSESE2/6nw1/3NW3NN B",
    "8/8/8/8/8/8/3nn1SS2/1SW6 W",
    "ww2se4/1sw3nw2/8/ne2SWNEnw2/NE4swSE1/3SW4/7NN/3nw4 B",
    "8/NEsw2sene2/1wwNWnw1sesw1/nw7/8/5NESE1/2SE1NW2NN/8 W",
    "3se3se/4SE3/8/ness3NW2/se7/8/5EE2/8 B",
    "4nese2/1nn6/1SS6/8/4sw3/8/8/8 B",
    "2nw5/2ss2se1SE/2nw1se3/2se5/1nw2NE1NE1/4NWSE2/3NW1NW2/6EE1 B",
    fen::ENDGAME,
    "2se5/SWee2swsw2/1nw6/8/8/5SE2/3SW2SW1/4SS3 B",
    "3NE4/8/ss1SW2SE2/4sw3/8/8/8/1ne5NN B",
    "sesw6/4ne3/NW7/ee7/1SW5SW/1sw1SE4/8/6SSnw B",
    "ss7/2SW1se3/1se6/1ne5SW/4NW3/5SE2/8/1ne1SE3NN B",
    "ne7/ee7/7nw/8/3sw3SS/8/1sw6/NE7 B",
    "8/sw3swsw2/8/5ss2/8/8/7EE/6NENE B",
    "ee7/8/6sw1/1nese5/4NW1NE1/2NE1NE3/8/3NW3NN B",
    "7sw/nn7/8/ne4SW2/2se5/NE2NE4/8/4ne2NN B",
];

/// One position's result.
pub struct Line {
    pub fen: &'static str,
    pub best: Option<Move>,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Searches every position of `POSITIONS` to `depth` with `params`, one
/// thread and a `hash_mb` table cleared before each.
pub fn run(depth: u32, params: Params, hash_mb: usize, ways: usize) -> Vec<Line> {
    let shared = Shared::new(hash_mb, ways);
    let limits = SearchLimits::depth(depth);
    each_position(&shared, |fen, root| {
        let mut order = [Order::default()];
        let answer = think(root, &limits, params, &shared, &mut order, |_, _, _| {});
        Line {
            fen,
            best: answer.best,
            score: answer.last.map_or(0, |it| it.score),
            nodes: answer.nodes,
            elapsed: answer.elapsed,
        }
    })
}

/// One bench position's best-first search: its answer, and where the
/// promotions went (by the depth below the root their search reached).
pub struct BestFirstLine {
    pub fen: &'static str,
    pub best: Option<Move>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub promotions: Vec<u64>,
    pub nodes_by_depth: Vec<u64>,
}

/// The best-first search of every bench position to `depth` plies below
/// the root (its `go depth`), one thread, a cleared table each, the
/// embedded error model: deterministic.
pub fn run_bestfirst(
    depth: u32,
    params: Params,
    hash_mb: usize,
    ways: usize,
) -> Vec<BestFirstLine> {
    let shared = Shared::new(hash_mb, ways);
    let limits = SearchLimits::depth(depth);
    let model = bestfirst::model::ErrorModel::embedded();
    each_position(&shared, |fen, root| {
        let mut order = Order::default();
        let out = bestfirst::think(
            root,
            &limits,
            params,
            &shared,
            &mut order,
            model,
            |_, _, _| {},
        );
        let last = out.answer.last.as_ref();
        BestFirstLine {
            fen,
            best: out.answer.best,
            score: last.map_or(0, |it| it.score),
            depth: last.map_or(0, |it| it.depth),
            nodes: out.answer.nodes,
            elapsed: out.answer.elapsed,
            promotions: out.promotions,
            nodes_by_depth: out.nodes_by_depth,
        }
    })
}

/// One position's result under MCTS.
pub struct MctsLine {
    pub fen: &'static str,
    pub best: Option<Move>,
    pub score: i32,
    /// Fewer than asked when the root was proven first.
    pub playouts: u64,
    /// The tree's fingerprint ([`tree_signature`]).
    pub signature: u64,
    pub elapsed: Duration,
    /// The tree's nodes and the arena's bytes at the end.
    pub tree_nodes: usize,
    pub tree_bytes: usize,
}

/// Searches every position of `POSITIONS` by MCTS, `playouts` each, one
/// thread and a fresh tree of at most `tree_mb` MB each.
pub fn run_mcts(playouts: u64, params: Params, tree_mb: usize) -> Vec<MctsLine> {
    let limits = SearchLimits::nodes(playouts);
    each_tree(params, tree_mb, |fen, inputs| {
        let out = mcts::think_within(inputs, &limits, &mut None, |_, _, _| {});
        MctsLine {
            fen,
            best: out.answer.best,
            score: out.answer.last.as_ref().map_or(0, |it| it.score),
            playouts: out.answer.nodes,
            signature: outcome_signature(&out),
            elapsed: out.answer.elapsed,
            tree_nodes: out.nodes,
            tree_bytes: out.bytes,
        }
    })
}

/// One position's result under the hybrid.
pub struct HybridLine {
    pub fen: &'static str,
    pub best: Option<Move>,
    pub score: i32,
    /// The tree's playouts (fewer than asked when it proved the root).
    pub playouts: u64,
    /// The PVS nodes of the tree's searches and of the final search (0
    /// when the tree chose the move).
    pub tree_nodes: u64,
    pub final_nodes: u64,
    /// Whether the final search chose the move.
    pub by_search: bool,
    /// The tree's [`tree_signature`] plus `final_nodes`.
    pub signature: u64,
    pub elapsed: Duration,
}

/// Searches every position of `POSITIONS` by the hybrid: `playouts` in a
/// fresh tree of at most `tree_mb` MB, then the final search to `depth`,
/// one thread, the engine's default table cleared for each.
pub fn run_hybrid(playouts: u64, depth: u32, params: Params, tree_mb: usize) -> Vec<HybridLine> {
    let limits = SearchLimits {
        nodes: Some(playouts),
        ..SearchLimits::depth(depth)
    };
    each_tree(params, tree_mb, |fen, inputs| {
        let out = hybrid::think(inputs, &limits, &mut None, |_, _, _| {}, |_| {});
        HybridLine {
            fen,
            best: out.answer.best,
            score: out.answer.last.as_ref().map_or(0, |it| it.score),
            playouts: out.tree.answer.nodes,
            tree_nodes: out.tree.searched,
            final_nodes: out.final_nodes,
            by_search: matches!(out.by, By::Search(_)),
            signature: outcome_signature(&out.tree) + out.final_nodes,
            elapsed: out.answer.elapsed,
        }
    })
}

/// `search` of each position of `POSITIONS`, given its FEN and root, on
/// `shared` as a new search finds it: `stop` lowered, the table cleared.
fn each_position<T>(shared: &Shared, mut search: impl FnMut(&'static str, &Root) -> T) -> Vec<T> {
    POSITIONS
        .iter()
        .map(|&text| {
            let root = Root::new(fen::parse(text).expect("bench positions parse"));
            shared.stop.store(false, Ordering::Relaxed);
            shared.tt.clear();
            search(text, &root)
        })
        .collect()
}

/// `search` of each position with `params` on one thread and a fresh tree
/// of at most `tree_mb` MB. The table serves the nodes' searches
/// (`mcts_ab`) and the hybrid's final one: the engine's default size,
/// cleared for each position as the tree is.
fn each_tree<T>(
    params: Params,
    tree_mb: usize,
    mut search: impl FnMut(&'static str, mcts::Inputs) -> T,
) -> Vec<T> {
    let table = TableSize::default();
    let shared = Shared::new(table.hash_mb, table.ways);
    let resources = mcts::Resources {
        bytes: tree_mb.saturating_mul(1 << 20),
        threads: 1,
    };
    each_position(&shared, |fen, root| {
        let inputs = mcts::Inputs {
            root,
            params,
            shared: &shared,
            resources,
        };
        search(fen, inputs)
    })
}

/// A tree's [`tree_signature`] from the search's outcome: its root edges
/// and its longest playout.
fn outcome_signature(out: &mcts::Outcome) -> u64 {
    let longest = out.answer.last.as_ref().map_or(0, |it| it.depth);
    tree_signature(&out.root_edges, longest)
}

/// A tree's fingerprint: each root edge's visits weighted by its move's
/// place among the root's moves in the order of their bits (1, 2, …; not
/// the arena's order, which selection rearranges), plus the longest
/// playout's plies. The visits alone sum to the playouts; weighted, moving
/// a single visit from one root move to another changes the sum, and so
/// does a deeper playout.
pub fn tree_signature(root_edges: &[(Move, u32, Option<f64>)], longest: u32) -> u64 {
    let mut edges: Vec<(u16, u32)> = root_edges.iter().map(|e| (e.0.bits(), e.1)).collect();
    edges.sort_unstable();
    let weighted: u64 = (1..)
        .zip(edges)
        .map(|(place, (_, visits))| place * u64::from(visits))
        .sum();
    weighted + u64::from(longest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moving_one_visit_or_a_deeper_playout_changes_the_signature() {
        let m = |t: &str| Move::parse(t).unwrap();
        let edges = |a, b| [(m("a0a1"), a, None), (m("b0b1"), b, Some(0.5))];
        let base = tree_signature(&edges(3, 5), 4);
        assert_eq!(base, 3 + 2 * 5 + 4);
        let mut swapped = edges(3, 5);
        swapped.reverse();
        assert_eq!(tree_signature(&swapped, 4), base);
        assert_ne!(tree_signature(&edges(4, 4), 4), base);
        assert_ne!(tree_signature(&edges(3, 5), 5), base);
        assert_eq!(tree_signature(&[], 0), 0);
    }

    #[test]
    fn mcts_bench_is_deterministic_and_stops_proven_roots_early() {
        let run = || run_mcts(300, Params::default(), 16);
        let (a, b) = (run(), run());
        assert_eq!(a.len(), POSITIONS.len());
        for (x, y) in a.iter().zip(&b) {
            assert!(x.best.is_some(), "no move on {}", x.fen);
            assert_eq!(
                (x.best, x.score, x.playouts, x.signature),
                (y.best, y.score, y.playouts, y.signature),
                "{}",
                x.fen
            );
        }
        // The zap in one of the tactical positions is proven at once.
        assert!(a.iter().any(|l| l.playouts < 300));
        assert!(a.iter().any(|l| l.playouts == 300));
    }

    /// The hybrid's bench repeats itself; the final search decides where
    /// the tree proved nothing, and its nodes are in the signature.
    #[test]
    fn hybrid_bench_is_deterministic_and_runs_the_final_search() {
        let run = || run_hybrid(200, 3, Params::default(), 16);
        let (a, b) = (run(), run());
        assert_eq!(a.len(), POSITIONS.len());
        for (x, y) in a.iter().zip(&b) {
            assert!(x.best.is_some(), "no move on {}", x.fen);
            assert_eq!(
                (x.best, x.score, x.final_nodes, x.signature),
                (y.best, y.score, y.final_nodes, y.signature),
                "{}",
                x.fen
            );
            if x.by_search {
                let tree = x.signature - x.final_nodes;
                assert!(x.final_nodes > 0 && tree > 0, "{}", x.fen);
            }
        }
        assert!(a.iter().any(|l| l.by_search));
        assert!(a.iter().any(|l| !l.by_search && l.playouts < 200));
    }
}
