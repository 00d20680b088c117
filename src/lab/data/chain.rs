//! The self-play data format, version 3: game chains. A game's start
//! position and result once, then each ply's move and score, so a file
//! costs a few bytes a position, keeps the games, and a resumed run or a
//! merge appends whole games.
//!
//! The header is format 2's magic `D7 4C 43 48 44 41 54 41`, the version
//! (u16 little endian, 3) and six zero bytes. Then the games, each:
//!
//! | bytes | field |
//! |---|---|
//! | varint | the length in bytes of the rest of the game (so a torn last game is seen, and a reader skips a game without replaying it) |
//! | 16 | the start position's board, as format 2's record bytes 0..16 (occupancy, then a nibble a piece) |
//! | 1 | bits 0..1 the result from Tangerine's view (0 loss, 1 draw, 2 win); bit 2 the side to move (1 = Lavender); other bits zero |
//! | then each ply, to the game's end: | |
//! | varint | the move: its index in the list `movegen::generate` makes for the position (no Ko filter) |
//! | varint | 0: the position is left out; else `zigzag(w - last) + 1`, `w` the score in cp from Tangerine's view and `last` the game's last kept score so (0 before the first) |
//!
//! Varints are LEB128 (7 bits a byte, low first, at most 10 bytes, none
//! longer than it needs); zigzag maps 0, −1, 1, −2, … to 0, 1, 2, 3, ….
//! The move is a varint, not a byte: the bound on a position's moves the
//! move list is sized by (`MAX_MOVES`: 8 pieces × 11 plus 42 swapping
//! pairs × 10) passes 255; an index under 128 takes one byte. A ply's position is the
//! start replayed through the plies before it: each move must be in its
//! position's list, obey the Ko rule (from the start on), and no ply may
//! follow a zapped King. A kept position is a sample with the game's
//! result; a left-out one (a mate score, a zapping move, a repeat, past
//! the target) is there only so the chain replays.

use super::records::{board_bytes, board_of};
use super::{Outcome, Sample};
use crate::rules::board::Board;
use crate::rules::game::Game;
use crate::rules::movegen::generate;
use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::Color;

/// The format version of a chain file.
pub const VERSION: u16 = 3;

/// A chain file's header.
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
    0,
    0,
    0,
    0,
    0,
    0,
];

/// The most bytes a game's length may say: a bad length is refused before
/// it is read (a game of 100,000 plies takes under 700 KB).
pub const MAX_GAME: u64 = 1 << 24;

/// One ply: the move played, and the score of the position it was played
/// from (`None`: the position is left out).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Ply {
    pub mv: Move,
    pub score: Option<i16>,
}

/// What is wrong with a game, and where in it: the byte from the game's
/// start (its length varint's first byte), and the ply if one is at fault.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ChainError {
    pub at: u64,
    pub ply: Option<usize>,
    pub what: String,
}

/// One game: its start, result and plies, replayed and checked.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Chain {
    start: Board,
    outcome: Outcome,
    plies: Vec<Ply>,
    /// The position before each ply.
    boards: Vec<Board>,
}

impl Chain {
    /// The game from `start` through `plies`, checked: a start with both
    /// Kings and 16 pieces at most, each move legal (the Ko rule from the
    /// start on), no ply after a zapped King.
    pub fn new(start: Board, outcome: Outcome, plies: Vec<Ply>) -> Result<Chain, ChainError> {
        let bad = |ply, what: String| ChainError { at: 0, ply, what };
        if board_bytes(&start).is_none() {
            return Err(bad(
                None,
                "the start has a King missing or over 16 pieces".into(),
            ));
        }
        let mut game = Game::new(start.clone());
        let mut boards = Vec::with_capacity(plies.len());
        for (i, p) in plies.iter().enumerate() {
            boards.push(game.board().clone());
            game.play(p.mv).map_err(|e| bad(Some(i), e.to_string()))?;
        }
        Ok(Chain {
            start,
            outcome,
            plies,
            boards,
        })
    }

    pub fn start(&self) -> &Board {
        &self.start
    }

    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// The position before each ply.
    pub fn boards(&self) -> &[Board] {
        &self.boards
    }

    /// Leaves ply `i`'s position out (`None`) or keeps it with `score`.
    pub fn set_score(&mut self, i: usize, score: Option<i16>) {
        self.plies[i].score = score;
    }

    /// The positions kept.
    pub fn kept(&self) -> usize {
        self.plies.iter().filter(|p| p.score.is_some()).count()
    }

    /// The kept positions as samples, in order.
    pub fn samples(&self) -> impl Iterator<Item = Sample> + '_ {
        self.plies.iter().zip(&self.boards).filter_map(|(p, b)| {
            p.score.map(|score| Sample {
                board: b.clone(),
                score,
                outcome: self.outcome,
            })
        })
    }

    /// The game's bytes, its length first.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(20 + 4 * self.plies.len());
        body.extend_from_slice(&board_bytes(&self.start).expect("checked by new"));
        body.push(self.outcome as u8 | (self.start.side() as u8) << 2);
        let mut last = 0i32;
        for (p, b) in self.plies.iter().zip(&self.boards) {
            let mut list = MoveList::new();
            generate(b, &mut list);
            let index = list.iter().position(|m| m == p.mv).expect("checked by new");
            put_varint(&mut body, index as u64);
            match p.score {
                None => body.push(0),
                Some(s) => {
                    let w = white_view(s, b.side());
                    put_varint(&mut body, zigzag(w - last) + 1);
                    last = w;
                }
            }
        }
        let mut out = Vec::with_capacity(body.len() + 4);
        put_varint(&mut out, body.len() as u64);
        out.extend_from_slice(&body);
        out
    }

    /// The game of `body` (the bytes after its length, which took `skip`
    /// bytes), replayed and checked.
    pub fn parse(body: &[u8], skip: u64) -> Result<Chain, ChainError> {
        let bad = |at: usize, ply, what: String| ChainError {
            at: skip + at as u64,
            ply,
            what,
        };
        if body.len() < 17 {
            return Err(bad(
                0,
                None,
                format!("{} bytes, too few for a start and a result", body.len()),
            ));
        }
        let flags = body[16];
        let outcome = Outcome::from_byte(flags & 3)
            .filter(|_| flags >> 3 == 0)
            .ok_or_else(|| {
                bad(
                    16,
                    None,
                    format!("result byte {flags:#04x}, not 0..2 and a side bit"),
                )
            })?;
        let side = if flags & 4 != 0 {
            Color::Black
        } else {
            Color::White
        };
        let start = board_of(body[..16].try_into().expect("16 bytes"), side)
            .map_err(|e| bad(0, None, format!("start: {e}")))?;
        let mut game = Game::new(start.clone());
        let (mut plies, mut boards) = (Vec::new(), Vec::new());
        let (mut at, mut last) = (17, 0i32);
        while at < body.len() {
            let i = plies.len();
            let ply_at = at;
            let index = get_varint(body, &mut at).map_err(|e| bad(ply_at, Some(i), e))?;
            let mut list = MoveList::new();
            generate(game.board(), &mut list);
            let mv = list
                .as_slice()
                .get(index as usize)
                .copied()
                .ok_or_else(|| {
                    bad(
                        ply_at,
                        Some(i),
                        format!("move {index} of a position with {} moves", list.len()),
                    )
                })?;
            let score_at = at;
            let code = get_varint(body, &mut at).map_err(|e| bad(score_at, Some(i), e))?;
            let score = match code {
                0 => None,
                c => {
                    let w = i64::from(last) + unzigzag(c - 1);
                    let s = if game.board().side() == Color::White {
                        w
                    } else {
                        -w
                    };
                    let s = i16::try_from(s)
                        .map_err(|_| bad(score_at, Some(i), format!("score {s} is past an i16")))?;
                    last = w as i32;
                    Some(s)
                }
            };
            boards.push(game.board().clone());
            game.play(mv)
                .map_err(|e| bad(ply_at, Some(i), e.to_string()))?;
            plies.push(Ply { mv, score });
        }
        Ok(Chain {
            start,
            outcome,
            plies,
            boards,
        })
    }
}

/// `score` (from `side`'s view) from Tangerine's.
fn white_view(score: i16, side: Color) -> i32 {
    match side {
        Color::White => i32::from(score),
        Color::Black => -i32::from(score),
    }
}

fn zigzag(v: i32) -> u64 {
    u64::from(((v << 1) ^ (v >> 31)) as u32)
}

fn unzigzag(z: u64) -> i64 {
    (z >> 1) as i64 ^ -((z & 1) as i64)
}

/// Appends `v` as a varint.
pub fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The varint at `bytes[*at..]`, `*at` moved past it.
pub fn get_varint(bytes: &[u8], at: &mut usize) -> Result<u64, String> {
    let mut v = 0u64;
    for k in 0..10 {
        let Some(&b) = bytes.get(*at) else {
            return Err("the game ends inside a number".into());
        };
        *at += 1;
        if k == 9 && b > 1 {
            return Err("a number past 64 bits".into());
        }
        v |= u64::from(b & 0x7f) << (7 * k);
        if b & 0x80 == 0 {
            if k > 0 && b == 0 {
                return Err("a number longer than it needs".into());
            }
            return Ok(v);
        }
    }
    Err("a number past 64 bits".into())
}

/// Where a game is torn or bad in a file: its number (from 0) and byte.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ReadError {
    /// The file ends inside game `game`, which starts at byte `at`.
    Torn { game: usize, at: u64, what: String },
    /// Game `game`, at byte `at`, is malformed.
    Bad {
        game: usize,
        at: u64,
        error: ChainError,
    },
    /// The file could not be read.
    Io(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            ReadError::Torn { game, at, what } => write!(f, "game {game} (byte {at}): {what}"),
            ReadError::Bad { game, at, error } => {
                write!(f, "game {game} (byte {at}): ")?;
                if let Some(p) = error.ply {
                    write!(f, "ply {p} (byte {}): ", at + error.at)?;
                }
                write!(f, "{}", error.what)
            }
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// One game's bytes as read: where it starts, its length varint's size,
/// and the rest.
pub struct Raw {
    pub at: u64,
    pub skip: u64,
    pub body: Vec<u8>,
}

/// The games of a chain file, read one at a time from `r`, which stands
/// after the header.
pub struct Reader<R> {
    r: R,
    /// The byte of the file `r` stands at.
    pub offset: u64,
    /// Games read.
    pub games: usize,
}

impl<R: std::io::Read> Reader<R> {
    pub fn new(r: R) -> Reader<R> {
        Reader {
            r,
            offset: HEADER.len() as u64,
            games: 0,
        }
    }

    /// The next game's bytes, unchecked; `None` at the file's end.
    pub fn next_raw(&mut self) -> Result<Option<Raw>, ReadError> {
        let (game, at) = (self.games, self.offset);
        let torn = |what: String| ReadError::Torn { game, at, what };
        let too_long = |len: String| ReadError::Bad {
            game,
            at,
            error: ChainError {
                at: 0,
                ply: None,
                what: format!("a length of {len} bytes, over the {MAX_GAME} a game may take"),
            },
        };
        let (mut len, mut skip) = (0u64, 0u64);
        loop {
            let mut b = [0u8];
            let n = read_some(&mut self.r, &mut b)?;
            if n == 0 && skip == 0 {
                return Ok(None);
            }
            if n == 0 {
                return Err(torn("the file ends inside the game's length".into()));
            }
            len |= u64::from(b[0] & 0x7f) << (7 * skip);
            skip += 1;
            if b[0] & 0x80 == 0 {
                break;
            }
            // Four bytes hold 28 bits, past `MAX_GAME`.
            if skip == 4 {
                return Err(too_long("more than 2^28".into()));
            }
        }
        if len > MAX_GAME {
            return Err(too_long(len.to_string()));
        }
        let mut body = Vec::with_capacity(len as usize);
        use std::io::Read;
        Read::by_ref(&mut self.r)
            .take(len)
            .read_to_end(&mut body)
            .map_err(|e| ReadError::Io(e.to_string()))?;
        if (body.len() as u64) < len {
            return Err(torn(format!(
                "the file ends {} bytes into a game of {len}",
                body.len()
            )));
        }
        self.offset += skip + len;
        self.games += 1;
        Ok(Some(Raw { at, skip, body }))
    }

    /// The next game, replayed and checked; `None` at the file's end.
    pub fn next_chain(&mut self) -> Result<Option<Chain>, ReadError> {
        let game = self.games;
        let Some(raw) = self.next_raw()? else {
            return Ok(None);
        };
        Chain::parse(&raw.body, raw.skip)
            .map(Some)
            .map_err(|error| ReadError::Bad {
                game,
                at: raw.at,
                error,
            })
    }
}

/// `read` retried when interrupted.
fn read_some(r: &mut impl std::io::Read, buf: &mut [u8]) -> Result<usize, ReadError> {
    loop {
        match r.read(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            other => return other.map_err(|e| ReadError::Io(e.to_string())),
        }
    }
}

/// The kept positions and plies of a game's body, from its varints alone
/// (not replayed).
pub fn skim(body: &[u8]) -> Result<(u64, u64), String> {
    let (mut at, mut plies, mut kept) = (17, 0, 0);
    while at < body.len() {
        get_varint(body, &mut at)?;
        kept += u64::from(get_varint(body, &mut at)? != 0);
        plies += 1;
    }
    Ok((kept, plies))
}
