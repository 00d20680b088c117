//! The lab's loop for strength: self-play data (`datagen`, in the format
//! of `data`), the evaluation's tuning on it (`tune`, Texel's method), the
//! learned evaluation's training (`train`), the opening book (`book`)
//! built from self-play games and the win/draw/loss model's fit (`wdl`).
//! Above the search, beside the protocol:
//! nothing below imports it.

pub mod book;
pub mod data;
pub mod datagen;
pub mod train;
pub mod tune;
pub mod wdl;

/// A lab command's output file, opened before the work so that a bad path
/// fails before it rather than after; emptied only when written, so that a
/// failed run leaves the file as it was.
pub(crate) struct Output {
    /// The flag that named it, for messages.
    flag: &'static str,
    path: String,
    file: std::fs::File,
}

impl Output {
    /// Opens (or creates) `path`, given to `flag`, without emptying it.
    pub(crate) fn open(flag: &'static str, path: &str) -> Result<Output, String> {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| format!("{flag} {path}: {e}"))?;
        Ok(Output {
            flag,
            path: path.to_string(),
            file,
        })
    }

    /// Replaces the file's contents with `bytes`.
    pub(crate) fn replace(&mut self, bytes: &[u8]) -> Result<(), String> {
        use std::io::Write;
        self.file
            .set_len(0)
            .and_then(|()| self.file.write_all(bytes))
            .map_err(|e| format!("{} {}: {e}", self.flag, self.path))
    }

    pub(crate) fn path(&self) -> &str {
        &self.path
    }
}

/// The whole number `value` given to `flag`, within `lo..=hi`; the error
/// names both (the lab commands' numeric flags).
pub(crate) fn whole(flag: &str, value: &str, lo: u64, hi: u64) -> Result<u64, String> {
    value
        .parse::<u64>()
        .ok()
        .filter(|n| (lo..=hi).contains(n))
        .ok_or(format!(
            "{flag} wants a number {lo}..{hi}, got '{}'",
            crate::user_text::quote(value)
        ))
}

/// The finite number `value` given to `flag` for which `ok` holds; the
/// error names both and says what was wanted.
pub(crate) fn real(
    flag: &str,
    value: &str,
    ok: impl Fn(f64) -> bool,
    what: &str,
) -> Result<f64, String> {
    value
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && ok(*x))
        .ok_or(format!(
            "{flag} {}: not {what}",
            crate::user_text::quote(value)
        ))
}

/// `--lambda`: the result's weight in the target, 0 to 1.
pub(crate) fn lambda(flag: &str, value: &str) -> Result<f64, String> {
    real(
        flag,
        value,
        |x| (0.0..=1.0).contains(&x),
        "a number from 0 to 1",
    )
}

/// `--validation`: the share of positions held out, 0 up to 1.
pub(crate) fn validation(flag: &str, value: &str) -> Result<f64, String> {
    real(
        flag,
        value,
        |x| (0.0..1.0).contains(&x),
        "a number from 0 up to (not including) 1",
    )
}
