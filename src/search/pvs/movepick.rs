//! The move picker: a node's moves, Ko respected, in the order the search
//! tries them, stage by stage ([`Stage`]): the transposition table's move,
//! the moves that zap an enemy piece (a King first), the killers, the other
//! quiet moves by history, and last the moves that zap one's own piece.
//!
//! The picker generates every move once, with a key that puts it in its
//! stage, and then selects the best-keyed remaining move at each step: most
//! nodes cut off after one or two moves, so a full sort would be wasted.
//! Among equal keys the earlier in the list comes first.

use crate::rules::board::Board;
use crate::rules::laser::Shots;
use crate::rules::movegen::{for_each_move_of, reach};
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Piece};
use crate::rules::repetition::{self, LastMove};
use crate::rules::square::Square;
use crate::search::pvs::order::Order;

/// Where a move stands in the order, first to last.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Stage {
    /// The transposition table's move for the position.
    TtMove,
    /// Zaps an enemy piece: a King, then any other.
    Zap,
    /// One of the ply's two killers, the newer first.
    Killer,
    /// Zaps nothing, by history counter.
    Quiet,
    /// Zaps one of the mover's pieces: a King last.
    OwnZap,
}

impl Stage {
    /// Neither the table's move nor an enemy zap: the moves that pruning
    /// and reductions may touch.
    pub fn is_quiet(self) -> bool {
        self > Stage::Zap
    }
}

/// A generated move with what it zaps and its place in the order.
#[derive(Clone, Copy, Debug)]
pub struct Scored {
    pub mv: Move,
    /// The squares it changes.
    pub touched: u64,
    /// The square its shot zaps.
    pub victim: Option<Square>,
    pub zaps_enemy: bool,
    pub zaps_own: bool,
    pub stage: Stage,
    /// Larger first: the stage in the high bits, then the order within it.
    key: i64,
}

/// What the picker needs to know of a node.
pub struct Node<'a> {
    pub board: &'a mut Board,
    /// The keys of the positions before `board` (the Ko rule's).
    pub history: &'a [u64],
    /// The move that led to `board`, if any.
    pub last: Option<LastMove>,
    /// The killers and history counters.
    pub order: &'a Order,
    pub ply: usize,
    pub tt_move: Option<Move>,
    /// The only moves to pick (`go searchmoves`); empty: all.
    pub only: &'a [Move],
    /// Just the moves that zap an enemy piece (quiescence); they change the
    /// material, so the Ko rule can not forbid them.
    pub zaps_only: bool,
    /// Check the board after the Ko test's make and unmake (the
    /// `check_rep` option; never read without `debug-commands`).
    pub check_rep: bool,
}

/// What a move's shot hits, seen from the side to move.
#[derive(Clone, Copy)]
struct Hit {
    victim: Option<Square>,
    zaps_enemy: bool,
    zaps_own: bool,
    king: bool,
}

impl Hit {
    #[inline(always)]
    fn of(victim: Option<(Square, Piece)>, side: Color) -> Hit {
        match victim {
            None => Hit {
                victim: None,
                zaps_enemy: false,
                zaps_own: false,
                king: false,
            },
            Some((at, p)) => {
                let own = p.color() == side;
                Hit {
                    victim: Some(at),
                    zaps_enemy: !own,
                    zaps_own: own,
                    king: p.is_king(),
                }
            }
        }
    }
}

/// A node's moves, handed out best first.
pub struct MovePicker {
    list: Vec<Scored>,
    next: usize,
}

impl MovePicker {
    /// The moves of `node`, Ko respected, generated into `list` (emptied
    /// first, so that a list kept per ply makes no node allocate).
    pub fn new(mut list: Vec<Scored>, node: Node) -> MovePicker {
        list.clear();
        // One loop compiled for each case, so that the per-move tests of
        // the node's kind are not made for every move.
        match (node.zaps_only, node.only.is_empty()) {
            (false, true) => fill::<false, false>(&mut list, node),
            (true, true) => fill::<true, false>(&mut list, node),
            (false, false) => fill::<false, true>(&mut list, node),
            (true, false) => fill::<true, true>(&mut list, node),
        }
        MovePicker { list, next: 0 }
    }

    /// How many moves the node has.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The moves not yet picked, in no particular order.
    pub fn rest(&self) -> &[Scored] {
        &self.list[self.next..]
    }

    /// The list back, for the next node at this ply.
    pub fn into_list(self) -> Vec<Scored> {
        self.list
    }
}

impl Iterator for MovePicker {
    type Item = Scored;

    /// Swaps the best-keyed remaining move (the first of equals) to the
    /// front of the rest and hands it out. Two plain passes, the largest
    /// key then its first place, cost less than one pass comparing (key,
    /// place) pairs.
    fn next(&mut self) -> Option<Scored> {
        let i = self.next;
        let rest = &self.list[i..];
        let top = rest.iter().map(|s| s.key).max()?;
        let best = i + rest.iter().position(|s| s.key == top)?;
        self.list.swap(i, best);
        self.next += 1;
        Some(self.list[i])
    }
}

/// Scores `node`'s moves into `list`: with `ZAPS_ONLY` (`node.zaps_only`)
/// only those that zap an enemy piece, with `ONLY` (`node.only` not empty)
/// only those listed there.
#[inline(always)]
fn fill<const ZAPS_ONLY: bool, const ONLY: bool>(list: &mut Vec<Scored>, node: Node) {
    let board = node.board;
    let side = board.side();
    let shots = Shots::new(board);
    let killers = node.order.killers(node.ply);
    let (own, enemy) = (board.pieces(side), board.pieces(side.opp()));
    // Zaps only, and the unchanged shot zaps no enemy: a move zaps one
    // only by touching the beam or the King, so pieces out of reach of
    // both have nothing to offer.
    let base = Hit::of(shots.base, side);
    let movers = if ZAPS_ONLY && !base.zaps_enemy {
        reach(shots.guard())
    } else {
        !0
    };
    // What is compared for every move, worked out once: the raw bits of
    // the table's move and the killers (0 for none: no move has them),
    // and what the unchanged shot hits, which is what every move off
    // the beam and the King gets.
    let bits = |m: Option<Move>| m.map_or(0, Move::bits);
    let (tt, k0, k1) = (bits(node.tt_move), bits(killers[0]), bits(killers[1]));
    let guard = shots.guard();
    for_each_move_of(movers, own, enemy, |m, fp| {
        if ONLY && !node.only.contains(&m) {
            return;
        }
        let hit = if fp.touched & guard == 0 {
            base
        } else {
            Hit::of(shots.victim(board, m, fp.touched), side)
        };
        if ZAPS_ONLY && !hit.zaps_enemy {
            return;
        }
        if repetition::may_break_ko(fp.touched, hit.victim.is_some(), node.last)
            && undoes_last(board, m, node.history, node.check_rep)
        {
            return;
        }
        let b = m.bits();
        let (stage, key) = if b == tt {
            (Stage::TtMove, 1 << 40)
        } else if hit.zaps_enemy {
            (Stage::Zap, (1 << 36) + if hit.king { 1 << 35 } else { 0 })
        } else if hit.zaps_own {
            (
                Stage::OwnZap,
                -(1 << 36) - if hit.king { 1 << 35 } else { 0 },
            )
        } else if b == k0 {
            (Stage::Killer, 1 << 32)
        } else if b == k1 {
            (Stage::Killer, (1 << 32) - 1)
        } else {
            (Stage::Quiet, node.order.history(side, m) as i64)
        };
        list.push(Scored {
            mv: m,
            touched: fp.touched,
            victim: hit.victim,
            zaps_enemy: hit.zaps_enemy,
            zaps_own: hit.zaps_own,
            stage,
            key,
        });
    });
}

/// Whether `m`, a move whose shot zaps nothing, recreates the position
/// before the opponent's last move (RULES.md's Ko rule): played without
/// its shot, the key compared.
fn undoes_last(board: &mut Board, m: Move, history: &[u64], check_rep: bool) -> bool {
    let now = board.key();
    let undo = board.make_with(m, |_| None);
    checked(board, check_rep);
    let after = board.key();
    board.unmake(m, undo);
    checked(board, check_rep);
    repetition::breaks_ko(history, now, after)
}

/// Checks the board while the `check_rep` option is on.
#[inline(always)]
fn checked(board: &Board, check_rep: bool) {
    #[cfg(feature = "debug-commands")]
    if check_rep {
        crate::check_rep::check(board);
    }
    #[cfg(not(feature = "debug-commands"))]
    let _ = (board, check_rep);
}
