//! Values as the tree keeps them: the expected result (win 1, draw ½,
//! loss 0) of a position, from the evaluation's centipawns through the
//! win/draw/loss model, and back to centipawns for the reports.

use crate::eval::wdl::win_probability;
use crate::search::MATE_BOUND;

/// Expected results are kept this far from 0 and 1 when turned back into
/// centipawns: the model saturates, so the exact ends have no finite
/// score (this bound is about ±2000 cp).
const EDGE: f64 = 1e-6;

/// The expected result for the side to move of a position the evaluation
/// scores `cp`: the model's win + draw / 2 (its `(W + D/2) / 1000` before
/// rounding to per mille). The tree's one mapping from scores to values.
pub fn expected(cp: i32) -> f64 {
    win_probability(cp)
}

/// The score in centipawns whose expected result is nearest `q` (at or
/// above it): [`expected`] inverted by bisection over the scores below
/// the mate bound, as it rises with the score.
pub fn centipawns(q: f64) -> i32 {
    let q = q.clamp(EDGE, 1.0 - EDGE);
    let (mut lo, mut hi) = (-(MATE_BOUND - 1), MATE_BOUND - 1);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if expected(mid) < q {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centipawns_inverts_expected() {
        for cp in (-1500..=1500).step_by(7) {
            assert_eq!(centipawns(expected(cp)), cp);
        }
        assert_eq!(centipawns(0.5), 0);
        assert!(centipawns(1.0) > 1000 && centipawns(1.0) < MATE_BOUND);
        // Symmetric but for the bisection's rounding at the flat ends.
        assert!((centipawns(0.0) + centipawns(1.0)).abs() <= 1);
    }
}
