//! The two PGN readers on any text: autotest's (`-resume`, `autotest stats
//! --pgn`), whose games' texts put together must be the text from the
//! first game on, with a player's tally over them; and the opening book's
//! (`leiserchess book`), whose games are then played into a book that must
//! read back from its own bytes.

#![no_main]

use autotest::pgn::player_results::tally;
use autotest::pgn::read::parse;
use leiserchess::lab::book::{read_pgn, Book};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Both read files as `String::from_utf8_lossy` does.
    let text = String::from_utf8_lossy(data);
    let games = parse(&text);
    let texts: String = games.iter().map(|g| g.text.as_str()).collect();
    assert!(
        text.ends_with(&texts),
        "the games' texts are not the file's end"
    );
    for g in &games {
        if let Some(r) = g.result() {
            assert!(matches!(r, "1-0" | "0-1" | "1/2-1/2"), "result {r}");
        }
    }
    if let Some(player) = games.first().and_then(|g| g.tag("White")) {
        tally(std::slice::from_ref(&games), player);
    }
    let Ok(book_games) = read_pgn(&text) else {
        return;
    };
    if let Ok(book) = Book::build(&book_games, 16, 1) {
        assert_eq!(Book::from_bytes(&book.to_bytes()).as_ref(), Ok(&book));
    }
});
