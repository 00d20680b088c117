//! Which search answers a `go`: principal variation search (`pvs`, the
//! default) or Monte-Carlo tree search (`mcts`), chosen by the `Search`
//! option; the UCI loop and the GUI start either through [`think`].

use super::mcts;
use super::pvs::{self, order::Order};
use super::root::{Answer, Iteration, Root};
use super::shared::Shared;
use super::time::SearchLimits;
use super::Params;
use std::time::Duration;

/// A search algorithm.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Algorithm {
    Pvs,
    Mcts,
}

/// The `Search` option's choices, in [`Algorithm`]'s order.
pub const NAMES: &[&str] = &["pvs", "mcts"];

impl Algorithm {
    /// The algorithm of the `Search` option's choice `index`.
    pub fn from_index(index: i64) -> Algorithm {
        match index {
            1 => Algorithm::Mcts,
            _ => Algorithm::Pvs,
        }
    }
}

/// What a search gives back beside its answer.
pub struct Run {
    pub answer: Answer,
    /// MCTS only: the tree reached its memory budget and stopped growing.
    pub tree_full: bool,
}

/// Searches `root` within `limits` with `algorithm`: PVS on one thread an
/// `Order` of `orders` (their count is the thread count), MCTS on one
/// thread with a tree of at most `tree_mb` MB. `report` gets each
/// iteration, the elapsed time and all threads' nodes (MCTS: playouts).
#[allow(clippy::too_many_arguments)]
pub fn think(
    algorithm: Algorithm,
    root: &Root,
    limits: &SearchLimits,
    params: Params,
    shared: &Shared,
    orders: &mut [Order],
    tree_mb: usize,
    report: impl FnMut(&Iteration, Duration, u64),
) -> Run {
    match algorithm {
        Algorithm::Pvs => Run {
            answer: pvs::think(root, limits, params, shared, orders, report),
            tree_full: false,
        },
        Algorithm::Mcts => {
            let budget = tree_mb.saturating_mul(1 << 20);
            let out = mcts::think_within(root, limits, params, shared, budget, report);
            Run {
                answer: out.answer,
                tree_full: out.tree_full,
            }
        }
    }
}
