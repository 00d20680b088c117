//! The opening book end to end: `leiserchess book` builds it from PGN,
//! `BookFile` loads it (empty: the embedded book; a bad file keeps the book
//! in use), and with `OwnBook` (on by default) a `go` on the clock answers
//! the book's move without a search; other `go`s, and `OwnBook` off, search.

use session::Engine;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::common::{scratch, session};

const PGN: &str = "[Event \"x\"]\n[Result \"1-0\"]\n\n1. g4L b3L 2. h0R a7L 1-0\n\n\
    [Event \"x\"]\n[Result \"1-0\"]\n\n1. g4L b3L 2. h0L a7L 1-0\n";

const WAIT: Duration = Duration::from_secs(30);

/// The book of `PGN`, built by the `book` command in `dir`.
fn built_book(dir: &Path) -> PathBuf {
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, PGN).unwrap();
    let book = dir.join("book.bin");
    let out = Command::new(env!("CARGO_BIN_EXE_leiserchess"))
        .args([
            "book",
            pgn.to_str().unwrap(),
            "--out",
            book.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("book: 2 games, 2 moves in 2 positions"),
        "{text}"
    );
    book
}

#[test]
fn own_book_answers_book_moves_at_once_and_searches_otherwise() {
    let dir = scratch::dir("book");
    let book = built_book(&dir);
    let mut e = Engine::spawn();
    // OwnBook is on by default, with the embedded book: the start
    // position is in it.
    e.send("position startpos");
    e.send("go wtime 2000 btime 2000");
    let (_, line) = e.until(WAIT, |l| l.contains("book move"));
    let a = e.answer(WAIT);
    assert!(line.ends_with(&format!("book move {}", a.best)), "{line}");
    assert!(a.infos.is_empty());
    // OwnBook off: a search.
    e.send("setoption name OwnBook value false");
    e.send("go wtime 2000 btime 2000");
    assert!(!e.answer(WAIT).infos.is_empty());
    e.send(&format!("setoption name BookFile value {}", book.display()));
    let (_, line) = e.until(WAIT, |l| l.contains("book '"));
    assert!(line.contains("2 moves in 2 positions"), "{line}");
    e.send("setoption name OwnBook value true");
    e.send("go wtime 2000 btime 2000");
    let (_, line) = e.until(WAIT, |l| l.contains("book move"));
    assert!(line.ends_with("book move g4L"), "{line}");
    let a = e.answer(WAIT);
    assert_eq!((a.best.as_str(), a.infos.len()), ("g4L", 0));
    // A fixed depth is a search, book or not.
    e.send("go depth 2");
    assert!(!e.answer(WAIT).infos.is_empty());
    // Out of the book: a search.
    e.send("position startpos moves g4L c5U");
    e.send("go wtime 2000 btime 2000");
    assert!(!e.answer(WAIT).infos.is_empty());
    // A bad file is an error, and the book in use stays.
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, b"not a book").unwrap();
    e.send(&format!("setoption name BookFile value {}", junk.display()));
    let (_, line) = e.until(WAIT, |l| l.contains("error: book"));
    assert!(
        line.contains("not a book file") && line.contains("book unchanged"),
        "{line}"
    );
    e.send("position startpos moves g4L");
    e.send("go movetime 1000");
    let a = e.answer(WAIT);
    assert_eq!((a.best.as_str(), a.infos.len()), ("b3L", 0));
    // An empty BookFile brings the embedded book back.
    e.send("setoption name BookFile value");
    let (_, line) = e.until(WAIT, |l| l.contains("the embedded book"));
    assert!(line.contains("5339 moves in 4912 positions"), "{line}");
    e.quit();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_book_command_names_bad_input() {
    let dir = scratch::dir("book-bad-input");
    let out = Command::new(env!("CARGO_BIN_EXE_leiserchess"))
        .args(["book", "/nonexistent.pgn", "--out"])
        .arg(dir.join("x.bin"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot read /nonexistent.pgn"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
