//! The search's tunable parameters and their defaults.

use crate::eval::Weights;

/// The search's tunable parameters (UCI options, reference defaults).
#[derive(Clone, Copy, Debug)]
pub struct Params {
    pub weights: Weights,
    /// Moves after this many at a node are searched one ply shallower…
    pub lmr_r1: usize,
    /// …and after this many, two plies shallower.
    pub lmr_r2: usize,
    /// Futility pruning at depths up to this.
    pub fut_depth: i32,
    /// Margin pruning at depths 1 and 2.
    pub use_nmm: bool,
    /// The score of a draw for the side to move at the root, in cp.
    pub draw: i32,
    /// Plies without a zap after which a position is a draw (0: never).
    pub no_zap_plies: u32,
    /// Bonus for having the move, in cp.
    pub hmb: i32,
    /// Uniform evaluation noise in ±ev (0: none), drawn from `seed`.
    pub randomize: i32,
    /// Half-width in cp of the root's aspiration window around the last
    /// iteration's score, from depth 4 (0: every iteration full width).
    pub aspiration: i32,
    pub seed: u64,
    /// Check every structure's invariants after every make/unmake and at
    /// every node (the `check_rep` option; see `debug`). Always false, and
    /// never read, without the `debug-commands` feature.
    pub check_rep: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            weights: Weights::default(),
            lmr_r1: 5,
            lmr_r2: 20,
            fut_depth: 3,
            use_nmm: true,
            draw: -7,
            no_zap_plies: 100,
            hmb: 3,
            randomize: 0,
            aspiration: 25,
            seed: 0,
            check_rep: false,
        }
    }
}

impl Params {
    /// These parameters without the pruning that can miss a line (late-move
    /// reductions, futility and margin pruning): what `go mate` searches
    /// with, so that a depth proves what it finds or does not.
    pub fn exhaustive(self) -> Params {
        Params {
            lmr_r1: usize::MAX,
            lmr_r2: usize::MAX,
            fut_depth: 0,
            use_nmm: false,
            ..self
        }
    }
}
