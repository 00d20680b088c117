//! How far a `relabel` run has come: `OUT.cursor`, one line
//! `relabel cursor: inputs T done D kept K` (T the input positions, D of
//! them done, K positions kept in OUT), saved after every stretch written.
//! A run stopped between writing a stretch and saving the cursor leaves
//! OUT longer than the cursor says: the next run cuts it back (to K
//! records in format 2, to the games of the D input positions in format
//! 3).

use crate::lab::data::{Appending, Format, HEADER, RECORD};
use std::io::{Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// Where the run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    /// The input positions, all files together.
    pub inputs: usize,
    /// Input positions done, from the first.
    pub done: usize,
    /// Records kept in OUT.
    pub kept: usize,
    /// Read from a cursor file (not a fresh run).
    found: bool,
}

/// OUT's cursor file: `OUT.cursor`.
pub fn path_of(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".cursor");
    PathBuf::from(name)
}

impl Cursor {
    /// The cursor at `path` for a run over `inputs` positions, or a fresh
    /// one where there is none; refused if it was saved for other inputs
    /// or is not a cursor.
    pub fn resume(path: &Path, inputs: usize) -> Result<Cursor, String> {
        let name = crate::user_text::quote(&path.display().to_string());
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Cursor {
                    inputs,
                    done: 0,
                    kept: 0,
                    found: false,
                })
            }
            Err(e) => return Err(format!("cannot read {name}: {e}")),
        };
        let c = Cursor::parse(text.trim_end())
            .ok_or_else(|| format!("{name}: not a relabel cursor: {:?}", text.trim_end()))?;
        if c.inputs != inputs {
            return Err(format!(
                "{name} was saved for inputs of {} positions; these hold {inputs}: \
                 name the same inputs, or a new --out",
                c.inputs
            ));
        }
        Ok(c)
    }

    fn parse(line: &str) -> Option<Cursor> {
        let words: Vec<&str> = line.split(' ').collect();
        let ["relabel", "cursor:", "inputs", inputs, "done", done, "kept", kept] = words[..] else {
            return None;
        };
        let (inputs, done, kept) = (inputs.parse().ok()?, done.parse().ok()?, kept.parse().ok()?);
        (kept <= done && done <= inputs).then_some(Cursor {
            inputs,
            done,
            kept,
            found: true,
        })
    }

    /// Cuts OUT (`out`, named `name`) back to what the cursor counts:
    /// `games` games in format 3, its position left at the end; refused
    /// if it holds fewer, or holds positions and there was no cursor.
    pub fn cut(&self, out: &mut Appending, games: usize, name: &str) -> Result<(), String> {
        let held = out.positions;
        if !self.found && held > 0 {
            return Err(format!(
                "{name} holds {held} positions and has no cursor beside it: \
                 relabel writes only to a new file or its own"
            ));
        }
        if held < self.kept as u64 {
            return Err(format!(
                "{name} holds {held} positions; its cursor counts {}: name a new --out",
                self.kept
            ));
        }
        let len = match out.format {
            Format::Records => (HEADER.len() + self.kept * RECORD) as u64,
            Format::Chains if games == 0 => HEADER.len() as u64,
            Format::Chains => match out.game_ends.get(games - 1) {
                Some(&(end, kept)) if kept == self.kept as u64 => end,
                _ => {
                    return Err(format!(
                        "{name}'s games do not end where its cursor says (after {games} games, \
                         {} positions kept): name a new --out",
                        self.kept
                    ))
                }
            },
        };
        out.file
            .set_len(len)
            .and_then(|()| out.file.seek(SeekFrom::End(0)))
            .map(|_| ())
            .map_err(|e| format!("cannot cut {name} to its cursor: {e}"))
    }

    /// Saves the cursor to `path`, replacing it whole (written beside it,
    /// then renamed over it).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let line = format!(
            "relabel cursor: inputs {} done {} kept {}\n",
            self.inputs, self.done, self.kept
        );
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".new");
        std::fs::write(&tmp, line)
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(|e| format!("cannot save {}: {e}", path.display()))
    }
}
