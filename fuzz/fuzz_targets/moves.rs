//! Move notation, and moves played on a game: the first line is a FEN when
//! it parses as one (else the game starts from the start position and the
//! first line holds moves too); every white-space separated word after it
//! is parsed with `Move::parse` and played with `Game::play_text`. A parsed
//! move must read back from its own text and bits; a played one must
//! leave the board's invariants whole; a refused one must be explained.

#![no_main]

use leiserchess::rules::fen;
use leiserchess::rules::game::{Game, MoveError, Outcome};
use leiserchess::rules::moves::Move;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let (mut game, moves) = match Game::from_fen(first) {
        Ok(g) => (g, rest),
        Err(_) => (Game::from_fen(fen::STARTPOS).unwrap(), text),
    };
    for word in moves.split_whitespace() {
        let parsed = Move::parse(word);
        if let Ok(m) = parsed {
            assert_eq!(Move::parse(&m.to_string()), Ok(m), "{word}");
            assert_eq!(Move::from_bits(m.bits()), Some(m), "{word}");
        }
        match game.play_text(word) {
            Ok(m) => {
                assert_eq!(parsed, Ok(m), "{word}");
                let zapped = matches!(game.outcome(), Some(Outcome::KingZapped { .. }));
                if let Err(e) = game.board().check_rep_with(zapped) {
                    panic!("{word} left a broken board: {e}");
                }
            }
            Err(MoveError::NotAvailable(m)) => assert!(!game.why_unavailable(m).is_empty()),
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
});
