//! The board: one byte per square (kind, colour, orientation), occupancy
//! bitboards per colour, both King squares, the side to move and an
//! incrementally updated Zobrist key; in-place `make`/`unmake` with a
//! two-byte undo record.
//!
//! Invariant: the bytes, the bitboards, the King squares and the key always
//! agree, and each side has exactly one King — except right after a `make`
//! that zapped a King, when the game is over and the board may only be
//! unmade.

use crate::rules::moves::{Move, MoveKind};
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::square::{Compass, Square};
use crate::rules::zobrist::{piece_key, SIDE_KEY};
use std::fmt;

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
        let from = m.from();
        match m.kind() {
            MoveKind::Rotate => {
                let p = self.take(from);
                self.put(from, p.rotated(m.rot()));
            }
            MoveKind::Step => {
                let p = self.take(from);
                self.put(adj(from, m.dir()), p);
            }
            MoveKind::SwapStep => {
                let swap = adj(from, m.dir());
                let mover = self.take(from);
                let enemy = self.take(swap);
                self.put(from, enemy);
                self.put(adj(swap, m.step_dir()), mover);
            }
            MoveKind::SwapRotate => {
                let swap = adj(from, m.dir());
                let mover = self.take(from);
                let enemy = self.take(swap);
                self.put(from, enemy);
                self.put(swap, mover.rotated(m.rot()));
            }
        }
    }

    /// Undoes `place(m)`.
    #[inline]
    pub fn unplace(&mut self, m: Move) {
        let from = m.from();
        match m.kind() {
            MoveKind::Rotate => {
                let p = self.take(from);
                self.put(from, p.rotated(m.rot().inverse()));
            }
            MoveKind::Step => {
                let p = self.take(adj(from, m.dir()));
                self.put(from, p);
            }
            MoveKind::SwapStep => {
                let swap = adj(from, m.dir());
                let mover = self.take(adj(swap, m.step_dir()));
                let enemy = self.take(from);
                self.put(swap, enemy);
                self.put(from, mover);
            }
            MoveKind::SwapRotate => {
                let swap = adj(from, m.dir());
                let mover = self.take(swap);
                let enemy = self.take(from);
                self.put(swap, enemy);
                self.put(from, mover.rotated(m.rot().inverse()));
            }
        }
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

    /// Whether the board's own bookkeeping agrees with its squares: the
    /// occupancy bitboards, the King squares and the key.
    pub fn is_consistent(&self) -> bool {
        let mut occ = [0u64; 2];
        for s in Square::all() {
            if let Some(p) = self.piece_at(s) {
                occ[p.color().index()] |= s.bit();
            }
        }
        occ == self.occ
            && self.key == self.compute_key()
            && Color::BOTH.iter().all(|&c| self.has_king(c))
    }
}

/// The neighbour of `s` in direction `d`; generated moves stay on the board.
#[inline(always)]
fn adj(s: Square, d: Compass) -> Square {
    s.step(d).expect("generated moves stay on the board")
}

/// Ways `Board::corrupt_for_test` breaks a board, one invariant each.
#[cfg(feature = "debug-commands")]
#[doc(hidden)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Corruption {
    /// Flips a bit of the key.
    Key,
    /// Sets an occupancy bit of an empty square.
    Occupancy,
    /// Points the side to move's King square at another square.
    KingSquare,
    /// Turns a Pawn of the side to move into a second King (bitboards and
    /// key updated).
    TwoKings,
    /// Removes the side to move's King (bitboards and key updated).
    NoKing,
    /// Fills the side to move's empty squares with Pawns up to 9 pieces
    /// (bitboards and key updated).
    TooManyPieces,
}

#[cfg(feature = "debug-commands")]
impl Corruption {
    pub const ALL: [Corruption; 6] = [
        Corruption::Key,
        Corruption::Occupancy,
        Corruption::KingSquare,
        Corruption::TwoKings,
        Corruption::NoKing,
        Corruption::TooManyPieces,
    ];

    /// The name `debug corrupt board <name>` takes.
    pub fn name(self) -> &'static str {
        match self {
            Corruption::Key => "key",
            Corruption::Occupancy => "occupancy",
            Corruption::KingSquare => "kingsquare",
            Corruption::TwoKings => "twokings",
            Corruption::NoKing => "noking",
            Corruption::TooManyPieces => "toomany",
        }
    }

    pub fn parse(name: &str) -> Option<Corruption> {
        Corruption::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name))
    }
}

/// The `check_rep` invariants.
#[cfg(feature = "debug-commands")]
impl Board {
    /// The invariants, where `after_king_zap` allows what a `make` that
    /// zapped a King leaves: one side without a King, its King square
    /// stale (empty).
    pub fn check_rep_with(&self, after_king_zap: bool) -> Result<(), String> {
        use crate::check::ensure;
        let mut occ = [0u64; 2];
        let mut kings: [Vec<Square>; 2] = [Vec::new(), Vec::new()];
        for s in Square::all() {
            if let Some(p) = self.piece_at(s) {
                ensure(p.byte() & !0x1f == 0 && p.byte() & 0x10 != 0, || {
                    format!("malformed piece byte {:#04x} on {s}", p.byte())
                })?;
                occ[p.color().index()] |= s.bit();
                if p.is_king() {
                    kings[p.color().index()].push(s);
                }
            }
        }
        for c in Color::BOTH {
            let i = c.index();
            ensure(occ[i] == self.occ[i], || {
                format!(
                    "{c:?} occupancy is {:#018x}, the squares say {:#018x}",
                    self.occ[i], occ[i]
                )
            })?;
            let n = occ[i].count_ones();
            ensure(n <= Board::MAX_PIECES, || {
                format!("{c:?} has {n} pieces, at most {}", Board::MAX_PIECES)
            })?;
            let names = || {
                kings[i]
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            ensure(kings[i].len() <= 1, || {
                format!("{c:?} has {} Kings ({})", kings[i].len(), names())
            })?;
            match kings[i].first() {
                Some(&k) => ensure(k == self.kings[i], || {
                    format!(
                        "{c:?} King square is {}, but its King is on {k}",
                        self.kings[i]
                    )
                })?,
                None => {
                    ensure(after_king_zap, || format!("{c:?} has no King"))?;
                    ensure(self.piece_at(self.kings[i]).is_none(), || {
                        format!(
                            "{c:?} King was zapped, but its King square {} is not empty",
                            self.kings[i]
                        )
                    })?;
                }
            }
        }
        ensure(!kings[0].is_empty() || !kings[1].is_empty(), || {
            "neither side has a King".to_string()
        })?;
        let key = self.compute_key();
        ensure(self.key == key, || {
            format!("key is {:016x}, recomputed {key:016x}", self.key)
        })
    }

    /// Breaks one invariant, for the tests of `check_rep` (and the hidden
    /// `debug corrupt board` command). Nothing else may use it.
    #[doc(hidden)]
    pub fn corrupt_for_test(&mut self, how: Corruption) {
        let c = self.side;
        let empty = Square::all()
            .find(|&s| self.piece_at(s).is_none())
            .expect("a board has empty squares");
        match how {
            Corruption::Key => self.key ^= 1 << 17,
            Corruption::Occupancy => self.occ[c.index()] |= empty.bit(),
            Corruption::KingSquare => self.kings[c.index()] = empty,
            Corruption::TwoKings => {
                let k = self.kings[c.index()];
                let pawn = Square::all()
                    .find(|&s| {
                        self.piece_at(s)
                            .is_some_and(|p| p.color() == c && !p.is_king())
                    })
                    .expect("the side to move has a Pawn");
                self.take(pawn);
                self.put(pawn, Piece::new(Kind::King, c, 0));
                self.kings[c.index()] = k;
            }
            Corruption::NoKing => {
                self.take(self.kings[c.index()]);
            }
            Corruption::TooManyPieces => {
                let pawn = Piece::new(Kind::Pawn, c, 0);
                while self.occ[c.index()].count_ones() <= Board::MAX_PIECES {
                    let s = Square::all()
                        .find(|&s| self.piece_at(s).is_none())
                        .expect("a board has empty squares");
                    self.put(s, pawn);
                }
            }
        }
    }
}

#[cfg(feature = "debug-commands")]
impl crate::check::CheckRep for Board {
    const NAME: &'static str = "board";

    /// Bytes, occupancy bitboards, King squares and key agree; at most 8
    /// pieces a side; exactly one King each.
    fn check_rep(&self) -> Result<(), String> {
        self.check_rep_with(false)
    }
}

#[cfg(all(test, feature = "debug-commands"))]
mod check_rep_tests {
    use super::*;
    use crate::check::CheckRep;
    use crate::rules::fen;

    fn broken(how: Corruption) -> String {
        let mut b = fen::parse(fen::STARTPOS).unwrap();
        assert_eq!(b.check_rep(), Ok(()));
        b.corrupt_for_test(how);
        b.check_rep().expect_err(how.name())
    }

    #[test]
    fn each_corruption_is_caught_with_its_message() {
        assert!(broken(Corruption::Key).starts_with("key is "));
        assert!(broken(Corruption::Occupancy).starts_with("White occupancy is "));
        assert_eq!(
            broken(Corruption::KingSquare),
            "White King square is a0, but its King is on h0"
        );
        assert_eq!(broken(Corruption::TwoKings), "White has 2 Kings (h0 d1)");
        assert_eq!(broken(Corruption::NoKing), "White has no King");
        assert_eq!(
            broken(Corruption::TooManyPieces),
            "White has 9 pieces, at most 8"
        );
        for c in Corruption::ALL {
            assert_eq!(Corruption::parse(c.name()), Some(c));
        }
    }

    #[test]
    fn a_zapped_king_is_allowed_only_right_after_the_zap() {
        // Tangerine turns its King west and zaps Lavender's King.
        let mut b = fen::parse("8/8/8/8/8/8/8/nn6NN W").unwrap();
        let m = Move::parse("h0L").unwrap();
        let undo = b.make(m);
        assert!(undo.king_zapped());
        assert_eq!(b.check_rep_with(true), Ok(()));
        assert_eq!(b.check_rep(), Err("Black has no King".to_string()));
        b.unmake(m, undo);
        assert_eq!(b.check_rep(), Ok(()));
    }
}
