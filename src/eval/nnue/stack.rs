//! The search's accumulators, one a ply from the root, in slots that are
//! kept from line to line: making a move sums the child straight into the
//! next slot ([`Stack::push_child`]; a `Vec` push would build the 512-byte
//! accumulator and copy it).
//!
//! A slot also keeps, once its position is evaluated, its sums with the
//! beam features added and the beams they are for. Most moves leave both
//! beams as they were, so a child whose parent was evaluated gets its
//! sums from the parent's plus the move's piece changes and the beam
//! squares gained and lost, a few rows where a fresh sum adds every beam
//! square (20 to 40 rows). The sums wrap modulo 2¹⁶, so both ways give
//! the same bits; tests/nnue.rs compares them with a fresh evaluation.

use super::accumulator::{Accumulator, Before, Changes};
use super::features::{self, BEAM_FEATURES};
use super::kernels::Kernels;
use super::{Network, Row};
use crate::rules::board::{Board, Undo};
use crate::rules::piece::Color;

/// A position's accumulator and what its evaluation left.
#[derive(Clone, Debug)]
struct Slot {
    acc: Accumulator,
    /// The piece rows the move into this position changed, by view; `None`
    /// at a line's root.
    changes: Option<[Changes; 2]>,
    /// Whether `paths` and `sums` hold this position's beams and sums with
    /// the beam features added.
    evaluated: bool,
    paths: [u64; 2],
    sums: [Row; 2],
}

impl Slot {
    fn new(acc: Accumulator) -> Slot {
        let sums = [*acc.row(Color::White), *acc.row(Color::Black)];
        Slot {
            acc,
            changes: None,
            evaluated: false,
            paths: [0; 2],
            sums,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct Stack {
    slots: Vec<Slot>,
    len: usize,
}

impl Stack {
    /// Empty; the slots are made as a line first reaches each ply.
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

    /// The current position's accumulator.
    pub fn last(&self) -> Option<&Accumulator> {
        self.len.checked_sub(1).map(|i| &self.slots[i].acc)
    }

    /// Starts a line (or a test's wrong one) with `acc`.
    pub fn push(&mut self, acc: Accumulator) {
        match self.slots.get_mut(self.len) {
            Some(slot) => {
                slot.acc = acc;
                slot.changes = None;
                slot.evaluated = false;
            }
            None => self.slots.push(Slot::new(acc)),
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
        let changes = Changes::of_move(b, before, undo);
        let (done, rest) = self.slots.split_at_mut(n);
        let slot = &mut rest[0];
        done[n - 1].acc.child_into(&mut slot.acc, net, &changes);
        slot.changes = Some(changes);
        slot.evaluated = false;
        self.len += 1;
    }

    pub fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    /// [`Network::evaluate`] of `b`, the position of the last slot (a pass
    /// keeps the pieces, so it keeps the slot): from the parent's sums
    /// when it was evaluated and that adds fewer rows. Panics when the
    /// stack is empty.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, b: &Board) -> i32 {
        let n = self.len;
        assert!(n > 0, "an evaluation needs the position's accumulator");
        let k = Kernels::detect();
        let (below, top) = self.slots[..n].split_at_mut(n - 1);
        let slot = &mut top[0];
        if !slot.evaluated {
            let paths = if net.beam {
                features::beam_squares(b)
            } else {
                [0; 2]
            };
            let parent = below.last().filter(|p| p.evaluated);
            match (parent, &slot.changes) {
                (Some(p), Some(changes)) if is_cheaper(p.paths, paths, changes) => {
                    let gained = [0, 1].map(|i| paths[i] & !p.paths[i]);
                    let lost = [0, 1].map(|i| p.paths[i] & !paths[i]);
                    for view in Color::BOTH {
                        let c = &changes[view.index()];
                        let (mut add, mut sub) = ([0; 4 + BEAM_FEATURES], [0; 4 + BEAM_FEATURES]);
                        let adds = rows(c.adds(), gained, view, &mut add);
                        let subs = rows(c.subs(), lost, view, &mut sub);
                        let start = &p.sums[view.index()];
                        let into = &mut slot.sums[view.index()];
                        k.sum_rows_into(into, start, &net.ft_weights, &add[..adds], &sub[..subs]);
                    }
                }
                _ => {
                    for view in Color::BOTH {
                        let mut add = [0; 4 + BEAM_FEATURES];
                        let adds = rows(&[], paths, view, &mut add);
                        let start = slot.acc.row(view);
                        let into = &mut slot.sums[view.index()];
                        k.sum_rows_into(into, start, &net.ft_weights, &add[..adds], &[]);
                    }
                }
            }
            slot.paths = paths;
            slot.evaluated = true;
        }
        let side = b.side();
        let (us, them) = (&slot.sums[side.index()], &slot.sums[side.opp().index()]);
        net.output_cp(k, us, them)
    }
}

/// Whether the parent's sums plus the move's piece rows and the beam
/// squares gained and lost add fewer rows than the accumulator plus every
/// beam square.
#[inline]
fn is_cheaper(before: [u64; 2], after: [u64; 2], changes: &[Changes; 2]) -> bool {
    let c = &changes[0];
    let moved: u32 = (0..2).map(|i| (before[i] ^ after[i]).count_ones()).sum();
    let fresh: u32 = after.iter().map(|p| p.count_ones()).sum();
    (c.adds().len() + c.subs().len()) as u32 + moved < fresh
}

/// `pieces` then the beam features of `paths` from `view` written into
/// `out`; how many.
#[inline]
fn rows(pieces: &[u16], paths: [u64; 2], view: Color, out: &mut [u16; 4 + BEAM_FEATURES]) -> usize {
    out[..pieces.len()].copy_from_slice(pieces);
    pieces.len() + features::beam_rows(paths, view, &mut out[pieces.len()..])
}
