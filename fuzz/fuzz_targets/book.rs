//! The opening book loader (`BookFile`): `Book::from_bytes` on any bytes.
//! The format has one spelling per book, so a book that loads must write
//! back exactly the input; it is then asked for moves, and picks one as
//! `OwnBook` does, on the positions of an opening.

#![no_main]

use leiserchess::lab::book::Book;
use leiserchess_fuzz::walk;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let book = match Book::from_bytes(data) {
        Ok(book) => book,
        Err(e) => return assert!(!e.is_empty()),
    };
    assert_eq!(book.to_bytes(), data);
    assert!(book.positions() <= book.len());
    let mut rng = fastrand::Rng::with_seed(1);
    for mut game in walk() {
        for e in book.moves(game.board().key()) {
            assert!((0.0..=1.0).contains(&e.score()), "{e:?}");
        }
        if let Some(m) = book.pick(&mut game, &mut rng) {
            assert!(game.legal_moves().contains(&m), "picked {m}");
        }
    }
});
