//! The laser: the reflection table and beam tracing, as pure functions of a
//! board. `target` jumps from piece to piece along precomputed rays; the
//! plain `target_plain` walks square by square and is its oracle.

use crate::rules::bitboard::{first_blocker, RAYS};
use crate::rules::board::{Board, Undo};
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Piece};
use crate::rules::square::{Dir, Square};

/// `REFLECT[beam direction][pawn orientation]`: the new beam direction, or
/// `None` when the beam hits the pawn's back and zaps it (RULES.md table).
pub const REFLECT: [[Option<Dir>; 4]; 4] = [
    // beam north:   NW    NE    SE            SW
    [None, None, Some(Dir::E), Some(Dir::W)],
    // beam east
    [Some(Dir::N), None, None, Some(Dir::S)],
    // beam south
    [Some(Dir::W), Some(Dir::E), None, None],
    // beam west
    [None, Some(Dir::N), Some(Dir::S), None],
];

/// Where a beam arriving in direction `d` at piece `p` goes on: `None` if
/// `p` is zapped (a King, or a Pawn hit on its back).
#[inline(always)]
pub fn bounce(d: Dir, p: Piece) -> Option<Dir> {
    if p.is_king() {
        None
    } else {
        REFLECT[d as usize][p.ori() as usize]
    }
}

/// The whole turn lives here, above both the board and the laser, so the
/// board does not import the laser.
impl Board {
    /// Plays a whole turn: the move, the mover's laser shot (removing the
    /// zapped piece), and the change of side.
    #[inline]
    pub fn make(&mut self, m: Move) -> Undo {
        self.make_with(m, |placed| target(placed, placed.side()))
    }
}

/// The square of the piece that `color`'s laser zaps, if any.
#[inline]
pub fn target(b: &Board, color: Color) -> Option<Square> {
    trace(b.occupied(), b.king(color), |s| b.piece_at(s)).map(|(s, _)| s)
}

/// The beam from the King on `king` over occupancy `occ`, pieces looked up
/// with `piece_at`: the zapped square and piece, if any.
#[inline(always)]
fn trace(
    occ: u64,
    king: Square,
    piece_at: impl Fn(Square) -> Option<Piece>,
) -> Option<(Square, Piece)> {
    let mut at = king;
    let mut d = Dir::from_index(piece_at(at)?.ori());
    loop {
        let hit = first_blocker(occ, at, d)?;
        let p = piece_at(hit)?;
        match bounce(d, p) {
            Some(next) => {
                at = hit;
                d = next;
            }
            None => return Some((hit, p)),
        }
    }
}

/// The squares the beam of `color` passes or stops on (the zapped square
/// included), and the zapped square if any.
#[inline]
pub fn path(b: &Board, color: Color) -> (u64, Option<Square>) {
    path_over(b.occupied(), b.king(color), |s| b.piece_at(s))
}

/// [`path`] over a board given by its occupancy `occ`, the firing King's
/// square `king` and the pieces `piece_at` finds (a piece on every
/// occupied square): the beam a move would leave, without playing it.
#[inline(always)]
pub fn path_over(
    occ: u64,
    king: Square,
    piece_at: impl Fn(Square) -> Option<Piece>,
) -> (u64, Option<Square>) {
    let mut at = king;
    let Some(king) = piece_at(at) else {
        return (0, None);
    };
    let mut d = Dir::from_index(king.ori());
    let mut squares = 0u64;
    loop {
        let ray = RAYS[d as usize][at.index()];
        let Some(hit) = first_blocker(occ, at, d) else {
            return (squares | ray, None);
        };
        // The ray up to and including `hit`: the ray minus what lies beyond it.
        squares |= ray & !RAYS[d as usize][hit.index()];
        let p = piece_at(hit).expect("a blocker is a piece");
        match bounce(d, p) {
            Some(next) => {
                at = hit;
                d = next;
            }
            None => return (squares, Some(hit)),
        }
    }
}

/// A beam as it is drawn: where it starts, turns and ends.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Beam {
    /// The King's square, each mirror that turned the beam, and the last
    /// square: the zapped piece's, or the last one before the beam leaves
    /// the board (the King's own when it faces the edge).
    pub points: Vec<Square>,
    /// The direction of the last stretch.
    pub heading: Dir,
    pub zapped: Option<Square>,
}

/// The beam of `color`'s King, or `None` when it has no King (after a King
/// zap). The same walk as [`path`], kept apart so the search's path stays
/// allocation-free.
pub fn beam(b: &Board, color: Color) -> Option<Beam> {
    let mut at = b.king(color);
    let king = b
        .piece_at(at)
        .filter(|p| p.is_king() && p.color() == color)?;
    let mut d = Dir::from_index(king.ori());
    let mut points = vec![at];
    loop {
        let Some(hit) = first_blocker(b.occupied(), at, d) else {
            let last = std::iter::successors(Some(at), |s| s.step(d.compass())).last();
            points.extend(last.filter(|&s| s != at));
            return Some(Beam {
                points,
                heading: d,
                zapped: None,
            });
        };
        points.push(hit);
        let p = b.piece_at(hit).expect("a blocker is a piece");
        match bounce(d, p) {
            Some(next) => {
                at = hit;
                d = next;
            }
            None => {
                return Some(Beam {
                    points,
                    heading: d,
                    zapped: Some(hit),
                })
            }
        }
    }
}

/// The laser shot of the side to move, computed once per position for all
/// its moves: a move that changes none of the squares the unchanged board's
/// beam crosses (nor the King's own) leaves the shot as it is.
pub struct Shots {
    guard: u64,
    /// The unchanged board's target and the piece there.
    pub base: Option<(Square, Piece)>,
}

impl Shots {
    pub fn new(b: &Board) -> Shots {
        let side = b.side();
        let (path, target) = path(b, side);
        Shots {
            guard: path | b.king(side).bit(),
            base: target.and_then(|s| Some((s, b.piece_at(s)?))),
        }
    }

    /// The squares a move must touch to change the shot: the unchanged
    /// beam's and the King's.
    #[inline]
    pub fn guard(&self) -> u64 {
        self.guard
    }

    /// The square move `m` (of the side to move) would zap and the piece
    /// there after the move; `touched` are the squares `m` changes. A move
    /// that changes the beam is traced over the board as it would be after
    /// the move (occupancy, King square and the at most two squares that
    /// get another piece), without playing it.
    #[inline(always)]
    pub fn victim(&self, b: &Board, m: Move, touched: u64) -> Option<(Square, Piece)> {
        if touched & self.guard == 0 {
            return self.base;
        }
        let mover = b.piece_at(m.from())?;
        let g = m.geometry()?;
        let moved = g.turned(mover);
        // The two squares that get a piece and the pieces they get (both
        // the same when only one does).
        let changed = match g.swap {
            Some(swap) => [(g.from, b.piece_at(swap)?), (g.to, moved)],
            None => [(g.to, moved); 2],
        };
        let occ = b.occupied() ^ g.occupancy_flip();
        let king = if mover.is_king() {
            g.to
        } else {
            b.king(b.side())
        };
        trace(occ, king, |s| {
            if s == changed[0].0 {
                Some(changed[0].1)
            } else if s == changed[1].0 {
                Some(changed[1].1)
            } else {
                b.piece_at(s)
            }
        })
    }
}

/// The oracle: walks the beam one square at a time.
pub fn target_plain(b: &Board, color: Color) -> Option<Square> {
    let mut at = b.king(color);
    let mut d = Dir::from_index(b.piece_at(at)?.ori());
    loop {
        at = at.step(d.compass())?;
        if let Some(p) = b.piece_at(at) {
            match bounce(d, p) {
                Some(next) => d = next,
                None => return Some(at),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen;

    #[test]
    fn start_position_beams_leave_the_board() {
        let b = fen::parse(fen::STARTPOS).unwrap();
        assert_eq!(target(&b, Color::White), target_plain(&b, Color::White));
        assert_eq!(target(&b, Color::Black), target_plain(&b, Color::Black));
    }

    #[test]
    fn a_king_facing_the_other_zaps_it() {
        let b = fen::parse("ss7/8/8/8/8/8/8/NN7 W").unwrap();
        let a7 = Square::parse(b"a7");
        assert_eq!(target(&b, Color::White), a7);
        assert_eq!(target_plain(&b, Color::White), a7);
        assert_eq!(target(&b, Color::Black), Square::parse(b"a0"));
    }

    #[test]
    fn mirrors_turn_the_beam_and_backs_are_zapped() {
        // White king a0 fires north into an SE pawn on a3 (turns east), then
        // into an NW pawn on d3 (turns north), then hits the back of the NW
        // pawn on d6, which is zapped.
        let b = fen::parse("7ss/3nw4/8/8/SE2NW4/8/8/NN7 W").unwrap();
        let d6 = Square::parse(b"d6");
        assert_eq!(target(&b, Color::White), d6);
        assert_eq!(target_plain(&b, Color::White), d6);
        let (path_bits, hit) = path(&b, Color::White);
        assert_eq!(hit, d6);
        assert_eq!(path_bits.count_ones(), 3 + 3 + 3);
    }

    #[test]
    fn the_drawn_beam_turns_at_the_mirrors_and_ends_on_its_victim() {
        let b = fen::parse("7ss/3nw4/8/8/SE2NW4/8/8/NN7 W").unwrap();
        let sq = |t: &str| Square::parse(t.as_bytes()).unwrap();
        let beam = beam(&b, Color::White).unwrap();
        assert_eq!(beam.points, ["a0", "a3", "d3", "d6"].map(sq));
        assert_eq!((beam.heading, beam.zapped), (Dir::N, Some(sq("d6"))));
        // Lavender's King on h7 faces south down an empty file.
        let away = super::beam(&b, Color::Black).unwrap();
        assert_eq!(away.points, ["h7", "h0"].map(sq));
        assert_eq!((away.heading, away.zapped), (Dir::S, None));
        // A King facing the edge: its own square only.
        let edge = fen::parse("nn7/8/8/8/8/8/8/7SS W").unwrap();
        assert_eq!(super::beam(&edge, Color::White).unwrap().points, [sq("h0")]);
    }

    /// The squares between the drawn beam's points are the beam's path,
    /// and it ends where the shot does, over random playouts.
    #[test]
    fn the_drawn_beam_is_the_path() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..200 {
            let mut b = fen::parse(fen::STARTPOS).unwrap();
            for _ in 0..rng.usize(0..40) {
                let mut list = crate::rules::moves::MoveList::new();
                crate::rules::movegen::generate(&b, &mut list);
                let m = list.as_slice()[rng.usize(0..list.len())];
                if b.make(m).king_zapped() {
                    break;
                }
            }
            for c in Color::BOTH {
                let Some(beam) = beam(&b, c) else { continue };
                let mut squares = 0u64;
                for w in beam.points.windows(2) {
                    let mut s = w[0];
                    let df = (w[1].file() - s.file()).signum();
                    let dr = (w[1].rank() - s.rank()).signum();
                    while s != w[1] {
                        s = Square::from_coords(s.file() + df, s.rank() + dr).unwrap();
                        squares |= s.bit();
                    }
                }
                assert_eq!((squares, beam.zapped), path(&b, c), "{}", fen::to_fen(&b));
                assert_eq!(beam.zapped, target_plain(&b, c));
            }
        }
    }
}
