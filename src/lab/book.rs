//! The opening book: positions of self-play games with, for each move
//! played there, how often and how well (`leiserchess book` builds it from
//! PGN files; the engine reads it with the `BookFile` option and plays
//! from it with `OwnBook`).
//!
//! File: the 8 bytes `LBOOK1\0\0`, then 18-byte entries sorted by key then
//! move, little endian: the position's Zobrist key (u64), the move's bits
//! (u16, `Move::bits`), the games that played it there (u32), and the
//! points those games gave the mover, doubled (u32: 2 a win, 1 a draw).

use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use clap::builder::RangedU64ValueParser;
use clap::value_parser;
use std::collections::BTreeMap;
use std::path::PathBuf;

const MAGIC: &[u8; 8] = b"LBOOK1\0\0";
const ENTRY: usize = 18;

/// The book built into the engine, the default of `BookFile`: the first 20
/// plies of 1,574 games of the net against itself at 2+0.02, from the
/// openings of `autotest/openings.txt` (BENCHMARKS.md "The opening book").
const EMBEDDED: &[u8] = include_bytes!("default.book");

/// How far below the best move's lower bound a book move may rank and
/// still be played: some variety, no known-worse moves.
const PICK_MARGIN: f64 = 0.05;

/// One move of one position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    pub key: u64,
    pub mv: Move,
    pub games: u32,
    /// Twice the points the mover scored in those games.
    pub points2: u32,
}

impl Entry {
    /// The mover's mean score with this move, 0..=1.
    pub fn score(&self) -> f64 {
        self.points2 as f64 / (2.0 * self.games as f64)
    }

    /// The lower end of the score's Wilson interval at one standard error:
    /// a move won in its only 2 games ranks below one that scored 80% in 60.
    pub fn lower_bound(&self) -> f64 {
        let (n, p) = (self.games as f64, self.score());
        let z2 = 1.0;
        (p + z2 / (2.0 * n) - (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt()) / (1.0 + z2 / n)
    }
}

/// A game as the book learns it: the start, the moves, the result.
#[derive(Clone, Debug, PartialEq)]
pub struct BookGame {
    /// The FEN of the start (the start position if the PGN names none).
    pub fen: String,
    pub moves: Vec<String>,
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// The book of `games`' first `plies` plies, keeping the moves played
    /// in at least `min_games` games.
    pub fn build(games: &[BookGame], plies: usize, min_games: u32) -> Result<Book, String> {
        let mut stats: BTreeMap<(u64, u16), (u32, u32)> = BTreeMap::new();
        for (n, g) in games.iter().enumerate() {
            let mut game = Game::from_fen(&g.fen).map_err(|e| {
                format!(
                    "game {}: bad FEN '{}': {e}",
                    n + 1,
                    crate::user_text::quote(&g.fen)
                )
            })?;
            for text in g.moves.iter().take(plies) {
                let key = game.board().key();
                let mover = game.board().side();
                let m = game
                    .play_text(text)
                    .map_err(|e| format!("game {}: {e}", n + 1))?;
                let points2 = match g.winner {
                    None => 1,
                    Some(w) if w == mover => 2,
                    Some(_) => 0,
                };
                let s = stats.entry((key, m.bits())).or_default();
                s.0 += 1;
                s.1 += points2;
                if game.is_over() {
                    break;
                }
            }
        }
        let entries = stats
            .into_iter()
            .filter(|(_, (games, _))| *games >= min_games)
            .map(|((key, bits), (games, points2))| Entry {
                key,
                mv: Move::from_bits(bits).expect("a played move's bits"),
                games,
                points2,
            })
            .collect();
        Ok(Book { entries })
    }

    /// The book built into the engine.
    pub fn embedded() -> Book {
        Book::from_bytes(EMBEDDED).expect("the embedded book is well formed")
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many positions the book has moves for.
    pub fn positions(&self) -> usize {
        self.entries
            .windows(2)
            .filter(|w| w[0].key != w[1].key)
            .count()
            + usize::from(!self.is_empty())
    }

    /// The moves the book has for the position with `key`.
    pub fn moves(&self, key: u64) -> &[Entry] {
        let from = self.entries.partition_point(|e| e.key < key);
        let to = self.entries.partition_point(|e| e.key <= key);
        &self.entries[from..to]
    }

    /// A book move for the game's position: among the legal moves the book
    /// has, those whose [`Entry::lower_bound`] is within [`PICK_MARGIN`] of
    /// the best one's, drawn by how often they were played; `None` if the
    /// book has none.
    pub fn pick(&self, game: &mut Game, rng: &mut fastrand::Rng) -> Option<Move> {
        let legal = game.legal_moves();
        let known: Vec<&Entry> = self
            .moves(game.board().key())
            .iter()
            .filter(|e| legal.contains(&e.mv))
            .collect();
        let best = known
            .iter()
            .map(|e| e.lower_bound())
            .fold(f64::NAN, f64::max);
        let good: Vec<&&Entry> = known
            .iter()
            .filter(|e| e.lower_bound() >= best - PICK_MARGIN)
            .collect();
        let total: u64 = good.iter().map(|e| e.games as u64).sum();
        if total == 0 {
            return None;
        }
        let mut at = rng.u64(..total);
        for e in &good {
            if at < e.games as u64 {
                return Some(e.mv);
            }
            at -= e.games as u64;
        }
        unreachable!("the draw falls within the total")
    }

    /// The book as its file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for e in &self.entries {
            out.extend_from_slice(&e.key.to_le_bytes());
            out.extend_from_slice(&e.mv.bits().to_le_bytes());
            out.extend_from_slice(&e.games.to_le_bytes());
            out.extend_from_slice(&e.points2.to_le_bytes());
        }
        out
    }

    /// The book of a file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, String> {
        let body = bytes
            .strip_prefix(MAGIC.as_slice())
            .ok_or("not a book file (no LBOOK1 header)")?;
        if body.len() % ENTRY != 0 {
            return Err(format!(
                "the book ends {} bytes into an entry of {ENTRY}",
                body.len() % ENTRY
            ));
        }
        let mut entries = Vec::with_capacity(body.len() / ENTRY);
        for (i, c) in body.chunks_exact(ENTRY).enumerate() {
            let u32_at = |a: usize| u32::from_le_bytes(c[a..a + 4].try_into().expect("4 bytes"));
            let bits = u16::from_le_bytes([c[8], c[9]]);
            let e = Entry {
                key: u64::from_le_bytes(c[0..8].try_into().expect("8 bytes")),
                mv: Move::from_bits(bits)
                    .ok_or(format!("entry {i}: move bits {bits:#06x} are no move"))?,
                games: u32_at(10),
                points2: u32_at(14),
            };
            // In 64 bits: twice a count of 2^31 games or more overflows 32.
            if e.games == 0 || u64::from(e.points2) > 2 * u64::from(e.games) {
                return Err(format!(
                    "entry {i}: {} points in {} games",
                    e.points2, e.games
                ));
            }
            if entries
                .last()
                .is_some_and(|p: &Entry| (p.key, p.mv.bits()) >= (e.key, bits))
            {
                return Err(format!("entry {i}: out of order"));
            }
            entries.push(e);
        }
        Ok(Book { entries })
    }
}

/// The games of a PGN text (the tags `FEN` and `Result`, and the
/// movetext: move numbers, `{…}` comments and the result are skipped).
pub fn read_pgn(text: &str) -> Result<Vec<BookGame>, String> {
    let mut games = Vec::new();
    let mut fen = None;
    let mut result = None;
    let mut moves = Vec::new();
    let mut in_moves = false;
    let mut finish =
        |fen: &mut Option<String>, result: &mut Option<String>, moves: &mut Vec<String>| {
            if moves.is_empty() && result.is_none() {
                return Ok(());
            }
            let winner = match result.take().as_deref() {
                Some("1-0") => Some(Color::White),
                Some("0-1") => Some(Color::Black),
                Some("1/2-1/2") => None,
                other => {
                    return Err(format!(
                        "game {}: result {other:?}, not 1-0, 0-1 or 1/2-1/2",
                        games.len() + 1
                    ))
                }
            };
            games.push(BookGame {
                fen: fen
                    .take()
                    .unwrap_or_else(|| crate::rules::fen::STARTPOS.to_string()),
                moves: std::mem::take(moves),
                winner,
            });
            Ok(())
        };
    let mut comment = false;
    for line in text.lines() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix('[').filter(|_| !comment) {
            if in_moves {
                finish(&mut fen, &mut result, &mut moves)?;
                in_moves = false;
            }
            let (name, value) = tag.split_once(' ').unwrap_or((tag, ""));
            let value = value.trim_end_matches(']').trim_matches('"').to_string();
            match name {
                "FEN" => fen = Some(value),
                "Result" => result = Some(value),
                _ => {}
            }
            continue;
        }
        for word in line.split_whitespace() {
            if comment {
                comment = !word.contains('}');
                continue;
            }
            if word.starts_with('{') {
                comment = !word.contains('}');
                continue;
            }
            in_moves = true;
            let is_number = word
                .trim_end_matches('.')
                .chars()
                .all(|c| c.is_ascii_digit());
            if !(is_number || ["1-0", "0-1", "1/2-1/2", "*"].contains(&word)) {
                moves.push(word.to_string());
            }
        }
    }
    finish(&mut fen, &mut result, &mut moves)?;
    Ok(games)
}

/// Build an opening book from the games of PGN files.
///
/// The book holds the moves of the games' first plies played in enough
/// games, with their scores; the engine plays it with BookFile and OwnBook.
#[derive(clap::Parser, Debug)]
#[command(name = "book")]
pub struct Args {
    /// The games.
    #[arg(value_name = "PGN", required = true)]
    pub files: Vec<PathBuf>,
    /// The book file written.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Plies of each game the book takes, 1..200.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 16,
        value_parser = RangedU64ValueParser::<usize>::new().range(1..=200),
        allow_negative_numbers = true,
    )]
    pub plies: usize,
    /// Games a move must be played in to be kept.
    #[arg(
        long,
        value_name = "M",
        default_value_t = 2,
        value_parser = value_parser!(u32).range(1..),
        allow_negative_numbers = true,
    )]
    pub min_games: u32,
}

/// `leiserchess book …`.
pub fn command(a: &Args) -> Result<(), String> {
    let mut games = Vec::new();
    for path in &a.files {
        let name = path.display();
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
        games.extend(read_pgn(&text).map_err(|e| format!("{name}: {e}"))?);
    }
    let book = Book::build(&games, a.plies, a.min_games)?;
    let out = a.out.display();
    std::fs::write(&a.out, book.to_bytes()).map_err(|e| format!("cannot write {out}: {e}"))?;
    println!(
        "book: {} games, {} moves in {} positions, written to {out}",
        games.len(),
        book.len(),
        book.positions()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen;

    const PGN: &str = "[Event \"x\"]\n[Result \"1-0\"]\n\n1. g4L b3L {book} 2. h0R {0.5 7 123}\na7L 1-0\n\n\
        [Event \"x\"]\n[Result \"1/2-1/2\"]\n\n1. g4L b3L 2. h0L {a comment\nover two lines} a7L 1/2-1/2\n\n\
        [Event \"x\"]\n[Result \"0-1\"]\n\n1. g4L c5U 0-1\n";

    #[test]
    fn pgn_games_are_read_with_results() {
        let games = read_pgn(PGN).unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].moves, ["g4L", "b3L", "h0R", "a7L"]);
        assert_eq!(games[1].moves, ["g4L", "b3L", "h0L", "a7L"]);
        assert_eq!(
            games.iter().map(|g| g.winner).collect::<Vec<_>>(),
            [Some(Color::White), None, Some(Color::Black)]
        );
        assert!(read_pgn("[Result \"2-0\"]\n\n1. g4L 2-0\n").is_err());
    }

    #[test]
    fn the_book_counts_moves_and_round_trips() {
        let book = Book::build(&read_pgn(PGN).unwrap(), 3, 1).unwrap();
        let start = fen::parse(fen::STARTPOS).unwrap();
        let first = book.moves(start.key());
        assert_eq!(first.len(), 1);
        assert_eq!((first[0].games, first[0].points2), (3, 3));
        let again = Book::from_bytes(&book.to_bytes()).unwrap();
        assert_eq!(again, book);
        // Two plies in: after g4L, b3L (2 games, 1½ points) and c5U (1 game, won).
        let mut g = Game::from_fen(fen::STARTPOS).unwrap();
        g.play_text("g4L").unwrap();
        let replies = book.moves(g.board().key());
        assert_eq!(replies.len(), 2);
        let c5u = replies.iter().find(|e| e.mv.to_string() == "c5U").unwrap();
        assert_eq!(c5u.score(), 1.0);
        // With min_games 2 only the moves two games played stay.
        let common = Book::build(&read_pgn(PGN).unwrap(), 3, 2).unwrap();
        assert!(common.moves(g.board().key()).iter().all(|e| e.games >= 2));
    }

    #[test]
    fn pick_plays_the_best_scoring_legal_move() {
        let book = Book::build(&read_pgn(PGN).unwrap(), 3, 1).unwrap();
        let mut rng = fastrand::Rng::with_seed(1);
        let mut g = Game::from_fen(fen::STARTPOS).unwrap();
        assert_eq!(book.pick(&mut g, &mut rng).unwrap().to_string(), "g4L");
        g.play_text("g4L").unwrap();
        // c5U scored 1.0, b3L 0.25 for Lavender: only c5U is good enough.
        for _ in 0..20 {
            assert_eq!(book.pick(&mut g, &mut rng).unwrap().to_string(), "c5U");
        }
        g.play_text("c5U").unwrap();
        assert_eq!(book.pick(&mut g, &mut rng), None);
    }

    #[test]
    fn the_embedded_book_is_whole_and_answers_the_start() {
        let book = Book::embedded();
        // `leiserchess book` reported these when it wrote the file.
        assert_eq!((book.len(), book.positions()), (5339, 4912));
        assert_eq!(book.to_bytes(), EMBEDDED);
        let mut g = Game::from_fen(fen::STARTPOS).unwrap();
        let mut rng = fastrand::Rng::with_seed(1);
        let m = book.pick(&mut g, &mut rng).expect("a move at the start");
        assert!(g.legal_moves().contains(&m));
    }

    #[test]
    fn pick_trusts_many_games_over_a_lucky_few() {
        let mut g = Game::from_fen(fen::STARTPOS).unwrap();
        let legal = g.legal_moves();
        let key = g.board().key();
        let entry = |mv, games, points2| Entry {
            key,
            mv,
            games,
            points2,
        };
        // Won both its games (lower bound 0.67) against 80% of 60 (0.74).
        let mut entries = vec![entry(legal[0], 2, 4), entry(legal[1], 60, 96)];
        entries.sort_by_key(|e| (e.key, e.mv.bits()));
        let book = Book { entries };
        let mut rng = fastrand::Rng::with_seed(3);
        for _ in 0..20 {
            assert_eq!(book.pick(&mut g, &mut rng), Some(legal[1]));
        }
    }

    #[test]
    fn bad_book_files_are_named() {
        assert!(Book::from_bytes(b"nonsense")
            .unwrap_err()
            .contains("not a book"));
        let book = Book::build(&read_pgn(PGN).unwrap(), 3, 1).unwrap();
        let mut bytes = book.to_bytes();
        bytes.pop();
        assert!(Book::from_bytes(&bytes)
            .unwrap_err()
            .contains("ends 17 bytes"));
        let mut bytes = book.to_bytes();
        bytes[8 + 14] = 0xff;
        assert!(Book::from_bytes(&bytes).unwrap_err().contains("entry 0"));
    }

    /// A move played in 2^31 games or more (the fuzz target `book` found
    /// the overflow): its points, at most twice its games, are checked
    /// without overflowing, and too many points are still refused.
    #[test]
    fn entries_of_billions_of_games_load() {
        let mv = Move::parse("g4L").unwrap();
        let file = |games, points2| {
            let entries = vec![Entry {
                key: 1,
                mv,
                games,
                points2,
            }];
            Book { entries }.to_bytes()
        };
        for games in [1 << 31, u32::MAX] {
            let book = Book::from_bytes(&file(games, u32::MAX)).unwrap();
            assert_eq!(book.moves(1)[0].games, games);
            assert!(book.moves(1)[0].score() <= 1.0);
        }
        let too_many = Book::from_bytes(&file(3, 7)).unwrap_err();
        assert_eq!(too_many, "entry 0: 7 points in 3 games");
    }
}
