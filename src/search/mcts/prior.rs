//! The priors of a node's moves: the move policy's distribution
//! (`crate::eval::policy`, trained on the moves a fixed-depth PVS
//! chooses), or with `mcts_policy` off the plain heuristic, the softmax of
//! a score by what each move's laser shot zaps (an enemy King first, then
//! any enemy piece, quiet moves, and last the mover's own pieces).

use crate::eval::policy::features::{zap_score, Candidate};
use crate::eval::policy::{softmax, Policy, TEMPERATURE};
use crate::rules::board::Board;

/// The priors of `moves` (generated moves of `b`) into `out`, in their
/// order, from `policy`, or from the plain heuristic when there is none:
/// positive, summing to 1.
pub fn priors(policy: Option<&Policy>, b: &Board, moves: &[Candidate], out: &mut Vec<f64>) {
    match policy {
        Some(p) => p.priors(b, moves, out),
        None => {
            let side = b.side();
            out.clear();
            out.extend(
                moves
                    .iter()
                    .map(|c| zap_score(side, c.victim.map(|(_, p)| p)) / TEMPERATURE),
            );
            softmax(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::policy::features::candidates;
    use crate::rules::fen;

    /// Without a policy the priors are the heuristic policy's, computed
    /// without the features.
    #[test]
    fn the_plain_priors_are_the_heuristic_policys() {
        // Tangerine's King fires north onto the back of a Lavender Pawn.
        let b = fen::parse("ss7/8/8/8/7nw/8/8/7NN W").unwrap();
        let mut moves = Vec::new();
        candidates(&b, &mut moves);
        let (mut plain, mut policy) = (Vec::new(), Vec::new());
        priors(None, &b, &moves, &mut plain);
        priors(Some(&Policy::heuristic()), &b, &moves, &mut policy);
        assert!((plain.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        for (a, p) in plain.iter().zip(&policy) {
            assert!((a - p).abs() < 1e-6, "{a} {p}");
        }
        let zaps = plain.iter().filter(|&&a| a > plain[0]).count();
        assert!(zaps > 0 && zaps < plain.len(), "{plain:?}");
    }
}
