//! FEN: `<ranks 7..0 separated by '/'> <W|B>` (RULES.md "FEN"), parsed into
//! plain squares, validated, and only then made a `Board`. Every error names
//! what is wrong and its byte offset in the text.

use crate::rules::board::{Board, BoardError};
use crate::rules::piece::{Color, Piece};
use crate::rules::square::Square;
use crate::user_text::quote;
use std::fmt;

pub const STARTPOS: &str = "ss7/3nwse3/2nwse4/1nwse3NW1/1se3NWSE1/4NWSE2/3NWSE3/7NN W";
pub const ENDGAME: &str = "ss7/8/8/8/8/8/8/7NN W";

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// A character that can not stand here.
    BadChar { offset: usize, ch: char },
    /// The first letter of a piece is not followed by its second.
    UnfinishedPiece { offset: usize },
    /// A rank covers more than 8 squares; `offset` is where it overflows.
    RankTooLong { rank: i32, offset: usize },
    /// A rank ends before covering 8 squares.
    RankTooShort { rank: i32, offset: usize },
    /// Fewer or more than 8 ranks.
    RankCount { found: usize },
    /// No side to move after the board.
    MissingSide { offset: usize },
    /// The side to move is not `W` or `B`.
    BadSide { offset: usize, text: String },
    /// Anything after the side to move.
    Trailing { offset: usize, text: String },
    /// The pieces are not a position (King count).
    Position(BoardError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            FenError::BadChar { offset, ch } => {
                write!(
                    f,
                    "unexpected character '{}' at offset {offset}",
                    ch.escape_debug()
                )
            }
            FenError::UnfinishedPiece { offset } => {
                write!(f, "a piece needs two letters (offset {offset})")
            }
            FenError::RankTooLong { rank, offset } => {
                write!(
                    f,
                    "rank {rank} has more than 8 squares (at offset {offset})"
                )
            }
            FenError::RankTooShort { rank, offset } => {
                write!(
                    f,
                    "rank {rank} has fewer than 8 squares (ends at offset {offset})"
                )
            }
            FenError::RankCount { found } => write!(f, "expected 8 ranks, found {found}"),
            FenError::MissingSide { offset } => {
                write!(f, "missing side to move (W or B) at offset {offset}")
            }
            FenError::BadSide { offset, text } => {
                write!(
                    f,
                    "side to move must be W or B (upper case), found '{}' at offset {offset}",
                    quote(text)
                )
            }
            FenError::Trailing { offset, text } => {
                write!(f, "unexpected text '{}' at offset {offset}", quote(text))
            }
            FenError::Position(e) => write!(f, "not a position: {e}"),
        }
    }
}

impl std::error::Error for FenError {}

/// Parses `startpos`-style FEN text: the board, white space, the side.
pub fn parse(text: &str) -> Result<Board, FenError> {
    let bytes = text.as_bytes();
    let start = bytes.iter().take_while(|c| c.is_ascii_whitespace()).count();
    let end = start
        + bytes[start..]
            .iter()
            .take_while(|c| !c.is_ascii_whitespace())
            .count();
    let squares = parse_board(bytes, start, end)?;
    let (side_at, side_text) =
        next_token(text, end).ok_or(FenError::MissingSide { offset: end })?;
    let side = match side_text {
        "W" => Color::White,
        "B" => Color::Black,
        _ => {
            return Err(FenError::BadSide {
                offset: side_at,
                text: side_text.to_string(),
            })
        }
    };
    if let Some((offset, rest)) = next_token(text, side_at + side_text.len()) {
        return Err(FenError::Trailing {
            offset,
            text: rest.to_string(),
        });
    }
    Board::from_squares(squares, side).map_err(FenError::Position)
}

/// The next white-space separated token at or after `from`, with its offset.
fn next_token(text: &str, from: usize) -> Option<(usize, &str)> {
    let rest = &text[from..];
    let skipped = rest.len() - rest.trim_start().len();
    let token = rest.split_whitespace().next()?;
    Some((from + skipped, token))
}

fn parse_board(s: &[u8], start: usize, end: usize) -> Result<[Option<Piece>; 64], FenError> {
    let mut squares = [None; 64];
    let mut rank = 7i32;
    let mut file = 0i32;
    let mut ranks = 1;
    let mut i = start;
    while i < end {
        let c = s[i];
        let overflow = |width: i32| {
            if file + width > 8 {
                Err(FenError::RankTooLong { rank, offset: i })
            } else {
                Ok(())
            }
        };
        match c {
            b'/' => {
                if file < 8 {
                    return Err(FenError::RankTooShort { rank, offset: i });
                }
                ranks += 1;
                if ranks > 8 {
                    return Err(FenError::RankCount { found: ranks });
                }
                rank -= 1;
                file = 0;
                i += 1;
            }
            b'1'..=b'8' => {
                let n = (c - b'0') as i32;
                overflow(n)?;
                file += n;
                i += 1;
            }
            c if c.is_ascii_alphabetic() => {
                overflow(1)?;
                if i + 1 >= end {
                    return Err(FenError::UnfinishedPiece { offset: i });
                }
                let p = Piece::from_fen(c, s[i + 1]).ok_or_else(|| FenError::BadChar {
                    offset: i + 1,
                    ch: char_at(s, i + 1),
                })?;
                let sq = Square::from_coords(file, rank).expect("file and rank checked");
                squares[sq.index()] = Some(p);
                file += 1;
                i += 2;
            }
            _ => {
                return Err(FenError::BadChar {
                    offset: i,
                    ch: char_at(s, i),
                })
            }
        }
    }
    if ranks < 8 {
        return Err(FenError::RankCount { found: ranks });
    }
    if file < 8 {
        return Err(FenError::RankTooShort { rank, offset: end });
    }
    Ok(squares)
}

/// The (possibly multi-byte) character starting at byte `i`.
fn char_at(s: &[u8], i: usize) -> char {
    String::from_utf8_lossy(&s[i..])
        .chars()
        .next()
        .unwrap_or('?')
}

/// The FEN of a board: exactly the text `parse` accepts.
pub fn to_fen(b: &Board) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let sq = Square::from_coords(file, rank).expect("on the board");
            match b.piece_at(sq) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push_str(&p.to_string());
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(b.side().letter());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_positions_round_trip() {
        for text in [STARTPOS, ENDGAME] {
            assert_eq!(to_fen(&parse(text).unwrap()), text);
        }
    }

    #[test]
    fn errors_name_the_character_and_offset() {
        let cases: [(&str, FenError); 15] = [
            // Neither a count nor a piece's letter: named where it stands.
            (
                "ss7/8/8/8/8/8/8/6#NN W",
                FenError::BadChar {
                    offset: 17,
                    ch: '#',
                },
            ),
            (
                "ss7/8/8/8/8/8/8/7NNx W",
                FenError::RankTooLong {
                    rank: 0,
                    offset: 19,
                },
            ),
            (
                "ss6/8/8/8/8/8/8/7NN W",
                FenError::RankTooShort { rank: 7, offset: 3 },
            ),
            (
                "ss7/8/8/8/8/8/8/7NQ W",
                FenError::BadChar {
                    offset: 18,
                    ch: 'Q',
                },
            ),
            (
                "ss7/8/8/8/8/8/8/7N",
                FenError::UnfinishedPiece { offset: 17 },
            ),
            (
                "ss7/8/8/8/8/8/8/7NN X",
                FenError::BadSide {
                    offset: 20,
                    text: "X".into(),
                },
            ),
            // PROTOCOL.md's `<W|B>` exactly: lower case is a Lavender piece.
            (
                "ss7/8/8/8/8/8/8/7NN w",
                FenError::BadSide {
                    offset: 20,
                    text: "w".into(),
                },
            ),
            (
                "ss7/8/8/8/8/8/8/7NN b",
                FenError::BadSide {
                    offset: 20,
                    text: "b".into(),
                },
            ),
            ("ss7/8/8/8/8/8/8/7NN", FenError::MissingSide { offset: 19 }),
            ("ss7/8/8/8/8/8/7NN W", FenError::RankCount { found: 7 }),
            (
                "8/8/8/8/8/8/8/7NN W",
                FenError::Position(BoardError::NoKing(Color::Black)),
            ),
            (
                "ss7/8/8/8/8/8/8/6NNNN W",
                FenError::Position(BoardError::TwoKings(Color::White)),
            ),
            (
                "ss7/8/8/8/8/8/NWNWNWNWNWNWNWNW/7NN W",
                FenError::Position(BoardError::TooManyPieces(Color::White, 9)),
            ),
            (
                "ssnwnwnwnwnwnwnw/nw7/8/8/8/8/8/7NN W",
                FenError::Position(BoardError::TooManyPieces(Color::Black, 9)),
            ),
            (
                "ss7/8/8/8/8/8/8/7NN W x",
                FenError::Trailing {
                    offset: 22,
                    text: "x".into(),
                },
            ),
        ];
        for (text, want) in cases {
            assert_eq!(parse(text).unwrap_err(), want, "{text}");
        }
        let e = parse("ss7/8/8/8/8/8/8/7NQ W").unwrap_err();
        assert_eq!(e.to_string(), "unexpected character 'Q' at offset 18");
    }

    #[test]
    fn odd_input_does_not_panic() {
        for text in [
            "",
            " ",
            "/",
            "9/8",
            "ss7/é/8",
            "ss7/8/8/8/8/8/8/8/8 W",
            "ss7/8/8/8/8/8/8/7N€ W",
        ] {
            assert!(parse(text).is_err(), "{text}");
        }
    }
}
