//! The priors of a node's moves: the move policy's distribution
//! (`crate::eval::policy`, trained on the moves a fixed-depth PVS
//! chooses), or with `mcts_policy` off the plain heuristic, the softmax of
//! a score by what each move's laser shot zaps (an enemy King first, then
//! any enemy piece, quiet moves, and last the mover's own pieces).

use crate::eval::policy::features::{zap_score, Candidate};
use crate::eval::policy::{softmax, Policy, TEMPERATURE};
use crate::rules::board::Board;

/// The priors of `moves` (generated moves of `b`) into `out`, in their
/// order, from `policy`, or from the plain heuristic when there is none,
/// at `temperature` (1: as they are; above, flatter): positive, summing
/// to 1.
pub fn priors(
    policy: Option<&Policy>,
    b: &Board,
    moves: &[Candidate],
    temperature: f64,
    out: &mut Vec<f64>,
) {
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
    if temperature != 1.0 {
        let power = 1.0 / temperature;
        let mut sum = 0.0;
        for p in out.iter_mut() {
            *p = p.powf(power);
            sum += *p;
        }
        out.iter_mut().for_each(|p| *p /= sum);
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
        priors(None, &b, &moves, 1.0, &mut plain);
        priors(Some(&Policy::heuristic()), &b, &moves, 1.0, &mut policy);
        assert!((plain.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        for (a, p) in plain.iter().zip(&policy) {
            assert!((a - p).abs() < 1e-6, "{a} {p}");
        }
        let zaps = plain.iter().filter(|&&a| a > plain[0]).count();
        assert!(zaps > 0 && zaps < plain.len(), "{plain:?}");
    }

    /// A temperature T raises each prior to 1/T and renormalises: twice
    /// as hot, each prior the square root of its old one, scaled.
    #[test]
    fn a_temperature_flattens_or_sharpens_the_priors() {
        let b = fen::parse("ss7/8/8/8/7nw/8/8/7NN W").unwrap();
        let mut moves = Vec::new();
        candidates(&b, &mut moves);
        let policy = Policy::embedded();
        let (mut cold, mut hot, mut sharp) = (Vec::new(), Vec::new(), Vec::new());
        priors(Some(&policy), &b, &moves, 1.0, &mut cold);
        priors(Some(&policy), &b, &moves, 2.0, &mut hot);
        priors(Some(&policy), &b, &moves, 0.5, &mut sharp);
        let root_sum: f64 = cold.iter().map(|p| p.sqrt()).sum();
        let square_sum: f64 = cold.iter().map(|p| p * p).sum();
        for i in 0..cold.len() {
            assert!((hot[i] - cold[i].sqrt() / root_sum).abs() < 1e-12);
            assert!((sharp[i] - cold[i] * cold[i] / square_sum).abs() < 1e-12);
        }
        let spread = |ps: &[f64]| ps.iter().cloned().fold(0.0, f64::max);
        assert!(spread(&hot) < spread(&cold) && spread(&cold) < spread(&sharp));
    }
}
