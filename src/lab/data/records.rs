//! The self-play data format, version 2 (`datagen --format 2`): a
//! 16-byte header, then one fixed-size record a position, little endian,
//! so a resumed run appends and shards merge by concatenating their
//! records.
//!
//! The header is the magic `D7 4C 43 48 44 41 54 41`, the version (u16,
//! 2), the record's size (u16, 20) and four zero bytes. Version 1 had no
//! header; its files are still read: the magic, read as a record's
//! occupancy, sets 23 squares, more than any record may.
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

use super::{Outcome, Sample};
use crate::rules::board::Board;
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::square::Square;
use std::fmt;

/// Bytes per record.
pub const RECORD: usize = 20;

/// The format version this build writes.
pub const VERSION: u16 = 2;

/// The header this build writes.
pub const HEADER: [u8; 16] = [
    0xd7,
    b'L',
    b'C',
    b'H',
    b'D',
    b'A',
    b'T',
    b'A',
    VERSION as u8,
    0,
    RECORD as u8,
    0,
    0,
    0,
    0,
    0,
];

/// Why bytes are not a record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DataError {
    /// The record at this index is malformed, and how.
    Record { index: usize, what: String },
    /// The data ends inside a record (this many bytes past the last whole one).
    Truncated(usize),
    /// The header is not one this build reads, and why.
    Header(String),
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            DataError::Record { index, what } => write!(f, "record {index}: {what}"),
            DataError::Truncated(n) => {
                write!(f, "the data ends {n} bytes into a record of {RECORD}")
            }
            DataError::Header(what) => write!(f, "header: {what}"),
        }
    }
}

impl std::error::Error for DataError {}

/// The record of `s`; `None` if the board has more than 16 pieces or a
/// King was zapped (no position to learn from, and `decode` refuses it).
pub fn encode(s: &Sample) -> Option<[u8; RECORD]> {
    let board = board_bytes(&s.board)?;
    let mut r = [0u8; RECORD];
    r[..16].copy_from_slice(&board);
    r[16..18].copy_from_slice(&s.score.to_le_bytes());
    r[18] = s.outcome as u8;
    r[19] = s.board.side() as u8;
    Some(r)
}

/// A record's first 16 bytes (occupancy, then the pieces) for `board`;
/// `None` if it has more than 16 pieces or a King was zapped.
pub fn board_bytes(board: &Board) -> Option<[u8; 16]> {
    if !Color::BOTH.iter().all(|&c| board.has_king(c)) {
        return None;
    }
    let mut occ = 0u64;
    let mut pieces = 0u64;
    let mut n = 0;
    for sq in Square::all() {
        if let Some(p) = board.piece_at(sq) {
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
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&occ.to_le_bytes());
    b[8..].copy_from_slice(&pieces.to_le_bytes());
    Some(b)
}

/// The board of a record's first 16 bytes with `side` to move.
pub fn board_of(b: &[u8; 16], side: Color) -> Result<Board, String> {
    let occ = u64::from_le_bytes(b[0..8].try_into().expect("8 bytes"));
    let pieces = u64::from_le_bytes(b[8..16].try_into().expect("8 bytes"));
    if occ.count_ones() > 16 {
        return Err(format!("{} squares occupied, at most 16", occ.count_ones()));
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
    Board::from_squares(squares, side).map_err(|e| e.to_string())
}

/// The sample of record `r` (`index` names it in errors).
pub fn decode(r: &[u8; RECORD], index: usize) -> Result<Sample, DataError> {
    let bad = |what: String| DataError::Record { index, what };
    let outcome = Outcome::from_byte(r[18])
        .ok_or_else(|| bad(format!("result byte {}, not 0, 1 or 2", r[18])))?;
    let side = match r[19] {
        0 => Color::White,
        1 => Color::Black,
        x => return Err(bad(format!("side byte {x}, not 0 or 1"))),
    };
    let board = board_of(r[..16].try_into().expect("16 bytes"), side).map_err(bad)?;
    Ok(Sample {
        board,
        score: i16::from_le_bytes([r[16], r[17]]),
        outcome,
    })
}

/// The records of `bytes` (a whole file of version 2, or of version 1
/// without a header), after its header is checked.
pub fn records(bytes: &[u8]) -> Result<&[u8], DataError> {
    let body = match bytes.get(..8) {
        Some(magic) if magic == &HEADER[..8] => {
            let header = bytes.get(..HEADER.len()).ok_or_else(|| {
                DataError::Header(format!(
                    "{} bytes, a header has {}",
                    bytes.len(),
                    HEADER.len()
                ))
            })?;
            let version = u16::from_le_bytes([header[8], header[9]]);
            let size = u16::from_le_bytes([header[10], header[11]]);
            if version != VERSION {
                return Err(DataError::Header(format!(
                    "version {version}; this build reads versions 1 and {VERSION}"
                )));
            }
            if size as usize != RECORD || header[12..] != [0; 4] {
                return Err(DataError::Header(format!(
                    "records of {size} bytes and reserved bytes {:?}; version {VERSION} has {RECORD} and zeros",
                    &header[12..]
                )));
            }
            &bytes[HEADER.len()..]
        }
        _ => bytes,
    };
    let rest = body.len() % RECORD;
    if rest != 0 {
        return Err(DataError::Truncated(rest));
    }
    Ok(body)
}

/// A record's position (its board and side to move, not its score or
/// result) as a 64-bit key: the same position, the same key.
pub fn position_key(r: &[u8]) -> u64 {
    key_of(&r[..16], r[19])
}

/// [`position_key`] of `board`'s record; `None` where it has none.
pub fn board_key(board: &Board) -> Option<u64> {
    board_bytes(board).map(|b| key_of(&b, board.side() as u8))
}

fn key_of(board: &[u8], side: u8) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    board.hash(&mut h);
    side.hash(&mut h);
    h.finish()
}

/// Positions in a file of `len` bytes of version 2 (its last record torn
/// or not).
pub fn positions_in(len: u64) -> u64 {
    len.saturating_sub(HEADER.len() as u64) / RECORD as u64
}

/// Every sample of `bytes` (a whole file).
pub fn decode_all(bytes: &[u8]) -> Result<Vec<Sample>, DataError> {
    records(bytes)?
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

/// Cuts a torn last record off `file` (of version 2, `len` bytes, named
/// `name`); the positions it holds.
pub fn cut_torn(file: &mut std::fs::File, len: u64, name: &str) -> Result<u64, String> {
    let torn = (len - HEADER.len() as u64) % RECORD as u64;
    if torn != 0 {
        file.set_len(len - torn)
            .map_err(|e| format!("cannot cut the torn last record of {name}: {e}"))?;
        eprintln!("datagen: {name}: cut a torn last record ({torn} bytes)");
    }
    Ok(positions_in(len))
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
    fn a_file_of_version_2_or_1_is_read_and_another_header_refused() {
        let s = Sample {
            board: fen::parse(fen::STARTPOS).unwrap(),
            score: 5,
            outcome: Outcome::Draw,
        };
        let r = encode(&s).unwrap();
        let v2: Vec<u8> = HEADER.iter().chain(&r).chain(&r).copied().collect();
        assert_eq!(decode_all(&v2).unwrap(), vec![s.clone(), s.clone()]);
        assert_eq!(decode_all(&v2[16..]).unwrap().len(), 2, "version 1");
        assert_eq!(decode_all(&HEADER).unwrap(), vec![]);
        assert_eq!(positions_in(v2.len() as u64 + 7), 2);
        let mut v4 = v2.clone();
        v4[8] = 4;
        assert_eq!(
            decode_all(&v4).unwrap_err().to_string(),
            "header: version 4; this build reads versions 1 and 2"
        );
        let mut wide = v2.clone();
        wide[10] = 22;
        assert!(decode_all(&wide)
            .unwrap_err()
            .to_string()
            .starts_with("header: records of 22 bytes"));
        assert_eq!(
            decode_all(&HEADER[..12]).unwrap_err().to_string(),
            "header: 12 bytes, a header has 16"
        );
        assert_eq!(decode_all(&v2[..40]), Err(DataError::Truncated(4)));
    }
}
