//! The priors of a node's moves: a cheap score of each move, what its
//! laser shot zaps (the move picker's idea: an enemy King first, then any
//! enemy piece, quiet moves, and last the mover's own pieces, its King
//! the very last), turned into a distribution by a softmax.

use crate::rules::piece::{Color, Piece};

/// The softmax's temperature, in the scores' units. At 1 a move that zaps
/// an enemy Pawn is e² ≈ 7.4 times as likely a first pick as a quiet one;
/// a quiet move among a hundred still gets about 1% so that PUCT tries it
/// once the better-scored moves have a few visits.
pub const TEMPERATURE: f64 = 1.0;

/// The score of zapping an enemy Pawn (its negative: one's own).
const ZAP: f64 = 2.0;
/// The score of zapping the enemy King (its negative: one's own). Such
/// moves end the game and are proven at once, so the prior matters little.
const KING: f64 = 8.0;

/// The score of a move by `mover` whose shot zaps `victim` (if any): a
/// pure function of the position and the move, through what it zaps.
pub fn score(mover: Color, victim: Option<Piece>) -> f64 {
    let Some(p) = victim else { return 0.0 };
    let value = if p.is_king() { KING } else { ZAP };
    if p.color() == mover {
        -value
    } else {
        value
    }
}

/// Replaces each score of `scores` by its softmax at [`TEMPERATURE`]:
/// positive, summing to 1 (the largest score is taken off first so that
/// no exponential overflows).
pub fn softmax(scores: &mut [f64]) {
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut sum = 0.0;
    for s in scores.iter_mut() {
        *s = ((*s - top) / TEMPERATURE).exp();
        sum += *s;
    }
    for s in scores.iter_mut() {
        *s /= sum;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::piece::Kind;

    #[test]
    fn zaps_are_ordered_as_the_picker_orders_them() {
        let side = Color::White;
        let piece = |c, k| Some(Piece::new(k, c, 0));
        let order = [
            score(side, piece(Color::Black, Kind::King)),
            score(side, piece(Color::Black, Kind::Pawn)),
            score(side, None),
            score(side, piece(Color::White, Kind::Pawn)),
            score(side, piece(Color::White, Kind::King)),
        ];
        assert!(order.windows(2).all(|w| w[0] > w[1]), "{order:?}");
    }

    #[test]
    fn softmax_is_a_distribution() {
        let mut s = vec![0.0, 2.0, 0.0, -8.0];
        softmax(&mut s);
        assert!((s.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(s.iter().all(|&p| p > 0.0));
        assert!((s[1] / s[0] - 2f64.exp()).abs() < 1e-9);
    }
}
