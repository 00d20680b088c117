//! Which search answers a `go`: principal variation search (`pvs`, the
//! default), Monte-Carlo tree search (`mcts`), best-first search by depth
//! promotion (`bestfirst`) or the hybrid, an MCTS tree then a final PVS
//! (`hybrid`), chosen by the `Search` option; the UCI loop and the GUI
//! start each through [`think`].

use super::bestfirst::{self, model::ErrorModel};
use super::hybrid;
use super::mcts;
use super::pvs::{self, order::Order};
use super::report::{Answer, Iteration};
use super::root::Root;
use super::shared::Shared;
use super::time::SearchLimits;
use super::Params;
use std::time::Duration;

/// A search algorithm.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Algorithm {
    Pvs,
    Mcts,
    BestFirst,
    Hybrid,
}

/// The `Search` option's choices, in [`Algorithm`]'s order.
pub const NAMES: &[&str] = &["pvs", "mcts", "bestfirst", "hybrid"];

impl Algorithm {
    /// The algorithm of the `Search` option's choice `index`.
    pub fn from_index(index: i64) -> Algorithm {
        match index {
            1 => Algorithm::Mcts,
            2 => Algorithm::BestFirst,
            3 => Algorithm::Hybrid,
            _ => Algorithm::Pvs,
        }
    }
}

/// What the searches keep from one `go` to the next: PVS's move-ordering
/// tables (one a thread) and MCTS's (or the hybrid's) tree.
pub struct Memory {
    pub orders: Vec<Order>,
    pub tree: Option<mcts::Kept>,
}

impl Default for Memory {
    fn default() -> Memory {
        Memory {
            orders: vec![Order::default()],
            tree: None,
        }
    }
}

impl Memory {
    /// A new game: the tables cleared, the tree dropped.
    pub fn clear(&mut self) {
        self.orders.iter_mut().for_each(Order::clear);
        self.tree = None;
    }
}

/// Which search runs, on how many threads, with how big an MCTS tree.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    pub algorithm: Algorithm,
    pub threads: usize,
    pub tree_mb: usize,
}

/// What a search gives back beside its answer.
pub struct Run {
    pub answer: Answer,
    /// MCTS and the hybrid: the tree reached its memory budget and
    /// stopped growing.
    pub tree_full: bool,
    /// MCTS and the hybrid: the root's playouts kept from the last search.
    pub reused: u64,
}

/// What is said of an MCTS search whose tree reached its budget of `mb`
/// MB (the UCI loop and the GUI say the same).
pub fn tree_full(mb: usize) -> String {
    format!("the search tree filled mcts_tree_mb ({mb} MB) and stopped growing")
}

/// Searches `root` within `limits` as `setup` says: PVS with one `Order`
/// of `memory` a thread, MCTS (tree-parallel on more than one thread) from the
/// reusable part of `memory`'s tree, with a tree of at most `tree_mb` MB,
/// leaving it there, best-first on one thread with the first `Order`
/// and the embedded error model, or the hybrid (its tree as MCTS's).
/// `report` gets each iteration, the elapsed time and all threads' nodes
/// (MCTS: playouts; the hybrid: its tree's searches' nodes too); `note`
/// what a search says beside its iterations (the hybrid's tree, before
/// its final search's iterations).
#[allow(clippy::too_many_arguments)]
pub fn think(
    setup: Setup,
    root: &Root,
    limits: &SearchLimits,
    params: Params,
    shared: &Shared,
    memory: &mut Memory,
    report: impl FnMut(&Iteration, Duration, u64),
    note: impl FnOnce(&str),
) -> Run {
    let tree = mcts::Inputs {
        root,
        params,
        shared,
        resources: mcts::Resources {
            bytes: setup.tree_mb.saturating_mul(1 << 20),
            threads: setup.threads.max(1),
        },
    };
    // Under a short goal, or for `go mate`, the hybrid is PVS alone
    // (`hybrid::limits`).
    let mut note = Some(note);
    let mut say = |text: &str| {
        if let Some(note) = note.take() {
            note(text);
        }
    };
    let algorithm = match setup.algorithm {
        Algorithm::Hybrid => match hybrid::limits::pvs_alone(limits) {
            Some(why) => {
                say(&hybrid::pvs_alone_note(why));
                Algorithm::Pvs
            }
            None => Algorithm::Hybrid,
        },
        other => other,
    };
    match algorithm {
        Algorithm::Pvs => {
            let orders = &mut memory.orders;
            orders.resize_with(setup.threads.max(1), Order::default);
            orders.truncate(setup.threads.max(1));
            Run {
                answer: pvs::think(root, limits, params, shared, orders, report),
                tree_full: false,
                reused: 0,
            }
        }
        Algorithm::Mcts => {
            let out = mcts::think_within(tree, limits, &mut memory.tree, report);
            Run {
                answer: out.answer,
                tree_full: out.tree_full,
                reused: out.reused,
            }
        }
        Algorithm::Hybrid => {
            let out = hybrid::think(tree, limits, &mut memory.tree, report, say);
            Run {
                answer: out.answer,
                tree_full: out.tree.tree_full,
                reused: out.tree.reused,
            }
        }
        Algorithm::BestFirst => {
            let order = memory.orders.first_mut().expect("one order at least");
            let model = ErrorModel::embedded();
            let out = bestfirst::think(root, limits, params, shared, order, model, report);
            Run {
                answer: out.answer,
                tree_full: false,
                reused: 0,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen;
    use std::time::Instant;

    /// A `go` read 10 s ago with 100 s on the clock: whatever the search,
    /// its clock ran from then, so it answers at once (past its hard
    /// limit of about 7.5 s), with a searched move; a clock from the
    /// search's start would have searched its goal, about 2.5 s.
    #[test]
    fn every_search_counts_its_clock_from_the_go() {
        let root = Root::new(fen::parse(fen::STARTPOS).unwrap());
        let shared = Shared::new(1, 2);
        for algorithm in [
            Algorithm::Pvs,
            Algorithm::Mcts,
            Algorithm::BestFirst,
            Algorithm::Hybrid,
        ] {
            let limits = SearchLimits {
                time: Some(100_000),
                received: Some(Instant::now() - Duration::from_secs(10)),
                ..SearchLimits::default()
            };
            let setup = Setup {
                algorithm,
                threads: 1,
                tree_mb: 16,
            };
            let run = think(
                setup,
                &root,
                &limits,
                Params::default(),
                &shared,
                &mut Memory::default(),
                |_, _, _| {},
                |_| {},
            );
            let answer = run.answer;
            assert!(answer.best.is_some(), "{algorithm:?}: no move");
            assert!(
                answer.elapsed >= Duration::from_secs(10),
                "{algorithm:?}: elapsed {:?} is not counted from the go",
                answer.elapsed
            );
            assert!(
                answer.elapsed < Duration::from_millis(11_500),
                "{algorithm:?}: searched {:?} after a go read 10 s ago",
                answer.elapsed
            );
        }
    }
}
