//! One Monte-Carlo tree search as the tests run it: `mcts::think_within`
//! with the engine's defaults unless a test says otherwise, and no reports.

use leiserchess::search::mcts::{self, Inputs, Kept, Outcome, Resources};
use leiserchess::search::time::SearchLimits;
use leiserchess::search::{Params, Root, Shared};

/// The parameters and resources of a search: by default the engine's
/// (one thread, the default tree budget).
#[derive(Clone, Copy, Default)]
pub struct Mcts {
    pub params: Params,
    pub resources: Resources,
}

impl Mcts {
    /// The default search on `threads` threads within `bytes` of tree.
    pub fn on(threads: usize, bytes: usize) -> Mcts {
        Mcts {
            resources: Resources { bytes, threads },
            ..Mcts::default()
        }
    }

    /// Searches `root` within `limits` with a 1 MB table of its own and a
    /// new tree.
    pub fn search(self, root: &Root, limits: &SearchLimits) -> Outcome {
        self.search_in(root, limits, &Shared::new(1, 1), &mut None)
    }

    /// Searches `root` within `limits` with `shared`'s table and stop flag
    /// (the caller clears it), from the tree `kept` holds where it applies,
    /// and leaves its tree there.
    pub fn search_in(
        self,
        root: &Root,
        limits: &SearchLimits,
        shared: &Shared,
        kept: &mut Option<Kept>,
    ) -> Outcome {
        let inputs = Inputs {
            root,
            params: self.params,
            shared,
            resources: self.resources,
        };
        mcts::think_within(inputs, limits, kept, |_, _, _| {})
    }
}
