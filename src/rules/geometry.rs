//! A move's geometry: the squares it vacates, swaps and fills, and the one
//! way to play it on (or take it back from) anything that holds one piece
//! or none per square: the board with its bookkeeping, or bare bytes.
//! `Move::geometry` reads it from a packed move.

use crate::rules::piece::{Piece, Rot};
use crate::rules::square::Square;

/// Where a move takes its pieces: the mover leaves `from`; on a swap the
/// enemy piece on `swap` moves to `from`; the mover, turned by `rot` if the
/// move turns it, fills `to`. A rotation has `to == from`, a swap + rotate
/// `to == swap`. Every square is on the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Geometry {
    pub from: Square,
    pub swap: Option<Square>,
    pub to: Square,
    pub rot: Option<Rot>,
}

impl Geometry {
    /// The square a piece leaves and no piece takes the place of: the
    /// swapped square on a swap, else `from`. It ends empty unless it is
    /// also `to` (a rotation, a swap + rotate).
    #[inline(always)]
    pub fn vacated(self) -> Square {
        self.swap.unwrap_or(self.from)
    }

    /// The squares whose occupancy changes: the vacated square and `to`,
    /// or none when they are the same square.
    #[inline(always)]
    pub fn occupancy_flip(self) -> u64 {
        self.vacated().bit() ^ self.to.bit()
    }

    /// The squares whose contents change.
    #[inline(always)]
    pub fn touched(self) -> u64 {
        self.from.bit() | self.swap.map_or(0, Square::bit) | self.to.bit()
    }

    /// The mover as it lands on `to`.
    #[inline(always)]
    pub fn turned(self, mover: Piece) -> Piece {
        mover.turned(self.turns())
    }

    /// Quarter turns clockwise (0 for a move that does not turn): the same
    /// arithmetic whether or not the move turns, so no branch.
    #[inline(always)]
    fn turns(self) -> u8 {
        self.rot.map_or(0, Rot::turns)
    }

    /// Plays the move on `cells`: the pieces only, nothing else.
    #[inline(always)]
    pub fn place(self, cells: &mut impl Cells) {
        let mover = cells.take(self.from);
        if let Some(swap) = self.swap {
            let enemy = cells.take(swap);
            cells.put(self.from, enemy);
        }
        cells.put(self.to, mover.map(|p| self.turned(p)));
    }

    /// Undoes `place(cells)`.
    #[inline(always)]
    pub fn unplace(self, cells: &mut impl Cells) {
        let mover = cells.take(self.to);
        if let Some(swap) = self.swap {
            let enemy = cells.take(self.from);
            cells.put(swap, enemy);
        }
        let back = 4 - self.turns();
        cells.put(self.from, mover.map(|p| p.turned(back)));
    }
}

/// One piece or none on each square: what a move's geometry is played on.
pub trait Cells {
    /// Empties square `s`, returning what was there.
    fn take(&mut self, s: Square) -> Option<Piece>;
    /// Puts `p` on square `s`, which is empty.
    fn put(&mut self, s: Square, p: Option<Piece>);
}

/// A board's bare bytes, indexed by square.
impl Cells for [Option<Piece>; 64] {
    #[inline(always)]
    fn take(&mut self, s: Square) -> Option<Piece> {
        self[s.index()].take()
    }

    #[inline(always)]
    fn put(&mut self, s: Square, p: Option<Piece>) {
        self[s.index()] = p;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::piece::{Color, Kind};

    fn sq(text: &str) -> Square {
        Square::parse(text.as_bytes()).unwrap()
    }

    /// A Tangerine Pawn on d3 facing NW and a Lavender Pawn on e4 facing SE.
    fn cells() -> [Option<Piece>; 64] {
        let mut c = [None; 64];
        c[sq("d3").index()] = Some(Piece::new(Kind::Pawn, Color::White, 0));
        c[sq("e4").index()] = Some(Piece::new(Kind::Pawn, Color::Black, 2));
        c
    }

    fn text(c: &[Option<Piece>; 64]) -> String {
        let on = |s: &str| c[sq(s).index()].map_or("--".to_string(), |p| p.to_string());
        ["d3", "e4", "f5"].map(on).join(" ")
    }

    #[test]
    fn each_shape_places_and_unplaces() {
        let (d3, e4, f5) = (sq("d3"), sq("e4"), sq("f5"));
        let cases = [
            ("rotate", None, d3, Some(Rot::R), "NE se --", 0),
            (
                "step",
                None,
                sq("d4"),
                None,
                "-- se --",
                d3.bit() | sq("d4").bit(),
            ),
            (
                "swap step",
                Some(e4),
                f5,
                None,
                "se -- NW",
                e4.bit() | f5.bit(),
            ),
            ("swap rotate", Some(e4), e4, Some(Rot::U), "se SE --", 0),
        ];
        for (name, swap, to, rot, after, flip) in cases {
            let g = Geometry {
                from: d3,
                swap,
                to,
                rot,
            };
            let mut c = cells();
            g.place(&mut c);
            assert_eq!(text(&c), after, "{name}");
            assert_eq!(g.occupancy_flip(), flip, "{name}");
            let pieces = |c: &[Option<Piece>; 64]| c.iter().flatten().count();
            assert_eq!(pieces(&c), 2, "{name}");
            g.unplace(&mut c);
            assert_eq!(c, cells(), "{name}");
        }
    }

    #[test]
    fn vacated_and_touched_squares() {
        let (d3, e4, f5) = (sq("d3"), sq("e4"), sq("f5"));
        let g = |swap, to, rot| Geometry {
            from: d3,
            swap,
            to,
            rot,
        };
        let swap_step = g(Some(e4), f5, None);
        assert_eq!(swap_step.vacated(), e4);
        assert_eq!(swap_step.touched(), d3.bit() | e4.bit() | f5.bit());
        let rotate = g(None, d3, Some(Rot::L));
        assert_eq!((rotate.vacated(), rotate.touched()), (d3, d3.bit()));
        let swap_rotate = g(Some(e4), e4, Some(Rot::L));
        assert_eq!(swap_rotate.touched(), d3.bit() | e4.bit());
        let king = Piece::new(Kind::King, Color::White, 0);
        assert_eq!(swap_rotate.turned(king).to_string(), "WW");
        assert_eq!(swap_step.turned(king), king);
    }
}
