//! What a search reports, whichever the algorithm: each completed
//! iteration with its lines, and the answer.

use crate::rules::moves::Move;
use std::time::Duration;

/// One completed iteration: its best line's score and moves, and with
/// `MultiPV` more than 1 the root's best lines, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub nodes: u64,
    pub pv: Vec<Move>,
    /// Every line found, the best (`score`, `pv`) first; of the main
    /// thread only.
    pub lines: Vec<Line>,
}

/// One root move's line: its score and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub score: i32,
    pub pv: Vec<Move>,
    /// MCTS: the playouts through the line's first move, of the root's.
    pub visits: Option<Visits>,
}

/// A root move's share of the playouts (MCTS): the move's and the root's,
/// kept playouts of an earlier search included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visits {
    pub edge: u64,
    pub root: u64,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct Answer {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub last: Option<Iteration>,
    /// All threads' nodes.
    pub nodes: u64,
    pub elapsed: Duration,
    /// From the call to the first iteration's start: the search's own
    /// set-up (its table's generation, its workers). PVS only; `None`
    /// where the algorithm does not measure it.
    pub setup: Option<Duration>,
}
