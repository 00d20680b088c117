//! PUCT's constants: the exploration term and the first-play urgency of
//! the tree's selection (`Tree::select`).

/// PUCT's constants (`mcts_cpuct` and `mcts_fpu`, in hundredths).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Puct {
    /// The exploration constant.
    pub c: f64,
    /// First-play urgency: an unvisited edge is valued as its node's mean
    /// value for the side to move, less this; a node nobody has visited
    /// through (its first playout) counts as even. Below the mean, so that
    /// moves already known to be good are deepened before every sibling
    /// has been tried once; the priors then decide which siblings come
    /// first.
    pub fpu_reduction: f64,
}

impl Puct {
    pub fn of(params: &crate::search::Params) -> Puct {
        Puct {
            c: f64::from(params.mcts_cpuct) / 100.0,
            fpu_reduction: f64::from(params.mcts_fpu) / 100.0,
        }
    }
}

impl Default for Puct {
    fn default() -> Puct {
        Puct::of(&crate::search::Params::default())
    }
}
