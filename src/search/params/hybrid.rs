//! The hybrid's options (`Search hybrid`), in the order `uci` lists them,
//! after MCTS's (whose options its tree reads).

use super::Params;
use crate::declaration::{number_field, Declaration};

/// The hybrid's UCI options: name, default, range, field (docs/ENGINE.md
/// says what they do).
pub const HYBRID_PARAMS: &[Declaration<Params>] = &[
    // 50 since its SPRT against a tree on the whole goal (BENCHMARKS.md,
    // "The root searched last").
    Declaration::spin(
        "hybrid_tree_time",
        50,
        1,
        99,
        number_field!(hybrid_tree_time),
        "Hybrid, on a clock: percent of the move's time goal its MCTS tree has; the final PVS of the root has the rest",
    ),
];
