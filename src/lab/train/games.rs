//! The games of a data file, read as they are needed: the trainer's one
//! way into the data. Format 2 marks no games, so each run of [`GAME`]
//! consecutive records counts as one (the last run of a file may be
//! shorter). The file is read through a buffer, a game at a time.

use crate::lab::data::{self, DataError, Sample, HEADER, RECORD};
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

/// Records a game of format 2.
const GAME: usize = 4096;

/// One game's positions, in order.
pub struct Game {
    pub samples: Vec<Sample>,
}

/// The games of the file at `path`, read as they are needed; an error
/// names the file and the record.
pub fn games(path: &Path) -> Result<impl Iterator<Item = Result<Game, String>>, String> {
    let name = path.display().to_string();
    let file = File::open(path).map_err(|e| format!("{name}: {e}"))?;
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut head = Vec::with_capacity(HEADER.len());
    (&mut reader)
        .take(HEADER.len() as u64)
        .read_to_end(&mut head)
        .map_err(|e| format!("{name}: {e}"))?;
    // Version 1 has no header: its first bytes are its first record's.
    let carry = if head.len() >= 8 && head[..8] == HEADER[..8] {
        data::records(&head).map_err(|e| format!("{name}: {e}"))?;
        Vec::new()
    } else {
        head
    };
    Ok(Games {
        name,
        reader,
        carry,
        index: 0,
        done: false,
    })
}

struct Games {
    name: String,
    reader: BufReader<File>,
    /// Bytes read ahead of the records (a version-1 file's first bytes).
    carry: Vec<u8>,
    /// The next record's index in the file.
    index: usize,
    done: bool,
}

impl Games {
    fn next_game(&mut self) -> Result<Option<Game>, String> {
        let mut bytes = std::mem::take(&mut self.carry);
        let want = GAME * RECORD;
        let have = bytes.len();
        (&mut self.reader)
            .take((want - have) as u64)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("{}: {e}", self.name))?;
        if bytes.is_empty() {
            return Ok(None);
        }
        let torn = bytes.len() % RECORD;
        if torn != 0 {
            return Err(format!("{}: {}", self.name, DataError::Truncated(torn)));
        }
        let samples = bytes
            .chunks_exact(RECORD)
            .enumerate()
            .map(|(i, r)| data::decode(r.try_into().expect("a whole record"), self.index + i))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("{}: {e}", self.name))?;
        self.index += samples.len();
        Ok(Some(Game { samples }))
    }
}

impl Iterator for Games {
    type Item = Result<Game, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let game = self.next_game().transpose();
        self.done = !matches!(game, Some(Ok(_)));
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::data::{encode, Outcome};
    use crate::rules::fen;

    fn sample(score: i16) -> Sample {
        Sample {
            board: fen::parse(fen::STARTPOS).unwrap(),
            score,
            outcome: Outcome::Draw,
        }
    }

    fn read(path: &Path) -> Result<Vec<Vec<i16>>, String> {
        games(path)?
            .map(|g| g.map(|g| g.samples.iter().map(|s| s.score).collect()))
            .collect()
    }

    #[test]
    fn runs_of_4096_records_are_games_in_both_versions() {
        let dir = crate::scratch::dir("train-games");
        let path = dir.join("d.bin");
        let records: Vec<u8> = (0..GAME as i16 + 3)
            .flat_map(|i| encode(&sample(i)).unwrap())
            .collect();
        let scores: Vec<i16> = (0..GAME as i16 + 3).collect();
        let want = vec![scores[..GAME].to_vec(), scores[GAME..].to_vec()];
        std::fs::write(&path, [&HEADER[..], &records].concat()).unwrap();
        assert_eq!(read(&path).unwrap(), want, "version 2");
        std::fs::write(&path, &records).unwrap();
        assert_eq!(read(&path).unwrap(), want, "version 1");
        std::fs::write(&path, HEADER).unwrap();
        assert_eq!(read(&path).unwrap(), Vec::<Vec<i16>>::new(), "no records");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_bad_file_is_named_with_the_place() {
        let dir = crate::scratch::dir("train-games-bad");
        let path = dir.join("d.bin");
        let name = path.display();
        let mut bytes = HEADER.to_vec();
        for _ in 0..GAME + 2 {
            bytes.extend(encode(&sample(1)).unwrap());
        }
        bytes[HEADER.len() + (GAME + 1) * RECORD + 18] = 7;
        std::fs::write(&path, &bytes).unwrap();
        let mut it = games(&path).unwrap();
        assert!(it.next().unwrap().is_ok(), "the first game is whole");
        let e = it.next().unwrap().err().unwrap();
        assert_eq!(
            e,
            format!("{name}: record 4097: result byte 7, not 0, 1 or 2")
        );
        assert!(it.next().is_none(), "nothing after an error");
        std::fs::write(&path, &bytes[..HEADER.len() + 30]).unwrap();
        let e = read(&path).unwrap_err();
        assert_eq!(
            e,
            format!("{name}: the data ends 10 bytes into a record of 20")
        );
        let mut v3 = HEADER.to_vec();
        v3[8] = 3;
        std::fs::write(&path, v3).unwrap();
        let e = games(&path).err().unwrap();
        assert_eq!(
            e,
            format!("{name}: header: version 3; this build reads versions 1 and 2")
        );
        let e = games(&dir.join("none.bin")).err().unwrap();
        assert!(
            e.starts_with(&format!("{}: ", dir.join("none.bin").display())),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
