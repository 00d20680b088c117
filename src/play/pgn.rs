//! PGN's Standard style, the one writer of autotest's `-pgnout` files and
//! the browser GUI's downloads, and the pieces autotest's course style
//! shares with it (tags, move numbers, dates).
//!
//! Chess PGN's export layout adapted to Leiserchess. Tags: the seven-tag
//! roster (`Event`, `Site`, `Date`, `Round`, `White`, `Black`, `Result`),
//! then `SetUp "1"` and `FEN` when the game started from a FEN,
//! `Termination`, `PlyCount` and, when the game had book moves, `Opening`
//! (the book moves separated by spaces).
//!
//! Movetext: the book moves (a `{book}` comment after the last one), then
//! the played moves, each followed by `{time depth nodes}` (seconds with
//! three decimals; `-` for what the player did not say), numbered as in
//! chess (`1. g4L {book} b3L {0.512 7 12345} 2. ...`; a game starting with
//! Lavender to move begins `1... m`); then how the game ended as a comment
//! and the result. Lines are at most 80 columns, and a blank line ends the
//! game.

use crate::rules::fen;
use crate::rules::piece::Color;

/// Standard movetext lines are at most this long.
pub const WIDTH: usize = 80;

/// One move with what its player said about it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveRecord {
    pub text: String,
    /// From the request for the move to the move (`go` to `bestmove`).
    pub time_ns: u64,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The last score the engine reported for it, centipawns from its own
    /// view (autotest counts a mate as `±adjudication::MATE_CP`).
    pub score: Option<i32>,
}

/// One game as the Standard style writes it.
pub struct Standard<'a> {
    pub event: &'a str,
    pub round: &'a str,
    pub white: &'a str,
    pub black: &'a str,
    /// The FEN the game started from; `None` for the start position.
    pub fen: Option<&'a str>,
    /// Moves of the opening book, played before the players took over.
    pub opening: &'a [String],
    pub moves: &'a [MoveRecord],
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for a game without a result.
    pub result: &'a str,
    /// The `Termination` tag's value (`normal`, `adjudication`, …).
    pub termination_tag: &'a str,
    /// How the game ended, in words: the comment before the result.
    pub termination: &'a str,
    /// Unix time the game started (for the `Date` tag).
    pub started_unix: u64,
    /// Tags of the program's own after the standard ones, in order.
    pub extra: &'a [(String, String)],
}

/// The game in the Standard style, ending with its blank line.
pub fn standard(g: &Standard) -> String {
    let mut out = String::new();
    tag(&mut out, "Event", g.event);
    tag(&mut out, "Site", "?");
    tag(&mut out, "Date", &date(g.started_unix));
    tag(&mut out, "Round", g.round);
    tag(&mut out, "White", g.white);
    tag(&mut out, "Black", g.black);
    tag(&mut out, "Result", g.result);
    if let Some(f) = g.fen {
        tag(&mut out, "SetUp", "1");
        tag(&mut out, "FEN", f);
    }
    tag(&mut out, "Termination", g.termination_tag);
    let plies = g.opening.len() + g.moves.len();
    tag(&mut out, "PlyCount", &plies.to_string());
    if !g.opening.is_empty() {
        tag(&mut out, "Opening", &g.opening.join(" "));
    }
    for (name, value) in g.extra {
        tag(&mut out, name, value);
    }
    out.push('\n');
    let mut units = movetext(g);
    units.push(format!("{{{}}}", g.termination));
    units.push(g.result.to_string());
    out.push_str(&wrap(&units));
    out.push_str("\n\n");
    out
}

/// The movetext's moves and comments as unbreakable units (a numbered
/// move, a comment), in order.
fn movetext(g: &Standard) -> Vec<String> {
    let mut units = Vec::new();
    let mut numbers = MoveNumbers::new(g.fen.is_some_and(black_starts));
    for (i, m) in g.opening.iter().enumerate() {
        units.push(numbers.next(m));
        if i + 1 == g.opening.len() {
            units.push("{book}".to_string());
        }
    }
    for m in g.moves {
        units.push(numbers.next(&m.text));
        units.push(comment(m));
    }
    units
}

/// `{time depth nodes}` for one played move.
pub fn comment(m: &MoveRecord) -> String {
    let ms = m.time_ns / 1_000_000;
    let secs = format!("{}.{:03}", ms / 1000, ms % 1000);
    let depth = m.depth.map_or("-".to_string(), |d| d.to_string());
    let nodes = m.nodes.map_or("-".to_string(), |n| n.to_string());
    format!("{{{secs} {depth} {nodes}}}")
}

/// Numbers moves as chess does: `1. m`, then the reply bare, `2. m`, …;
/// a game whose first move is Lavender's begins `1... m`.
pub struct MoveNumbers {
    /// Plies from Tangerine's first move of move 1.
    ply: usize,
    first: bool,
}

impl MoveNumbers {
    pub fn new(black_first: bool) -> MoveNumbers {
        MoveNumbers {
            ply: usize::from(black_first),
            first: true,
        }
    }

    /// The next move's text with its number, if it gets one.
    pub fn next(&mut self, text: &str) -> String {
        let number = self.ply / 2 + 1;
        let unit = if self.ply.is_multiple_of(2) {
            format!("{number}. {text}")
        } else if self.first {
            format!("{number}... {text}")
        } else {
            text.to_string()
        };
        self.first = false;
        self.ply += 1;
        unit
    }
}

/// Whether a game from `fen` starts with Lavender (Black) to move; for an
/// unparsable FEN (a void game), what its side letter says.
pub fn black_starts(fen: &str) -> bool {
    match fen::parse(fen) {
        Ok(b) => b.side() == Color::Black,
        Err(_) => fen
            .split_whitespace()
            .nth(1)
            .is_some_and(|s| s.eq_ignore_ascii_case("b")),
    }
}

/// Joins `units` with spaces into lines of at most `WIDTH` columns (a unit
/// longer than that gets a line of its own).
fn wrap(units: &[String]) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for u in units {
        if line_len > 0 && line_len + 1 + u.len() > WIDTH {
            out.push('\n');
            line_len = 0;
        }
        if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(u);
        line_len += u.len();
    }
    out
}

/// Appends the tag `[name "value"]` and its line break.
pub fn tag(out: &mut String, name: &str, value: &str) {
    out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
}

/// A tag value: `\` and `"` escaped, line breaks and tabs made spaces.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The UTC civil date of a Unix time, as `YYYY.MM.DD`.
pub fn date(unix: u64) -> String {
    let (y, m, d) = civil_from_days((unix / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// (year, month, day) of the day `days` after 1970-01-01 in the proleptic
/// Gregorian calendar (H. Hinnant's `civil_from_days`: 400-year eras of
/// 146097 days, years starting on March 1).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
    let mp = (5 * doy + 2) / 153; // [0, 11], March = 0
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str, time_ms: u64, depth: Option<u32>, nodes: Option<u64>) -> MoveRecord {
        MoveRecord {
            text: text.to_string(),
            // Sub-millisecond digits that the style drops.
            time_ns: time_ms * 1_000_000 + 123,
            depth,
            nodes,
            score: None,
        }
    }

    #[test]
    fn long_games_wrap_at_80_columns() {
        let opening = ["g4L".to_string(), "b3L".to_string()];
        let moves: Vec<MoveRecord> = (0..60)
            .map(|i| {
                mv(
                    if i % 2 == 0 { "h0R" } else { "a7L" },
                    123_456,
                    Some(12),
                    Some(9_876_543),
                )
            })
            .collect();
        let g = Standard {
            event: "e",
            round: "1",
            white: "w",
            black: "b",
            fen: None,
            opening: &opening,
            moves: &moves,
            result: "1-0",
            termination_tag: "normal",
            termination: "King zapped",
            started_unix: 0,
            extra: &[],
        };
        let pgn = standard(&g);
        let body = pgn.split("\n\n").nth(1).unwrap();
        assert!(body.lines().count() > 10);
        assert!(body
            .lines()
            .all(|l| l.len() <= WIDTH && !l.ends_with(' ') && !l.starts_with(' ')));
        // Nothing is lost or reordered by the wrapping.
        let joined = body.lines().collect::<Vec<_>>().join(" ");
        assert_eq!(joined, movetext(&g).join(" ") + " {King zapped} 1-0");
        assert!(joined.starts_with("1. g4L b3L {book} 2. h0R {123.456 12 9876543} a7L"));
        assert!(joined.contains("31. h0R {123.456 12 9876543} a7L"));
    }

    #[test]
    fn numbers_from_either_side_and_unknown_figures() {
        let mut n = MoveNumbers::new(true);
        let units: Vec<String> = ["a7b7", "h0g0", "b7b6"].iter().map(|m| n.next(m)).collect();
        assert_eq!(units, ["1... a7b7", "2. h0g0", "b7b6"]);
        assert_eq!(comment(&mv("h0R", 1003, None, None)), "{1.003 - -}");
        assert!(black_starts("ss7/8/8/8/8/8/8/7NN B") && !black_starts(fen::STARTPOS));
        assert!(black_starts("not-a-board b"));
    }

    #[test]
    fn tag_values_are_escaped() {
        let mut out = String::new();
        tag(&mut out, "White", "a \"b\"\\c\nd");
        assert_eq!(out, "[White \"a \\\"b\\\"\\\\c d\"]\n");
    }

    #[test]
    fn civil_dates() {
        assert_eq!(date(0), "1970.01.01");
        assert_eq!(date(951_782_400), "2000.02.29");
        assert_eq!(date(951_868_800), "2000.03.01");
        assert_eq!(date(1_704_067_199), "2023.12.31");
        assert_eq!(date(1_704_067_200), "2024.01.01");
        assert_eq!(date(4_107_542_400), "2100.03.01");
    }
}
