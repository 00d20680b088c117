//! The board's invariants (`check_rep`), and for their tests and the hidden
//! `debug corrupt board` command, ways to break each one on purpose.

use super::Board;
use crate::check_rep::{ensure, CheckRep};
use crate::rules::piece::Color;
#[cfg(feature = "debug-commands")]
use crate::rules::piece::{Kind, Piece};
use crate::rules::square::Square;

impl Board {
    /// The invariants, where `after_king_zap` allows what a `make` that
    /// zapped a King leaves: one side without a King, its King square
    /// stale (empty).
    pub fn check_rep_with(&self, after_king_zap: bool) -> Result<(), String> {
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
}

impl CheckRep for Board {
    const NAME: &'static str = "board";

    /// Bytes, occupancy bitboards, King squares and key agree; at most 8
    /// pieces a side; exactly one King each.
    fn check_rep(&self) -> Result<(), String> {
        self.check_rep_with(false)
    }
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

#[cfg(feature = "debug-commands")]
impl Board {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen;
    use crate::rules::movegen::generate;
    use crate::rules::moves::{Move, MoveList};

    #[test]
    fn the_named_positions_and_their_moves_pass() {
        for text in [fen::STARTPOS, fen::ENDGAME] {
            let mut b = fen::parse(text).unwrap();
            assert_eq!(b.check_rep(), Ok(()), "{text}");
            let mut list = MoveList::new();
            generate(&b, &mut list);
            for m in list.iter() {
                let undo = b.make(m);
                assert_eq!(b.check_rep_with(undo.king_zapped()), Ok(()), "{text} {m}");
                b.unmake(m, undo);
            }
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

    #[cfg(feature = "debug-commands")]
    fn broken(how: Corruption) -> String {
        let mut b = fen::parse(fen::STARTPOS).unwrap();
        assert_eq!(b.check_rep(), Ok(()));
        b.corrupt_for_test(how);
        b.check_rep().expect_err(how.name())
    }

    #[cfg(feature = "debug-commands")]
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
}
