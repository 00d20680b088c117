//! The Monte-Carlo tree search's options (`Search mcts`, and the hybrid's
//! tree), in the order `uci` lists them, after the other search options.

use super::Params;
use crate::declaration::{bool_field, number_field, Declaration};

/// MCTS's UCI options: name, default, range, field (docs/ENGINE.md says
/// what they do together; BENCHMARKS.md the SPRTs behind the defaults).
pub const MCTS_PARAMS: &[Declaration<Params>] = &[
    Declaration::spin(
        "mcts_ab",
        4,
        0,
        8,
        number_field!(mcts_ab),
        "MCTS: the nodes' (or leaves') searches, a PVS of N-1 plies and its quiescence (0: none)",
    ),
    Declaration::spin(
        "mcts_pv_prior",
        70,
        0,
        100,
        number_field!(mcts_pv_prior),
        "MCTS with mcts_ab: percent of a searched node's priors given to its search's best move",
    ),
    Declaration::spin(
        "mcts_ab_visits",
        64,
        0,
        1_000_000,
        number_field!(mcts_ab_visits),
        "MCTS with mcts_ab: search a node once N playouts passed through it (0, 1: value each new leaf by the search)",
    ),
    Declaration::spin(
        "mcts_ab_grow",
        200,
        0,
        10_000,
        number_field!(mcts_ab_grow),
        "MCTS with mcts_ab_visits: search a node again, a ply deeper, each time its visits grow N/100-fold (0 to 100: once)",
    ),
    Declaration::spin(
        "mcts_ab_nodes",
        100,
        0,
        1_000_000,
        number_field!(mcts_ab_nodes),
        "MCTS with mcts_ab: a node's search stops after N PVS nodes per visit of the node, with its deepest iteration (0: no bound)",
    ),
    Declaration::spin(
        "mcts_cpuct",
        150,
        1,
        10_000,
        number_field!(mcts_cpuct),
        "MCTS: PUCT's exploration constant, in hundredths",
    ),
    Declaration::spin(
        "mcts_fpu",
        10,
        0,
        100,
        number_field!(mcts_fpu),
        "MCTS: an untried move's value below its node's mean, in hundredths",
    ),
    Declaration::check(
        "mcts_policy",
        true,
        bool_field!(mcts_policy),
        "MCTS: priors from the trained policy (`PolicyFile`); off: a plain zap heuristic",
    ),
];
