//! An engine's standard error. The client keeps it while the engine runs
//! (`leiserchess::play::client::Stderr::Capture`); when the engine
//! ends, it is appended to `NAME.stderr.log` beside the PGN file, one
//! block per run of the engine (a game, or the start-up check) under a
//! header line; when the engine dies, its last lines go into the message.

use crate::config::spec::TournamentSpec;
use std::io::Write;
use std::path::{Path, PathBuf};

/// How many of its last standard-error lines a dead engine's message
/// quotes.
pub const TAIL_LINES: usize = 10;

/// Where one run of an engine appends its standard error.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StderrLog {
    pub path: PathBuf,
    /// What the run was, for its header line `== what ==`.
    pub what: String,
}

impl StderrLog {
    /// The log of engine `name` in `t`: `NAME.stderr.log` in the PGN
    /// file's directory; none without a PGN file (a run that keeps no
    /// games leaves no files).
    pub fn of(t: &TournamentSpec, name: &str, what: &str) -> Option<StderrLog> {
        Some(StderrLog {
            path: path(t, name)?,
            what: what.to_string(),
        })
    }

    /// Appends `stderr` under the header line, if the engine wrote
    /// anything (a silent engine gets no file). One write to a file
    /// opened for appending: the blocks of games played at the same time
    /// do not interleave.
    pub fn append(&self, stderr: &[u8]) -> std::io::Result<()> {
        if stderr.is_empty() {
            return Ok(());
        }
        let mut block = format!("== {} ==\n", self.what).into_bytes();
        block.extend_from_slice(stderr);
        if !stderr.ends_with(b"\n") {
            block.push(b'\n');
        }
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)?
            .write_all(&block)
    }
}

/// `NAME.stderr.log` in the directory of `t`'s PGN file, if it has one.
fn path(t: &TournamentSpec, name: &str) -> Option<PathBuf> {
    let pgn = t.pgn_out.as_ref()?;
    let dir = pgn.parent().unwrap_or(Path::new(""));
    Some(dir.join(format!("{}.stderr.log", file_name(name))))
}

/// Removes the engines' logs of an earlier run: a run that replaces its
/// PGN file starts them afresh too (their blocks would name games the
/// file no longer has).
pub fn remove_all(t: &TournamentSpec) -> Result<(), String> {
    for path in t.engines.iter().filter_map(|e| path(t, &e.name)) {
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(format!("cannot remove {}: {e}", path.display()))
            }
            _ => {}
        }
    }
    Ok(())
}

/// An engine name as a file name: letters, digits, `.`, `_`, `+` and `-`
/// kept, anything else (a `/`, a space) an `_`.
fn file_name(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._+-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe.is_empty() {
        "engine".to_string()
    } else {
        safe
    }
}

/// The last [`TAIL_LINES`] non-blank lines of `stderr` for a message, as
/// `; its last standard-error lines: "a" | "b"`; empty if there are none.
pub fn tail(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let last = &lines[lines.len().saturating_sub(TAIL_LINES)..];
    match last.len() {
        0 => String::new(),
        1 => format!("; its last standard-error line: {}", quote(last[0])),
        n => format!(
            "; its last {n} standard-error lines: {}",
            last.iter()
                .map(|l| quote(l))
                .collect::<Vec<_>>()
                .join(" | ")
        ),
    }
}

/// `line` in double quotes, trimmed, for a one-line message. Braces
/// become parentheses: the message may close a game in a PGN comment,
/// which a `}` would end.
pub fn quote(line: &str) -> String {
    format!("\"{}\"", line.trim().replace('{', "(").replace('}', ")"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_safe() {
        assert_eq!(file_name("leiserchess-1.2"), "leiserchess-1.2");
        assert_eq!(file_name("my engine/v2"), "my_engine_v2");
        assert_eq!(file_name(".."), "..");
        assert_eq!(file_name(""), "engine");
    }

    #[test]
    fn the_log_is_beside_the_pgn_or_nowhere() {
        let mut t = TournamentSpec::default();
        assert_eq!(StderrLog::of(&t, "a", "x"), None);
        t.pgn_out = Some(PathBuf::from("games.pgn"));
        assert_eq!(
            StderrLog::of(&t, "a b", "x").map(|l| l.path),
            Some(PathBuf::from("a_b.stderr.log"))
        );
        t.pgn_out = Some(PathBuf::from("/tmp/run/games.pgn"));
        assert_eq!(
            StderrLog::of(&t, "a", "x").map(|l| l.path),
            Some(PathBuf::from("/tmp/run/a.stderr.log"))
        );
    }

    #[test]
    fn tails_quote_the_last_lines() {
        assert_eq!(tail(b""), "");
        assert_eq!(tail(b"\n  \n"), "");
        assert_eq!(
            tail(b"panicked at {x}\r\n"),
            "; its last standard-error line: \"panicked at (x)\""
        );
        let many: String = (1..=12).map(|i| format!("line {i}\n")).collect();
        let t = tail(many.as_bytes());
        assert!(
            t.starts_with("; its last 10 standard-error lines: \"line 3\" | \"line 4\" | "),
            "{t}"
        );
        assert!(
            t.ends_with("\"line 12\"") && !t.contains("\"line 2\""),
            "{t}"
        );
    }
}
