//! A move's features in its position, for the move policy: one
//! real-valued feature, the zap score of the plain heuristic (so that a
//! policy can start as that heuristic), and one active index in each of
//! [`ACTIVE`] groups of binary features. Everything is seen from the
//! mover's side: Lavender's squares and orientations are turned half
//! round (the game is symmetric under that turn with the colours
//! swapped).
//!
//! The groups: the moved piece's kind with the move's type; what the
//! move's shot zaps; what the opponent's laser zaps before the move and
//! after it (a move that blocks or opens a beam onto a King shows here);
//! the square and orientation the piece leaves, and those it takes
//! (together a piece-square table's change); where it lands relative to
//! the enemy King and to its own, with its orientation there; the quarter
//! turns; whether the piece leaves or lands on the opponent's beam, and
//! on its own side's; what a swap swaps with; and the two beams after the
//! move (whether each passes next to the other side's King, and its
//! length). The beams after the move are traced, without playing it,
//! only for a move that touches one of them (or whose shot zaps a piece
//! on one); the rest are lookups.

use crate::rules::bitboard::NEIGHBOURS;
use crate::rules::board::Board;
use crate::rules::laser::{self, Shots};
use crate::rules::movegen::for_each_move;
use crate::rules::moves::{Move, MoveKind};
use crate::rules::piece::{Color, Piece};
use crate::rules::square::Square;

/// The real-valued feature: the zap score.
pub const HEURISTIC: usize = 0;

/// Binary features active per move: one per group.
pub const ACTIVE: usize = 12;

/// Piece kind (Pawn, King) × move type (rotate, step, swap + step, swap +
/// rotate).
const MOVE_TYPE: usize = 1;
/// What the move's shot zaps ([`Zap`]).
const VICTIM: usize = MOVE_TYPE + 8;
/// What the opponent's laser zaps before × after the move ([`Zap`] each).
const THREAT: usize = VICTIM + ZAPS;
/// Piece kind × the square it leaves × its orientation there.
const FROM: usize = THREAT + ZAPS * ZAPS;
/// Piece kind × the square it lands on × its orientation there.
const TO: usize = FROM + 512;
/// Piece kind × where it lands relative to the enemy King (files and
/// ranks apart, each clamped to ±3: 7 × 7) × its orientation there.
const NEAR_ENEMY: usize = TO + 512;
/// The same relative to its own King (where it lands, for a King).
const NEAR_OWN: usize = NEAR_ENEMY + 392;
/// Piece kind × quarter turns (0 for a move that does not turn).
const TURN: usize = NEAR_OWN + 392;
/// Piece kind × leaves a square of the opponent's beam × lands on one.
const OPP_BEAM: usize = TURN + 8;
/// The same for the mover's own beam.
const OWN_BEAM: usize = OPP_BEAM + 8;
/// What a swap swaps with: nothing, a Pawn, the King.
const SWAPPED: usize = OWN_BEAM + 8;
/// After the move and its shot: the mover's beam passes next to the enemy
/// King × its length (a quarter of its squares, at most 3) × the same two
/// for the opponent's beam and the mover's King.
const BEAMS: usize = SWAPPED + 3;

/// The number of features.
pub const COUNT: usize = BEAMS + 64;

/// The classes of what a shot zaps, seen from the side to move.
const ZAPS: usize = 5;

/// What a shot zaps, from the view of the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Zap {
    Nothing = 0,
    EnemyPawn = 1,
    OwnPawn = 2,
    EnemyKing = 3,
    OwnKing = 4,
}

impl Zap {
    /// The class of zapping `p` (if anything) for `side`.
    pub fn of(side: Color, p: Option<Piece>) -> Zap {
        match p {
            None => Zap::Nothing,
            Some(p) => match (p.is_king(), p.color() == side) {
                (false, false) => Zap::EnemyPawn,
                (false, true) => Zap::OwnPawn,
                (true, false) => Zap::EnemyKing,
                (true, true) => Zap::OwnKing,
            },
        }
    }
}

/// The score of zapping an enemy Pawn (its negative: one's own).
const ZAP: f64 = 2.0;
/// The score of zapping the enemy King (its negative: one's own). Such
/// moves end the game and are proven at once, so the prior matters little.
const KING: f64 = 8.0;

/// The plain heuristic's score of a move by `mover` whose shot zaps
/// `victim`: an enemy King first, then any enemy piece, quiet moves, and
/// last the mover's own pieces, its King the very last (the move
/// picker's order).
pub fn zap_score(mover: Color, victim: Option<Piece>) -> f64 {
    match Zap::of(mover, victim) {
        Zap::Nothing => 0.0,
        Zap::EnemyPawn => ZAP,
        Zap::OwnPawn => -ZAP,
        Zap::EnemyKing => KING,
        Zap::OwnKing => -KING,
    }
}

/// A generated move of the side to move with what the search already
/// knows of it: the squares it changes and what its shot zaps.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Candidate {
    pub mv: Move,
    pub touched: u64,
    pub victim: Option<(Square, Piece)>,
}

/// Every generated move of `b`'s side to move as a candidate (the Ko rule
/// aside: that needs the game), in generation order.
pub fn candidates(b: &Board, out: &mut Vec<Candidate>) {
    out.clear();
    let shots = Shots::new(b);
    let side = b.side();
    for_each_move(b.pieces(side), b.pieces(side.opp()), |mv, fp| {
        out.push(Candidate {
            mv,
            touched: fp.touched,
            victim: shots.victim(b, mv, fp.touched),
        });
    });
}

/// One move's features: the zap score and the active binary features.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Features {
    pub score: f32,
    pub active: [u16; ACTIVE],
}

const fn clamp3(d: i32) -> i32 {
    if d < -3 {
        -3
    } else if d > 3 {
        3
    } else {
        d
    }
}

/// `NEAR[s][k]`: where square `s` lies from square `k`, files and ranks
/// apart each clamped to ±3, as `7 × (files + 3) + ranks + 3` (0..49;
/// turned half round it is `48 −` that).
static NEAR: [[u8; 64]; 64] = near();

const fn near() -> [[u8; 64]; 64] {
    let mut t = [[0; 64]; 64];
    let mut s = 0;
    while s < 64 {
        let mut k = 0;
        while k < 64 {
            let df = clamp3((s % 8) as i32 - (k % 8) as i32);
            let dr = clamp3((s / 8) as i32 - (k / 8) as i32);
            t[s][k] = (7 * (df + 3) + dr + 3) as u8;
            k += 1;
        }
        s += 1;
    }
    t
}

/// The [`BEAMS`] index of the beams `own` (of the mover, whose King is on
/// `own_king`) and `opp` (of the other side, King on `enemy_king`).
fn beams(own: u64, opp: u64, own_king: Square, enemy_king: Square) -> usize {
    let length = |p: u64| (p.count_ones() as usize / 8).min(3);
    let next_to = |p: u64, k: Square| usize::from(p & NEIGHBOURS[k.index()] != 0);
    8 * (4 * next_to(own, enemy_king) + length(own)) + 4 * next_to(opp, own_king) + length(opp)
}

/// What every move of a position shares: computed once a position.
pub struct Position {
    side: Color,
    /// Lavender's view turns squares and orientations half round: 63 and
    /// 2 then (`s ^ 63`, `ori ^ 2`), else 0 and 0.
    flip: usize,
    turn: u8,
    own_king: Square,
    enemy_king: Square,
    own_beam: u64,
    opp_beam: u64,
    /// The beams' squares and both Kings': a move that changes none of
    /// them (and zaps no piece on them) leaves both beams as they are.
    guard: u64,
    /// What the opponent's laser zaps now.
    threat: Zap,
    /// The [`BEAMS`] index of the beams now.
    beams: usize,
}

impl Position {
    /// `b`'s shared part (both Kings on the board).
    pub fn new(b: &Board) -> Position {
        let side = b.side();
        let (own_king, enemy_king) = (b.king(side), b.king(side.opp()));
        let (opp_beam, target) = laser::path(b, side.opp());
        let own_beam = laser::path(b, side).0;
        let black = side == Color::Black;
        Position {
            side,
            flip: if black { 63 } else { 0 },
            turn: if black { 2 } else { 0 },
            own_king,
            enemy_king,
            own_beam,
            opp_beam,
            guard: own_beam | opp_beam | own_king.bit() | enemy_king.bit(),
            threat: Zap::of(side, target.and_then(|s| b.piece_at(s))),
            beams: beams(own_beam, opp_beam, own_king, enemy_king),
        }
    }

    /// Square `s` with a piece of orientation `ori` on it, from the side
    /// to move's view: `4 × square + orientation`.
    #[inline(always)]
    fn view(&self, s: Square, ori: u8) -> usize {
        4 * (s.index() ^ self.flip) + usize::from(ori ^ self.turn)
    }

    /// Where `s` lies from King square `k`, from the side to move's view.
    #[inline(always)]
    fn near(&self, s: Square, k: Square) -> usize {
        let n = usize::from(NEAR[s.index()][k.index()]);
        if self.flip == 0 {
            n
        } else {
            48 - n
        }
    }

    /// The zap score and the active indices of `c`, a generated move of
    /// `b`.
    #[inline(always)]
    pub fn indices(&self, b: &Board, c: &Candidate) -> (f32, [usize; ACTIVE]) {
        let m = c.mv;
        let g = m.geometry().expect("a generated move stays on the board");
        let mover = b.piece_at(g.from).expect("a generated move has a mover");
        let k = usize::from(mover.is_king());
        let swapped = g.swap.and_then(|s| b.piece_at(s));
        let victim = c.victim.map(|(_, p)| p);
        let kind = match m.kind() {
            MoveKind::Rotate => 0,
            MoveKind::Step => 1,
            MoveKind::SwapStep => 2,
            MoveKind::SwapRotate => 3,
        };
        let landed = g.turned(mover);
        let enemy_king = match swapped {
            Some(p) if p.is_king() => g.from,
            _ => self.enemy_king,
        };
        let own_king = if mover.is_king() { g.to } else { self.own_king };
        let on = |beam: u64, s: Square| usize::from(beam & s.bit() != 0);
        let crossed = |beam: u64| 4 * k + on(beam, g.from) + 2 * on(beam, g.to);
        let orientation = usize::from(landed.ori() ^ self.turn);
        let (after, beams) = match c.victim {
            // The game is over: no beam comes back.
            Some((_, p)) if p.is_king() => (Zap::Nothing, 0),
            Some((s, _)) if (c.touched | s.bit()) & self.guard != 0 => {
                self.after(b, c, landed, own_king, enemy_king)
            }
            None if c.touched & self.guard != 0 => self.after(b, c, landed, own_king, enemy_king),
            _ => (self.threat, self.beams),
        };
        let active = [
            MOVE_TYPE + 4 * k + kind,
            VICTIM + Zap::of(self.side, victim) as usize,
            THREAT + ZAPS * self.threat as usize + after as usize,
            FROM + 256 * k + self.view(g.from, mover.ori()),
            TO + 256 * k + self.view(g.to, landed.ori()),
            NEAR_ENEMY + 196 * k + 4 * self.near(g.to, enemy_king) + orientation,
            NEAR_OWN + 196 * k + 4 * self.near(g.to, own_king) + orientation,
            TURN + 4 * k + g.rot.map_or(0, |r| usize::from(r.turns())),
            OPP_BEAM + crossed(self.opp_beam),
            OWN_BEAM + crossed(self.own_beam),
            SWAPPED + swapped.map_or(0, |p| 1 + usize::from(p.is_king())),
            BEAMS + beams,
        ];
        (zap_score(self.side, victim) as f32, active)
    }

    /// The features of `c`, a generated move of `b`.
    pub fn features(&self, b: &Board, c: &Candidate) -> Features {
        let (score, active) = self.indices(b, c);
        Features {
            score,
            active: active.map(|i| i as u16),
        }
    }

    /// What the opponent's laser zaps, and the [`BEAMS`] index, once `c`
    /// and its shot are played: traced over the board as it would be,
    /// without playing the move (`landed` the mover as it lands, the
    /// Kings' squares after the move).
    fn after(
        &self,
        b: &Board,
        c: &Candidate,
        landed: Piece,
        own_king: Square,
        enemy_king: Square,
    ) -> (Zap, usize) {
        let g =
            c.mv.geometry()
                .expect("a generated move stays on the board");
        // The two squares that get a piece and the pieces they get (both
        // the same when only one does).
        let changed = match g.swap {
            Some(swap) => [(g.from, b.piece_at(swap)), (g.to, Some(landed))],
            None => [(g.to, Some(landed)); 2],
        };
        let zapped = c.victim.map_or(0, |(s, _)| s.bit());
        let occ = b.occupied() ^ g.occupancy_flip() ^ zapped;
        let piece_at = |s: Square| {
            if s == changed[0].0 {
                changed[0].1
            } else if s == changed[1].0 {
                changed[1].1
            } else {
                b.piece_at(s)
            }
        };
        let (own, _) = laser::path_over(occ, own_king, piece_at);
        let (opp, target) = laser::path_over(occ, enemy_king, piece_at);
        let threat = Zap::of(self.side, target.and_then(piece_at));
        (threat, beams(own, opp, own_king, enemy_king))
    }
}

#[cfg(test)]
mod tests;
