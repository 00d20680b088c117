//! Squares, the eight compass directions and the four laser directions.
//!
//! A square is `rank * 8 + file` (a0 = 0, h0 = 7, a7 = 56), so "north" adds 8
//! and "east" adds 1, and a square doubles as a bit index of a `u64` bitboard.

use std::fmt;

/// A square of the 8×8 board; always in `0..64`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// The square at `index` (`rank * 8 + file`); `index` must be below 64.
    pub const fn new(index: u8) -> Square {
        assert!(index < 64);
        Square(index)
    }

    /// The square at `index`, or `None` when it is off the board.
    pub const fn try_new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square on `file` and `rank`, or `None` when either is outside `0..8`.
    pub const fn from_coords(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            Some(Square((rank * 8 + file) as u8))
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn file(self) -> i32 {
        (self.0 & 7) as i32
    }

    pub const fn rank(self) -> i32 {
        (self.0 >> 3) as i32
    }

    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// The neighbouring square in compass direction `d`, if on the board.
    #[inline(always)]
    pub fn step(self, d: Compass) -> Option<Square> {
        STEPS[self.index()][d as usize]
    }

    /// The compass direction from `self` to an adjacent square `to`.
    #[inline(always)]
    pub fn compass_to(self, to: Square) -> Option<Compass> {
        let delta = to.0 as i32 - self.0 as i32;
        let d = *COMPASS_BY_DELTA.get((delta + 9) as usize)?;
        d.filter(|&d| self.step(d) == Some(to))
    }

    /// All 64 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Parses `a0`..`h7` (case-insensitive) from the first two bytes of `s`.
    pub fn parse(s: &[u8]) -> Option<Square> {
        match s {
            [f, r, ..] => {
                let f = f.to_ascii_lowercase();
                if (b'a'..=b'h').contains(&f) && (b'0'..=b'7').contains(r) {
                    Square::from_coords((f - b'a') as i32, (r - b'0') as i32)
                } else {
                    None
                }
            }
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file() as u8) as char, self.rank())
    }
}

/// `STEPS[s][d]`: the neighbour of square `s` in compass direction `d`.
static STEPS: [[Option<Square>; 8]; 64] = steps();

const fn steps() -> [[Option<Square>; 8]; 64] {
    let mut t = [[None; 8]; 64];
    let mut s = 0;
    while s < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = Compass::ALL[d].delta();
            t[s][d] = Square::from_coords((s % 8) as i32 + df, (s / 8) as i32 + dr);
            d += 1;
        }
        s += 1;
    }
    t
}

/// The compass direction of an index difference `delta` (at `delta + 9`),
/// for adjacent squares.
const COMPASS_BY_DELTA: [Option<Compass>; 19] = {
    let mut t = [None; 19];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = Compass::ALL[d].delta();
        t[(dr * 8 + df + 9) as usize] = Some(Compass::ALL[d]);
        d += 1;
    }
    t
};

/// One of the eight directions a piece steps or swaps in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Compass {
    N = 0,
    NE = 1,
    E = 2,
    SE = 3,
    S = 4,
    SW = 5,
    W = 6,
    NW = 7,
}

impl Compass {
    pub const ALL: [Compass; 8] = [
        Compass::N,
        Compass::NE,
        Compass::E,
        Compass::SE,
        Compass::S,
        Compass::SW,
        Compass::W,
        Compass::NW,
    ];

    /// `(file delta, rank delta)`.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Compass::N => (0, 1),
            Compass::NE => (1, 1),
            Compass::E => (1, 0),
            Compass::SE => (1, -1),
            Compass::S => (0, -1),
            Compass::SW => (-1, -1),
            Compass::W => (-1, 0),
            Compass::NW => (-1, 1),
        }
    }

    pub const fn from_index(i: u8) -> Compass {
        Compass::ALL[(i & 7) as usize]
    }
}

/// A laser direction; also a King's orientation (`NN EE SS WW`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Dir {
    N = 0,
    E = 1,
    S = 2,
    W = 3,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    pub const fn from_index(i: u8) -> Dir {
        Dir::ALL[(i & 3) as usize]
    }

    pub const fn compass(self) -> Compass {
        match self {
            Dir::N => Compass::N,
            Dir::E => Compass::E,
            Dir::S => Compass::S,
            Dir::W => Compass::W,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_and_text() {
        let sq = Square::parse(b"h0").unwrap();
        assert_eq!((sq.file(), sq.rank(), sq.index()), (7, 0, 7));
        assert_eq!(Square::parse(b"A7").unwrap().index(), 56);
        assert_eq!(Square::parse(b"i0"), None);
        assert_eq!(Square::parse(b"a8"), None);
        assert_eq!(Square::parse(b"a"), None);
        for sq in Square::all() {
            assert_eq!(Square::parse(sq.to_string().as_bytes()), Some(sq));
        }
    }

    #[test]
    fn steps_stay_on_the_board() {
        let a0 = Square::new(0);
        assert_eq!(a0.step(Compass::S), None);
        assert_eq!(a0.step(Compass::W), None);
        assert_eq!(a0.step(Compass::NE), Square::parse(b"b1"));
        assert_eq!(
            a0.compass_to(Square::parse(b"b1").unwrap()),
            Some(Compass::NE)
        );
        assert_eq!(Square::new(63).step(Compass::N), None);
    }
}
