//! The self-play data: positions with their search score and their game's
//! result, in two formats that share a magic and are told apart by the
//! version after it. Format 2 ([`records`]) is 20 bytes a position;
//! format 3 ([`chain`], `datagen`'s default) keeps the games, a start and
//! a result once then a move and a score a ply, a few bytes a position.
//! Every reader of data goes through [`games`] (or [`read`]), which takes
//! either and names the file and the place of anything wrong.

pub mod chain;
pub mod command;
pub mod records;

pub use records::{
    board_key, decode, decode_all, encode, position_key, positions_in, records, DataError, HEADER,
    RECORD, VERSION,
};

use crate::rules::board::Board;
use crate::rules::piece::Color;
use chain::Chain;
use std::io::{BufReader, Read, Seek, Write};
use std::path::Path;

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

    /// The result the byte `b` stands for (0, 1, 2).
    pub fn from_byte(b: u8) -> Option<Outcome> {
        match b {
            0 => Some(Outcome::BlackWins),
            1 => Some(Outcome::Draw),
            2 => Some(Outcome::WhiteWins),
            _ => None,
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

/// A data file's format.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// Version 2 (or 1, without a header): a record a position.
    Records,
    /// Version 3: game chains.
    Chains,
}

impl Format {
    /// The format of version `n` as a user names it (`--format`).
    pub fn of_version(n: u16) -> Option<Format> {
        match n {
            2 => Some(Format::Records),
            3 => Some(Format::Chains),
            _ => None,
        }
    }

    pub fn version(self) -> u16 {
        match self {
            Format::Records => VERSION,
            Format::Chains => chain::VERSION,
        }
    }

    /// The header a new file of this format starts with.
    pub fn header(self) -> [u8; 16] {
        match self {
            Format::Records => HEADER,
            Format::Chains => chain::HEADER,
        }
    }

    /// The format of a file that starts with `head` (its first 16 bytes,
    /// or all of a shorter file): version 1 where there is no magic.
    pub fn of_head(head: &[u8]) -> Result<Format, DataError> {
        if head.get(..8) != Some(&HEADER[..8]) {
            return Ok(Format::Records);
        }
        let short = || {
            DataError::Header(format!(
                "{} bytes, a header has {}",
                head.len(),
                HEADER.len()
            ))
        };
        let header = head.get(..HEADER.len()).ok_or_else(short)?;
        match u16::from_le_bytes([header[8], header[9]]) {
            VERSION => records(header).map(|_| Format::Records),
            chain::VERSION if header[10..] == [0; 6] => Ok(Format::Chains),
            chain::VERSION => Err(DataError::Header(format!(
                "reserved bytes {:?}; version 3 has zeros",
                &header[10..]
            ))),
            v => Err(DataError::Header(format!(
                "version {v}; this build reads versions 1, 2 and 3"
            ))),
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "format {}", self.version())
    }
}

/// One game's kept positions, in order (format 2 files mark no games:
/// there each run of [`RECORDS_A_GAME`] consecutive records counts as one
/// game).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    pub samples: Vec<Sample>,
}

/// The records of a format 2 file that [`games`] gives as one game.
pub const RECORDS_A_GAME: usize = 4096;

/// A file opened for reading, its format read from its head.
struct Opened {
    name: String,
    format: Format,
    /// The bytes of its header: 16, or 0 for version 1.
    header: u64,
    /// The file from its first byte after the header (from its first for
    /// version 1).
    body: Box<dyn Read + Send>,
}

fn open(path: &Path) -> Result<Opened, String> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
    let mut r = BufReader::with_capacity(1 << 16, file);
    let mut head = Vec::with_capacity(HEADER.len());
    Read::by_ref(&mut r)
        .take(HEADER.len() as u64)
        .read_to_end(&mut head)
        .map_err(|e| format!("{name}: {e}"))?;
    let format = Format::of_head(&head).map_err(|e| format!("{name}: {e}"))?;
    let (header, body): (u64, Box<dyn Read + Send>) = if head.get(..8) == Some(&HEADER[..8]) {
        (HEADER.len() as u64, Box::new(r))
    } else {
        (0, Box::new(std::io::Cursor::new(head).chain(r)))
    };
    Ok(Opened {
        name,
        format,
        header,
        body,
    })
}

/// The games of a file, read as they are needed.
struct Games {
    name: String,
    source: Source,
    done: bool,
}

enum Source {
    /// Format 2: the reader and the next record's index.
    Records(Box<dyn Read + Send>, usize),
    Chains(chain::Reader<Box<dyn Read + Send>>),
}

impl Iterator for Games {
    type Item = Result<Game, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let game = match &mut self.source {
            Source::Records(r, index) => next_records(r, index),
            Source::Chains(r) => match r.next_chain() {
                Ok(c) => Ok(c.map(|c| Game {
                    samples: c.samples().collect(),
                })),
                Err(e) => Err(e.to_string()),
            },
        };
        match game {
            Ok(Some(g)) => Some(Ok(g)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(format!("{}: {e}", self.name)))
            }
        }
    }
}

/// The next [`RECORDS_A_GAME`] records of `r` (fewer at its end), `index`
/// the next one's number.
fn next_records(r: &mut impl Read, index: &mut usize) -> Result<Option<Game>, String> {
    let mut samples = Vec::new();
    while samples.len() < RECORDS_A_GAME {
        let mut rec = [0u8; RECORD];
        let n = read_full(r, &mut rec)?;
        if n == 0 {
            break;
        }
        if n < RECORD {
            return Err(DataError::Truncated(n).to_string());
        }
        samples.push(decode(&rec, *index).map_err(|e| e.to_string())?);
        *index += 1;
    }
    Ok((!samples.is_empty()).then_some(Game { samples }))
}

/// Fills `buf` from `r` as far as it goes; the bytes read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> Result<usize, String> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(n)
}

/// The games of the file at `path`, read as they are needed (the file
/// is not loaded whole); an error names the file and the place.
pub fn games(path: &Path) -> Result<impl Iterator<Item = Result<Game, String>> + Send, String> {
    let o = open(path)?;
    let source = match o.format {
        Format::Records => Source::Records(o.body, 0),
        Format::Chains => Source::Chains(chain::Reader::new(o.body)),
    };
    Ok(Games {
        name: o.name,
        source,
        done: false,
    })
}

/// The format of the file at `path`, from its header.
pub fn format(path: &Path) -> Result<Format, String> {
    open(path).map(|o| o.format)
}

/// The games of the chain file at `path` (refused if it is of another
/// format), each replayed and checked; an error names the file and the
/// place.
pub fn chains(path: &Path) -> Result<impl Iterator<Item = Result<Chain, String>>, String> {
    let o = open(path)?;
    if o.format != Format::Chains {
        return Err(format!("{}: {}, not format 3", o.name, o.format));
    }
    let (name, mut r) = (o.name, chain::Reader::new(o.body));
    let mut done = false;
    Ok(std::iter::from_fn(move || {
        if done {
            return None;
        }
        match r.next_chain() {
            Ok(Some(c)) => Some(Ok(c)),
            Ok(None) => {
                done = true;
                None
            }
            Err(e) => {
                done = true;
                Some(Err(format!("{name}: {e}")))
            }
        }
    }))
}

/// Every kept sample of the file at `path`, of either format; the error
/// names the file and the place.
pub fn read(path: impl AsRef<Path>) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    for g in games(path.as_ref())? {
        out.extend(g?.samples);
    }
    Ok(out)
}

/// A data file opened to append to.
#[derive(Debug)]
pub struct Appending {
    pub file: std::fs::File,
    pub format: Format,
    /// The positions it holds.
    pub positions: u64,
    /// Format 3: each whole game's end, in order: the byte it ends at and
    /// the positions kept up to there.
    pub game_ends: Vec<(u64, u64)>,
}

/// The file at `path` opened to append `format` to, with the positions
/// it holds: a new or empty file gets the header, a torn last record or
/// game is cut (a run stopped mid-write); a file of another format or
/// version is refused.
pub fn open_to_append(path: &Path, format: Format) -> Result<Appending, String> {
    let name = crate::user_text::quote(&path.display().to_string());
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| format!("cannot open {name}: {e}"))?;
    let len = file
        .metadata()
        .map_err(|e| format!("cannot read {name}: {e}"))?
        .len();
    let mut head = vec![0u8; HEADER.len().min(len as usize)];
    file.read_exact(&mut head)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    let header = format.header();
    if head.len() < header.len() && header.starts_with(&head) {
        // New, or stopped while its header was written.
        file.set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| file.write_all(&header))
            .map_err(|e| format!("cannot write {name}: {e}"))?;
        return Ok(Appending {
            file,
            format,
            positions: 0,
            game_ends: Vec::new(),
        });
    }
    let held = match Format::of_head(&head) {
        Err(e) => Err(e.to_string()),
        Ok(_) if head.get(..8) != Some(&HEADER[..8]) => Err("no header (version 1)".to_string()),
        Ok(f) => Ok(f),
    }
    .map_err(|what| {
        format!(
            "{name}: {what}; data is appended only to files of versions 2 and 3: name a new file"
        )
    })?;
    if held != format {
        return Err(format!(
            "{name} is of {held}; this run writes {format}: name a new file (or datagen --format {})",
            held.version()
        ));
    }
    let (positions, game_ends) = match format {
        Format::Records => (records::cut_torn(&mut file, len, &name)?, Vec::new()),
        Format::Chains => cut_torn_game(&mut file, &name)?,
    };
    file.seek(std::io::SeekFrom::End(0))
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    Ok(Appending {
        file,
        format,
        positions,
        game_ends,
    })
}

/// A chain file's kept positions and game ends, its torn last game cut.
fn cut_torn_game(file: &mut std::fs::File, name: &str) -> Result<(u64, Vec<(u64, u64)>), String> {
    file.seek(std::io::SeekFrom::Start(HEADER.len() as u64))
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    let mut r = chain::Reader::new(BufReader::new(&*file));
    let (mut kept, mut ends) = (0, Vec::new());
    loop {
        match r.next_raw() {
            Ok(Some(raw)) => {
                let (k, _) = chain::skim(&raw.body)
                    .map_err(|e| format!("{name}: game {} (byte {}): {e}", ends.len(), raw.at))?;
                kept += k;
                ends.push((r.offset, kept));
            }
            Ok(None) => return Ok((kept, ends)),
            Err(chain::ReadError::Torn { at, what, .. }) => {
                file.set_len(at)
                    .map_err(|e| format!("cannot cut the torn last game of {name}: {e}"))?;
                eprintln!("datagen: {name}: cut a torn last game at byte {at} ({what})");
                return Ok((kept, ends));
            }
            Err(e) => return Err(format!("{name}: {e}")),
        }
    }
}

/// The positions the data file at `path` holds, of either format, as far
/// as it is whole (a run may be writing it); 0 where it cannot be read.
pub fn positions_held(path: &Path) -> u64 {
    let Ok(o) = open(path) else { return 0 };
    match o.format {
        Format::Records => {
            std::fs::metadata(path).map_or(0, |m| m.len().saturating_sub(o.header) / RECORD as u64)
        }
        Format::Chains => {
            let mut r = chain::Reader::new(o.body);
            let mut kept = 0;
            while let Ok(Some(raw)) = r.next_raw() {
                kept += chain::skim(&raw.body).map_or(0, |(k, _)| k);
            }
            kept
        }
    }
}

#[cfg(test)]
mod tests;
