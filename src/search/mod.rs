//! The searches and what they share. Each algorithm has its own folder
//! (`pvs`: principal variation search; `mcts`: Monte-Carlo tree search;
//! `bestfirst`: best-first search by depth promotion; `hybrid`: an MCTS
//! tree, then a final PVS); around them, shared
//! by all: the root (`root`), what a search reports (`report`), the
//! threads' shared state (`shared`), the limits and time plan (`time`),
//! the parameters (`params`), the k-way transposition table and its shape
//! (`tt`), the positions before the one a search stands on (`trail`) and
//! the `bench` workload; `algorithm` picks the search a `go`
//! runs. Scores are centipawns from the side to move's view; a King zap at
//! ply `p` is worth `±(MATE − p)`.

pub mod algorithm;
pub mod bench;
pub mod bestfirst;
pub mod hybrid;
pub mod mcts;
pub mod params;
pub mod pvs;
pub mod report;
pub mod root;
pub mod shared;
pub mod time;
pub mod trail;
pub mod tt;

pub use params::Params;
pub use report::{Answer, Iteration, Line, Visits};
pub use root::Root;
pub use shared::Shared;

pub const MATE: i32 = 32000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1000;

/// `score cp x` or `score mate k` (moves; negative when losing).
pub fn score_text(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}
