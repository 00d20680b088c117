//! Openings: where each game starts.
//!
//! An openings file holds one opening a line, in one of two forms:
//!
//! - a move list from the start position, moves separated by white space
//!   (the course's book format): `g4L b3L h0R`;
//! - a FEN, `<board> <W|B>`, optionally followed by `moves m1 m2 ...`:
//!   `ss7/8/8/8/8/8/8/7NN B moves a7b7`.
//!
//! A line is a FEN when its first token contains `/`. Blank lines and lines
//! starting with `#` are skipped. Every opening is checked by playing it on
//! the rules code; a bad line is an error naming the file and line.
//! [`generate`] makes balanced openings, which `autotest openings` prints
//! as such a file.

use crate::config::spec::TournamentSpec;
use crate::referee::record::Start;
use leiserchess::rules::fen;
use leiserchess::rules::game::Game;
use leiserchess::search::pvs::search_depth;
use leiserchess::search::{Params, Root};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// A start position and the moves played from it before the engines take
/// over.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Opening {
    pub start: Start,
    pub moves: Vec<String>,
}

impl Opening {
    /// The start position with no moves.
    pub fn startpos() -> Opening {
        Opening {
            start: Start::StartPos,
            moves: Vec::new(),
        }
    }

    /// The opening played out: the game after its moves, or what is wrong
    /// with it (a bad FEN, an illegal move, or the game over at its end).
    pub fn play(&self) -> Result<Game, String> {
        let mut game = start_game(&self.start)?;
        for (i, m) in self.moves.iter().enumerate() {
            game.play_text(m)
                .map_err(|e| format!("move {} '{m}': {e}", i + 1))?;
        }
        match game.outcome() {
            Some(o) => Err(format!("the game is over after the opening ({o})")),
            None => Ok(game),
        }
    }
}

/// A generated opening is kept only if a shallow search of its final
/// position scores within this many centipawns of even (either side).
pub const BALANCE_CP: i32 = 50;

/// Depth of that search (one thread, a fresh small table per position, so
/// the verdict depends only on the position and its history).
pub const BALANCE_DEPTH: u32 = 3;

/// Table size of that search, in MB.
const BALANCE_HASH_MB: usize = 1;

/// Random tries per opening asked for before `generate` gives up.
const TRIES_PER_OPENING: usize = 200;

fn start_game(start: &Start) -> Result<Game, String> {
    match start {
        Start::StartPos => Ok(Game::from_fen(fen::STARTPOS).expect("the start position parses")),
        Start::Fen(f) => Game::from_fen(f).map_err(|e| format!("bad FEN '{f}': {e}")),
    }
}

/// Reads an openings file. `plies` keeps only that many moves of each line
/// (from the start position, or after the FEN). Every line is validated:
/// all of its moves legal (Ko included), and the game not over at the
/// (truncated) end. An error names the file, the line and the problem; a
/// file with no openings is an error.
pub fn load(path: &Path, plies: Option<usize>) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read openings file {}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let o = parse_line(line, plies)
            .map_err(|e| format!("{}, line {}: {e}", path.display(), i + 1))?;
        out.push(o);
    }
    if out.is_empty() {
        return Err(format!("{}: no openings in the file", path.display()));
    }
    Ok(out)
}

/// The openings of a tournament, in the order its games take them: the
/// file's (none without one), shuffled by the seed with `order=random`.
/// Every run of the same spec (a cluster's tasks too) gets the same list.
pub fn book(spec: &TournamentSpec) -> Result<Vec<Opening>, String> {
    let mut book = match &spec.openings.file {
        Some(path) => load(path, spec.openings.plies)?,
        None => Vec::new(),
    };
    if spec.openings.random {
        fastrand::Rng::with_seed(spec.seed).shuffle(&mut book);
    }
    Ok(book)
}

/// One line of an openings file (not blank, not a comment), validated.
fn parse_line(line: &str, plies: Option<usize>) -> Result<Opening, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let (start, moves) = if tokens[0].contains('/') {
        let side = tokens
            .get(1)
            .ok_or_else(|| format!("FEN '{}' has no side to move (W or B)", tokens[0]))?;
        // Files written for chess tools say `w`/`b`; the engine's FEN
        // (PROTOCOL.md) says `W`/`B` only, so the file's side is read as
        // either and written as the engine reads it.
        let text = format!("{} {}", tokens[0], side.to_ascii_uppercase());
        let board = fen::parse(&text).map_err(|e| format!("bad FEN '{text}': {e}"))?;
        let canonical = fen::to_fen(&board);
        let start = if canonical == fen::STARTPOS {
            Start::StartPos
        } else {
            Start::Fen(canonical)
        };
        match tokens.get(2) {
            None => (start, &[][..]),
            Some(&"moves") => (start, &tokens[3..]),
            Some(other) => return Err(format!("expected 'moves' after the FEN, found '{other}'")),
        }
    } else {
        (Start::StartPos, &tokens[..])
    };
    // Play every move written, so that a bad move is reported even past the
    // truncation; the game must not be over at the truncated end.
    let keep = plies.map_or(moves.len(), |p| p.min(moves.len()));
    let mut game = start_game(&start)?;
    let mut kept = Vec::with_capacity(keep);
    for (i, text) in moves.iter().enumerate() {
        if i == keep {
            if let Some(o) = game.outcome() {
                return Err(format!("the game is over after {keep} moves ({o})"));
            }
        }
        let m = game
            .play_text(text)
            .map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        if i < keep {
            kept.push(m.to_string());
        }
    }
    if keep == moves.len() {
        if let Some(o) = game.outcome() {
            return Err(format!("the game is over after the opening ({o})"));
        }
    }
    Ok(Opening { start, moves: kept })
}

/// The score of a fixed-depth search of `game`'s position, in centipawns
/// from the side to move's view (one thread, a fresh small table).
pub fn balance_score(game: &Game, depth: u32) -> i32 {
    let answer = search_depth(
        &Root::from_game(game),
        depth,
        Params::default(),
        BALANCE_HASH_MB,
        4,
    );
    answer.last.map_or(0, |it| it.score)
}

/// Generates up to `count` distinct openings of exactly `plies` moves from
/// the start position: random legal moves (never one that zaps a King),
/// kept when a depth-`BALANCE_DEPTH` search of the final position scores
/// within ±`BALANCE_CP`. Distinct by the final position's Zobrist key.
/// Deterministic for a `seed`; gives up after `TRIES_PER_OPENING × count`
/// random games and returns what it found.
pub fn generate(count: usize, plies: usize, seed: u64) -> Vec<Opening> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::with_capacity(count);
    let mut kept: HashSet<u64> = HashSet::new();
    // Final positions already judged unbalanced (no second search).
    let mut judged: HashMap<u64, bool> = HashMap::new();
    for _ in 0..count.saturating_mul(TRIES_PER_OPENING) {
        if out.len() == count {
            break;
        }
        let Some(game) = random_game(&mut rng, plies) else {
            continue;
        };
        let key = game.board().key();
        if kept.contains(&key) {
            continue;
        }
        let balanced = *judged
            .entry(key)
            .or_insert_with(|| balance_score(&game, BALANCE_DEPTH).abs() <= BALANCE_CP);
        if balanced {
            kept.insert(key);
            out.push(Opening {
                start: Start::StartPos,
                moves: game.moves().iter().map(|m| m.to_string()).collect(),
            });
        }
    }
    out
}

/// `plies` random legal moves from the start position, none zapping a
/// King; `None` if the game ends or no such move is left on the way.
fn random_game(rng: &mut fastrand::Rng, plies: usize) -> Option<Game> {
    let mut game = start_game(&Start::StartPos).expect("the start position parses");
    for _ in 0..plies {
        let mut board = game.board().clone();
        let safe: Vec<_> = game
            .legal_moves()
            .into_iter()
            .filter(|&m| {
                let undo = board.make(m);
                board.unmake(m, undo);
                !undo.king_zapped()
            })
            .collect();
        if safe.is_empty() {
            return None;
        }
        let m = safe[rng.usize(..safe.len())];
        game.play(m).ok()?;
        if game.outcome().is_some() {
            return None;
        }
    }
    Some(game)
}

/// `autotest openings`' command line.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct OpeningsArgs {
    /// How many openings
    #[arg(default_value_t = 100)]
    pub n: usize,
    /// Plies (half-moves) in each
    #[arg(default_value_t = 8)]
    pub plies: usize,
    /// The seed of the random moves: the same seed, the same openings
    #[arg(default_value_t = 1)]
    pub seed: u64,
}

/// `autotest openings`: the openings, a line each.
pub fn command(args: &OpeningsArgs) -> String {
    generate(args.n, args.plies, args.seed)
        .iter()
        .map(|o| to_line(o) + "\n")
        .collect()
}

/// An opening as one line of an openings file, the line `load` reads back:
/// the moves separated by spaces, or `FEN moves m1 m2 ...` (the FEN alone
/// without moves). The start position with no moves is written as its FEN,
/// since an empty line would be skipped.
pub fn to_line(o: &Opening) -> String {
    match (&o.start, o.moves.is_empty()) {
        (Start::StartPos, false) => o.moves.join(" "),
        (Start::StartPos, true) => fen::STARTPOS.to_string(),
        (Start::Fen(f), true) => f.clone(),
        (Start::Fen(f), false) => format!("{f} moves {}", o.moves.join(" ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A temporary file in the tests' scratch directory, removed when
    /// dropped.
    struct TempFile(PathBuf);

    impl TempFile {
        fn new(contents: &str) -> TempFile {
            static N: AtomicUsize = AtomicUsize::new(0);
            static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
            let dir = DIR.get_or_init(|| crate::scratch::dir("openings"));
            let path = dir.join(format!("{}.txt", N.fetch_add(1, Ordering::Relaxed)));
            std::fs::write(&path, contents).unwrap();
            TempFile(path)
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    fn moves(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn load_and_to_line_round_trip() {
        let book = vec![
            Opening {
                start: Start::StartPos,
                moves: moves(&["g4L", "b3L"]),
            },
            Opening {
                start: Start::Fen("ss7/8/8/8/8/8/8/7NN B".to_string()),
                moves: moves(&["a7b7", "h0g0"]),
            },
            Opening {
                start: Start::Fen("ss7/8/8/8/8/8/8/7NN W".to_string()),
                moves: Vec::new(),
            },
            Opening::startpos(),
        ];
        let text: String = book.iter().map(|o| to_line(o) + "\n").collect();
        let f = TempFile::new(&format!("# a comment\n\n{text}"));
        assert_eq!(load(&f.0, None).unwrap(), book);
        // Case-insensitive input comes back canonical.
        let f = TempFile::new("G4l   B3l\n");
        let loaded = load(&f.0, None).unwrap();
        assert_eq!(loaded[0].moves, moves(&["g4L", "b3L"]));
        assert_eq!(to_line(&loaded[0]), "g4L b3L");
    }

    #[test]
    fn an_illegal_move_is_rejected_with_its_line_number() {
        let f = TempFile::new("# book\ng4L b3L\n\ng4L a0a1\n");
        let err = load(&f.0, None).unwrap_err();
        assert!(err.contains(&f.0.display().to_string()), "{err}");
        assert!(err.contains("line 4"), "{err}");
        assert!(err.contains("move 2 'a0a1'"), "{err}");
        // Past the truncation, too: a bad line never silently vanishes.
        assert!(load(&f.0, Some(1)).unwrap_err().contains("line 4"));
        // The Ko rule: undoing the opponent's last move.
        let f = TempFile::new("ww7/8/8/3nw4/3NW4/8/8/7EE W moves d3d4e3 d3e3d4\n");
        let err = load(&f.0, None).unwrap_err();
        assert!(err.contains("line 1") && err.contains("Ko"), "{err}");
        // A finished game: Tangerine zaps Lavender's King.
        let f = TempFile::new("8/8/8/8/8/8/8/nn6NN W moves h0L\n");
        let err = load(&f.0, None).unwrap_err();
        assert!(err.contains("over"), "{err}");
        // Bad FENs, stray words, empty files.
        for bad in [
            "ss7/8/8/8/8/8/8/7NN",
            "ss7/8/8/8/8/8/8/7NX W",
            "ss7/8/8/8/8/8/8/7NN W h0R",
        ] {
            let f = TempFile::new(bad);
            assert!(load(&f.0, None).unwrap_err().contains("line 1"), "{bad}");
        }
        let f = TempFile::new("# nothing\n\n");
        assert!(load(&f.0, None).unwrap_err().contains("no openings"));
        assert!(load(Path::new("/nonexistent/openings.txt"), None).is_err());
    }

    #[test]
    fn a_fen_line() {
        let f = TempFile::new("  ss7/8/8/8/8/8/8/7NN b moves A7B7 h0g0  \n");
        let o = &load(&f.0, None).unwrap()[0];
        assert_eq!(o.start, Start::Fen("ss7/8/8/8/8/8/8/7NN B".to_string()));
        assert_eq!(o.moves, moves(&["a7b7", "h0g0"]));
        assert_eq!(to_line(o), "ss7/8/8/8/8/8/8/7NN B moves a7b7 h0g0");
        // The start position's FEN is the start position.
        let f = TempFile::new(&format!("{} moves g4L\n", fen::STARTPOS));
        assert_eq!(
            load(&f.0, None).unwrap()[0],
            Opening {
                start: Start::StartPos,
                moves: moves(&["g4L"]),
            }
        );
    }

    #[test]
    fn plies_truncate_move_lists() {
        let f = TempFile::new("g4L b3L h0R a7L\nss7/8/8/8/8/8/8/7NN W moves h0g0 a7b7 g0g1\nf3L\n");
        let book = load(&f.0, Some(2)).unwrap();
        assert_eq!(book[0].moves, moves(&["g4L", "b3L"]));
        assert_eq!(book[1].moves, moves(&["h0g0", "a7b7"]));
        assert_eq!(book[2].moves, moves(&["f3L"]));
        assert_eq!(load(&f.0, Some(0)).unwrap()[0], Opening::startpos());
        // A line whose game ends after the truncation point is fine.
        let f = TempFile::new("8/8/8/8/8/8/8/nn6NN W moves h0R a0L h0U\n");
        assert!(load(&f.0, None).unwrap_err().contains("over"));
        assert!(load(&f.0, Some(2)).is_ok());
    }

    #[test]
    fn generated_openings_are_distinct_and_balanced() {
        let (count, plies) = (6, 6);
        let book = generate(count, plies, 7);
        assert_eq!(book.len(), count);
        let mut keys = HashSet::new();
        for o in &book {
            assert_eq!(o.start, Start::StartPos);
            assert_eq!(o.moves.len(), plies);
            let game = o.play().unwrap();
            assert!(keys.insert(game.board().key()), "duplicate {}", to_line(o));
            let score = balance_score(&game, BALANCE_DEPTH);
            assert!(score.abs() <= BALANCE_CP, "{}: {score}", to_line(o));
            // And it reads back.
            assert_eq!(parse_line(&to_line(o), None).unwrap(), *o);
        }
    }

    #[test]
    fn generate_is_deterministic_for_a_seed() {
        let a = generate(4, 4, 42);
        assert_eq!(a, generate(4, 4, 42));
        assert_ne!(a, generate(4, 4, 43));
        assert!(generate(0, 8, 1).is_empty());
    }
}
