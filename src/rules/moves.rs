//! Moves, their packed form, their text form and the move list.
//!
//! A `Move` is a `u16`:
//!
//! | bits  | field |
//! |-------|-------|
//! | 0–5   | from square |
//! | 6–7   | kind: 0 rotate, 1 step, 2 swap + step, 3 swap + rotate |
//! | 8–10  | compass direction of the step, or of the swapped square |
//! | 11–13 | rotation turns (1..=3), or the compass direction of a swap's step |
//! | 15    | always set, so `Option<Move>` is two bytes |

use crate::rules::geometry::Geometry;
use crate::rules::piece::Rot;
use crate::rules::square::{Compass, Square};
use std::fmt;
use std::num::NonZeroU16;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveKind {
    Rotate,
    Step,
    SwapStep,
    SwapRotate,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move(NonZeroU16);

const MARK: u16 = 0x8000;

impl Move {
    const fn pack(from: Square, kind: u16, a: u16, b: u16) -> Move {
        let bits = MARK | from.index() as u16 | kind << 6 | a << 8 | b << 11;
        match NonZeroU16::new(bits) {
            Some(v) => Move(v),
            None => unreachable!(),
        }
    }

    pub const fn rotate(from: Square, r: Rot) -> Move {
        Move::pack(from, 0, 0, r.turns() as u16)
    }

    pub const fn step(from: Square, d: Compass) -> Move {
        Move::pack(from, 1, d as u16, 0)
    }

    pub const fn swap_step(from: Square, swap: Compass, step: Compass) -> Move {
        Move::pack(from, 2, swap as u16, step as u16)
    }

    pub const fn swap_rotate(from: Square, swap: Compass, r: Rot) -> Move {
        Move::pack(from, 3, swap as u16, r.turns() as u16)
    }

    pub const fn bits(self) -> u16 {
        self.0.get()
    }

    /// The move with these bits, if they are a well-formed packed move
    /// whose squares stay on the board.
    pub fn from_bits(bits: u16) -> Option<Move> {
        let m = Move(NonZeroU16::new(bits)?);
        let well_formed = bits & MARK != 0
            && bits & 0x4000 == 0
            && match m.kind() {
                MoveKind::Rotate => m.a() == 0 && (1..=3).contains(&m.b()),
                MoveKind::Step => m.b() == 0,
                MoveKind::SwapStep => true,
                MoveKind::SwapRotate => (1..=3).contains(&m.b()),
            }
            && m.geometry().is_some();
        well_formed.then_some(m)
    }

    pub const fn from(self) -> Square {
        Square::new((self.0.get() & 63) as u8)
    }

    pub const fn kind(self) -> MoveKind {
        match (self.0.get() >> 6) & 3 {
            0 => MoveKind::Rotate,
            1 => MoveKind::Step,
            2 => MoveKind::SwapStep,
            _ => MoveKind::SwapRotate,
        }
    }

    const fn a(self) -> u8 {
        ((self.0.get() >> 8) & 7) as u8
    }

    const fn b(self) -> u8 {
        ((self.0.get() >> 11) & 7) as u8
    }

    /// The first direction: of the step, or of the swapped square.
    pub const fn dir(self) -> Compass {
        Compass::from_index(self.a())
    }

    /// The direction of a swap's step.
    pub const fn step_dir(self) -> Compass {
        Compass::from_index(self.b())
    }

    /// The rotation of a rotate or swap + rotate move.
    pub fn rot(self) -> Rot {
        Rot::from_turns(self.b()).unwrap_or(Rot::R)
    }

    /// Parses `g2R`, `h3g4`, `d5e4f5` or `e4d5R`, case-insensitively. Squares
    /// must be adjacent where the notation needs it; whether the move can be
    /// played in a position is the position's question.
    pub fn parse(text: &str) -> Result<Move, MoveParseError> {
        let bad = |why: &'static str| MoveParseError {
            text: text.to_string(),
            why,
        };
        let s = text.as_bytes();
        let from = Square::parse(s).ok_or(bad("does not start with a square a0..h7"))?;
        let adjacent = |a: Square, b: Square| {
            a.compass_to(b)
                .ok_or(bad("the squares of a move must be adjacent"))
        };
        match s.len() {
            3 => Rot::from_letter(s[2])
                .map(|r| Move::rotate(from, r))
                .ok_or(bad("a rotation ends with R, U or L")),
            4 => {
                let to = Square::parse(&s[2..]).ok_or(bad("bad second square"))?;
                Ok(Move::step(from, adjacent(from, to)?))
            }
            5 => {
                let swap = Square::parse(&s[2..]).ok_or(bad("bad second square"))?;
                let r = Rot::from_letter(s[4]).ok_or(bad("a rotation ends with R, U or L"))?;
                Ok(Move::swap_rotate(from, adjacent(from, swap)?, r))
            }
            6 => {
                let swap = Square::parse(&s[2..]).ok_or(bad("bad second square"))?;
                let to = Square::parse(&s[4..]).ok_or(bad("bad third square"))?;
                if to == from {
                    return Err(bad("a swap can not step back onto its own square"));
                }
                Ok(Move::swap_step(
                    from,
                    adjacent(from, swap)?,
                    adjacent(swap, to)?,
                ))
            }
            _ => Err(bad("a move has 3, 4, 5 or 6 characters")),
        }
    }

    /// Where the move takes its pieces, or `None` for a move whose squares
    /// leave the board. Generation never makes one, and neither `parse` nor
    /// `from_bits` gives one: only a move built by hand can.
    #[inline(always)]
    pub fn geometry(self) -> Option<Geometry> {
        let from = self.from();
        // Only a rotation has no first square: the one stepped or swapped to.
        let first = match self.kind() {
            MoveKind::Rotate => from,
            _ => from.step(self.dir())?,
        };
        let (swap, to, rot) = match self.kind() {
            MoveKind::Rotate => (None, from, Some(self.rot())),
            MoveKind::Step => (None, first, None),
            MoveKind::SwapStep => (Some(first), first.step(self.step_dir())?, None),
            MoveKind::SwapRotate => (Some(first), first, Some(self.rot())),
        };
        Some(Geometry {
            from,
            swap,
            to,
            rot,
        })
    }

    /// The squares whose contents the move changes (only `from` for a move
    /// off the board).
    #[inline]
    pub fn touched(self) -> u64 {
        self.geometry().map_or(self.from().bit(), Geometry::touched)
    }
}

impl fmt::Display for Move {
    /// `g2R`, `h3g4`, `d5e4f5` or `e4d5R`: the squares, then the rotation
    /// if the move turns its piece.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let Some(g) = self.geometry() else {
            return write!(f, "{}??", self.from());
        };
        write!(f, "{}", g.from)?;
        if let Some(swap) = g.swap {
            write!(f, "{swap}")?;
        }
        match g.rot {
            Some(r) => write!(f, "{}", r.letter()),
            None => write!(f, "{}", g.to),
        }
    }
}

/// Text that is not a move, with the reason.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveParseError {
    pub text: String,
    pub why: &'static str,
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let text = crate::user_text::quote(&self.text);
        write!(f, "cannot parse move '{text}': {}", self.why)
    }
}

impl std::error::Error for MoveParseError {}

/// Enough for any position: 8 pieces × (3 rotations + 8 steps) plus at most
/// 42 adjacent own/enemy pairs × (3 + 7) swap moves is below 512.
pub const MAX_MOVES: usize = 512;

/// A fixed-capacity move list that lives on the stack.
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::rotate(Square::new(0), Rot::R); MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.as_slice().iter().copied()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_is_case_insensitive() {
        for text in ["g2R", "h3g4", "d5e4f5", "e4d5R", "a7U", "h0g1", "b1a0L"] {
            let m = Move::parse(text).unwrap();
            assert_eq!(m.to_string(), text);
            assert_eq!(Move::from_bits(m.bits()), Some(m));
            // Only packed moves carry the mark: other bits are no move.
            assert_eq!(Move::from_bits(m.bits() & !MARK), None, "{text}");
        }
        assert_eq!(Move::parse("G2r").unwrap().to_string(), "g2R");
        assert_eq!(Move::parse("D5E4F5").unwrap().to_string(), "d5e4f5");
    }

    #[test]
    fn bad_text_is_refused_with_a_reason() {
        for text in [
            "", "g2", "g2X", "h3h5", "z3g4", "d5e4d5", "d5e4f5g6", "e4d6R",
        ] {
            assert!(Move::parse(text).is_err(), "{text}");
        }
        let e = Move::parse("h3h5").unwrap_err();
        assert!(e.to_string().contains("h3h5"));
    }

    #[test]
    fn geometry_names_the_squares_of_each_kind() {
        let sq = |t: &str| Square::parse(t.as_bytes()).unwrap();
        let g = |t: &str| Move::parse(t).unwrap().geometry().unwrap();
        let shape = |from, swap: Option<&str>, to, rot| Geometry {
            from: sq(from),
            swap: swap.map(sq),
            to: sq(to),
            rot,
        };
        assert_eq!(g("g2R"), shape("g2", None, "g2", Some(Rot::R)));
        assert_eq!(g("h3g4"), shape("h3", None, "g4", None));
        assert_eq!(g("d5e4f5"), shape("d5", Some("e4"), "f5", None));
        assert_eq!(g("e4d5L"), shape("e4", Some("d5"), "d5", Some(Rot::L)));
        let touched = sq("d5").bit() | sq("e4").bit() | sq("f5").bit();
        assert_eq!(Move::parse("d5e4f5").unwrap().touched(), touched);
    }

    #[test]
    fn a_move_off_the_board_has_no_geometry_and_no_text_names_one() {
        let (a0, a1, h7) = (Square::new(0), Square::new(8), Square::new(63));
        let off = [
            Move::step(a0, Compass::S),
            Move::swap_step(a0, Compass::N, Compass::W),
            Move::swap_step(a1, Compass::S, Compass::SW),
            Move::swap_rotate(h7, Compass::E, Rot::R),
        ];
        for m in off {
            assert_eq!(m.geometry(), None, "{m:?}");
            assert_eq!(Move::from_bits(m.bits()), None, "{m:?}");
            assert_eq!(m.touched(), m.from().bit(), "{m:?}");
            assert_eq!(m.to_string(), format!("{}??", m.from()));
        }
        // Squares on both sides of the board's edge are not adjacent.
        for text in ["h0a1", "a1h0", "a0h0", "h3a4R", "g0h0a1", "h4a5b5"] {
            let e = Move::parse(text).expect_err(text);
            assert_eq!(e.why, "the squares of a move must be adjacent", "{text}");
        }
    }

    #[test]
    fn packed_form_is_small() {
        assert_eq!(std::mem::size_of::<Option<Move>>(), 2);
        assert_eq!(Move::from_bits(0), None);
        assert_eq!(Move::from_bits(0x4001 | MARK), None);
    }
}
