//! What the fuzz targets share: the positions the file loaders' nets,
//! books and policies are tried on, and the caps that keep one input of the
//! UCI and GUI targets from allocating gigabytes or starting dozens of
//! threads.

use leiserchess::rules::fen;
use leiserchess::rules::game::Game;

/// An opening of `autotest/openings.txt`, whose positions the loaded files
/// are tried on: the start, and after each of its moves.
const LINE: &[&str] = &["f3f4", "d5U", "e1R", "e6U", "h0R", "e6U", "f4L", "e6f6"];

/// The games along [`LINE`], from the start position on: one a ply.
pub fn walk() -> Vec<Game> {
    let mut game = Game::from_fen(fen::STARTPOS).expect("the start position parses");
    let mut games = vec![game.clone()];
    for m in LINE {
        game.play_text(m).expect("the opening's moves are legal");
        games.push(game.clone());
    }
    games
}

/// The options whose values cost memory or threads, each with the largest
/// value the targets let through: the table's megabytes, the threads, the
/// MCTS tree's megabytes.
const CAPS: &[(&str, u64)] = &[("hash", 4), ("threads", 2), ("mcts_tree_mb", 16)];

/// The value to send instead of `value` for option `name`: the cap, when
/// `name` is capped and `value` is a whole number above it as the engine
/// reads one (an optional sign, digits; more digits than fit clamp too).
pub fn capped(name: &str, value: &str) -> Option<String> {
    let (_, cap) = CAPS.iter().find(|(n, _)| n.eq_ignore_ascii_case(name))?;
    let digits = value.strip_prefix('+').unwrap_or(value);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = digits.parse::<u128>().unwrap_or(u128::MAX);
    (n > u128::from(*cap)).then(|| cap.to_string())
}
