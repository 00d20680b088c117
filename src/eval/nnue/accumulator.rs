//! The first layer's sums for both perspectives, kept up to date move by
//! move: a move changes at most a few squares (its touched squares and the
//! zapped piece's), and each changed square subtracts its old piece's
//! weights and adds its new one's. Beam features change with almost every
//! move and are added at evaluation time instead ([`super::Network::evaluate`]).
//!
//! Invariant: the accumulator [`Accumulator::child`] makes after a move
//! equals [`Accumulator::refresh`] of the board after it (tests/engine/nnue.rs
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
#[derive(Clone, Copy, Default)]
struct Changes {
    add: [u16; 4],
    sub: [u16; 4],
    adds: usize,
    subs: usize,
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
        self.child_into(&mut out, net, b, before, undo);
        out
    }

    /// [`Accumulator::child`] summed straight into `out` (a search's stack
    /// slot), so that making a move copies no accumulator.
    #[inline]
    pub fn child_into(
        &self,
        out: &mut Accumulator,
        net: &Network,
        b: &Board,
        before: &Before,
        undo: &Undo,
    ) {
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
        let k = Kernels::detect();
        for view in Color::BOTH {
            let c = &changes[view.index()];
            let (add, sub) = (&c.add[..c.adds], &c.sub[..c.subs]);
            let into = &mut out.sums[view.index()];
            k.sum_rows_into(into, self.row(view), &net.ft_weights, add, sub);
        }
    }
}

/// The accumulators of a line from its root, one a ply, in slots that are
/// kept: a child is summed into the next slot in place. (A `Vec` push
/// builds the 512-byte accumulator and then copies it.)
#[derive(Clone, Debug, Default)]
pub struct Stack {
    slots: Vec<Accumulator>,
    len: usize,
}

impl Stack {
    /// Empty; the slots are made as the line first reaches each ply.
    pub fn new() -> Stack {
        Stack::default()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The accumulators from the root to the current position.
    pub fn line(&self) -> &[Accumulator] {
        &self.slots[..self.len]
    }

    /// The current position's accumulator.
    pub fn last(&self) -> Option<&Accumulator> {
        self.len.checked_sub(1).map(|i| &self.slots[i])
    }

    pub fn push(&mut self, acc: Accumulator) {
        match self.slots.get_mut(self.len) {
            Some(slot) => *slot = acc,
            None => self.slots.push(acc),
        }
        self.len += 1;
    }

    /// Pushes the accumulator after a move made on `b` ([`Accumulator::child`]
    /// of the last one). Panics when the stack is empty.
    #[inline]
    pub fn push_child(&mut self, net: &Network, b: &Board, before: &Before, undo: &Undo) {
        let n = self.len;
        assert!(n > 0, "a child needs its parent's accumulator");
        if self.slots.len() == n {
            let copy = self.slots[n - 1].clone();
            self.slots.push(copy);
        }
        let (done, rest) = self.slots.split_at_mut(n);
        done[n - 1].child_into(&mut rest[0], net, b, before, undo);
        self.len += 1;
    }

    pub fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }
}
