//! The win/draw/loss model: the chances that the side to move wins, draws
//! and loses, from the search's score in centipawns (side to move's view).
//! Stockfish's two logistics:
//!
//! ```text
//! win  = 1 / (1 + exp((a − s) / b))
//! loss = 1 / (1 + exp((a + s) / b))
//! draw = 1 − win − loss
//! ```
//!
//! `a` (> 0) is the score at which the side to move wins half its games,
//! `b` (> 0) how gradually the chances turn with the score; the larger `a`
//! against `b`, the more draws (at 0, draw = 1 − 2 / (1 + e^(a/b))). [`wdl`] gives them in per mille for UCI's `info … wdl W D L`,
//! [`win_probability`] the expected result for a Monte-Carlo search.
//!
//! A search score beyond ±31000 (`search::MATE_BOUND`) is a forced King
//! zap: the curves are saturated long before it, so a mate gives 1000/0/0
//! or 0/0/1000 (tests/library/wdl.rs checks it with the search's constant;
//! this layer may not import the search's).

use super::logistic::logistic;

/// The fitted constants: `leiserchess wdl /tmp/wdl-data.bin` on the
/// 200,000 positions (2,261 games) of `leiserchess datagen
/// /tmp/wdl-data.bin --positions 200000 --nodes 5000 --threads 1` (the
/// embedded net, seed 1), where the side to move won 45.5%, drew 8.7% and
/// lost 45.8%; log-loss 0.808 nats against 0.929 for those frequencies
/// alone. A fit per piece count predicted held-out games only 0.003 nats
/// better, its constants zigzagging with the count's parity (balanced
/// material draws more) rather than following the phase, so one pair
/// serves every position.
pub const MODEL: Model = Model::new(30.6, 140.3);

/// The model's two constants, in centipawns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    a: f64,
    b: f64,
}

impl Model {
    /// The model with constants `a` and `b`; panics unless both are
    /// finite and above 0 (a negative `a` would make the draw's chance
    /// negative).
    pub const fn new(a: f64, b: f64) -> Model {
        assert!(a.is_finite() && b.is_finite() && a > 0.0 && b > 0.0);
        Model { a, b }
    }

    pub fn a(&self) -> f64 {
        self.a
    }

    pub fn b(&self) -> f64 {
        self.b
    }

    /// The chances `[win, draw, loss]` at `score` (cp).
    pub fn probabilities(&self, score: f64) -> [f64; 3] {
        let win = logistic((score - self.a) / self.b);
        let loss = logistic(-(self.a + score) / self.b);
        // `1 − (win + loss)`, not `1 − win − loss`: addition commutes, so
        // the opposite score's draw is the same number to the last bit; at
        // 0 where rounding would take it below.
        [win, (1.0 - (win + loss)).max(0.0), loss]
    }

    /// The chances at `score` in per mille, summing to exactly 1000;
    /// `per_mille(-s)` is `per_mille(s)` reversed, and the win (loss) share
    /// never falls (rises) as the score rises.
    pub fn per_mille(&self, score: i32) -> [u16; 3] {
        let [win, _, loss] = self.probabilities(f64::from(score));
        split(win, loss)
    }

    /// The expected result at `score` (cp): win + draw / 2, 0 to 1.
    pub fn expected(&self, score: f64) -> f64 {
        let [win, draw, _] = self.probabilities(score);
        win + draw / 2.0
    }
}

/// `win` and `loss` rounded to per mille, the draw the rest. Each rounding
/// adds at most a half and `win + loss ≤ 1`, so the two exceed 1000 only
/// when both land on a half with no draw left (a draw band below f64's
/// resolution): then the less likely side, never a tie as 1001 is odd,
/// gives the point back, which keeps the triple symmetric and monotone.
fn split(win: f64, loss: f64) -> [u16; 3] {
    let (mut w, mut l) = (
        (1000.0 * win).round() as u16,
        (1000.0 * loss).round() as u16,
    );
    if w + l > 1000 {
        if win < loss {
            w -= 1;
        } else {
            l -= 1;
        }
    }
    [w, 1000 - w - l, l]
}

/// The fitted model's `[win, draw, loss]` per mille at `score_cp` (side to
/// move's view), summing to exactly 1000.
pub fn wdl(score_cp: i32) -> [u16; 3] {
    MODEL.per_mille(score_cp)
}

/// The fitted model's expected result at `score_cp` (side to move's view):
/// win + draw / 2, 0 to 1.
pub fn win_probability(score_cp: i32) -> f64 {
    MODEL.expected(f64::from(score_cp))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_score_is_even_and_a_large_one_decided() {
        let [w, d, l] = wdl(0);
        assert_eq!(w, l);
        assert_eq!(w + d + l, 1000);
        assert_eq!(win_probability(0), 0.5);
        assert_eq!(wdl(20_000), [1000, 0, 0]);
        assert_eq!(wdl(-20_000), [0, 0, 1000]);
    }

    #[test]
    fn a_is_where_win_is_even_and_b_the_spread() {
        let m = Model::new(120.0, 80.0);
        let [win, draw, loss] = m.probabilities(120.0);
        assert!((win - 0.5).abs() < 1e-12);
        assert!((loss - 1.0 / (1.0 + 3f64.exp())).abs() < 1e-12);
        assert!((win + draw + loss - 1.0).abs() < 1e-12);
        assert!((m.expected(120.0) - (win + draw / 2.0)).abs() < 1e-15);
    }

    #[test]
    fn rounding_past_1000_gives_the_point_back() {
        // Exact in f64: 62.5 and 937.5 per mille both round up.
        assert_eq!(split(0.0625, 0.9375), [62, 0, 938]);
        assert_eq!(split(0.9375, 0.0625), [938, 0, 62]);
        assert_eq!(split(0.25, 0.5), [250, 250, 500]);
    }

    #[test]
    #[should_panic]
    fn a_negative_draw_band_is_refused() {
        Model::new(-1.0, 100.0);
    }
}
