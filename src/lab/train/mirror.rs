//! The game's mirror symmetry, for more training positions from the same
//! games: reflected in the a7–h0 diagonal, square `(file, rank)` goes to
//! `(7 − rank, 7 − file)` and every direction `(dx, dy)` to `(−dy, −dx)`.
//! Moves, the laser and its mirrors all turn with the board, so the
//! reflected position plays exactly like the original (perft and the
//! laser's targets agree, tested below) and has the same score and
//! result. The diagonal holds both Kings' start squares and the start's
//! Pawn squares map onto themselves, so the reflections stay close to the
//! positions games reach.

use crate::rules::board::Board;
use crate::rules::piece::{Kind, Piece};
use crate::rules::square::Square;

/// The orientation `ori` of a piece of `kind` reflected: Kings `NN EE SS
/// WW` become `WW SS EE NN`; Pawns `NW NE SE SW` become `NW SW SE NE`.
fn reflect_ori(kind: Kind, ori: u8) -> u8 {
    match kind {
        Kind::King => 3 - ori,
        Kind::Pawn => (4 - ori) & 3,
    }
}

/// `b` reflected in the a7–h0 diagonal, the same side to move.
pub fn mirror(b: &Board) -> Board {
    let mut squares = [None; 64];
    for s in Square::all() {
        if let Some(p) = b.piece_at(s) {
            let to = Square::from_coords(7 - s.rank(), 7 - s.file()).expect("on the board");
            squares[to.index()] = Some(Piece::new(
                p.kind(),
                p.color(),
                reflect_ori(p.kind(), p.ori()),
            ));
        }
    }
    Board::from_squares(squares, b.side()).expect("a reflection of a board is a board")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen;
    use crate::rules::laser;
    use crate::rules::perft::perft_plain;
    use crate::rules::piece::Color;

    #[test]
    fn a_reflection_plays_like_the_original() {
        let positions = [
            fen::STARTPOS,
            "nn2sw4/4ne3/1ne2SWsw2/2se1SW2SW/7SW/3NW1NE2/5NW2/2se4SS W",
            "ss2se4/3sw4/3se4/2se3NW1/nwnw2SWNE2/2ne3NWSE/3NWNW3/7EE B",
            "swnn3SW2/ne2se1nw2/5sw2/3nw4/2SW3SE1/6NE1/3NW4/1NE4nwNN W",
        ];
        for text in positions {
            let b = fen::parse(text).unwrap();
            let m = mirror(&b);
            assert_eq!(mirror(&m), b, "reflecting twice: {text}");
            for depth in 1..=3 {
                assert_eq!(
                    perft_plain(&mut m.clone(), depth),
                    perft_plain(&mut b.clone(), depth),
                    "{text} depth {depth}"
                );
            }
            for c in Color::BOTH {
                let reflect = |s: Square| Square::from_coords(7 - s.rank(), 7 - s.file()).unwrap();
                assert_eq!(
                    laser::target(&m, c),
                    laser::target(&b, c).map(reflect),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn the_start_pawns_keep_their_squares() {
        let b = fen::parse(fen::STARTPOS).unwrap();
        assert_eq!(mirror(&b).occupied(), b.occupied());
        assert_ne!(mirror(&b), b);
    }
}
