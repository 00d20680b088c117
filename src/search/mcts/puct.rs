//! PUCT's constants: the exploration term and the first-play urgency of
//! the tree's selection (`Tree::select`).

/// PUCT's constants (`mcts_cpuct`, `mcts_cpuct_growth`, `mcts_cpuct_base`
/// and `mcts_fpu`, the first two and the last in hundredths).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Puct {
    /// The exploration constant at a node's first visits…
    pub c: f64,
    /// …growing by this much each time the node's visits pass another
    /// e-fold of `base` (AlphaZero's `c(N) = c + growth·ln((N + base) /
    /// base)`): exploration keeps pace as a node's visits pile up.
    pub growth: f64,
    pub base: f64,
    /// First-play urgency: an unvisited edge is valued as its node's mean
    /// value for the side to move, less this; a node nobody has visited
    /// through (its first playout) counts as even. Below the mean, so that
    /// moves already known to be good are deepened before every sibling
    /// has been tried once; the priors then decide which siblings come
    /// first.
    pub fpu_reduction: f64,
    /// The share of an edge's value that is its implicit minimax value
    /// rather than its mean (`mcts_minimax`, in hundredths).
    pub minimax: f64,
    /// A searched node's minimax value is its search's (`mcts_ab_minimax`).
    pub searched_minimax: bool,
}

impl Puct {
    pub fn of(params: &crate::search::Params) -> Puct {
        Puct {
            c: f64::from(params.mcts_cpuct) / 100.0,
            growth: f64::from(params.mcts_cpuct_growth) / 100.0,
            base: f64::from(params.mcts_cpuct_base.max(1)),
            fpu_reduction: f64::from(params.mcts_fpu) / 100.0,
            minimax: f64::from(params.mcts_minimax.min(100)) / 100.0,
            searched_minimax: params.mcts_ab_minimax,
        }
    }
}

impl Puct {
    /// The exploration constant at a node of `visits` visits.
    pub fn c(&self, visits: u64) -> f64 {
        if self.growth == 0.0 {
            return self.c;
        }
        self.c + self.growth * ((visits as f64 + self.base) / self.base).ln()
    }
}

impl Default for Puct {
    fn default() -> Puct {
        Puct::of(&crate::search::Params::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puct_s_constant_grows_with_a_node_s_visits_when_asked() {
        let flat = Puct {
            c: 1.5,
            growth: 0.0,
            base: 1000.0,
            fpu_reduction: 0.1,
            minimax: 0.0,
            searched_minimax: false,
        };
        assert_eq!((flat.c(0), flat.c(1 << 30)), (1.5, 1.5));
        let growing = Puct {
            growth: 0.5,
            ..flat
        };
        assert_eq!(growing.c(0), 1.5);
        assert!((growing.c(1000) - (1.5 + 0.5 * 2f64.ln())).abs() < 1e-12);
        assert!(growing.c(100_000) > growing.c(10_000));
    }
}
