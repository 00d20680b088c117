//! The first layer's sums for both perspectives, kept up to date move by
//! move: a move changes at most a few squares (its touched squares and the
//! zapped piece's), and each changed square subtracts its old piece's
//! weights and adds its new one's. Beam features change with almost every
//! move and are added at evaluation time instead ([`super::Network::evaluate`]).
//!
//! Invariant: the accumulator [`Accumulator::child`] makes after a move
//! equals [`Accumulator::refresh`] of the board after it (tests/nnue.rs
//! checks it over playouts). `refresh`, one lane at a time, is the oracle of
//! the vector kernels `child` runs.

use super::kernels::Kernels;
use super::{features, Network, Row};
use crate::rules::bitboard::squares;
use crate::rules::board::{Board, Undo};
use crate::rules::piece::{Color, Piece};
use crate::rules::square::Square;

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Accumulator {
    /// Per perspective (colour index), the first layer's sums.
    sums: [Row; 2],
}

/// `units += row`, lane by lane.
#[inline]
fn add(units: &mut Row, row: &Row) {
    for (u, r) in units.0.iter_mut().zip(&row.0) {
        *u = u.wrapping_add(*r);
    }
}

/// The contents of a move's squares before it is made: what
/// [`Accumulator::child`] compares with the board after it.
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

/// The feature rows one perspective adds and subtracts after a move: at
/// most four squares change (three touched, one zapped), each losing one
/// piece and gaining one.
#[derive(Clone, Copy, Default, Debug)]
pub struct Changes {
    add: [u16; 4],
    sub: [u16; 4],
    adds: usize,
    subs: usize,
}

impl Changes {
    /// The rows added.
    pub fn adds(&self) -> &[u16] {
        &self.add[..self.adds]
    }

    /// The rows subtracted.
    pub fn subs(&self) -> &[u16] {
        &self.sub[..self.subs]
    }

    /// Both views' changes after a move made on `b` ([`Accumulator::child`]
    /// says what `before` and `undo` are), by colour index.
    pub fn of_move(b: &Board, before: &Before, undo: &Undo) -> [Changes; 2] {
        let mut changes = [Changes::default(); 2];
        let mut change = |s: Square, old: Option<Piece>, new: Option<Piece>| {
            if old == new {
                return;
            }
            for view in Color::BOTH {
                let c = &mut changes[view.index()];
                if let Some(p) = old {
                    c.sub[c.subs] = features::piece(view, s, p) as u16;
                    c.subs += 1;
                }
                if let Some(p) = new {
                    c.add[c.adds] = features::piece(view, s, p) as u16;
                    c.adds += 1;
                }
            }
        };
        let mut zap_seen = false;
        for &(s, old) in &before.squares[..before.len] {
            zap_seen |= matches!(undo.zapped, Some((z, _)) if z == s);
            change(s, old, b.piece_at(s));
        }
        if let Some((z, p)) = undo.zapped.filter(|_| !zap_seen) {
            change(z, Some(p), None);
        }
        changes
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
    pub fn row(&self, view: Color) -> &Row {
        &self.sums[view.index()]
    }

    /// The accumulator after a move made on `b`, from this one before it:
    /// `before` was taken of its touched squares just before the move,
    /// `undo` is what the make returned.
    #[inline]
    pub fn child(&self, net: &Network, b: &Board, before: &Before, undo: &Undo) -> Accumulator {
        let mut out = Accumulator {
            sums: [net.ft_bias; 2],
        };
        self.child_into(&mut out, net, &Changes::of_move(b, before, undo));
        out
    }

    /// [`Accumulator::child`] summed straight into `out`, from the move's
    /// [`Changes::of_move`].
    #[inline]
    pub fn child_into(&self, out: &mut Accumulator, net: &Network, changes: &[Changes; 2]) {
        let k = Kernels::detect();
        for view in Color::BOTH {
            let c = &changes[view.index()];
            let into = &mut out.sums[view.index()];
            k.sum_rows_into(into, self.row(view), &net.ft_weights, c.adds(), c.subs());
        }
    }
}
