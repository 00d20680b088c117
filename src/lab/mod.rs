//! The lab's loop for strength: self-play data (`datagen`, in the format
//! of `data`; `relabel` scores it again with a newer evaluation), the
//! evaluation's tuning on it (`tune`, Texel's method), the learned
//! evaluation's training (`train`), the move policy's training (`policy`),
//! the opening book (`book`) built from self-play games, the win/draw/loss
//! model's fit (`wdl`), the best-first search's error model's fit
//! (`error_fit`), and the store's lineage records of datasets and nets
//! (`store`).
//! Above the search, beside the protocol:
//! nothing below imports it.

pub mod book;
pub mod chart;
pub mod data;
pub mod datagen;
pub mod engine_flags;
pub mod error_fit;
pub mod policy;
pub mod relabel;
pub mod store;
pub mod train;
pub mod tune;
pub mod wdl;

use std::path::{Path, PathBuf};

/// A long job's estimate, as its progress lines print it: `about 4m 10s
/// left`.
pub(crate) fn time_left(seconds: u64) -> String {
    format!("about {}m {:02}s left", seconds / 60, seconds % 60)
}

/// A lab command's output file, opened before the work so that a bad path
/// fails before it rather than after; emptied only when written, so that a
/// failed run leaves the file as it was, and a file it created and never
/// wrote is removed.
pub(crate) struct Output {
    /// The flag that named it, for messages.
    flag: &'static str,
    path: PathBuf,
    file: std::fs::File,
    /// Made by `open` and not written since: removed when dropped.
    unused_new: bool,
}

impl Output {
    /// Opens (or creates) `path`, given to `flag`, without emptying it.
    pub(crate) fn open(flag: &'static str, path: &Path) -> Result<Output, String> {
        let options = |new: bool| {
            let mut o = std::fs::OpenOptions::new();
            o.write(true).create_new(new).truncate(false);
            o
        };
        let (file, unused_new) = match options(true).open(path) {
            Ok(file) => (Ok(file), true),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                (options(false).open(path), false)
            }
            Err(e) => (Err(e), false),
        };
        let file = file.map_err(|e| format!("{flag} {}: {e}", path.display()))?;
        Ok(Output {
            flag,
            path: path.to_path_buf(),
            file,
            unused_new,
        })
    }

    /// Replaces the file's contents with `bytes` (from the start, whatever
    /// was appended before).
    pub(crate) fn replace(&mut self, bytes: &[u8]) -> Result<(), String> {
        use std::io::{Seek, Write};
        self.unused_new = false;
        self.file
            .set_len(0)
            .and_then(|()| self.file.rewind())
            .and_then(|()| self.file.write_all(bytes))
            .map_err(|e| format!("{} {}: {e}", self.flag, self.path.display()))
    }

    /// Adds `bytes` at the file's end: a long run's finished work, kept if
    /// the run is stopped.
    pub(crate) fn append(&mut self, bytes: &[u8]) -> Result<(), String> {
        use std::io::{Seek, SeekFrom, Write};
        self.unused_new = false;
        self.file
            .seek(SeekFrom::End(0))
            .and_then(|_| self.file.write_all(bytes))
            .map_err(|e| format!("{} {}: {e}", self.flag, self.path.display()))
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if self.unused_new {
            // Best effort: the run's own error is the one to report.
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The finite number `text` if `ok` holds for it, else an error saying
/// what was wanted (the lab commands' real-valued flags; clap names the
/// flag and the value).
fn real(text: &str, ok: impl Fn(f64) -> bool, what: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && ok(*x))
        .ok_or(format!("not {what}"))
}

/// `--lambda`: the result's weight in the target, 0 to 1.
pub(crate) fn lambda(text: &str) -> Result<f64, String> {
    real(text, |x| (0.0..=1.0).contains(&x), "a number from 0 to 1")
}

/// `--validation`: the share of positions held out, 0 up to 1.
pub(crate) fn validation(text: &str) -> Result<f64, String> {
    real(
        text,
        |x| (0.0..1.0).contains(&x),
        "a number from 0 up to (not including) 1",
    )
}

/// `--rate`: a learning rate, above 0.
pub(crate) fn rate(text: &str) -> Result<f64, String> {
    real(text, |x| x > 0.0, "a number above 0")
}

/// Every file of `paths` joined for a message.
pub(crate) fn names(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::Output;

    /// A file `open` made is removed unless written; one that was there
    /// stays as it was; a written one stays.
    #[test]
    fn an_output_never_written_leaves_no_new_file() {
        let dir = crate::scratch::dir("lab-output");
        let new = dir.join("new.svg");
        drop(Output::open("--out", &new).unwrap());
        assert!(!new.exists());

        let old = dir.join("old.svg");
        std::fs::write(&old, "kept").unwrap();
        drop(Output::open("--out", &old).unwrap());
        assert_eq!(std::fs::read_to_string(&old).unwrap(), "kept");

        let mut written = Output::open("--out", &new).unwrap();
        written.replace(b"drawn").unwrap();
        drop(written);
        assert_eq!(std::fs::read_to_string(&new).unwrap(), "drawn");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
