//! The search's tunable parameters, each declared once with its UCI name,
//! default and range (the table's shape is `tt::TABLE`; MCTS's own in
//! `mcts`, the hybrid's in `hybrid`).

mod hybrid;
mod mcts;

pub use hybrid::HYBRID_PARAMS;
pub use mcts::MCTS_PARAMS;

use crate::declaration::{self, bool_field, number_field, Declaration, Effect};
use crate::eval::Weights;
use crate::rules::game::NO_ZAP_PLIES;

/// The search's tunable parameters (UCI options, reference defaults).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Params {
    pub weights: Weights,
    /// Moves after this many at a node are searched one ply shallower…
    pub lmr_r1: usize,
    /// …and after this many, two plies shallower.
    pub lmr_r2: usize,
    /// Futility pruning up to depth 3 and margin pruning at depths 1 and
    /// 2 (off only in `go mate`'s exhaustive search).
    pub prune: bool,
    /// The score of a draw for the side to move at the root, in cp.
    pub draw: i32,
    /// Plies without a zap after which a position is a draw (0: never).
    pub no_zap_plies: u32,
    /// Bonus for having the move, in cp.
    pub hmb: i32,
    /// Half-width in cp of the root's aspiration window around the last
    /// iteration's score, from depth 4 (0: every iteration full width).
    pub aspiration: i32,
    /// Evaluate with the learned net (`EvalFile`) instead of the
    /// hand-written evaluation: the default since the net's SPRT at 10+0.1
    /// (BENCHMARKS.md, "The learned evaluation").
    pub use_nnue: bool,
    /// The root's best lines the main thread finds and reports (UCI
    /// `MultiPV`): line k is the best root move outside lines 1..k.
    pub multipv: usize,
    /// MCTS, k > 0: the searches of nodes (`mcts_ab_visits`) or of each
    /// new leaf, our PVS of k − 1 plies and its quiescence, on the shared
    /// table (see `mcts::leaf`); 0: none, leaves valued by the evaluation.
    pub mcts_ab: u32,
    /// MCTS with `mcts_ab`: the percentage of a searched node's priors
    /// given to its search's best move (see `mcts::leaf`).
    pub mcts_pv_prior: u32,
    /// MCTS with `mcts_ab`, N > 1: new leaves are valued by the evaluation,
    /// and a node's position is searched once, when N playouts have
    /// passed through it, its best move given `mcts_pv_prior` of the
    /// node's priors (0 or 1: every new leaf searched).
    pub mcts_ab_visits: u32,
    /// MCTS with `mcts_ab_visits`, in hundredths, g > 100: a searched
    /// node is searched again, a ply deeper each time, whenever its visits
    /// have grown g/100-fold (0 to 100: once).
    pub mcts_ab_grow: u32,
    /// MCTS with `mcts_ab`, N > 0: a search of a node with V visits
    /// stops after N·V nodes of PVS with its deepest completed iteration
    /// (0: no bound but the clock). Without a clock (`go nodes`, the bench) a root searched
    /// ever deeper would otherwise run for minutes.
    pub mcts_ab_nodes: u32,
    /// MCTS: PUCT's exploration constant, in hundredths.
    pub mcts_cpuct: u32,
    /// MCTS: first-play urgency's reduction below the node's mean, in
    /// hundredths of an expected result (see `mcts::tree::Puct`).
    pub mcts_fpu: u32,
    /// The Monte-Carlo tree search's priors come from the trained move
    /// policy (`PolicyFile`); off, from the plain zap heuristic.
    pub mcts_policy: bool,
    /// The hybrid, on a clock: the percentage of the move's time goal
    /// its MCTS tree has; the final PVS of the root has the rest (see
    /// `hybrid`).
    pub hybrid_tree_time: u32,
    /// With threads, n > 0: the threads split the tree, sharing the moves
    /// of nodes at least n plies deep (`pvs::split`); 3 by default since
    /// its SPRT against Lazy SMP (BENCHMARKS.md, "Strength with
    /// threads"); 0: Lazy SMP (every thread searches the whole tree into the
    /// shared table).
    pub split_depth: u32,
    /// Check every structure's invariants after every make/unmake and at
    /// every node (the `check_rep` option; see `crate::check_rep`). Always false, and
    /// never read, without the `debug-commands` feature.
    pub check_rep: bool,
}

/// The search's UCI options: name, default, range, field. RULES.md and the
/// reference engine's defaults, but where an SPRT accepted another.
pub const PARAMS: &[Declaration<Params>] = &[
    // lmr_r1, lmr_r2, hmb and aspiration: SPSA's values since their SPRT
    // (BENCHMARKS.md, "SPSA on four search options"); the reference's were
    // 5, 20, 3 and 25.
    Declaration::spin(
        "lmr_r1",
        3,
        1,
        100,
        number_field!(lmr_r1),
        "Late-move reduction: moves after the first N are searched a ply shallower",
    ),
    Declaration::spin(
        "lmr_r2",
        24,
        1,
        100,
        number_field!(lmr_r2),
        "Late-move reduction: moves after the first N are searched two plies shallower",
    ),
    Declaration::spin(
        "draw",
        -7,
        -1000,
        1000,
        number_field!(draw),
        "The score of a draw for the side to move at the root, in cp",
    ),
    Declaration::spin(
        "hmb",
        5,
        -100,
        100,
        number_field!(hmb),
        "Bonus for having the move, in cp",
    ),
    Declaration::spin(
        "aspiration",
        14,
        0,
        1000,
        number_field!(aspiration),
        "Half-width in cp of the root's aspiration window from depth 4 (0: full width)",
    ),
    // The table's scores came from the other evaluation.
    Effect::NewTable.on(Declaration::check(
        "use_nnue",
        true,
        bool_field!(use_nnue),
        "Evaluate with the learned net (`EvalFile`); off: the hand-written evaluation",
    )),
    Declaration::spin(
        "MultiPV",
        1,
        1,
        16,
        number_field!(multipv),
        "The root's N best lines, one `info … multipv k` line each",
    ),
    Declaration::spin(
        "no_zap_plies",
        NO_ZAP_PLIES as i64,
        0,
        10000,
        number_field!(no_zap_plies),
        "Plies without a zap that make a draw (0: never); set 200 for the course referee",
    ),
    Declaration::spin(
        "split_depth",
        3,
        0,
        64,
        number_field!(split_depth),
        "Threads share the moves of nodes N or more plies from the leaves (0: Lazy SMP)",
    ),
];

/// `check_rep`: check every structure's invariants during the search; an
/// option only in builds with the `debug-commands` feature.
#[cfg(feature = "debug-commands")]
pub const DEBUG_PARAMS: &[Declaration<Params>] = &[Declaration::check(
    "check_rep",
    false,
    bool_field!(check_rep),
    "Check every structure's invariants during the search (debug-commands builds)",
)];
#[cfg(not(feature = "debug-commands"))]
pub const DEBUG_PARAMS: &[Declaration<Params>] = &[];

impl Default for Params {
    fn default() -> Self {
        let zero = Params {
            weights: Weights::default(),
            lmr_r1: 0,
            lmr_r2: 0,
            prune: true,
            draw: 0,
            no_zap_plies: 0,
            hmb: 0,
            aspiration: 0,
            use_nnue: false,
            multipv: 0,
            mcts_ab: 0,
            mcts_pv_prior: 0,
            mcts_ab_visits: 0,
            mcts_ab_grow: 0,
            mcts_ab_nodes: 0,
            mcts_cpuct: 0,
            mcts_fpu: 0,
            mcts_policy: false,
            hybrid_tree_time: 0,
            split_depth: 0,
            check_rep: false,
        };
        let search = declaration::defaults(zero, PARAMS);
        let mcts = declaration::defaults(search, MCTS_PARAMS);
        declaration::defaults(declaration::defaults(mcts, HYBRID_PARAMS), DEBUG_PARAMS)
    }
}

impl Params {
    /// `mcts_pv_prior` as a share of 1.
    pub fn pv_prior(&self) -> f32 {
        self.mcts_pv_prior.min(100) as f32 / 100.0
    }

    /// `mcts_ab_grow` as a factor.
    pub fn ab_grow(&self) -> f64 {
        f64::from(self.mcts_ab_grow) / 100.0
    }

    /// With `mcts_ab`, the visits at which a node is searched, or none
    /// when each new leaf is (see `mcts_ab_visits`).
    pub fn ab_visits(&self) -> Option<u32> {
        (self.mcts_ab > 0 && self.mcts_ab_visits > 1).then_some(self.mcts_ab_visits)
    }

    /// These parameters without the pruning that can miss a line (late-move
    /// reductions, futility and margin pruning): what `go mate` searches
    /// with, so that a depth proves what it finds or does not.
    pub fn exhaustive(self) -> Params {
        Params {
            lmr_r1: usize::MAX,
            lmr_r2: usize::MAX,
            prune: false,
            ..self
        }
    }
}
