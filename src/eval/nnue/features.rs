//! The network's inputs, seen from one side (its "perspective"): a piece
//! feature per piece, indexed by whose it is (own or theirs), kind,
//! orientation and square; and, for nets that have them, a beam feature
//! per square each side's laser passes or stops on.
//!
//! The start position is symmetric under a half turn of the board with
//! the colours swapped (RULES.md), so Lavender's view is the board turned
//! a half turn: square `s` becomes `63 − s` and every orientation turns by
//! two quarters. A position and its turned, colour-swapped twin then give
//! the same inputs to the side to move, and one set of weights serves both
//! sides.

use crate::rules::bitboard::squares;
use crate::rules::board::Board;
use crate::rules::laser;
use crate::rules::piece::{Color, Piece};
use crate::rules::square::Square;

/// Piece features: 2 owners × 2 kinds × 4 orientations × 64 squares.
pub const PIECE_FEATURES: usize = 1024;

/// Beam features: 2 owners × 64 squares, after the piece features.
pub const BEAM_FEATURES: usize = 128;

/// The number of inputs of a net with or without the beam features.
pub const fn count(beam: bool) -> usize {
    PIECE_FEATURES + if beam { BEAM_FEATURES } else { 0 }
}

/// The square `s` as `view` sees it.
#[inline(always)]
fn relative(view: Color, s: Square) -> usize {
    match view {
        Color::White => s.index(),
        Color::Black => 63 - s.index(),
    }
}

/// The feature of piece `p` on `s` seen from `view`: bits 0..1 the
/// orientation (turned for Lavender), bit 2 theirs, bit 3 King, then the
/// square.
#[inline(always)]
pub fn piece(view: Color, s: Square, p: Piece) -> usize {
    let (ori, theirs) = match view {
        Color::White => (p.ori() as usize, p.color() != view),
        Color::Black => ((p.ori() as usize + 2) & 3, p.color() != view),
    };
    let code = (usize::from(p.is_king()) << 3) | (usize::from(theirs) << 2) | ori;
    code * 64 + relative(view, s)
}

/// The beam feature of the laser of `owner` on `s`, seen from `view`.
#[inline(always)]
pub fn beam(view: Color, owner: Color, s: Square) -> usize {
    PIECE_FEATURES + usize::from(owner != view) * 64 + relative(view, s)
}

/// Every piece feature of `b` from `view`, in square order.
pub fn pieces(b: &Board, view: Color) -> impl Iterator<Item = usize> + '_ {
    squares(b.occupied()).map(move |s| {
        let p = b.piece_at(s).expect("an occupied square holds a piece");
        piece(view, s, p)
    })
}

/// The squares each side's beam passes or stops on, White's then Black's.
#[inline]
pub fn beam_squares(b: &Board) -> [u64; 2] {
    Color::BOTH.map(|c| laser::path(b, c).0)
}

/// Every beam feature of `b` from `view`.
pub fn beams(b: &Board, view: Color) -> impl Iterator<Item = usize> {
    beams_of(beam_squares(b), view)
}

/// Every beam feature from `view` of the beams `paths` ([`beam_squares`]):
/// the beams traced once serve both views.
pub fn beams_of(paths: [u64; 2], view: Color) -> impl Iterator<Item = usize> {
    Color::BOTH
        .into_iter()
        .flat_map(move |owner| squares(paths[owner.index()]).map(move |s| beam(view, owner, s)))
}

/// [`beams_of`] written into `out` for the vector kernels: the features'
/// rows, own beam first; returns how many. Lavender sees square `s` as
/// `63 − s`, which is `s ^ 63`.
#[inline]
pub fn beam_rows(paths: [u64; 2], view: Color, out: &mut [u16; BEAM_FEATURES]) -> usize {
    let flip = match view {
        Color::White => 0,
        Color::Black => 63,
    };
    let mut n = 0;
    for (owner, base) in [(view, PIECE_FEATURES), (view.opp(), PIECE_FEATURES + 64)] {
        let mut bits = paths[owner.index()];
        while bits != 0 {
            out[n] = (base + (bits.trailing_zeros() as usize ^ flip)) as u16;
            n += 1;
            bits &= bits - 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen;

    const START: &str = "ss7/3nwse3/2nwse4/1nwse3NW1/1se3NWSE1/4NWSE2/3NWSE3/7NN W";

    fn sorted(mut v: Vec<usize>) -> Vec<usize> {
        v.sort_unstable();
        v
    }

    #[test]
    fn the_start_looks_the_same_from_both_sides() {
        let b = fen::parse(START).unwrap();
        let white = sorted(pieces(&b, Color::White).collect());
        let black = sorted(pieces(&b, Color::Black).collect());
        assert_eq!(white, black);
        assert_eq!(white.len(), 16);
        let wb = sorted(beams(&b, Color::White).collect());
        let bb = sorted(beams(&b, Color::Black).collect());
        assert_eq!(wb, bb);
        assert!(!wb.is_empty());
    }

    #[test]
    fn features_are_distinct_and_in_range() {
        let b = fen::parse(START).unwrap();
        for view in Color::BOTH {
            let f = sorted(pieces(&b, view).collect());
            assert!(f.windows(2).all(|w| w[0] < w[1]));
            assert!(f.iter().all(|&i| i < PIECE_FEATURES));
            let g: Vec<usize> = beams(&b, view).collect();
            assert!(g
                .iter()
                .all(|&i| (PIECE_FEATURES..PIECE_FEATURES + BEAM_FEATURES).contains(&i)));
            let mut rows = [0; BEAM_FEATURES];
            let n = beam_rows(beam_squares(&b), view, &mut rows);
            let rows: Vec<usize> = rows[..n].iter().map(|&r| usize::from(r)).collect();
            assert_eq!(sorted(rows), sorted(g));
        }
    }

    #[test]
    fn own_and_theirs_swap_with_the_view() {
        let s = Square::new(10);
        let p = Piece::new(crate::rules::piece::Kind::King, Color::White, 1);
        assert_eq!(piece(Color::White, s, p), (8 | 1) * 64 + 10);
        // Theirs, turned by two quarters, on the turned square.
        assert_eq!(piece(Color::Black, s, p), (8 | 4 | 3) * 64 + 53);
    }
}
