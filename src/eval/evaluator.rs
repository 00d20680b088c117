//! Which evaluation scores positions, chosen here once for the search, the
//! `eval` command and the lab: the learned net (the `use_nnue` option, on
//! by default) or the hand-written evaluation with its weights.

use super::nnue::accumulator::Accumulator;
use super::nnue::Network;
use super::{evaluate, Weights};
use crate::rules::board::Board;

/// The evaluation in use.
#[derive(Clone, Copy, Debug)]
pub enum Evaluator<'a> {
    Net(&'a Network),
    Hand(Weights),
}

impl<'a> Evaluator<'a> {
    /// The net when `use_net`, else the hand-written evaluation.
    pub fn choose(use_net: bool, net: &'a Network, weights: Weights) -> Evaluator<'a> {
        if use_net {
            Evaluator::Net(net)
        } else {
            Evaluator::Hand(weights)
        }
    }

    /// The net, if this is it (the search keeps its accumulators).
    pub fn net(self) -> Option<&'a Network> {
        match self {
            Evaluator::Net(net) => Some(net),
            Evaluator::Hand(_) => None,
        }
    }

    /// The score of `b` for the side to move in centipawns. With the net,
    /// `acc` is `b`'s accumulator, or `None` to build one.
    pub fn score_cp(self, b: &Board, acc: Option<&Accumulator>) -> i32 {
        match self {
            Evaluator::Net(net) => match acc {
                Some(acc) => net.evaluate(acc, b),
                None => net.evaluate(&Accumulator::refresh(net, b), b),
            },
            Evaluator::Hand(w) => evaluate(b, &w).score_cp(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen;

    #[test]
    fn the_choice_scores_as_its_evaluation_does() {
        let net = Network::embedded();
        let w = Weights::default();
        let b = fen::parse(fen::STARTPOS).unwrap();
        let acc = Accumulator::refresh(&net, &b);
        let learned = net.evaluate(&acc, &b);
        let hand = evaluate(&b, &w).score_cp();
        let on = Evaluator::choose(true, &net, w);
        assert_eq!(on.score_cp(&b, Some(&acc)), learned);
        assert_eq!(on.score_cp(&b, None), learned);
        assert!(on.net().is_some());
        let off = Evaluator::choose(false, &net, w);
        assert_eq!(off.score_cp(&b, None), hand);
        assert!(off.net().is_none());
    }
}
