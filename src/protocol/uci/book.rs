//! The opening book in the loop: `BookFile` loads it (empty: the embedded
//! book; a bad file is an error line and the book in use stays), and with
//! `OwnBook` on (the default), a `go` without a depth, nodes, mate,
//! searchmoves, infinite or ponder in a position the book knows answers
//! its move at once.

use super::go::Go;
use super::{say, Engine};
use crate::lab::book::Book;
use crate::rules::moves::Move;
use crate::user_file;
use crate::user_text::quote;

/// The largest book file `BookFile` reads: the embedded book is 96 KB.
const MAX_BOOK_BYTES: u64 = 64 << 20;

impl Engine {
    /// Loads the book `BookFile` names (the embedded one when empty). On
    /// failure the option goes back to the file in use, whose book stays.
    pub(super) fn load_book(&mut self, previous: &str, out: &mut Vec<u8>) {
        let path = self.config.book_file.clone();
        let (what, loaded) = if path.is_empty() {
            ("the embedded book".to_string(), Ok(Book::embedded()))
        } else {
            let read =
                user_file::read(&path, MAX_BOOK_BYTES).and_then(|bytes| Book::from_bytes(&bytes));
            (format!("book '{}'", quote(&path)), read)
        };
        match loaded {
            Ok(book) => {
                say(
                    out,
                    format!(
                        "{what}: {} moves in {} positions",
                        book.len(),
                        book.positions()
                    ),
                );
                self.book = book;
            }
            Err(e) => {
                say(out, format!("error: {what}: {e}; book unchanged"));
                self.config.book_file = previous.to_string();
            }
        }
    }

    /// The book's move for this `go`, if the book answers it.
    pub(super) fn book_move(&mut self, request: &Go) -> Option<Move> {
        let l = &request.limits;
        let searches_freely = l.depth.is_none()
            && l.nodes.is_none()
            && l.mate.is_none()
            && !l.infinite
            && !l.ponder
            && request.searchmoves.is_empty();
        if !self.config.own_book || self.book.is_empty() || !searches_freely {
            return None;
        }
        self.book.pick(&mut self.game, &mut self.book_rng)
    }
}
