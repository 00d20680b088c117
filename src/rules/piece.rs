//! Colours, pieces, orientations and rotations.
//!
//! A piece is one byte: bits 0–1 orientation (clockwise index 0..3), bit 2
//! colour (0 Tangerine, 1 Lavender), bit 3 kind (0 Pawn, 1 King), bit 4
//! always set so that no piece is zero and `Option<Piece>` is one byte too.

use std::fmt;
use std::num::NonZeroU8;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Color {
    /// Tangerine, the first player; `W` and upper-case letters in FEN.
    White = 0,
    /// Lavender; `B` and lower-case letters in FEN.
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn opp(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Kind {
    Pawn = 0,
    King = 1,
}

/// A rotation: right adds 1 to the orientation, a U-turn 2, left 3.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Rot {
    R = 1,
    U = 2,
    L = 3,
}

impl Rot {
    pub const ALL: [Rot; 3] = [Rot::R, Rot::U, Rot::L];

    /// The rotation with this turn count (1..=3).
    pub const fn from_turns(turns: u8) -> Option<Rot> {
        match turns {
            1 => Some(Rot::R),
            2 => Some(Rot::U),
            3 => Some(Rot::L),
            _ => None,
        }
    }

    pub const fn turns(self) -> u8 {
        self as u8
    }

    /// The rotation that undoes this one.
    pub const fn inverse(self) -> Rot {
        match self {
            Rot::R => Rot::L,
            Rot::U => Rot::U,
            Rot::L => Rot::R,
        }
    }

    pub const fn letter(self) -> char {
        match self {
            Rot::R => 'R',
            Rot::U => 'U',
            Rot::L => 'L',
        }
    }

    pub fn from_letter(c: u8) -> Option<Rot> {
        match c.to_ascii_uppercase() {
            b'R' => Some(Rot::R),
            b'U' => Some(Rot::U),
            b'L' => Some(Rot::L),
            _ => None,
        }
    }
}

/// A piece: kind, colour and orientation packed in one non-zero byte.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece(NonZeroU8);

const PRESENT: u8 = 0x10;

/// Orientation names by kind and clockwise index.
const KING_ORIS: [&str; 4] = ["NN", "EE", "SS", "WW"];
const PAWN_ORIS: [&str; 4] = ["NW", "NE", "SE", "SW"];

impl Piece {
    pub const fn new(kind: Kind, color: Color, ori: u8) -> Piece {
        let byte = PRESENT | (kind as u8) << 3 | (color as u8) << 2 | (ori & 3);
        match NonZeroU8::new(byte) {
            Some(b) => Piece(b),
            None => unreachable!(),
        }
    }

    pub const fn byte(self) -> u8 {
        self.0.get()
    }

    /// Kind, colour and orientation as an index in `0..16` (Zobrist tables).
    pub const fn code(self) -> usize {
        (self.0.get() & 0x0f) as usize
    }

    pub const fn kind(self) -> Kind {
        if self.0.get() & 0x08 != 0 {
            Kind::King
        } else {
            Kind::Pawn
        }
    }

    pub const fn is_king(self) -> bool {
        self.0.get() & 0x08 != 0
    }

    pub const fn color(self) -> Color {
        if self.0.get() & 0x04 != 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Clockwise orientation index: `NN EE SS WW` for Kings, `NW NE SE SW` for Pawns.
    pub const fn ori(self) -> u8 {
        self.0.get() & 3
    }

    pub const fn rotated(self, r: Rot) -> Piece {
        self.turned(r.turns())
    }

    /// The piece turned clockwise by `turns` quarter turns (any number).
    #[inline(always)]
    pub const fn turned(self, turns: u8) -> Piece {
        Piece::new(self.kind(), self.color(), self.ori() + (turns & 3))
    }

    /// Parses the two FEN letters of a piece (`NN`, `se`, …); the case of
    /// both letters gives the colour and must agree.
    pub fn from_fen(a: u8, b: u8) -> Option<Piece> {
        let color = match (a.is_ascii_uppercase(), b.is_ascii_uppercase()) {
            (true, true) => Color::White,
            (false, false) => Color::Black,
            _ => return None,
        };
        let name = [a.to_ascii_uppercase(), b.to_ascii_uppercase()];
        for (kind, names) in [(Kind::King, KING_ORIS), (Kind::Pawn, PAWN_ORIS)] {
            if let Some(i) = names.iter().position(|n| n.as_bytes() == name) {
                return Some(Piece::new(kind, color, i as u8));
            }
        }
        None
    }
}

impl fmt::Display for Piece {
    /// The two FEN letters of the piece.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let names = match self.kind() {
            Kind::King => KING_ORIS,
            Kind::Pawn => PAWN_ORIS,
        };
        let name = names[self.ori() as usize];
        match self.color() {
            Color::White => f.write_str(name),
            Color::Black => f.write_str(&name.to_ascii_lowercase()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_piece_is_one_byte() {
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
    }

    #[test]
    fn fen_letters_round_trip() {
        for kind in [Kind::Pawn, Kind::King] {
            for color in Color::BOTH {
                for ori in 0..4 {
                    let p = Piece::new(kind, color, ori);
                    let s = p.to_string();
                    assert_eq!(Piece::from_fen(s.as_bytes()[0], s.as_bytes()[1]), Some(p));
                    assert_eq!((p.kind(), p.color(), p.ori()), (kind, color, ori));
                }
            }
        }
        assert_eq!(Piece::from_fen(b'N', b'n'), None);
        assert_eq!(Piece::from_fen(b'N', b'X'), None);
    }

    #[test]
    fn rotations_are_clockwise_and_invert() {
        let king = Piece::new(Kind::King, Color::White, 0);
        assert_eq!(king.rotated(Rot::R).to_string(), "EE");
        assert_eq!(king.rotated(Rot::U).to_string(), "SS");
        assert_eq!(king.rotated(Rot::L).to_string(), "WW");
        for r in Rot::ALL {
            assert_eq!(king.rotated(r).rotated(r.inverse()), king);
            assert_eq!(king.turned(r.turns()), king.rotated(r));
            assert_eq!(king.turned(r.turns()).turned(4 - r.turns()), king);
        }
        assert_eq!(king.turned(0), king);
    }
}
