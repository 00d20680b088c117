//! The board: one byte per square (kind, colour, orientation), occupancy
//! bitboards per colour, both King squares, the side to move and an
//! incrementally updated Zobrist key; in-place `make`/`unmake` with a
//! two-byte undo record.
//!
//! Invariant: the bytes, the bitboards, the King squares and the key always
//! agree, and each side has exactly one King — except right after a `make`
//! that zapped a King, when the game is over and the board may only be
//! unmade. The `check` submodule checks it (`CheckRep`).

use crate::rules::geometry::{Cells, Geometry};
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::square::Square;
use crate::rules::zobrist::{piece_key, SIDE_KEY};
use std::fmt;

mod check;
#[cfg(feature = "debug-commands")]
pub use check::Corruption;

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board {
    squares: [Option<Piece>; 64],
    occ: [u64; 2],
    kings: [Square; 2],
    side: Color,
    key: u64,
}

/// What `unmake` needs besides the move: the piece the laser zapped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Undo {
    pub zapped: Option<(Square, Piece)>,
}

impl Undo {
    /// Whether the move ended the game by zapping a King.
    pub fn king_zapped(&self) -> bool {
        matches!(self.zapped, Some((_, p)) if p.is_king())
    }
}

/// Why a set of pieces is not a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BoardError {
    NoKing(Color),
    TwoKings(Color),
    /// More than `Board::MAX_PIECES` pieces of one side (how many).
    TooManyPieces(Color, u32),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let side = |c: &Color| match c {
            Color::White => "Tangerine (upper case)",
            Color::Black => "Lavender (lower case)",
        };
        match self {
            BoardError::NoKing(c) => write!(f, "{} has no King", side(c)),
            BoardError::TwoKings(c) => write!(f, "{} has more than one King", side(c)),
            BoardError::TooManyPieces(c, n) => write!(
                f,
                "{} has {n} pieces, at most {} (a King and seven Pawns)",
                side(c),
                Board::MAX_PIECES
            ),
        }
    }
}

impl std::error::Error for BoardError {}

impl Board {
    /// The most pieces a side may have: a King and seven Pawns (RULES.md
    /// "Pieces"; no move adds one). The parser and `check_rep` share it.
    pub const MAX_PIECES: u32 = 8;

    /// Validates plain data (one King and at most `MAX_PIECES` pieces a
    /// side) and builds the board.
    pub fn from_squares(squares: [Option<Piece>; 64], side: Color) -> Result<Board, BoardError> {
        let mut kings = [None, None];
        for s in Square::all() {
            if let Some(p) = squares[s.index()].filter(|p| p.is_king()) {
                let slot = &mut kings[p.color().index()];
                if slot.is_some() {
                    return Err(BoardError::TwoKings(p.color()));
                }
                *slot = Some(s);
            }
        }
        let king = |c: Color| kings[c.index()].ok_or(BoardError::NoKing(c));
        let mut b = Board {
            squares,
            occ: [0; 2],
            kings: [king(Color::White)?, king(Color::Black)?],
            side,
            key: 0,
        };
        for s in Square::all() {
            if let Some(p) = squares[s.index()] {
                b.occ[p.color().index()] |= s.bit();
            }
        }
        for c in Color::BOTH {
            let n = b.occ[c.index()].count_ones();
            if n > Board::MAX_PIECES {
                return Err(BoardError::TooManyPieces(c, n));
            }
        }
        b.key = b.compute_key();
        Ok(b)
    }

    #[inline(always)]
    pub fn piece_at(&self, s: Square) -> Option<Piece> {
        self.squares[s.index()]
    }

    pub fn side(&self) -> Color {
        self.side
    }

    pub fn key(&self) -> u64 {
        self.key
    }

    /// The square of `c`'s King (stale only after a King was zapped).
    #[inline(always)]
    pub fn king(&self, c: Color) -> Square {
        self.kings[c.index()]
    }

    #[inline(always)]
    pub fn pieces(&self, c: Color) -> u64 {
        self.occ[c.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.occ[0] | self.occ[1]
    }

    /// The key recomputed from the squares; equals `key()` on a sound board.
    pub fn compute_key(&self) -> u64 {
        let pieces = Square::all()
            .filter_map(|s| self.piece_at(s).map(|p| piece_key(p, s)))
            .fold(0, |k, x| k ^ x);
        match self.side {
            Color::White => pieces,
            Color::Black => pieces ^ SIDE_KEY,
        }
    }

    #[inline(always)]
    fn put(&mut self, s: Square, p: Piece) {
        debug_assert!(self.squares[s.index()].is_none());
        self.squares[s.index()] = Some(p);
        self.occ[p.color().index()] |= s.bit();
        self.key ^= piece_key(p, s);
        if p.is_king() {
            self.kings[p.color().index()] = s;
        }
    }

    #[inline(always)]
    fn take(&mut self, s: Square) -> Piece {
        let p = self.squares[s.index()].expect("take from an occupied square");
        self.squares[s.index()] = None;
        self.occ[p.color().index()] &= !s.bit();
        self.key ^= piece_key(p, s);
        p
    }

    /// The squares as nine lines of text (files across, rank 7 first),
    /// each ending in a newline: what `display` and `dump board` print.
    pub fn diagram(&self) -> String {
        let mut t = String::from("    a  b  c  d  e  f  g  h\n");
        for rank in (0..8).rev() {
            let mut row = format!("{rank}  ");
            for file in 0..8 {
                let s = Square::from_coords(file, rank).expect("on the board");
                match self.piece_at(s) {
                    Some(p) => row.push_str(&format!(" {p}")),
                    None => row.push_str(" . "),
                }
            }
            t.push_str(row.trim_end());
            t.push('\n');
        }
        t
    }

    /// Places the pieces as move `m` of the side to move would, with no
    /// laser shot and no change of side. `m` must be a generated move of
    /// this position.
    #[inline]
    pub fn place(&mut self, m: Move) {
        on_board(m).place(&mut Bookkept(self));
    }

    /// Undoes `place(m)`.
    #[inline]
    pub fn unplace(&mut self, m: Move) {
        on_board(m).unplace(&mut Bookkept(self));
    }

    /// `make`, with the shot's target found by `shoot` on the board after
    /// the move (side not yet changed): lets callers bring their own laser.
    #[inline(always)]
    pub fn make_with(&mut self, m: Move, shoot: impl FnOnce(&Board) -> Option<Square>) -> Undo {
        self.place(m);
        let zapped = shoot(self).map(|s| (s, self.take(s)));
        self.flip_side();
        Undo { zapped }
    }

    #[inline]
    pub fn unmake(&mut self, m: Move, undo: Undo) {
        self.flip_side();
        if let Some((s, p)) = undo.zapped {
            self.put(s, p);
        }
        self.unplace(m);
    }

    #[inline(always)]
    fn flip_side(&mut self) {
        self.side = self.side.opp();
        self.key ^= SIDE_KEY;
    }

    /// Whether `c` still has its King (false only after a King zap).
    pub fn has_king(&self, c: Color) -> bool {
        self.piece_at(self.king(c))
            .is_some_and(|p| p.is_king() && p.color() == c)
    }

    /// Number of pieces of `c` of `kind`.
    pub fn count(&self, c: Color, kind: Kind) -> u32 {
        crate::rules::bitboard::squares(self.pieces(c))
            .filter(|&s| self.piece_at(s).is_some_and(|p| p.kind() == kind))
            .count() as u32
    }

    /// The board with its squares only: `None` for each empty square.
    pub fn squares(&self) -> &[Option<Piece>; 64] {
        &self.squares
    }
}

/// The geometry of a generated move, which stays on the board.
#[inline(always)]
fn on_board(m: Move) -> Geometry {
    m.geometry().expect("generated moves stay on the board")
}

/// The board's squares as `Cells`, every `take` and `put` keeping the
/// bitboards, King squares and key; private, so that only `place` and
/// `unplace` move pieces that way.
struct Bookkept<'a>(&'a mut Board);

impl Cells for Bookkept<'_> {
    #[inline(always)]
    fn take(&mut self, s: Square) -> Option<Piece> {
        Some(self.0.take(s))
    }

    #[inline(always)]
    fn put(&mut self, s: Square, p: Option<Piece>) {
        if let Some(p) = p {
            self.0.put(s, p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_error_is_an_error() {
        let e: Box<dyn std::error::Error> = Box::new(BoardError::NoKing(Color::White));
        assert_eq!(e.to_string(), "Tangerine (upper case) has no King");
    }
}
