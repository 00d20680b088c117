//! The self-play data format: one fixed-size record a position, little
//! endian, no header, so files concatenate and a resumed run appends.
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | occupancy: bit `s` set where square `s` (a0 = 0, b0 = 1, …, h7 = 63) holds a piece |
//! | 8..16 | the pieces in square order, one nibble each from the low end: bit 0..1 orientation, bit 2 colour (1 = Lavender, black), bit 3 kind (1 = King) |
//! | 16..18 | the search's score in cp, side to move's view (i16) |
//! | 18 | the game's result from Tangerine's (white's) view: 0 loss, 1 draw, 2 win |
//! | 19 | bit 0: the side to move (1 = Lavender); other bits zero |
//!
//! Sixteen pieces at most fit (a board holds at most 8 a side).

use crate::rules::board::Board;
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::square::Square;
use std::fmt;

/// Bytes per record.
pub const RECORD: usize = 20;

/// A game's result from Tangerine's (white's) view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    BlackWins = 0,
    Draw = 1,
    WhiteWins = 2,
}

impl Outcome {
    /// The result as a score for `side`: 1 win, 0.5 draw, 0 loss.
    pub fn score_for(self, side: Color) -> f64 {
        let white = self as u8 as f64 / 2.0;
        match side {
            Color::White => white,
            Color::Black => 1.0 - white,
        }
    }
}

/// One position with its search score and its game's result.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Sample {
    pub board: Board,
    /// The search's score, centipawns, from the side to move's view.
    pub score: i16,
    pub outcome: Outcome,
}

/// Why bytes are not a record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DataError {
    /// The record at this index is malformed, and how.
    Record { index: usize, what: String },
    /// The data ends inside a record (this many bytes past the last whole one).
    Truncated(usize),
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            DataError::Record { index, what } => write!(f, "record {index}: {what}"),
            DataError::Truncated(n) => {
                write!(f, "the data ends {n} bytes into a record of {RECORD}")
            }
        }
    }
}

impl std::error::Error for DataError {}

/// The record of `s`; `None` if the board has more than 16 pieces or a
/// King was zapped (no position to learn from, and `decode` refuses it).
pub fn encode(s: &Sample) -> Option<[u8; RECORD]> {
    if !Color::BOTH.iter().all(|&c| s.board.has_king(c)) {
        return None;
    }
    let mut occ = 0u64;
    let mut pieces = 0u64;
    let mut n = 0;
    for sq in Square::all() {
        if let Some(p) = s.board.piece_at(sq) {
            if n == 16 {
                return None;
            }
            occ |= sq.bit();
            let nibble =
                p.ori() as u64 | (p.color() as u64) << 2 | u64::from(p.kind() == Kind::King) << 3;
            pieces |= nibble << (4 * n);
            n += 1;
        }
    }
    let mut r = [0u8; RECORD];
    r[0..8].copy_from_slice(&occ.to_le_bytes());
    r[8..16].copy_from_slice(&pieces.to_le_bytes());
    r[16..18].copy_from_slice(&s.score.to_le_bytes());
    r[18] = s.outcome as u8;
    r[19] = s.board.side() as u8;
    Some(r)
}

/// The sample of record `r` (`index` names it in errors).
pub fn decode(r: &[u8; RECORD], index: usize) -> Result<Sample, DataError> {
    let bad = |what: String| DataError::Record { index, what };
    let occ = u64::from_le_bytes(r[0..8].try_into().expect("8 bytes"));
    let pieces = u64::from_le_bytes(r[8..16].try_into().expect("8 bytes"));
    if occ.count_ones() > 16 {
        return Err(bad(format!(
            "{} squares occupied, at most 16",
            occ.count_ones()
        )));
    }
    let mut squares = [None; 64];
    for (n, s) in Square::all().filter(|s| occ & s.bit() != 0).enumerate() {
        let nibble = (pieces >> (4 * n)) & 0xf;
        let color = if nibble & 4 != 0 {
            Color::Black
        } else {
            Color::White
        };
        let kind = if nibble & 8 != 0 {
            Kind::King
        } else {
            Kind::Pawn
        };
        squares[s.index()] = Some(Piece::new(kind, color, (nibble & 3) as u8));
    }
    let outcome = match r[18] {
        0 => Outcome::BlackWins,
        1 => Outcome::Draw,
        2 => Outcome::WhiteWins,
        x => return Err(bad(format!("result byte {x}, not 0, 1 or 2"))),
    };
    let side = match r[19] {
        0 => Color::White,
        1 => Color::Black,
        x => return Err(bad(format!("side byte {x}, not 0 or 1"))),
    };
    let board = Board::from_squares(squares, side).map_err(|e| bad(e.to_string()))?;
    Ok(Sample {
        board,
        score: i16::from_le_bytes([r[16], r[17]]),
        outcome,
    })
}

/// Every sample of `bytes` (a whole file).
pub fn decode_all(bytes: &[u8]) -> Result<Vec<Sample>, DataError> {
    let rest = bytes.len() % RECORD;
    if rest != 0 {
        return Err(DataError::Truncated(rest));
    }
    bytes
        .chunks_exact(RECORD)
        .enumerate()
        .map(|(i, c)| decode(c.try_into().expect("a whole record"), i))
        .collect()
}

/// Every sample of the file at `path`; the error names the file.
pub fn read(path: impl AsRef<std::path::Path>) -> Result<Vec<Sample>, String> {
    let path = path.as_ref();
    let name = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    decode_all(&bytes).map_err(|e| format!("{name}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen;

    #[test]
    fn records_round_trip() {
        for (text, score, outcome) in [
            (fen::STARTPOS, 12, Outcome::WhiteWins),
            (fen::ENDGAME, -32000, Outcome::Draw),
            ("8/8/8/8/8/8/8/nn6NN B", 7, Outcome::BlackWins),
        ] {
            let s = Sample {
                board: fen::parse(text).unwrap(),
                score,
                outcome,
            };
            let r = encode(&s).unwrap();
            assert_eq!(decode(&r, 0).unwrap(), s, "{text}");
        }
    }

    #[test]
    fn bad_bytes_are_named() {
        let s = Sample {
            board: fen::parse(fen::STARTPOS).unwrap(),
            score: 0,
            outcome: Outcome::Draw,
        };
        let mut r = encode(&s).unwrap();
        r[18] = 3;
        assert!(decode(&r, 5)
            .unwrap_err()
            .to_string()
            .starts_with("record 5: result byte 3"));
        let mut bytes = encode(&s).unwrap().to_vec();
        bytes.push(0);
        assert_eq!(decode_all(&bytes), Err(DataError::Truncated(1)));
        let no_kings = [0u8; RECORD];
        assert!(decode(&no_kings, 0).is_err());
        let mut zapped = fen::parse("8/8/8/8/8/8/8/nn6NN W").unwrap();
        zapped.make(crate::rules::moves::Move::parse("h0L").unwrap());
        let over = Sample {
            board: zapped,
            score: 0,
            outcome: Outcome::WhiteWins,
        };
        assert_eq!(encode(&over), None);
    }

    #[test]
    fn outcome_scores_by_side() {
        assert_eq!(Outcome::WhiteWins.score_for(Color::Black), 0.0);
        assert_eq!(Outcome::Draw.score_for(Color::White), 0.5);
        assert_eq!(Outcome::BlackWins.score_for(Color::Black), 1.0);
    }
}
