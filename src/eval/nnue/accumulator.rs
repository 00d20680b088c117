//! The first layer's sums for both perspectives, kept up to date move by
//! move: a move changes at most a few squares (its touched squares and the
//! zapped piece's), and each changed square subtracts its old piece's
//! weights and adds its new one's. Beam features change with almost every
//! move and are added at evaluation time instead ([`super::Network::evaluate`]).
//!
//! Invariant: after [`Accumulator::refresh`] or any sequence of
//! [`Accumulator::update`]s that follow the board's moves, the sums equal a
//! refresh of the current board (tests/nnue.rs checks it over playouts).

use super::features;
use super::{Network, HIDDEN};
use crate::rules::bitboard::squares;
use crate::rules::board::{Board, Undo};
use crate::rules::piece::{Color, Piece};
use crate::rules::square::Square;

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Accumulator {
    /// Per perspective (colour index), the first layer's sums.
    sums: [[i16; HIDDEN]; 2],
}

/// `units += row`, lane by lane (vectorised by the compiler).
#[inline(always)]
pub fn add(units: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (u, r) in units.iter_mut().zip(row) {
        *u = u.wrapping_add(*r);
    }
}

/// `units -= row`.
#[inline(always)]
fn sub(units: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (u, r) in units.iter_mut().zip(row) {
        *u = u.wrapping_sub(*r);
    }
}

/// The contents of a move's squares before it is made: what
/// [`Accumulator::update`] compares with the board after it.
#[derive(Clone, Copy, Debug)]
pub struct Before {
    squares: [(Square, Option<Piece>); 3],
    len: usize,
}

impl Before {
    /// The pieces on `touched` (a move's touched squares, at most three).
    pub fn of(b: &Board, touched: u64) -> Before {
        let mut at = Before {
            squares: [(Square::new(0), None); 3],
            len: 0,
        };
        for s in squares(touched) {
            at.squares[at.len] = (s, b.piece_at(s));
            at.len += 1;
        }
        at
    }
}

impl Accumulator {
    /// The sums of `b`'s piece features under `net`, from scratch.
    pub fn refresh(net: &Network, b: &Board) -> Accumulator {
        let mut acc = Accumulator {
            sums: [net.ft_bias; 2],
        };
        for view in Color::BOTH {
            for f in features::pieces(b, view) {
                add(&mut acc.sums[view.index()], &net.ft_weights[f]);
            }
        }
        acc
    }

    /// The first-layer sums from `view`.
    #[inline]
    pub fn units(&self, view: Color) -> [i16; HIDDEN] {
        self.sums[view.index()]
    }

    /// Follows a move made on `b`: `before` was taken of its touched squares
    /// just before it, `undo` is what the make returned.
    pub fn update(&mut self, net: &Network, b: &Board, before: &Before, undo: &Undo) {
        let mut zap_seen = false;
        for &(s, old) in &before.squares[..before.len] {
            zap_seen |= matches!(undo.zapped, Some((z, _)) if z == s);
            self.change(net, s, old, b.piece_at(s));
        }
        if let Some((z, p)) = undo.zapped.filter(|_| !zap_seen) {
            self.change(net, z, Some(p), None);
        }
    }

    /// Square `s` held `old` and now holds `new`.
    #[inline]
    fn change(&mut self, net: &Network, s: Square, old: Option<Piece>, new: Option<Piece>) {
        if old == new {
            return;
        }
        for view in Color::BOTH {
            let sums = &mut self.sums[view.index()];
            if let Some(p) = old {
                sub(sums, &net.ft_weights[features::piece(view, s, p)]);
            }
            if let Some(p) = new {
                add(sums, &net.ft_weights[features::piece(view, s, p)]);
            }
        }
    }
}
